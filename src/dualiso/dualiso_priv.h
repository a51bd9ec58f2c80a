/* Internal helpers shared by the files of src/dualiso (not part of the contract). */
#ifndef MP_DUALISO_PRIV_H
#define MP_DUALISO_PRIV_H

#include <stdint.h>

#include "dualiso.h"

/* CFA colour (0 = R, 1 = G, 2 = B) of pixel (x, y) for a DNG CFAPattern code. */
static inline int dualiso_cfa_color(uint32_t cfa, uint32_t x, uint32_t y)
{
    unsigned cell = ((y & 1u) << 1) | (x & 1u);
    unsigned c = (cfa >> (8u * cell)) & 0xffu;
    return c > 2 ? 1 : (int)c;
}

/* Checks the fields every function relies on; fills err naming the problem. */
mp_status dualiso_check_frame(const mp_frame *f, mp_error *err);

/* Robust weighted straight-line fit y = a * x + b over n points. Weights w_i are inverse
 * variances up to a common factor; points whose residual exceeds `reject` standard
 * deviations (scale re-estimated robustly each round) are dropped. With fix_intercept the
 * line goes through (0, intercept). se_b (may be NULL) gets the standard error of b.
 * Returns 0 when fewer than 3 points survive or x has no spread. */
typedef struct dualiso_fit_options {
    double reject;
    int fix_intercept;
    double intercept;
} dualiso_fit_options;

int dualiso_fit_line(const double *x, const double *y, const double *w, uint32_t n,
                     const dualiso_fit_options *opt, double *a, double *b, double *se_b,
                     uint32_t *kept);

/* Per-row offsets of the dark rows against their bright neighbours (dark-field DN above
 * black, 0 where a row lacks data or its offset is within noise); bright rows get 0.
 * lut_* map raw samples to dark-field DN above black; level_max is the dark-field level
 * above which the bright field is no longer trusted. scratch holds width floats, offsets
 * height floats. */
void dualiso_row_offsets(const mp_frame *in, const dualiso_levels *lv, const float *lut_dark,
                         const float *lut_bright, uint16_t clip_dark, uint16_t clip_bright,
                         float level_max, float *scratch, float *offsets);

#endif
