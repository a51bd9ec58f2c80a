/* mlvpipe convert CLIP -o OUT: a clip to a CinemaDNG sequence or a movie
 * (mlvpipe_convert, include/mlvpipe/convert.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_run.h"

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
        "      --to FORMAT       one of (default dng):\n");
    cli_print_formats(out, 0);
    fprintf(out,
        "      --frames SPEC     absolute frame numbers, inclusive: N, A-B, A-, -B, A-B:STEP,\n"
        "                        or a comma list (1-3,5,7-20:2). An end past the clip is\n"
        "                        clamped with a warning; a start past it is an error.\n"
        "      --threads N       worker threads (default: one per CPU this process may use:\n"
        "                        affinity mask and cgroup CPU quota, as nproc counts)\n"
        "      --levels FILE     dual-ISO levels from 'mlvpipe analyze' (default: estimated\n"
        "                        from frames sampled over the whole clip; same result)\n"
        "      --skip-existing   keep frames whose final file exists (resume a run)\n"
        "      --overwrite       replace existing files (default: existing files are errors)\n"
        "      --progress MODE   auto (a status line when stderr is a terminal), json (one\n"
        "                        JSON event per line on stderr, for farms), none\n"
        "      --audio           write the WAV even for a --frames part of the clip\n"
        "      --no-audio        no WAV, no audio track in a movie\n"
        "      --phase N         force dual ISO with row phase 0..3 (default: detect)\n"
        "      --no-focus-pixels keep the focus-pixel lattice found in the clip unrepaired\n"
        "      --no-bad-pixels   keep the hot and cold pixels found in the clip unrepaired\n"
        "      --no-stripes      no column (vertical stripe) gain correction. By default the\n"
        "                        pre-pass finds these raw defects in frames sampled over\n"
        "                        the clip and repairs them before dual ISO (all three off:\n"
        "                        not even looked for)\n"
        "      --chroma-smooth N dual ISO: smooth chroma noise in the deep shadows over 2x2\n"
        "                        cells and their neighbours: 0 off (default), 2 (5 cells),\n"
        "                        3 (3x3 cells) or 5 (5x5 cells), like cr2hdr's --cs2x2..5x5.\n"
        "                        Only cells with green SNR below 12 change; costs 0.01-0.02\n"
        "                        EV of zone-plate detail\n"
        "      --fps NUM[/DEN]   frame rate of every output instead of the recorded one\n"
        "                        (normalised: 23976/1000 means 24000/1001): DNG FrameRate\n"
        "                        and TimeCodes, the WAV's timing, a movie's time base. Audio\n"
        "                        keeps its sample rate: a movie's track is cut or padded\n"
        "                        with silence to end with the last frame\n"
        "      --timecode TC     zero (default: frame 0 is 00:00:00:00) or time-of-day\n"
        "                        (the recording's start time from the clip's RTCI block)\n"
        "      --drop-frame      drop-frame time codes (only at 30000/1001 or 60000/1001)\n"
        "      --cache DIR       keep reconstructed dual-ISO frames in DIR (LZ4, about 2.4:1)\n"
        "                        and reuse them: a re-render with other --to, --curve,\n"
        "                        --gamut, --exposure or --fast skips reading and dual ISO.\n"
        "                        Entries are keyed by clip, frame, levels and program\n"
        "                        version; damaged or stale ones are recomputed (-v: summary)\n"
        "DNG sequences:\n"
        "      --dng-bits B      native (default: samples packed at the recorded 10/12/14\n"
        "                        bits, like mlv_dump) or 16 (16-bit samples, same values;\n"
        "                        for tools that take no packed DNG). Dual-ISO output is\n"
        "                        always 16-bit. For uncompressed DNGs only\n"
        "      --dng-compression C\n"
        "                        none (default); lj92: lossless JPEG with MLV-App's layout\n"
        "                        (predictor 6), which Resolve loads but darktable 4.2 does\n"
        "                        not; lj92-2c: lossless JPEG with two components\n"
        "                        (predictor 1), read by darktable too, not verified in\n"
        "                        Resolve. Both keep each sample's depth (16 for dual ISO);\n"
        "                        a 1920x1080 dual-ISO frame takes 41 %% (lj92) and 44 %%\n"
        "                        (lj92-2c) of its uncompressed size\n"
        "      --naming N        plain (default): NAME/NAME_000000.dng, numbered by absolute\n"
        "                        frame; resolve: NAME_1_YYYY-MM-DD_HHMM_C0000/ with files\n"
        "                        NAME_1_YYYY-MM-DD_HHMM_C0000_000000.dng (recording start\n"
        "                        from RTCI, 1970-01-01_0000 without it)\n"
        "      --clip-index N    the C0000 part of resolve names, 0..9999 (default 0)\n"
        "      --one-based       file numbers start at 1 (frame 0 -> _000001); TimeCodes\n"
        "                        are unchanged\n"
        "movies (develop raw to RGB):\n"
        "      --wb WB           white balance: asshot (default: the clip's WBAL as Magic\n"
        "                        Lantern means it: custom gains, else the Kelvin of its\n"
        "                        mode; daylight without WBAL), daylight (ColorMatrix1's\n"
        "                        illuminant), K (a colour temperature, 2000..25000, e.g.\n"
        "                        5600, through the camera's D65 matrix), auto (grey world\n"
        "                        over 16 frames spread across the whole clip, whatever\n"
        "                        --frames says, so farm chunks match), or R,G,B\n"
        "                        multipliers on the raw channels (e.g. 2,1,1.5; 0.01..100)\n"
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
       OPT_PROGRESS, OPT_AUDIO, OPT_NO_AUDIO, OPT_PHASE, OPT_CHROMA, OPT_GAMUT, OPT_CURVE, OPT_EXPOSURE,
       OPT_FAST, OPT_CACHE, OPT_DNG_BITS, OPT_DNG_COMPRESSION, OPT_NAMING, OPT_CLIP_INDEX,
       OPT_ONE_BASED, OPT_FPS, OPT_TIMECODE, OPT_DROP_FRAME, OPT_WB, OPT_NO_FOCUS,
       OPT_NO_BAD, OPT_NO_STRIPES };

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
    {"chroma-smooth", required_argument, NULL, OPT_CHROMA},
    {"gamut", required_argument, NULL, OPT_GAMUT},
    {"curve", required_argument, NULL, OPT_CURVE},
    {"exposure", required_argument, NULL, OPT_EXPOSURE},
    {"fast", no_argument, NULL, OPT_FAST},
    {"cache", required_argument, NULL, OPT_CACHE},
    {"dng-bits", required_argument, NULL, OPT_DNG_BITS},
    {"dng-compression", required_argument, NULL, OPT_DNG_COMPRESSION},
    {"naming", required_argument, NULL, OPT_NAMING},
    {"clip-index", required_argument, NULL, OPT_CLIP_INDEX},
    {"one-based", no_argument, NULL, OPT_ONE_BASED},
    {"fps", required_argument, NULL, OPT_FPS},
    {"timecode", required_argument, NULL, OPT_TIMECODE},
    {"drop-frame", no_argument, NULL, OPT_DROP_FRAME},
    {"wb", required_argument, NULL, OPT_WB},
    {"no-focus-pixels", no_argument, NULL, OPT_NO_FOCUS},
    {"no-bad-pixels", no_argument, NULL, OPT_NO_BAD},
    {"no-stripes", no_argument, NULL, OPT_NO_STRIPES},
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

static const char *const gamuts[] = {"rec709", "rec2020", "aces"};
static const mlvpipe_gamut gamut_values[] = {MLVPIPE_GAMUT_REC709, MLVPIPE_GAMUT_REC2020,
                                             MLVPIPE_GAMUT_ACES_AP0};
static const char *const compressions[] = {"none", "lj92", "lj92-2c"};
static const mlvpipe_dng_storage compression_values[] = {MLVPIPE_DNG_NATIVE, MLVPIPE_DNG_LJ92,
                                                         MLVPIPE_DNG_LJ92_2C};
static const char *const namings[] = {"plain", "resolve"};
static const mlvpipe_naming naming_values[] = {MLVPIPE_NAMING_PLAIN, MLVPIPE_NAMING_RESOLVE};
static const char *const wbs[] = {"asshot", "daylight"};
static const mlvpipe_wb wb_values[] = {MLVPIPE_WB_AS_SHOT, MLVPIPE_WB_DAYLIGHT};
static const char *const curves[] = {"bt709", "linear", "logc3", "slog3"};
static const mlvpipe_curve curve_values[] = {MLVPIPE_CURVE_BT709, MLVPIPE_CURVE_LINEAR,
                                             MLVPIPE_CURVE_LOGC3, MLVPIPE_CURVE_SLOG3};

/* Whole decimal number in [lo, hi], nothing else around it. */
static int parse_uint(const char *s, unsigned long lo, unsigned long hi, uint32_t *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || v < lo || v > hi)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

