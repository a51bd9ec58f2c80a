/* FFV1 version 3 slice trailers and CRCs (codec/ffv1_slices.h). */
#include "codec/ffv1_slices.h"

#define TRAILER 8u   /* 3 bytes of slice size, 1 of error status, 4 of CRC parity */

/* The CRC of each 4-bit value (i << 28): two lookups a byte, a table small enough to write
 * out, so nothing is made at run time. */
static const uint32_t nibble_crc[16] = {
    0x00000000, 0x04c11db7, 0x09823b6e, 0x0d4326d9, 0x130476dc, 0x17c56b6b, 0x1a864db2,
    0x1e475005, 0x2608edb8, 0x22c9f00f, 0x2f8ad6d6, 0x2b4bcb61, 0x350c9b64, 0x31cd86d3,
    0x3c8ea00a, 0x384fbdbd};

uint32_t mp_ffv1_crc(uint32_t crc, const uint8_t *data, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        crc ^= (uint32_t)data[i] << 24;
        crc = crc << 4 ^ nibble_crc[crc >> 28];
        crc = crc << 4 ^ nibble_crc[crc >> 28];
    }
    return crc;
}

int mp_ffv1_check_slices(const uint8_t *packet, size_t len, size_t *bad_start,
                         size_t *bad_end)
{
    size_t end = len;
    *bad_start = *bad_end = 0;   /* an empty packet holds no slice */
    while (end > 0) {
        size_t size = SIZE_MAX;
        if (end >= TRAILER) {
            const uint8_t *t = packet + end - TRAILER;
            size = ((size_t)t[0] << 16 | (size_t)t[1] << 8 | t[2]) + TRAILER;
        }
        if (size > end) {
            *bad_start = 0;
            *bad_end = end;
            return -1;
        }
        if (mp_ffv1_crc(0, packet + end - size, size)) {
            *bad_start = end - size;
            *bad_end = end;
            return -1;
        }
        end -= size;
    }
    return len ? 0 : -1;
}
