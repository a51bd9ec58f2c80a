/* Stripe gains from the accumulated column-class sums (rawfix.h). */
#include <math.h>

#include "rawfix_accum.h"

/* Applied only when some class is off by at least MIN_AMPLITUDE (0.1 %, a fifth of what the
 * 5D Mark III's stripes show) and by SIGNIFICANCE standard errors of its spread between
 * BANDS bands of rows: on a clean clip the gains stay at 1 and the frames' bytes the same. */
#define MIN_AMPLITUDE 0.001
#define SIGNIFICANCE 5.0
#define BANDS 8

/* Gains of one row class from sums s[c][0] (samples above black) and s[c][1] (window x 8):
 * each column class against its window, normalised to mean 1 over the four classes of the
 * same colour (x parity). 0 when a class has no data. */
static int class_gains(const int64_t s[RAWFIX_STRIPE_COLS][2], double g[RAWFIX_STRIPE_COLS])
{
    for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++) {
        if (s[c][1] <= 0 || s[c][0] <= 0)
            return 0;
        g[c] = (double)s[c][0] * STRIPE_REACH / (double)s[c][1];
    }
    for (uint32_t p = 0; p < 2; p++) {
        double mean = 0;
        for (uint32_t c = p; c < RAWFIX_STRIPE_COLS; c += 2)
            mean += g[c] / (RAWFIX_STRIPE_COLS / 2);
        for (uint32_t c = p; c < RAWFIX_STRIPE_COLS; c += 2)
            g[c] /= mean;
    }
    return 1;
}

static int window_has_site(const uint8_t *is_site, size_t i)
{
    for (int k = -STRIPE_REACH; k <= STRIPE_REACH; k += 2)
        if (is_site[(ptrdiff_t)i + k])
            return 1;
    return 0;
}

void mp_rawfix_build_stripes(const rawfix_accum *a, const uint8_t *is_site, rawfix_map *m)
{
    int64_t sum[BANDS][RAWFIX_STRIPE_ROWS][RAWFIX_STRIPE_COLS][2] = {{{{0}}}};
    for (uint32_t y = 0; y < a->height; y++)
        for (uint32_t x = STRIPE_REACH; x + STRIPE_REACH < a->width; x++) {
            size_t i = (size_t)y * a->width + x;
            if (!a->stripe[i][1] || (is_site && window_has_site(is_site, i)))
                continue;
            int64_t *s = sum[(uint64_t)y * BANDS / a->height][y % RAWFIX_STRIPE_ROWS]
                            [x % RAWFIX_STRIPE_COLS];
            s[0] += a->stripe[i][0];
            s[1] += a->stripe[i][1];
        }
    int significant = 0, complete = 1;
    double gain[RAWFIX_STRIPE_ROWS][RAWFIX_STRIPE_COLS];
    m->stripe_amplitude = 0;
    for (uint32_t r = 0; r < RAWFIX_STRIPE_ROWS; r++) {
        int64_t pooled[RAWFIX_STRIPE_COLS][2] = {{0}};
        double gsum[RAWFIX_STRIPE_COLS] = {0}, gsum2[RAWFIX_STRIPE_COLS] = {0};
        uint32_t bands = 0;
        for (uint32_t b = 0; b < BANDS; b++) {
            double g[RAWFIX_STRIPE_COLS];
            for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++) {
                pooled[c][0] += sum[b][r][c][0];
                pooled[c][1] += sum[b][r][c][1];
            }
            if (!class_gains(sum[b][r], g))
                continue;
            bands++;
            for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++) {
                gsum[c] += g[c];
                gsum2[c] += g[c] * g[c];
            }
        }
        if (bands < BANDS / 2 || !class_gains(pooled, gain[r])) {
            complete = 0;
            continue;
        }
        for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++) {
            double mean = gsum[c] / bands;
            double var = (gsum2[c] / bands - mean * mean) * bands / (bands - 1);
            double se = sqrt(var > 0 ? var / bands : 0);
            double off = fabs(gain[r][c] - 1);
            if (off > m->stripe_amplitude)
                m->stripe_amplitude = off;
            if (off >= MIN_AMPLITUDE && off >= SIGNIFICANCE * se)
                significant = 1;
        }
    }
    m->stripes = complete && significant;
    for (uint32_t r = 0; r < RAWFIX_STRIPE_ROWS; r++)
        for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++)
            m->stripe_gain[r][c] = m->stripes ? gain[r][c] : 1;
}
