/* Unit tests for codec/bitpack against the worked example of doc/mlv-format.md 7 and a
 * bit-at-a-time reference written straight from the rule (sample i occupies stream bits
 * [i*b, i*b+b), MSB first; MLV stores stream word k little-endian, DNG big-endian). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codec/bitpack.h"

static uint32_t rng = 12345;
static uint32_t next_random(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

/* Reference: byte offset and bit (7 = MSB) of stream bit k in each order. */
static void stream_bit_position(size_t k, int mlv, size_t *byte, unsigned *bit)
{
    size_t word = k / 16;
    unsigned in_word = 15 - (unsigned)(k % 16);  /* 15 = MSB of the word */
    int high_byte = in_word >= 8;
    *byte = 2 * word + (mlv ? (high_byte ? 1 : 0) : (high_byte ? 0 : 1));
    *bit = in_word % 8;
}

static void reference_pack(const uint16_t *src, uint8_t *dst, size_t count, unsigned bits, int mlv)
{
    for (size_t i = 0; i < count; i++)
        for (unsigned j = 0; j < bits; j++) {
            size_t byte;
            unsigned bit;
            stream_bit_position(i * bits + j, mlv, &byte, &bit);
            if ((src[i] >> (bits - 1 - j)) & 1)
                dst[byte] |= (uint8_t)(1u << bit);
        }
}

static void worked_example_14bit(void **state)
{
    (void)state;
    const uint16_t pixels[8] = {0x3FFF, 0x0001, 0x2AAA, 0x1555, 0x0F0F, 0x3000, 0x0003, 0x2001};
    const uint8_t bytes[14] = {0xfc, 0xff, 0x1a, 0x00, 0x95, 0xaa, 0x3c,
                               0x55, 0x00, 0x3f, 0x00, 0x00, 0x01, 0xe0};
    uint16_t out[8];
    mp_unpack_mlv(bytes, out, 8, 14);
    assert_memory_equal(out, pixels, sizeof pixels);
    uint8_t packed[14];
    mp_pack_mlv(pixels, packed, 8, 14);
    assert_memory_equal(packed, bytes, sizeof bytes);
    assert_int_equal(mp_packed_size_mlv(8, 14), 14);
}

static void packed_sizes(void **state)
{
    (void)state;
    assert_int_equal(mp_packed_size_mlv(3, 12), 6);
    assert_int_equal(mp_packed_size_dng(3, 12), 5);
    assert_int_equal(mp_packed_size_mlv(1, 1), 2);
    assert_int_equal(mp_packed_size_dng(1, 1), 1);
    assert_int_equal(mp_packed_size_dng(1920 * 1080, 14), 1920 * 1080 * 14 / 8);
    assert_int_equal(mp_packed_size_mlv(0, 14), 0);
    assert_int_equal(mp_packed_size_mlv(5, 16), 10);
}

/* Every depth, counts 0..70 (all tails of every group size): pack equals the reference
 * in both orders, unpack inverts it, and nothing is written past the packed size. */
static void all_depths_match_reference(void **state)
{
    (void)state;
    enum { MAXN = 70, GUARD = 8 };
    uint16_t src[MAXN], back[MAXN + 1];
    uint8_t ref[2 * MAXN + GUARD], got[2 * MAXN + GUARD];
    for (unsigned bits = 1; bits <= 16; bits++) {
        for (size_t n = 0; n <= MAXN; n++) {
            for (size_t i = 0; i < n; i++)
                src[i] = (uint16_t)(next_random() & ((1u << bits) - 1));
            for (int mlv = 0; mlv <= 1; mlv++) {
                size_t size = mlv ? mp_packed_size_mlv(n, bits) : mp_packed_size_dng(n, bits);
                memset(ref, 0, sizeof ref);
                memset(got, 0xA5, sizeof got);
                reference_pack(src, ref, n, bits, mlv);
                if (mlv)
                    mp_pack_mlv(src, got, n, bits);
                else
                    mp_pack_dng(src, got, n, bits);
                assert_memory_equal(got, ref, size);
                for (size_t k = size; k < sizeof got; k++)
                    assert_int_equal(got[k], 0xA5);
            }
            back[n] = 0xBEEF;
            memset(got, 0, sizeof got);
            reference_pack(src, got, n, bits, 1);
            mp_unpack_mlv(got, back, n, bits);
            assert_memory_equal(back, src, n * sizeof *src);
            assert_int_equal(back[n], 0xBEEF);
        }
    }
}

