/* develop/lut: .cube files read as Resolve and Adobe write them (comments, TITLE, DOMAIN_MIN/
 * MAX, CRLF, a 1D shaper before a 3D table), every malformed one refused with its line; the
 * lookups: 3D tables return their entries at the lattice points, reproduce an affine map
 * anywhere (any interpolation inside cells must), and keep greys on the grey diagonal whatever
 * the other corners hold (what makes it tetrahedral: trilinear would mix all eight); 1D tables
 * interpolate linearly; domains scale the input; outputs clip to [0, 1]. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "develop/lut.h"

/* The last cube made, as a file's text. */
static char *cube_text;

static void cube_file(const char *text)
{
    free(cube_text);
    cube_text = strdup(text);
    assert_non_null(cube_text);
}

static mp_status load(mp_lut *lut, mp_error *err)
{
    return mp_lut_parse("look.cube", cube_text, strlen(cube_text), lut, err);
}

/* A 3D cube of `size` points per axis from f, red fastest. */
static void cube_3d(int size, const char *head, void (*f)(const double in[3], double out[3]))
{
    size_t cap = 256 + (size_t)size * size * size * 40;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t n = (size_t)snprintf(text, cap, "%sLUT_3D_SIZE %d\n", head, size);
    for (int b = 0; b < size; b++)
        for (int g = 0; g < size; g++)
            for (int r = 0; r < size; r++) {
                double in[3] = {(double)r / (size - 1), (double)g / (size - 1),
                                (double)b / (size - 1)}, out[3];
                f(in, out);
                n += (size_t)snprintf(text + n, cap - n, "%.9f %.9f %.9f\n", out[0], out[1],
                                      out[2]);
            }
    free(cube_text);
    cube_text = text;
}

/* One pixel through the LUT, as 16-bit codes. */
static void pixel(const mp_lut *lut, const double in[3], double out[3])
{
    uint16_t v[3];
    for (int c = 0; c < 3; c++)
        v[c] = (uint16_t)lrint(in[c] * 65535.0);
    uint16_t *const planes[3] = {&v[0], &v[1], &v[2]};
    mp_lut_apply(lut, planes, 1);
    for (int c = 0; c < 3; c++)
        out[c] = v[c] / 65535.0;
}

static void affine(const double in[3], double out[3])
{
    out[0] = 0.1 + 0.5 * in[0] + 0.2 * in[1] + 0.1 * in[2];
    out[1] = 0.05 + 0.3 * in[0] + 0.6 * in[1];
    out[2] = 0.2 * in[0] + 0.1 * in[1] + 0.7 * in[2];
}

/* grey diagonal kept, every other corner pushed far off */
static void off_diagonal_noise(const double in[3], double out[3])
{
    int grey = in[0] == in[1] && in[1] == in[2];
    for (int c = 0; c < 3; c++)
        out[c] = grey ? in[c] : fmod(in[c] * 7.31 + c * 0.37 + in[(c + 1) % 3], 1.0);
}

static void lookups(void **state)
{
    (void)state;
    mp_lut lut;
    mp_error err;
    cube_3d(9, "# an affine map\r\nTITLE \"affine # not a comment\"\r\n", affine);
    assert_int_equal(load(&lut, &err), MP_OK);
    assert_int_equal(lut.size3d, 9);
    for (int k = 0; k < 200; k++) {
        double in[3] = {fmod(k * 0.1373, 1), fmod(k * 0.0719 + 0.3, 1), fmod(k * 0.291, 1)};
        double got[3], want[3];
        pixel(&lut, in, got);
        affine(in, want);
        for (int c = 0; c < 3; c++)
            assert_true(fabs(got[c] - want[c]) < 1.5 / 65535);
    }
    mp_lut_free(&lut);

    cube_3d(5, "", off_diagonal_noise);
    assert_int_equal(load(&lut, &err), MP_OK);
    for (int k = 0; k <= 100; k++) {
        double in[3] = {k / 100.0, k / 100.0, k / 100.0}, got[3];
        pixel(&lut, in, got);
        for (int c = 0; c < 3; c++)
            assert_true(fabs(got[c] - in[c]) < 1.0 / 65535);
    }
    const double corner[3] = {0.25, 0.75, 0.5};
    double got[3], want[3];
    pixel(&lut, corner, got);   /* a lattice point gives its entry */
    off_diagonal_noise(corner, want);
    for (int c = 0; c < 3; c++)   /* 0.25 is 16384 / 65535, a hair past the point */
        assert_true(fabs(got[c] - want[c]) < 2.0 / 65535);
    mp_lut_free(&lut);

    /* 1D: linear between entries; DOMAIN_MAX 2 takes the input at half its value */
    cube_file("LUT_1D_SIZE 3\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 2 2 2\n"
              "0 1 0.5\n0.5 0.5 0.5\n1 0 0.5\n");
    assert_int_equal(load(&lut, &err), MP_OK);
    const double quarter[3] = {0.25, 0.25, 0.25};
    pixel(&lut, quarter, got);     /* 0.25 of [0, 2]: an eighth of the way, 1/4 of a cell */
    assert_true(fabs(got[0] - 0.125) < 1.0 / 65535);
    assert_true(fabs(got[1] - 0.875) < 1.0 / 65535);
    assert_true(fabs(got[2] - 0.5) < 1.0 / 65535);
    mp_lut_free(&lut);

    /* a shaper: the 1D table before the 3D one (a 2-point identity), clipped */
    cube_file("LUT_1D_SIZE 3\nLUT_3D_SIZE 2\nLUT_1D_INPUT_RANGE 0 1\nLUT_3D_INPUT_RANGE 0 1\n"
              "0 0 0\n0.25 0.25 0.25\n1 1 1.5\n"
              "0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n");
    assert_int_equal(load(&lut, &err), MP_OK);
    const double half[3] = {0.5, 0.75, 1.0};
    pixel(&lut, half, got);
    assert_true(fabs(got[0] - 0.25) < 2.0 / 65535);   /* 0.5 is 32768 / 65535: the 1D */
    assert_true(fabs(got[1] - 0.625) < 2.0 / 65535);  /* slope 1.5 takes it a code up */
    assert_true(got[2] == 1.0);
    mp_lut_free(&lut);
}

