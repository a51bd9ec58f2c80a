/* codec/ffv1_slices: the CRC against a published check value, slices an encoder would write
 * found intact, and every byte changed, a slice size broken or a packet cut short found
 * damaged, with the failing bytes named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "codec/ffv1_slices.h"

/* CRC-32/POSIX (cksum: the same polynomial, most significant bit first, initial value 0)
 * gives 0x765E7680 for "123456789" after its final xor with 0xFFFFFFFF, which this one
 * leaves out. */
static void crc_matches_the_check_value(void **state)
{
    (void)state;
    assert_int_equal(mp_ffv1_crc(0, (const uint8_t *)"123456789", 9), 0x765E7680u ^ 0xFFFFFFFFu);
    assert_int_equal(mp_ffv1_crc(mp_ffv1_crc(0, (const uint8_t *)"1234", 4),
                                 (const uint8_t *)"56789", 5), 0x765E7680u ^ 0xFFFFFFFFu);
}

/* Three slices of 5, 0 and 9 bytes with their trailers, as ffv1enc writes them. */
static size_t make_packet(uint8_t *p)
{
    static const size_t sizes[] = {5, 0, 9};
    size_t n = 0;
    for (size_t s = 0; s < 3; s++) {
        size_t start = n;
        for (size_t k = 0; k < sizes[s]; k++)
            p[n++] = (uint8_t)(17 * s + 3 * k + 1);
        p[n++] = 0;
        p[n++] = 0;
        p[n++] = (uint8_t)sizes[s];
        p[n++] = 0;
        uint32_t crc = mp_ffv1_crc(0, p + start, n - start);
        for (int k = 3; k >= 0; k--)
            p[n++] = (uint8_t)(crc >> (8 * k));
    }
    return n;
}

static void intact_slices_pass_and_any_change_fails(void **state)
{
    (void)state;
    uint8_t p[64];
    size_t n = make_packet(p), from = 99, to = 99;
    assert_int_equal(n, 5 + 0 + 9 + 3 * 8);
    assert_int_equal(mp_ffv1_check_slices(p, n, &from, &to), 0);
    for (size_t at = 0; at < n; at++)
        for (unsigned bit = 0; bit < 8; bit++) {
            p[at] ^= (uint8_t)(1u << bit);
            assert_int_equal(mp_ffv1_check_slices(p, n, &from, &to), -1);
            assert_true(from <= at && at < to && to <= n);
            p[at] ^= (uint8_t)(1u << bit);
        }
}

static void broken_chain_and_short_packets_fail(void **state)
{
    (void)state;
    uint8_t p[64];
    size_t n = make_packet(p), from, to;
    p[n - 8] = 0x7f;   /* the last slice claims 8 MiB */
    assert_int_equal(mp_ffv1_check_slices(p, n, &from, &to), -1);
    assert_int_equal(from, 0);
    assert_int_equal(to, n);
    n = make_packet(p);
    assert_int_equal(mp_ffv1_check_slices(p + 1, n - 1, &from, &to), -1);   /* a byte lost */
    assert_int_equal(mp_ffv1_check_slices(p, 7, &from, &to), -1);   /* below a trailer */
    assert_int_equal(mp_ffv1_check_slices(p, 0, &from, &to), -1);
    assert_int_equal(from, 0);
    assert_int_equal(to, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(crc_matches_the_check_value),
        cmocka_unit_test(intact_slices_pass_and_any_change_fails),
        cmocka_unit_test(broken_chain_and_short_packets_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
