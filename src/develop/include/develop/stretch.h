/* develop/stretch: square pixels for anamorphic and line-skipping modes. Magic Lantern
 * records some modes with pixels that cover more sensor height than width (720p skips 4 of
 * 5 rows: 5:3) or the other way round; RAWC's binning and skipping say by how much
 * (doc/mlv-format.md 4.2). The developed picture is resampled along its short axis only,
 * with a Lanczos-3 filter (6 taps), as DNG readers apply DefaultScale.
 *
 * Weights are fixed-point integers (STRETCH_ONE per unit, each set summing to exactly
 * STRETCH_ONE) and the sums integer, so every machine and thread count gives the same bytes.
 * Samples outside the picture repeat its edge; results are clamped to 0..65535. */
#ifndef MP_DEVELOP_STRETCH_H
#define MP_DEVELOP_STRETCH_H

#include <stdint.h>

#include "common/mp_meta.h"
#include "common/mp_status.h"
#include "develop/develop.h"

#define STRETCH_TAPS 6
#define STRETCH_ONE (1 << 14)

typedef struct develop_stretch {
    uint32_t in_width, in_height, out_width, out_height;
    int vertical;                   /* rows are resampled, else columns */
    int32_t *first;                 /* per output row/column: its first input tap */
    int16_t (*weight)[STRETCH_TAPS];
} develop_stretch;

/* The picture size of width x height recorded pixels shown with square pixels: the short
 * axis grown by (binning + skipping) of the other axis over its own (rounded to the nearest
 * pixel). Returns 0 (and the same size) when the pixels are square or RAWC is absent. *num /
 * *den gets the pixel aspect ratio (width over height of one recorded pixel), reduced. */
int mp_develop_stretch_size(const mp_raw_capture *c, uint32_t width, uint32_t height,
                            uint32_t *out_width, uint32_t *out_height, uint32_t *num,
                            uint32_t *den);

/* Weights from in_width x in_height to out_width x out_height: one axis the same, the other
 * grown (MP_ERR_ARG otherwise). */
mp_status mp_develop_stretch_make(develop_stretch *s, uint32_t in_width, uint32_t in_height,
                                  uint32_t out_width, uint32_t out_height, mp_error *err);
void mp_develop_stretch_free(develop_stretch *s);

/* Resamples the window [top, top + in_height) x [left, left + in_width) of in into out
 * (sized out_width x out_height; reused). Thread-safe for distinct out. */
mp_status mp_develop_stretch_apply(const develop_stretch *s, const develop_rgb *in, uint32_t top,
                                   uint32_t left, develop_rgb *out, mp_error *err);

#endif