static void malformed_cubes_name_their_line(void **state)
{
    (void)state;
    static const struct {
        const char *text, *says;
    } cases[] = {
        {"LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n", ":8: 7 table rows"},
        {"LUT_3D_SIZE 2\n0 0 0\n0 0 nan\n", ":3: a table row needs three numbers"},
        {"LUT_3D_SIZE 2\n0 0 0 0\n", ":2: a table row needs three numbers"},
        {"LUT_3D_SIZE 2\n0 0\n", ":2: a table row needs three numbers"},
        {"LUT_3D_SIZE 2\n0 0 1e999\n", ":2: a table row needs three numbers"},
        {"LUT_3D_SIZE 2\n0 0 1e35\n", ":2: a table row needs three numbers"},   /* no float */
        {"0 0 0\n", ":1: a table row before LUT_1D_SIZE or LUT_3D_SIZE"},
        {"LUT_1D_SIZE 2\n0 0 0\n1 1 1\n1 1 1\n", ":4: more rows than the sizes say"},
        {"LUT_1D_SIZE 2\n0 0 0\nTITLE \"late\"\n", ":3: a keyword after the table rows"},
        {"LUT_3D_SIZE 257\n", ":1: LUT_3D_SIZE needs one size from 2 to 256"},
        {"LUT_3D_SIZE 2\nLUT_3D_SIZE 2\n", ":2: LUT_3D_SIZE needs one size"},
        {"LUT_1D_SIZE 1\n", ":1: LUT_1D_SIZE needs one size from 2 to 65536"},
        {"LUT_3D_SIZE 17.5\n", ":1: LUT_3D_SIZE needs one size"},
        {"DOMAIN_MIN 0 0\n", ":1: DOMAIN_MIN needs three numbers"},
        {"\n\n# x\nLUT_1D_SIZE 2\nLUT_1D_INPUT_RANGE 0\n", ":5: an input range needs two numbers"},
        {"LUT_1D_SIZE 2\nLUT_OUT_VIDEO_RANGE\n", ":2: unknown keyword: LUT_OUT_VIDEO_RANGE"},
        {"LUT_1D_SIZE 2\nDOMAIN_MIN 1 0 0\nDOMAIN_MAX 1 1 1\n0 0 0\n1 1 1\n",
         "the domain's maximum 1 is not above its minimum 1"},
        {"TITLE \"nothing\"\n", "no LUT_1D_SIZE or LUT_3D_SIZE"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cube_file(cases[i].text);
        mp_lut lut = {.size1d = 7};
        mp_error err;
        assert_int_equal(load(&lut, &err), MP_ERR_FORMAT);
        if (!strstr(err.msg, cases[i].says) || strncmp(err.msg, "look.cube", 9))
            fail_msg("case %zu: '%s' does not say '%s'", i, err.msg, cases[i].says);
        assert_null(lut.table1d);   /* nothing kept of a refused file */
        assert_null(lut.table3d);
    }
    /* no newline at the end, and a line too long to be a row */
    mp_lut lut;
    mp_error err;
    cube_file("LUT_1D_SIZE 2\n0 0 0\n1 1 1");
    assert_int_equal(load(&lut, &err), MP_OK);
    mp_lut_free(&lut);
    static char longline[2048] = "LUT_1D_SIZE 2\n";
    memset(longline + 14, '1', 1500);
    cube_file(longline);
    assert_int_equal(load(&lut, &err), MP_ERR_FORMAT);
    assert_string_equal(err.msg, "look.cube:2: a line longer than 1023 bytes");
    free(cube_text);
    cube_text = NULL;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lookups),
        cmocka_unit_test(malformed_cubes_name_their_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
