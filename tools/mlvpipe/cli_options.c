/* The option table: every option of convert, analyze, plan, join, report and info, one row each
 * (cli_options.h says what a row holds). The rows of a command are in its --help order; a
 * new option is one row here, its field in the settings (include/mlvpipe/) and the library
 * file that reads it (doc/architecture.md 7). Values that no row kind parses have their
 * parser below. */
#include "cli_options.h"

#include <stdlib.h>
#include <string.h>

#include "cli_convert.h"
#include "mount.h"
#include "cli_run.h"

_Static_assert(sizeof(int) == sizeof(uint32_t) && sizeof(mlvpipe_gamut) == sizeof(int) &&
               sizeof(mlvpipe_plan_engine) == sizeof(int) &&
               sizeof(cli_progress_mode) == sizeof(int),
               "CLI_UINT and CLI_CHOICE write ints and enums as 32-bit integers");

#define THREADS .min = 1, .max = 256, .takes = "needs a number from 1 to 256"
#define PHASE .min = 0, .max = 3, .takes = "takes 0, 1, 2 or 3"
#define SCOPE(s, what) .scoped = 1, .scope = CLI_SCOPE_##s, .does = what
#define CHOICES(x) .choices = x##_names, .values = x##_values
#define ALL_COMMANDS (CLI_CONVERT | CLI_ANALYZE | CLI_PLAN | CLI_JOIN | CLI_REPORT | CLI_INFO)

static const char *const progress_modes_names[] = {"auto", "json", "none", NULL};
static const int progress_modes_values[] = {CLI_PROGRESS_AUTO, CLI_PROGRESS_JSON,
                                            CLI_PROGRESS_NONE};
static const char *const chroma_smooths_names[] = {"0", "2", "3", "5", NULL};
static const int chroma_smooths_values[] = {0, 2, 3, 5};
static const char *const timecodes_names[] = {"zero", "time-of-day", NULL};
static const int timecodes_values[] = {0, 1};
static const char *const dng_bits_names[] = {"native", "16", NULL};
static const int dng_bits_values[] = {0, 1};
static const char *const compressions_names[] = {"none", "lj92", "lj92-2c", NULL};
static const int compressions_values[] = {MLVPIPE_DNG_NATIVE, MLVPIPE_DNG_LJ92,
                                          MLVPIPE_DNG_LJ92_2C};
static const char *const namings_names[] = {"plain", "resolve", NULL};
static const int namings_values[] = {MLVPIPE_NAMING_PLAIN, MLVPIPE_NAMING_RESOLVE};
static const char *const gamuts_names[] = {"rec709", "rec2020", "aces", "ap1", "dwg", "awg4",
                                           "vgamut", "cinema", NULL};
static const int gamuts_values[] = {MLVPIPE_GAMUT_REC709, MLVPIPE_GAMUT_REC2020,
                                    MLVPIPE_GAMUT_ACES_AP0, MLVPIPE_GAMUT_ACES_AP1,
                                    MLVPIPE_GAMUT_DWG, MLVPIPE_GAMUT_AWG4, MLVPIPE_GAMUT_VGAMUT,
                                    MLVPIPE_GAMUT_CINEMA};
static const char *const curves_names[] = {"bt709", "linear", "logc3", "slog3", "acescct",
                                           "davinci", "logc4", "vlog", "clog3", "srgb", NULL};
static const int curves_values[] = {MLVPIPE_CURVE_BT709, MLVPIPE_CURVE_LINEAR,
                                    MLVPIPE_CURVE_LOGC3, MLVPIPE_CURVE_SLOG3,
                                    MLVPIPE_CURVE_ACESCCT, MLVPIPE_CURVE_DAVINCI,
                                    MLVPIPE_CURVE_LOGC4, MLVPIPE_CURVE_VLOG,
                                    MLVPIPE_CURVE_CLOG3, MLVPIPE_CURVE_SRGB};
static const char *const highlights_names[] = {"blend", "clip", "reconstruct", NULL};
static const int highlights_values[] = {MLVPIPE_HIGHLIGHTS_BLEND, MLVPIPE_HIGHLIGHTS_CLIP,
                                        MLVPIPE_HIGHLIGHTS_RECONSTRUCT};
static const char *const prores_encoders_names[] = {"ks", "ks-slice", "aw", NULL};
static const int prores_encoders_values[] = {MLVPIPE_PRORES_KS, MLVPIPE_PRORES_KS_SLICE,
                                             MLVPIPE_PRORES_AW};
static const char *const engines_names[] = {"slurm", "parallel", "json", NULL};
static const int engines_values[] = {MLVPIPE_PLAN_SLURM, MLVPIPE_PLAN_PARALLEL,
                                     MLVPIPE_PLAN_JSON};

int cli_value_error(const cli_option *opt, const char *command, const char *arg)
{
    return cli_usage_error(command, "--%s %s, not '%s'", opt->name, opt->takes, arg);
}

/* --progress-every: seconds, 0 to 86400, into a double. */
static int parse_seconds(const cli_option *opt, const char *command, const char *arg,
                         void *field)
{
    return cli_parse_seconds(arg, field) ? EXIT_OK : cli_value_error(opt, command, arg);
}

/* A number in [lo, hi] into a float. */
static int parse_float_in(const cli_option *opt, const char *command, const char *arg,
                          void *field, double lo, double hi)
{
    char *end;
    double v = strtod(arg, &end);
    if (end == arg || *end || !(v >= lo && v <= hi))
        return cli_value_error(opt, command, arg);
    *(float *)field = (float)v;
    return EXIT_OK;
}

