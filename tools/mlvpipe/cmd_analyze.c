/* mlvpipe analyze CLIP [-o levels.json]: clip-level dual-ISO levels as a sidecar
 * (mlvpipe_analyze, include/mlvpipe/convert.h), for `mlvpipe convert --levels` on every farm
 * chunk. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
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
        "options:\n"
        "  -o, --output FILE   write the sidecar here (through a temporary file)\n"
        "      --overwrite     replace an existing FILE\n"
        "      --threads N     worker threads (default: one per usable CPU, see convert --help);\n"
        "                      the result is the same\n"
        "      --phase N       force dual ISO with row phase 0..3 (default: detect)\n"
        "      --dark CLIP     measure on frames with CLIP's averaged dark frame subtracted,\n"
        "                      as 'convert --dark CLIP' does (give convert the same CLIP)\n"
        "      --defects-from CLIP\n"
        "                      the sidecar gets CLIP's hot, cold and focus pixels instead\n"
        "                      of this clip's (see convert --help)\n"
        "  -h, --help          show this help\n"
        "\n"
        "When stderr is a terminal (and without -q), a bar shows the sampled frames read.\n"
        "\n"
        "exit status: 0 ok, 2 usage, 3 input unreadable or unsupported, 4 input damaged,\n"
        "5 output failed, 6 interrupted, 1 internal error.\n");
}

enum { OPT_THREADS = 256, OPT_PHASE, OPT_OVERWRITE, OPT_DARK, OPT_DEFECTS_FROM };

static const struct option long_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"overwrite", no_argument, NULL, OPT_OVERWRITE},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"phase", required_argument, NULL, OPT_PHASE},
    {"dark", required_argument, NULL, OPT_DARK},
    {"defects-from", required_argument, NULL, OPT_DEFECTS_FROM},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

int cmd_analyze(int argc, char **argv)
{
    static const char command[] = "analyze";
    mlvpipe_analyze_settings s;
    mlvpipe_default_analyze_settings(&s);
    s.log = cli_api_logger;
    s.tool = "mlvpipe " MLVPIPE_VERSION;
    const char *output = NULL;
    int rc;

    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, CLI_COMMON_SHORT "o:", long_options, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case OPT_OVERWRITE: s.overwrite = 1; break;
        case OPT_DARK: s.dark = optarg; break;
        case OPT_DEFECTS_FROM: s.defects_from = optarg; break;
        case OPT_THREADS:
            if ((rc = cli_option_threads(command, optarg, &s.threads)))
                return rc;
            break;
        case OPT_PHASE:
            if ((rc = cli_option_phase(command, optarg, &s.force_phase)))
                return rc;
            break;
        case 'h': usage(stdout); return EXIT_OK;
        case 'v':
        case 'q': cli_verbosity_option(c); break;
        default: return cli_option_error(command, c, argv);
        }
    }
    if ((rc = cli_one_clip(command, argv + optind, argc - optind, &s.input)))
        return rc;
    s.output = output;

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
        cli_log(MLVPIPE_LOG_ERROR, "%s", err.message);
        if (st == MLVPIPE_ERR_ARG)   /* e.g. an output that is the clip */
            return EXIT_USAGE;
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
