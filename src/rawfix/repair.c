/* rawfix_plan_make and rawfix_apply: the repair of frames from a map (rawfix.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/mp_cpu.h"
#include "rawfix_priv.h"

void mp_rawfix_plan_free(rawfix_plan *p)
{
    free(p->sites);
    free(p->is_site);
    free(p->gain_rows);
    memset(p, 0, sizeof *p);
}

static void mark(rawfix_plan *p, uint32_t x, uint32_t y)
{
    if (x < p->width && y < p->height)
        p->is_site[(size_t)y * p->width + x] = 1;
}

mp_status mp_rawfix_plan_make(const rawfix_map *m, unsigned fixes, int dual, rawfix_plan *p,
                           mp_error *err)
{
    memset(p, 0, sizeof *p);
    p->width = m->width;
    p->height = m->height;
    p->dual = dual;
    p->stripes = (fixes & RAWFIX_STRIPES) && m->stripes;
    for (uint32_t r = 0; r < RAWFIX_STRIPE_ROWS; r++)
        for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++)
            p->inv_gain[r][c] = p->stripes ? (float)(1 / m->stripe_gain[r][c]) : 1;
    if (p->stripes && !(p->gain_rows = malloc((size_t)RAWFIX_STRIPE_ROWS * m->width *
                                              sizeof *p->gain_rows))) {
        mp_rawfix_plan_free(p);
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for a %u-wide plan",
                            m->width);
    }
    for (uint32_t r = 0; p->stripes && r < RAWFIX_STRIPE_ROWS; r++)
        for (uint32_t x = 0; x < m->width; x++)
            p->gain_rows[(size_t)r * m->width + x] = p->inv_gain[r][x % RAWFIX_STRIPE_COLS];
    const rawfix_lattice *l = &m->lattice;
    int lattice = (fixes & RAWFIX_FOCUS) && l->period_x && l->class_count;
    int singles = (fixes & RAWFIX_BAD) && m->pixel_count;
    if (!lattice && !singles)
        return MP_OK;
    const size_t n = (size_t)m->width * m->height;
    if (!(p->is_site = calloc(n, 1))) {
        mp_rawfix_plan_free(p);
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for a %ux%u plan",
                            m->width, m->height);
    }
    for (uint32_t k = 0; lattice && k < l->class_count; k++) {
        uint32_t x0 = l->x0 + (l->class_x[k] + l->period_x - l->x0 % l->period_x) % l->period_x;
        uint32_t y0 = l->y0 + (l->class_y[k] + l->period_y - l->y0 % l->period_y) % l->period_y;
        for (uint32_t y = y0; y < l->y1; y += l->period_y)
            for (uint32_t x = x0; x < l->x1; x += l->period_x)
                mark(p, x, y);
    }
    for (uint32_t k = 0; singles && k < m->pixel_count; k++)
        mark(p, m->pixels[2 * k], m->pixels[2 * k + 1]);
    for (size_t i = 0; i < n; i++)
        p->site_count += p->is_site[i];
    if (!(p->sites = malloc((p->site_count ? p->site_count : 1) * sizeof *p->sites))) {
        mp_rawfix_plan_free(p);
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory");
    }
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (p->is_site[i])
            p->sites[k++] = (uint32_t)i;
    return MP_OK;
}

/* Each row by the kernel of the CPU level in use: a multiply per sample, which every frame
 * pays when stripes are corrected. */
static void apply_stripes(const rawfix_plan *p, mp_frame *f)
{
    const rawfix_dsp *dsp = mp_rawfix_dsp_for(mp_cpu_level_get());
    for (uint32_t y = 0; y < f->height; y++)
        dsp->destripe(f->data + (size_t)y * f->width, f->width,
                      p->gain_rows + (size_t)(y % RAWFIX_STRIPE_ROWS) * f->width,
                      (float)f->black, f->white);
}

