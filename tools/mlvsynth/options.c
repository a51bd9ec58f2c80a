#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/mp_frame.h"
#include "diso_index.h"

int frame_list_has(const frame_list *l, uint32_t number)
{
    uint32_t lo = 0, hi = l->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (l->v[mid] == number)
            return 1;
        if (l->v[mid] < number)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Bounded so that a typo like 0-4000000000 cannot allocate gigabytes. */
#define FRAME_LIST_MAX 1000000u

static mp_status parse_frame_list(frame_list *l, const char *s, mp_error *err)
{
    free(l->v);
    l->v = NULL;
    l->count = 0;
    uint32_t cap = 0;
    const char *p = s;
    while (*p) {
        char *end;
        errno = 0;
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (end == p || errno)
            goto bad;
        p = end;
        if (*p == '-') {
            b = strtoul(++p, &end, 10);
            if (end == p || errno || b < a)
                goto bad;
            p = end;
        }
        if (a > UINT32_MAX || b > UINT32_MAX || l->count + (b - a) + 1 > FRAME_LIST_MAX)
            goto bad;
        for (unsigned long n = a; n <= b; n++) {
            if (l->count == cap) {
                cap = cap ? 2 * cap : 16;
                uint32_t *v = realloc(l->v, cap * sizeof *v);
                if (!v)
                    return mp_error_set(err, MP_ERR_NOMEM, "frame list too long");
                l->v = v;
            }
            l->v[l->count++] = (uint32_t)n;
        }
        if (*p == ',')
            p++;
        else if (*p)
            goto bad;
    }
    qsort(l->v, l->count, sizeof *l->v, cmp_u32);
    uint32_t n = 0;
    for (uint32_t i = 0; i < l->count; i++)
        if (n == 0 || l->v[n - 1] != l->v[i])
            l->v[n++] = l->v[i];
    l->count = n;
    return MP_OK;
bad:
    return mp_error_set(err, MP_ERR_ARG, "bad frame list '%s' (expected e.g. 3,5-7)", s);
}

static mp_status parse_u64(const char *name, const char *s, uint64_t min, uint64_t max,
                           uint64_t *out, mp_error *err)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (end == s || *end || errno || s[0] == '-' || v < min || v > max)
        return mp_error_set(err, MP_ERR_ARG, "%s: expected an integer in %" PRIu64 "..%" PRIu64
                            ", got '%s'", name, min, max, s);
    *out = v;
    return MP_OK;
}

static mp_status parse_u32(const char *name, const char *s, uint32_t min, uint32_t max,
                           uint32_t *out, mp_error *err)
{
    uint64_t v = 0;
    mp_status st = parse_u64(name, s, min, max, &v, err);
    *out = (uint32_t)v;
    return st;
}

static mp_status parse_i64(const char *name, const char *s, int64_t min, int64_t max,
                           int64_t *out, mp_error *err)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 0);
    if (end == s || *end || errno || v < min || v > max)
        return mp_error_set(err, MP_ERR_ARG, "%s: expected an integer in %" PRId64 "..%" PRId64
                            ", got '%s'", name, min, max, s);
    *out = v;
    return MP_OK;
}

static mp_status parse_double(const char *name, const char *s, double min, double max,
                              double *out, mp_error *err)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v >= min && v <= max))
        return mp_error_set(err, MP_ERR_ARG, "%s: expected a number in %g..%g, got '%s'",
                            name, min, max, s);
    *out = v;
    return MP_OK;
}

static mp_status parse_pair(const char *name, const char *s, char sep, uint32_t *a,
                            uint32_t *b, mp_error *err)
{
    char *end;
    errno = 0;
    unsigned long x = strtoul(s, &end, 10);
    if (end == s || *end != sep || errno || x > UINT32_MAX || s[0] == '-')
        goto bad;
    const char *q = end + 1;
    unsigned long y = strtoul(q, &end, 10);
    if (end == q || *end || errno || y > UINT32_MAX || q[0] == '-')
        goto bad;
    *a = (uint32_t)x;
    *b = (uint32_t)y;
    return MP_OK;
bad:
    return mp_error_set(err, MP_ERR_ARG, "%s: expected A%cB, got '%s'", name, sep, s);
}

/* --pan-error DX,DY: signed, DX a multiple of 8 and DY even (a window's start in the buffer
 * keeps the colours), each within 64. */
