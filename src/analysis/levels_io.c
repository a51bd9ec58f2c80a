#include "analysis/levels_io.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/json.h"
#include "common/out_file.h"

/* One table per JSON object, used by both the writer and the strict reader, so the two
 * cannot drift apart. Nested objects and the segment array are field types of their own. */
typedef enum field_type {
    F_BOOL, F_U32, F_F64, F_HEX64, F_STRING,
    F_FORMAT, F_VERSION, F_CLIP, F_SEGMENTS, F_LEVELS,
    F_RAWFIX, F_GAINS, F_LATTICE, F_CLASSES, F_PIXELS
} field_type;

typedef struct field {
    const char *name;
    size_t offset;
    field_type type;
} field;

#define FIELD(s, m, t) {#m, offsetof(s, m), t}
#define COUNT(a) (sizeof a / sizeof a[0])
#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

static const field level_fields[] = {
    FIELD(dualiso_levels, is_dual, F_BOOL),
    FIELD(dualiso_levels, phase, F_U32),
    FIELD(dualiso_levels, bits, F_U32),
    FIELD(dualiso_levels, ratio_source, F_U32),
    FIELD(dualiso_levels, in_black, F_F64),
    FIELD(dualiso_levels, in_white, F_F64),
    FIELD(dualiso_levels, ratio, F_F64),
    FIELD(dualiso_levels, ratio_ev, F_F64),
    FIELD(dualiso_levels, black_dark, F_F64),
    FIELD(dualiso_levels, black_bright, F_F64),
    FIELD(dualiso_levels, white_dark, F_F64),
    FIELD(dualiso_levels, white_bright, F_F64),
    FIELD(dualiso_levels, noise_dark, F_F64),
    FIELD(dualiso_levels, noise_bright, F_F64),
    FIELD(dualiso_levels, gain_dark, F_F64),
    FIELD(dualiso_levels, frames_used, F_U32),
    FIELD(dualiso_levels, cells_used, F_U32),
    FIELD(dualiso_levels, out_black, F_U32),
    FIELD(dualiso_levels, out_white, F_U32),
    FIELD(dualiso_levels, out_scale, F_F64),
};

/* rawfix_map: the classes and pixels arrays hold x, y pairs. */
static const field lattice_fields[] = {
    FIELD(rawfix_lattice, period_x, F_U32),
    FIELD(rawfix_lattice, period_y, F_U32),
    FIELD(rawfix_lattice, x0, F_U32),
    FIELD(rawfix_lattice, y0, F_U32),
    FIELD(rawfix_lattice, x1, F_U32),
    FIELD(rawfix_lattice, y1, F_U32),
    {"classes", 0, F_CLASSES},
};

static const field rawfix_fields[] = {
    FIELD(rawfix_map, width, F_U32),
    FIELD(rawfix_map, height, F_U32),
    FIELD(rawfix_map, frames, F_U32),
    FIELD(rawfix_map, stripes, F_BOOL),
    FIELD(rawfix_map, stripe_amplitude, F_F64),
    FIELD(rawfix_map, stripe_gain, F_GAINS),
    FIELD(rawfix_map, lattice, F_LATTICE),
    {"pixels", 0, F_PIXELS},
};

static const field segment_fields[] = {
    FIELD(mp_levels_segment, first_index, F_U32),
    FIELD(mp_levels_segment, frame_count, F_U32),
    FIELD(mp_levels_segment, first_frame, F_U32),
    FIELD(mp_levels_segment, last_frame, F_U32),
    FIELD(mp_levels_segment, levels, F_LEVELS),
    {"rawfix", offsetof(mp_levels_segment, fix), F_RAWFIX},
};

#define GAIN_COUNT (RAWFIX_STRIPE_ROWS * RAWFIX_STRIPE_COLS)

static const field clip_fields[] = {
    FIELD(mp_clip_levels, guid, F_HEX64),
    FIELD(mp_clip_levels, frame_count, F_U32),
    FIELD(mp_clip_levels, first_frame, F_U32),
    FIELD(mp_clip_levels, last_frame, F_U32),
};

static const field top_fields[] = {
    {"format", 0, F_FORMAT},
    {"format_version", 0, F_VERSION},
    FIELD(mp_clip_levels, tool, F_STRING),
    FIELD(mp_clip_levels, options_hash, F_HEX64),
    {"clip", 0, F_CLIP},
    {"segments", 0, F_SEGMENTS},
};

