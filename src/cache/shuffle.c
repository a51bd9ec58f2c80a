#include "shuffle.h"

#include <stddef.h>

/* Sign-magnitude interleave: 0, -1, 1, -2 ... -> 0, 1, 2, 3 ..., so the high byte of a
 * small difference is 0 whatever its sign. */
static inline uint16_t zigzag(uint16_t d)
{
    return (uint16_t)((d << 1) ^ (0u - (d >> 15)));
}

static inline uint16_t unzigzag(uint16_t z)
{
    return (uint16_t)((z >> 1) ^ (0u - (z & 1u)));
}

void mp_cache_shuffle_samples(const uint16_t *src, uint32_t width, uint32_t height,
                              mp_cache_shuffle kind, uint8_t *dst)
{
    size_t n = (size_t)width * height;
    if (kind == MP_CACHE_SHUFFLE_NONE) {
        for (size_t i = 0; i < n; i++) {
            dst[2 * i] = (uint8_t)src[i];
            dst[2 * i + 1] = (uint8_t)(src[i] >> 8);
        }
        return;
    }
    uint8_t *lo = dst, *hi = dst + n;
    if (kind == MP_CACHE_SHUFFLE_BYTE) {
        for (size_t i = 0; i < n; i++) {
            lo[i] = (uint8_t)src[i];
            hi[i] = (uint8_t)(src[i] >> 8);
        }
        return;
    }
    for (uint32_t y = 0; y < height; y++) {
        const uint16_t *row = src + (size_t)y * width;
        size_t at = (size_t)y * width;
        for (uint32_t x = 0; x < width; x++) {
            uint16_t z = zigzag((uint16_t)(row[x] - (x >= 2 ? row[x - 2] : 0)));
            lo[at + x] = (uint8_t)z;
            hi[at + x] = (uint8_t)(z >> 8);
        }
    }
}

void mp_cache_unshuffle_samples(const uint8_t *src, uint32_t width, uint32_t height,
                                mp_cache_shuffle kind, uint16_t *dst)
{
    size_t n = (size_t)width * height;
    if (kind == MP_CACHE_SHUFFLE_NONE) {
        for (size_t i = 0; i < n; i++)
            dst[i] = (uint16_t)(src[2 * i] | src[2 * i + 1] << 8);
        return;
    }
    const uint8_t *lo = src, *hi = src + n;
    if (kind == MP_CACHE_SHUFFLE_BYTE) {
        for (size_t i = 0; i < n; i++)
            dst[i] = (uint16_t)(lo[i] | hi[i] << 8);
        return;
    }
    for (uint32_t y = 0; y < height; y++) {
        uint16_t *row = dst + (size_t)y * width;
        size_t at = (size_t)y * width;
        for (uint32_t x = 0; x < width; x++) {
            uint16_t d = unzigzag((uint16_t)(lo[at + x] | hi[at + x] << 8));
            row[x] = (uint16_t)(d + (x >= 2 ? row[x - 2] : 0));
        }
    }
}