/* --exposure: EV from -16 to 16. */
static int parse_exposure(const cli_option *opt, const char *command, const char *arg,
                          void *field)
{
    return parse_float_in(opt, command, arg, field, -16, 16);
}

/* --denoise: a strength from 0 to 8. */
static int parse_denoise(const cli_option *opt, const char *command, const char *arg,
                         void *field)
{
    return parse_float_in(opt, command, arg, field, 0, 8);
}

/* --scale: a factor from 1/64 to 4. */
static int parse_scale(const cli_option *opt, const char *command, const char *arg, void *field)
{
    return parse_float_in(opt, command, arg, field, 1.0 / 64, 4);
}

/* --size WxH, each 2..65534, into the convert settings. */
static int parse_size(const cli_option *opt, const char *command, const char *arg, void *field)
{
    mlvpipe_convert_settings *o = field;
    const char *x = strchr(arg, 'x');
    char width[16];
    size_t len = x ? (size_t)(x - arg) : sizeof width;
    if (len >= sizeof width)
        return cli_value_error(opt, command, arg);
    memcpy(width, arg, len);
    width[len] = 0;
    if (!cli_parse_uint(width, 2, 65534, &o->size_width) ||
        !cli_parse_uint(x + 1, 2, 65534, &o->size_height))
        return cli_value_error(opt, command, arg);
    return EXIT_OK;
}

