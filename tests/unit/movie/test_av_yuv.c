/* RGB -> 10-bit (and 8-bit) Y'CbCr: published colour-bar values, ranges, grey neutrality, agreement with
 * the double-precision formula everywhere, 4:2:2 siting and filter, the rows equal to the header's
 * integer sums bit for bit (every matrix, range, depth; extremes and odd widths), bad matrices. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <libavutil/pixdesc.h>

#include "movie/av_yuv.h"

static void convert1(enum AVColorSpace m, enum AVColorRange range, uint16_t r, uint16_t g,
                     uint16_t b, uint16_t out[3])
{
    mp_av_yuv_coeffs c;
    mp_error err;
    assert_int_equal(mp_av_yuv_init(&c, m, range, &err), MP_OK);
    mp_av_yuv_row_444(&c, &r, &g, &b, 1, &out[0], &out[1], &out[2]);
}

static void expect(enum AVColorSpace m, enum AVColorRange range, uint16_t r, uint16_t g,
                   uint16_t b, int y, int cb, int cr)
{
    uint16_t o[3];
    convert1(m, range, r, g, b, o);
    if (o[0] != y || o[1] != cb || o[2] != cr)
        fail_msg("%s %s RGB %u,%u,%u -> %u,%u,%u, expected %d,%d,%d", av_color_space_name(m),
                 av_color_range_name(range), r, g, b, o[0], o[1], o[2], y, cb, cr);
}

/* 100% colour bars in 10-bit BT.709 limited range (SMPTE RP 219 / ITU-R BT.709 tables). */
static void test_bt709_bars(void **state)
{
    (void)state;
    const enum AVColorSpace m = AVCOL_SPC_BT709;
    const enum AVColorRange tv = AVCOL_RANGE_MPEG;
    expect(m, tv, 65535, 65535, 65535, 940, 512, 512);
    expect(m, tv, 0, 0, 0, 64, 512, 512);
    expect(m, tv, 65535, 0, 0, 250, 409, 960);
    expect(m, tv, 0, 65535, 0, 691, 167, 105);
    expect(m, tv, 0, 0, 65535, 127, 960, 471);
    expect(m, tv, 65535, 65535, 0, 877, 64, 553);     /* yellow */
    expect(m, tv, 0, 65535, 65535, 754, 615, 64);     /* cyan */
    expect(m, tv, 65535, 0, 65535, 313, 857, 919);    /* magenta */
    /* Unspecified means BT.709 limited. */
    expect(AVCOL_SPC_UNSPECIFIED, AVCOL_RANGE_UNSPECIFIED, 65535, 0, 0, 250, 409, 960);
}

/* The same bars at 8 bits (DNxHR HQ): the published 8-bit BT.709 values; full range. */
static void expect8(enum AVColorRange range, uint16_t r, uint16_t g, uint16_t b, int y, int cb,
                    int cr)
{
    mp_av_yuv_coeffs c;
    uint16_t o[3];
    assert_int_equal(mp_av_yuv_init_bits(&c, AVCOL_SPC_BT709, range, 8, NULL), MP_OK);
    mp_av_yuv_row_444(&c, &r, &g, &b, 1, &o[0], &o[1], &o[2]);
    if (o[0] != y || o[1] != cb || o[2] != cr)
        fail_msg("8-bit %s RGB %u,%u,%u -> %u,%u,%u, expected %d,%d,%d",
                 av_color_range_name(range), r, g, b, o[0], o[1], o[2], y, cb, cr);
}