/* A sample of the frame that is no site (usable for a repair), or -1. */
static int32_t usable(const rawfix_plan *p, const uint16_t *d, int32_t x, int32_t y)
{
    if (x < 0 || y < 0 || x >= (int32_t)p->width || y >= (int32_t)p->height)
        return -1;
    size_t i = (size_t)y * p->width + (size_t)x;
    return p->is_site[i] ? -1 : d[i];
}

/* The site's value from its same-colour neighbours of the same field, along each direction
 * (row, column, two diagonals) where both are usable: the pairs' means weighed by
 * 1 / (the pair's difference + 1 DN)^2, so that a direction along an edge or a stripe wins
 * and a flat area averages all four (half the noise of one pair). Measured with
 * tools/bench/bench_rawfix at the sites where the scene is resolved by the neighbours
 * (1080p, 16 frames, RMS in local noise sigmas): flat 0.71 -> 0.54, textured 0.79 -> 0.63
 * single and 0.97 -> 0.81 dual ISO, against the best pair alone; squared weights beat
 * weights of power 1 (0.95 dual textured) and 4 (0.88). Correcting the row and column
 * pairs by the other colour's curvature did worse (0.93 single textured). Without any
 * pair, the mean of whatever neighbour is usable. */
static void repair_site(const rawfix_plan *p, uint16_t *d, uint32_t i)
{
    const int32_t s = (int32_t)mp_rawfix_vstep(p->dual);
    const int32_t x = (int32_t)(i % p->width), y = (int32_t)(i / p->width);
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    double sum = 0, weights = 0;
    int32_t single_sum = 0, singles = 0;
    for (int k = 0; k < 4; k++) {
        const int32_t dx = 2 * dirs[k][0], dy = s * dirs[k][1];
        int32_t a = usable(p, d, x - dx, y - dy), b = usable(p, d, x + dx, y + dy);
        single_sum += (a >= 0 ? a : 0) + (b >= 0 ? b : 0);
        singles += (a >= 0) + (b >= 0);
        if (a < 0 || b < 0)
            continue;
        double w = 1.0 / ((abs(a - b) + 1.0) * (abs(a - b) + 1.0));
        sum += w * (a + b) / 2;
        weights += w;
    }
    if (weights > 0)
        d[i] = (uint16_t)(sum / weights + 0.5);
    else if (singles)
        d[i] = (uint16_t)((single_sum + singles / 2) / singles);
}

void mp_rawfix_plan_set_fields(rawfix_plan *p, const rawfix_field_levels *f)
{
    p->has_fields = 0;
    int ok = p->dual && isfinite(f->ratio) && f->ratio > 1 && isfinite(f->gain) &&
             f->gain >= 0;
    for (int k = 0; k < 2; k++)
        ok = ok && isfinite(f->black[k]) && isfinite(f->white[k]) &&
             f->white[k] > f->black[k] && isfinite(f->read_noise[k]) && f->read_noise[k] >= 0;
    if (!ok)
        return;
    p->fields = *f;
    p->fields.phase = f->phase % 4;
    for (int k = 0; k < 2; k++) {
        const double scale = k ? f->ratio : 1;
        p->inv_scale[k] = 1 / scale;
        p->read_var[k] = f->read_noise[k] * f->read_noise[k] / (scale * scale);
    }
    p->has_fields = 1;
}

/* A usable sample of field k (the field of row y) as the dark field's signal above its black,
 * with its noise variance in those units (read noise, and shot noise at the signal when the
 * gain is known): 0 when it is a site, outside the frame, or clipped in the other field
 * than the site's (own). */
typedef struct field_sample {
    double s, var;
} field_sample;

static inline int sample_at(const rawfix_plan *p, const uint16_t *d, int32_t x, int32_t y, int k,
                            int own, field_sample *out)
{
    int32_t v = usable(p, d, x, y);
    if (v < 0 || (k != own && v >= p->fields.white[k]))
        return 0;
    out->s = (v - p->fields.black[k]) * p->inv_scale[k];
    out->var = p->read_var[k] + (out->s > 0 ? p->fields.gain * out->s : 0);
    return 1;
}

