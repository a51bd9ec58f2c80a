/* codec/lzma_frame: the LZMA payload of old `mlv_dump -c` frames (doc/mlv-format.md 10.2):
 * u32 LE uncompressed size, 5 bytes of LZMA properties, raw LZMA1 stream (the 7-zip SDK
 * LzmaCompress layout). Used for video (flag 0x80) and audio payloads alike. */
#ifndef MP_LZMA_FRAME_H
#define MP_LZMA_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "../common/mp_status.h"

/* Bytes of the payload header before the LZMA stream. */
#define MP_LZMA_FRAME_HEADER 9

/* Decodes a payload of len bytes into dst, which must be exactly dst_size bytes: the
 * declared size must equal dst_size (MP_ERR_DAMAGED otherwise), and the stream must yield
 * that many bytes. Bytes after the end of the LZMA stream (VIDF padding) are ignored. */
mp_status mp_lzma_frame_decode(const uint8_t *src, size_t len, uint8_t *dst, size_t dst_size,
                               mp_error *err);

/* Encodes size bytes (< 4 GiB) in the same layout, without an end marker as mlv_dump wrote
 * it. *out is malloc'ed (caller frees). */
mp_status mp_lzma_frame_encode(const uint8_t *src, size_t size, uint8_t **out, size_t *out_len,
                               mp_error *err);

#endif
