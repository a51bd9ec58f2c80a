/* Simulated sensor defects at known positions (synth.h): focus-pixel lattice, hot and cold
 * pixels, 8-column stripe gains, a fixed dark pattern. */
#include "synth/synth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "synth/synth_rng.h"

/* Streams of synth_rng apart from synth_expose's (frame << 32 | row). */
#define STREAM_SITES (1ull << 62)
#define STREAM_FOCUS (2ull << 62)
#define STREAM_DARK (3ull << 62)
#define EDGE 4u   /* hot/cold pixels keep this far from the active area's edges */

static double scale14(const synth_sensor *s)
{
    return ldexp(1, (int)s->bits - 14);
}

/* The 8 column gains - 1, the first draws of the sites stream. */
static void stripe_gains(const synth_defects *d, synth_rng *r, double g[8])
{
    mp_synth_rng_init(r, d->seed, STREAM_SITES);
    for (int c = 0; c < 8; c++)
        g[c] = d->stripe_amp * (2 * mp_synth_rng_uniform(r) - 1);
}

/* Whether a defect already sits at a same-colour neighbour of (x, y) or at (x, y). */
static int crowded(const uint8_t *used, uint32_t bw, uint32_t bh, uint32_t x, uint32_t y)
{
    for (int dy = -4; dy <= 4; dy += 2)
        for (int dx = -2; dx <= 2; dx += 2) {
            int64_t xx = (int64_t)x + dx, yy = (int64_t)y + dy;
            if (xx >= 0 && yy >= 0 && xx < bw && yy < bh && used[(size_t)yy * bw + xx])
                return 1;
        }
    return 0;
}

/* The class of an explicit lattice (fp_classes) active-area sample (x, y) is in, or -1. */
static int focus_class(const synth_defects *d, uint32_t x, uint32_t y)
{
    for (uint32_t k = 0; k < d->fp_classes; k++)
        if (x % d->fp_period_x == d->fp_class_x[k] && y % d->fp_period_y == d->fp_class_y[k])
            return (int)k;
    return -1;
}

mp_status mp_synth_defects_sites(const synth_defects *d, uint32_t width, uint32_t height,
                              uint32_t ob_left, uint32_t ob_top, synth_defect **sites,
                              uint32_t *count, double stripe_gain[8], mp_error *err)
{
    *sites = NULL;
    *count = 0;
    synth_rng r;
    double g[8];
    stripe_gains(d, &r, g);
    if (stripe_gain)
        memcpy(stripe_gain, g, sizeof g);
    if (d->fp_period_x && !d->fp_classes &&
        (d->fp_period_x < 4 || d->fp_period_y < 4 || d->fp_x >= d->fp_period_x ||
         d->fp_y + 1 >= d->fp_period_y))
        return mp_error_set(err, MP_ERR_ARG, "synth: focus lattice %ux%u with a pair at (%u, %u) "
                            "does not fit its cell", d->fp_period_x, d->fp_period_y, d->fp_x,
                            d->fp_y);
    if (d->fp_classes && (!d->fp_period_x || !d->fp_period_y ||
                          d->fp_classes > SYNTH_FP_MAX_CLASSES))
        return mp_error_set(err, MP_ERR_ARG, "synth: focus lattice %ux%u with %u classes",
                            d->fp_period_x, d->fp_period_y, d->fp_classes);
    if (width < 4 * EDGE || height < 4 * EDGE)
        return mp_error_set(err, MP_ERR_ARG, "synth: %ux%u too small for defects", width, height);
    uint32_t bw = width + ob_left, bh = height + ob_top;
    size_t cells = d->fp_period_x ? (size_t)(width / d->fp_period_x + 1) *
                                        (height / d->fp_period_y + 1) : 0;
    size_t cap = (d->fp_classes ? d->fp_classes : 2) * cells + d->hot_count + d->cold_count;
    uint8_t *used = calloc((size_t)bw * bh, 1);
    synth_defect *v = malloc((cap ? cap : 1) * sizeof *v);
    if (!used || !v) {
        free(used);
        free(v);
        return mp_error_set(err, MP_ERR_NOMEM, "synth: out of memory for defect sites");
    }
    uint32_t n = 0;
    for (uint32_t y = d->fp_y0; d->fp_classes && y < d->fp_y1 && y < height; y++)
        for (uint32_t x = d->fp_x0; x < width; x++)
            if (focus_class(d, x, y) >= 0) {
                v[n++] = (synth_defect){x + ob_left, y + ob_top, SYNTH_DEFECT_FOCUS};
                used[(size_t)(y + ob_top) * bw + x + ob_left] = 1;
            }
    for (uint32_t y = d->fp_y; d->fp_period_x && !d->fp_classes && y + 1 < height;
         y += d->fp_period_y)
        for (uint32_t x = d->fp_x; x < width; x += d->fp_period_x)
            for (uint32_t m = 0; m < 2; m++) {
                v[n++] = (synth_defect){x + ob_left, y + m + ob_top, SYNTH_DEFECT_FOCUS};
                used[(size_t)(y + m + ob_top) * bw + x + ob_left] = 1;
            }
    uint32_t want = d->hot_count + d->cold_count;
    for (uint32_t k = 0, tries = 0; k < want && tries < 1000 * want; tries++) {
        uint32_t x = ob_left + EDGE + (uint32_t)(mp_synth_rng_uniform(&r) * (width - 2 * EDGE));
        uint32_t y = ob_top + EDGE + (uint32_t)(mp_synth_rng_uniform(&r) * (height - 2 * EDGE));
        if (crowded(used, bw, bh, x, y))
            continue;
        used[(size_t)y * bw + x] = 1;
        synth_defect_kind kind = k < d->hot_count
            ? (k % 2 ? SYNTH_DEFECT_HOT_WARM : SYNTH_DEFECT_HOT_STUCK)
            : ((k - d->hot_count) % 2 ? SYNTH_DEFECT_COLD_WEAK : SYNTH_DEFECT_COLD_DEAD);
        v[n++] = (synth_defect){x, y, kind};
        k++;
    }
    free(used);
    *sites = v;
    *count = n;
    return MP_OK;
}