static mp_status parse_pan_error(const char *s, int32_t *dx, int32_t *dy, mp_error *err)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || *end != ',' || errno)
        goto bad;
    const char *q = end + 1;
    long y = strtol(q, &end, 10);
    if (end == q || *end || errno || x % 8 || y % 2 || x < -64 || x > 64 || y < -64 || y > 64)
        goto bad;
    *dx = (int32_t)x;
    *dy = (int32_t)y;
    return MP_OK;
bad:
    return mp_error_set(err, MP_ERR_ARG, "--pan-error: expected DX,DY with DX a multiple of 8 "
                        "and DY even, each in -64..64, got '%s'", s);
}

/* --focus-layout PXxPY:R,C/R,C/...: the period and the (row, column) residues of its sites. */
static mp_status parse_focus_layout(const char *s, focus_layout *l, mp_error *err)
{
    char *end;
    const char *p = s;
    unsigned long px = strtoul(p, &end, 10), py = 0;
    int ok = end != p && *end == 'x';
    if (ok) {
        p = end + 1;
        py = strtoul(p, &end, 10);
        ok = end != p && *end == ':' && px >= 2 && py >= 2 && px <= 256 && py <= 256;
    }
    l->count = 0;
    while (ok && *end && l->count < SYNTH_FP_MAX_CLASSES) {
        p = end + 1;
        unsigned long r = strtoul(p, &end, 10);
        ok = end != p && *end == ',' && r < py;
        if (!ok)
            break;
        p = end + 1;
        unsigned long c = strtoul(p, &end, 10);
        ok = end != p && (*end == '/' || !*end) && c < px;
        l->row[l->count] = (uint32_t)r;
        l->col[l->count++] = (uint32_t)c;
    }
    if (!ok || *end || !l->count || strchr(s, '-'))
        return mp_error_set(err, MP_ERR_ARG, "--focus-layout: expected PXxPY:R,C/R,C... (up to "
                            "%u sites, R < PY, C < PX), got '%s'", SYNTH_FP_MAX_CLASSES, s);
    l->period_x = (uint32_t)px;
    l->period_y = (uint32_t)py;
    return MP_OK;
}

static mp_status parse_choice(const char *name, const char *s, const char *const *choices,
                              int *out, mp_error *err)
{
    for (int i = 0; choices[i]; i++)
        if (!strcmp(s, choices[i])) {
            *out = i;
            return MP_OK;
        }
    return mp_error_set(err, MP_ERR_ARG, "%s: unknown value '%s'", name, s);
}

enum {
    O_HELP = 'h', O_OUTPUT = 'o',
    O_OVERWRITE = 256, O_SIZE, O_FRAMES, O_BITS, O_FPS, O_CONTENT, O_HEADER, O_GUID,
    O_COMPRESS, O_LJ92_LAYOUT, O_LJ92_PRED, O_VIDEO_CLASS, O_FRAME_SPACE, O_RTCI_EVERY,
    O_LEGACY_RAW, O_RAW_CHUNK, O_RAW_UNPADDED, O_CHUNK_FRAMES, O_SHUFFLE, O_DROP, O_DUPLICATE,
    O_AUDIO, O_TONE, O_AUDIO_OFFSET,
    O_INTERRUPTED, O_ZERO_TAIL, O_TRUNCATE, O_GARBAGE, O_BAD_FS, O_NO_RAWI, O_GUID_MISMATCH,
    O_ISO, O_SHUTTER, O_CHANGE_AT, O_CHANGE_ISO, O_CHANGE_SHUTTER, O_CHANGE_DISO,
    O_CHANGE_EV_GAP, O_CHANGE_IN_FILLER, O_CHANGE_SIZE,
    O_CAMERA, O_LV_BUFFER, O_PAN_ERROR, O_FOCUS_LAYOUT, O_FOCUS_ROWS,
    O_DEFECTS, O_FOCUS_PIXELS, O_FP_OFFSET, O_HOT, O_COLD, O_STRIPES, O_DARK_PATTERN,
    O_DUAL_ISO, O_ISO_HIGH, O_EV_GAP, O_PHASE, O_SEED, O_SCENE, O_SHIFT, O_ILLUM, O_BLACK_OFF,
    O_EXPOSURE, O_OB, O_NO_DISO, O_TRUTH_RAW, O_CAMERA_GEOMETRY, O_SINGLE_ISO, O_LENS_CAP,
    O_SENSOR_SEED, O_BINNING, O_SKIPPING, O_DARK_BLOCK
};

