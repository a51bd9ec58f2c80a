/* mlvpipe report CLIP|FOLDER... -o report.html [--json FILE]: a look at clips before
 * grading (mlvpipe_report, include/mlvpipe/report.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_batch.h"
#include "cli_options.h"
#include "cli_run.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: mlvpipe report CLIP|FOLDER... -o report.html [--json FILE] [options]\n"
        "\n"
        "One self-contained HTML page (no script, nothing fetched; open it in any browser)\n"
        "showing each clip at a glance: a contact sheet, the raw histogram per channel in EV\n"
        "below the clip (per field for dual ISO), clipped and crushed fractions over time,\n"
        "the dual-ISO levels and dynamic range, the raw defect map, band means over time\n"
        "against the noise (flicker), audio levels, gaps and damage. --json writes every\n"
        "number (doc/json.md, section 5). Frames are sampled over each clip and read the\n"
        "way convert reads them, so a long clip takes seconds. A folder stands for its .MLV,\n"
        ".RAW, .CR2 and .DNG files (each raw photo a clip of one frame).\n"
        "\n"
        "options:\n");
    cli_options_print(out, CLI_REPORT, 22);
    fprintf(out,
        "\n"
        "exit status: 0 ok, 2 usage, 3 a clip unreadable or unsupported, 4 a clip damaged\n"
        "(the page shows what is readable), 5 output failed, 6 interrupted, 1 internal error.\n"
        "The outputs are written in every case but 2, 5 and 6.\n");
}

typedef struct clip_codes {
    int worst;
} clip_codes;

static void clip_done(void *opaque, const char *path, mlvpipe_status st, const char *message,
                      double seconds)
{
    clip_codes *c = opaque;
    int code = cli_exit_for_input(st);
    c->worst = cli_exit_worse(c->worst, code);
    if (st != MLVPIPE_OK)
        cli_log(st == MLVPIPE_ERR_DAMAGED ? MLVPIPE_LOG_WARNING : MLVPIPE_LOG_ERROR, "%s",
                message);
    char name[4 * PATH_MAX];
    if (cli_verbosity > 0)
        fprintf(stderr, "mlvpipe: report: %s: %s (%.2f s)\n",
                cli_escaped(path, name, sizeof name), cli_exit_name(code), seconds);
}

int cmd_report(int argc, char **argv)
{
    static const char command[] = "report";
    cli_report_args a = {0};
    mlvpipe_report_settings *const s = &a.s;
    mlvpipe_default_report_settings(s);
    s->log = cli_api_logger;
    s->tool = "mlvpipe " MLVPIPE_VERSION;
    cli_parsed parsed;
    int rc = cli_options_parse(CLI_REPORT, command, argc, argv, &a, &parsed, usage);
    if (rc || parsed.help)
        return rc;
    if (!s->html && !s->json)
        return cli_usage_error(command, "nothing to write: give -o report.html and/or --json "
                               "FILE");
    if (s->html && s->json && !strcmp(s->html, s->json))
        return cli_usage_error(command, "-o and --json name the same file");
    if ((rc = cli_check_new_output(command, s->html, s->overwrite)) ||
        (rc = cli_check_new_output(command, s->json, s->overwrite)))
        return rc;
    cli_clips clips;
    if ((rc = cli_clips_collect(command, parsed.operands, parsed.operand_count, a.sequence,
                                &clips)))
        return rc;
    s->inputs = (const char *const *)clips.path;
    s->input_count = (uint32_t)clips.count;
    s->cancel = &cli_cancel;
    clip_codes codes = {EXIT_OK};
    s->clip_done = clip_done;
    s->clip_done_opaque = &codes;
    mlvpipe_report_result res;
    mlvpipe_error err = {0};
    mlvpipe_status st = mlvpipe_report(s, &res, &err);
    cli_clips_free(&clips);
    if (st == MLVPIPE_ERR_ARG && (res.output_failed || !res.clips))
        return cli_usage_error(command, "%s", err.message);
    if (res.output_failed) {
        cli_log(MLVPIPE_LOG_ERROR, "%s", err.message);
        return EXIT_OUTPUT;
    }
    if (cli_verbosity > 0 && res.clips > 1)
        fprintf(stderr, "mlvpipe: report: %u clips: %u ok, %u damaged, %u not read\n",
                res.clips, res.ok, res.damaged, res.failed);
    return codes.worst;
}
