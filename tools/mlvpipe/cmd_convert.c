/* mlvpipe convert CLIP -o OUT: a clip to a CinemaDNG sequence or a movie
 * (mlvpipe_convert, include/mlvpipe/convert.h). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_batch.h"
#include "cli_convert.h"
#include "cli_run.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: mlvpipe convert CLIP -o DIR|FILE|- [options]\n"
        "       mlvpipe convert CLIP|FOLDER... -o DIR [options]       (a batch)\n"
        "\n"
        "Converts a Magic Lantern clip (.MLV with its chunks, or .RAW) to a CinemaDNG\n"
        "sequence DIR/NAME/NAME_000000.dng (+ NAME.wav when the clip has audio), a developed\n"
        "TIFF or OpenEXR sequence, or a movie file (--to). Dual-ISO clips are reconstructed\n"
        "with clip-level levels (16-bit DNG); other clips keep their recorded samples. Files\n"
        "appear under their final name only when complete. A movie of a --frames range\n"
        "starts at that frame's time stamp, so chunks join with 'mlvpipe join'; lost frames\n"
        "repeat the previous one. Options the format does not take are usage errors.\n"
        "\n"
        "options:\n"
        "  -o, --output OUT      output directory (sequences), file or - (movies) (required)\n"
        "      --to FORMAT       one of:\n");
    cli_print_formats(out, 0);
    fprintf(out,
        "                        Default: from -o's extension (.mov prores422hq, .mkv ffv1,\n"
        "                        .nut nut), else dng; an extension that contradicts --to is\n"
        "                        a usage error\n"
        "      --frames SPEC     absolute frame numbers, inclusive: N, A-B, A-, -B, A-B:STEP,\n"
        "                        or a comma list (1-3,5,7-20:2). An end past the clip is\n"
        "                        clamped with a warning; a start past it is an error.\n"
        "      --threads N       worker threads (default: one per CPU this process may use:\n"
        "                        affinity mask and cgroup CPU quota, as nproc counts)\n"
        "      --levels FILE     dual-ISO levels from 'mlvpipe analyze' (default: estimated\n"
        "                        from frames sampled over the whole clip; same result)\n"
        "      --skip-existing   keep frames whose final file exists (resume a run)\n"
        "      --overwrite       replace existing files (default: existing files are errors)\n"
        "      --progress MODE   auto (default: when stderr is a terminal, a bar with the\n"
        "                        percentage, elapsed time and ETA of the levels pre-pass\n"
        "                        and of the frames; with -o - whole lines every 5 s, off\n"
        "                        the status line of the program reading the pipe), json\n"
        "                        (one JSON event per line on stderr, for farms), none\n"
        "      --progress-every S\n"
        "                        json: a frame event at most every S seconds (and the\n"
        "                        last frame's); default 0, every frame\n"
        "      --audio           write the WAV even for a --frames part of the clip\n"
        "      --no-audio        no WAV, no audio track in a movie\n"
        "      --phase N         force dual ISO with row phase 0..3 (default: detect)\n"
        "      --no-focus-pixels keep the focus-pixel lattice found in the clip unrepaired\n"
        "      --no-bad-pixels   keep the hot and cold pixels found in the clip unrepaired\n"
        "      --no-stripes      no column (vertical stripe) gain correction. By default the\n"
        "                        pre-pass finds these raw defects in frames sampled over\n"
        "                        the clip and repairs them before dual ISO (all three off:\n"
        "                        not even looked for)\n"
        "      --dark CLIP       subtract a dark frame: the average of every frame of CLIP,\n"
        "                        a lens-cap clip (MLV or RAW) shot with the same size, bit\n"
        "                        depth and ISO (else exit 3, naming what differs). Only its\n"
        "                        fixed pattern is subtracted (each field of dual ISO apart),\n"
        "                        before the repairs and dual ISO; analyze and plan take it\n"
        "                        too, so every farm chunk subtracts the same frame\n"
        "      --defects-from CLIP\n"
        "                        repair the hot, cold and focus pixels found in CLIP, an\n"
        "                        MLV or RAW of the same camera body and video mode, instead\n"
        "                        of those found in this clip: for still (tripod) shots,\n"
        "                        whose still detail the search cannot tell from defects,\n"
        "                        and clips of fewer than 8 frames, which give no map. A\n"
        "                        clip whose scene moves, or a lens-cap clip, shows them\n"
        "                        best. Stripes stay this clip's own. A crop window placed\n"
        "                        elsewhere on the sensor is allowed (the sites move with\n"
        "                        it); another camera, serial number, binning or LiveView\n"
        "                        buffer is exit 3. Not with --levels: give it to analyze\n"
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
        "movies, TIFF and EXR (developed RGB):\n"
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
        "      --highlights H    blend (default: near a raw clip or the top of the curve,\n"
        "                        smoothly to white), clip (channels clipped alike only) or\n"
        "                        reconstruct (clipped channels rebuilt from the others and\n"
        "                        the colour around them, up to 1 EV above the clip; blend\n"
        "                        where that cannot be done)\n"
        "      --fast            bilinear demosaic instead of RCD\n"
        "      --no-stretch      anamorphic and line-skipping modes (RAWC binning/skipping,\n"
        "                        e.g. 720p's 5:3 rows) keep the recorded pixels, the movie\n"
        "                        container carries their sample aspect ratio, EXR its\n"
        "                        pixelAspectRatio, TIFF its X/Y resolution ratio (default:\n"
        "                        the short axis is resampled, Lanczos-3, to square pixels)\n"
        "      --sequence        a FOLDER of raw photos is one clip, a frame per photo (a\n"
        "                        timelapse: levels shared over it, any output, --fps)\n"
        "ProRes movies:\n"
        "      --prores-encoder E\n"
        "                        ks (default: libavcodec's prores_ks, each frame at one\n"
        "                        quantiser, the finest that keeps to the profile's data\n"
        "                        rate), ks-slice (prores_ks's own rate control, a quantiser\n"
        "                        per slice: what ffmpeg -c:v prores_ks writes; about 2x the\n"
        "                        encoder CPU of ks and 1.5-7 dB less PSNR at the same rate)\n"
        "                        or aw (prores_aw: fixed quantisers, above the rate)\n"
        "  -h, --help            show this help\n"
        "\n"
        "A raw photo (.CR2, .DNG: a still, read through LibRaw) is a one-frame clip: it goes\n"
        "to DIR/NAME.dng, dual ISO found from its pixels. With --sequence a folder of photos\n"
        "(a timelapse) is one clip of a frame per photo, in name order, at 25 fps (--fps), its\n"
        "levels shared over the whole sequence so that it does not flicker.\n"
        "\n"
        "Batches: several clips, or folders (their .MLV, .RAW, .CR2 and .DNG files, by name),\n"
        "each go to their own output in DIR: DIR/NAME/ for DNG (a still: DIR/NAME.dng),\n"
        "DIR/NAME.EXT for --to a movie or md5\n"
        "(give --to: the format is not taken from a folder's name). A clip that fails does\n"
        "not stop the others; the end lists every clip's outcome, and the exit status is the\n"
        "worst of them (least to most severe: 0, 4, 3, 2, 5, 1; 6 stops the batch).\n"
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
       OPT_PROGRESS, OPT_AUDIO, OPT_NO_AUDIO, OPT_PHASE, OPT_CHROMA, OPT_GAMUT, OPT_CURVE,
       OPT_EXPOSURE, OPT_HIGHLIGHTS,
       OPT_FAST, OPT_CACHE, OPT_DNG_BITS, OPT_DNG_COMPRESSION, OPT_NAMING, OPT_CLIP_INDEX,
       OPT_ONE_BASED, OPT_FPS, OPT_TIMECODE, OPT_DROP_FRAME, OPT_WB, OPT_PROGRESS_EVERY,
       OPT_NO_FOCUS, OPT_NO_BAD, OPT_NO_STRIPES, OPT_PRORES_ENCODER, OPT_DARK, OPT_NO_STRETCH,
       OPT_DEFECTS_FROM, OPT_SEQUENCE, OPT_END };

_Static_assert(OPT_END - OPT_TO <= CLI_CONVERT_OPTIONS, "cli_convert_args.given too small");

static const struct option long_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"to", required_argument, NULL, OPT_TO},
    {"frames", required_argument, NULL, OPT_FRAMES},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"levels", required_argument, NULL, OPT_LEVELS},
    {"skip-existing", no_argument, NULL, OPT_SKIP},
    {"overwrite", no_argument, NULL, OPT_OVERWRITE},
    {"progress", required_argument, NULL, OPT_PROGRESS},
    {"progress-every", required_argument, NULL, OPT_PROGRESS_EVERY},
    {"audio", no_argument, NULL, OPT_AUDIO},
    {"no-audio", no_argument, NULL, OPT_NO_AUDIO},
    {"phase", required_argument, NULL, OPT_PHASE},
    {"chroma-smooth", required_argument, NULL, OPT_CHROMA},
    {"gamut", required_argument, NULL, OPT_GAMUT},
    {"curve", required_argument, NULL, OPT_CURVE},
    {"exposure", required_argument, NULL, OPT_EXPOSURE},
    {"highlights", required_argument, NULL, OPT_HIGHLIGHTS},
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
    {"dark", required_argument, NULL, OPT_DARK},
    {"defects-from", required_argument, NULL, OPT_DEFECTS_FROM},
    {"no-stretch", no_argument, NULL, OPT_NO_STRETCH},
    {"sequence", no_argument, NULL, OPT_SEQUENCE},
    {"prores-encoder", required_argument, NULL, OPT_PRORES_ENCODER},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Options that only some formats take, with what they do: given with another --to they are a
 * usage error saying so (cli_check_applies derives the formats from the format table). */