/* Whole frames through the fast paths (10/12/14/16) equal the reference, with a tail. */
static void fast_paths_equal_reference_on_frames(void **state)
{
    (void)state;
    const unsigned depths[] = {10, 12, 14, 16};
    size_t n = 1920 * 2 + 5;
    uint16_t *src = malloc(n * 2), *back = malloc(n * 2);
    uint8_t *ref = calloc(2 * n + 2, 1), *got = malloc(2 * n + 2);
    for (unsigned d = 0; d < 4; d++) {
        unsigned bits = depths[d];
        for (size_t i = 0; i < n; i++)
            src[i] = (uint16_t)(next_random() & ((1u << bits) - 1));
        memset(ref, 0, 2 * n + 2);
        reference_pack(src, ref, n, bits, 1);
        mp_pack_mlv(src, got, n, bits);
        assert_memory_equal(got, ref, mp_packed_size_mlv(n, bits));
        mp_unpack_mlv(ref, back, n, bits);
        assert_memory_equal(back, src, n * 2);
    }
    free(src);
    free(back);
    free(ref);
    free(got);
}

static void pack_dng_hand_examples(void **state)
{
    (void)state;
    /* 12-bit ABC 123 456: the bitstream as plain bytes, last nibble zero-filled. */
    const uint16_t s12[3] = {0xABC, 0x123, 0x456};
    uint8_t out[8];
    memset(out, 0xEE, sizeof out);
    mp_pack_dng(s12, out, 3, 12);
    const uint8_t e12[6] = {0xAB, 0xC1, 0x23, 0x45, 0x60, 0xEE};
    assert_memory_equal(out, e12, 6);
    /* 10-bit 3FF 000 2AA: 1111111111 0000000000 1010101010 00 */
    const uint16_t s10[3] = {0x3FF, 0x000, 0x2AA};
    mp_pack_dng(s10, out, 3, 10);
    const uint8_t e10[4] = {0xFF, 0xC0, 0x0A, 0xA8};
    assert_memory_equal(out, e10, 4);
    /* 14-bit worked example: the MLV bytes with every 16-bit word swapped. */
    const uint16_t s14[8] = {0x3FFF, 0x0001, 0x2AAA, 0x1555, 0x0F0F, 0x3000, 0x0003, 0x2001};
    const uint8_t e14[14] = {0xff, 0xfc, 0x00, 0x1a, 0xaa, 0x95, 0x55,
                             0x3c, 0x3f, 0x00, 0x00, 0x00, 0xe0, 0x01};
    uint8_t out14[14];
    mp_pack_dng(s14, out14, 8, 14);
    assert_memory_equal(out14, e14, 14);
    /* 16-bit: big-endian. */
    const uint16_t s16[2] = {0x1234, 0xABCD};
    mp_pack_dng(s16, out, 2, 16);
    const uint8_t e16[4] = {0x12, 0x34, 0xAB, 0xCD};
    assert_memory_equal(out, e16, 4);
}

static void pack_masks_out_of_range_samples(void **state)
{
    (void)state;
    const uint16_t s[4] = {0xFFFF, 0, 0xFFFF, 0};
    uint8_t a[6], b[6];
    const uint16_t masked[4] = {0xFFF, 0, 0xFFF, 0};
    mp_pack_mlv(s, a, 4, 12);
    mp_pack_mlv(masked, b, 4, 12);
    assert_memory_equal(a, b, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worked_example_14bit),
        cmocka_unit_test(packed_sizes),
        cmocka_unit_test(all_depths_match_reference),
        cmocka_unit_test(fast_paths_equal_reference_on_frames),
        cmocka_unit_test(pack_dng_hand_examples),
        cmocka_unit_test(pack_masks_out_of_range_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
