/* Samples too quiet for their level (rawfix_accum.h, mp_rawfix_quiet_*).
 *
 * A clean photosite's value varies between frames by its read noise and the shot noise of
 * the light it records: in DN, var = r^2 + g L at level L above black (r, g fixed for a row
 * class, so per field in dual ISO), whatever the scene. A still scene in steady light adds
 * nothing to that. A photosite whose value varies much less than that of the clean
 * photosites at its own level records less than its light: a reduced conversion gain k
 * scales its noise by k^2 and its level by k, a pixel stuck near one value has none. No
 * scene makes a sample quieter than its level (a single bright or dark point of light in a
 * still shot has exactly the noise of its level), so this holds where the scene does not
 * move, which is where the map otherwise takes no word from the pixels (map_build.c, "Do no
 * harm").
 *
 * The noise at each level is the clip's own: per row class and level bin, the median of the
 * samples' variances between the frames, where the light is steady (below), divided by the
 * median of chi-square / k for k = frames - 1 degrees of freedom; between bins linear in L,
 * as r^2 + g L is. A sample counts as quiet when its variance over that, q, is lower than a
 * clean sample's falls with probability RAWFIX_QUIET_FALSE over the frame's samples: chi-square with
 * k degrees of freedom / k, a clean sample's q, is independent of its mean (normal noise), so
 * the test adds its false alarms to none of the others'.
 *
 * Steady light: every frame's sums of the sample's 3 x 3 blocks in its row class vary between
 * the frames by at most STEADY_F times what their noise makes, and none is clipped. A changing
 * light (a flicker) scales every value, so it adds L^2 times the light's variance to a sample's
 * variance, more to a bright neighbour than to a dark sample: it would put the model above a
 * dark sample's noise. At STEADY_F the light that passes adds at most a sixteenth of the noise
 * to a sample (a block's row class holds 64 samples: 64^2 f^2 L^2 <= 4 x 64 sigma^2).
 *
 * A changing light (a flicker, a drifting exposure) scales a scene point's light with that of
 * its neighbourhood, so there the sample's variance about its least-squares line on the light
 * around it (mp_rawfix_light, frame by frame) is its noise, with one degree of freedom less.
 * Linear light: each of the 3 x 3 blocks' sums has, about its own line on the light around
 * it, at most STEADY_F times the variance its noise makes (what passes adds at most a
 * sixteenth of the noise, as above). Those samples have a model of their own (`lit`): the
 * median of their variances about their lines. A scene point lit by a second, steady source
 * while its neighbourhood flickers is still a line (a steady part and one that follows); two
 * independent changes would raise its variance, never lower it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rawfix_accum.h"

#define STEADY_F 4.0
#define QUIET_MIN_SAMPLES 64    /* a level bin's median from at least this many samples */
/* Whole numbers: under 1 DN of noise a sample's variance over 16 frames is mostly the rounding
 * (a level near a whole number repeats it in most frames: the stuck test's 0.4 / sigma), no
 * longer chi-square; there the test is not made (a 10-bit clip's shadows). DN^2. */
#define QUIET_MIN_NOISE 1.0
#define VAR_STEPS 16            /* histogram of the variance: these steps per octave (the
                                 * double's exponent and top 4 fraction bits) */
#define VAR_LOG_MIN (-12)
#define VAR_LOG_MAX 32
#define VAR_BUCKETS ((VAR_LOG_MAX - VAR_LOG_MIN) * VAR_STEPS)

/* The regularised lower incomplete gamma P(s, x) by its series (x small against s + 40). */
static double lower_gamma(double s, double x)
{
    if (x <= 0)
        return 0;
    double term = 1 / s, sum = term;
    for (int n = 1; n < 1000 && term > 1e-17 * sum; n++) {
        term *= x / (s + n);
        sum += term;
    }
    return exp(-x + s * log(x) - lgamma(s)) * sum;
}

