/* rawfix/dark: dark-frame subtraction. A dark frame (lens cap on, the clip's size, depth and
 * ISO) records what the sensor adds without light: a fixed offset per photosite (fixed
 * pattern noise, amplifier glow, warm pixels). Averaging N such frames keeps that pattern and
 * divides the read noise by sqrt(N); subtracting the average from every frame of a clip
 * removes the pattern, leaving only that residue.
 *
 * Only the pattern is subtracted: each sample's average minus the median of its class (row
 * y mod 4, column x mod 2: a CFA colour, and in dual-ISO frames a field, whose blacks
 * differ). So the clip keeps its own black levels, whatever black the dark frame had or
 * claims, and subtraction works the same in both fields of a dual-ISO clip. Pure functions
 * on frames: the pipeline reads the dark frame's sources (analysis/dark_load.h). */
#ifndef MP_RAWFIX_DARK_H
#define MP_RAWFIX_DARK_H

#include <stdint.h>

#include "common/mp_frame.h"
#include "common/mp_status.h"

#define RAWFIX_DARK_FRAC 256        /* pattern units per DN */
#define RAWFIX_DARK_MAX_FRAMES 65535u   /* a 16-bit sample sum stays in 32 bits */

/* Running sums of dark frames: memory is one uint32 per sample, whatever the frame count. */
typedef struct rawfix_dark_sum {
    uint32_t width, height, bits;
    uint32_t frames;
    uint32_t *sum;                  /* malloc'd */
} rawfix_dark_sum;

/* The subtracted pattern. */
typedef struct rawfix_dark {
    uint32_t width, height, bits;   /* width 0: no dark frame (apply does nothing) */
    uint32_t frames;                /* averaged */
    int32_t *pattern;               /* per sample, in 1/RAWFIX_DARK_FRAC DN (malloc'd) */
    double rms;                     /* RMS of the pattern, DN (for the log) */
} rawfix_dark;

/* Adds a frame. The first one sets the size and depth; another size or depth is MP_ERR_ARG
 * naming both, more than RAWFIX_DARK_MAX_FRAMES is MP_ERR_RANGE. */
mp_status mp_rawfix_dark_add(rawfix_dark_sum *s, const mp_frame *f, mp_error *err);
void mp_rawfix_dark_sum_free(rawfix_dark_sum *s);

/* The pattern of the frames summed so far (at least one). */
mp_status mp_rawfix_dark_finish(const rawfix_dark_sum *s, rawfix_dark *d, mp_error *err);

/* A dark frame that is already an average (a DNG, MLV-App's DARK block): as if summed once. */
mp_status mp_rawfix_dark_from_frame(const mp_frame *f, uint32_t frames_averaged,
                                    rawfix_dark *d, mp_error *err);

void mp_rawfix_dark_free(rawfix_dark *d);

/* Subtracts the pattern from f in place (rounded to whole DN, kept within 0..white; clipped
 * samples stay clipped). Another size or depth than the dark frame's is MP_ERR_ARG. */
mp_status mp_rawfix_dark_apply(const rawfix_dark *d, mp_frame *f, mp_error *err);

#endif
