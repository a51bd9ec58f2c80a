/* Unit tests for segment splitting and the pre-pass frame choice. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "engine/sampling.h"

static void splits_runs_of_equal_segments(void **state)
{
    (void)state;
    static const uint32_t seg[] = {0, 0, 0, 1, 1, 2, 0, 0};
    mp_segment *s = NULL;
    uint32_t n = 0;
    assert_int_equal(mp_segments_find(seg, 8, &s, &n, NULL), MP_OK);
    assert_int_equal(n, 4);
    assert_int_equal(s[0].first, 0);
    assert_int_equal(s[0].count, 3);
    assert_int_equal(s[1].first, 3);
    assert_int_equal(s[1].count, 2);
    assert_int_equal(s[2].first, 5);
    assert_int_equal(s[2].count, 1);
    assert_int_equal(s[3].first, 6);
    assert_int_equal(s[3].count, 2);
    for (uint32_t i = 0; i < 8; i++) {
        uint32_t k = mp_segment_of_index(s, n, i);
        assert_true(k < n && i >= s[k].first && i < s[k].first + s[k].count);
    }
    assert_int_equal(mp_segment_of_index(s, n, 8), n);
    free(s);
    assert_int_equal(mp_segments_find(seg, 0, &s, &n, NULL), MP_OK);
    assert_int_equal(n, 0);
    assert_int_equal(mp_segment_of_index(s, n, 0), 0);
    free(s);
}

static void small_segments_are_sampled_whole(void **state)
{
    (void)state;
    uint32_t out[MP_SAMPLES_PER_SEGMENT];
    assert_int_equal(mp_sample_offsets(5, MP_SAMPLES_PER_SEGMENT, out), 5);
    for (uint32_t i = 0; i < 5; i++)
        assert_int_equal(out[i], i);
    assert_int_equal(mp_sample_offsets(0, MP_SAMPLES_PER_SEGMENT, out), 0);
}

static void large_segments_are_sampled_evenly(void **state)
{
    (void)state;
    uint32_t out[MP_SAMPLES_PER_SEGMENT];
    static const uint32_t counts[] = {33, 100, 1000, 4000000000u};
    for (size_t c = 0; c < 4; c++) {
        uint32_t count = counts[c];
        assert_int_equal(mp_sample_offsets(count, MP_SAMPLES_PER_SEGMENT, out),
                         MP_SAMPLES_PER_SEGMENT);
        /* Evenly spaced: consecutive samples one bin apart (give or take rounding), the
         * first in the first bin and the last in the last, so the whole clip is seen. */
        uint32_t bin_lo = count / MP_SAMPLES_PER_SEGMENT, bin_hi = bin_lo + 1;
        assert_true(out[0] < bin_hi);
        assert_true(out[MP_SAMPLES_PER_SEGMENT - 1] >= count - bin_hi);
        for (uint32_t k = 1; k < MP_SAMPLES_PER_SEGMENT; k++) {
            assert_true(out[k] - out[k - 1] >= bin_lo);
            assert_true(out[k] - out[k - 1] <= bin_hi);
        }
    }
    mp_sample_offsets(100, 4, out);
    assert_int_equal(out[0], 12);
    assert_int_equal(out[1], 37);
    assert_int_equal(out[2], 62);
    assert_int_equal(out[3], 87);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(splits_runs_of_equal_segments),
        cmocka_unit_test(small_segments_are_sampled_whole),
        cmocka_unit_test(large_segments_are_sampled_evenly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
