/* cache/shuffle: rearranges 16-bit samples into bytes LZ4 compresses well, and back.
 * The byte image is width * height * 2 bytes for every kind (see mp_cache_shuffle). */
#ifndef MP_CACHE_SHUFFLE_H
#define MP_CACHE_SHUFFLE_H

#include <stdint.h>

#include "cache/frame_cache.h"

void mp_cache_shuffle_samples(const uint16_t *src, uint32_t width, uint32_t height,
                              mp_cache_shuffle kind, uint8_t *dst);
void mp_cache_unshuffle_samples(const uint8_t *src, uint32_t width, uint32_t height,
                                mp_cache_shuffle kind, uint16_t *dst);

#endif
