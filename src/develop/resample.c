#include "develop/resample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOBES 3
#define MAX_SHRINK 64

static double lanczos(double x)
{
    x = fabs(x);
    if (x < 1e-9)
        return 1;
    if (x >= LOBES)
        return 0;
    double px = M_PI * x;
    return LOBES * sin(px) * sin(px / LOBES) / (px * px);
}

static void axis_free(develop_resample_axis *a)
{
    free(a->first);
    free(a->weight);
    memset(a, 0, sizeof *a);
}

/* Pixel centres at i + 0.5 on both axes, so the picture's edges meet; shrinking by f widens
 * the kernel f times (a low-pass at the new sampling rate), growing keeps it at 3 lobes. */
static mp_status axis_make(develop_resample_axis *a, uint32_t in, uint32_t out, mp_error *err)
{
    const double shrink = in > out ? (double)in / out : 1.0;
    const double support = LOBES * shrink;
    a->in = in;
    a->out = out;
    a->taps = (uint32_t)ceil(2 * support) + 1;
    a->first = malloc(out * sizeof *a->first);
    a->weight = malloc((size_t)out * a->taps * sizeof *a->weight);
    double *w = malloc(a->taps * sizeof *w);
    if (!a->first || !a->weight || !w) {
        free(w);
        axis_free(a);
        return mp_error_set(err, MP_ERR_NOMEM, "resample: out of memory");
    }
    for (uint32_t o = 0; o < out; o++) {
        double centre = (o + 0.5) * in / out - 0.5;
        int32_t first = (int32_t)ceil(centre - support);
        double total = 0;
        for (uint32_t t = 0; t < a->taps; t++)
            total += w[t] = lanczos((centre - (first + (int32_t)t)) / shrink);
        int16_t *q = a->weight + (size_t)o * a->taps;
        int32_t sum = 0;
        uint32_t largest = 0;
        for (uint32_t t = 0; t < a->taps; t++) {
            q[t] = (int16_t)lrint(w[t] / total * RESAMPLE_ONE);
            sum += q[t];
            if (q[t] > q[largest])
                largest = t;
        }
        q[largest] = (int16_t)(q[largest] + RESAMPLE_ONE - sum);   /* exactly one in all */
        a->first[o] = first;
    }
    free(w);
    return MP_OK;
}

static uint32_t even_size(double v)
{
    double e = 2 * floor(v / 2 + 0.5);
    return e < 2 ? 2 : e > 65534 ? 65534 : (uint32_t)e;
}

void mp_develop_scaled_size(uint32_t width, uint32_t height, uint32_t num, uint32_t den,
                            double scale, uint32_t box_width, uint32_t box_height,
                            uint32_t *out_width, uint32_t *out_height)
{
    if (!(scale > 0)) {
        double shown = (double)width * num / den;
        double across = box_width / shown, down = (double)box_height / height;
        scale = across < down ? across : down;
    }
    *out_width = even_size(width * scale);
    *out_height = even_size(height * scale);
}

void mp_develop_resample_free(develop_resample *r)
{
    axis_free(&r->h);
    axis_free(&r->v);
}

mp_status mp_develop_resample_make(develop_resample *r, uint32_t in_width, uint32_t in_height,
                                   uint32_t out_width, uint32_t out_height, mp_error *err)
{
    memset(r, 0, sizeof *r);
    if (!in_width || !in_height || !out_width || !out_height || in_width > 65535 ||
        in_height > 65535 || out_width > 65535 || out_height > 65535 ||
        in_width > (uint64_t)out_width * MAX_SHRINK ||
        in_height > (uint64_t)out_height * MAX_SHRINK)
        return mp_error_set(err, MP_ERR_ARG, "resample: %ux%u to %ux%u is outside 1..65535 "
                            "or shrinks more than %d times", in_width, in_height, out_width,
                            out_height, MAX_SHRINK);
    mp_status st = axis_make(&r->h, in_width, out_width, err);
    if (st == MP_OK)
        st = axis_make(&r->v, in_height, out_height, err);
    if (st != MP_OK)
        mp_develop_resample_free(r);
    return st;
}

