/* develop/resample: a developed picture to another size (convert's --scale and --size, for
 * editing proxies and review copies). Separable Lanczos-3: columns first, then rows, each
 * output sample a weighted sum of the input samples within three of its own pixels of it
 * (the kernel stretched by the reduction when shrinking, so that it also low-passes).
 *
 * It works on the developed samples (after the output curve, and after whatever comes after
 * the curve), not on linear light: the picture a sink is given is the only form every curve,
 * gamut and later stage shares, so a proxy equals the full-size output shrunk as an editor
 * would shrink it, and no curve needs an inverse here (doc/outputs.md 10).
 *
 * Weights are fixed-point integers (RESAMPLE_ONE per unit, each set summing to exactly
 * RESAMPLE_ONE) and the sums integer, so every machine and thread count gives the same
 * bytes. Samples outside the picture repeat its edge; results are clamped to 0..65535. */
#ifndef MP_DEVELOP_RESAMPLE_H
#define MP_DEVELOP_RESAMPLE_H

#include <stdint.h>

#include "common/mp_status.h"
#include "develop/develop.h"

#define RESAMPLE_ONE (1 << 14)

/* One axis: for output sample o, taps weights from input sample first[o] on. */
typedef struct develop_resample_axis {
    uint32_t in, out, taps;
    int32_t *first;
    int16_t *weight;                /* out x taps */
} develop_resample_axis;

typedef struct develop_resample {
    develop_resample_axis h, v;     /* columns (width), rows (height); out 0: not made */
} develop_resample;

/* The size of a picture of width x height pixels whose pixels have the aspect num:den
 * (width over height of one pixel; 1:1 square) at `scale` (> 0) times its size, or, scale 0,
 * fitted into box_width x box_height as displayed (the aspect kept, one side of the box
 * reached). Both sides are rounded to the nearest even number, at least 2: 4:2:2 and 4:2:0
 * codecs need even sizes, and an image sequence then matches a movie of the same clip. */
void mp_develop_scaled_size(uint32_t width, uint32_t height, uint32_t num, uint32_t den,
                            double scale, uint32_t box_width, uint32_t box_height,
                            uint32_t *out_width, uint32_t *out_height);

/* Weights from in_width x in_height to out_width x out_height (each 1..65535, neither axis
 * shrunk more than 64 times). MP_ERR_ARG for sizes outside that, MP_ERR_NOMEM. */
mp_status mp_develop_resample_make(develop_resample *r, uint32_t in_width, uint32_t in_height,
                                   uint32_t out_width, uint32_t out_height, mp_error *err);
void mp_develop_resample_free(develop_resample *r);

/* Resamples the window [top, top + in_height) x [left, left + in_width) of in into out (sized
 * out_width x out_height; reused, and its buffer also holds the pass between the two axes).
 * Thread-safe for distinct out. */
mp_status mp_develop_resample_apply(const develop_resample *r, const develop_rgb *in,
                                    uint32_t top, uint32_t left, develop_rgb *out,
                                    mp_error *err);

#endif
