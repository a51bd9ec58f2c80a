/* mlvpipe convert CLIP -o OUT: a clip to a CinemaDNG sequence or a movie
 * (src/pipeline/convert.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_run.h"
#include "encode/av/av_sink.h"
#include "pipeline/convert.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: mlvpipe convert CLIP -o DIR|FILE|- [options]\n"
        "\n"
        "Converts a Magic Lantern clip (.MLV with its chunks, or .RAW) to a CinemaDNG\n"
        "sequence DIR/NAME/NAME_000000.dng (+ NAME.wav when the clip has audio), or to a\n"
        "movie file (--to). Dual-ISO clips are reconstructed with clip-level levels (16-bit\n"
        "DNG); other clips keep their recorded samples. Files appear under their final name\n"
        "only when complete. A movie of a --frames range starts at that frame's time stamp,\n"
        "so chunks join with ffmpeg's concat demuxer; lost frames repeat the previous one.\n"
        "\n"
        "options:\n"
        "  -o, --output OUT      output directory (DNG), file or - (movies) (required)\n"
        "      --to FORMAT       dng (default); a movie: prores422hq, prores4444 (MOV),\n"
        "                        ffv1 (MKV), nut or rawvideo (for pipes: -o - is stdout);\n"
        "                        md5 (-o is a text file of per-frame MD5s) or null\n"
        "                        (discard), for tests and timing\n"
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
        "      --no-audio        no WAV, no audio track in a movie\n"
        "      --phase N         force dual ISO with row phase 0..3 (default: detect)\n"
        "      --cache DIR       keep reconstructed dual-ISO frames in DIR (LZ4, about 2.4:1)\n"
        "                        and reuse them: a re-render with other --to, --curve,\n"
        "                        --gamut, --exposure or --fast skips reading and dual ISO.\n"
        "                        Entries are keyed by clip, frame, levels and program\n"
        "                        version; damaged or stale ones are recomputed (-v: summary)\n"
        "movies (develop raw to RGB):\n"
        "      --gamut G         rec709 (default), rec2020, aces (AP0)\n"
        "      --curve C         bt709 (default), linear, logc3, slog3\n"
        "      --exposure EV     exposure offset, -16..16 (default 0)\n"
        "      --fast            bilinear demosaic instead of RCD\n"
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
       OPT_PROGRESS, OPT_AUDIO, OPT_NO_AUDIO, OPT_PHASE, OPT_GAMUT, OPT_CURVE, OPT_EXPOSURE,
       OPT_FAST, OPT_CACHE };

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
    {"gamut", required_argument, NULL, OPT_GAMUT},
    {"curve", required_argument, NULL, OPT_CURVE},
    {"exposure", required_argument, NULL, OPT_EXPOSURE},
    {"fast", no_argument, NULL, OPT_FAST},
    {"cache", required_argument, NULL, OPT_CACHE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Index of s in names (count entries), or -1. */
static int pick(const char *s, const char *const *names, int count)
{
    for (int i = 0; i < count; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}

static const char *const formats[] = {"dng", "md5", "null", "prores422hq", "prores4444",
                                      "ffv1", "nut", "rawvideo"};
static const char *const gamuts[] = {"rec709", "rec2020", "aces"};
static const develop_gamut gamut_values[] = {DEVELOP_GAMUT_REC709, DEVELOP_GAMUT_REC2020,
                                             DEVELOP_GAMUT_ACES_AP0};
static const char *const curves[] = {"bt709", "linear", "logc3", "slog3"};
static const develop_curve curve_values[] = {DEVELOP_CURVE_BT709, DEVELOP_CURVE_LINEAR,
                                             DEVELOP_CURVE_LOGC3, DEVELOP_CURVE_SLOG3};

int cmd_convert(int argc, char **argv)
{
    static const char command[] = "convert";
    mp_convert_options o;
    mp_convert_options_default(&o);
    o.tool = "mlvpipe " MLVPIPE_VERSION;
    o.log = cli_logger;
    cli_progress_mode mode = CLI_PROGRESS_AUTO;
    int k, rc;

    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:h", long_options, NULL)) != -1) {
        switch (c) {
        case 'o': o.output = optarg; break;
        case OPT_TO: o.format = optarg; break;
        case OPT_FRAMES: o.frames = optarg; break;
        case OPT_THREADS:
            if ((rc = cli_option_threads(command, optarg, &o.threads)))
                return rc;
            break;
        case OPT_LEVELS: o.levels_path = optarg; break;
        case OPT_SKIP: o.skip_existing = 1; break;
        case OPT_OVERWRITE: o.overwrite = 1; break;
        case OPT_PROGRESS:
            if (!cli_parse_progress(optarg, &mode))
                return cli_usage_error(command,
                                       "--progress takes auto, json or none, not '%s'", optarg);
            break;
        case OPT_AUDIO: o.audio = 1; break;
        case OPT_NO_AUDIO: o.audio = 0; break;
        case OPT_PHASE:
            if ((rc = cli_option_phase(command, optarg, &o.force_phase)))
                return rc;
            break;
        case OPT_GAMUT:
            if ((k = pick(optarg, gamuts, 3)) < 0)
                return cli_usage_error(command,
                                       "--gamut takes rec709, rec2020 or aces, not '%s'", optarg);
            o.develop.gamut = gamut_values[k];
            break;
        case OPT_CURVE:
            if ((k = pick(optarg, curves, 4)) < 0)
                return cli_usage_error(command,
                                       "--curve takes bt709, linear, logc3 or slog3, not '%s'",
                                       optarg);
            o.develop.curve = curve_values[k];
            break;
        case OPT_EXPOSURE: {
            char *end;
            double ev = strtod(optarg, &end);
            if (end == optarg || *end || !(ev >= -16 && ev <= 16))
                return cli_usage_error(command,
                                       "--exposure takes a number of EV from -16 to 16, not '%s'",
                                       optarg);
            o.develop.exposure_ev = (float)ev;
            break;
        }
        case OPT_FAST: o.develop.demosaic = DEVELOP_DEMOSAIC_BILINEAR; break;
        case OPT_CACHE: o.cache_dir = optarg; break;
        case 'h': usage(stdout); return EXIT_OK;
        default:
            return cli_usage_error(command, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    /* getopt_long moved the operands to the end. */
    if ((rc = cli_one_clip(command, argv + optind, argc - optind, &o.input)))
        return rc;
    if (!o.output)
        return cli_usage_error(command, "no output given (-o DIR)");
    if (pick(o.format, formats, 8) < 0)
        return cli_usage_error(command,
                               "--to takes dng, prores422hq, prores4444, ffv1, nut, rawvideo, md5 "
                               "or null, not '%s'", o.format);
    if (!strcmp(o.output, "-") && pick(o.format, formats, 3) >= 0)
        return cli_usage_error(command,
                               "-o - (stdout) is for movies (--to nut, rawvideo, ffv1), not %s",
                               o.format);
    if (o.skip_existing && o.overwrite)
        return cli_usage_error(command, "--skip-existing and --overwrite exclude each other");

    cli_progress progress;
    cli_progress_init(&progress, mode);
    o.progress = cli_progress_print;
    o.progress_opaque = &progress;
    cli_install_signals();
    o.cancel = &cli_cancel;
    av_sink_route_av_log(&cli_logger);

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
