/* codec/lzma_frame: the LZMA payload of old `mlv_dump -c` frames (doc/mlv-format.md 10.2):
 * u32 LE uncompressed size, 5 bytes of LZMA properties, raw LZMA1 stream (the 7-zip SDK
 * LzmaCompress layout). Used for video (flag 0x80) and audio payloads alike. */
#ifndef MP_LZMA_FRAME_H
#define MP_LZMA_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_status.h"

/* Bytes of the payload header before the LZMA stream. */
#define MP_LZMA_FRAME_HEADER 9

/* How far the declared size may exceed the frame. mlv_dump builds of 2014 compressed the
 * whole VIDF payload, zero padding included, so their streams decode to the frame followed
 * by up to a VIDF alignment's worth of zeros (448 bytes in the peer samples); 1 MiB is far
 * above any alignment a recorder used and keeps garbage sizes out. */
#define MP_LZMA_FRAME_PADDING_MAX (1u << 20)

/* Decodes the first dst_size bytes of a payload of len bytes into dst. The declared size
 * must be dst_size, or larger by at most MP_LZMA_FRAME_PADDING_MAX (the extra is padding and
 * is not decoded); a smaller one is damage (MP_ERR_DAMAGED), as is a stream that yields
 * fewer than dst_size bytes. Bytes after the end of the LZMA stream (VIDF padding) are
 * ignored. */
mp_status mp_lzma_frame_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t dst_size,
                               mp_error *err);

/* 1 when the first bytes of a payload are an LZMA frame header that fits a frame of
 * frame_size bytes (declared size in range, valid properties byte): how a payload mislabelled
 * as uncompressed is recognised. Reads at most MP_LZMA_FRAME_HEADER bytes. */
int mp_lzma_frame_header_fits(const uint8_t *src, size_t len, size_t frame_size);

/* Encodes size bytes (< 4 GiB) in the same layout, without an end marker as mlv_dump wrote
 * it. *out is malloc'ed (caller frees). */
mp_status mp_lzma_frame_encode(const uint8_t *src, size_t size, uint8_t **out, size_t *out_len,
                               mp_error *err);

#endif
