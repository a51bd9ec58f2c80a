/* The RECONSTRUCT highlight mode's rebuild of raw-clipped CFA samples (highlights.c). */
#ifndef MP_DEVELOP_HIGHLIGHTS_H
#define MP_DEVELOP_HIGHLIGHTS_H

#include <stdint.h>

#include "common/mp_frame.h"

/* Rows of CFA each side of a sample that its rebuild reads: a strip's window needs this many
 * rows of context beyond the demosaic's own. */
#define HIGHLIGHT_REBUILD_REACH 6

/* What the rebuild needs besides the window: frame f's raw samples (which are clipped), the
 * white-balance multiplier of each CFA position ([row & 1][x & 1] of the frame) and the
 * value a sample that cannot be rebuilt takes. */
typedef struct highlight_rebuild {
    const mp_frame *f;
    float wb[2][2];          /* white-balanced value of a raw-clipped sample per position */
    float unresolved;        /* value of a clipped sample with no rebuild */
    float top;               /* largest rebuilt value */
} highlight_rebuild;

/* Rebuilds the raw-clipped samples of the CFA window rows [r0, r1) (window row r is frame row
 * wy0 + r; the window holds `rows` rows, white-balanced and not clipped at 1) in place, and
 * sets failed[i] to 1 where a clipped sample could not be rebuilt, 0 elsewhere. A clipped
 * sample of colour k becomes the mean of the unclipped other-colour samples in its 3x3
 * neighbourhood, each times the ratio of k to its colour over the unclipped 2x2 cells within
 * HIGHLIGHT_REBUILD_REACH px (the neighbourhood's colour); if that is below the sample's own
 * clip, the colour does not hold there and the sample is unresolved. Reads only unclipped
 * samples, so the result does not depend on the order or on [r0, r1). */
void mp_highlight_rebuild_rows(const highlight_rebuild *hr, float *cfa, float *failed,
                               uint32_t wy0, uint32_t rows, uint32_t r0, uint32_t r1);

#endif