static void test_bt709_bars_8bit(void **state)
{
    (void)state;
    const enum AVColorRange tv = AVCOL_RANGE_MPEG;
    expect8(tv, 65535, 65535, 65535, 235, 128, 128);
    expect8(tv, 0, 0, 0, 16, 128, 128);
    expect8(tv, 65535, 0, 0, 63, 102, 240);
    expect8(tv, 0, 65535, 0, 173, 42, 26);
    expect8(tv, 0, 0, 65535, 32, 240, 118);
    expect8(tv, 65535, 65535, 0, 219, 16, 138);
    expect8(tv, 0, 65535, 65535, 188, 154, 16);
    expect8(tv, 65535, 0, 65535, 78, 214, 230);
    expect8(AVCOL_RANGE_JPEG, 65535, 65535, 65535, 255, 128, 128);
    expect8(AVCOL_RANGE_JPEG, 0, 0, 0, 0, 128, 128);
    mp_av_yuv_coeffs c;
    mp_error err;
    assert_int_equal(mp_av_yuv_init_bits(&c, AVCOL_SPC_BT709, tv, 12, &err), MP_ERR_UNSUPPORTED);
}

static void test_bt2020_and_601(void **state)
{
    (void)state;
    /* Y = 64 + 876 Kr, Cb = 512 - 448 Kr / (1 - Kb), Cr = 960 for pure red. */
    expect(AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, 65535, 0, 0, 294, 387, 960);
    expect(AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, 0, 65535, 0, 658, 189, 100);
    expect(AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, 0, 0, 65535, 116, 960, 476);
    expect(AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG, 65535, 0, 0, 326, 361, 960);
    expect(AVCOL_SPC_BT470BG, AVCOL_RANGE_MPEG, 65535, 0, 0, 326, 361, 960);
}

static void test_full_range(void **state)
{
    (void)state;
    const enum AVColorSpace m = AVCOL_SPC_BT709;
    const enum AVColorRange pc = AVCOL_RANGE_JPEG;
    expect(m, pc, 65535, 65535, 65535, 1023, 512, 512);
    expect(m, pc, 0, 0, 0, 0, 512, 512);
    /* Red: Y = 1023 * 0.2126 = 217.5 -> 217 (217.49), Cr = 512 + 511.5 clipped to 1023. */
    expect(m, pc, 65535, 0, 0, 217, 395, 1023);
    /* Blue: Cb = 1023.5 clipped to 1023; yellow: Cb = 0.5 exactly, a tie: 0 or 1. */
    expect(m, pc, 0, 0, 65535, 74, 1023, 465);
    uint16_t o[3];
    convert1(m, pc, 65535, 65535, 0, o);
    assert_int_equal(o[0], 949);
    assert_in_range(o[1], 0, 1);
    assert_int_equal(o[2], 559);
}

/* Every grey is neutral (chroma 512) and luma is monotonic in the grey level. */
static void test_greys(void **state)
{
    (void)state;
    mp_av_yuv_coeffs c;
    assert_int_equal(mp_av_yuv_init(&c, AVCOL_SPC_BT2020_NCL, AVCOL_RANGE_MPEG, NULL), MP_OK);
    uint16_t prev = 0;
    for (uint32_t v = 0; v <= 65535; v += 7) {
        uint16_t r = (uint16_t)v, y, cb, cr;
        mp_av_yuv_row_444(&c, &r, &r, &r, 1, &y, &cb, &cr);
        if (cb != 512 || cr != 512)
            fail_msg("grey %u -> chroma %u,%u", v, cb, cr);
        assert_true(y >= prev);
        prev = y;
        /* Nearest code: round(64 + 876 v / 65535). */
        assert_int_equal(y, (uint16_t)floor(64 + 876.0 * v / 65535.0 + 0.5));
    }
}

