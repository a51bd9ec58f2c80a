/* per_frame: the contrast to clip-pooled levels. Every frame of the clip is reconstructed
 * with levels estimated from that frame alone (mp_dualiso_stats_collect on the one frame,
 * mp_dualiso_levels_pool over it), the way cr2hdr and MLVFS treat video; optionally with
 * cr2hdr's black as well: the floor of the frame's optical-black mean, written as the
 * frame's integer BlackLevel while the samples keep the exact black (doc/dualiso.md 3.1 step 4
 * and 5: "black = floor(mean)"). */
#ifndef FLICKER_PER_FRAME_H
#define FLICKER_PER_FRAME_H

#include <stdint.h>

#include "clip_truth.h"
#include "common/mp_frame.h"
#include "common/mp_status.h"

/* Called with each reconstructed frame (index 0..frames-1) and the levels its DNG would
 * carry. */
typedef mp_status (*per_frame_fn)(void *opaque, uint32_t index, const mp_frame *out,
                                  double black, double white, mp_error *err);

/* How far the per-frame levels wandered over the clip. */
typedef struct per_frame_levels {
    double ratio_ev_min, ratio_ev_max;
    double black_bright_min, black_bright_max;   /* bright-field black - metadata black, DN */
    uint32_t out_black_min, out_black_max, out_white_min, out_white_max;
} per_frame_levels;

mp_status per_frame_measure(const char *clip_path, const clip_truth *t, int cr2hdr_black,
                            per_frame_fn fn, void *opaque, per_frame_levels *spread,
                            mp_error *err);

#endif