static const struct option long_opts[] = {
    {"help", no_argument, 0, O_HELP},
    {"output", required_argument, 0, O_OUTPUT},
    {"overwrite", no_argument, 0, O_OVERWRITE},
    {"size", required_argument, 0, O_SIZE},
    {"frames", required_argument, 0, O_FRAMES},
    {"bits", required_argument, 0, O_BITS},
    {"fps", required_argument, 0, O_FPS},
    {"content", required_argument, 0, O_CONTENT},
    {"header", required_argument, 0, O_HEADER},
    {"guid", required_argument, 0, O_GUID},
    {"compress", required_argument, 0, O_COMPRESS},
    {"lj92-layout", required_argument, 0, O_LJ92_LAYOUT},
    {"lj92-predictor", required_argument, 0, O_LJ92_PRED},
    {"video-class", required_argument, 0, O_VIDEO_CLASS},
    {"frame-space", required_argument, 0, O_FRAME_SPACE},
    {"rtci-every", required_argument, 0, O_RTCI_EVERY},
    {"legacy-raw", no_argument, 0, O_LEGACY_RAW},
    {"raw-chunk-bytes", required_argument, 0, O_RAW_CHUNK},
    {"raw-unpadded", no_argument, 0, O_RAW_UNPADDED},
    {"chunk-frames", required_argument, 0, O_CHUNK_FRAMES},
    {"shuffle", required_argument, 0, O_SHUFFLE},
    {"drop", required_argument, 0, O_DROP},
    {"duplicate", required_argument, 0, O_DUPLICATE},
    {"audio", no_argument, 0, O_AUDIO},
    {"tone", required_argument, 0, O_TONE},
    {"audio-offset", required_argument, 0, O_AUDIO_OFFSET},
    {"interrupted", no_argument, 0, O_INTERRUPTED},
    {"zero-tail", required_argument, 0, O_ZERO_TAIL},
    {"truncate", required_argument, 0, O_TRUNCATE},
    {"garbage-block", required_argument, 0, O_GARBAGE},
    {"bad-frame-space", required_argument, 0, O_BAD_FS},
    {"no-rawi", no_argument, 0, O_NO_RAWI},
    {"guid-mismatch", required_argument, 0, O_GUID_MISMATCH},
    {"iso", required_argument, 0, O_ISO},
    {"iso-low", required_argument, 0, O_ISO},
    {"shutter", required_argument, 0, O_SHUTTER},
    {"change-at", required_argument, 0, O_CHANGE_AT},
    {"change-iso", required_argument, 0, O_CHANGE_ISO},
    {"change-shutter", required_argument, 0, O_CHANGE_SHUTTER},
    {"change-diso", required_argument, 0, O_CHANGE_DISO},
    {"change-ev-gap", required_argument, 0, O_CHANGE_EV_GAP},
    {"change-in-filler", no_argument, 0, O_CHANGE_IN_FILLER},
    {"change-size", required_argument, 0, O_CHANGE_SIZE},
    {"dual-iso", no_argument, 0, O_DUAL_ISO},
    {"iso-high", required_argument, 0, O_ISO_HIGH},
    {"ev-gap", required_argument, 0, O_EV_GAP},
    {"phase", required_argument, 0, O_PHASE},
    {"seed", required_argument, 0, O_SEED},
    {"scene", required_argument, 0, O_SCENE},
    {"shift", required_argument, 0, O_SHIFT},
    {"illum-sigma", required_argument, 0, O_ILLUM},
    {"black-offset", required_argument, 0, O_BLACK_OFF},
    {"exposure-ev", required_argument, 0, O_EXPOSURE},
    {"ob", required_argument, 0, O_OB},
    {"no-diso", no_argument, 0, O_NO_DISO},
    {"truth-raw", no_argument, 0, O_TRUTH_RAW},
    {"camera-geometry", no_argument, 0, O_CAMERA_GEOMETRY},
    {"camera", required_argument, 0, O_CAMERA},
    {"lv-buffer", required_argument, 0, O_LV_BUFFER},
    {"pan-error", required_argument, 0, O_PAN_ERROR},
    {"focus-layout", required_argument, 0, O_FOCUS_LAYOUT},
    {"focus-rows", required_argument, 0, O_FOCUS_ROWS},
    {"defects", no_argument, 0, O_DEFECTS},
    {"focus-pixels", required_argument, 0, O_FOCUS_PIXELS},
    {"fp-offset", required_argument, 0, O_FP_OFFSET},
    {"hot", required_argument, 0, O_HOT},
    {"cold", required_argument, 0, O_COLD},
    {"stripes", required_argument, 0, O_STRIPES},
    {"dark-pattern", required_argument, 0, O_DARK_PATTERN},
    {"single-iso", no_argument, 0, O_SINGLE_ISO},
    {"lens-cap", no_argument, 0, O_LENS_CAP},
    {"sensor-seed", required_argument, 0, O_SENSOR_SEED},
    {"binning", required_argument, 0, O_BINNING},
    {"dark-block", required_argument, 0, O_DARK_BLOCK},
    {"skipping", required_argument, 0, O_SKIPPING},
    {0, 0, 0, 0}
};

