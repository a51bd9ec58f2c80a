/* common/mp_bytes: little-endian integers in byte buffers, for the file formats we read and
 * write (MLV blocks, legacy RAW footers, TIFF/DNG, WAV, cache entries, LZMA headers). Byte by
 * byte, so alignment and the host's byte order never matter; compilers fold these into one
 * load or store on little-endian hosts. */
#ifndef MP_BYTES_H
#define MP_BYTES_H

#include <stdint.h>

static inline uint16_t mp_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t mp_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t mp_le64(const uint8_t *p)
{
    return (uint64_t)mp_le32(p) | (uint64_t)mp_le32(p + 4) << 32;
}

static inline void mp_put_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void mp_put_le32(uint8_t *p, uint32_t v)
{
    mp_put_le16(p, (uint16_t)v);
    mp_put_le16(p + 2, (uint16_t)(v >> 16));
}

static inline void mp_put_le64(uint8_t *p, uint64_t v)
{
    mp_put_le32(p, (uint32_t)v);
    mp_put_le32(p + 4, (uint32_t)(v >> 32));
}

#endif
