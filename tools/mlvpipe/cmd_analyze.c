/* mlvpipe analyze CLIP [-o levels.json]: clip-level dual-ISO levels as a sidecar
 * (mlvpipe_analyze, include/mlvpipe/convert.h), for `mlvpipe convert --levels` on every farm
 * chunk. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"
#include "cli_run.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: mlvpipe analyze CLIP [-o levels.json] [options]\n"
        "\n"
        "Estimates the clip's dual-ISO levels (row phase, ISO ratio, per-field black, white\n"
        "and noise) from up to 32 frames spread over each segment of the clip (a segment\n"
        "ends where the recorded settings change) and writes them as a JSON sidecar (format:\n"
        "doc/json.md, section 2). 'mlvpipe convert --levels FILE' then uses\n"
        "them, so chunks converted on different machines share the same levels. Without -o\n"
        "the JSON goes to stdout. A single-ISO clip gets pass-through levels.\n"
        "\n"
        "options:\n");
    cli_options_print(out, CLI_ANALYZE, 22);
    fprintf(out,
        "\n"
        "When stderr is a terminal (and without -q), a bar shows the sampled frames read.\n"
        "\n"
        "exit status: 0 ok, 2 usage, 3 input unreadable or unsupported, 4 input damaged,\n"
        "5 output failed, 6 interrupted, 1 internal error.\n");
}

int cmd_analyze(int argc, char **argv)
{
    static const char command[] = "analyze";
    mlvpipe_analyze_settings s;
    mlvpipe_default_analyze_settings(&s);
    s.log = cli_api_logger;
    s.tool = "mlvpipe " MLVPIPE_VERSION;
    cli_parsed parsed;
    int rc = cli_options_parse(CLI_ANALYZE, command, argc, argv, &s, &parsed, usage);
    if (rc || parsed.help)
        return rc;
    if ((rc = cli_one_clip(command, parsed.operands, parsed.operand_count, &s.input)) ||
        (rc = cli_check_new_output(command, s.output, s.overwrite)))
        return rc;

    s.cancel = &cli_cancel;
    cli_progress progress;
    cli_progress_init(&progress, CLI_PROGRESS_AUTO, 0, 0);
    s.progress = cli_progress_print;
    s.progress_opaque = &progress;
    mlvpipe_analyze_result res;
    mlvpipe_error err = {0};
    mlvpipe_status st = mlvpipe_analyze(&s, &res, &err);
    cli_progress_close(&progress);
    int code = EXIT_OK;
    if (st == MLVPIPE_ERR_DAMAGED) {
        code = EXIT_DAMAGED; /* the damage was logged while opening; the levels are complete */
    } else if (st != MLVPIPE_OK) {
        if (st == MLVPIPE_ERR_ARG)   /* e.g. an output that is the clip */
            return cli_usage_error(command, "%s", err.message);
        cli_log(MLVPIPE_LOG_ERROR, "%s", err.message);
        if (res.output_failed)
            return st == MLVPIPE_ERR_IO ? EXIT_OUTPUT : EXIT_INTERNAL;
        return st == MLVPIPE_ERR_INTERRUPTED ? EXIT_INTERRUPTED : cli_exit_for_input(st);
    }
    if (res.json) {
        size_t len = strlen(res.json);
        if (fwrite(res.json, 1, len, stdout) != len || fflush(stdout) != 0) {
            cli_log(MLVPIPE_LOG_ERROR, "stdout: write failed");
            code = EXIT_OUTPUT;
        }
        free(res.json);
    }
    return code;
}
