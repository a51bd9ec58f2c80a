/* mp_color_tags_for: libavutil's colour tags for each output gamut and curve. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "movie/color_tags.h"

static void colour_tags_follow_gamut_and_curve(void **state)
{
    (void)state;
    static const struct {
        mp_gamut gamut;
        mp_curve curve;
        enum AVColorPrimaries pri;
        enum AVColorTransferCharacteristic trc;
        enum AVColorSpace yuv;
    } cases[] = {
        {MP_GAMUT_REC709, MP_CURVE_BT709, AVCOL_PRI_BT709, AVCOL_TRC_BT709,
         AVCOL_SPC_BT709},
        {MP_GAMUT_REC709, MP_CURVE_LINEAR, AVCOL_PRI_BT709, AVCOL_TRC_LINEAR,
         AVCOL_SPC_BT709},
        {MP_GAMUT_REC2020, MP_CURVE_BT709, AVCOL_PRI_BT2020, AVCOL_TRC_BT2020_10,
         AVCOL_SPC_BT2020_NCL},
        {MP_GAMUT_REC2020, MP_CURVE_LOGC3, AVCOL_PRI_BT2020, AVCOL_TRC_UNSPECIFIED,
         AVCOL_SPC_BT2020_NCL},
        {MP_GAMUT_ACES_AP0, MP_CURVE_LINEAR, AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_LINEAR,
         AVCOL_SPC_BT709},
        {MP_GAMUT_REC709, MP_CURVE_SLOG3, AVCOL_PRI_BT709, AVCOL_TRC_UNSPECIFIED,
         AVCOL_SPC_BT709},
        {MP_GAMUT_REC709, MP_CURVE_SRGB, AVCOL_PRI_BT709, AVCOL_TRC_IEC61966_2_1,
         AVCOL_SPC_BT709},
        {MP_GAMUT_REC2020, MP_CURVE_LINEAR, AVCOL_PRI_BT2020, AVCOL_TRC_LINEAR,
         AVCOL_SPC_BT2020_NCL},
        {MP_GAMUT_AWG4, MP_CURVE_LOGC4, AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED,
         AVCOL_SPC_BT709},
        {MP_GAMUT_DWG, MP_CURVE_DAVINCI, AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED,
         AVCOL_SPC_BT709},
        {MP_GAMUT_ACES_AP1, MP_CURVE_ACESCCT, AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED,
         AVCOL_SPC_BT709},
        {MP_GAMUT_VGAMUT, MP_CURVE_VLOG, AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED,
         AVCOL_SPC_BT709},
        {MP_GAMUT_CINEMA, MP_CURVE_CLOG3, AVCOL_PRI_UNSPECIFIED, AVCOL_TRC_UNSPECIFIED,
         AVCOL_SPC_BT709},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mp_color_tags t = mp_color_tags_for(cases[i].gamut, cases[i].curve);
        assert_int_equal(t.primaries, cases[i].pri);
        assert_int_equal(t.transfer, cases[i].trc);
        assert_int_equal(t.yuv_matrix, cases[i].yuv);
        assert_int_equal(t.matrix, AVCOL_SPC_RGB);
        assert_int_equal(t.range, AVCOL_RANGE_JPEG);
        assert_non_null(t.primaries_name);
        assert_non_null(t.transfer_name);
    }
    mp_color_tags t = mp_color_tags_for(MP_GAMUT_ACES_AP0, MP_CURVE_LOGC3);
    assert_string_equal(t.transfer_name, "ARRI LogC3 (EI 800)");
    assert_string_equal(t.primaries_name, "ACES AP0");
    t = mp_color_tags_for(MP_GAMUT_CINEMA, MP_CURVE_CLOG3);
    assert_string_equal(t.transfer_name, "Canon Log 3");
    assert_string_equal(t.primaries_name, "Canon Cinema Gamut");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(colour_tags_follow_gamut_and_curve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
