/* develop_dsp: the per-row kernels of mp_develop_frame (after the demosaic), in plain C (the
 * reference) and built for wider instruction sets, chosen at run time by mp_cpu_level_get().
 * Every version is the same C source (rows_body.h) built with its level's flags: selects,
 * min/max of ordered values, and IEEE operations in a fixed order, no contraction into FMA,
 * so every level gives the same bits. tests/checkasm holds them to that. */
#ifndef MP_DEVELOP_DSP_H
#define MP_DEVELOP_DSP_H

#include <stdint.h>

#include "common/mp_cpu.h"
#include "develop/curve.h"

/* A band of full-width rows of a frame for the demosaic (src/develop/demosaic.h). */
typedef struct demosaic_window {
    const float *cfa;        /* rows x width samples, white-balanced, within [0, top] */
    float top;               /* 1, or the highlight rebuild's largest value */
    float *rgb[3];           /* rows x width each: R, G, B */
    float *scratch[6];       /* rows x width each, RCD only (DEMOSAIC_RCD_SCRATCH) */
    uint32_t width, rows;
    uint8_t colour[2][2];    /* colour (0 R, 1 G, 2 B) of window pixel (x, r): [r & 1][x & 1] */
} demosaic_window;

/* Highlights and matrix of one row (develop.c grade_row's constants). */
typedef struct develop_grade {
    float m[3][3];           /* white-balanced camera -> output */
    float blend;             /* 1: BLEND (and RECONSTRUCT) highlights, 0: CLIP */
    float top_in;            /* camera RGB is clipped to [0, top_in] first (demosaic_window.top) */
    float start, ramp;       /* CFA ramp: t = (near - start) * ramp */
    float out_start, out_ramp;   /* output ramp: u = (peak - out_start) * out_ramp */
} develop_grade;

/* R'G'B' (16-bit codes) -> Y'CbCr rows for the movies (movie/av_yuv.h: what the numbers are
 * and why the arithmetic is exact): out = k . (r, g, b) + offset per plane, then scaled,
 * truncated and clipped. The coefficients are integers below 2^34 in magnitude held as
 * doubles, so every product and sum is an exact integer in double and every level gives the
 * C reference's bits. */
typedef struct develop_yuv {
    double y[3], cb[3], cr[3];   /* per 16-bit input code, for R, G, B */
    double y_offset, c_offset;   /* the same scale */
    double scale;                /* to output codes (2^-40) */
    int32_t min, max;            /* output clip */
} develop_yuv;

typedef struct develop_dsp {
    /* dst = clamp((src - black) * scale, 0, top); scale holds the row's per-column factors */
    void (*load)(const uint16_t *src, const float *scale, float black, float top, uint32_t w,
                 float *dst);
    /* near = the largest of each pixel's 3x3 neighbourhood (rows up/mid/down, clipped at the
     * row's ends; pass mid for a missing row); tmp: w floats of scratch; w >= 1 */
    void (*near)(const float *up, const float *mid, const float *down, uint32_t w, float *tmp,
                 float *near);
    /* clip, BLEND highlights, matrix, output BLEND, in place on r, g, b */
    void (*grade)(const develop_grade *g, const float *near, float *r, float *gr, float *b,
                  uint32_t w);
    /* out = curve_lut_apply(lut, in) */
    void (*encode)(const curve_lut *lut, const float *in, uint32_t w, uint16_t *out);
    /* RCD over a window (src/develop/demosaic.h) */
    void (*rcd)(const demosaic_window *w);
    /* one row of w pixels to 4:4:4 (y, cb, cr: w samples each) or 4:2:2 (cb, cr: (w + 1) / 2,
     * co-sited with the even pixels, filtered [1 2 1], the row's ends repeating the last
     * pixel); w >= 1 */
    void (*yuv444)(const develop_yuv *k, const uint16_t *r, const uint16_t *g,
                   const uint16_t *b, uint32_t w, uint16_t *y, uint16_t *cb, uint16_t *cr);
    void (*yuv422)(const develop_yuv *k, const uint16_t *r, const uint16_t *g,
                   const uint16_t *b, uint32_t w, uint16_t *y, uint16_t *cb, uint16_t *cr);
} develop_dsp;

/* The kernels for a level (the best this build and CPU have at or below it). */
const develop_dsp *mp_develop_dsp_for(mp_cpu_level level);

#endif
