/* develop/stretch: the square-pixel size of RAWC's readout modes, and the Lanczos-3
 * resampling of the short axis: constants stay exact, a linear ramp stays linear away from
 * the edges (within 0.02 pixel, the 6-tap Lanczos-3 weights' own first moment at worst, plus
 * 1 for rounding), the other axis is untouched, a window outside the picture is refused. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "develop/stretch.h"

static void sizes(void **state)
{
    (void)state;
    uint32_t w, h, num, den;
    mp_raw_capture c = {.present = 1, .binning_x = 3, .binning_y = 1, .skipping_y = 4};
    assert_true(mp_develop_stretch_size(&c, 1280, 432, &w, &h, &num, &den));   /* 720p */
    assert_int_equal(w, 1280);
    assert_int_equal(h, 720);
    assert_int_equal(num, 3);
    assert_int_equal(den, 5);
    c = (mp_raw_capture){.present = 1, .binning_x = 3, .binning_y = 3};        /* 5D3 1080p */
    assert_false(mp_develop_stretch_size(&c, 1920, 1080, &w, &h, &num, &den));
    assert_int_equal(h, 1080);
    c = (mp_raw_capture){.present = 1, .binning_x = 3, .binning_y = 1, .skipping_y = 2};
    assert_false(mp_develop_stretch_size(&c, 1920, 1080, &w, &h, &num, &den));  /* 1080p */
    c = (mp_raw_capture){.present = 1, .binning_x = 3, .binning_y = 1};        /* 3x1 */
    assert_true(mp_develop_stretch_size(&c, 1000, 800, &w, &h, &num, &den));
    assert_int_equal(w, 3000);
    assert_int_equal(h, 800);
    assert_int_equal(num, 3);
    assert_int_equal(den, 1);
    c.present = 0;
    assert_false(mp_develop_stretch_size(&c, 1000, 800, &w, &h, &num, &den));
}

/* in: a picture of w x h with a 2-pixel border; R constant, G a ramp along the stretched
 * axis, B a ramp along the other axis. */
static void ramps(int vertical)
{
    const uint32_t w = 64, h = 48, W = w + 4, H = h + 4;
    const uint32_t ow = vertical ? w : 3 * w, oh = vertical ? h * 5 / 3 : h;
    develop_rgb in = {0}, out = {0};
    in.plane[0] = calloc(3 * (size_t)W * H, sizeof *in.plane[0]);
    assert_non_null(in.plane[0]);
    in.plane[1] = in.plane[0] + (size_t)W * H;
    in.plane[2] = in.plane[1] + (size_t)W * H;
    in.width = W;
    in.height = H;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            size_t i = (size_t)(y + 2) * W + x + 2;
            uint32_t along = vertical ? y : x, across = vertical ? x : y;
            in.plane[0][i] = 40000;
            in.plane[1][i] = (uint16_t)(1000 + 600 * along);
            in.plane[2][i] = (uint16_t)(500 + 900 * across);
        }
    develop_stretch s;
    mp_error err = {0};
    assert_int_equal(mp_develop_stretch_make(&s, w, h, ow, oh, &err), MP_OK);
    assert_int_equal(mp_develop_stretch_apply(&s, &in, 2, 2, &out, &err), MP_OK);
    assert_int_equal(out.width, ow);
    assert_int_equal(out.height, oh);
    const double scale = vertical ? (double)oh / h : (double)ow / w;
    const uint32_t n = vertical ? oh : ow;
    double worst = 0;
    for (uint32_t y = 0; y < oh; y++)
        for (uint32_t x = 0; x < ow; x++) {
            size_t i = (size_t)y * ow + x;
            uint32_t o = vertical ? y : x, across = vertical ? x : y;
            assert_int_equal(out.plane[0][i], 40000);
            assert_int_equal(out.plane[2][i], 500 + 900 * across);
            if (o < 3 * scale || o >= n - 3 * scale)
                continue;   /* the edge repeats: no ramp there */
            double at = (o + 0.5) / scale - 0.5;
            double e = fabs(out.plane[1][i] - (1000 + 600 * at));
            if (e > worst) worst = e;
        }
    printf("ramp of 600 per pixel: largest error %.2f\n", worst);
    assert_true(worst <= 0.02 * 600 + 1);
    assert_int_equal(mp_develop_stretch_apply(&s, &in, 5, 5, &out, &err), MP_ERR_ARG);
    mp_develop_stretch_free(&s);
    assert_int_equal(mp_develop_stretch_make(&s, w, h, w, h, &err), MP_ERR_ARG);
    mp_develop_rgb_free(&out);
    free(in.plane[0]);
}

static void vertical_ramp(void **state)
{
    (void)state;
    ramps(1);
}

static void horizontal_ramp(void **state)
{
    (void)state;
    ramps(0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes),
        cmocka_unit_test(vertical_ramp),
        cmocka_unit_test(horizontal_ramp),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
