/* codec/ffv1_slices: the slice CRCs of an FFV1 version 3 packet, checked without decoding
 * (doc/outputs.md, "join"). With error correction on (`slicecrc`, what mlvpipe's FFV1 always
 * has), every slice ends with an 8-byte trailer: its size less the trailer (24 bits, big
 * endian), an error status byte and a CRC-32 parity. Slices lie back to back and are found
 * from the end of the packet by those sizes; a slice is intact when the CRC-32 (polynomial
 * 0x04C11DB7, most significant bit first, initial value 0, no final xor) of all its bytes,
 * parity included, is 0. */
#ifndef MP_FFV1_SLICES_H
#define MP_FFV1_SLICES_H

#include <stddef.h>
#include <stdint.h>

/* The CRC above of len bytes, continuing from crc (0 to start). */
uint32_t mp_ffv1_crc(uint32_t crc, const uint8_t *data, size_t len);

/* 0 when the packet is a chain of slices reaching back to its first byte, each with an
 * 8-byte trailer and a CRC of 0; else -1 with *bad_start and *bad_end (end exclusive) the
 * bytes of the first failing slice from the end (a broken chain: from 0 to where the chain
 * broke). Reads only [packet, packet + len). */
int mp_ffv1_check_slices(const uint8_t *packet, size_t len, size_t *bad_start,
                         size_t *bad_end);

#endif