/* The q below which a clean sample falls with probability p: chi-square(k) / k. */
static double chi2_mean_quantile(double k, double p)
{
    double lo = 0, hi = 1;
    for (int i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        if (lower_gamma(k / 2, k * mid / 2) < p)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The histogram bucket of a variance: its octave and the top bits of its fraction. */
static uint32_t var_bucket(double var)
{
    if (!(var > 0))
        return 0;
    uint64_t bits;
    memcpy(&bits, &var, sizeof bits);
    const int64_t octave = (int64_t)(bits >> 52) - 1023 - VAR_LOG_MIN;
    const int64_t b = octave * VAR_STEPS + (int64_t)((bits >> 48) & (VAR_STEPS - 1));
    return b < 0 ? 0 : b >= VAR_BUCKETS ? VAR_BUCKETS - 1 : (uint32_t)b;
}

double mp_rawfix_block_noise(const rawfix_accum *a, uint32_t row_class, double sum)
{
    const double n = RAWFIX_BLOCK * RAWFIX_BLOCK / 4;
    const int32_t level2 = (int32_t)fmin(2 * sum / n, INT32_MAX / 4) + 2 * a->black;
    const double sigma = a->sample_sigma[row_class * RAWFIX_LEVEL_BINS +
                                         mp_rawfix_level_bin(level2, a->black)];
    return n * sigma * sigma;
}

/* The variance about the least-squares line of y on x, from n pairs' sums (n - 2 degrees of
 * freedom); where x does not vary, about the mean (n - 1 would be its degrees of freedom, but
 * such samples are measured as steady). */
static double residual_variance(double n, double sx, double sxx, double sy, double syy,
                                double sxy)
{
    const double vx = sxx - sx * sx / n, vy = syy - sy * sy / n, cxy = sxy - sx * sy / n;
    const double r = (vx > 0 ? vy - cxy * cxy / vx : vy) / (n - 2);
    return r > 0 ? r : 0;
}

/* Whether the light of row class r of block (j, k) is steady over the frames (bit 0) and
 * linear in the light around it (bit 1); that light's sums over the frames. */
static int block_light(const rawfix_accum *a, uint32_t j, uint32_t k, uint32_t r,
                       double *light_sum, double *light_sq)
{
    const size_t stride = (size_t)a->blocks_x * a->blocks_y * RAWFIX_BLOCK_SUMS;
    const size_t at = ((size_t)k * a->blocks_x + j) * RAWFIX_BLOCK_SUMS + r;
    double sum = 0, sq = 0, noise = 0, lsum = 0, lsq = 0, cross = 0;
    uint32_t n = 0;
    int clipped = 0;
    for (uint32_t f = 0; f < RAWFIX_MAX_FRAMES; f++) {
        if (!(a->added & (1ull << f)))
            continue;
        const uint32_t s = a->blocks[f * stride + at];
        const uint32_t l = mp_rawfix_light(a->blocks + f * stride, a->blocks_x, a->blocks_y,
                                           j, k, r);
        if (s == RAWFIX_BLOCK_CLIPPED || l == RAWFIX_BLOCK_CLIPPED) {
            clipped = 1;
            continue;
        }
        sum += s;
        sq += (double)s * s;
        lsum += l;
        lsq += (double)l * l;
        cross += (double)s * l;
        noise += mp_rawfix_block_noise(a, r, s);
        n++;
    }
    *light_sum = lsum;
    *light_sq = lsq;
    if (n < 3 || clipped)
        return 0;
    const double var = (sq - sum * sum / n) / (n - 1);
    const int steady = var <= STEADY_F * noise / n;
    const int linear = n >= 4 && residual_variance(n, lsum, lsq, sum, sq, cross) <=
                                     STEADY_F * noise / n;
    return steady | linear << 1;
}

/* The samples' variance between the frames and their level above black (2 x the mean, so
 * that mp_rawfix_level_bin takes it), from the integer sums. */
static double variance_at(const rawfix_accum *a, size_t i, double *mean)
{
    const double n = a->frames, s = a->value_sum[i];
    *mean = s / n;
    const double var = ((double)a->value_sq[i] - s * s / n) / (n - 1);
    return var > 0 ? var : 0;
}

/* The same about its line on the light around it (block (j, k), row class r). */
static double lit_variance_at(const rawfix_accum *a, const rawfix_quiet *q, size_t i,
                              size_t block)
{
    return residual_variance(a->frames, q->light_sum[block], q->light_sq[block],
                             a->value_sum[i], (double)a->value_sq[i], (double)a->value_light[i]);
}

/* Whether the sample at (x, y) is tested, and how: 1 where the light is steady, 2 where it is
 * linear, 0 nowhere. */
static int measurable(const rawfix_accum *a, const rawfix_quiet *q, uint32_t x, uint32_t y)
{
    const size_t i = (size_t)y * a->width + x;
    const uint32_t j = x / RAWFIX_BLOCK, k = y / RAWFIX_BLOCK;
    if (!(y >= a->vstep && y + a->vstep < a->height && j < a->blocks_x && k < a->blocks_y &&
          a->lo[i] > 0 && a->hi[i] < a->white))
        return 0;
    const uint8_t bit = (uint8_t)(1u << (y % RAWFIX_BLOCK_SUMS));
    const size_t b = (size_t)k * a->blocks_x + j;
    return q->steady[b] & bit ? 1 : q->linear[b] & bit ? 2 : 0;
}

/* The line's bins from the histograms of the variances (count per bin, the sum of levels):
 * each bin's median over the median of chi-square(dof) / dof (Wilson and Hilferty). */
static void fit_line(const uint32_t *hist, const double *level_sum, const uint32_t *count,
                     double dof, rawfix_noise_line *line)
{
    const double median_q = pow(1 - 2 / (9 * dof), 3);
    for (uint32_t c = 0; c < 4 * RAWFIX_LEVEL_BINS; c++) {
        if (count[c] < QUIET_MIN_SAMPLES)
            continue;
        const uint32_t *h = hist + (size_t)c * VAR_BUCKETS;
        uint64_t acc = 0;
        uint32_t b = 0;
        while (b + 1 < VAR_BUCKETS && (acc += h[b]) * 2 < count[c])
            b++;
        line->level[c] = level_sum[c] / count[c];
        const double centre = 1 + (b % VAR_STEPS + 0.5) / VAR_STEPS;
        line->var[c] = ldexp(centre, VAR_LOG_MIN + (int)(b / VAR_STEPS)) / median_q;
        line->known[c] = 1;
    }
    line->dof = dof;
}

typedef struct lights_job {
    const rawfix_accum *a;
    rawfix_quiet *q;
    uint8_t *steady_here, *linear_here;
} lights_job;

/* block_light of each block of block row k and row class (mp_rawfix_parallel) */
static void lights_part(void *ctx, uint32_t k)
{
    const lights_job *lj = ctx;
    const rawfix_accum *a = lj->a;
    const uint32_t bx = a->blocks_x;
    for (uint32_t j = 0; j < bx; j++)
        for (uint32_t r = 0; r < RAWFIX_BLOCK_SUMS; r++) {
            const size_t b = (size_t)k * bx + j, at = b * RAWFIX_BLOCK_SUMS + r;
            const int light =
                block_light(a, j, k, r, lj->q->light_sum + at, lj->q->light_sq + at);
            lj->steady_here[b] |= (uint8_t)((light & 1) << r);
            lj->linear_here[b] |= (uint8_t)((light >> 1) << r);
        }
}

/* Per block: the bits of the 3 x 3 blocks around it, ANDed (0 at the frame's edge). */
static void around(const uint8_t *own, uint32_t bx, uint32_t by, uint8_t *out)
{
    for (uint32_t k = 1; k + 1 < by; k++)
        for (uint32_t j = 1; j + 1 < bx; j++) {
            uint8_t all = 0xf;
            for (uint32_t v = k - 1; v <= k + 1; v++)
                for (uint32_t u = j - 1; u <= j + 1; u++)
                    all &= own[(size_t)v * bx + u];
            out[(size_t)k * bx + j] = all;
        }
}

mp_status mp_rawfix_quiet_model(const rawfix_accum *a, uint32_t looks, rawfix_quiet *q,
                                mp_error *err)
{
    memset(q, 0, sizeof *q);
    if (a->frames < 3 || looks < 3 || !a->blocks_x || !a->blocks_y || a->white == INT32_MAX)
        return MP_OK;
    const uint32_t bx = a->blocks_x, by = a->blocks_y;
    const size_t blocks = (size_t)bx * by;
    uint8_t *steady_here = calloc(blocks, 1), *linear_here = calloc(blocks, 1);
    q->steady = calloc(blocks, 1);
    q->linear = calloc(blocks, 1);
    q->light_sum = malloc(blocks * RAWFIX_BLOCK_SUMS * sizeof *q->light_sum);
    q->light_sq = malloc(blocks * RAWFIX_BLOCK_SUMS * sizeof *q->light_sq);
    /* per model (still, lit): the histograms, the levels' sums, the counts */
    uint32_t *hist = calloc((size_t)2 * 4 * RAWFIX_LEVEL_BINS * VAR_BUCKETS, sizeof *hist);
    if (!steady_here || !linear_here || !q->steady || !q->linear || !q->light_sum ||
        !q->light_sq || !hist) {
        free(steady_here);
        free(linear_here);
        free(hist);
        mp_rawfix_quiet_free(q);
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for a %ux%u map",
                            a->width, a->height);
    }
    lights_job lj = {a, q, steady_here, linear_here};
    mp_rawfix_parallel(&a->runner, by, lights_part, &lj);
    around(steady_here, bx, by, q->steady);
    around(linear_here, bx, by, q->linear);
    free(steady_here);
    free(linear_here);
    double level_sum[2][4 * RAWFIX_LEVEL_BINS] = {{0}};
    uint32_t count[2][4 * RAWFIX_LEVEL_BINS] = {{0}};
    /* frames of 512 rows or more give every (height / 256)-th group of 4 rows, as the noise
     * histograms (measure.c): a median, which a quarter of a 1080-row frame fixes as well */
    const uint32_t groups = a->height >= 512 ? a->height / 256 : 1;
    for (uint32_t y = 0; y < a->height; y++) {
        if ((y / 4) % groups)
            continue;
        for (uint32_t x = 0; x < a->width; x++) {
            const int how = measurable(a, q, x, y);
            if (!how)
                continue;
            const size_t i = (size_t)y * a->width + x;
            double mean, var = variance_at(a, i, &mean);
            if (how == 2)
                var = lit_variance_at(a, q, i, ((size_t)(y / RAWFIX_BLOCK) * bx + x / RAWFIX_BLOCK) *
                                                   RAWFIX_BLOCK_SUMS + y % RAWFIX_BLOCK_SUMS);
            const uint32_t c = (y % 4) * RAWFIX_LEVEL_BINS +
                               (uint32_t)mp_rawfix_level_bin((int32_t)lrint(2 * mean), a->black);
            hist[((size_t)(how - 1) * 4 * RAWFIX_LEVEL_BINS + c) * VAR_BUCKETS +
                 var_bucket(var)]++;
            level_sum[how - 1][c] += mean - a->black;
            count[how - 1][c]++;
        }
    }
    fit_line(hist, level_sum[0], count[0], looks - 1.0, &q->still);
    if (looks >= 4)
        fit_line(hist + (size_t)4 * RAWFIX_LEVEL_BINS * VAR_BUCKETS, level_sum[1], count[1],
                 looks - 2.0, &q->lit);
    free(hist);
    q->usable = 1;
    return MP_OK;
}

void mp_rawfix_quiet_free(rawfix_quiet *q)
{
    free(q->steady);
    free(q->linear);
    free(q->light_sum);
    free(q->light_sq);
    memset(q, 0, sizeof *q);
}

/* The clean noise variance at level L (above black) of row class r: the line through the
 * bins on either side; below the lowest bin, that of the lowest two, at L >= 0 (a sample
 * below black has the read noise of black), where it rises with the level (a line that
 * falls would put the noise of the dark above that of the bins); 0 (no test) above the
 * highest bin or where fewer than two bins are known. */
static double noise_at(const rawfix_noise_line *q, uint32_t r, double level)
{
    const uint32_t c0 = r * RAWFIX_LEVEL_BINS;
    int below = -1, above = -1, next = -1;
    for (int b = 0; b < RAWFIX_LEVEL_BINS; b++) {
        if (!q->known[c0 + b])
            continue;
        if (q->level[c0 + b] <= level)
            below = b;
        else if (above < 0)
            above = b;
        else if (next < 0)
            next = b;
    }
    if (above < 0)
        return 0;
    int b0 = below, b1 = above;
    if (below < 0) {
        b0 = above;
        b1 = next;
        level = level > 0 ? level : 0;
    }
    if (b1 < 0)
        return 0;
    const double l0 = q->level[c0 + b0], l1 = q->level[c0 + b1];
    const double v0 = q->var[c0 + b0], v1 = q->var[c0 + b1];
    if (below < 0 && (v1 < v0 || level >= l0))
        return level >= l0 ? v0 : 0;
    const double v = v0 + (level - l0) / (l1 - l0) * (v1 - v0);
    return v > 0 ? v : 0;
}

double mp_rawfix_quiet_ratio(const rawfix_accum *a, const rawfix_quiet *q, uint32_t x, uint32_t y,
                             int *lit)
{
    *lit = 0;
    const int how = q->usable ? measurable(a, q, x, y) : 0;
    if (!how)
        return INFINITY;
    const size_t i = (size_t)y * a->width + x;
    double mean, var = variance_at(a, i, &mean);
    if (how == 2)
        var = lit_variance_at(a, q, i, ((size_t)(y / RAWFIX_BLOCK) * a->blocks_x + x / RAWFIX_BLOCK) *
                                           RAWFIX_BLOCK_SUMS + y % RAWFIX_BLOCK_SUMS);
    *lit = how == 2;
    const double noise = noise_at(how == 2 ? &q->lit : &q->still, y % 4, mean - a->black);
    return noise >= QUIET_MIN_NOISE ? var / noise : INFINITY;
}

double mp_rawfix_quiet_limit(const rawfix_quiet *q, uint64_t tests, int lit, double false_sites)
{
    const double dof = lit ? q->lit.dof : q->still.dof;
    return q->usable && tests && dof > 0 ? chi2_mean_quantile(dof, false_sites / (double)tests)
                                         : 0;
}

/* Below black (mp_rawfix_below_black). Light only adds charge, so a clean photosite's mean over
 * the frames lies below black by its read noise over sqrt(frames) and what the clip's black
 * gets wrong (a field's black a few DN off the recorded one in dual ISO, a fixed pattern):
 * BELOW_BLACK_SIGMAS of the read noise of a frame, 16 standard errors of a 16-frame mean,
 * leaves that 3 read-noise sigmas. The noise is the row class's at black (the frames' lowest;
 * a bin of few samples has the row class's noise over all levels, only higher), at least 1 DN
 * (whole numbers: a 10-bit clip's shadows). A weak pixel of mlvsynth (a quarter of its
 * signal, 80 DN14 less) in the dark reads 12 sigmas below black at ISO 100, where its noise,
 * a quarter of the read noise, is near the quiet test's limit.
 *
 * That needs the recorded black to be the photosites' (a black recorded too high would put a
 * still scene's dark specks below it), so the clip must show it: per row class at least
 * BLACK_SHOWN_SHARE of the samples (and QUIET_MIN_SAMPLES) with a mean within half the margin
 * of black, and at most BLACK_BELOW_SHARE of those as many below that: a black recorded more
 * than the margin too high puts nearly all of the dark areas below it, while defects are few
 * (measured, bench_rawfix 640x360 static: 2.1-2.7 % as many, most of them the focus pixels'
 * negative members in the dark). A clip without dark areas gets no test. The sample's four same-colour neighbours must lie within half the margin of black or
 * above, too. */
#define BELOW_BLACK_SIGMAS 4.0
#define BLACK_SHOWN_SHARE 0.01
#define BLACK_BELOW_SHARE 0.25

static double black_margin(const rawfix_accum *a, uint32_t row_class)
{
    const double sigma = a->sample_sigma[row_class * RAWFIX_LEVEL_BINS];
    return isfinite(sigma) ? BELOW_BLACK_SIGMAS * fmax(sigma, 1.0) * a->frames : -1;
}

void mp_rawfix_black_shown(const rawfix_accum *a, uint8_t shown[4])
{
    uint64_t near[4] = {0}, below[4] = {0}, all[4] = {0};
    double margin[4];
    for (uint32_t r = 0; r < 4; r++)
        margin[r] = black_margin(a, r);
    const double black = (double)a->black * a->frames;
    for (uint32_t y = 0; a->frames && a->black != INT32_MAX && y < a->height; y++) {
        const uint32_t r = y % 4;
        for (uint32_t x = 0; margin[r] > 0 && x < a->width; x++) {
            const double v = a->value_sum[(size_t)y * a->width + x];
            all[r]++;
            near[r] += v >= black - margin[r] / 2 && v <= black + margin[r] / 2;
            below[r] += v < black - margin[r] / 2;
        }
    }
    for (uint32_t r = 0; r < 4; r++)
        shown[r] = near[r] >= QUIET_MIN_SAMPLES && near[r] >= BLACK_SHOWN_SHARE * all[r] &&
                   below[r] <= BLACK_BELOW_SHARE * near[r];
}

int mp_rawfix_below_black(const rawfix_accum *a, const uint8_t shown[4], uint32_t x, uint32_t y)
{
    const uint32_t vs = a->vstep;
    if (!shown[y % 4] || x < 2 || x + 2 >= a->width || y < vs || y + vs >= a->height)
        return 0;
    const double margin = black_margin(a, y % 4), black = (double)a->black * a->frames;
    const size_t i = (size_t)y * a->width + x, row = (size_t)vs * a->width;
    if (!(a->value_sum[i] < black - margin))
        return 0;
    const size_t near[4] = {i - 2, i + 2, i - row, i + row};
    for (int k = 0; k < 4; k++)
        if (a->value_sum[near[k]] < black - margin / 2)
            return 0;
    return 1;
}