static void set_defaults(synth_options *o)
{
    memset(o, 0, sizeof *o);
    o->width = 128;
    o->height = 64;
    o->frames = 3;
    o->bits = 14;
    o->fps_num = 25000;
    o->fps_den = 1000;
    o->guid = 0x1122334455667788ull;
    o->video_class = OPT_NONE;
    o->frame_space = 32;
    o->raw_chunk_bytes = 4294967295ull;
    o->tone_hz = 1000.0;
    o->garbage_block = OPT_NONE;
    o->bad_frame_space = OPT_NONE;
    o->guid_mismatch = OPT_NONE;
    o->iso = 100;
    o->shutter_us = 20000;
    o->change_at = OPT_NONE;
    o->iso_high = 1600;
    o->ev_gap = -1.0;
    o->sensor_seed = OPT_NONE;
    o->binning_x = o->binning_y = 3;
    o->seed = 1;
    o->scene = SYNTH_SCENE_BENCHMARK;
    o->ob_left = OPT_NONE;
    o->ob_top = OPT_NONE;
    o->camera = camera_body_default();
    o->fp_layout.last_row = UINT32_MAX;
}

/* Readers find chunks and recognise the container by the extension. */
static int has_extension(const char *name, const char *ext)
{
    size_t n = strlen(name), e = strlen(ext);
    return n > e && !strcasecmp(name + n - e, ext);
}

