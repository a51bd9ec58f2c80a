/* White balance as Magic Lantern records it (common/mp_white) and the camera colour table
 * (common/mp_camera_color): the Kelvin and custom neutrals of mlv_dump's reference DNGs in
 * the peer samples (AsShotNeutral 0.4800680544 1 0.6365137379 and 1781/1024 1 1575/1024),
 * the preset modes, the direction and size of Canon's white-balance shifts, and the table's
 * lookup by model id, by name, and the RAWI fallback. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "common/mp_camera_color.h"
#include "common/mp_white.h"

static const mp_camera eos_5d3 = {.present = 1, .name = "Canon EOS 5D Mark III",
                                  .model = 0x80000285};

static mp_color_calib calib_5d3(void)
{
    mp_color_calib cal;
    assert_int_equal(mp_color_calib_resolve(&eos_5d3, NULL, &cal), 2);
    return cal;
}

static void assert_neutral(const double n[3], double r, double b, double tol)
{
    if (fabs(n[0] - r) > tol || n[1] != 1.0 || fabs(n[2] - b) > tol)
        fail_msg("neutral %.10f %.10f %.10f, expected %.10f 1 %.10f (tolerance %g)", n[0], n[1],
                 n[2], r, b, tol);
}

/* wb_kelvin_mlvdump_000000.dng and wb_custom_mlvdump_000000.dng (mlv_dump) */
static void kelvin_and_custom_match_mlv_dump(void **state)
{
    (void)state;
    mp_color_calib cal = calib_5d3();
    mp_white_balance wb = {.present = 1, .mode = MP_WB_MODE_KELVIN, .kelvin = 5500,
                           .gain_r = 1781, .gain_g = 1024, .gain_b = 1575};
    double n[3];
    assert_true(mp_wb_as_shot_neutral(&wb, &cal, n));
    assert_neutral(n, 0.4800680544, 0.6365137379, 1e-6);
    wb.mode = MP_WB_MODE_CUSTOM;
    assert_true(mp_wb_as_shot_neutral(&wb, &cal, n));
    assert_neutral(n, 1781 / 1024.0, 1575 / 1024.0, 1e-12);
    /* custom gains of zero give no neutral, nor does a clip without WBAL */
    wb.gain_b = 0;
    assert_false(mp_wb_as_shot_neutral(&wb, &cal, n));
    wb.present = 0;
    assert_false(mp_wb_as_shot_neutral(&wb, &cal, n));
}

/* The gains count only in custom mode; presets are mlv_dump's temperatures. */
static void preset_modes_use_their_kelvin(void **state)
{
    (void)state;
    mp_color_calib cal = calib_5d3();
    static const struct { uint32_t mode; double kelvin; } presets[] = {
        {MP_WB_MODE_SUNNY, 5500}, {MP_WB_MODE_SHADE, 7000}, {MP_WB_MODE_CLOUDY, 6000},
        {MP_WB_MODE_TUNGSTEN, 3200}, {MP_WB_MODE_FLUORESCENT, 4000}, {MP_WB_MODE_FLASH, 5500},
        {MP_WB_MODE_AUTO, 4321}, {MP_WB_MODE_KELVIN, 4321}};
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        mp_white_balance wb = {.present = 1, .mode = presets[i].mode, .kelvin = 4321,
                               .gain_r = 3000, .gain_g = 1024, .gain_b = 100};
        double got[3], want[3];
        assert_true(mp_wb_as_shot_neutral(&wb, &cal, got));
        assert_true(mp_wb_kelvin_neutral(&cal, presets[i].kelvin, 0, 0, want));
        assert_neutral(got, want[0], want[2], 1e-12);
    }
    /* warmer light: more red, less blue in the camera's response to white */
    double warm[3], cool[3];
    assert_true(mp_wb_kelvin_neutral(&cal, 3200, 0, 0, warm));
    assert_true(mp_wb_kelvin_neutral(&cal, 7000, 0, 0, cool));
    assert_true(warm[0] > cool[0] && warm[2] < cool[2]);
    /* a Kelvin of 0 (or absurd) is not a white */
    mp_white_balance zero = {.present = 1, .mode = MP_WB_MODE_KELVIN, .kelvin = 0};
    assert_false(mp_wb_as_shot_neutral(&zero, &cal, warm));
}

/* Amber = a warmer picture = a white 5 mired bluer per level; green = a greener picture =
 * a more magenta white (less green response); levels beyond +-9 are clamped. */