static uint16_t clamp_dn(double v, double white)
{
    v = floor(v + 0.5);
    return (uint16_t)(v < 0 ? 0 : v > white ? white : v);
}

mp_status mp_synth_defects_apply(const synth_defects *d, const synth_sensor *s, const float *truth,
                              const synth_defect *sites, uint32_t count, mp_frame *f,
                              mp_error *err)
{
    if (f->width <= s->ob_left || f->height <= s->ob_top)
        return mp_error_set(err, MP_ERR_ARG, "synth: frame %ux%u has no active area",
                            f->width, f->height);
    const double k = scale14(s), white = s->white;
    const uint32_t bw = f->width, bh = f->height, aw = bw - s->ob_left;
    double gain[8];
    synth_rng r;
    stripe_gains(d, &r, gain);
    for (uint32_t y = 0; y < bh && (d->stripe_amp > 0 || d->dark_pattern_dn > 0); y++) {
        mp_synth_rng_init(&r, d->seed, STREAM_DARK | y);
        double black = s->black + (mp_synth_row_is_bright(s, y) ? s->bright_black_offset : 0);
        uint16_t *row = f->data + (size_t)y * bw;
        for (uint32_t x = 0; x < bw; x++) {
            double v = row[x];
            if (v >= white)   /* clipped stays clipped */
                continue;
            v = black + (v - black) * (1 + gain[x % 8]);
            if (d->dark_pattern_dn > 0)
                v += d->dark_pattern_dn * k * mp_synth_rng_gaussian(&r);
            row[x] = clamp_dn(v, white);
        }
    }
    const double gain_dark = mp_synth_sensor_gain(s);
    const double gain_bright = gain_dark * mp_synth_det_exp2(s->ev_gap);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t x = sites[i].x, y = sites[i].y;
        if (x >= bw || y >= bh || x < s->ob_left || y < s->ob_top)
            return mp_error_set(err, MP_ERR_ARG, "synth: defect at (%u, %u) outside the active "
                                "area", x, y);
        double e = truth ? truth[(size_t)(y - s->ob_top) * aw + (x - s->ob_left)] : 0;
        double black = s->black + (mp_synth_row_is_bright(s, y) ? s->bright_black_offset : 0);
        double row_gain = mp_synth_row_is_bright(s, y) ? gain_bright : gain_dark;
        double signal = e * row_gain;
        uint16_t *p = f->data + (size_t)y * bw + x;
        double v = *p;
        switch (sites[i].kind) {
        case SYNTH_DEFECT_FOCUS: {
            mp_synth_rng_init(&r, d->seed, STREAM_FOCUS | i);
            double off = d->fp_offset_dn * k * (0.5 + mp_synth_rng_uniform(&r));
            double sign = d->fp_classes
                              ? (focus_class(d, x - s->ob_left, y - s->ob_top) % 2 ? -1 : 1)
                              : (y - s->ob_top - d->fp_y) % d->fp_period_y == 0 ? 1 : -1;
            if (v < white)
                v += sign * (off + d->fp_slope * signal);
            break;
        }
        case SYNTH_DEFECT_HOT_STUCK: v = black + 3000 * k; break;
        case SYNTH_DEFECT_HOT_WARM: v += 300 * row_gain + 0.02 * signal; break;
        case SYNTH_DEFECT_COLD_DEAD: v = 0; break;
        case SYNTH_DEFECT_COLD_WEAK: v = black - 80 * k + 0.25 * (v - black); break;
        }
        *p = clamp_dn(v, white);
    }
    return MP_OK;
}
