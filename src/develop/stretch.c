#include "develop/stretch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int mp_develop_stretch_size(const mp_raw_capture *c, uint32_t width, uint32_t height,
                            uint32_t *out_width, uint32_t *out_height, uint32_t *num,
                            uint32_t *den)
{
    uint32_t h, v;
    mp_raw_capture_pixel_shape(c, &h, &v);
    *out_width = width;
    *out_height = height;
    *num = h;
    *den = v;
    /* a recorded pixel covers h sensor columns and v sensor rows: its aspect is h / v */
    if (v > h)
        *out_height = (uint32_t)(((uint64_t)height * v + h / 2) / h);
    else if (h > v)
        *out_width = (uint32_t)(((uint64_t)width * h + v / 2) / v);
    return h != v;
}

static double lanczos3(double x)
{
    x = fabs(x);
    if (x < 1e-9)
        return 1;
    if (x >= 3)
        return 0;
    double px = M_PI * x;
    return 3 * sin(px) * sin(px / 3) / (px * px);
}

void mp_develop_stretch_free(develop_stretch *s)
{
    free(s->first);
    free(s->weight);
    memset(s, 0, sizeof *s);
}

mp_status mp_develop_stretch_make(develop_stretch *s, uint32_t in_width, uint32_t in_height,
                                  uint32_t out_width, uint32_t out_height, mp_error *err)
{
    memset(s, 0, sizeof *s);
    int vertical = out_width == in_width && out_height > in_height;
    if (!vertical && !(out_height == in_height && out_width > in_width))
        return mp_error_set(err, MP_ERR_ARG, "stretch: %ux%u to %ux%u grows no single axis",
                            in_width, in_height, out_width, out_height);
    const uint32_t in = vertical ? in_height : in_width, out = vertical ? out_height : out_width;
    s->first = malloc(out * sizeof *s->first);
    s->weight = malloc(out * sizeof *s->weight);
    if (!s->first || !s->weight) {
        mp_develop_stretch_free(s);
        return mp_error_set(err, MP_ERR_NOMEM, "stretch: out of memory");
    }
    for (uint32_t o = 0; o < out; o++) {
        /* the output sample's centre on the input axis, pixel centres at i + 0.5 */
        double centre = (o + 0.5) * in / out - 0.5;
        int32_t first = (int32_t)floor(centre) - STRETCH_TAPS / 2 + 1;
        double w[STRETCH_TAPS], total = 0;
        for (int t = 0; t < STRETCH_TAPS; t++)
            total += w[t] = lanczos3(centre - (first + t));
        int32_t sum = 0, largest = 0;
        for (int t = 0; t < STRETCH_TAPS; t++) {
            s->weight[o][t] = (int16_t)lrint(w[t] / total * STRETCH_ONE);
            sum += s->weight[o][t];
            if (s->weight[o][t] > s->weight[o][largest])
                largest = t;
        }
        s->weight[o][largest] = (int16_t)(s->weight[o][largest] + STRETCH_ONE - sum);
        s->first[o] = first;
    }
    s->in_width = in_width;
    s->in_height = in_height;
    s->out_width = out_width;
    s->out_height = out_height;
    s->vertical = vertical;
    return MP_OK;
}

/* The positive weights of a set sum to under 1.28 x STRETCH_ONE, so a sum of 16-bit samples
 * stays below 0.64 x 2^31: int32 sums, which the compiler can vectorise. */
static uint16_t clamp16(int32_t acc)
{
    acc = (acc + STRETCH_ONE / 2) / STRETCH_ONE;   /* acc < 0 clamps to 0 either way */
    return (uint16_t)(acc < 0 ? 0 : acc > 65535 ? 65535 : acc);
}

static int32_t clamp_index(int32_t i, uint32_t n)
{
    return i < 0 ? 0 : i >= (int32_t)n ? (int32_t)n - 1 : i;
}

mp_status mp_develop_stretch_apply(const develop_stretch *s, const develop_rgb *in, uint32_t top,
                                   uint32_t left, develop_rgb *out, mp_error *err)
{
    if ((uint64_t)top + s->in_height > in->height || (uint64_t)left + s->in_width > in->width)
        return mp_error_set(err, MP_ERR_ARG, "stretch: frame %u: %ux%u picture, the window "
                            "needs %ux%u at %u,%u", in->number, in->width, in->height,
                            s->in_width, s->in_height, left, top);
    const size_t pixels = (size_t)s->out_width * s->out_height;
    if (out->capacity < 3 * pixels) {
        uint16_t *p = realloc(out->plane[0], 3 * pixels * sizeof *p);
        if (!p)
            return mp_error_set(err, MP_ERR_NOMEM, "stretch: out of memory");
        out->plane[0] = p;
        out->capacity = 3 * pixels;
    }
    out->plane[1] = out->plane[0] + pixels;
    out->plane[2] = out->plane[1] + pixels;
    out->width = s->out_width;
    out->height = s->out_height;
    out->number = in->number;
    for (int c = 0; c < 3; c++) {
        const uint16_t *src = in->plane[c] + (size_t)top * in->width + left;
        uint16_t *dst = out->plane[c];
        for (uint32_t y = 0; y < s->out_height; y++) {
            uint16_t *row = dst + (size_t)y * s->out_width;
            if (s->vertical) {
                const uint16_t *rows[STRETCH_TAPS];
                for (int t = 0; t < STRETCH_TAPS; t++)
                    rows[t] = src + (size_t)clamp_index(s->first[y] + t, s->in_height) *
                                        in->width;
                const int16_t *w = s->weight[y];
                for (uint32_t x = 0; x < s->out_width; x++) {
                    int32_t acc = 0;
                    for (int t = 0; t < STRETCH_TAPS; t++)
                        acc += (int32_t)w[t] * rows[t][x];
                    row[x] = clamp16(acc);
                }
            } else {
                const uint16_t *line = src + (size_t)y * in->width;
                for (uint32_t x = 0; x < s->out_width; x++) {
                    const int16_t *w = s->weight[x];
                    int32_t acc = 0;
                    for (int t = 0; t < STRETCH_TAPS; t++)
                        acc += (int32_t)w[t] * line[clamp_index(s->first[x] + t, s->in_width)];
                    row[x] = clamp16(acc);
                }
            }
        }
    }
    return MP_OK;
}
