/* mlvpipe convert CLIP -o DIR: a clip to a CinemaDNG sequence (src/pipeline/convert.h). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_run.h"
#include "pipeline/convert.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: mlvpipe convert CLIP -o DIR [options]\n"
        "\n"
        "Converts a Magic Lantern clip (.MLV with its chunks, or .RAW) to a CinemaDNG\n"
        "sequence DIR/NAME/NAME_000000.dng (+ NAME.wav when the clip has audio). Dual-ISO\n"
        "clips are reconstructed with clip-level levels (16-bit DNG); other clips keep their\n"
        "recorded samples. Files appear under their final name only when complete.\n"
        "\n"
        "options:\n"
        "  -o, --output DIR      output directory (required)\n"
        "      --to FORMAT       dng (default); md5 (DIR is a text file of per-frame MD5s)\n"
        "                        or null (discard), for tests and timing\n"
        "      --frames SPEC     absolute frame numbers, inclusive: N, A-B, A-, -B, A-B:STEP,\n"
        "                        or a comma list (1-3,5,7-20:2). An end past the clip is\n"
        "                        clamped with a warning; a start past it is an error.\n"
        "      --threads N       worker threads (default: one per CPU)\n"
        "      --levels FILE     dual-ISO levels from 'mlvpipe analyze' (default: estimated\n"
        "                        from frames sampled over the whole clip; same result)\n"
        "      --skip-existing   keep frames whose final file exists (resume a run)\n"
        "      --overwrite       replace existing files (default: existing files are errors)\n"
        "      --progress MODE   auto (a status line when stderr is a terminal), json (one\n"
        "                        JSON event per line on stderr, for farms), none\n"
        "      --audio           write the WAV even for a --frames part of the clip\n"
        "      --no-audio        never write the WAV\n"
        "      --phase N         force dual ISO with row phase 0..3 (default: detect)\n"
        "  -h, --help            show this help\n"
        "\n"
        "Signals: SIGINT/SIGTERM stop after the frames in progress (exit 6); re-run with\n"
        "--skip-existing to finish. Chunks converted separately (--frames) give the same bytes\n"
        "as one run, for any --threads.\n"
        "\n"
        "exit status: 0 every selected frame written or skipped, 2 usage, 3 input unreadable\n"
        "or unsupported, 4 input damaged (every intact frame written), 5 output failed,\n"
        "6 interrupted, 1 internal error.\n");
}

enum { OPT_TO = 256, OPT_FRAMES, OPT_THREADS, OPT_LEVELS, OPT_SKIP, OPT_OVERWRITE,
       OPT_PROGRESS, OPT_AUDIO, OPT_NO_AUDIO, OPT_PHASE };

static const struct option long_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"to", required_argument, NULL, OPT_TO},
    {"frames", required_argument, NULL, OPT_FRAMES},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"levels", required_argument, NULL, OPT_LEVELS},
    {"skip-existing", no_argument, NULL, OPT_SKIP},
    {"overwrite", no_argument, NULL, OPT_OVERWRITE},
    {"progress", required_argument, NULL, OPT_PROGRESS},
    {"audio", no_argument, NULL, OPT_AUDIO},
    {"no-audio", no_argument, NULL, OPT_NO_AUDIO},
    {"phase", required_argument, NULL, OPT_PHASE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "mlvpipe convert: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see 'mlvpipe convert --help')\n");
    return EXIT_USAGE;
}

int cmd_convert(int argc, char **argv)
{
    mp_convert_options o;
    mp_convert_options_default(&o);
    o.tool = "mlvpipe " MLVPIPE_VERSION;
    o.log = cli_logger;
    cli_progress_mode mode = CLI_PROGRESS_AUTO;
    uint32_t value;

    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:h", long_options, NULL)) != -1) {
        switch (c) {
        case 'o': o.output = optarg; break;
        case OPT_TO: o.format = optarg; break;
        case OPT_FRAMES: o.frames = optarg; break;
        case OPT_THREADS:
            if (!cli_parse_uint(optarg, 1, 256, &value))
                return usage_error("--threads needs a number from 1 to 256, not '%s'", optarg);
            o.threads = value;
            break;
        case OPT_LEVELS: o.levels_path = optarg; break;
        case OPT_SKIP: o.skip_existing = 1; break;
        case OPT_OVERWRITE: o.overwrite = 1; break;
        case OPT_PROGRESS:
            if (!cli_parse_progress(optarg, &mode))
                return usage_error("--progress takes auto, json or none, not '%s'", optarg);
            break;
        case OPT_AUDIO: o.audio = 1; break;
        case OPT_NO_AUDIO: o.audio = 0; break;
        case OPT_PHASE:
            if (!cli_parse_uint(optarg, 0, 3, &value))
                return usage_error("--phase takes 0, 1, 2 or 3, not '%s'", optarg);
            o.force_phase = (int)value;
            break;
        case 'h': usage(stdout); return EXIT_OK;
        default:
            return usage_error("unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    /* getopt_long moved the operands to the end. */
    for (; optind < argc; optind++) {
        if (o.input)
            return usage_error("one clip at a time ('%s' is extra)", argv[optind]);
        o.input = argv[optind];
    }
    if (!o.input)
        return usage_error("%s", "no clip given");
    if (!o.output)
        return usage_error("%s", "no output given (-o DIR)");
    if (strcmp(o.format, "dng") && strcmp(o.format, "md5") && strcmp(o.format, "null"))
        return usage_error("--to takes dng, md5 or null, not '%s'", o.format);
    if (o.skip_existing && o.overwrite)
        return usage_error("%s", "--skip-existing and --overwrite exclude each other");

    cli_progress progress;
    cli_progress_init(&progress, mode);
    o.progress = cli_progress_print;
    o.progress_opaque = &progress;
    cli_install_signals();
    o.cancel = &cli_cancel;

    mp_convert_result res;
    mp_error err = {0};
    mp_status st = mp_convert(&o, &res, &err);
    if (st == MP_OK)
        return EXIT_OK;
    /* In JSON mode the closing "error" event already carries the message. */
    if (mode != CLI_PROGRESS_JSON)
        mp_log(&cli_logger, st == MP_ERR_INTERRUPTED ? MP_LOG_WARNING : MP_LOG_ERROR, "%s",
               err.msg);
    if (st == MP_ERR_INTERRUPTED)
        return EXIT_INTERRUPTED;
    return res.output_failed ? EXIT_OUTPUT : cli_exit_for_input(st);
}