static const struct applies {
    int option;
    const char *name, *does;
    cli_scope scope;
} applies[] = {
    {OPT_WB, "--wb", "sets the white balance of the developed picture", CLI_SCOPE_DEVELOPED},
    {OPT_GAMUT, "--gamut", "sets the primaries of the developed picture", CLI_SCOPE_DEVELOPED},
    {OPT_CURVE, "--curve", "sets the transfer curve of the developed picture",
     CLI_SCOPE_DEVELOPED},
    {OPT_EXPOSURE, "--exposure", "shifts the exposure of the developed picture",
     CLI_SCOPE_DEVELOPED},
    {OPT_FAST, "--fast", "picks the demosaic of the developed picture", CLI_SCOPE_DEVELOPED},
    {OPT_HIGHLIGHTS, "--highlights", "sets how the developed picture renders clipped areas",
     CLI_SCOPE_DEVELOPED},
    {OPT_NO_STRETCH, "--no-stretch", "keeps the recorded pixel aspect of the developed picture",
     CLI_SCOPE_DEVELOPED},
    {OPT_PRORES_ENCODER, "--prores-encoder", "picks the ProRes encoder", CLI_SCOPE_PRORES},
    {OPT_DNG_BITS, "--dng-bits", "sets the sample size of DNG files", CLI_SCOPE_RAW_SEQUENCE},
    {OPT_DNG_COMPRESSION, "--dng-compression", "compresses DNG files", CLI_SCOPE_RAW_SEQUENCE},
    {OPT_NAMING, "--naming", "names the folder and files of an image sequence",
     CLI_SCOPE_SEQUENCE},
    {OPT_CLIP_INDEX, "--clip-index", "numbers the folder and files of an image sequence",
     CLI_SCOPE_SEQUENCE},
    {OPT_ONE_BASED, "--one-based", "numbers the files of an image sequence from 1",
     CLI_SCOPE_SEQUENCE},
    {OPT_SKIP, "--skip-existing", "keeps the finished files of an image sequence",
     CLI_SCOPE_SEQUENCE},
    {OPT_AUDIO, "--audio", "writes the WAV beside an image sequence for a --frames part",
     CLI_SCOPE_WAV},
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

/* Outputs refused before any work: a single-file format into a folder (the format table
 * refuses what cannot go to stdout). */
static int check_output(const char *command, const mlvpipe_convert_settings *o)
{
    const char *ext;
    cli_check_format(command, o->format, NULL, 0, &ext);
    struct stat sb;
    if (ext && strcmp(o->output, "-") && !stat(o->output, &sb) && S_ISDIR(sb.st_mode))
        return cli_usage_error(command, "-o %s is a folder; --to %s writes one file (e.g. "
                               "-o %s/NAME.%s)", o->output, o->format, o->output, ext);
    return EXIT_OK;
}

/* The checks that need every option: formats, outputs, options the format does not take,
 * exclusive options. */
int cli_convert_check(const char *command, cli_convert_args *a, const cli_clips *clips)
{
    mlvpipe_convert_settings *o = &a->o;
    const char *to = a->to;
    int rc;
    if (!o->output)
        return cli_usage_error(command, "no output given (-o DIR)");
    if (to && (rc = cli_check_format(command, to, NULL, 0, NULL)))
        return rc;
    if (clips->batch) {
        /* Each clip gets its own output inside the folder -o names. */
        o->format = to ? to : "dng";
        const char *named = NULL;
        if ((rc = cli_format_from_output(command, NULL, o->output, &named)))
            return rc;
        if (!strcmp(o->output, "-") || named)
            return cli_usage_error(command, "several clips need -o FOLDER (each clip's output "
                                   "goes in it), not -o %s", o->output);
        if (o->levels_path)
            return cli_usage_error(command, "--levels belongs to one clip; several clips each "
                                   "get their own levels");
    } else {
        o->input = clips->path[0];
        if ((rc = cli_format_from_output(command, to, o->output, &o->format)) ||
            (rc = cli_check_format(command, o->format, o->output, 0, NULL)))
            return rc;
        if ((rc = check_output(command, o)))
            return rc;
    }
    for (size_t i = 0; i < sizeof applies / sizeof applies[0]; i++)
        if (a->given[applies[i].option - OPT_TO] &&
            (rc = cli_check_applies(command, o->format, applies[i].name, applies[i].does,
                                    applies[i].scope)))
            return rc;
    if (a->given[OPT_CLIP_INDEX - OPT_TO] && o->naming != MLVPIPE_NAMING_RESOLVE)
        return cli_usage_error(command, "--clip-index is the C0000 part of resolve names; give "
                               "--naming resolve with it");
    if (o->skip_existing && o->overwrite)
        return cli_usage_error(command, "--skip-existing and --overwrite exclude each other");
    int dng_16bit = a->dng_16bit;
    if (dng_16bit && o->dng_storage != MLVPIPE_DNG_NATIVE)
        return cli_usage_error(command, "--dng-bits 16 is for uncompressed DNGs (lj92 keeps "
                               "the samples' own depth)");
    if (dng_16bit)
        o->dng_storage = MLVPIPE_DNG_16BIT;
    return EXIT_OK;
}

/* The exit status of one conversion's outcome, its error logged unless an "error" progress
 * event (JSON mode) carried it already. */
static int convert_outcome(const mlvpipe_convert_settings *o, int error_event_shown,
                           mlvpipe_status st, const mlvpipe_convert_result *res,
                           const mlvpipe_error *err)
{
    if (st == MLVPIPE_OK)
        return EXIT_OK;
    if (!error_event_shown)
        cli_log(st == MLVPIPE_ERR_INTERRUPTED ? MLVPIPE_LOG_WARNING : MLVPIPE_LOG_ERROR, "%s",
                err->message);
    if (st == MLVPIPE_ERR_INTERRUPTED)
        return EXIT_INTERRUPTED;
    if (res->output_failed && strstr(err->message, "exists (not overwriting)"))
        cli_log(MLVPIPE_LOG_ERROR, "--overwrite replaces existing files%s",
                !cli_format_is_sequence(o->format) ? ""
                : "; --skip-existing keeps them and writes the missing frames (resume)");
    return res->output_failed ? EXIT_OUTPUT : cli_exit_for_input(st);
}

/* Converts o->input to o->output; the exit status, its error logged. */
static int convert_one(mlvpipe_convert_settings *o, const mlvpipe_movie_settings *movie,
                       cli_progress_mode mode, double every_s)
{
    cli_progress progress;
    cli_progress_init(&progress, mode, !strcmp(o->output, "-"), every_s);
    o->progress = cli_progress_print;
    o->progress_opaque = &progress;
    mlvpipe_convert_result res;
    mlvpipe_error err = {0};
    mlvpipe_status st = mlvpipe_convert_movie(o, movie, &res, &err);
    return convert_outcome(o, mode == CLI_PROGRESS_JSON, st, &res, &err);
}

/* A batch clip's output: the folder for DNG and null, else FOLDER/NAME.EXT. */
static char *batch_output(const mlvpipe_convert_settings *o, const char *folder,
                          const char *clip)
{
    const char *ext;
    cli_check_format("convert", o->format, NULL, 0, &ext);
    if (!ext && !strcmp(o->format, "rawvideo"))
        ext = "rgb48";              /* frames without a container */
    if (!ext)
        return strdup(folder);
    const char *base = strrchr(clip, '/');
    base = base ? base + 1 : clip;
    const char *dot = strrchr(base, '.');
    int len = dot ? (int)(dot - base) : (int)strlen(base);
    size_t size = strlen(folder) + (size_t)len + strlen(ext) + 3;
    char *out = malloc(size);
    if (out)
        snprintf(out, size, "%s/%.*s.%s", folder, len, base, ext);
    return out;
}

typedef struct batch_run {
    const mlvpipe_convert_settings *o;
    const cli_clips *clips;
    char **outputs;
    int *codes;                  /* each clip's exit status; -1: not finished */
    cli_progress progress;
    int error_event;             /* an "error" event was shown for the clip converting alone */
} batch_run;

/* Only clips converted alone send progress (mlvpipe_convert_batch), one at a time. */
static void batch_progress(void *opaque, const mlvpipe_progress *ev)
{
    batch_run *b = opaque;
    b->error_event |= ev->kind == MLVPIPE_PROGRESS_ERROR && b->progress.mode == CLI_PROGRESS_JSON;
    cli_progress_print(&b->progress, ev);
}

static void batch_started(void *opaque, uint32_t i)
{
    const batch_run *b = opaque;
    char in[4 * PATH_MAX], out[4 * PATH_MAX];
    if (cli_verbosity > 0)
        fprintf(stderr, "mlvpipe: clip %u of %d: %s -> %s\n", i + 1, b->clips->count,
                cli_escaped(b->clips->path[i], in, sizeof in),
                cli_escaped(b->outputs[i], out, sizeof out));
}

static void batch_finished(void *opaque, uint32_t i, mlvpipe_status st,
                           const mlvpipe_convert_result *res, const mlvpipe_error *err)
{
    batch_run *b = opaque;
    b->codes[i] = convert_outcome(b->o, b->error_event, st, res, err);
    b->error_event = 0;
}

/* Every clip, past failures (raw photos side by side over the threads); a report of each at
 * the end; the worst exit status. */
static int convert_batch(mlvpipe_convert_settings *o, const mlvpipe_movie_settings *movie,
                         const cli_clips *clips, cli_progress_mode mode, double every_s)
{
    const char *folder = o->output;
    int n = clips->count;
    batch_run b = {o, clips, calloc((size_t)n, sizeof *b.outputs),
                   malloc((size_t)n * sizeof *b.codes), {0}, 0};
    int ok = b.outputs && b.codes;
    for (int i = 0; ok && i < n; i++) {
        b.codes[i] = -1;            /* not finished */
        ok = (b.outputs[i] = batch_output(o, folder, clips->path[i])) != NULL;
    }
    int worst = EXIT_OK;
    if (!ok) {
        cli_log(MLVPIPE_LOG_ERROR, "out of memory");
        worst = EXIT_INTERNAL;
    } else {
        if (!cli_format_is_sequence(o->format) && strcmp(o->format, "null"))
            mkdir(folder, 0777);    /* sequences make theirs; a failure shows on the first clip */
        cli_progress_init(&b.progress, mode, 0, every_s);
        o->progress = batch_progress;
        o->progress_opaque = &b;
        mlvpipe_error err = {0};
        mlvpipe_status st = mlvpipe_convert_batch(o, movie, (const char *const *)clips->path,
                                                  (const char *const *)b.outputs, (uint32_t)n,
                                                  batch_started, batch_finished, &b, &err);
        for (int i = 0; i < n; i++)
            if (b.codes[i] >= 0)
                worst = cli_exit_worse(worst, b.codes[i]);
        /* stopped between clips, or unable to start (its message not shown yet) */
        if (st != MLVPIPE_OK && worst != EXIT_INTERRUPTED)
            worst = cli_exit_worse(worst, convert_outcome(o, 0, st,
                                                          &(mlvpipe_convert_result){0}, &err));
        int converted = 0;
        for (int i = 0; i < n; i++)
            converted += b.codes[i] == EXIT_OK;
        if (worst != EXIT_OK || cli_verbosity > 0) {
            fprintf(stderr, "mlvpipe: batch: %d of %d clips converted\n", converted, n);
            char name[4 * PATH_MAX];
            for (int i = 0; i < n; i++)
                fprintf(stderr, "mlvpipe: batch: %s: %s\n",
                        cli_escaped(clips->path[i], name, sizeof name),
                        b.codes[i] < 0 ? "not started (interrupted)" : cli_exit_name(b.codes[i]));
        }
    }
    for (int i = 0; b.outputs && i < n; i++)
        free(b.outputs[i]);
    free(b.outputs);
    free(b.codes);
    return worst;
}

int cli_convert_parse(const char *command, int argc, char **argv, cli_convert_args *a)
{
    memset(a, 0, sizeof *a);
    mlvpipe_convert_settings *o = &a->o;
    mlvpipe_default_convert_settings(o);
    o->tool = "mlvpipe " MLVPIPE_VERSION;
    o->log = cli_api_logger;
    a->mode = CLI_PROGRESS_AUTO;
    int k, rc;
    /* 0, not 1: glibc then starts afresh, forgetting where a previous parse (plan parses
     * several command lines) stopped inside a cluster of short options such as -vq. */
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, CLI_COMMON_SHORT "o:", long_options, NULL)) != -1) {
        if (c >= OPT_TO && c < OPT_END)
            a->given[c - OPT_TO] = 1;
        switch (c) {
        case 'o': o->output = optarg; break;
        case OPT_TO: a->to = optarg; break;
        case OPT_FRAMES: o->frames = optarg; break;
        case OPT_THREADS:
            if ((rc = cli_option_threads(command, optarg, &o->threads)))
                return rc;
            break;
        case OPT_LEVELS: o->levels_path = optarg; break;
        case OPT_SKIP: o->skip_existing = 1; break;
        case OPT_OVERWRITE: o->overwrite = 1; break;
        case OPT_PROGRESS:
            if (!cli_parse_progress(optarg, &a->mode))
                return cli_usage_error(command,
                                       "--progress takes auto, json or none, not '%s'", optarg);
            break;
        case OPT_PROGRESS_EVERY:
            if (!cli_parse_seconds(optarg, &a->progress_every))
                return cli_usage_error(command, "--progress-every takes seconds from 0 to "
                                       "86400, not '%s'", optarg);
            break;
        case OPT_AUDIO: o->audio = 1; break;
        case OPT_NO_AUDIO: o->audio = 0; break;
        case OPT_PHASE:
            if ((rc = cli_option_phase(command, optarg, &o->force_phase)))
                return rc;
            break;
        case OPT_NO_FOCUS: o->no_focus_pixels = 1; break;
        case OPT_NO_BAD: o->no_bad_pixels = 1; break;
        case OPT_NO_STRIPES: o->no_stripes = 1; break;
        case OPT_DARK: o->dark = optarg; break;
        case OPT_DEFECTS_FROM: o->defects_from = optarg; break;
        case OPT_NO_STRETCH: o->no_stretch = 1; break;
        case OPT_SEQUENCE: a->sequence = 1; break;
        case OPT_CHROMA:
            if (strcmp(optarg, "0") && strcmp(optarg, "2") && strcmp(optarg, "3") &&
                strcmp(optarg, "5"))
                return cli_usage_error(command,
                                       "--chroma-smooth takes 0, 2, 3 or 5, not '%s'", optarg);
            o->chroma_smooth = optarg[0] - '0';
            break;
        case OPT_GAMUT:
            if ((k = pick(optarg, gamuts, 3)) < 0)
                return cli_usage_error(command,
                                       "--gamut takes rec709, rec2020 or aces, not '%s'", optarg);
            o->gamut = gamut_values[k];
            break;
        case OPT_CURVE:
            if ((k = pick(optarg, curves, 4)) < 0)
                return cli_usage_error(command,
                                       "--curve takes bt709, linear, logc3 or slog3, not '%s'",
                                       optarg);
            o->curve = curve_values[k];
            break;
        case OPT_EXPOSURE: {
            char *end;
            double ev = strtod(optarg, &end);
            if (end == optarg || *end || !(ev >= -16 && ev <= 16))
                return cli_usage_error(command,
                                       "--exposure takes a number of EV from -16 to 16, not '%s'",
                                       optarg);
            o->exposure_ev = (float)ev;
            break;
        }
        case OPT_HIGHLIGHTS:
            if (!strcmp(optarg, "blend"))
                o->highlights = MLVPIPE_HIGHLIGHTS_BLEND;
            else if (!strcmp(optarg, "clip"))
                o->highlights = MLVPIPE_HIGHLIGHTS_CLIP;
            else if (!strcmp(optarg, "reconstruct"))
                o->highlights = MLVPIPE_HIGHLIGHTS_RECONSTRUCT;
            else
                return cli_usage_error(command,
                                       "--highlights takes blend, clip or reconstruct, not '%s'",
                                       optarg);
            break;
        case OPT_FAST: o->fast = 1; break;
        case OPT_PRORES_ENCODER:
            if (!strcmp(optarg, "ks"))
                a->movie.prores_encoder = MLVPIPE_PRORES_KS;
            else if (!strcmp(optarg, "ks-slice"))
                a->movie.prores_encoder = MLVPIPE_PRORES_KS_SLICE;
            else if (!strcmp(optarg, "aw"))
                a->movie.prores_encoder = MLVPIPE_PRORES_AW;
            else
                return cli_usage_error(command, "--prores-encoder takes ks, ks-slice or aw, "
                                       "not '%s'", optarg);
            break;
        case OPT_CACHE: o->cache_dir = optarg; break;
        case OPT_DNG_BITS:
            if (strcmp(optarg, "native") && strcmp(optarg, "16"))
                return cli_usage_error(command, "--dng-bits takes native or 16, not '%s'",
                                       optarg);
            a->dng_16bit = !strcmp(optarg, "16");
            break;
        case OPT_DNG_COMPRESSION:
            if ((k = pick(optarg, compressions, 3)) < 0)
                return cli_usage_error(command,
                                       "--dng-compression takes none, lj92 or lj92-2c, not '%s'",
                                       optarg);
            o->dng_storage = compression_values[k];
            break;
        case OPT_NAMING:
            if ((k = pick(optarg, namings, 2)) < 0)
                return cli_usage_error(command, "--naming takes plain or resolve, not '%s'",
                                       optarg);
            o->naming = naming_values[k];
            break;
        case OPT_CLIP_INDEX:
            if (!parse_uint(optarg, 0, 9999, &o->resolve_clip_index))
                return cli_usage_error(command, "--clip-index takes 0 to 9999, not '%s'",
                                       optarg);
            break;
        case OPT_ONE_BASED: o->one_based = 1; break;
        case OPT_FPS:
            if (!parse_fps(optarg, &o->fps_num, &o->fps_den))
                return cli_usage_error(command, "--fps takes NUM or NUM/DEN (e.g. 25, "
                                       "24000/1001), 1/1000 to 1000 fps, not '%s'", optarg);
            break;
        case OPT_TIMECODE:
            if (strcmp(optarg, "zero") && strcmp(optarg, "time-of-day"))
                return cli_usage_error(command, "--timecode takes zero or time-of-day, not '%s'",
                                       optarg);
            o->timecode_time_of_day = !strcmp(optarg, "time-of-day");
            break;
        case OPT_DROP_FRAME: o->timecode_drop_frame = 1; break;
        case OPT_WB:
            if (!strcmp(optarg, "auto")) {
                o->wb = MLVPIPE_WB_GREY_WORLD;
                break;
            }
            if ((k = pick(optarg, wbs, 2)) >= 0) {
                o->wb = wb_values[k];
                break;
            }
            if (optarg[0] && optarg[strspn(optarg, "0123456789")] == 0) {
                long kelvin = strtol(optarg, NULL, 10);
                if (kelvin < MLVPIPE_WB_KELVIN_MIN || kelvin > MLVPIPE_WB_KELVIN_MAX)
                    return cli_usage_error(command, "--wb K takes %d to %d kelvin, not '%s'",
                                           MLVPIPE_WB_KELVIN_MIN, MLVPIPE_WB_KELVIN_MAX, optarg);
                o->wb = MLVPIPE_WB_KELVIN;
                o->wb_kelvin = (uint32_t)kelvin;
                break;
            }
            if (!parse_gains(optarg, o->wb_gains))
                return cli_usage_error(command, "--wb takes asshot, daylight, auto, a colour "
                                       "temperature K or R,G,B (each 0.01 to 100), not '%s'",
                                       optarg);
            o->wb = MLVPIPE_WB_CUSTOM;
            break;
        case 'h': a->help = 1; return EXIT_OK;
        case 'v':
        case 'q': cli_verbosity_option(c); break;
        default: return cli_option_error(command, c, argv);
        }
    }
    a->operands = argv + optind;   /* getopt_long moved them to the end */
    a->operand_count = argc - optind;
    return EXIT_OK;
}

