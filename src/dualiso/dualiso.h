/* dualiso: Magic Lantern dual-ISO reconstruction as pure functions on frames (no files, no
 * threads, no globals). Flow: detect -> per-frame statistics -> clip levels pooled over many
 * frames -> reconstruct each frame with the same levels (no flicker, chunk-independent).
 *
 * Row phase convention (same as src/synth): buffer row y belongs to the bright (high-ISO)
 * field when (y + phase) % 4 >= 2; phase 0 = "ddBB" (rows 0,1 dark, rows 2,3 bright).
 *
 * CONTRACT NOTE (lead): dualiso_detect and the output-scale fields of dualiso_levels below
 * are used by other modules (mlvpipe info, the quality benchmark). The dualiso owner defines
 * the rest of this header. */
#ifndef MP_DUALISO_H
#define MP_DUALISO_H

#include <stdint.h>

#include "../common/mp_frame.h"
#include "../common/mp_status.h"

typedef struct dualiso_detection {
    int is_dual;          /* 1 when the period-4 row pattern is present */
    uint32_t phase;       /* 0..3, see above; valid when is_dual */
    double ev_estimate;   /* rough brightness ratio of the fields, EV */
    double confidence;    /* 0..1, how clearly the pattern stands out */
} dualiso_detection;

/* Looks for the dual-ISO row pattern in one raw frame, at any bit depth (levels from f). */
mp_status dualiso_detect(const mp_frame *f, dualiso_detection *out, mp_error *err);

#endif