/* Lanczos-3's positive weights sum to under 1.28 x RESAMPLE_ONE at any scale, so a sum of
 * 16-bit samples stays below 2^31. */
static uint16_t clamp16(int64_t acc)
{
    acc = (acc + RESAMPLE_ONE / 2) >> 14;
    return (uint16_t)(acc < 0 ? 0 : acc > 65535 ? 65535 : acc);
}

static uint32_t clamp_index(int64_t i, uint32_t n)
{
    return i < 0 ? 0 : i >= (int64_t)n ? n - 1 : (uint32_t)i;
}

/* Columns: each of the window's rows (in_height of them) to out columns. */
static void columns(const develop_resample_axis *a, const uint16_t *src, size_t stride,
                    uint32_t rows, uint16_t *dst)
{
    for (uint32_t y = 0; y < rows; y++) {
        const uint16_t *line = src + (size_t)y * stride;
        uint16_t *row = dst + (size_t)y * a->out;
        for (uint32_t x = 0; x < a->out; x++) {
            const int16_t *w = a->weight + (size_t)x * a->taps;
            int64_t acc = 0;
            if (a->first[x] >= 0 && a->first[x] + (int64_t)a->taps <= a->in) {
                const uint16_t *p = line + a->first[x];
                for (uint32_t t = 0; t < a->taps; t++)
                    acc += (int32_t)w[t] * p[t];
            } else {
                for (uint32_t t = 0; t < a->taps; t++)
                    acc += (int32_t)w[t] * line[clamp_index((int64_t)a->first[x] + t, a->in)];
            }
            row[x] = clamp16(acc);
        }
    }
}

/* Rows: the column pass (width samples a row) to out rows, one output row at a time. */
static void rows(const develop_resample_axis *a, const uint16_t *src, uint32_t width,
                 uint16_t *dst)
{
    for (uint32_t y = 0; y < a->out; y++) {
        const int16_t *w = a->weight + (size_t)y * a->taps;
        uint16_t *row = dst + (size_t)y * width;
        for (uint32_t x = 0; x < width; x++) {
            int64_t acc = 0;
            for (uint32_t t = 0; t < a->taps; t++)
                acc += (int32_t)w[t] *
                       src[(size_t)clamp_index((int64_t)a->first[y] + t, a->in) * width + x];
            row[x] = clamp16(acc);
        }
    }
}

mp_status mp_develop_resample_apply(const develop_resample *r, const develop_rgb *in,
                                    uint32_t top, uint32_t left, develop_rgb *out,
                                    mp_error *err)
{
    const develop_resample_axis *h = &r->h, *v = &r->v;
    if ((uint64_t)top + v->in > in->height || (uint64_t)left + h->in > in->width)
        return mp_error_set(err, MP_ERR_ARG, "resample: frame %u: %ux%u picture, the window "
                            "needs %ux%u at %u,%u", in->number, in->width, in->height, h->in,
                            v->in, left, top);
    const size_t pixels = (size_t)h->out * v->out, between = (size_t)h->out * v->in;
    if (out->capacity < 3 * pixels + between) {
        uint16_t *p = realloc(out->plane[0], (3 * pixels + between) * sizeof *p);
        if (!p)
            return mp_error_set(err, MP_ERR_NOMEM, "resample: out of memory");
        out->plane[0] = p;
        out->capacity = 3 * pixels + between;
    }
    out->plane[1] = out->plane[0] + pixels;
    out->plane[2] = out->plane[1] + pixels;
    uint16_t *pass = out->plane[2] + pixels;
    out->width = h->out;
    out->height = v->out;
    out->number = in->number;
    for (int c = 0; c < 3; c++) {
        columns(h, in->plane[c] + (size_t)top * in->width + left, in->width, v->in, pass);
        rows(v, pass, h->out, out->plane[c]);
    }
    return MP_OK;
}