static void white_balance_shifts(void **state)
{
    (void)state;
    mp_color_calib cal = calib_5d3();
    double base[3], amber[3], same[3], green[3], magenta[3];
    assert_true(mp_wb_kelvin_neutral(&cal, 5500, 0, 0, base));
    assert_true(mp_wb_kelvin_neutral(&cal, 5500, 0, 2, amber));
    assert_true(mp_wb_kelvin_neutral(&cal, 1e6 / (1e6 / 5500 - 10), 0, 0, same));
    assert_neutral(amber, same[0], same[2], 1e-12);
    assert_true(amber[0] < base[0] && amber[2] > base[2]);
    assert_true(mp_wb_kelvin_neutral(&cal, 5500, 3, 0, green));
    assert_true(mp_wb_kelvin_neutral(&cal, 5500, -3, 0, magenta));
    /* relative to green, a magenta white raises red and blue */
    assert_true(green[0] > base[0] && green[2] > base[2]);
    assert_true(magenta[0] < base[0] && magenta[2] < base[2]);
    /* symmetric to first order, and small: one level is a few percent at most */
    for (int c = 0; c < 3; c += 2) {
        assert_true(fabs((green[c] - base[c]) + (magenta[c] - base[c])) < 0.1 * fabs(green[c] - base[c]));
        assert_true(fabs(green[c] / base[c] - 1) < 3 * 0.05);
    }
    mp_white_balance wb = {.present = 1, .mode = MP_WB_MODE_KELVIN, .kelvin = 5500,
                           .shift_gm = 1000, .shift_ba = -1000};
    double clamped[3], nine[3];
    assert_true(mp_wb_as_shot_neutral(&wb, &cal, clamped));
    assert_true(mp_wb_kelvin_neutral(&cal, 5500, 9, -9, nine));
    assert_neutral(clamped, nine[0], nine[2], 1e-12);
}

/* Every body the issue lists is in the table with both illuminants. */
static void table_covers_ml_video_bodies(void **state)
{
    (void)state;
    static const struct { uint32_t model; const char *name; } bodies[] = {
        {0x80000218, "Canon EOS 5D Mark II"}, {0x80000285, "Canon EOS 5D Mark III"},
        {0x80000349, "Canon EOS 5D Mark IV"}, {0x80000302, "Canon EOS 6D"},
        {0x80000250, "Canon EOS 7D"}, {0x80000261, "Canon EOS 50D"},
        {0x80000287, "Canon EOS 60D"}, {0x80000325, "Canon EOS 70D"},
        {0x80000346, "Canon EOS 100D"}, {0x80000252, "Canon EOS 500D"},
        {0x80000270, "Canon EOS 550D"}, {0x80000286, "Canon EOS 600D"},
        {0x80000301, "Canon EOS 650D"}, {0x80000326, "Canon EOS 700D"},
        {0x80000288, "Canon EOS 1100D"}, {0x80000331, "Canon EOS M"},
        {0x80000355, "Canon EOS M2"}};
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        mp_camera cam = {.present = 1, .model = bodies[i].model};
        mp_color_calib cal;
        assert_int_equal(mp_color_calib_resolve(&cam, NULL, &cal), 2);
        assert_string_equal(cal.table_name, bodies[i].name);
        assert_int_equal(cal.illuminant[0], MP_ILLUMINANT_STANDARD_A);
        assert_int_equal(cal.illuminant[1], MP_ILLUMINANT_D65);
        assert_int_equal(mp_color_calib_daylight_index(&cal), 1);
        /* by name too (IDNT without a known model id) */
        mp_camera named = {.present = 1, .model = 1};
        strcpy(named.name, bodies[i].name);
        assert_int_equal(mp_color_calib_resolve(&named, NULL, &cal), 2);
        /* every body gives a plausible daylight neutral: green strongest */
        double n[3];
        assert_true(mp_wb_kelvin_neutral(&cal, 5500, 0, 0, n));
        assert_true(n[0] > 0.2 && n[0] < 1 && n[2] > 0.2 && n[2] < 1);
    }
}

static void unknown_camera_falls_back_to_rawi(void **state)
{
    (void)state;
    mp_camera other = {.present = 1, .name = "Canon EOS R5", .model = 0x80000421};
    mp_raw_info raw;
    memset(&raw, 0, sizeof raw);
    mp_color_calib cal;
    assert_int_equal(mp_color_calib_resolve(&other, &raw, &cal), 0);   /* all zero */
    double n[3];
    assert_false(mp_wb_kelvin_neutral(&cal, 5500, 0, 0, n));
    static const int32_t d65[9] = {6722, -635, -963, -4287, 12460, 2028, -908, 2162, 5668};
    for (int k = 0; k < 9; k++)
        raw.color_matrix1[k] = (mp_rational){d65[k], 10000};
    raw.calibration_illuminant = MP_ILLUMINANT_DAYLIGHT;
    assert_int_equal(mp_color_calib_resolve(&other, &raw, &cal), 1);
    assert_null(cal.table_name);
    assert_int_equal(cal.illuminant[0], MP_ILLUMINANT_DAYLIGHT);
    /* the same matrix as the 5D Mark III's D65 one gives the same neutral */
    assert_true(mp_wb_kelvin_neutral(&cal, 5500, 0, 0, n));
    assert_neutral(n, 0.4800680544, 0.6365137379, 1e-6);
    raw.color_matrix1[4].den = 0;
    assert_int_equal(mp_color_calib_resolve(NULL, &raw, &cal), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(kelvin_and_custom_match_mlv_dump),
        cmocka_unit_test(preset_modes_use_their_kelvin),
        cmocka_unit_test(white_balance_shifts),
        cmocka_unit_test(table_covers_ml_video_bodies),
        cmocka_unit_test(unknown_camera_falls_back_to_rawi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
