/* MD5 as RFC 1321 defines it, on little-endian 32-bit words whatever the host's order. */
#include <string.h>

#include "common/mp_md5.h"

/* floor(|sin(i + 1)| * 2^32), the RFC's table T */
static const uint32_t sine[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee,
    0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
    0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
    0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
    0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
    0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05,
    0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
    0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
    0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* rotation per step, four per round */
static const uint8_t shift[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23},
                                    {6, 10, 15, 21}};

static uint32_t rotl(uint32_t x, unsigned n)
{
    return x << n | x >> (32 - n);
}

static void compress(uint32_t state[4], const uint8_t block[64])
{
    uint32_t w[16];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] | (uint32_t)block[4 * i + 1] << 8 |
               (uint32_t)block[4 * i + 2] << 16 | (uint32_t)block[4 * i + 3] << 24;
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    for (unsigned i = 0; i < 64; i++) {
        uint32_t f;
        unsigned word;
        switch (i / 16) {
        case 0: f = (b & c) | (~b & d); word = i; break;
        case 1: f = (d & b) | (~d & c); word = (5 * i + 1) % 16; break;
        case 2: f = b ^ c ^ d; word = (3 * i + 5) % 16; break;
        default: f = c ^ (b | ~d); word = 7 * i % 16; break;
        }
        uint32_t next = b + rotl(a + f + sine[i] + w[word], shift[i / 16][i % 4]);
        a = d;
        d = c;
        c = b;
        b = next;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

void mp_md5_init(mp_md5 *m)
{
    m->state[0] = 0x67452301;
    m->state[1] = 0xefcdab89;
    m->state[2] = 0x98badcfe;
    m->state[3] = 0x10325476;
    m->bytes = 0;
}

void mp_md5_update(mp_md5 *m, const void *data, size_t size)
{
    const uint8_t *p = data;
    size_t used = m->bytes % 64;
    m->bytes += size;
    if (used) {
        size_t take = size < 64 - used ? size : 64 - used;
        memcpy(m->block + used, p, take);
        p += take;
        size -= take;
        if (used + take < 64)
            return;
        compress(m->state, m->block);
    }
    for (; size >= 64; p += 64, size -= 64)
        compress(m->state, p);
    memcpy(m->block, p, size);
}

void mp_md5_final(mp_md5 *m, uint8_t digest[16])
{
    uint64_t bits = m->bytes * 8;
    uint8_t tail[72] = {0x80};
    size_t pad = (m->bytes % 64 < 56 ? 56 : 120) - m->bytes % 64;
    for (int i = 0; i < 8; i++)
        tail[pad + i] = (uint8_t)(bits >> 8 * i);
    mp_md5_update(m, tail, pad + 8);
    for (int i = 0; i < 16; i++)
        digest[i] = (uint8_t)(m->state[i / 4] >> 8 * (i % 4));
}
