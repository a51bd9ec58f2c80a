/* rawfix_measure: one frame's deviations from the same-colour neighbours, in noise units, and
 * its stripe sums (rawfix.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rawfix_priv.h"

/* Noise is estimated per row class (y mod 4: colour row and dual-ISO field) and brightness
 * (half-EV bins of the neighbours' mean above black), from the median absolute second
 * difference along rows and columns, which a few defects do not move. */
#define LEVEL_BINS 40
#define NOISE_BINS (4 * LEVEL_BINS)
#define HIST_SIZE 2048          /* |second difference| in half DN, the last bucket open */
#define MIN_BIN_COUNT 64        /* fewer samples: the row class's overall noise is used */

/* 1 + floor(2 log2(level)) for level = level2 / 2 - black >= 1, else 0, in integers (two
 * per sample and pass; libm's log2 made this the pre-pass's largest cost): with
 * v = level2 - 2 black = 2 level and k = floor(log2 v), 2 log2 v reaches 2k + 1 when
 * v^2 >= 2^(2k+1). */
static int level_bin(int32_t level2, uint32_t black)
{
    int64_t v = (int64_t)level2 - 2 * (int64_t)black;
    if (v < 2)
        return 0;
    int k = 63 - __builtin_clzll((unsigned long long)v);
    int b = 2 * k - 1 + (v * v >= (int64_t)1 << (2 * k + 1));
    return b < LEVEL_BINS ? b : LEVEL_BINS - 1;
}

static void hist_add(uint32_t *h, int32_t d2)
{
    uint32_t a = (uint32_t)(d2 < 0 ? -d2 : d2);
    h[a < HIST_SIZE ? a : HIST_SIZE - 1]++;
}

/* Median of a histogram in half DN, as a Gaussian sigma of the second difference in DN. */
static double hist_sigma(const uint32_t *h, uint64_t count)
{
    uint64_t acc = 0;
    for (uint32_t a = 0; a < HIST_SIZE; a++)
        if ((acc += h[a]) * 2 >= count)
            return 1.4826 * (a + 0.5) / 2;
    return 1.4826 * HIST_SIZE / 2;
}

enum { CLIPPED_NEAR = 1, CLIPPED_SELF = 2 };

typedef struct sample_ctx {
    const uint16_t *d;
    uint32_t w, s, white;
} sample_ctx;

/* Second differences (x 2, in DN) along the row and the column at index i and the sums of
 * the two pairs of neighbours. Returns CLIPPED_SELF when the sample is clipped (it says
 * nothing), CLIPPED_NEAR when a neighbour is (a dead pixel in the highlights still shows,
 * but the differences say nothing about the noise), else 0. */
static int second_diffs(const sample_ctx *c, size_t i, int32_t *dh2, int32_t *dv2,
                        int32_t *sum_h, int32_t *sum_v)
{
    const uint16_t *p = c->d + i;
    int32_t v = p[0], l = p[-2], r = p[2], u = p[-(ptrdiff_t)c->s * c->w],
            dn = p[(ptrdiff_t)c->s * c->w];
    *dh2 = 2 * v - l - r;
    *dv2 = 2 * v - u - dn;
    *sum_h = l + r;
    *sum_v = u + dn;
    if ((uint32_t)v >= c->white)
        return CLIPPED_SELF;
    return (uint32_t)l >= c->white || (uint32_t)r >= c->white || (uint32_t)u >= c->white ||
           (uint32_t)dn >= c->white ? CLIPPED_NEAR : 0;
}

/* How much the scene itself varies around sample i, in DN: the mean absolute second
 * difference of its four same-colour neighbours, each taken across the direction that
 * would include the sample (so that a defect does not raise its own yardstick). In flat
 * areas it is about 0.8 sigma of the noise; in fine static texture (a test pattern, a
 * brick wall on a tripod) it is about the sample's own deviation, so texture does not
 * look like a defect however many frames are pooled. */
#define TEXTURE_WEIGHT 1.25
static double activity(const sample_ctx *c, size_t i)
{
    const uint16_t *p = c->d + i;
    const ptrdiff_t up = (ptrdiff_t)c->s * c->w;
    int32_t a = abs(2 * p[-2] - p[-2 - up] - p[-2 + up]) + abs(2 * p[2] - p[2 - up] - p[2 + up]) +
                abs(2 * p[-up] - p[-up - 2] - p[-up + 2]) + abs(2 * p[up] - p[up - 2] - p[up + 2]);
    return a / 8.0;
}

/* What a sample that cannot be measured still shows, where clipping only hides more of the
 * same: far below its neighbours while one of them is clipped (their true values are
 * higher still: a dead pixel in the highlights), or clipped itself while far above its four
 * unclipped neighbours (its true value is higher still: a pixel stuck at white). "Far" is
 * Z_BIG both ways, as for a measured sample. */
static int16_t beyond_clipping(const sample_ctx *c, size_t i, int clipped, int zh, int zv)
{
    if (clipped == CLIPPED_NEAR)
        return zh <= -Z_BIG && zv <= -Z_BIG ? RAWFIX_CLIPPED_LOW : RAWFIX_NO_Z;
    const uint16_t *p = c->d + i;
    const ptrdiff_t up = (ptrdiff_t)c->s * c->w;
    if (p[-2] >= c->white || p[2] >= c->white || p[-up] >= c->white || p[up] >= c->white)
        return RAWFIX_NO_Z;
    return zh >= Z_BIG && zv >= Z_BIG ? RAWFIX_CLIPPED_HIGH : RAWFIX_NO_Z;
}

/* A second difference (x 2) in noise units x Z_SCALE, clamped. */
static int16_t z_units(int32_t d2, double sigma)
{
    double z = Z_SCALE * d2 / 2.0 / sigma;
    return (int16_t)lrint(z > Z_CLAMP ? Z_CLAMP : z < -Z_CLAMP ? -Z_CLAMP : z);
}

