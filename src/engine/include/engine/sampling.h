/* sampling: which frames the clip-level pre-pass looks at.
 *
 * A clip is cut into segments, runs of frames sharing the same RAWI/EXPO/DISO settings (the
 * reader's mlv_frame_info.segment). Each segment gets its own levels, estimated from up to
 * MP_SAMPLES_PER_SEGMENT frames spread evenly over the whole segment: the centres of equal
 * bins. The choice depends only on the segment's extent, never on --frames, so every farm
 * chunk of a clip samples the same frames and gets the same levels. */
#ifndef MP_SAMPLING_H
#define MP_SAMPLING_H

#include <stdint.h>

#include "common/mp_status.h"

#define MP_SAMPLES_PER_SEGMENT 32u

typedef struct mp_segment {
    uint32_t first;   /* clip index of its first frame */
    uint32_t count;   /* frames in it */
} mp_segment;

/* Splits indices 0..n-1 into runs of equal segment_of[i]. *out is malloc'd (free it). */
mp_status mp_segments_find(const uint32_t *segment_of, uint32_t n, mp_segment **out,
                           uint32_t *count, mp_error *err);

/* Writes min(count, max) ascending offsets within [0, count) to out: all of them when
 * count <= max, else the centre of each of max equal bins. Returns how many. */
uint32_t mp_sample_offsets(uint32_t count, uint32_t max, uint32_t *out);

/* The segment holding clip index i (segments as from mp_segments_find), or n if none. */
uint32_t mp_segment_of_index(const mp_segment *segs, uint32_t n, uint32_t index);

#endif
