/* Internals shared by the rawfix sources. */
#ifndef MP_RAWFIX_PRIV_H
#define MP_RAWFIX_PRIV_H

#include <string.h>

#include "rawfix/rawfix.h"
#include "rawfix/rawfix_dsp.h"

#define Z_SCALE 16              /* rawfix_measurement.z = deviation / noise x Z_SCALE */
#define Z_CLAMP 2000            /* |z| stored at most (125 noise sigmas) */
#define TEXTURE_WEIGHT 1.25     /* the texture yardstick is act / 8 x this, in DN */
#define Z_BIG (6 * Z_SCALE)     /* a frame where the sample is off by 6 sigmas or more */
#define Z_SUM_CLAMP (4 * Z_SCALE)   /* largest deviation one frame adds to a mean */
#define STRIPE_REACH 8          /* stripe window: same-colour columns x +- 2 .. x +- 8 */

/* 1 + floor(2 log2(level)) for level = level2 / 2 - black >= 1, else 0, at most
 * RAWFIX_LEVEL_BINS - 1: with v = level2 - 2 black = 2 level and k = floor(log2 v), the
 * exponent of (float)v (exact below 2^24), 2 log2 v reaches 2k + 1 where v / 2^k >= sqrt 2,
 * i.e. where the float's fraction bits reach 0x3504f4 (sqrt 2 is irrational, so no v lies on
 * the boundary). Integer and bit operations only, so it vectorises. */
static inline int32_t mp_rawfix_level_bin(int32_t level2, int32_t black)
{
    int32_t v = level2 - 2 * black, bits;
    float fv = (float)v;
    memcpy(&bits, &fv, sizeof bits);
    int32_t b = 2 * ((bits >> 23) - 127) - 1 + ((bits & 0x7fffff) >= 0x3504f4);
    b = v < 2 ? 0 : b;
    return b < RAWFIX_LEVEL_BINS - 1 ? b : RAWFIX_LEVEL_BINS - 1;
}

/* Column step to the nearest same-colour sample of the same field. */
static inline uint32_t mp_rawfix_vstep(int dual)
{
    return dual ? 4 : 2;
}

/* measure.c: r's work arrays and outputs from m's block (after mp_rawfix_measure); then row
 * y of f, which m measured, into r->zh, r->zv and r->stripe, for m->measurable frames and
 * y in [vstep, height - vstep) (the other rows measure nothing). */
void mp_rawfix_row_begin(const rawfix_measurement *m, rawfix_row *r);
void mp_rawfix_measure_row(const rawfix_measurement *m, const mp_frame *f, uint32_t y,
                           rawfix_row *r);

/* prior_check.c: which of count prior lattices the accumulated frames confirm (the samples
 * measured in min_used frames judge): *chosen is its index, the one that stands out most, or
 * -1 (rawfix.h, mp_rawfix_map_build_prior). */
mp_status mp_rawfix_prior_pick(const rawfix_accum *a, uint32_t min_used,
                               const rawfix_lattice *priors, uint32_t count, int *chosen,
                               mp_error *err);

/* fn(ctx, part) for every part in [0, parts) through the runner (rawfix.h), or one after
 * another without one. */
static inline void mp_rawfix_parallel(const rawfix_runner *r, uint32_t parts,
                                      void (*fn)(void *ctx, uint32_t part), void *ctx)
{
    if (r->run)
        r->run(r->opaque, parts, fn, ctx);
    else
        for (uint32_t p = 0; p < parts; p++)
            fn(ctx, p);
}

/* Rows per part of the map's passes split over threads: whole tiles (map_looks.c) and blocks
 * (RAWFIX_BLOCK), so that a tile's or block's sums stay in one part. */
#define RAWFIX_PART_ROWS 32u

static inline uint32_t mp_rawfix_parts(uint32_t height)
{
    return (height + RAWFIX_PART_ROWS - 1) / RAWFIX_PART_ROWS;
}

/* The row after the last of a part. */
static inline uint32_t mp_rawfix_part_end(uint32_t part, uint32_t height)
{
    return (part + 1) * RAWFIX_PART_ROWS < height ? (part + 1) * RAWFIX_PART_ROWS : height;
}

#endif