uint64_t mp_fnv1a64(const void *data, size_t len, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

void mp_clip_levels_free(mp_clip_levels *cl)
{
    for (uint32_t k = 0; cl->segments && k < cl->segment_count; k++)
        mp_rawfix_map_free(&cl->segments[k].fix);
    free(cl->segments);
    memset(cl, 0, sizeof *cl);
}

/* ---- writing ---- */

static mp_status write_object(mp_text *t, const mp_clip_levels *cl, const void *base,
                              const field *f, size_t n, int indent, mp_error *err);

static mp_status write_value(mp_text *t, const mp_clip_levels *cl, const void *base,
                             const field *f, int indent, mp_error *err)
{
    const char *p = (const char *)base + f->offset;
    switch (f->type) {
    case F_BOOL: mp_text_printf(t, *(const int *)p ? "true" : "false"); break;
    case F_U32: mp_text_printf(t, "%u", *(const uint32_t *)p); break;
    case F_F64: {
        double v = *(const double *)p;
        if (!isfinite(v))
            return mp_error_set(err, MP_ERR_ARG, "levels: %s is not a finite number", f->name);
        mp_text_printf(t, "%.17g", v);
        break;
    }
    case F_HEX64:
        mp_text_printf(t, "\"%016llx\"", (unsigned long long)*(const uint64_t *)p);
        break;
    case F_STRING: mp_text_json_string(t, p); break;
    case F_FORMAT: mp_text_json_string(t, MP_LEVELS_FORMAT); break;
    case F_VERSION: mp_text_printf(t, "%d", MP_LEVELS_FORMAT_VERSION); break;
    case F_CLIP:
        return write_object(t, cl, cl, clip_fields, COUNT(clip_fields), indent, err);
    case F_LEVELS:
        return write_object(t, cl, p, level_fields, COUNT(level_fields), indent, err);
    case F_RAWFIX:
        return write_object(t, cl, p, rawfix_fields, COUNT(rawfix_fields), indent, err);
    case F_LATTICE:
        return write_object(t, cl, p, lattice_fields, COUNT(lattice_fields), indent, err);
    case F_GAINS: {
        const double *g = (const double *)p;
        for (uint32_t i = 0; i < GAIN_COUNT; i++) {
            if (!isfinite(g[i]))
                return mp_error_set(err, MP_ERR_ARG, "levels: a stripe gain is not finite");
            mp_text_printf(t, "%s%.17g", i ? ", " : "[", g[i]);
        }
        mp_text_printf(t, "]");
        break;
    }
    case F_CLASSES: {
        const rawfix_lattice *l = base;
        mp_text_printf(t, "[");
        for (uint32_t i = 0; i < l->class_count; i++)
            mp_text_printf(t, "%s%u, %u", i ? ", " : "", l->class_x[i], l->class_y[i]);
        mp_text_printf(t, "]");
        break;
    }
    case F_PIXELS: {
        const rawfix_map *m = base;
        mp_text_printf(t, "[");
        for (uint32_t i = 0; i < m->pixel_count; i++)
            mp_text_printf(t, "%s%u, %u", i ? ", " : "", m->pixels[2 * i], m->pixels[2 * i + 1]);
        mp_text_printf(t, "]");
        break;
    }
    case F_SEGMENTS:
        mp_text_printf(t, "[");
        for (uint32_t i = 0; i < cl->segment_count; i++) {
            mp_text_printf(t, "%s\n%*s", i ? "," : "", indent + 2, "");
            mp_status st = write_object(t, cl, &cl->segments[i], segment_fields,
                                        COUNT(segment_fields), indent + 2, err);
            if (st != MP_OK)
                return st;
        }
        mp_text_printf(t, "\n%*s]", indent, "");
        break;
    }
    return MP_OK;
}

static mp_status write_object(mp_text *t, const mp_clip_levels *cl, const void *base,
                              const field *f, size_t n, int indent, mp_error *err)
{
    mp_text_printf(t, "{");
    for (size_t i = 0; i < n; i++) {
        mp_text_printf(t, "%s\n%*s\"%s\": ", i ? "," : "", indent + 2, "", f[i].name);
        mp_status st = write_value(t, cl, base, &f[i], indent + 2, err);
        if (st != MP_OK)
            return st;
    }
    mp_text_printf(t, "\n%*s}", indent, "");
    return MP_OK;
}

mp_status mp_clip_levels_to_json(const mp_clip_levels *cl, char **text, size_t *len,
                                 mp_error *err)
{
    mp_text t = {0};
    mp_status st = write_object(&t, cl, cl, top_fields, COUNT(top_fields), 0, err);
    mp_text_printf(&t, "\n");
    if (st == MP_OK && t.failed)
        st = mp_error_set(err, MP_ERR_NOMEM, "levels: out of memory");
    if (st != MP_OK) {
        mp_text_free(&t);
        return st;
    }
    *text = t.data;
    *len = t.len;
    return MP_OK;
}

/* ---- reading ---- */

/* Key paths in messages ("segments[3].levels.ratio"); hostile keys are cut short. */
#define KEY_PATH_MAX 160

typedef struct reader {
    const mp_json_doc *doc;
    const char *name;
    mp_clip_levels *cl;
    mp_error *err;
} reader;

static mp_status bad_key(reader *r, const char *path, const char *cause)
{
    return mp_error_set(r->err, MP_ERR_FORMAT, "%s: key '%s': %s", r->name, path, cause);
}

static mp_status read_object(reader *r, uint32_t node, void *base, const field *f, size_t n,
                             const char *path);

static int parse_hex64(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (strlen(s) != 16)
        return 0;
    for (; *s; s++) {
        int d = (*s >= '0' && *s <= '9') ? *s - '0' : (*s >= 'a' && *s <= 'f') ? *s - 'a' + 10 : -1;
        if (d < 0)
            return 0;
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return 1;
}

/* An array of min..max numbers: finite doubles into d, or 32-bit unsigned integers into u. */
static mp_status read_numbers(reader *r, uint32_t node, const char *path, uint32_t min,
                              uint32_t max, int integers, double *d, uint32_t *u)
{
    const mp_json_node *nd = &r->doc->nodes[node];
    if (nd->type != MP_JSON_ARRAY || nd->count < min || nd->count > max)
        return bad_key(r, path, "expected an array of the right length");
    uint32_t i = 0;
    for (uint32_t c = nd->child; c != MP_JSON_NONE; c = r->doc->nodes[c].next, i++) {
        const mp_json_node *e = &r->doc->nodes[c];
        if (e->type != MP_JSON_NUMBER || !isfinite(e->number) ||
            (integers && (!e->is_integer || e->number < 0 || e->number > 4294967295.0)))
            return bad_key(r, path, integers ? "expected integers from 0 to 4294967295"
                                             : "expected finite numbers");
        if (integers)
            u[i] = (uint32_t)e->number;
        else
            d[i] = e->number;
    }
    return MP_OK;
}

static mp_status read_segments(reader *r, uint32_t node, const char *path)
{
    const mp_json_node *nd = &r->doc->nodes[node];
    if (nd->type != MP_JSON_ARRAY)
        return bad_key(r, path, "expected an array");
    if (nd->count == 0 || nd->count > MP_LEVELS_MAX_SEGMENTS)
        return bad_key(r, path, "needs 1 to 4096 segments");
    r->cl->segments = calloc(nd->count, sizeof *r->cl->segments);
    if (!r->cl->segments)
        return mp_error_set(r->err, MP_ERR_NOMEM, "%s: out of memory", r->name);
    r->cl->segment_count = nd->count;
    uint32_t i = 0;
    for (uint32_t c = nd->child; c != MP_JSON_NONE; c = r->doc->nodes[c].next, i++) {
        char sub[KEY_PATH_MAX];
        snprintf(sub, sizeof sub, "%.100s[%u]", path, i);
        mp_status st = read_object(r, c, &r->cl->segments[i], segment_fields,
                                   COUNT(segment_fields), sub);
        if (st != MP_OK)
            return st;
    }
    return MP_OK;
}

static mp_status read_value(reader *r, uint32_t node, void *base, const field *f,
                            const char *path)
{
    const mp_json_node *nd = &r->doc->nodes[node];
    char *p = (char *)base + f->offset;
    switch (f->type) {
    case F_BOOL:
        if (nd->type != MP_JSON_TRUE && nd->type != MP_JSON_FALSE)
            return bad_key(r, path, "expected true or false");
        *(int *)p = nd->type == MP_JSON_TRUE;
        return MP_OK;
    case F_U32:
    case F_VERSION:
        if (nd->type != MP_JSON_NUMBER || !nd->is_integer || nd->number < 0 ||
            nd->number > 4294967295.0)
            return bad_key(r, path, "expected an integer from 0 to 4294967295");
        if (f->type == F_VERSION) {
            if (nd->number != MP_LEVELS_FORMAT_VERSION)
                return bad_key(r, path, "unsupported format version (this mlvpipe reads "
                                        STRINGIFY(MP_LEVELS_FORMAT_VERSION) ")");
            return MP_OK;
        }
        *(uint32_t *)p = (uint32_t)nd->number;
        return MP_OK;
    case F_F64:
        if (nd->type != MP_JSON_NUMBER || !isfinite(nd->number))
            return bad_key(r, path, "expected a finite number");
        *(double *)p = nd->number;
        return MP_OK;
    case F_HEX64:
        if (nd->type != MP_JSON_STRING || !parse_hex64(mp_json_string(r->doc, node),
                                                       (uint64_t *)p))
            return bad_key(r, path, "expected 16 lowercase hex digits in a string");
        return MP_OK;
    case F_STRING: {
        const char *s = mp_json_string(r->doc, node);
        if (nd->type != MP_JSON_STRING || strlen(s) >= sizeof r->cl->tool)
            return bad_key(r, path, "expected a string of at most 63 bytes");
        strcpy(p, s);
        return MP_OK;
    }
    case F_FORMAT:
        if (nd->type != MP_JSON_STRING || strcmp(mp_json_string(r->doc, node), MP_LEVELS_FORMAT))
            return bad_key(r, path, "expected \"" MP_LEVELS_FORMAT "\"");
        return MP_OK;
    case F_CLIP:
        return read_object(r, node, r->cl, clip_fields, COUNT(clip_fields), path);
    case F_LEVELS:
        return read_object(r, node, p, level_fields, COUNT(level_fields), path);
    case F_SEGMENTS:
        return read_segments(r, node, path);
    case F_RAWFIX:
        return read_object(r, node, p, rawfix_fields, COUNT(rawfix_fields), path);
    case F_LATTICE:
        return read_object(r, node, p, lattice_fields, COUNT(lattice_fields), path);
    case F_GAINS:
        return read_numbers(r, node, path, GAIN_COUNT, GAIN_COUNT, 0, (double *)p, NULL);
    case F_CLASSES: {
        rawfix_lattice *l = base;
        uint32_t v[2 * RAWFIX_MAX_CLASSES], n;
        mp_status st = read_numbers(r, node, path, 0, 2 * RAWFIX_MAX_CLASSES, 1, NULL, v);
        if (st != MP_OK)
            return st;
        n = r->doc->nodes[node].count;
        if (n % 2)
            return bad_key(r, path, "expected x, y pairs");
        l->class_count = n / 2;
        for (uint32_t i = 0; i < l->class_count; i++)
            l->class_x[i] = v[2 * i], l->class_y[i] = v[2 * i + 1];
        return MP_OK;
    }
    case F_PIXELS: {
        rawfix_map *m = base;
        uint32_t n = r->doc->nodes[node].count;
        if (r->doc->nodes[node].type != MP_JSON_ARRAY || n % 2 || n > 2 * RAWFIX_MAX_PIXELS)
            return bad_key(r, path, "expected at most " STRINGIFY(RAWFIX_MAX_PIXELS)
                                    " x, y pairs");
        if (!(m->pixels = malloc((n ? n : 1) * sizeof *m->pixels)))
            return mp_error_set(r->err, MP_ERR_NOMEM, "%s: out of memory", r->name);
        m->pixel_count = n / 2;
        return read_numbers(r, node, path, n, n, 1, NULL, m->pixels);
    }
    }
    return MP_OK;
}

static mp_status read_object(reader *r, uint32_t node, void *base, const field *f, size_t n,
                             const char *path)
{
    char sub[KEY_PATH_MAX];
    if (r->doc->nodes[node].type != MP_JSON_OBJECT)
        return bad_key(r, *path ? path : "(top level)", "expected an object");
    uint32_t seen[32] = {0};   /* the largest table has fewer than 32 fields */
    for (uint32_t c = r->doc->nodes[node].child; c != MP_JSON_NONE; c = r->doc->nodes[c].next) {
        const char *key = mp_json_key(r->doc, c);
        snprintf(sub, sizeof sub, "%.100s%s%.40s", path, *path ? "." : "", key);
        size_t i = 0;
        while (i < n && strcmp(f[i].name, key))
            i++;
        if (i == n)
            return bad_key(r, sub, "unknown key");
        if (seen[i]++)
            return bad_key(r, sub, "repeated");
        mp_status st = read_value(r, c, base, &f[i], sub);
        if (st != MP_OK)
            return st;
    }
    for (size_t i = 0; i < n; i++) {
        if (!seen[i]) {
            snprintf(sub, sizeof sub, "%.100s%s%.40s", path, *path ? "." : "", f[i].name);
            return bad_key(r, sub, "missing");
        }
    }
    return MP_OK;
}

static int within(double v, double lo, double hi)
{
    return v >= lo && v <= hi;   /* false for NaN */
}

/* What is wrong with a map read from a file, or NULL. */
static const char *rawfix_map_check(const rawfix_map *m)
{
    const rawfix_lattice *l = &m->lattice;
    if ((uint64_t)m->width * m->height > MP_FRAME_MAX_PIXELS || m->width > MP_FRAME_MAX_DIM ||
        m->height > MP_FRAME_MAX_DIM || m->frames > RAWFIX_MAX_FRAMES)
        return "frame size or frame count out of range";
    for (uint32_t i = 0; i < m->pixel_count; i++)
        if (m->pixels[2 * i] >= m->width || m->pixels[2 * i + 1] >= m->height)
            return "a pixel lies outside the frame";
    if (!within(m->stripe_amplitude, 0, 1))
        return "stripe_amplitude outside 0..1";
    for (uint32_t r = 0; m->stripes && r < RAWFIX_STRIPE_ROWS; r++)
        for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++)
            if (!(m->stripe_gain[r][c] > 0.5 && m->stripe_gain[r][c] < 2))
                return "stripe gains must lie between 0.5 and 2";
    if (!l->period_x && !l->period_y && !l->class_count)
        return NULL;
    if (l->period_x < 2 || l->period_y < 2 || l->period_x > RAWFIX_MAX_PERIOD ||
        l->period_y > RAWFIX_MAX_PERIOD || !l->class_count || l->x0 >= l->x1 ||
        l->y0 >= l->y1 || l->x1 > m->width || l->y1 > m->height)
        return "lattice periods, classes or box out of range";
    for (uint32_t k = 0; k < l->class_count; k++)
        if (l->class_x[k] >= l->period_x || l->class_y[k] >= l->period_y)
            return "a lattice class is not below its period";
    return NULL;
}

/* What no sensor gives in levels of `bits` (checked before), or NULL: the sidecar is an input
 * like the clip, and a value it cannot hold must be refused naming it, not fail later in the
 * reconstruction (as a usage error) or pass into the output. */
static const char *levels_check(const dualiso_levels *lv, uint32_t frames)
{
    const double max = (double)((1u << lv->bits) - 1);
    if (lv->ratio_source > DUALISO_RATIO_NOMINAL || lv->frames_used > frames)
        return "ratio_source or frames_used out of range";
    if (!within(lv->in_black, 0, max) || !within(lv->in_white, lv->in_black + 1, max))
        return "needs 0 <= in_black < in_white <= 2^bits - 1";
    /* ratio_ev only says ratio in EV (reports, logs): a sidecar edited by hand may leave it */
    if (!within(lv->ratio, 1, max + 1) || !within(lv->ratio_ev, 0, lv->bits))
        return "needs 1 <= ratio <= 2^bits and 0 <= ratio_ev <= bits";
    if (!within(lv->black_dark, 0, max) || !within(lv->black_bright, 0, max) ||
        !within(lv->white_dark, lv->black_dark + 1, max) ||
        !within(lv->white_bright, lv->black_bright + 1, max))
        return "needs 0 <= black < white <= 2^bits - 1 in each field";
    if (!within(lv->noise_dark, 0, max) || !within(lv->noise_bright, 0, max) ||
        !within(lv->gain_dark, 0, max))
        return "noise or gain outside 0..2^bits - 1";
    if (lv->is_dual && !(lv->noise_dark > 0 && lv->noise_bright > 0))
        return "dual ISO needs a read noise above 0 in both fields";
    if (!within(lv->out_scale, 1.0 / 65536, 65536))
        return "needs out_scale within 2^-16..2^16";
    return NULL;
}

/* Consistency that the types alone do not express. */
static mp_status check_clip_levels(reader *r)
{
    const mp_clip_levels *cl = r->cl;
    if (cl->frame_count == 0 || cl->first_frame > cl->last_frame ||
        cl->last_frame - cl->first_frame < cl->frame_count - 1)
        return bad_key(r, "clip", "frame_count, first_frame and last_frame disagree");
    uint32_t next_index = 0;
    for (uint32_t i = 0; i < cl->segment_count; i++) {
        const mp_levels_segment *s = &cl->segments[i];
        const dualiso_levels *lv = &s->levels;
        char path[64];
        snprintf(path, sizeof path, "segments[%u]", i);
        if (s->first_index != next_index || s->frame_count == 0 ||
            s->frame_count > cl->frame_count - next_index)
            return bad_key(r, path, "segments do not tile the clip's frames");
        if (s->first_frame > s->last_frame || s->first_frame < cl->first_frame ||
            s->last_frame > cl->last_frame ||
            (i > 0 && s->first_frame <= cl->segments[i - 1].last_frame))
            return bad_key(r, path, "frame numbers out of order or outside the clip");
        next_index += s->frame_count;
        snprintf(path, sizeof path, "segments[%u].levels", i);
        const char *why;
        if (lv->phase > 3 || lv->bits < 1 || lv->bits > 16)
            return bad_key(r, path, "phase must be 0..3 and bits 1..16");
        if (lv->out_black >= lv->out_white || lv->out_white > 65535)
            return bad_key(r, path, "needs out_black < out_white <= 65535");
        why = levels_check(lv, s->frame_count);
        if (why)
            return bad_key(r, path, why);
        snprintf(path, sizeof path, "segments[%u].rawfix", i);
        why = rawfix_map_check(&s->fix);
        if (why)
            return bad_key(r, path, why);
    }
    if (next_index != cl->frame_count)
        return bad_key(r, "segments", "segments do not cover the clip's frame_count");
    return MP_OK;
}

mp_status mp_clip_levels_from_json(const char *text, size_t len, const char *name,
                                   mp_clip_levels *cl, mp_error *err)
{
    memset(cl, 0, sizeof *cl);
    mp_json_doc doc;
    mp_status st = mp_json_parse(text, len, name, &doc, err);
    if (st != MP_OK)
        return st;
    reader r = {&doc, name, cl, err};
    st = read_object(&r, 0, cl, top_fields, COUNT(top_fields), "");
    if (st == MP_OK)
        st = check_clip_levels(&r);
    mp_json_free(&doc);
    if (st != MP_OK)
        mp_clip_levels_free(cl);
    return st;
}

/* ---- files ---- */

mp_status mp_clip_levels_write(const char *path, const mp_clip_levels *cl, int overwrite,
                               mp_error *err)
{
    char *text;
    size_t len;
    mp_status st = mp_out_check_target(path, err);
    if (st == MP_OK)
        st = mp_clip_levels_to_json(cl, &text, &len, err);
    if (st != MP_OK)
        return st;
    st = mp_out_write_file(path, text, len, overwrite, 0, err);
    free(text);
    return st;
}

mp_status mp_clip_levels_read(const char *path, mp_clip_levels *cl, mp_error *err)
{
    memset(cl, 0, sizeof *cl);
    /* Non-blocking, so that a FIFO given as the sidecar is refused instead of waited on. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return mp_error_set(err, MP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(fd);
        return mp_error_set(err, MP_ERR_IO, "%s: not a regular file", path);
    }
    /* Sized by the file (a sidecar is a few KiB), grown to the bound if it grows meanwhile;
     * one byte more than the bound shows a file that is too large. */
    size_t cap = (sb.st_size < (off_t)MP_JSON_MAX_BYTES ? (size_t)sb.st_size : MP_JSON_MAX_BYTES) + 1;
    char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
    }
    size_t len = 0;
    for (;;) {
        if (len == cap) {
            char *bigger = realloc(buf, MP_JSON_MAX_BYTES + 1);
            if (!bigger) {
                free(buf);
                close(fd);
                return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
            }
            buf = bigger;
            cap = MP_JSON_MAX_BYTES + 1;
        }
        ssize_t n = read(fd, buf + len, cap - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return mp_error_set(err, MP_ERR_IO, "%s: offset %zu: read failed: %s", path, len,
                                strerror(e));
        }
        if (n == 0 || (len += (size_t)n) > MP_JSON_MAX_BYTES)
            break;
    }
    close(fd);
    mp_status st = mp_clip_levels_from_json(buf, len, path, cl, err);
    free(buf);
    return st;
}