static int given(const cli_convert_args *a, int val)
{
    return val == 'o' ? a->o.output != NULL
                      : val >= OPT_TO && val < OPT_END && a->given[val - OPT_TO];
}

const char *cli_convert_given_both(const cli_convert_args *a, const cli_convert_args *b)
{
    for (const struct option *o = long_options; o->name; o++)
        if (given(a, o->val) && given(b, o->val))
            return o->val == 'o' ? "-o" : o->name;
    return NULL;
}

int cmd_convert(int argc, char **argv)
{
    static const char command[] = "convert";
    cli_convert_args a;
    int rc = cli_convert_parse(command, argc, argv, &a);
    if (rc == EXIT_OK && a.help)
        usage(stdout);
    if (rc || a.help)
        return rc;
    cli_clips clips;
    if ((rc = cli_clips_collect(command, a.operands, a.operand_count, a.sequence, &clips)))
        return rc;
    rc = cli_convert_check(command, &a, &clips);
    if (rc == EXIT_OK) {
        a.o.cancel = &cli_cancel;
        mlvpipe_route_libav_log(&cli_api_logger);
        rc = clips.batch ? convert_batch(&a.o, &a.movie, &clips, a.mode, a.progress_every)
                         : convert_one(&a.o, &a.movie, a.mode, a.progress_every);
    }
    cli_clips_free(&clips);
    return rc;
}
