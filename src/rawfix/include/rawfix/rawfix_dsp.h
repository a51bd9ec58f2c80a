/* rawfix_dsp: the per-row kernels of rawfix_measure, rawfix_accum and rawfix_apply, in plain
 * C (the reference) and in versions built for wider instruction sets, chosen at run time. All
 * versions are the same C source built with different flags (rows_body.h): integer
 * arithmetic and single or double divisions, comparisons and roundings that IEEE defines
 * exactly, no contraction into FMA, so every version gives the same bits. tests/checkasm
 * holds them to that. */
#ifndef MP_RAWFIX_DSP_H
#define MP_RAWFIX_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_cpu.h"

#define RAWFIX_LEVEL_BINS 40

/* The noise sigmas of a row class (RAWFIX_LEVEL_BINS of them) in single precision, for
 * rawfix_row_z: each the float nearest the double, or the next float towards zero where that
 * one would move a stripe limit. The stripe sums take a sample where the window's signal above
 * black is at least 2 sigmas x the window's size (16 sigmas), the sample's deviation from the
 * window's mean x its size at most 4 (32) and the window's halves apart by at most 2 (16);
 * those are whole numbers (under 2^19), and either float compares with them as the double
 * does: the limits ceil(16 s), floor(32 s), floor(16 s) are those of the double s. */
void mp_rawfix_float_sigmas(const double *sigma, float *out);

/* One row y of a frame and its work arrays (w entries each; a kernel writes x in the
 * range it names, the caller owns the buffers). */
typedef struct rawfix_row {
    const uint16_t *c, *u, *d;      /* row y and the same-colour rows above and below */
    uint32_t w;                     /* >= 5 */
    int32_t white, black;
    int32_t *dh2, *dv2;             /* second differences x 2 along the row / column, DN */
    int32_t *bin_h, *bin_v;         /* brightness bins of the row / column pairs of
                                     * neighbours (RAWFIX_LEVEL_BINS half-EV bins) */
    int32_t *ok;                    /* 1: neither the sample nor its 4 neighbours clipped */
    int32_t *act;                   /* 8 x the texture yardstick */
    int32_t *left, *right, *win_max;   /* stripe window halves and their largest sample */
    const double *sigma;            /* noise sigma of a difference per brightness bin */
    const float *sigma_float;       /* the same in single precision (mp_rawfix_float_sigmas) */
    float *sigma_h;                 /* sigma_float of bin_h at [2, w - 2) (rawfix_row_z's) */
    uint32_t *light;                /* the caller's: rawfix_sums.light of a row per row class
                                     * (RAWFIX_BLOCK_SUMS x w) */
    int16_t *zh, *zv;               /* out: deviations in noise units x 16, or RAWFIX_NO_Z */
    int32_t (*stripe)[2];           /* out: stripe sums (rawfix_measurement.stripe) */
} rawfix_row;

/* One row's measurement into its sums over the frames (rawfix_accum): n samples each. */
typedef struct rawfix_sums {
    size_t n;
    const uint16_t *values;         /* the recorded row */
    const int16_t *zh, *zv;         /* rawfix_row's deviations ... */
    const int32_t (*stripe)[2];     /* ... and stripe sums */
    uint16_t *lo, *hi;              /* lowest and highest value */
    int32_t (*stripe_sum)[2];
    int16_t *sum_h, *sum_v;         /* zh, zv clamped to +-4 sigmas where measured */
    int32_t *zh_sum;                /* zh where measured ... */
    uint32_t *zh_sq;                /* ... and its square */
    uint32_t *value_sum;            /* the recorded value ... */
    uint64_t *value_sq;             /* ... and its square: the sample's own noise */
    const uint32_t *light;          /* the light around each sample (mp_rawfix_light, 0 where
                                     * that is clipped), or NULL: then value_light is left */
    uint64_t *value_light;          /* the value times that light */
    uint8_t *used, *pos, *neg, *big;    /* frames measured; zh and zv both > 0, both < 0,
                                         * both 6 sigmas or more off with one sign */
} rawfix_sums;

typedef struct rawfix_dsp {
    void (*diffs)(rawfix_row *r);   /* dh2, dv2, bin_h, bin_v, ok at x in [2, w - 2) */
    void (*texture)(rawfix_row *r); /* act at [2, w - 2); left, right, win_max at [8, w - 8) */
    void (*z)(rawfix_row *r);       /* the whole rows zh, zv, stripe from all of the above */
    void (*sums)(const rawfix_sums *s);  /* adds a row's measurement to its sums */
    /* a row's stripe correction (rawfix_apply): n samples, each with its gain (1 / the
     * column class's), black and white as the frame's */
    void (*destripe)(uint16_t *row, size_t n, const float *gain, float black, uint32_t white);
} rawfix_dsp;

/* The kernels for a level (the best this build and CPU have at or below it). */
const rawfix_dsp *mp_rawfix_dsp_for(mp_cpu_level level);

#endif