static mp_status validate(synth_options *o, mp_error *err)
{
    if (!o->output)
        return mp_error_set(err, MP_ERR_ARG, "no output given (-o NAME.MLV)");
    if (!has_extension(o->output, o->legacy_raw ? ".RAW" : ".MLV"))
        return mp_error_set(err, MP_ERR_ARG, "output name must end in %s",
                            o->legacy_raw ? ".RAW (--legacy-raw)" : ".MLV");
    if (o->bits != 10 && o->bits != 12 && o->bits != 14 && o->bits != 16)
        return mp_error_set(err, MP_ERR_ARG, "--bits must be 10, 12, 14 or 16");
    if (o->width < 2 || o->height < 2 || o->width % 2 || o->height % 2 ||
        o->width > 16384 || o->height > 16384)
        return mp_error_set(err, MP_ERR_ARG, "--size must be even, 2..16384 each way");
    if ((uint64_t)o->width * o->height > MP_FRAME_MAX_PIXELS)
        return mp_error_set(err, MP_ERR_ARG, "--size: more than %u pixels", MP_FRAME_MAX_PIXELS);
    if (o->frames < 1)
        return mp_error_set(err, MP_ERR_ARG, "--frames must be at least 1");
    /* up to 1000 fps: frames at least 1 ms apart leave room for blocks stamped in between */
    if (o->fps_num == 0 || o->fps_den == 0 || o->fps_num > 1000ull * o->fps_den)
        return mp_error_set(err, MP_ERR_ARG, "--fps must be NUM/DEN, nonzero, at most 1000 fps");
    if (o->legacy_raw) {
        if (o->bits != 14)
            return mp_error_set(err, MP_ERR_ARG, "--legacy-raw is always 14-bit");
        if (o->compression != COMPRESS_NONE || o->audio || o->chunk_frames || o->shuffle ||
            o->duplicate.count || o->drop.count || o->zero_tail || o->truncate ||
            o->garbage_block != OPT_NONE ||
            o->bad_frame_space != OPT_NONE || o->no_rawi || o->guid_mismatch != OPT_NONE ||
            o->change_at != OPT_NONE || o->interrupted || o->rtci_every ||
            o->frame_space != 32 || o->video_class != OPT_NONE)
            return mp_error_set(err, MP_ERR_ARG, "--legacy-raw takes only picture and "
                                "--raw-* options");
        if (o->raw_chunk_bytes < 1)
            return mp_error_set(err, MP_ERR_ARG, "--raw-chunk-bytes must be positive");
    }
    if ((o->compression == COMPRESS_DELTA || o->compression == COMPRESS_LZMA_DELTA) &&
        (o->duplicate.count || o->shuffle))
        return mp_error_set(err, MP_ERR_ARG, "DELTA needs frames in timestamp order: "
                            "no --duplicate or --shuffle");
    /* every later DELTA frame depends on a lost one: nothing left to check */
    if ((o->compression == COMPRESS_DELTA || o->compression == COMPRESS_LZMA_DELTA) &&
        (o->garbage_block != OPT_NONE || o->bad_frame_space != OPT_NONE ||
         o->guid_mismatch != OPT_NONE))
        return mp_error_set(err, MP_ERR_ARG, "DELTA cannot lose a frame mid-clip: no "
                            "--garbage-block, --bad-frame-space or --guid-mismatch");
    if (o->change_width && (o->change_width < 2 || o->change_height < 2 ||
                            o->change_width % 2 || o->change_height % 2 ||
                            o->change_width > 16384 || o->change_height > 16384 ||
                            (uint64_t)o->change_width * o->change_height > MP_FRAME_MAX_PIXELS))
        return mp_error_set(err, MP_ERR_ARG, "--change-size must be even, 2..16384 each way");
    if (o->change_width && (o->content == CONTENT_DUALISO || o->legacy_raw || o->no_rawi))
        return mp_error_set(err, MP_ERR_ARG, "--change-size: not with --dual-iso, --legacy-raw "
                            "or --no-rawi");
    if (o->lv_width && (!o->camera_geometry || o->lv_width % 8 || o->lv_width > 16384 ||
                        o->lv_height > 16384))
        return mp_error_set(err, MP_ERR_ARG, "--lv-buffer needs --camera-geometry and a width "
                            "that is a multiple of 8, up to 16384 each way");
    if ((o->pan_error_x || o->pan_error_y) && !o->fp_layout.period_x)
        return mp_error_set(err, MP_ERR_ARG, "--pan-error moves the --focus-layout's pixels: "
                            "it needs --focus-layout (and --camera-geometry)");
    if (o->fp_layout.period_x && o->content != CONTENT_DUALISO)
        return mp_error_set(err, MP_ERR_ARG, "--focus-layout needs the simulated sensor "
                            "(--dual-iso or --single-iso)");
    if (o->fp_layout.first_row > o->fp_layout.last_row)
        return mp_error_set(err, MP_ERR_ARG, "--focus-rows A-B: A after B");
    if (o->zero_tail && o->truncate)
        return mp_error_set(err, MP_ERR_ARG, "--zero-tail and --truncate exclude each other");
    if (o->lj92_predictor && o->compression != COMPRESS_LJ92)
        return mp_error_set(err, MP_ERR_ARG, "--lj92-predictor needs --compress lj92");
    for (uint32_t i = 0; i < o->drop.count; i++)
        if (o->drop.v[i] >= o->frames)
            return mp_error_set(err, MP_ERR_ARG, "--drop %u: no such frame", o->drop.v[i]);
    for (uint32_t i = 0; i < o->duplicate.count; i++)
        if (o->duplicate.v[i] >= o->frames || frame_list_has(&o->drop, o->duplicate.v[i]))
            return mp_error_set(err, MP_ERR_ARG, "--duplicate %u: frame not written",
                                o->duplicate.v[i]);
    if (o->drop.count >= o->frames)
        return mp_error_set(err, MP_ERR_ARG, "--drop leaves no frame");
    /* frame 0 shares the header blocks' timestamp: a change there would not be "later" */
    if (o->change_at != OPT_NONE && (o->change_at < 1 || (uint64_t)o->change_at >= o->frames))
        return mp_error_set(err, MP_ERR_ARG, "--change-at must be a frame number in "
                            "1..frames-1");
    if ((o->change_iso || o->change_shutter_us || o->change_diso || o->change_ev_gap > 0 ||
         o->change_in_filler || o->change_width) &&
        o->change_at == OPT_NONE)
        return mp_error_set(err, MP_ERR_ARG, "--change-* options need --change-at K");
    if (o->binning_x > 255 || o->binning_y > 255 || o->skipping_x > 255 || o->skipping_y > 255 ||
        !(o->binning_x + o->skipping_x) || !(o->binning_y + o->skipping_y))
        return mp_error_set(err, MP_ERR_ARG, "--binning/--skipping: each at most 255, and "
                            "binning + skipping at least 1 on each axis");
    if (o->content == CONTENT_DUALISO) {
        if (o->single_iso)
            o->ev_gap = 0;
        else if (o->ev_gap < 0)
            o->ev_gap = log2((double)o->iso_high / o->iso);
        if (!o->single_iso && (o->ev_gap <= 0 || o->ev_gap > 8))
            return mp_error_set(err, MP_ERR_ARG, "dual ISO needs --iso-high above --iso "
                                "(or --ev-gap in 0..8)");
        if (o->change_diso && o->change_ev_gap <= 0) {
            double ev = diso_nominal_ev(o->change_iso ? o->change_iso : o->iso,
                                        o->change_diso_value);
            if (ev <= 0)
                return mp_error_set(err, MP_ERR_ARG, "--change-diso %d gives no bright field; "
                                    "give --change-ev-gap", o->change_diso_value);
            o->change_ev_gap = ev;
        }
        if (o->single_iso && (o->change_diso || o->change_ev_gap > 0))
            return mp_error_set(err, MP_ERR_ARG, "--single-iso has no dual-ISO change");
    } else if (o->change_diso || o->change_ev_gap > 0 || o->truth_raw || o->lens_cap ||
               o->sensor_seed != OPT_NONE || o->dark_block) {
        return mp_error_set(err, MP_ERR_ARG, "--change-diso, --change-ev-gap, --truth-raw, "
                            "--lens-cap, --sensor-seed and --dark-block need --dual-iso or "
                            "--single-iso");
    }
    return MP_OK;
}

