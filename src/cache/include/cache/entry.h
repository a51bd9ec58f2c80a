/* cache/entry: one cache entry as bytes (the file layout documented in frame_cache.h):
 * encoding a frame into header + LZ4 block, checking a header, decoding the block.
 * No files here, so the bench and the tests can drive every step in memory. */
#ifndef MP_CACHE_ENTRY_H
#define MP_CACHE_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "cache/frame_cache.h"

#define MP_CACHE_HEADER_SIZE 96u
#define MP_CACHE_VERSION 1u

typedef struct mp_cache_entry_info {
    mp_cache_key key;
    mp_cache_shuffle shuffle;
    uint32_t width, height, bits, black, white, cfa, number;
    uint64_t timestamp_us;
    uint64_t raw_size;      /* payload bytes before compression */
    uint64_t packed_size;   /* LZ4 block bytes */
    uint64_t payload_hash;  /* XXH64 of the raw payload */
} mp_cache_entry_info;

/* Builds the whole entry (header + compressed block) in s->entry; *size is its length.
 * hc_level 0 = LZ4 fast, 1..12 = LZ4 HC. */
mp_status mp_cache_entry_encode(const mp_cache_key *key, const mp_frame *f,
                                mp_cache_shuffle shuffle, int hc_level, mp_cache_scratch *s,
                                size_t *size, mp_error *err);

/* Checks the first MP_CACHE_HEADER_SIZE bytes of an entry of file_size bytes: magic,
 * version, header checksum, bounds, sizes. name is used in messages only. */
mp_status mp_cache_entry_parse_header(const uint8_t *header, uint64_t file_size,
                                      const char *name, mp_cache_entry_info *info,
                                      mp_error *err);

/* Decompresses and verifies the block of a parsed entry into out (all fields set). */
mp_status mp_cache_entry_decode(const mp_cache_entry_info *info, const uint8_t *packed,
                                const char *name, mp_cache_scratch *s, mp_frame *out,
                                mp_error *err);

/* Grows a scratch buffer to at least need bytes. */
mp_status mp_cache_reserve(uint8_t **buf, size_t *cap, size_t need, mp_error *err);

#endif
