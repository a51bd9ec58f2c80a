/* codec/delta: the DELTA frame format of `mlv_dump -e` (doc/mlv-format.md 10.1), applied to
 * unpacked samples of depth b: stored = (cur - ref + 2^(b-1)) mod 2^b, where ref is the
 * same sample of the previous frame in processing order (zeros before the first). */
#ifndef MP_DELTA_H
#define MP_DELTA_H

#include <stddef.h>
#include <stdint.h>

/* samples: stored values in, current values out; ref: the previous decoded frame. */
void mp_delta_decode(uint16_t *samples, const uint16_t *ref, size_t count, unsigned bits);

/* samples: current values in, stored values out. */
void mp_delta_encode(uint16_t *samples, const uint16_t *ref, size_t count, unsigned bits);

#endif
