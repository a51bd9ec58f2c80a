/* The curves and gamuts (common/mp_curves.c, mp_gamuts.c, mp_color_math.c) against the values
 * their makers publish (doc/colour.md names each source): the code values of 18 % grey and
 * of black, and each gamut's RGB -> XYZ matrix (which the primaries and white make) or, where
 * the maker gives no matrix, the chromaticities the matrix takes the primaries back to. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/mp_color.h"
#include "common/mp_color_math.h"

static void curves_give_published_code_values(void **state)
{
    (void)state;
    static const struct {
        mp_curve curve;
        double x, code, tolerance;
    } known[] = {
        /* ACES S-2016-001: black 0.0729055341958355, 18 % grey 0.4135884 */
        {MP_CURVE_ACESCCT, 0.0, 0.0729055341958355, 1e-12},
        {MP_CURVE_ACESCCT, 0.18, 0.4135884, 1e-7},
        {MP_CURVE_ACESCCT, 0.0078125, (log2(0.0078125) + 9.72) / 17.52, 1e-9}, /* the join */
        /* Blackmagic, DaVinci Wide Gamut Intermediate: black 0, 18 % grey 0.336043 */
        {MP_CURVE_DAVINCI, 0.0, 0.0, 1e-12},
        {MP_CURVE_DAVINCI, 0.18, 0.336043, 1e-6},
        {MP_CURVE_DAVINCI, 100.0, 1.0, 2e-4},          /* "100.0 linear is 1.0" */
        /* ARRI LogC4 specification: black 95 / 1023, 18 % grey 0.278396 (10 bit: 284.8) */
        {MP_CURVE_LOGC4, 0.0, 95.0 / 1023.0, 1e-9},
        {MP_CURVE_LOGC4, 0.18, 0.278396, 1e-5},
        /* Panasonic V-Log/V-Gamut reference manual: black 128 / 1023 (0.125 of the range),
         * 18 % grey 433 / 1023 (0.423311), 90 % white 602 / 1023 */
        {MP_CURVE_VLOG, 0.0, 0.125, 1e-9},
        {MP_CURVE_VLOG, 0.18, 0.423311, 1e-6},
        {MP_CURVE_VLOG, 0.9, 602.0 / 1023.0, 5e-4},
        /* Canon Log 3 (Canon's input transform v1, 10-bit code / 1023): black 12.5 %,
         * 18 % grey 34.3 % (0.343389) */
        {MP_CURVE_CLOG3, 0.0, 0.12512219, 1e-8},
        {MP_CURVE_CLOG3, 0.18, 0.343389, 1e-6},
        /* IEC 61966-2-1: the join at 0.0031308 -> 0.04045, 18 % grey 0.461356 */
        {MP_CURVE_SRGB, 0.0, 0.0, 1e-12},
        {MP_CURVE_SRGB, 0.0031308, 0.040450, 1e-6},
        {MP_CURVE_SRGB, 0.18, 0.461356, 1e-6},
        {MP_CURVE_SRGB, 1.0, 1.0, 1e-12},
        /* the curves of before, held where they were; ARRI's LogC3 (EI 800) black is
         * 0.092809, Sony's S-Log3 black 95 / 1023 */
        {MP_CURVE_LOGC3, 0.0, 0.092809, 1e-6},
        {MP_CURVE_LOGC3, 0.18, 0.391007, 1e-5},
        {MP_CURVE_SLOG3, 0.0, 95.0 / 1023.0, 1e-9},
        {MP_CURVE_SLOG3, 0.18, 420.0 / 1023.0, 1e-6},
        {MP_CURVE_BT709, 0.0, 0.0, 1e-12},
        {MP_CURVE_BT709, 0.18, 0.409008, 1e-6},
        {MP_CURVE_LINEAR, 0.0, 0.0, 0},
        {MP_CURVE_LINEAR, 0.18, 0.18, 0},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        double got = mp_curve_eval(known[i].curve, known[i].x);
        if (!(fabs(got - known[i].code) <= known[i].tolerance))
            fail_msg("%s at %g: %.9f, published %.9f", mp_curve_name(known[i].curve),
                     known[i].x, got, known[i].code);
    }
    /* every curve rises, is continuous at its joins (no step above 1e-4 in a fine sweep)
     * and takes negatives as 0 */
    for (int c = 0; c < MP_CURVE_COUNT; c++) {
        double prev = mp_curve_eval((mp_curve)c, 0);
        assert_true(mp_curve_eval((mp_curve)c, -1) == prev);
        for (int k = 1; k <= 20000; k++) {
            double y = mp_curve_eval((mp_curve)c, k * 1e-4);
            assert_true(y > prev && y - prev < 2e-3);
            prev = y;
        }
    }
}