mp_status options_parse(synth_options *o, int argc, char **argv, int first, int *help,
                        mp_error *err)
{
    static const char *const contents[] = {"pattern", "gradient", "dualiso", NULL};
    static const char *const headers[] = {"mlv-lite", "minimal", "all", NULL};
    static const char *const compressions[] = {"none", "lj92", "lzma", "delta", "lzma-delta",
                                               NULL};
    static const char *const layouts[] = {"camera", "mlvdump", NULL};
    static const char *const scenes[] = {"benchmark", "flat", "ramp", "objects", "detail", NULL};
    set_defaults(o);
    *help = 0;
    optind = first;
    opterr = 0;
    mp_status st = MP_OK;
    int c, choice = 0;
    while (st == MP_OK && (c = getopt_long(argc, argv, ":ho:", long_opts, NULL)) != -1) {
        const char *a = optarg;
        switch (c) {
        case O_HELP: *help = 1; return MP_OK;
        case O_OUTPUT: o->output = a; break;
        case O_OVERWRITE: o->overwrite = 1; break;
        case O_SIZE: st = parse_pair("--size", a, 'x', &o->width, &o->height, err); break;
        case O_FRAMES: st = parse_u32("--frames", a, 1, 1000000, &o->frames, err); break;
        case O_BITS: st = parse_u32("--bits", a, 10, 16, &o->bits, err); break;
        case O_FPS: st = parse_pair("--fps", a, '/', &o->fps_num, &o->fps_den, err); break;
        case O_CONTENT:
            st = parse_choice("--content", a, contents, &choice, err);
            o->content = (content_kind)choice;
            break;
        case O_HEADER:
            st = parse_choice("--header", a, headers, &choice, err);
            o->header = (header_style)choice;
            break;
        case O_GUID: st = parse_u64("--guid", a, 0, UINT64_MAX, &o->guid, err); break;
        case O_COMPRESS:
            st = parse_choice("--compress", a, compressions, &choice, err);
            o->compression = (compression_kind)choice;
            break;
        case O_LJ92_LAYOUT:
            st = parse_choice("--lj92-layout", a, layouts, &choice, err);
            o->layout = (lj92_layout)choice;
            break;
        case O_LJ92_PRED: st = parse_u32("--lj92-predictor", a, 1, 7, &o->lj92_predictor, err);
            break;
        case O_VIDEO_CLASS: st = parse_i64("--video-class", a, 0, 0xFFFF, &o->video_class, err);
            break;
        case O_FRAME_SPACE:
            st = parse_u32("--frame-space", a, 0, 1u << 20, &o->frame_space, err);
            break;
        case O_RTCI_EVERY: st = parse_u32("--rtci-every", a, 1, 1000000, &o->rtci_every, err);
            break;
        case O_LEGACY_RAW: o->legacy_raw = 1; break;
        case O_RAW_CHUNK:
            st = parse_u64("--raw-chunk-bytes", a, 1, 4294967295ull, &o->raw_chunk_bytes, err);
            break;
        case O_RAW_UNPADDED: o->raw_unpadded = 1; break;
        case O_CHUNK_FRAMES: st = parse_u32("--chunk-frames", a, 1, 1000000, &o->chunk_frames,
                                            err);
            break;
        case O_SHUFFLE:
            o->shuffle = 1;
            st = parse_u64("--shuffle", a, 0, UINT64_MAX, &o->shuffle_seed, err);
            break;
        case O_DROP: st = parse_frame_list(&o->drop, a, err); break;
        case O_DUPLICATE: st = parse_frame_list(&o->duplicate, a, err); break;
        case O_AUDIO: o->audio = 1; break;
        case O_TONE: st = parse_double("--tone", a, 1, 20000, &o->tone_hz, err); break;
        case O_AUDIO_OFFSET:
            st = parse_i64("--audio-offset", a, -1000000, 1000000, &o->audio_offset_us, err);
            break;
        case O_INTERRUPTED: o->interrupted = 1; break;
        case O_ZERO_TAIL:
            st = parse_u64("--zero-tail", a, 1, 1ull << 32, &o->zero_tail, err);
            break;
        case O_TRUNCATE: st = parse_u64("--truncate", a, 1, 1ull << 40, &o->truncate, err);
            break;
        case O_GARBAGE: st = parse_i64("--garbage-block", a, 0, INT32_MAX, &o->garbage_block,
                                       err);
            break;
        case O_BAD_FS: st = parse_i64("--bad-frame-space", a, 0, INT32_MAX,
                                      &o->bad_frame_space, err);
            break;
        case O_NO_RAWI: o->no_rawi = 1; break;
        case O_GUID_MISMATCH: st = parse_i64("--guid-mismatch", a, 0, 99, &o->guid_mismatch,
                                             err);
            break;
        case O_ISO: st = parse_u32("--iso", a, 50, 409600, &o->iso, err); break;
        case O_SHUTTER: st = parse_u32("--shutter", a, 1, 100000000, &o->shutter_us, err); break;
        case O_CHANGE_AT: st = parse_i64("--change-at", a, 0, INT32_MAX, &o->change_at, err);
            break;
        case O_CHANGE_ISO: st = parse_u32("--change-iso", a, 50, 409600, &o->change_iso, err);
            break;
        case O_CHANGE_SHUTTER:
            st = parse_u32("--change-shutter", a, 1, 100000000, &o->change_shutter_us, err);
            break;
        case O_CHANGE_DISO: {
            int64_t v = 0;
            st = parse_i64("--change-diso", a, -12, 6, &v, err);
            o->change_diso = 1;
            o->change_diso_value = (int32_t)v;
            break;
        }
        case O_CHANGE_EV_GAP:
            st = parse_double("--change-ev-gap", a, 0.01, 8, &o->change_ev_gap, err);
            break;
        case O_CHANGE_IN_FILLER: o->change_in_filler = 1; break;
        case O_CHANGE_SIZE:
            st = parse_pair("--change-size", a, 'x', &o->change_width, &o->change_height, err);
            break;
        case O_DUAL_ISO: o->content = CONTENT_DUALISO; break;
        case O_ISO_HIGH: st = parse_u32("--iso-high", a, 50, 409600, &o->iso_high, err); break;
        case O_EV_GAP: st = parse_double("--ev-gap", a, 0.01, 8, &o->ev_gap, err); break;
        case O_PHASE: st = parse_u32("--phase", a, 0, 3, &o->phase, err); break;
        case O_SEED: st = parse_u64("--seed", a, 0, UINT64_MAX, &o->seed, err); break;
        case O_SCENE:
            st = parse_choice("--scene", a, scenes, &choice, err);
            o->scene = (synth_scene_kind)choice;
            break;
        case O_SHIFT: st = parse_double("--shift", a, -1000, 1000, &o->shift_px, err); break;
        case O_ILLUM: st = parse_double("--illum-sigma", a, 0, 4, &o->illum_sigma_ev, err); break;
        case O_BLACK_OFF:
            st = parse_double("--black-offset", a, -1000, 1000, &o->black_offset, err);
            break;
        case O_EXPOSURE:
            st = parse_double("--exposure-ev", a, -30, 30, &o->exposure_ev, err);
            break;
        case O_OB: {
            uint32_t l = 0, t = 0;
            st = parse_pair("--ob", a, 'x', &l, &t, err);
            o->ob_left = l;
            o->ob_top = t;
            break;
        }
        case O_NO_DISO: o->no_diso = 1; break;
        case O_TRUTH_RAW: o->truth_raw = 1; break;
        case O_SINGLE_ISO:
            o->content = CONTENT_DUALISO;
            o->single_iso = o->no_diso = 1;
            break;
        case O_LENS_CAP: o->lens_cap = 1; break;
        case O_BINNING:
            st = parse_pair("--binning", a, 'x', &o->binning_x, &o->binning_y, err);
            break;
        case O_SKIPPING:
            st = parse_pair("--skipping", a, 'x', &o->skipping_x, &o->skipping_y, err);
            break;
        case O_DARK_BLOCK:
            st = parse_u32("--dark-block", a, 1, 65535, &o->dark_block, err);
            break;
        case O_SENSOR_SEED:
            st = parse_i64("--sensor-seed", a, 0, INT64_MAX, &o->sensor_seed, err);
            break;
        case O_CAMERA_GEOMETRY: o->camera_geometry = 1; break;
        case O_CAMERA:
            if (!(o->camera = camera_body_find(a)))
                st = mp_error_set(err, MP_ERR_ARG, "--camera: one of %s, not '%s'",
                                  camera_body_keys(), a);
            break;
        case O_LV_BUFFER:
            st = parse_pair("--lv-buffer", a, 'x', &o->lv_width, &o->lv_height, err);
            break;
        case O_PAN_ERROR: st = parse_pan_error(a, &o->pan_error_x, &o->pan_error_y, err); break;
        case O_FOCUS_LAYOUT: st = parse_focus_layout(a, &o->fp_layout, err); break;
        case O_FOCUS_ROWS:
            st = parse_pair("--focus-rows", a, '-', &o->fp_layout.first_row,
                            &o->fp_layout.last_row, err);
            break;
        case O_DEFECTS:
            o->defects = (synth_defects){.fp_period_x = 12, .fp_period_y = 10, .fp_x = 4,
                                         .fp_y = 3, .fp_offset_dn = 16, .fp_slope = 0.03,
                                         .hot_count = 200, .cold_count = 200,
                                         .stripe_amp = 0.005, .seed = o->defects.seed};
            break;
        case O_FOCUS_PIXELS:
            st = parse_pair("--focus-pixels", a, 'x', &o->defects.fp_period_x,
                            &o->defects.fp_period_y, err);
            break;
        case O_FP_OFFSET:
            st = parse_double("--fp-offset", a, 0, 4000, &o->defects.fp_offset_dn, err);
            break;
        case O_HOT: st = parse_u32("--hot", a, 0, 100000, &o->defects.hot_count, err); break;
        case O_COLD: st = parse_u32("--cold", a, 0, 100000, &o->defects.cold_count, err); break;
        case O_STRIPES:
            st = parse_double("--stripes", a, 0, 0.2, &o->defects.stripe_amp, err);
            break;
        case O_DARK_PATTERN:
            st = parse_double("--dark-pattern", a, 0, 1000, &o->defects.dark_pattern_dn, err);
            break;
        case ':':
            st = mp_error_set(err, MP_ERR_ARG, "%s needs a value", argv[optind - 1]);
            break;
        default:
            st = mp_error_set(err, MP_ERR_ARG, "unknown option %s", argv[optind - 1]);
            break;
        }
    }
    if (st == MP_OK && optind < argc)
        st = mp_error_set(err, MP_ERR_ARG, "unexpected argument '%s'", argv[optind]);
    if (st == MP_OK)
        st = validate(o, err);
    return st;
}

void options_free(synth_options *o)
{
    free(o->drop.v);
    free(o->duplicate.v);
    o->drop.v = o->duplicate.v = NULL;
}

void options_frame_geometry(const synth_options *o, uint32_t number, uint32_t *width,
                            uint32_t *height)
{
    int changed = o->change_width && o->change_at != OPT_NONE && number >= o->change_at;
    *width = changed ? o->change_width : o->width;
    *height = changed ? o->change_height : o->height;
}

size_t options_max_pixels(const synth_options *o)
{
    size_t first = (size_t)o->width * o->height;
    size_t later = (size_t)o->change_width * o->change_height;
    return first > later ? first : later;
}

uint64_t options_first_frame_time_us(const synth_options *o)
{
    /* Header blocks sit at 1000 us; audio that starts early moves the video back. */
    int64_t early = o->audio && o->audio_offset_us < 0 ? -o->audio_offset_us : 0;
    return 1000 + (uint64_t)early;
}

uint64_t options_frame_time_us(const synth_options *o, uint32_t number)
{
    uint64_t num = (uint64_t)number * 1000000u * o->fps_den;
    return options_first_frame_time_us(o) + (num + o->fps_num / 2) / o->fps_num;
}