/* The integer path equals round() of the exact formula (ties aside) over a pseudo-random set. */
static void test_matches_formula(void **state)
{
    (void)state;
    const enum AVColorSpace ms[] = {AVCOL_SPC_BT709, AVCOL_SPC_BT2020_NCL, AVCOL_SPC_SMPTE170M};
    const double krs[] = {0.2126, 0.2627, 0.299}, kbs[] = {0.0722, 0.0593, 0.114};
    for (int range = 0; range < 2; range++)
        for (int mi = 0; mi < 3; mi++) {
            mp_av_yuv_coeffs c;
            enum AVColorRange rg = range ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG;
            assert_int_equal(mp_av_yuv_init(&c, ms[mi], rg, NULL), MP_OK);
            double kr = krs[mi], kb = kbs[mi], kg = 1 - kr - kb;
            double ys = range ? 1023 : 876, cs = range ? 1023 : 896, y0 = range ? 0 : 64;
            uint32_t seed = 12345;
            for (int i = 0; i < 200000; i++) {
                uint16_t rgb[3], o[3];
                for (int k = 0; k < 3; k++) {
                    seed = seed * 1664525u + 1013904223u;
                    rgb[k] = (uint16_t)(seed >> 16);
                }
                mp_av_yuv_row_444(&c, &rgb[0], &rgb[1], &rgb[2], 1, &o[0], &o[1], &o[2]);
                double r = rgb[0] / 65535.0, g = rgb[1] / 65535.0, b = rgb[2] / 65535.0;
                double yy = kr * r + kg * g + kb * b;
                double want[3] = {y0 + ys * yy, 512 + cs * (b - yy) / (2 * (1 - kb)),
                                  512 + cs * (r - yy) / (2 * (1 - kr))};
                for (int k = 0; k < 3; k++) {
                    double w = want[k] < c.min ? c.min : want[k] > c.max ? c.max : want[k];
                    if (fabs(o[k] - w) > 0.5 + 1e-6)
                        fail_msg("%s range %d RGB %u,%u,%u component %d: %u vs %.4f",
                                 av_color_space_name(ms[mi]), range, rgb[0], rgb[1], rgb[2],
                                 k, o[k], w);
                }
            }
        }
}

/* 4:2:2: luma as 4:4:4; chroma at even x is [1 2 1]/4 of the 4:4:4 chroma (edges repeat). */
static void test_422_filter(void **state)
{
    (void)state;
    mp_av_yuv_coeffs c;
    assert_int_equal(mp_av_yuv_init(&c, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, NULL), MP_OK);
    enum { W = 7 };
    /* Black | red step between x = 2 and 3. */
    uint16_t r[W] = {0, 0, 0, 65535, 65535, 65535, 65535}, z[W] = {0};
    uint16_t y[W], cb[4], cr[4], y4[W], cb4[W], cr4[W];
    mp_av_yuv_row_422(&c, r, z, z, W, y, cb, cr);
    mp_av_yuv_row_444(&c, r, z, z, W, y4, cb4, cr4);
    assert_memory_equal(y, y4, sizeof y);
    /* x=0: all black; x=2: (0 + 0 + red)/4; x=4: red; x=6: red (right edge repeats). */
    assert_int_equal(cr[0], 512);
    assert_int_equal(cr[1], 512 + (int)floor(448.0 / 4 + 0.5));   /* 624 */
    assert_int_equal(cr[2], 960);
    assert_int_equal(cr[3], 960);
    assert_int_equal(cb[0], 512);
    assert_int_equal(cb[2], 409);
    assert_int_equal(cb[1], (int)floor(512 - 896 * 0.2126 / 1.8556 / 4 + 0.5));   /* 486 */
    /* A flat row gives the 4:4:4 chroma. */
    uint16_t fr[W], fg[W], fb[W];
    for (int i = 0; i < W; i++) {
        fr[i] = 40000;
        fg[i] = 20000;
        fb[i] = 5000;
    }
    mp_av_yuv_row_422(&c, fr, fg, fb, W, y, cb, cr);
    mp_av_yuv_row_444(&c, fr, fg, fb, W, y4, cb4, cr4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(cb[i], cb4[0]);
        assert_int_equal(cr[i], cr4[0]);
    }
}

/* The header's arithmetic in int64, written out here as the oracle: (k . rgb + offset) >> 40,
 * 4:2:2 chroma ((k . [1 2 1] sums + 4 offset) >> 2) >> 40 with the ends repeated, clipped. */
static uint16_t oracle(const mp_av_yuv_coeffs *c, const int64_t k[3], int64_t offset,
                       int64_t r, int64_t g, int64_t b, int shift)
{
    int64_t q = ((k[0] * r + k[1] * g + k[2] * b + (offset << shift)) >> shift) >> 40;
    return (uint16_t)(q < c->min ? c->min : q > c->max ? c->max : q);
}