/* --fps "NUM" or "NUM/DEN", a rate between 1/1000 and 1000 fps, into the convert settings. */
static int parse_fps(const cli_option *opt, const char *command, const char *arg, void *field)
{
    mlvpipe_convert_settings *o = field;
    const char *slash = strchr(arg, '/');
    char num[32];
    uint32_t n, d = 1;
    size_t len = slash ? (size_t)(slash - arg) : strlen(arg);
    if (len >= sizeof num)
        return cli_value_error(opt, command, arg);
    memcpy(num, arg, len);
    num[len] = 0;
    if (!cli_parse_uint(num, 1, 1000000, &n) ||
        (slash && !cli_parse_uint(slash + 1, 1, 1000000, &d)) || (uint64_t)n > 1000ull * d ||
        1000ull * n < d)
        return cli_value_error(opt, command, arg);
    o->fps_num = n;
    o->fps_den = d;
    return EXIT_OK;
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

/* --wb asshot, daylight, auto, a colour temperature or R,G,B, into the convert settings. */
static int parse_wb(const cli_option *opt, const char *command, const char *arg, void *field)
{
    mlvpipe_convert_settings *o = field;
    uint32_t kelvin;
    if (!strcmp(arg, "asshot") || !strcmp(arg, "daylight") || !strcmp(arg, "auto")) {
        o->wb = arg[1] == 's' ? MLVPIPE_WB_AS_SHOT : arg[1] == 'a' ? MLVPIPE_WB_DAYLIGHT
                                                                    : MLVPIPE_WB_GREY_WORLD;
    } else if (arg[0] && !arg[strspn(arg, "0123456789")]) {
        if (!cli_parse_uint(arg, MLVPIPE_WB_KELVIN_MIN, MLVPIPE_WB_KELVIN_MAX, &kelvin))
            return cli_usage_error(command, "--wb K takes %d to %d kelvin, not '%s'",
                                   MLVPIPE_WB_KELVIN_MIN, MLVPIPE_WB_KELVIN_MAX, arg);
        o->wb = MLVPIPE_WB_KELVIN;
        o->wb_kelvin = kelvin;
    } else if (parse_gains(arg, o->wb_gains)) {
        o->wb = MLVPIPE_WB_CUSTOM;
    } else {
        return cli_value_error(opt, command, arg);
    }
    return EXIT_OK;
}

/* A Slurm memory size: digits, then at most one of K, M, G, T (sbatch --mem). */
static int parse_mem(const cli_option *opt, const char *command, const char *arg, void *field)
{
    size_t n = strspn(arg, "0123456789");
    if (!(n > 0 && n < 12 && (!arg[n] || (strchr("KMGTkmgt", arg[n]) && !arg[n + 1]))))
        return cli_value_error(opt, command, arg);
    *(const char **)field = arg;
    return EXIT_OK;
}

/* One more '#SBATCH OPT' line into list (count so far in *count). */
static int add_line(const cli_option *opt, const char *command, const char **list,
                    uint32_t *count, const char *arg)
{
    if (*count == MLVPIPE_PLAN_MAX_EXTRA)
        return cli_usage_error(command, "at most 32 --%s options (this one: '%s')", opt->name,
                               arg);
    list[(*count)++] = arg;
    return EXIT_OK;
}

static int add_sbatch(const cli_option *opt, const char *command, const char *arg, void *field)
{
    mlvpipe_plan_settings *p = field;
    return add_line(opt, command, p->sbatch, &p->sbatch_count, arg);
}

static int add_sbatch_work(const cli_option *opt, const char *command, const char *arg,
                           void *field)
{
    mlvpipe_plan_settings *p = field;
    return add_line(opt, command, p->sbatch_work, &p->sbatch_work_count, arg);
}

const cli_option cli_options[] = {

    /* convert */
    {.commands = CLI_CONVERT, .name = "output", .short_name = 'o', .arg = "OUT",
     .help = "output directory (sequences), file or - (movies) (required)",
     .kind = CLI_TEXT, .at = offsetof(cli_convert_args, o.output)},
    {.commands = CLI_CONVERT, .name = "to", .arg = "FORMAT",
     .help = "one of:\n"
             "\f\n"
             "Default: from -o's extension (.mov prores422hq, .mkv ffv1,\n"
             ".nut nut), else dng; an extension that contradicts --to is\n"
             "a usage error",
     .kind = CLI_TEXT, .at = offsetof(cli_convert_args, to)},
    {.commands = CLI_CONVERT, .name = "frames", .arg = "SPEC",
     .help = "absolute frame numbers, inclusive: N, A-B, A-, -B, A-B:STEP,\n"
             "or a comma list (1-3,5,7-20:2). An end past the clip is\n"
             "clamped with a warning; a start past it is an error.",
     .kind = CLI_TEXT, .at = offsetof(cli_convert_args, o.frames)},
    {.commands = CLI_CONVERT, .name = "threads", .arg = "N",
     .help = "worker threads (default: one per CPU this process may use:\n"
             "affinity mask and cgroup CPU quota, as nproc counts)",
     .kind = CLI_UINT, .at = offsetof(cli_convert_args, o.threads), THREADS},
    {.commands = CLI_CONVERT, .name = "levels", .arg = "FILE",
     .help = "dual-ISO levels from 'mlvpipe analyze' (default: estimated\n"
             "from frames sampled over the whole clip; same result)",
     .kind = CLI_TEXT, .at = offsetof(cli_convert_args, o.levels_path)},
    {.commands = CLI_CONVERT, .name = "skip-existing",
     .help = "keep frames whose final file exists (resume a run)",
     .kind = CLI_SET, .at = offsetof(cli_convert_args, o.skip_existing), .value = 1,
     SCOPE(SEQUENCE, "keeps the finished files of an image sequence"), .excludes = "overwrite"},
    {.commands = CLI_CONVERT, .name = "overwrite",
     .help = "replace existing files (default: existing files are errors)",
     .kind = CLI_SET, .at = offsetof(cli_convert_args, o.overwrite), .value = 1},
    {.commands = CLI_CONVERT, .name = "progress", .arg = "MODE",
     .help = "auto (default: when stderr is a terminal, a bar with the\n"
             "percentage, elapsed time and ETA of the levels pre-pass\n"
             "and of the frames; with -o - whole lines every 5 s, off\n"
             "the status line of the program reading the pipe), json\n"
             "(one JSON event per line on stderr, for farms), none",
     .kind = CLI_CHOICE, .at = offsetof(cli_convert_args, mode), CHOICES(progress_modes),
     .takes = "takes auto, json or none"},
    {.commands = CLI_CONVERT, .name = "progress-every", .arg = "S",
     .help = "json: a frame event at most every S seconds (and the\n"
             "last frame's); default 0, every frame",
     .kind = CLI_PARSE, .at = offsetof(cli_convert_args, progress_every), .parse = parse_seconds,
     .takes = "takes seconds from 0 to 86400"},
    {.commands = CLI_CONVERT, .name = "audio",
     .help = "write the WAV even for a --frames part of the clip",
     .kind = CLI_SET, .at = offsetof(cli_convert_args, o.audio), .value = 1,
     SCOPE(WAV, "writes the WAV beside an image sequence for a --frames part")},
    {.commands = CLI_CONVERT, .name = "no-audio",
     .help = "no WAV, no audio track in a movie",
     .kind = CLI_SET, .at = offsetof(cli_convert_args, o.audio), .value = 0},
    {.commands = CLI_CONVERT, .name = "phase", .arg = "N",
     .help = "force dual ISO with row phase 0..3 (default: detect)",
     .kind = CLI_UINT, .at = offsetof(cli_convert_args, o.force_phase), PHASE},
    {.commands = CLI_CONVERT, .name = "no-focus-pixels",
     .help = "keep the focus-pixel lattice found in the clip unrepaired",
     .kind = CLI_SET, .at = offsetof(cli_convert_args, o.no_focus_pixels), .value = 1},
    {.commands = CLI_CONVERT, .name = "no-bad-pixels",
     .help = "keep the hot and cold pixels found in the clip unrepaired",
     .kind = CLI_SET, .at = offsetof(cli_convert_args, o.no_bad_pixels), .value = 1},
    {.commands = CLI_CONVERT, .name = "no-stripes",
     .help = "no column (vertical stripe) gain correction. By default the\n"
             "pre-pass finds these raw defects in frames sampled over\n"
             "the clip and repairs them before dual ISO (all three off:\n"
             "not even looked for)",
     .kind = CLI_SET, .at = offsetof(cli_convert_args, o.no_stripes), .value = 1},
    {.commands = CLI_CONVERT, .name = "dark", .arg = "CLIP",
     .help = "subtract a dark frame: the average of every frame of CLIP,\n"
             "a lens-cap clip (MLV or RAW) shot with the same size, bit\n"
             "depth and ISO (else exit 3, naming what differs). Only its\n"
             "fixed pattern is subtracted (each field of dual ISO apart),\n"
             "before the repairs and dual ISO; analyze and plan take it\n"
             "too, so every farm chunk subtracts the same frame",
     .kind = CLI_TEXT, .at = offsetof(cli_convert_args, o.dark)},
    {.commands = CLI_CONVERT, .name = "defects-from", .arg = "CLIP",
     .help = "repair the hot, cold and focus pixels found in CLIP, an\n"
             "MLV or RAW of the same camera body and video mode, instead\n"
             "of those found in this clip: for still (tripod) shots,\n"
             "whose still detail the search cannot tell from defects,\n"
             "and clips of fewer than 8 frames, which give no map. A\n"
             "clip whose scene moves, or a lens-cap clip, shows them\n"
             "best. Stripes stay this clip's own. A crop window placed\n"
             "elsewhere on the sensor is allowed (the sites move with\n"
             "it); another camera, serial number, binning or LiveView\n"
             "buffer is exit 3. Not with --levels: give it to analyze",
     .kind = CLI_TEXT, .at = offsetof(cli_convert_args, o.defects_from)},
    {.commands = CLI_CONVERT, .name = "chroma-smooth", .arg = "N",
     .help = "dual ISO: smooth chroma noise in the deep shadows over 2x2\n"
             "cells and their neighbours: 0 off (default), 2 (5 cells),\n"
             "3 (3x3 cells) or 5 (5x5 cells), like cr2hdr's --cs2x2..5x5.\n"
             "Only cells with green SNR below 12 change; costs 0.01-0.02\n"
             "EV of zone-plate detail",
     .kind = CLI_CHOICE, .at = offsetof(cli_convert_args, o.chroma_smooth), CHOICES(chroma_smooths),
     .takes = "takes 0, 2, 3 or 5"},
    {.commands = CLI_CONVERT, .name = "denoise", .arg = "S",
     .help = "dual ISO: average shadow noise across both fields with a\n"
             "non-local mean of strength S (0 off, the default: no\n"
             "smoothing, each pixel the noise-weighted mix of the two\n"
             "exposures; 1: differences within the predicted noise; up\n"
             "to 8). Less shadow noise for less shadow detail\n"
             "(doc/dualiso.md 10 has the figures)",
     .kind = CLI_PARSE, .at = offsetof(cli_convert_args, o.denoise), .parse = parse_denoise,
     .takes = "takes a strength from 0 to 8"},
    {.commands = CLI_CONVERT, .name = "fps", .arg = "NUM[/DEN]",
     .help = "frame rate of every output instead of the recorded one\n"
             "(normalised: 23976/1000 means 24000/1001): DNG FrameRate\n"
             "and TimeCodes, the WAV's timing, a movie's time base. Audio\n"
             "keeps its sample rate: a movie's track is cut or padded\n"
             "with silence to end with the last frame",
     .kind = CLI_PARSE, .at = offsetof(cli_convert_args, o), .parse = parse_fps,
     .takes = "takes NUM or NUM/DEN (e.g. 25, 24000/1001), 1/1000 to 1000 fps"},
    {.commands = CLI_CONVERT, .name = "timecode", .arg = "TC",
     .help = "zero (default: frame 0 is 00:00:00:00) or time-of-day\n"
             "(the recording's start time from the clip's RTCI block)",
     .kind = CLI_CHOICE, .at = offsetof(cli_convert_args, o.timecode_time_of_day),
     CHOICES(timecodes), .takes = "takes zero or time-of-day"},
    {.commands = CLI_CONVERT, .name = "drop-frame",
     .help = "drop-frame time codes (only at 30000/1001 or 60000/1001)",
     .kind = CLI_SET, .at = offsetof(cli_convert_args, o.timecode_drop_frame), .value = 1},
    {.commands = CLI_CONVERT, .name = "cache", .arg = "DIR",
     .help = "keep reconstructed dual-ISO frames in DIR (LZ4, about 2.4:1)\n"
             "and reuse them: a re-render with other --to, --curve,\n"
             "--gamut, --exposure or --fast skips reading and dual ISO.\n"
             "Entries are keyed by clip, frame, levels and program\n"
             "version; damaged or stale ones are recomputed (-v: summary)",
     .kind = CLI_TEXT, .at = offsetof(cli_convert_args, o.cache_dir)},
    {.commands = CLI_CONVERT, .name = "dng-bits", .arg = "B",
     .section = "DNG sequences",
     .help = "native (default: samples packed at the recorded 10/12/14\n"
             "bits, like mlv_dump) or 16 (16-bit samples, same values;\n"
             "for tools that take no packed DNG). Dual-ISO output is\n"
             "always 16-bit. For uncompressed DNGs only",
     .kind = CLI_CHOICE, .at = offsetof(cli_convert_args, dng_16bit), CHOICES(dng_bits),
     .takes = "takes native or 16", SCOPE(RAW_SEQUENCE, "sets the sample size of DNG files")},
    {.commands = CLI_CONVERT, .name = "dng-compression", .arg = "C",
     .section = "DNG sequences",
     .help = "none (default); lj92: lossless JPEG with MLV-App's layout\n"
             "(predictor 6), which Resolve loads but darktable 4.2 does\n"
             "not; lj92-2c: lossless JPEG with two components\n"
             "(predictor 1), read by darktable too, not verified in\n"
             "Resolve. Both keep each sample's depth (16 for dual ISO);\n"
             "a 1920x1080 dual-ISO frame takes 41 % (lj92) and 44 %\n"
             "(lj92-2c) of its uncompressed size",
     .kind = CLI_CHOICE, .at = offsetof(cli_convert_args, o.dng_storage), CHOICES(compressions),
     .takes = "takes none, lj92 or lj92-2c", SCOPE(RAW_SEQUENCE, "compresses DNG files")},
    {.commands = CLI_CONVERT, .name = "naming", .arg = "N",
     .section = "DNG sequences",
     .help = "plain (default): NAME/NAME_000000.dng, numbered by absolute\n"
             "frame; resolve: NAME_1_YYYY-MM-DD_HHMM_C0000/ with files\n"
             "NAME_1_YYYY-MM-DD_HHMM_C0000_000000.dng (recording start\n"
             "from RTCI, 1970-01-01_0000 without it)",
     .kind = CLI_CHOICE, .at = offsetof(cli_convert_args, o.naming), CHOICES(namings),
     .takes = "takes plain or resolve",
     SCOPE(SEQUENCE, "names the folder and files of an image sequence")},
    {.commands = CLI_CONVERT, .name = "clip-index", .arg = "N",
     .section = "DNG sequences",
     .help = "the C0000 part of resolve names, 0..9999 (default 0)",
     .kind = CLI_UINT, .at = offsetof(cli_convert_args, o.resolve_clip_index), .min = 0,
     .max = 9999, .takes = "takes 0 to 9999",
     SCOPE(SEQUENCE, "numbers the folder and files of an image sequence")},
    {.commands = CLI_CONVERT, .name = "one-based",
     .section = "DNG sequences",
     .help = "file numbers start at 1 (frame 0 -> _000001); TimeCodes\n"
             "are unchanged",
     .kind = CLI_SET, .at = offsetof(cli_convert_args, o.one_based), .value = 1,
     SCOPE(SEQUENCE, "numbers the files of an image sequence from 1")},
    {.commands = CLI_CONVERT, .name = "wb", .arg = "WB",
     .section = "movies, TIFF and EXR (developed RGB)",
     .help = "white balance: asshot (default: the clip's WBAL as Magic\n"
             "Lantern means it: custom gains, else the Kelvin of its\n"
             "mode; daylight without WBAL), daylight (ColorMatrix1's\n"
             "illuminant), K (a colour temperature, 2000..25000, e.g.\n"
             "5600, through the camera's D65 matrix), auto (grey world\n"
             "over 16 frames spread across the whole clip, whatever\n"
             "--frames says, so farm chunks match), or R,G,B\n"
             "multipliers on the raw channels (e.g. 2,1,1.5; 0.01..100)",
     .kind = CLI_PARSE, .at = offsetof(cli_convert_args, o), .parse = parse_wb,
     .takes = "takes asshot, daylight, auto, a colour temperature K or R,G,B (each 0.01 to 100)",
     SCOPE(DEVELOPED, "sets the white balance of the developed picture")},
    {.commands = CLI_CONVERT, .name = "gamut", .arg = "G",
     .section = "movies, TIFF and EXR (developed RGB)",
     .help = "rec709 (default), rec2020, aces (AP0), ap1 (ACEScg/cct),\n"
             "dwg (DaVinci Wide Gamut), awg4 (ARRI Wide Gamut 4),\n"
             "vgamut (Panasonic), cinema (Canon Cinema Gamut)",
     .kind = CLI_CHOICE, .at = offsetof(cli_convert_args, o.gamut), CHOICES(gamuts),
     .takes = "takes rec709, rec2020, aces, ap1, dwg, awg4, vgamut or cinema",
     SCOPE(DEVELOPED, "sets the primaries of the developed picture")},
    {.commands = CLI_CONVERT, .name = "curve", .arg = "C",
     .section = "movies, TIFF and EXR (developed RGB)",
     .help = "bt709 (default; linear for exr), linear, srgb, logc3\n"
             "(ARRI, EI 800), logc4, slog3, acescct, davinci (DaVinci\n"
             "Intermediate), vlog (Panasonic), clog3 (Canon Log 3)",
     .kind = CLI_CHOICE, .at = offsetof(cli_convert_args, o.curve), CHOICES(curves),
     .takes = "takes bt709, linear, logc3, slog3, acescct, davinci, logc4, vlog, clog3 or srgb",
     SCOPE(DEVELOPED, "sets the transfer curve of the developed picture")},
    {.commands = CLI_CONVERT, .name = "lut", .arg = "FILE",
     .section = "movies, TIFF and EXR (developed RGB)",
     .help = "a .cube LUT (1D or 3D, as Resolve and Adobe write them)\n"
             "applied after the curve, 3D ones tetrahedrally; the\n"
             "output is then tagged with no curve or primaries",
     .kind = CLI_TEXT, .at = offsetof(cli_convert_args, o.lut),
     SCOPE(DEVELOPED, "applies a LUT to the developed picture")},
    {.commands = CLI_CONVERT, .name = "exposure", .arg = "EV",
     .section = "movies, TIFF and EXR (developed RGB)",
     .help = "exposure offset, -16..16 (default 0)",
     .kind = CLI_PARSE, .at = offsetof(cli_convert_args, o.exposure_ev), .parse = parse_exposure,
     .takes = "takes a number of EV from -16 to 16",
     SCOPE(DEVELOPED, "shifts the exposure of the developed picture")},
    {.commands = CLI_CONVERT, .name = "highlights", .arg = "H",
     .section = "movies, TIFF and EXR (developed RGB)",
     .help = "blend (default: near a raw clip or the top of the curve,\n"
             "smoothly to white), clip (channels clipped alike only) or\n"
             "reconstruct (clipped channels rebuilt from the others and\n"
             "the colour around them, up to 1 EV above the clip; blend\n"
             "where that cannot be done)",
     .kind = CLI_CHOICE, .at = offsetof(cli_convert_args, o.highlights), CHOICES(highlights),
     .takes = "takes blend, clip or reconstruct",
     SCOPE(DEVELOPED, "sets how the developed picture renders clipped areas")},
    {.commands = CLI_CONVERT, .name = "fast",
     .section = "movies, TIFF and EXR (developed RGB)",
     .help = "bilinear demosaic instead of RCD",
     .kind = CLI_SET, .at = offsetof(cli_convert_args, o.fast), .value = 1,
     SCOPE(DEVELOPED, "picks the demosaic of the developed picture")},
    {.commands = CLI_CONVERT, .name = "no-stretch",
     .section = "movies, TIFF and EXR (developed RGB)",
     .help = "anamorphic and line-skipping modes (RAWC binning/skipping,\n"
             "e.g. 720p's 5:3 rows) keep the recorded pixels, the movie\n"
             "container carries their sample aspect ratio, EXR its\n"
             "pixelAspectRatio, TIFF its X/Y resolution ratio (default:\n"
             "the short axis is resampled, Lanczos-3, to square pixels)",
     .kind = CLI_SET, .at = offsetof(cli_convert_args, o.no_stretch), .value = 1,
     SCOPE(DEVELOPED, "keeps the recorded pixel aspect of the developed picture")},
    {.commands = CLI_CONVERT, .name = "scale", .arg = "F",
     .section = "movies, TIFF and EXR (developed RGB)",
     .help = "resize the picture F times (1/64..4; 0.5: half size, e.g. for\n"
             "--to prores422proxy editing proxies), Lanczos-3 on the\n"
             "developed samples; sizes rounded to even numbers",
     .kind = CLI_PARSE, .at = offsetof(cli_convert_args, o.scale), .parse = parse_scale,
     .takes = "takes a factor from 0.015625 to 4",
     SCOPE(DEVELOPED, "resizes the developed picture"), .excludes = "size"},
    {.commands = CLI_CONVERT, .name = "size", .arg = "WxH",
     .section = "movies, TIFF and EXR (developed RGB)",
     .help = "resize the picture to fit in W x H, its aspect kept (e.g.\n"
             "1920x1080), as --scale does",
     .kind = CLI_PARSE, .at = offsetof(cli_convert_args, o), .parse = parse_size,
     .takes = "takes WIDTHxHEIGHT, each 2..65534 (e.g. 1280x720)",
     SCOPE(DEVELOPED, "resizes the developed picture")},
    {.commands = CLI_CONVERT, .name = "sequence",
     .section = "movies, TIFF and EXR (developed RGB)",
     .help = "a FOLDER of raw photos is one clip, a frame per photo (a\n"
             "timelapse: levels shared over it, any output, --fps)",
     .kind = CLI_SET, .at = offsetof(cli_convert_args, sequence), .value = 1},
    {.commands = CLI_CONVERT, .name = "prores-encoder", .arg = "E",
     .section = "ProRes movies",
     .help = "ks (default: libavcodec's prores_ks, each frame at one\n"
             "quantiser, the finest that keeps to the profile's data\n"
             "rate), ks-slice (prores_ks's own rate control, a quantiser\n"
             "per slice: what ffmpeg -c:v prores_ks writes; about 2x the\n"
             "encoder CPU of ks and 1.5-7 dB less PSNR at the same rate)\n"
             "or aw (prores_aw: fixed quantisers, above the rate)",
     .kind = CLI_CHOICE, .at = offsetof(cli_convert_args, movie.prores_encoder),
     CHOICES(prores_encoders), .takes = "takes ks, ks-slice or aw",
     SCOPE(PRORES, "picks the ProRes encoder")},

    /* analyze */
    {.commands = CLI_ANALYZE, .name = "output", .short_name = 'o', .arg = "FILE",
     .help = "write the sidecar here (through a temporary file)",
     .kind = CLI_TEXT, .at = offsetof(mlvpipe_analyze_settings, output)},
    {.commands = CLI_ANALYZE, .name = "overwrite",
     .help = "replace an existing FILE",
     .kind = CLI_SET, .at = offsetof(mlvpipe_analyze_settings, overwrite), .value = 1},
    {.commands = CLI_ANALYZE, .name = "threads", .arg = "N",
     .help = "worker threads (default: one per usable CPU, see convert --help);\n"
             "the result is the same",
     .kind = CLI_UINT, .at = offsetof(mlvpipe_analyze_settings, threads), THREADS},
    {.commands = CLI_ANALYZE, .name = "phase", .arg = "N",
     .help = "force dual ISO with row phase 0..3 (default: detect)",
     .kind = CLI_UINT, .at = offsetof(mlvpipe_analyze_settings, force_phase), PHASE},
    {.commands = CLI_ANALYZE, .name = "dark", .arg = "CLIP",
     .help = "measure on frames with CLIP's averaged dark frame subtracted,\n"
             "as 'convert --dark CLIP' does (give convert the same CLIP)",
     .kind = CLI_TEXT, .at = offsetof(mlvpipe_analyze_settings, dark)},
    {.commands = CLI_ANALYZE, .name = "defects-from", .arg = "CLIP",
     .help = "the sidecar gets CLIP's hot, cold and focus pixels instead\n"
             "of this clip's (see convert --help)",
     .kind = CLI_TEXT, .at = offsetof(mlvpipe_analyze_settings, defects_from)},

    /* plan */
    {.commands = CLI_PLAN, .name = "output", .short_name = 'o', .arg = "DIR",
     .help = "output folder (convert's -o); made absolute",
     .kind = CLI_TEXT, .at = offsetof(cli_plan_args, output)},
    {.commands = CLI_PLAN, .name = "chunk", .arg = "N",
     .help = "frame numbers per chunk (default 1000: tasks of minutes;\n"
             "see doc/farm.md for sizing)",
     .kind = CLI_UINT, .at = offsetof(cli_plan_args, p.chunk_size), .min = 1, .max = 1000000000,
     .takes = "needs a number of frames >= 1"},
    {.commands = CLI_PLAN, .name = "engine", .arg = "E",
     .help = "slurm, parallel or json (default slurm)",
     .kind = CLI_CHOICE, .at = offsetof(cli_plan_args, p.engine), CHOICES(engines),
     .takes = "takes slurm, parallel or json"},
    {.commands = CLI_PLAN, .name = "to", .arg = "FORMAT",
     .help = "one of (default dng; movies: per-chunk segments in\n"
             "DIR/NAME_segments/NAME_AAAAAA-BBBBBB.EXT joined into\n"
             "DIR/NAME.EXT):\n"
             "\f",
     .kind = CLI_TEXT, .at = offsetof(cli_plan_args, p.format)},
    {.commands = CLI_PLAN, .name = "threads", .arg = "N",
     .help = "threads per task (Slurm: --cpus-per-task=N on analyze and\n"
             "convert; default: what the task's CPUs allow)",
     .kind = CLI_UINT, .at = offsetof(cli_plan_args, p.threads), THREADS},
    {.commands = CLI_PLAN, .name = "phase", .arg = "N",
     .help = "dual-ISO row phase 0..3 for analyze and convert",
     .kind = CLI_UINT, .at = offsetof(cli_plan_args, p.phase), PHASE},
    {.commands = CLI_PLAN, .name = "no-audio",
     .help = "no WAV / audio track",
     .kind = CLI_SET, .at = offsetof(cli_plan_args, p.no_audio), .value = 1},
    {.commands = CLI_PLAN, .name = "dark", .arg = "CLIP",
     .help = "dark frame for analyze and every convert task (convert\n"
             "--dark); made absolute",
     .kind = CLI_TEXT, .at = offsetof(cli_plan_args, dark)},
    {.commands = CLI_PLAN, .name = "defects-from", .arg = "CLIP",
     .help = "another clip's raw-defect map for analyze (convert\n"
             "--defects-from); the sidecar carries it to every task;\n"
             "made absolute",
     .kind = CLI_TEXT, .at = offsetof(cli_plan_args, defects_from)},
    {.commands = CLI_PLAN, .name = "levels", .arg = "FILE",
     .help = "sidecar path (default DIR/NAME.levels.json)",
     .kind = CLI_TEXT, .at = offsetof(cli_plan_args, levels)},
    {.commands = CLI_PLAN, .name = "mlvpipe", .arg = "PATH",
     .help = "mlvpipe as the hosts run it (default: this program)",
     .kind = CLI_TEXT, .at = offsetof(cli_plan_args, program)},
    {.commands = CLI_PLAN, .name = "sbatch", .arg = "OPT",
     .section = "Slurm",
     .help = "add '#SBATCH OPT' to every job (repeatable), e.g.\n"
             "--sbatch=--partition=render --sbatch=--account=vfx",
     .kind = CLI_PARSE, .at = offsetof(cli_plan_args, p), .parse = add_sbatch},
    {.commands = CLI_PLAN, .name = "sbatch-work", .arg = "OPT",
     .section = "Slurm",
     .help = "add '#SBATCH OPT' to the analyze and convert jobs only, not\n"
             "to the short single-threaded join (repeatable), e.g.\n"
             "--sbatch-work=--time=1:00:00",
     .kind = CLI_PARSE, .at = offsetof(cli_plan_args, p), .parse = add_sbatch_work},
    {.commands = CLI_PLAN, .name = "mem", .arg = "SIZE",
     .section = "Slurm",
     .help = "#SBATCH --mem=SIZE for analyze and convert (e.g. 4G; default:\n"
             "from measured peaks at the clip's frame size and --threads)",
     .kind = CLI_PARSE, .at = offsetof(cli_plan_args, p.mem), .parse = parse_mem,
     .takes = "takes a size in Slurm's form: a number with an optional K, M, G or T (e.g. 4G)"},
    {.commands = CLI_PLAN, .name = "throttle", .arg = "N",
     .section = "Slurm",
     .help = "at most N convert tasks at once (--array=0-K%N)",
     .kind = CLI_UINT, .at = offsetof(cli_plan_args, p.throttle), .min = 1, .max = 1000000,
     .takes = "needs a number >= 1"},
    {.commands = CLI_PLAN, .name = "requeue", .arg = "N",
     .section = "Slurm",
     .help = "a task stopped by SIGTERM while its job runs on (exit 6:\n"
             "--sbatch-work=--signal=TERM@120, scancel --signal=TERM)\n"
             "requeues itself, up to N times (default 3; 0: never);\n"
             "analyze and convert jobs are --requeue (node failure,\n"
             "preemption); a cancelled job stays cancelled",
     .kind = CLI_UINT, .at = offsetof(cli_plan_args, p.requeues), .min = 0, .max = 1000,
     .takes = "takes 0 to 1000"},
    {.commands = CLI_PLAN, .name = "sshlogin", .arg = "LIST",
     .section = "GNU parallel",
     .help = "GNU parallel --sshlogin (e.g. 2/node1,2/node2)",
     .kind = CLI_TEXT, .at = offsetof(cli_plan_args, p.sshlogin)},
    {.commands = CLI_PLAN, .name = "jobs", .arg = "N",
     .section = "GNU parallel",
     .help = "GNU parallel --jobs (tasks at once per host)",
     .kind = CLI_UINT, .at = offsetof(cli_plan_args, p.jobs), .min = 1, .max = 100000,
     .takes = "needs a number >= 1"},

    /* join */
    {.commands = CLI_JOIN, .name = "overwrite",
     .help = "replace an existing OUT",
     .kind = CLI_SET, .at = offsetof(mlvpipe_join_settings, overwrite), .value = 1},
    {.commands = CLI_JOIN, .name = "no-verify",
     .help = "copy FFV1 packets unchecked (no slice CRCs, no decode), for\n"
             "segments checked already (e.g. by the task that wrote them):\n"
             "the check decodes every frame, at 1920x1080 0.37 s of CPU a\n"
             "frame against 0.03 s for the copy alone, near what the\n"
             "convert that encoded it took (0.44 s)",
     .kind = CLI_SET, .at = offsetof(mlvpipe_join_settings, no_verify), .value = 1},
    {.commands = CLI_JOIN, .name = "allow-gaps",
     .help = "join segments with frames missing between them (warning; players\n"
             "hold the last picture over the gap)",
     .kind = CLI_SET, .at = offsetof(mlvpipe_join_settings, allow_gaps), .value = 1},

    /* report */
    {.commands = CLI_REPORT, .name = "output", .short_name = 'o', .arg = "FILE",
     .help = "the HTML page",
     .kind = CLI_TEXT, .at = offsetof(mlvpipe_report_settings, html)},
    {.commands = CLI_REPORT, .name = "json", .arg = "FILE",
     .help = "the numbers as JSON",
     .kind = CLI_TEXT, .at = offsetof(mlvpipe_report_settings, json)},
    {.commands = CLI_REPORT, .name = "overwrite",
     .help = "replace existing outputs",
     .kind = CLI_SET, .at = offsetof(mlvpipe_report_settings, overwrite), .value = 1},
    {.commands = CLI_REPORT, .name = "samples", .arg = "N",
     .help = "frames measured per clip, spread over it (1..1024, default 48)",
     .kind = CLI_UINT, .at = offsetof(mlvpipe_report_settings, samples), .min = 1, .max = 1024,
     .takes = "takes a whole number 1..1024"},
    {.commands = CLI_REPORT, .name = "thumbs", .arg = "N",
     .help = "contact-sheet pictures per clip (0..64, default 8)",
     .kind = CLI_UINT, .at = offsetof(mlvpipe_report_settings, thumbs), .min = 0, .max = 64,
     .takes = "takes a whole number 0..64"},
    {.commands = CLI_REPORT, .name = "thumb-width", .arg = "P",
     .help = "their width in pixels (32..1024, default 192)",
     .kind = CLI_UINT, .at = offsetof(mlvpipe_report_settings, thumb_width), .min = 32, .max = 1024,
     .takes = "takes a whole number 32..1024"},
    {.commands = CLI_REPORT, .name = "threads", .arg = "N",
     .help = "worker threads (default: one per usable CPU); the result is\n"
             "the same",
     .kind = CLI_UINT, .at = offsetof(mlvpipe_report_settings, threads), THREADS},
    {.commands = CLI_REPORT, .name = "no-defects",
     .help = "do not look for raw defects (focus, hot, cold pixels, stripes)",
     .kind = CLI_SET, .at = offsetof(mlvpipe_report_settings, no_defects), .value = 1},
    {.commands = CLI_REPORT, .name = "dark", .arg = "CLIP|DNG",
     .help = "subtract this dark frame from every frame first, as\n"
             "'convert --dark' does (the same checks)",
     .kind = CLI_TEXT, .at = offsetof(mlvpipe_report_settings, dark)},
    {.commands = CLI_REPORT, .name = "sequence",
     .help = "a FOLDER of raw photos is one clip, a frame per photo (a\n"
             "timelapse), as convert --sequence takes it",
     .kind = CLI_SET, .at = offsetof(cli_report_args, sequence), .value = 1},

    /* mount (with convert's) */
    {.commands = CLI_MOUNT, .name = "foreground", .short_name = 'f',
     .help = "stay in the foreground (else return once the mount is ready)",
     .kind = CLI_SET, .at = offsetof(cli_mount_args, foreground), .value = 1},
    {.commands = CLI_MOUNT, .name = "prefetch", .arg = "N",
     .help = "frames rendered ahead of a sequential reader (0..1024, default 8)",
     .kind = CLI_UINT, .at = offsetof(cli_mount_args, prefetch), .min = 0, .max = 1024,
     .takes = "takes a whole number 0..1024"},
    {.commands = CLI_MOUNT, .name = "cache-mb", .arg = "N",
     .help = "memory for rendered frames in MB (default 128)",
     .kind = CLI_UINT, .at = offsetof(cli_mount_args, cache_mb), .min = 1, .max = 1u << 20,
     .takes = "takes a whole number of MB from 1"},

    /* info */
    {.commands = CLI_INFO, .name = "json",
     .help = "print one JSON object instead of text (keys: doc/json.md)",
     .kind = CLI_SET, .at = offsetof(cli_info_args, json), .value = 1},
    {.commands = CLI_INFO, .name = "defects",
     .help = "also run the pre-pass of 'convert' and report the raw defects it\n"
             "finds per segment: focus-pixel lattice (period, sites), single hot\n"
             "and cold pixels, vertical stripe amplitude (reads up to 32 frames\n"
             "per segment)",
     .kind = CLI_SET, .at = offsetof(cli_info_args, defects), .value = 1},

    /* plan's options end with what goes after them; every command takes --help */
    {.commands = CLI_PLAN, .name = "-- ARGS", .kind = CLI_LABEL,
     .help = "passed to every convert task as they are, once checked\n"
             "on a task's whole command as convert checks it (unknown\n"
             "options, values, options the format does not take, or\n"
             "ones the plan writes itself: exit 2, nothing planned)"},
    {.commands = ALL_COMMANDS, .name = "help", .short_name = 'h', .kind = CLI_HELP,
     .help = "show this help"},
    {.name = NULL},
};
