#include "band_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The smooth-ramp mask of doc/dualiso.md 8.7 (benchmark scene; no margin for the flicker
 * measure). u, v over the active area; the clip is static, so no scene shift. */
static int in_mask(const clip_truth *t, uint32_t x, uint32_t y)
{
    if (t->scene.kind != SYNTH_SCENE_BENCHMARK)
        return 1;
    double u = (double)x / t->active_width, v = (double)y / t->active_height;
    if (v > 0.35 && v < 0.5)
        return 0;  /* stripes */
    if (u < 0.45 && v > 0.62 && v < 0.95)
        return 0;  /* zone plate */
    if (v > 0.05 && v < 0.23)
        return 0;  /* patches */
    return 1;
}

/* Sensor noise in electrons and clip points of both fields. */
typedef struct noise_model {
    double read_e[2];     /* 0 = dark field, 1 = bright field */
    double clip_e[2];
    int shot;
} noise_model;

static void model_of(const synth_sensor *s, noise_model *m)
{
    double g = mp_synth_sensor_gain(s), gb = g * exp2(s->ev_gap);
    m->read_e[0] = s->read_noise_dark / g;
    m->read_e[1] = s->read_noise_bright / gb;
    m->clip_e[0] = (s->white - s->black) / g;
    m->clip_e[1] = (s->white - s->black - s->bright_black_offset) / gb;
    m->shot = s->photon_noise;
}

/* True electrons of raw buffer photosite (x, y): the optical-black borders hold none. */
static double truth_at(const clip_truth *t, uint32_t x, uint32_t y)
{
    uint32_t ol = t->sensor.ob_left, ot = t->sensor.ob_top;
    if (x < ol || y < ot)
        return 0;
    return t->electrons[(size_t)(y - ot) * t->active_width + (x - ol)];
}

static double sample_var(const noise_model *m, int field, double e)
{
    return m->read_e[field] * m->read_e[field] + (m->shot ? e : 0);
}

/* Field-mix prediction of one band (band_stats.h): total weight of every raw sample in the
 * band's sum, then the variance those weights give. w is a scratch of width x height. */
static double predict_band(const clip_truth *t, const int8_t *band_of, int band,
                           const noise_model *m, double *w)
{
    const uint32_t bw = t->width, bh = t->height;
    const uint32_t ol = t->sensor.ob_left, ot = t->sensor.ob_top;
    memset(w, 0, (size_t)bw * bh * sizeof *w);
    for (uint32_t ay = 0; ay < t->active_height; ay++)
        for (uint32_t ax = 0; ax < t->active_width; ax++) {
            if (band_of[(size_t)ay * t->active_width + ax] != band)
                continue;
            uint32_t x = ax + ol, y = ay + ot;
            int f = mp_synth_row_is_bright(&t->sensor, y), o = !f;
            double e = t->electrons[(size_t)ay * t->active_width + ax];
            /* the other field's same-colour rows; at the frame edge the one that exists */
            uint32_t ya = y >= 2 ? y - 2 : y + 2, yb = y + 2 < bh ? y + 2 : y - 2;
            double ea = truth_at(t, x, ya), eb = truth_at(t, x, yb);
            double wn = e < m->clip_e[f] ? 1 / sample_var(m, f, e) : 0;
            double wo = ea < m->clip_e[o] && eb < m->clip_e[o] ? 2 / sample_var(m, o, e) : 0;
            if (wn + wo == 0)
                continue; /* both fields clipped: the output is white, no noise */
            w[(size_t)y * bw + x] += wn / (wn + wo);
            w[(size_t)ya * bw + x] += 0.5 * wo / (wn + wo);
            w[(size_t)yb * bw + x] += 0.5 * wo / (wn + wo);
        }
    double var = 0;
    for (uint32_t y = 0; y < bh; y++) {
        int f = mp_synth_row_is_bright(&t->sensor, y);
        for (uint32_t x = 0; x < bw; x++) {
            double k = w[(size_t)y * bw + x];
            if (k != 0)
                var += k * k * sample_var(m, f, truth_at(t, x, y));
        }
    }
    return var;
}

