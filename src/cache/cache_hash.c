/* XXH64 written from the public xxHash specification (doc/xxhash_spec.md of the xxHash
 * project): four 64-bit lanes over 32-byte stripes, then the tail in 8/4/1-byte steps and
 * the final avalanche. Inputs are read as little-endian words on every host. */
#include "cache/frame_cache.h"

#include <string.h>

#include "common/mp_bytes.h"

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full
#define P3 0x165667B19E3779F9ull
#define P4 0x85EBCA77C2B2AE63ull
#define P5 0x27D4EB2F165667C5ull

static inline uint64_t rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static inline uint64_t lane_round(uint64_t acc, uint64_t input)
{
    acc += input * P2;
    return rotl64(acc, 31) * P1;
}

static inline uint64_t merge_lane(uint64_t acc, uint64_t lane)
{
    acc ^= lane_round(0, lane);
    return acc * P1 + P4;
}

void mp_cache_hash_init(mp_cache_hash *h, uint64_t seed)
{
    memset(h, 0, sizeof *h);
    h->lane[0] = seed + P1 + P2;
    h->lane[1] = seed + P2;
    h->lane[2] = seed;
    h->lane[3] = seed - P1;
    h->seed = seed;
}

static void consume_stripe(uint64_t lane[4], const uint8_t *p)
{
    for (int i = 0; i < 4; i++)
        lane[i] = lane_round(lane[i], mp_le64(p + 8 * i));
}

void mp_cache_hash_update(mp_cache_hash *h, const void *data, size_t len)
{
    const uint8_t *p = data;
    h->total += len;
    if (h->buffered) {
        size_t take = 32 - h->buffered < len ? 32 - h->buffered : len;
        memcpy(h->buffer + h->buffered, p, take);
        h->buffered += (uint32_t)take;
        p += take;
        len -= take;
        if (h->buffered < 32)
            return;
        consume_stripe(h->lane, h->buffer);
        h->buffered = 0;
    }
    for (; len >= 32; p += 32, len -= 32)
        consume_stripe(h->lane, p);
    memcpy(h->buffer, p, len);
    h->buffered = (uint32_t)len;
}

uint64_t mp_cache_hash_final(const mp_cache_hash *h)
{
    uint64_t acc;
    if (h->total >= 32) {
        acc = rotl64(h->lane[0], 1) + rotl64(h->lane[1], 7) + rotl64(h->lane[2], 12) +
              rotl64(h->lane[3], 18);
        for (int i = 0; i < 4; i++)
            acc = merge_lane(acc, h->lane[i]);
    } else {
        acc = h->seed + P5;
    }
    acc += h->total;

    const uint8_t *p = h->buffer;
    uint32_t left = h->buffered;
    for (; left >= 8; p += 8, left -= 8) {
        acc ^= lane_round(0, mp_le64(p));
        acc = rotl64(acc, 27) * P1 + P4;
    }
    if (left >= 4) {
        acc ^= (uint64_t)mp_le32(p) * P1;
        acc = rotl64(acc, 23) * P2 + P3;
        p += 4;
        left -= 4;
    }
    for (; left; p++, left--) {
        acc ^= *p * P5;
        acc = rotl64(acc, 11) * P1;
    }

    acc ^= acc >> 33;
    acc *= P2;
    acc ^= acc >> 29;
    acc *= P3;
    acc ^= acc >> 32;
    return acc;
}

uint64_t mp_cache_hash_bytes(const void *data, size_t len, uint64_t seed)
{
    mp_cache_hash h;
    mp_cache_hash_init(&h, seed);
    mp_cache_hash_update(&h, data, len);
    return mp_cache_hash_final(&h);
}

void mp_cache_hash_u32(mp_cache_hash *h, uint32_t v)
{
    uint8_t b[4];
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> 8 * i);
    mp_cache_hash_update(h, b, sizeof b);
}

void mp_cache_hash_u64(mp_cache_hash *h, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> 8 * i);
    mp_cache_hash_update(h, b, sizeof b);
}

void mp_cache_hash_f64(mp_cache_hash *h, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    mp_cache_hash_u64(h, bits);
}

void mp_cache_hash_str(mp_cache_hash *h, const char *s)
{
    size_t len = strlen(s);
    mp_cache_hash_u64(h, len);
    mp_cache_hash_update(h, s, len);
}