/* "NUM" or "NUM/DEN", a rate between 1/1000 and 1000 fps. */
static int parse_fps(const char *s, uint32_t *num, uint32_t *den)
{
    char text[32];
    if (strlen(s) >= sizeof text)
        return 0;
    strcpy(text, s);
    char *slash = strchr(text, '/');
    *den = 1;
    if (slash) {
        *slash = 0;
        if (!parse_uint(slash + 1, 1, 1000000, den))
            return 0;
    }
    return parse_uint(text, 1, 1000000, num) && (uint64_t)*num <= 1000ull * *den &&
           1000ull * *num >= *den;
}

/* "R,G,B": three multipliers in [0.01, 100]. */
static int parse_gains(const char *s, float gains[3])
{
    for (int c = 0; c < 3; c++) {
        char *end;
        double v = strtod(s, &end);
        if (end == s || !(v >= 0.01 && v <= 100) || *end != (c < 2 ? ',' : 0))
            return 0;
        gains[c] = (float)v;
        s = end + 1;
    }
    return 1;
}

int cmd_convert(int argc, char **argv)
{
    static const char command[] = "convert";
    mlvpipe_convert_settings o;
    mlvpipe_default_convert_settings(&o);
    o.tool = "mlvpipe " MLVPIPE_VERSION;
    o.log = cli_api_logger;
    cli_progress_mode mode = CLI_PROGRESS_AUTO;
    int k, rc, dng_16bit = 0;

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
        case OPT_NO_FOCUS: o.no_focus_pixels = 1; break;
        case OPT_NO_BAD: o.no_bad_pixels = 1; break;
        case OPT_NO_STRIPES: o.no_stripes = 1; break;
        case OPT_CHROMA:
            if (strcmp(optarg, "0") && strcmp(optarg, "2") && strcmp(optarg, "3") &&
                strcmp(optarg, "5"))
                return cli_usage_error(command,
                                       "--chroma-smooth takes 0, 2, 3 or 5, not '%s'", optarg);
            o.chroma_smooth = optarg[0] - '0';
            break;
        case OPT_GAMUT:
            if ((k = pick(optarg, gamuts, 3)) < 0)
                return cli_usage_error(command,
                                       "--gamut takes rec709, rec2020 or aces, not '%s'", optarg);
            o.gamut = gamut_values[k];
            break;
        case OPT_CURVE:
            if ((k = pick(optarg, curves, 4)) < 0)
                return cli_usage_error(command,
                                       "--curve takes bt709, linear, logc3 or slog3, not '%s'",
                                       optarg);
            o.curve = curve_values[k];
            break;
        case OPT_EXPOSURE: {
            char *end;
            double ev = strtod(optarg, &end);
            if (end == optarg || *end || !(ev >= -16 && ev <= 16))
                return cli_usage_error(command,
                                       "--exposure takes a number of EV from -16 to 16, not '%s'",
                                       optarg);
            o.exposure_ev = (float)ev;
            break;
        }
        case OPT_FAST: o.fast = 1; break;
        case OPT_CACHE: o.cache_dir = optarg; break;
        case OPT_DNG_BITS:
            if (strcmp(optarg, "native") && strcmp(optarg, "16"))
                return cli_usage_error(command, "--dng-bits takes native or 16, not '%s'",
                                       optarg);
            dng_16bit = !strcmp(optarg, "16");
            break;
        case OPT_DNG_COMPRESSION:
            if ((k = pick(optarg, compressions, 3)) < 0)
                return cli_usage_error(command,
                                       "--dng-compression takes none, lj92 or lj92-2c, not '%s'",
                                       optarg);
            o.dng_storage = compression_values[k];
            break;
        case OPT_NAMING:
            if ((k = pick(optarg, namings, 2)) < 0)
                return cli_usage_error(command, "--naming takes plain or resolve, not '%s'",
                                       optarg);
            o.naming = naming_values[k];
            break;
        case OPT_CLIP_INDEX:
            if (!parse_uint(optarg, 0, 9999, &o.resolve_clip_index))
                return cli_usage_error(command, "--clip-index takes 0 to 9999, not '%s'",
                                       optarg);
            break;
        case OPT_ONE_BASED: o.one_based = 1; break;
        case OPT_FPS:
            if (!parse_fps(optarg, &o.fps_num, &o.fps_den))
                return cli_usage_error(command, "--fps takes NUM or NUM/DEN (e.g. 25, "
                                       "24000/1001), 1/1000 to 1000 fps, not '%s'", optarg);
            break;
        case OPT_TIMECODE:
            if (strcmp(optarg, "zero") && strcmp(optarg, "time-of-day"))
                return cli_usage_error(command, "--timecode takes zero or time-of-day, not '%s'",
                                       optarg);
            o.timecode_time_of_day = !strcmp(optarg, "time-of-day");
            break;
        case OPT_DROP_FRAME: o.timecode_drop_frame = 1; break;
        case OPT_WB:
            if (!strcmp(optarg, "auto")) {
                o.wb = MLVPIPE_WB_GREY_WORLD;
                break;
            }
            if ((k = pick(optarg, wbs, 2)) >= 0) {
                o.wb = wb_values[k];
                break;
            }
            if (optarg[0] && optarg[strspn(optarg, "0123456789")] == 0) {
                long kelvin = strtol(optarg, NULL, 10);
                if (kelvin < MLVPIPE_WB_KELVIN_MIN || kelvin > MLVPIPE_WB_KELVIN_MAX)
                    return cli_usage_error(command, "--wb K takes %d to %d kelvin, not '%s'",
                                           MLVPIPE_WB_KELVIN_MIN, MLVPIPE_WB_KELVIN_MAX, optarg);
                o.wb = MLVPIPE_WB_KELVIN;
                o.wb_kelvin = (uint32_t)kelvin;
                break;
            }
            if (!parse_gains(optarg, o.wb_gains))
                return cli_usage_error(command, "--wb takes asshot, daylight, auto, a colour "
                                       "temperature K or R,G,B (each 0.01 to 100), not '%s'",
                                       optarg);
            o.wb = MLVPIPE_WB_CUSTOM;
            break;
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
    if ((rc = cli_check_format(command, o.format, o.output, 0, NULL)))
        return rc;
    if (o.skip_existing && o.overwrite)
        return cli_usage_error(command, "--skip-existing and --overwrite exclude each other");
    if (dng_16bit && o.dng_storage != MLVPIPE_DNG_NATIVE)
        return cli_usage_error(command, "--dng-bits 16 is for uncompressed DNGs (lj92 keeps "
                               "the samples' own depth)");
    if (dng_16bit)
        o.dng_storage = MLVPIPE_DNG_16BIT;

    cli_progress progress;
    cli_progress_init(&progress, mode);
    o.progress = cli_progress_print;
    o.progress_opaque = &progress;
    cli_install_signals();
    o.cancel = &cli_cancel;
    mlvpipe_route_libav_log(&cli_api_logger);

    mlvpipe_convert_result res;
    mlvpipe_error err = {0};
    mlvpipe_status st = mlvpipe_convert(&o, &res, &err);
    if (st == MLVPIPE_OK)
        return EXIT_OK;
    /* In JSON mode the closing "error" event already carries the message. */
    if (mode != CLI_PROGRESS_JSON)
        cli_log(st == MLVPIPE_ERR_INTERRUPTED ? MLVPIPE_LOG_WARNING : MLVPIPE_LOG_ERROR, "%s",
                err.message);
    if (st == MLVPIPE_ERR_INTERRUPTED)
        return EXIT_INTERRUPTED;
    if (st == MLVPIPE_ERR_ARG)   /* e.g. an output that is one of the inputs */
        return EXIT_USAGE;
    return res.output_failed ? EXIT_OUTPUT : cli_exit_for_input(st);
}
