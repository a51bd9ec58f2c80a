/* develop/resample: the scaled sizes (even, aspect kept, fitted into a box), and the
 * separable Lanczos-3: constants stay exact, a linear ramp stays linear away from the edges
 * when halving and when growing, a fine pattern above the new Nyquist rate is filtered out
 * instead of aliasing, a window outside the picture and a shrink beyond 64x are refused. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "develop/resample.h"

static void sizes(void **state)
{
    (void)state;
    uint32_t w, h;
    mp_develop_scaled_size(1920, 1080, 1, 1, 0.5, 0, 0, &w, &h);
    assert_int_equal(w, 960);
    assert_int_equal(h, 540);
    mp_develop_scaled_size(1920, 1080, 1, 1, 1.0 / 3, 0, 0, &w, &h);   /* 640 x 360 */
    assert_int_equal(w, 640);
    assert_int_equal(h, 360);
    mp_develop_scaled_size(1280, 431, 1, 1, 0.5, 0, 0, &w, &h);        /* 215.5 -> even */
    assert_int_equal(w, 640);
    assert_int_equal(h, 216);
    mp_develop_scaled_size(1920, 1080, 1, 1, 0, 1280, 1280, &w, &h);   /* the width fits */
    assert_int_equal(w, 1280);
    assert_int_equal(h, 720);
    mp_develop_scaled_size(1920, 1080, 1, 1, 0, 4000, 540, &w, &h);    /* the height fits */
    assert_int_equal(w, 960);
    assert_int_equal(h, 540);
    /* 5:3 pixels (720p): shown 1280 * 5/3 wide, so a 1280-wide box takes 3/5 of it */
    mp_develop_scaled_size(1280, 432, 5, 3, 0, 1280, 720, &w, &h);
    assert_int_equal(w, 768);
    assert_int_equal(h, 260);
    mp_develop_scaled_size(3, 3, 1, 1, 0.1, 0, 0, &w, &h);             /* at least 2 */
    assert_int_equal(w, 2);
    assert_int_equal(h, 2);
}

/* A w x h picture with a 2-pixel border: R constant, G a ramp of 300 per pixel along x,
 * B a ramp of 200 per pixel along y, resampled to ow x oh from the window. */
static void ramps(uint32_t w, uint32_t h, uint32_t ow, uint32_t oh)
{
    const uint32_t W = w + 4, H = h + 4;
    develop_rgb in = {0}, out = {0};
    in.plane[0] = malloc(3 * (size_t)W * H * sizeof *in.plane[0]);
    assert_non_null(in.plane[0]);
    in.plane[1] = in.plane[0] + (size_t)W * H;
    in.plane[2] = in.plane[1] + (size_t)W * H;
    in.width = W;
    in.height = H;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            size_t i = (size_t)y * W + x;
            in.plane[0][i] = 40000;
            in.plane[1][i] = (uint16_t)(1000 + 300 * (x - 2.0 + 2));
            in.plane[2][i] = (uint16_t)(500 + 200 * (y - 2.0 + 2));
        }
    develop_resample r;
    mp_error err = {0};
    assert_int_equal(mp_develop_resample_make(&r, w, h, ow, oh, &err), MP_OK);
    assert_int_equal(mp_develop_resample_apply(&r, &in, 2, 2, &out, &err), MP_OK);
    assert_int_equal(out.width, ow);
    assert_int_equal(out.height, oh);
    const double sx = (double)ow / w, sy = (double)oh / h;
    const double reach_x = 3 * (sx < 1 ? 1 : sx) + 1, reach_y = 3 * (sy < 1 ? 1 : sy) + 1;
    double worst = 0;
    for (uint32_t y = 0; y < oh; y++)
        for (uint32_t x = 0; x < ow; x++) {
            size_t i = (size_t)y * ow + x;
            assert_int_equal(out.plane[0][i], 40000);
            double ax = (x + 0.5) / sx - 0.5, ay = (y + 0.5) / sy - 0.5;
            if (x >= reach_x && x < ow - reach_x) {
                double e = fabs(out.plane[1][i] - (1000 + 300 * (ax + 2)));
                worst = e > worst ? e : worst;
            }
            if (y >= reach_y && y < oh - reach_y) {
                double e = fabs(out.plane[2][i] - (500 + 200 * (ay + 2)));
                worst = e > worst ? e : worst;
            }
        }
    printf("%ux%u -> %ux%u: ramps of 300 and 200 per pixel, largest error %.2f\n", w, h, ow,
           oh, worst);
    assert_true(worst <= 0.02 * 300 + 1);
    assert_int_equal(mp_develop_resample_apply(&r, &in, 5, 5, &out, &err), MP_ERR_ARG);
    mp_develop_resample_free(&r);
    mp_develop_rgb_free(&out);
    free(in.plane[0]);
}

static void halving(void **state)
{
    (void)state;
    ramps(96, 64, 48, 32);
}

static void growing(void **state)
{
    (void)state;
    ramps(40, 30, 100, 45);
}

/* Columns alternating 10000 / 50000 (the highest frequency) shrunk 3 times: a filter
 * reaching one input pixel would keep a beat between them; Lanczos widened 3x leaves the
 * mean, 30000, within 2 %. */
static void no_aliasing(void **state)
{
    (void)state;
    const uint32_t w = 96, h = 8;
    develop_rgb in = {0}, out = {0};
    in.plane[0] = malloc(3 * (size_t)w * h * sizeof *in.plane[0]);
    assert_non_null(in.plane[0]);
    in.plane[1] = in.plane[0] + (size_t)w * h;
    in.plane[2] = in.plane[1] + (size_t)w * h;
    in.width = w;
    in.height = h;
    for (size_t i = 0; i < 3 * (size_t)w * h; i++)
        in.plane[0][i] = (i % w) % 2 ? 50000 : 10000;
    develop_resample r;
    mp_error err = {0};
    assert_int_equal(mp_develop_resample_make(&r, w, h, w / 3, h, &err), MP_OK);
    assert_int_equal(mp_develop_resample_apply(&r, &in, 0, 0, &out, &err), MP_OK);
    for (uint32_t x = 3; x < w / 3 - 3; x++)
        assert_true(abs((int)out.plane[1][x] - 30000) < 600);
    mp_develop_resample_free(&r);
    assert_int_equal(mp_develop_resample_make(&r, 6500, 10, 100, 10, &err), MP_ERR_ARG);
    mp_develop_rgb_free(&out);
    free(in.plane[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes),
        cmocka_unit_test(halving),
        cmocka_unit_test(growing),
        cmocka_unit_test(no_aliasing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