static void gamuts_give_published_matrices(void **state)
{
    (void)state;
    static const struct {
        mp_gamut gamut;
        double m[3][3];
    } known[] = {
        /* SMPTE ST 2065-1 / ACES TB-2014-004 */
        {MP_GAMUT_ACES_AP0, {{0.9525523959, 0.0, 0.0000936786},
                             {0.3439664498, 0.7281660966, -0.0721325464},
                             {0.0, 0.0, 1.0088251844}}},
        {MP_GAMUT_ACES_AP1, {{0.6624541811, 0.1340042065, 0.1561876870},
                             {0.2722287168, 0.6740817658, 0.0536895174},
                             {-0.0055746495, 0.0040607335, 1.0103391003}}},
        /* ARRI LogC4 specification, AWG4 to XYZ */
        {MP_GAMUT_AWG4, {{0.704858320407232, 0.129760295170463, 0.115837311473976},
                         {0.254524176404027, 0.781477732712002, -0.036001909116029},
                         {0.0, 0.0, 1.089057750759878}}},
        /* Blackmagic, DaVinci Wide Gamut to XYZ */
        {MP_GAMUT_DWG, {{0.70062239, 0.14877482, 0.10105872},
                        {0.27411851, 0.87363190, -0.14775041},
                        {-0.09896291, -0.13789533, 1.32591599}}},
        /* Panasonic V-Gamut to XYZ */
        {MP_GAMUT_VGAMUT, {{0.679644, 0.152211, 0.118600},
                           {0.260686, 0.774894, -0.035580},
                           {-0.009310, -0.004612, 1.102980}}},
        /* ITU-R BT.709 */
        {MP_GAMUT_REC709, {{0.4124, 0.3576, 0.1805},
                           {0.2126, 0.7152, 0.0722},
                           {0.0193, 0.1192, 0.9505}}},
        /* ITU-R BT.2020 (its Y row is the recommendation's luma coefficients 0.2627,
         * 0.6780, 0.0593) */
        {MP_GAMUT_REC2020, {{0.6369580, 0.1446169, 0.1688810},
                            {0.2627002, 0.6779981, 0.0593017},
                            {0.0000000, 0.0280727, 1.0609851}}},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        double white[3];
        mat3 m = mp_gamut_rgb_to_xyz(known[i].gamut, white);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                if (!(fabs(m.m[r][c] - known[i].m[r][c]) < 2e-4))
                    fail_msg("%s [%d][%d]: %.7f, published %.7f", mp_gamut_name(known[i].gamut),
                             r, c, m.m[r][c], known[i].m[r][c]);
    }
    /* Canon publishes Cinema Gamut as chromaticities only (Canon "Cinema Gamut" white paper):
     * the matrix must take each primary and white back to them */
    static const double cinema[4][2] = {{0.740, 0.270}, {0.170, 1.140}, {0.080, -0.100},
                                        {0.3127, 0.3290}};
    double white[3];
    mat3 m = mp_gamut_rgb_to_xyz(MP_GAMUT_CINEMA, white);
    for (int k = 0; k < 4; k++) {
        double rgb[3] = {k == 0 || k == 3, k == 1 || k == 3, k == 2 || k == 3}, xyz[3];
        mp_mat3_apply(&m, rgb, xyz);
        double sum = xyz[0] + xyz[1] + xyz[2];
        assert_true(fabs(xyz[0] / sum - cinema[k][0]) < 1e-9);
        assert_true(fabs(xyz[1] / sum - cinema[k][1]) < 1e-9);
    }
    /* the whites: D65 for the camera gamuts, the ACES white (~D60) for AP0 and AP1 */
    for (int g = 0; g < MP_GAMUT_COUNT; g++) {
        double xy[4][2];
        mp_gamut_chromaticities((mp_gamut)g, xy);
        int aces = g == MP_GAMUT_ACES_AP0 || g == MP_GAMUT_ACES_AP1;
        assert_true(xy[3][0] == (aces ? 0.32168 : 0.3127));
        assert_true(xy[3][1] == (aces ? 0.33767 : 0.3290));
        assert_string_not_equal(mp_gamut_name((mp_gamut)g), "?");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(curves_give_published_code_values),
        cmocka_unit_test(gamuts_give_published_matrices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