static void test_rows_exact(void **state)
{
    (void)state;
    const enum AVColorSpace ms[] = {AVCOL_SPC_BT709, AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT470BG};
    enum { W = 67 };
    uint32_t seed = 777;
    for (int bits = 8; bits <= 10; bits += 2)
        for (int range = 0; range < 2; range++)
            for (int mi = 0; mi < 3; mi++) {
                mp_av_yuv_coeffs c;
                assert_int_equal(mp_av_yuv_init_bits(&c, ms[mi], range ? AVCOL_RANGE_JPEG
                                                                   : AVCOL_RANGE_MPEG,
                                                     bits, NULL), MP_OK);
                for (int round = 0; round < 400; round++) {
                    uint16_t p[3][W];
                    for (int k = 0; k < 3; k++)
                        for (int x = 0; x < W; x++) {
                            seed = seed * 1664525u + 1013904223u;
                            /* a third of the samples at the extremes */
                            uint16_t v = (uint16_t)(seed >> 16);
                            p[k][x] = seed % 3 ? v : (seed >> 8) & 1 ? 65535 : 0;
                        }
                    uint32_t w = 1 + (uint32_t)round % W;
                    uint16_t y[W], cb[W], cr[W];
                    mp_av_yuv_row_444(&c, p[0], p[1], p[2], w, y, cb, cr);
                    for (uint32_t x = 0; x < w; x++) {
                        assert_int_equal(y[x], oracle(&c, c.y, c.y_offset, p[0][x], p[1][x],
                                                      p[2][x], 0));
                        assert_int_equal(cb[x], oracle(&c, c.cb, c.c_offset, p[0][x],
                                                       p[1][x], p[2][x], 0));
                        assert_int_equal(cr[x], oracle(&c, c.cr, c.c_offset, p[0][x],
                                                       p[1][x], p[2][x], 0));
                    }
                    mp_av_yuv_row_422(&c, p[0], p[1], p[2], w, y, cb, cr);
                    for (uint32_t x = 0; x < w; x += 2) {
                        uint32_t l = x ? x - 1 : 0, rt = x + 1 < w ? x + 1 : x;
                        int64_t s[3];
                        for (int k = 0; k < 3; k++)
                            s[k] = (int64_t)p[k][l] + 2 * p[k][x] + p[k][rt];
                        assert_int_equal(y[x], oracle(&c, c.y, c.y_offset, p[0][x], p[1][x],
                                                      p[2][x], 0));
                        if (x + 1 < w)
                            assert_int_equal(y[x + 1], oracle(&c, c.y, c.y_offset, p[0][x + 1],
                                                              p[1][x + 1], p[2][x + 1], 0));
                        assert_int_equal(cb[x / 2],
                                         oracle(&c, c.cb, c.c_offset, s[0], s[1], s[2], 2));
                        assert_int_equal(cr[x / 2],
                                         oracle(&c, c.cr, c.c_offset, s[0], s[1], s[2], 2));
                    }
                }
            }
}

static void test_bad_args(void **state)
{
    (void)state;
    mp_av_yuv_coeffs c;
    mp_error err;
    assert_int_equal(mp_av_yuv_init(&c, AVCOL_SPC_RGB, AVCOL_RANGE_MPEG, &err), MP_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "gbr"));
    assert_int_equal(mp_av_yuv_init(&c, AVCOL_SPC_BT2020_CL, AVCOL_RANGE_MPEG, &err),
                     MP_ERR_UNSUPPORTED);
    assert_int_equal(mp_av_yuv_init(&c, AVCOL_SPC_BT709, (enum AVColorRange)7, &err),
                     MP_ERR_UNSUPPORTED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bt709_bars),
        cmocka_unit_test(test_bt709_bars_8bit),
        cmocka_unit_test(test_bt2020_and_601),
        cmocka_unit_test(test_full_range),
        cmocka_unit_test(test_greys),
        cmocka_unit_test(test_matches_formula),
        cmocka_unit_test(test_422_filter),
        cmocka_unit_test(test_rows_exact),
        cmocka_unit_test(test_bad_args),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
