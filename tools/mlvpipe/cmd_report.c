/* mlvpipe report CLIP|FOLDER... -o report.html [--json FILE]: a look at clips before
 * grading (mlvpipe_report, include/mlvpipe/report.h). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_batch.h"
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
        "options:\n"
        "  -o, --output FILE   the HTML page\n"
        "      --json FILE     the numbers as JSON\n"
        "      --overwrite     replace existing outputs\n"
        "      --samples N     frames measured per clip, spread over it (1..1024, default 48)\n"
        "      --thumbs N      contact-sheet pictures per clip (0..64, default 8)\n"
        "      --thumb-width P their width in pixels (32..1024, default 192)\n"
        "      --threads N     worker threads (default: one per usable CPU); the result is\n"
        "                      the same\n"
        "      --no-defects    do not look for raw defects (focus, hot, cold pixels, stripes)\n"
        "      --dark CLIP|DNG subtract this dark frame from every frame first, as\n"
        "                      'convert --dark' does (the same checks)\n"
        "      --sequence      a FOLDER of raw photos is one clip, a frame per photo (a\n"
        "                      timelapse), as convert --sequence takes it\n"
        "  -h, --help          show this help\n"
        "\n"
        "exit status: 0 ok, 2 usage, 3 a clip unreadable or unsupported, 4 a clip damaged\n"
        "(the page shows what is readable), 5 output failed, 6 interrupted, 1 internal error.\n"
        "The outputs are written in every case but 2, 5 and 6.\n");
}

enum { OPT_JSON = 256, OPT_OVERWRITE, OPT_SAMPLES, OPT_THUMBS, OPT_THUMB_WIDTH, OPT_THREADS,
       OPT_NO_DEFECTS, OPT_DARK, OPT_SEQUENCE };

static const struct option long_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"json", required_argument, NULL, OPT_JSON},
    {"overwrite", no_argument, NULL, OPT_OVERWRITE},
    {"samples", required_argument, NULL, OPT_SAMPLES},
    {"thumbs", required_argument, NULL, OPT_THUMBS},
    {"thumb-width", required_argument, NULL, OPT_THUMB_WIDTH},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"no-defects", no_argument, NULL, OPT_NO_DEFECTS},
    {"dark", required_argument, NULL, OPT_DARK},
    {"sequence", no_argument, NULL, OPT_SEQUENCE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

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

static int number_option(const char *command, const char *name, const char *arg, uint32_t min,
                         uint32_t max, uint32_t *out)
{
    if (!cli_parse_uint(arg, min, max, out))
        return cli_usage_error(command, "--%s takes a whole number %u..%u, not '%s'", name, min,
                               max, arg);
    return EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
    static const char command[] = "report";
    mlvpipe_report_settings s;
    mlvpipe_default_report_settings(&s);
    s.log = cli_api_logger;
    s.tool = "mlvpipe " MLVPIPE_VERSION;
    int rc, sequence = 0;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, CLI_COMMON_SHORT "o:", long_options, NULL)) != -1) {
        switch (c) {
        case 'o': s.html = optarg; break;
        case OPT_JSON: s.json = optarg; break;
        case OPT_OVERWRITE: s.overwrite = 1; break;
        case OPT_SAMPLES:
            if ((rc = number_option(command, "samples", optarg, 1, 1024, &s.samples)))
                return rc;
            break;
        case OPT_THUMBS:
            if ((rc = number_option(command, "thumbs", optarg, 0, 64, &s.thumbs)))
                return rc;
            break;
        case OPT_THUMB_WIDTH:
            if ((rc = number_option(command, "thumb-width", optarg, 32, 1024, &s.thumb_width)))
                return rc;
            break;
        case OPT_THREADS:
            if ((rc = cli_option_threads(command, optarg, &s.threads)))
                return rc;
            break;
        case OPT_NO_DEFECTS: s.no_defects = 1; break;
        case OPT_DARK: s.dark = optarg; break;
        case OPT_SEQUENCE: sequence = 1; break;
        case 'h': usage(stdout); return EXIT_OK;
        case 'v':
        case 'q': cli_verbosity_option(c); break;
        default: return cli_option_error(command, c, argv);
        }
    }
    if (!s.html && !s.json)
        return cli_usage_error(command, "nothing to write: give -o report.html and/or --json "
                               "FILE");
    if (s.html && s.json && !strcmp(s.html, s.json))
        return cli_usage_error(command, "-o and --json name the same file");
    cli_clips clips;
    if ((rc = cli_clips_collect(command, argv + optind, argc - optind, sequence, &clips)))
        return rc;
    s.inputs = (const char *const *)clips.path;
    s.input_count = (uint32_t)clips.count;
    s.cancel = &cli_cancel;
    clip_codes codes = {EXIT_OK};
    s.clip_done = clip_done;
    s.clip_done_opaque = &codes;
    mlvpipe_report_result res;
    mlvpipe_error err = {0};
    mlvpipe_status st = mlvpipe_report(&s, &res, &err);
    cli_clips_free(&clips);
    if (res.output_failed) {
        cli_log(MLVPIPE_LOG_ERROR, "%s", err.message);
        return st == MLVPIPE_ERR_ARG ? EXIT_USAGE : EXIT_OUTPUT;
    }
    if (st == MLVPIPE_ERR_ARG && !res.clips) {
        cli_log(MLVPIPE_LOG_ERROR, "%s", err.message);
        return EXIT_USAGE;
    }
    if (cli_verbosity > 0 && res.clips > 1)
        fprintf(stderr, "mlvpipe: report: %u clips: %u ok, %u damaged, %u not read\n",
                res.clips, res.ok, res.damaged, res.failed);
    return codes.worst;
}