mp_status fb_bands_init(fb_bands *b, const clip_truth *t, double lo_ev, double width_ev,
                        uint32_t count, mp_error *err)
{
    memset(b, 0, sizeof *b);
    if (count == 0 || count > FB_MAX_BANDS || !(width_ev > 0))
        return mp_error_set(err, MP_ERR_ARG, "flicker: %u bands of %g EV", count, width_ev);
    b->count = count;
    for (uint32_t k = 0; k < count; k++) {
        b->lo_ev[k] = lo_ev + k * width_ev;
        b->hi_ev[k] = b->lo_ev[k] + width_ev;
    }
    const size_t n = (size_t)t->active_width * t->active_height;
    b->band_of = malloc(n);
    double *w = malloc((size_t)t->width * t->height * sizeof *w);
    if (!b->band_of || !w) {
        free(w);
        fb_bands_free(b);
        return mp_error_set(err, MP_ERR_NOMEM, "flicker: cannot allocate the band map");
    }
    for (uint32_t y = 0; y < t->active_height; y++)
        for (uint32_t x = 0; x < t->active_width; x++) {
            size_t i = (size_t)y * t->active_width + x;
            double e = t->electrons[i];
            int k = -1;
            if (e > 0 && in_mask(t, x, y)) {
                double ev = log2(e);
                k = (int)floor((ev - lo_ev) / width_ev);
                if (k >= (int)count)
                    k = -1;
            }
            b->band_of[i] = (int8_t)(k < 0 ? -1 : k);
            if (k >= 0) {
                b->n[k]++;
                b->sum_true[k] += e;
            }
        }
    noise_model m;
    model_of(&t->sensor, &m);
    for (uint32_t k = 0; k < count; k++)
        b->predicted_var[k] = b->n[k] ? predict_band(t, b->band_of, (int)k, &m, w) : 0;
    free(w);
    return MP_OK;
}

void fb_bands_free(fb_bands *b)
{
    free(b->band_of);
    b->band_of = NULL;
}

mp_status fb_frame_errors(const fb_bands *b, const clip_truth *t, const mp_frame *out,
                          double black, double white, double *error_pct, mp_error *err)
{
    const uint32_t ol = t->sensor.ob_left, ot = t->sensor.ob_top;
    if (out->width != t->width || out->height != t->height)
        return mp_error_set(err, MP_ERR_ARG, "flicker: frame %u is %ux%u, the clip %ux%u",
                            out->number, out->width, out->height, t->width, t->height);
    if (!(white > black))
        return mp_error_set(err, MP_ERR_ARG, "flicker: frame %u levels %g/%g", out->number,
                            black, white);
    const double scale = t->sensor.full_well_e / (white - black);
    double sum[FB_MAX_BANDS] = {0};
    for (uint32_t ay = 0; ay < t->active_height; ay++) {
        const uint16_t *row = out->data + (size_t)(ay + ot) * out->width + ol;
        const int8_t *bands = b->band_of + (size_t)ay * t->active_width;
        for (uint32_t ax = 0; ax < t->active_width; ax++)
            if (bands[ax] >= 0)
                sum[bands[ax]] += row[ax] - black;
    }
    for (uint32_t k = 0; k < b->count; k++)
        error_pct[k] = b->n[k] ? 100 * (sum[k] * scale / b->sum_true[k] - 1) : NAN;
    return MP_OK;
}

void fb_summarise(const fb_bands *b, const double *errors, uint32_t frames, fb_summary *out)
{
    for (uint32_t k = 0; k < b->count; k++) {
        fb_summary *s = &out[k];
        double sum = 0, lo = INFINITY, hi = -INFINITY;
        for (uint32_t f = 0; f < frames; f++) {
            double e = errors[(size_t)f * b->count + k];
            sum += e;
            lo = fmin(lo, e);
            hi = fmax(hi, e);
        }
        s->mean_pct = sum / frames;
        double ss = 0;
        for (uint32_t f = 0; f < frames; f++) {
            double d = errors[(size_t)f * b->count + k] - s->mean_pct;
            ss += d * d;
        }
        s->std_pct = frames > 1 ? sqrt(ss / (frames - 1)) : 0;
        s->min_pct = lo;
        s->max_pct = hi;
        s->predicted_std_pct = b->n[k] ? 100 * sqrt(b->predicted_var[k]) / b->sum_true[k] : NAN;
        s->ratio = s->std_pct / s->predicted_std_pct;
    }
}
