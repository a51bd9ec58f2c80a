/* codec/bitpack: bit packing of uncompressed raw samples (any depth 1..16; MLV uses 10..16).
 * MLV order: an MSB-first bitstream stored as little-endian 16-bit words (doc/mlv-format.md 7).
 * DNG order: the same bitstream stored as plain bytes (big-endian, MSB first). */
#ifndef MP_BITPACK_H
#define MP_BITPACK_H

#include <stddef.h>
#include <stdint.h>

/* Bytes needed for count samples of `bits` bits: ceil(count * bits / 8), rounded up to an
 * even number in MLV order (whole 16-bit words). */
size_t mp_packed_size_mlv(size_t count, unsigned bits);
size_t mp_packed_size_dng(size_t count, unsigned bits);

/* src must hold mp_packed_size_mlv(count, bits) bytes. bits in 1..16. */
void mp_unpack_mlv(const uint8_t *src, uint16_t *dst, size_t count, unsigned bits);
void mp_pack_mlv(const uint16_t *src, uint8_t *dst, size_t count, unsigned bits);
/* The DNG order is what CinemaDNG wants for BitsPerSample 10/12/14 (doc/cinemadng.md 1.10).
 * For 16 bits it yields big-endian samples, right only for an "MM" TIFF: a little-endian
 * ("II") DNG stores 16-bit samples as plain uint16 in its own byte order instead. */
void mp_pack_dng(const uint16_t *src, uint8_t *dst, size_t count, unsigned bits);

#endif
