/* rawfix/dark against the sensor simulator (src/synth): a lens-cap average of N frames removes
 * the fixed dark pattern from a scene shot on the same sensor, down to the average's own
 * noise (read noise / sqrt(N)) in each field of single- and dual-ISO frames, without moving
 * the blacks; the pattern does not depend on the order frames were summed; clipped samples
 * stay clipped; frames of another size or depth are refused. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rawfix/dark.h"
#include "synth/synth.h"

enum { AW = 256, AH = 128, N = 16 };

#define PATTERN_DN14 8.0

/* Frame `number` of a sensor with the fixed dark pattern (noise from seed), lit with e
 * electrons everywhere (0: lens cap), pattern or not. */
static void shoot(const synth_sensor *s, double e, uint64_t seed, uint32_t number, int pattern,
                  mp_frame *f)
{
    static float truth[AW * AH];
    for (size_t i = 0; i < AW * AH; i++)
        truth[i] = (float)e;
    mp_error err = {0};
    assert_int_equal(mp_synth_expose(s, truth, AW, AH, seed, number, f, &err), MP_OK);
    synth_defects d = {.dark_pattern_dn = pattern ? PATTERN_DN14 : 0, .seed = 77};
    assert_int_equal(mp_synth_defects_apply(&d, s, truth, NULL, 0, f, &err), MP_OK);
}

static void average_lens_cap(const synth_sensor *s, int reverse, rawfix_dark *d)
{
    rawfix_dark_sum sum = {0};
    mp_frame f = {0};
    mp_error err = {0};
    for (uint32_t i = 0; i < N; i++) {
        shoot(s, 0, 11, reverse ? N - 1 - i : i, 1, &f);
        assert_int_equal(mp_rawfix_dark_add(&sum, &f, &err), MP_OK);
    }
    assert_int_equal(mp_rawfix_dark_finish(&sum, d, &err), MP_OK);
    mp_rawfix_dark_sum_free(&sum);
    mp_frame_free(&f);
}

/* For each row class (y mod 4) over 4 scene frames: the per-sample mean of (subtracted -
 * pattern-free) is the residual pattern; its RMS around the class mean must stay within
 * sqrt(sigma^2 / N + 1/12): the average's noise plus rounding the subtraction to whole DN
 * (a uniform error of variance 1/12), 3 % for the estimate's own scatter (about 8000 samples
 * per class: 0.8 % standard error). The class mean (the black) moves by less than 0.25 DN. */
static void residue_within_bound(double ev_gap)
{
    synth_sensor s;
    mp_synth_sensor_default(&s, 14, ev_gap);
    s.bright_black_offset = ev_gap > 0 ? 5 : 0;
    rawfix_dark d;
    average_lens_cap(&s, 0, &d);
    printf("gap %.0f: pattern RMS %.2f DN from %u frames\n", ev_gap, d.rms, d.frames);
    assert_true(d.rms > PATTERN_DN14 * 0.95);

    const uint32_t w = AW + s.ob_left, h = AH + s.ob_top;
    double *sum = calloc((size_t)w * h, sizeof *sum);
    assert_non_null(sum);
    mp_frame with = {0}, without = {0};
    mp_error err = {0};
    for (uint32_t k = 0; k < 4; k++) {
        shoot(&s, 3000, 5, k, 1, &with);
        shoot(&s, 3000, 5, k, 0, &without);
        assert_int_equal(mp_rawfix_dark_apply(&d, &with, &err), MP_OK);
        for (size_t i = 0; i < (size_t)w * h; i++)
            sum[i] += ((double)with.data[i] - without.data[i]) / 4;
    }
    for (uint32_t c = 0; c < 4; c++) {
        double m = 0, q = 0, n = 0;
        for (uint32_t y = c; y < h; y += 4)
            for (uint32_t x = 0; x < w; x++, n++) {
                m += sum[(size_t)y * w + x];
                q += sum[(size_t)y * w + x] * sum[(size_t)y * w + x];
            }
        m /= n;
        double rms = sqrt(q / n - m * m);
        double sigma = mp_synth_row_is_bright(&s, c) ? s.read_noise_bright : s.read_noise_dark;
        double bound = sqrt(sigma * sigma / N + 1.0 / 12);
        printf("  rows %u mod 4: residual pattern RMS %.3f DN (sigma/sqrt(N) %.3f, bound %.3f), "
               "offset %+.3f\n", c, rms, sigma / sqrt(N), bound, m);
        assert_true(rms <= 1.03 * bound);
        assert_true(fabs(m) < 0.25);
    }
    free(sum);
    mp_frame_free(&with);
    mp_frame_free(&without);
    mp_rawfix_dark_free(&d);
}

static void removes_pattern_single_iso(void **state)
{
    (void)state;
    residue_within_bound(0);
}

static void removes_pattern_per_field_dual_iso(void **state)
{
    (void)state;
    residue_within_bound(3);
}

static void same_pattern_in_any_order(void **state)
{
    (void)state;
    synth_sensor s;
    mp_synth_sensor_default(&s, 14, 3);
    rawfix_dark a, b;
    average_lens_cap(&s, 0, &a);
    average_lens_cap(&s, 1, &b);
    assert_int_equal(a.frames, b.frames);
    assert_memory_equal(a.pattern, b.pattern, (size_t)a.width * a.height * sizeof *a.pattern);
    mp_rawfix_dark_free(&a);
    mp_rawfix_dark_free(&b);
}

static void clipped_stay_clipped_and_mismatch_refused(void **state)
{
    (void)state;
    synth_sensor s;
    mp_synth_sensor_default(&s, 14, 0);
    rawfix_dark d;
    average_lens_cap(&s, 0, &d);
    mp_frame f = {0};
    mp_error err = {0};
    shoot(&s, 1e9, 5, 0, 1, &f);   /* far beyond full well: all clipped */
    assert_int_equal(mp_rawfix_dark_apply(&d, &f, &err), MP_OK);
    for (size_t i = (size_t)s.ob_top * f.width; i < (size_t)f.width * f.height; i++)
        if (i % f.width >= s.ob_left)
            assert_int_equal(f.data[i], f.white);

    f.bits = 12;
    assert_int_equal(mp_rawfix_dark_apply(&d, &f, &err), MP_ERR_ARG);
    assert_non_null(strstr(err.msg, "12-bit"));
    f.bits = 14;
    f.width--;
    assert_int_equal(mp_rawfix_dark_apply(&d, &f, &err), MP_ERR_ARG);
    rawfix_dark_sum sum = {0};
    f.width++;
    assert_int_equal(mp_rawfix_dark_add(&sum, &f, &err), MP_OK);
    f.width--;
    assert_int_equal(mp_rawfix_dark_add(&sum, &f, &err), MP_ERR_ARG);
    mp_rawfix_dark_sum_free(&sum);
    mp_frame_free(&f);
    mp_rawfix_dark_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(removes_pattern_single_iso),
        cmocka_unit_test(removes_pattern_per_field_dual_iso),
        cmocka_unit_test(same_pattern_in_any_order),
        cmocka_unit_test(clipped_stay_clipped_and_mismatch_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