static void stripe_add(const sample_ctx *c, const mp_frame *f, uint32_t x, uint32_t y,
                       double sigma, rawfix_measurement *m)
{
    if (x < STRIPE_REACH || x + STRIPE_REACH >= c->w)
        return;
    const uint16_t *p = c->d + (size_t)y * c->w + x;
    int64_t left = 0, right = 0;
    for (int k = 2; k <= STRIPE_REACH; k += 2) {
        if (p[-k] >= c->white || p[k] >= c->white)
            return;
        left += p[-k];
        right += p[k];
    }
    const int64_t n = STRIPE_REACH;   /* samples in the window */
    int64_t win = left + right, above = win - n * f->black, dev = n * p[0] - win;
    /* Only where the signal stands well above the noise, away from defects, and where the
     * window's two halves agree (no edge, not across the border of the optical black). */
    if (p[0] >= c->white || above < 2 * sigma * n || fabs((double)dev) > 4 * sigma * n ||
        fabs((double)(left - right)) > 2 * sigma * n)
        return;
    int32_t *s = m->stripe[(size_t)y * c->w + x];
    s[0] = (int32_t)p[0] - (int32_t)f->black;
    s[1] = (int32_t)above;
}

mp_status mp_rawfix_measure(const mp_frame *f, int dual, rawfix_measurement *m, mp_error *err)
{
    const uint32_t w = f->width, h = f->height, vs = mp_rawfix_vstep(dual);
    const size_t n = (size_t)w * h;
    if (!f->data || w == 0 || h == 0)
        return mp_error_set(err, MP_ERR_ARG, "rawfix: empty frame");
    if (m->capacity < n) {
        free(m->zh);
        free(m->zv);
        free(m->stripe);
        m->capacity = 0;
        m->zh = malloc(n * sizeof *m->zh);
        m->zv = malloc(n * sizeof *m->zv);
        m->stripe = malloc(n * sizeof *m->stripe);
        if (!m->zh || !m->zv || !m->stripe)
            return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for %ux%u", w, h);
        m->capacity = n;
    }
    if (!m->hist && !(m->hist = malloc((size_t)(NOISE_BINS + 4) * HIST_SIZE * sizeof *m->hist)))
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory");
    m->width = w;
    m->height = h;
    memset(m->hist, 0, (size_t)(NOISE_BINS + 4) * HIST_SIZE * sizeof *m->hist);
    memset(m->stripe, 0, n * sizeof *m->stripe);
    for (size_t i = 0; i < n; i++)
        m->zh[i] = m->zv[i] = RAWFIX_NO_Z;
    if (w < 5 || h < 2 * vs + 1)
        return MP_OK;

    const sample_ctx c = {f->data, w, vs, f->white};
    uint64_t count[NOISE_BINS + 4] = {0};
    for (uint32_t y = vs; y < h - vs; y++)
        for (uint32_t x = 2; x < w - 2; x++) {
            int32_t dh2, dv2, sum_h, sum_v;
            if (second_diffs(&c, (size_t)y * w + x, &dh2, &dv2, &sum_h, &sum_v))
                continue;
            int bh = (int)(y % 4) * LEVEL_BINS + level_bin(sum_h, f->black);
            int bv = (int)(y % 4) * LEVEL_BINS + level_bin(sum_v, f->black);
            hist_add(m->hist + (size_t)bh * HIST_SIZE, dh2);
            hist_add(m->hist + (size_t)bv * HIST_SIZE, dv2);
            count[bh]++;
            count[bv]++;
            hist_add(m->hist + (size_t)(NOISE_BINS + y % 4) * HIST_SIZE, dh2);
            hist_add(m->hist + (size_t)(NOISE_BINS + y % 4) * HIST_SIZE, dv2);
            count[NOISE_BINS + y % 4] += 2;
        }
    double sigma[NOISE_BINS];
    for (int r = 0; r < 4; r++) {
        uint64_t cr = count[NOISE_BINS + r];
        double overall = cr ? hist_sigma(m->hist + (size_t)(NOISE_BINS + r) * HIST_SIZE, cr) : 1;
        for (int b = r * LEVEL_BINS; b < (r + 1) * LEVEL_BINS; b++)
            sigma[b] = count[b] >= MIN_BIN_COUNT ? hist_sigma(m->hist + (size_t)b * HIST_SIZE,
                                                              count[b]) : overall;
    }
    for (uint32_t y = vs; y < h - vs; y++)
        for (uint32_t x = 2; x < w - 2; x++) {
            size_t i = (size_t)y * w + x;
            int32_t dh2, dv2, sum_h, sum_v;
            int clipped = second_diffs(&c, i, &dh2, &dv2, &sum_h, &sum_v);
            double sh = sigma[(y % 4) * LEVEL_BINS + level_bin(sum_h, f->black)];
            double sv = sigma[(y % 4) * LEVEL_BINS + level_bin(sum_v, f->black)];
            double act = TEXTURE_WEIGHT * activity(&c, i);
            int16_t zh = z_units(dh2, sh > act ? sh : act);
            int16_t zv = z_units(dv2, sv > act ? sv : act);
            if (clipped) {
                m->zh[i] = m->zv[i] = beyond_clipping(&c, i, clipped, zh, zv);
                continue;
            }
            m->zh[i] = zh;
            m->zv[i] = zv;
            stripe_add(&c, f, x, y, sh, m);
        }
    return MP_OK;
}

void mp_rawfix_measurement_free(rawfix_measurement *m)
{
    free(m->zh);
    free(m->zv);
    free(m->stripe);
    free(m->hist);
    memset(m, 0, sizeof *m);
}
