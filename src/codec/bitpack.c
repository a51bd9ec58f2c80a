/* codec/bitpack: MSB-first bitstreams of 1..16-bit samples (doc/mlv-format.md 7).
 *
 * One generic bit-accumulator path handles every depth and every tail; whole groups of
 * 10, 12 and 14-bit samples (a group ends on a 16-bit word boundary) take the unrolled
 * per-group formulas of the spec, which gcc turns into tight straight-line code.
 * The two stored orders differ only in how a 16-bit word of the stream is put in memory:
 * MLV stores it little-endian, DNG big-endian (an ordinary MSB-first byte stream). For DNG,
 * 16-bit samples written by mp_pack_dng are therefore big-endian; a little-endian ("II")
 * TIFF stores 16-bit samples as plain uint16 in its own byte order and must not use it. */
#include "codec/bitpack.h"

#include <string.h>

#include "common/mp_bytes.h"

typedef enum word_order { ORDER_LE, ORDER_BE } word_order;

static inline void store16(uint8_t *p, uint32_t w, word_order order)
{
    if (order == ORDER_LE) {
        p[0] = (uint8_t)w;
        p[1] = (uint8_t)(w >> 8);
    } else {
        p[0] = (uint8_t)(w >> 8);
        p[1] = (uint8_t)w;
    }
}

size_t mp_packed_size_dng(size_t count, unsigned bits)
{
    return (count / 8) * bits + ((count % 8) * bits + 7) / 8;
}

size_t mp_packed_size_mlv(size_t count, unsigned bits)
{
    size_t bytes = mp_packed_size_dng(count, bits);
    return bytes + (bytes & 1);
}

/* Reads count samples starting on a word boundary; reads exactly the words that hold them. */
static void unpack_generic(const uint8_t *src, uint16_t *dst, size_t count, unsigned bits)
{
    uint64_t acc = 0;
    unsigned have = 0;
    const uint32_t mask = (1u << bits) - 1;
    for (size_t i = 0; i < count; i++) {
        if (have < bits) {
            acc = acc << 16 | mp_le16(src);
            src += 2;
            have += 16;
        }
        have -= bits;
        dst[i] = (uint16_t)((acc >> have) & mask);
    }
}

static void unpack14(const uint8_t *s, uint16_t *d, size_t groups)
{
    for (size_t g = 0; g < groups; g++, s += 14, d += 8) {
        uint32_t w0 = mp_le16(s), w1 = mp_le16(s + 2), w2 = mp_le16(s + 4),
                 w3 = mp_le16(s + 6), w4 = mp_le16(s + 8), w5 = mp_le16(s + 10),
                 w6 = mp_le16(s + 12);
        d[0] = (uint16_t)(w0 >> 2);
        d[1] = (uint16_t)((w0 & 0x3) << 12 | w1 >> 4);
        d[2] = (uint16_t)((w1 & 0xF) << 10 | w2 >> 6);
        d[3] = (uint16_t)((w2 & 0x3F) << 8 | w3 >> 8);
        d[4] = (uint16_t)((w3 & 0xFF) << 6 | w4 >> 10);
        d[5] = (uint16_t)((w4 & 0x3FF) << 4 | w5 >> 12);
        d[6] = (uint16_t)((w5 & 0xFFF) << 2 | w6 >> 14);
        d[7] = (uint16_t)(w6 & 0x3FFF);
    }
}

static void unpack12(const uint8_t *s, uint16_t *d, size_t groups)
{
    for (size_t g = 0; g < groups; g++, s += 6, d += 4) {
        uint32_t w0 = mp_le16(s), w1 = mp_le16(s + 2), w2 = mp_le16(s + 4);
        d[0] = (uint16_t)(w0 >> 4);
        d[1] = (uint16_t)((w0 & 0xF) << 8 | w1 >> 8);
        d[2] = (uint16_t)((w1 & 0xFF) << 4 | w2 >> 12);
        d[3] = (uint16_t)(w2 & 0xFFF);
    }
}

static void unpack10(const uint8_t *s, uint16_t *d, size_t groups)
{
    for (size_t g = 0; g < groups; g++, s += 10, d += 8) {
        uint32_t w0 = mp_le16(s), w1 = mp_le16(s + 2), w2 = mp_le16(s + 4),
                 w3 = mp_le16(s + 6), w4 = mp_le16(s + 8);
        d[0] = (uint16_t)(w0 >> 6);
        d[1] = (uint16_t)((w0 & 0x3F) << 4 | w1 >> 12);
        d[2] = (uint16_t)((w1 >> 2) & 0x3FF);
        d[3] = (uint16_t)((w1 & 0x3) << 8 | w2 >> 8);
        d[4] = (uint16_t)((w2 & 0xFF) << 2 | w3 >> 14);
        d[5] = (uint16_t)((w3 >> 4) & 0x3FF);
        d[6] = (uint16_t)((w3 & 0xF) << 6 | w4 >> 10);
        d[7] = (uint16_t)(w4 & 0x3FF);
    }
}

static void unpack16(const uint8_t *s, uint16_t *d, size_t count)
{
    for (size_t i = 0; i < count; i++)
        d[i] = (uint16_t)mp_le16(s + 2 * i);
}

/* Samples per group that ends on a word boundary, for the depths with a fast path. */
static size_t group_size(unsigned bits)
{
    switch (bits) {
    case 10: case 14: return 8;
    case 12: return 4;
    default: return 0;
    }
}

