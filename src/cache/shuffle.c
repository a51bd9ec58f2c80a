#include "cache/shuffle.h"

#include <stddef.h>

/* Sign-magnitude interleave: 0, -1, 1, -2 ... -> 0, 1, 2, 3 ..., so the high bits of a
 * small difference are 0 whatever its sign. */
static inline uint16_t zigzag(uint16_t d)
{
    return (uint16_t)((d << 1) ^ (0u - (d >> 15)));
}

static inline uint16_t unzigzag(uint16_t z)
{
    return (uint16_t)((z >> 1) ^ (0u - (z & 1u)));
}

/* The DELTA value of sample i in column x: difference to the same CFA colour two columns
 * left, 0 before the row start. */
static inline uint16_t delta_at(const uint16_t *src, size_t i, uint32_t x)
{
    return zigzag((uint16_t)(src[i] - (x >= 2 ? src[i - 2] : 0)));
}

/* Inverse of delta_at over one row of zigzag values, in place. The two running values stay
 * in registers: reading back row[x - 2] would wait on the store just made. */
static void undelta_row(uint16_t *row, uint32_t width)
{
    uint16_t even = 0, odd = 0;
    uint32_t x = 0;
    for (; x + 1 < width; x += 2) {
        row[x] = even = (uint16_t)(even + unzigzag(row[x]));
        row[x + 1] = odd = (uint16_t)(odd + unzigzag(row[x + 1]));
    }
    if (x < width)
        row[x] = (uint16_t)(even + unzigzag(row[x]));
}

/* Transposes an 8x8 bit matrix held as bytes (bit c of byte r -> bit r of byte c) by three
 * rounds of swapping off-diagonal blocks (2x2, 4x4, 8x8). Its own inverse. */
static inline uint64_t transpose8x8(uint64_t x)
{
    uint64_t t;
    t = (x ^ (x >> 7)) & 0x00aa00aa00aa00aaull;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000cccc0000ccccull;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000f0f0f0f0ull;
    x ^= t ^ (t << 28);
    return x;
}

/* Eight values -> byte `block` of each of the 16 bit planes (plane b holds bit b). */
static inline void bits_scatter(const uint16_t v[8], uint8_t *dst, size_t plane, size_t block)
{
    uint64_t lo = 0, hi = 0;
    for (int k = 0; k < 8; k++) {
        lo |= (uint64_t)(v[k] & 0xff) << 8 * k;
        hi |= (uint64_t)(v[k] >> 8) << 8 * k;
    }
    lo = transpose8x8(lo);
    hi = transpose8x8(hi);
    for (int b = 0; b < 8; b++) {
        dst[b * plane + block] = (uint8_t)(lo >> 8 * b);
        dst[(b + 8) * plane + block] = (uint8_t)(hi >> 8 * b);
    }
}

/* b0 b1 b2 b3 -> b0 0 b1 0 b2 0 b3 0 */
static inline uint64_t spread_bytes(uint64_t x)
{
    x = (x | x << 16) & 0x0000ffff0000ffffull;
    return (x | x << 8) & 0x00ff00ff00ff00ffull;
}

/* Eight values from their low bytes (byte k of lo) and high bytes (byte k of hi). */
static inline void join_bytes(uint64_t lo, uint64_t hi, uint16_t v[8])
{
    for (int half = 0; half < 2; half++) {
        uint64_t four = spread_bytes(lo >> 32 * half & 0xffffffffu) |
                        spread_bytes(hi >> 32 * half & 0xffffffffu) << 8;
        for (int k = 0; k < 4; k++)
            v[4 * half + k] = (uint16_t)(four >> 16 * k);
    }
}

static inline void bits_gather(const uint8_t *src, size_t plane, size_t block, uint16_t v[8])
{
    uint64_t lo = 0, hi = 0;
    for (int b = 0; b < 8; b++) {
        lo |= (uint64_t)src[b * plane + block] << 8 * b;
        hi |= (uint64_t)src[(b + 8) * plane + block] << 8 * b;
    }
    join_bytes(transpose8x8(lo), transpose8x8(hi), v);
}

