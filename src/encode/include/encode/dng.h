/* encode/dng: one CinemaDNG file per frame (doc/cinemadng.md): the raw CFA image in
 * IFD0 as a single strip (16-bit, packed big-endian 10/12/14-bit, or LJ92), tags sorted, an
 * Exif IFD for exposure and lens, TimeCodes/FrameRate/ReelName for sequence readers.
 * Bytes depend only on the frame, its metadata and the params (no clock, no thread count).
 * Functions here are thread-safe: frames of one clip may be written concurrently. */
#ifndef MP_DNG_H
#define MP_DNG_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_frame.h"
#include "common/mp_status.h"
#include "encode/sink.h"

#define MP_DNG_SOFTWARE "mlvpipe"

/* Builds the whole file in memory: *out is malloc'ed, *len its size. Fails with MP_ERR_ARG
 * for frames the tags cannot describe (black >= white, samples above the bit depth, odd
 * height for LJ92, unknown CFA codes). */
mp_status mp_dng_encode(const mp_frame *f, const mp_frame_meta *m, const mp_sink_params *p,
                        uint8_t **out, size_t *len, mp_error *err);

/* The exact file size of an uncompressed DNG of a frame shaped as `shape` (its size, depth,
 * levels, pattern, number and timestamp; data may be NULL), before any sample exists:
 * MP_ERR_UNSUPPORTED for LJ92 storage, whose size only encoding tells. */
mp_status mp_dng_size(const mp_frame *shape, const mp_frame_meta *m, const mp_sink_params *p,
                      uint64_t *len, mp_error *err);

/* The whole file into buf, which holds exactly `size` bytes (from mp_dng_size, or an LJ92
 * file's own size): the same bytes as mp_dng_encode and mp_dng_write_file (one builder
 * serves all three), MP_ERR_RANGE when the file would not have that size. */
mp_status mp_dng_encode_into(const mp_frame *f, const mp_frame_meta *m,
                             const mp_sink_params *p, uint8_t *buf, size_t size, mp_error *err);

/* mp_dng_encode + write to path under a temporary name + rename (never replacing an
 * existing file unless p->overwrite). */
mp_status mp_dng_write_file(const char *path, const mp_frame *f, const mp_frame_meta *m,
                            const mp_sink_params *p, mp_error *err);

#endif