void mp_unpack_mlv(const uint8_t *src, uint16_t *dst, size_t count, unsigned bits)
{
    if (bits == 16) {
        unpack16(src, dst, count);
        return;
    }
    size_t per_group = group_size(bits), groups = per_group ? count / per_group : 0;
    if (bits == 14)
        unpack14(src, dst, groups);
    else if (bits == 12)
        unpack12(src, dst, groups);
    else if (bits == 10)
        unpack10(src, dst, groups);
    size_t done = groups * per_group;
    unpack_generic(src + done * bits / 8, dst + done, count - done, bits);
}

/* Writes count samples as whole 16-bit words; the last word is zero-filled on the right.
 * With stop_at set (DNG), an odd final byte is the last one written. */
static void pack_generic(const uint16_t *src, uint8_t *dst, size_t count, unsigned bits,
                         word_order order, size_t stop_at)
{
    uint32_t acc = 0;
    unsigned have = 0;
    const uint32_t mask = (1u << bits) - 1;
    uint8_t *start = dst;
    for (size_t i = 0; i < count; i++) {
        acc = acc << bits | (src[i] & mask);
        have += bits;
        if (have >= 16) {
            have -= 16;
            store16(dst, acc >> have, order);
            dst += 2;
        }
    }
    if (have) {
        uint8_t last[2];
        store16(last, acc << (16 - have), order);
        size_t n = (size_t)(dst - start) + 2 <= stop_at ? 2 : 1;
        memcpy(dst, last, n);
    }
}

static inline void pack14(const uint16_t *s, uint8_t *d, size_t groups, word_order order)
{
    for (size_t g = 0; g < groups; g++, s += 8, d += 14) {
        uint32_t p0 = s[0] & 0x3FFF, p1 = s[1] & 0x3FFF, p2 = s[2] & 0x3FFF,
                 p3 = s[3] & 0x3FFF, p4 = s[4] & 0x3FFF, p5 = s[5] & 0x3FFF,
                 p6 = s[6] & 0x3FFF, p7 = s[7] & 0x3FFF;
        store16(d, (p0 << 2 | p1 >> 12) & 0xFFFF, order);
        store16(d + 2, (p1 << 4 | p2 >> 10) & 0xFFFF, order);
        store16(d + 4, (p2 << 6 | p3 >> 8) & 0xFFFF, order);
        store16(d + 6, (p3 << 8 | p4 >> 6) & 0xFFFF, order);
        store16(d + 8, (p4 << 10 | p5 >> 4) & 0xFFFF, order);
        store16(d + 10, (p5 << 12 | p6 >> 2) & 0xFFFF, order);
        store16(d + 12, (p6 << 14 | p7) & 0xFFFF, order);
    }
}

static inline void pack12(const uint16_t *s, uint8_t *d, size_t groups, word_order order)
{
    for (size_t g = 0; g < groups; g++, s += 4, d += 6) {
        uint32_t p0 = s[0] & 0xFFF, p1 = s[1] & 0xFFF, p2 = s[2] & 0xFFF, p3 = s[3] & 0xFFF;
        store16(d, (p0 << 4 | p1 >> 8) & 0xFFFF, order);
        store16(d + 2, (p1 << 8 | p2 >> 4) & 0xFFFF, order);
        store16(d + 4, (p2 << 12 | p3) & 0xFFFF, order);
    }
}

static inline void pack10(const uint16_t *s, uint8_t *d, size_t groups, word_order order)
{
    for (size_t g = 0; g < groups; g++, s += 8, d += 10) {
        uint32_t p0 = s[0] & 0x3FF, p1 = s[1] & 0x3FF, p2 = s[2] & 0x3FF, p3 = s[3] & 0x3FF,
                 p4 = s[4] & 0x3FF, p5 = s[5] & 0x3FF, p6 = s[6] & 0x3FF, p7 = s[7] & 0x3FF;
        store16(d, (p0 << 6 | p1 >> 4) & 0xFFFF, order);
        store16(d + 2, (p1 << 12 | p2 << 2 | p3 >> 8) & 0xFFFF, order);
        store16(d + 4, (p3 << 8 | p4 >> 2) & 0xFFFF, order);
        store16(d + 6, (p4 << 14 | p5 << 4 | p6 >> 6) & 0xFFFF, order);
        store16(d + 8, (p6 << 10 | p7) & 0xFFFF, order);
    }
}

static inline void pack(const uint16_t *src, uint8_t *dst, size_t count, unsigned bits,
                        word_order order, size_t size)
{
    size_t per_group = bits == 16 ? 1 : group_size(bits), groups = per_group ? count / per_group : 0;
    switch (bits) {
    case 16:
        for (size_t i = 0; i < count; i++)
            store16(dst + 2 * i, src[i], order);
        break;
    case 14: pack14(src, dst, groups, order); break;
    case 12: pack12(src, dst, groups, order); break;
    case 10: pack10(src, dst, groups, order); break;
    default: break;
    }
    size_t done = groups * per_group;
    pack_generic(src + done, dst + done * bits / 8, count - done, bits, order, size - done * bits / 8);
}

void mp_pack_mlv(const uint16_t *src, uint8_t *dst, size_t count, unsigned bits)
{
    pack(src, dst, count, bits, ORDER_LE, mp_packed_size_mlv(count, bits));
}

void mp_pack_dng(const uint16_t *src, uint8_t *dst, size_t count, unsigned bits)
{
    pack(src, dst, count, bits, ORDER_BE, mp_packed_size_dng(count, bits));
}