/* A dual-ISO site's value from the same-colour samples of both fields, each in the dark
 * field's signal units: along the row and the two long diagonals its own field (x +- 2,
 * (x +- 2, y +- 4)) and its column four rows away, along the column and the two short
 * diagonals the other field two rows away (y +- 2: the rows between are the other colour),
 * which its own field alone would leave 4 rows away. Each pair's mean is weighed by
 * 1 / ((half the pair's difference)^2 + the pair's noise variance + 1 DN of the site's
 * field^2)^2: a direction along an edge wins where the pairs differ by more than their
 * noise, and where they differ by noise alone the dark field's samples, noisier by its read
 * noise, count for less in the shadows while in the light (shot noise, the same in both
 * fields) both fields count alike. Measured with tools/bench/bench_focus_sites.sh (100D
 * mv1080, 1728x972, 16 still frames, p99 at the sites / their 8 neighbours in the twin's
 * temporal-noise sigmas): own field only 4.61 / 1.57; both fields with the weight's power 1
 * and the whole difference 4.36 / 1.49; half the difference 4.35, power 2 4.32, both
 * 4.24 / 1.49 (power 3 4.25, a tenth of the difference 4.26). A clipped sample of the other
 * field is no evidence; the site's own field keeps its clipped samples (a site among them
 * is clipped too). Without any pair, the mean of the usable samples; without any, the
 * site stays. */
static void repair_dual_site(const rawfix_plan *p, uint16_t *d, uint32_t i, uint32_t white)
{
    static const int pairs[7][2] = {{2, 0}, {0, 2}, {2, 2}, {2, -2}, {0, 4}, {2, 4}, {2, -4}};
    const rawfix_field_levels *f = &p->fields;
    const int32_t x = (int32_t)(i % p->width), y = (int32_t)(i / p->width);
    const int k = ((uint32_t)y + f->phase) % 4 >= 2;
    const double scale = k ? f->ratio : 1, unit = 1 / (scale * scale);
    double sum = 0, weights = 0, single_sum = 0;
    int singles = 0;
    for (int j = 0; j < 7; j++) {
        field_sample a, b;
        const int field = abs(pairs[j][1]) == 2 ? !k : k;   /* 2 rows away: the other field */
        int has_a = sample_at(p, d, x - pairs[j][0], y - pairs[j][1], field, k, &a);
        int has_b = sample_at(p, d, x + pairs[j][0], y + pairs[j][1], field, k, &b);
        single_sum += (has_a ? a.s : 0) + (has_b ? b.s : 0);
        singles += has_a + has_b;
        if (!has_a || !has_b)
            continue;
        double spread = (a.s - b.s) * (a.s - b.s) / 4 + a.var + b.var + unit;
        double w = 1 / (spread * spread);
        sum += w * (a.s + b.s) / 2;
        weights += w;
    }
    if (!weights && !singles)
        return;
    double s = weights > 0 ? sum / weights : single_sum / singles;
    double v = f->black[k] + scale * s + 0.5;
    d[i] = (uint16_t)(v < 0 ? 0 : v > white ? white : v);
}

mp_status mp_rawfix_apply(const rawfix_plan *p, mp_frame *f, mp_error *err)
{
    if (!mp_rawfix_plan_active(p))
        return MP_OK;
    if (f->width != p->width || f->height != p->height)
        return mp_error_set(err, MP_ERR_ARG, "rawfix: a %ux%u frame, the map is for %ux%u",
                            f->width, f->height, p->width, p->height);
    if (p->stripes)
        apply_stripes(p, f);
    for (uint32_t k = 0; k < p->site_count; k++)
        if (p->has_fields)
            repair_dual_site(p, f->data, p->sites[k], f->white);
        else
            repair_site(p, f->data, p->sites[k]);
    return MP_OK;
}