/* BITS layout: the first n - n % 8 values as 16 bit planes of n / 8 bytes each, then the
 * last n % 8 values as little-endian bytes: 2 n bytes in all, like every kind. */
static void shuffle_bits(const uint16_t *src, uint32_t width, size_t n, uint8_t *dst)
{
    size_t plane = n / 8;
    uint32_t x = 0;
    uint16_t v[8];
    for (size_t i = 0; i < n; i++) {
        v[i % 8] = delta_at(src, i, x);
        if (++x == width)
            x = 0;
        if (i % 8 == 7)
            bits_scatter(v, dst, plane, i / 8);
    }
    uint8_t *tail = dst + 16 * plane;
    for (size_t k = 0; k < n % 8; k++) {
        tail[2 * k] = (uint8_t)v[k];
        tail[2 * k + 1] = (uint8_t)(v[k] >> 8);
    }
}

static void unshuffle_bits(const uint8_t *src, uint32_t width, uint32_t height, uint16_t *dst)
{
    size_t n = (size_t)width * height, plane = n / 8;
    for (size_t block = 0; block < plane; block++)
        bits_gather(src, plane, block, dst + 8 * block);
    const uint8_t *tail = src + 16 * plane;
    for (size_t k = 0; k < n % 8; k++)
        dst[8 * plane + k] = (uint16_t)(tail[2 * k] | tail[2 * k + 1] << 8);
    for (uint32_t y = 0; y < height; y++)
        undelta_row(dst + (size_t)y * width, width);
}

void mp_cache_shuffle_samples(const uint16_t *src, uint32_t width, uint32_t height,
                              mp_cache_shuffle kind, uint8_t *dst)
{
    size_t n = (size_t)width * height;
    uint8_t *lo = dst, *hi = dst + n;
    switch (kind) {
    case MP_CACHE_SHUFFLE_NONE:
        for (size_t i = 0; i < n; i++) {
            dst[2 * i] = (uint8_t)src[i];
            dst[2 * i + 1] = (uint8_t)(src[i] >> 8);
        }
        return;
    case MP_CACHE_SHUFFLE_BYTE:
        for (size_t i = 0; i < n; i++) {
            lo[i] = (uint8_t)src[i];
            hi[i] = (uint8_t)(src[i] >> 8);
        }
        return;
    case MP_CACHE_SHUFFLE_DELTA:
        for (size_t i = 0, x = 0; i < n; i++) {
            uint16_t z = delta_at(src, i, (uint32_t)x);
            lo[i] = (uint8_t)z;
            hi[i] = (uint8_t)(z >> 8);
            if (++x == width)
                x = 0;
        }
        return;
    case MP_CACHE_SHUFFLE_BITS:
    default:
        shuffle_bits(src, width, n, dst);
        return;
    }
}

void mp_cache_unshuffle_samples(const uint8_t *src, uint32_t width, uint32_t height,
                                mp_cache_shuffle kind, uint16_t *dst)
{
    size_t n = (size_t)width * height;
    const uint8_t *lo = src, *hi = src + n;
    switch (kind) {
    case MP_CACHE_SHUFFLE_NONE:
        for (size_t i = 0; i < n; i++)
            dst[i] = (uint16_t)(src[2 * i] | src[2 * i + 1] << 8);
        return;
    case MP_CACHE_SHUFFLE_BYTE:
        for (size_t i = 0; i < n; i++)
            dst[i] = (uint16_t)(lo[i] | hi[i] << 8);
        return;
    case MP_CACHE_SHUFFLE_DELTA:
        for (size_t i = 0; i < n; i++)
            dst[i] = (uint16_t)(lo[i] | hi[i] << 8);
        for (uint32_t y = 0; y < height; y++)
            undelta_row(dst + (size_t)y * width, width);
        return;
    case MP_CACHE_SHUFFLE_BITS:
    default:
        unshuffle_bits(src, width, height, dst);
        return;
    }
}
