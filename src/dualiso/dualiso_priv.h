/* Internal helpers shared by the files of src/dualiso (not part of the contract). */
#ifndef MP_DUALISO_PRIV_H
#define MP_DUALISO_PRIV_H

#include <stdint.h>

#include "dualiso/dualiso.h"

/* CFA colour (0 = R, 1 = G, 2 = B) of pixel (x, y) for a DNG CFAPattern code. */
static inline int dualiso_cfa_color(uint32_t cfa, uint32_t x, uint32_t y)
{
    unsigned cell = ((y & 1u) << 1) | (x & 1u);
    unsigned c = (cfa >> (8u * cell)) & 0xffu;
    return c > 2 ? 1 : (int)c;
}

/* Detection's log-ratio bins without a logarithm (detect.c): per bucket of the ratio's
 * mantissa in [1, 2), the bin thresholds 2^(k / DUALISO_BINS_PER_EV) below it, the one
 * inside it (2: none) and whether one lies near its ends. */
#define DUALISO_BINS_PER_EV 32
#define DUALISO_RATIO_BUCKET_BITS 10
#define DUALISO_RATIO_BUCKETS (1 << DUALISO_RATIO_BUCKET_BITS)
typedef struct dualiso_ratio_bins {
    double thr[DUALISO_RATIO_BUCKETS];
    uint8_t below[DUALISO_RATIO_BUCKETS], near[DUALISO_RATIO_BUCKETS];
} dualiso_ratio_bins;

void mp_dualiso_ratio_bins_init(dualiso_ratio_bins *t);

/* (int)(|log2(a / b)| * DUALISO_BINS_PER_EV) for a, b > 0, as detection computes it, or -1
 * where |log2(a / b)| <= 0.5 (the same pairs: the logarithm itself near a threshold). */
int mp_dualiso_ratio_bin(const dualiso_ratio_bins *t, int32_t a, int32_t b);

/* Checks the fields every function relies on; fills err naming the problem. */
mp_status mp_dualiso_check_frame(const mp_frame *f, mp_error *err);

/* Median of v[0..n) (the upper one for even n), n >= 1, no NaN; reorders v. */
double mp_dualiso_median(double *v, uint32_t n);

/* Robust weighted straight-line fit y = a * x + b over n points. Weights w_i are inverse
 * variances up to a common factor; points whose residual exceeds `reject` standard
 * deviations (scale re-estimated robustly each round) are dropped. With fix_intercept the
 * line goes through (0, intercept), its slope by least squares, or with ratio_of_means by
 * sum(w (y - intercept)) / sum(w x): least squares through a fixed point is biased low by
 * noise in x when the points sit at one level (regression dilution), a ratio of means is
 * not. Standard errors come from the residuals. keep_out (may be NULL) gets 1 for every
 * point the fit kept. Returns 0 when fewer than 3 points survive or x has no spread (no
 * positive weighted mean with ratio_of_means). */
typedef struct dualiso_fit_options {
    double reject;
    int fix_intercept;
    double intercept;
    int ratio_of_means;
} dualiso_fit_options;

typedef struct dualiso_fit_result {
    double a, b;
    double se_a, se_b;   /* se_b is 0 with fix_intercept */
    uint32_t kept;
} dualiso_fit_result;

int mp_dualiso_fit_line(const double *x, const double *y, const double *w, uint32_t n,
                     const dualiso_fit_options *opt, dualiso_fit_result *fr, uint8_t *keep_out);

/* Per-row offsets of the dark rows against their bright neighbours (dark-field DN above
 * black, 0 where a row lacks data or its offset is within noise); bright rows get 0.
 * lut_* map raw samples to dark-field DN above black; level_max is the dark-field level
 * above which the bright field is no longer trusted. scratch and keys hold width entries,
 * offsets height. */
void mp_dualiso_row_offsets(const mp_frame *in, const dualiso_levels *lv, const float *lut_dark,
                         const float *lut_bright, uint16_t clip_dark, uint16_t clip_bright,
                         float level_max, float *scratch, uint32_t *keys,
                         float *offsets);

#endif
