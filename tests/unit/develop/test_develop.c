/* Unit tests for src/develop: demosaic quality against a scene with known truth (all four CFA
 * orders), white balance, ColorMatrix1 and gamut matrices, curves and tags, highlights,
 * determinism, edge cases and argument errors. */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "develop/curve.h"
#include "dualiso_case.h"
#include "synth/synth.h"
#include "develop_scene.h"
#include "synth_case.h"

/* Measured on the 320x240 scene, the same for all four orders: bilinear 24.0 dB, RCD 30.4 dB;
 * edge false colour 0.100 vs 0.036. Asserted with room for compiler rounding. */
#define PSNR_FLOOR 29.5
#define PSNR_MARGIN 5.5
#define CHROMA_RATIO 0.45

/* The four Bayer phases as DNG CFAPattern bytes (top-left cell lowest), spelled out here:
 * mp_frame.h's MP_CFA_GRBG / MP_CFA_GBRG values do not describe Bayer layouts. */
#define CFA(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
static const uint32_t cfa_orders[4] = {CFA(0, 1, 1, 2), CFA(1, 0, 2, 1), CFA(1, 2, 0, 1),
                                       CFA(2, 1, 1, 0)};

/* Canon 5D Mark III ColorMatrix1 (XYZ -> camera, D65), as ML writes it in RAWI. */
static const int32_t cm_5d3[9] = {6722, -635, -963, -4287, 12460, 2028, -908, 2162, 5668};

/* sRGB / Rec.709 linear RGB -> XYZ (D65), IEC 61966-2-1. */
static const double rec709_to_xyz[3][3] = {{0.4124, 0.3576, 0.1805},
                                           {0.2126, 0.7152, 0.0722},
                                           {0.0193, 0.1192, 0.9505}};

static void set_matrix(mp_raw_info *raw, const int32_t m[9], int32_t den)
{
    memset(raw, 0, sizeof *raw);
    raw->calibration_illuminant = 21;
    for (int k = 0; k < 9; k++)
        raw->color_matrix1[k] = (mp_rational){m[k], den};
}

static void apply3(const double m[3][3], const double in[3], double out[3])
{
    for (int r = 0; r < 3; r++)
        out[r] = m[r][0] * in[0] + m[r][1] * in[1] + m[r][2] * in[2];
}

static void invert3(const double m[3][3], double inv[3][3])
{
    double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                 m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                 m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            /* cofactor of (c, r), transposed */
            int r0 = (c + 1) % 3, r1 = (c + 2) % 3, c0 = (r + 1) % 3, c1 = (r + 2) % 3;
            inv[r][c] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) / det;
        }
}

/* A frame whose every 2x2 cell holds raw[] (0..1 of the 16-bit range above black 0). */
static void flat_frame(mp_frame *f, uint32_t w, uint32_t h, uint32_t cfa, const double raw[3])
{
    assert_int_equal(mp_frame_reserve(f, w, h, NULL), MP_OK);
    f->bits = 16;
    f->black = 0;
    f->white = 65535;
    f->cfa = cfa;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint32_t c = (cfa >> (8 * (2 * (y & 1) + (x & 1)))) & 0xff;
            double v = raw[c] * 65535.0;
            f->data[(size_t)y * w + x] = (uint16_t)lrint(v > 65535 ? 65535 : v);
        }
}

static void develop_once(const develop_params *p, const mp_raw_info *raw,
                         const double *wb, const mp_frame *f, develop_rgb *out)
{
    develop_context *ctx = NULL;
    mp_error err = {0};
    assert_int_equal(mp_develop_context_create(p, raw, wb, &ctx, &err), MP_OK);
    develop_workspace ws = {0};
    mp_status st = mp_develop_frame(ctx, f, &ws, out, &err);
    if (st)
        fail_msg("%s", err.msg);
    mp_develop_workspace_free(&ws);
    mp_develop_context_free(ctx);
}

static double pixel(const develop_rgb *out, int k, uint32_t x, uint32_t y)
{
    return out->plane[k][(size_t)y * out->width + x] / 65535.0;
}

/* Every plane of got holds the bytes of want (same size). */
static void assert_same_rgb(const develop_rgb *got, const develop_rgb *want)
{
    assert_int_equal(got->width, want->width);
    assert_int_equal(got->height, want->height);
    for (int k = 0; k < 3; k++)
        assert_memory_equal(got->plane[k], want->plane[k], (size_t)want->width * want->height * 2);
}

/* The test scene's truth planes, width x height (scene_render); free with truth_free. */
static void truth_new(float *truth[3], uint32_t width, uint32_t height)
{
    for (int k = 0; k < 3; k++)
        assert_non_null(truth[k] = malloc((size_t)width * height * sizeof(float)));
    scene_render(truth, width, height);
}

static void truth_free(float *truth[3])
{
    for (int k = 0; k < 3; k++)
        free(truth[k]);
}

/* f: the truth (width x height) mosaiced through cfa. */
static void mosaic_frame(mp_frame *f, float *const truth[3], uint32_t width, uint32_t height,
                         uint32_t cfa)
{
    assert_int_equal(mp_frame_reserve(f, width, height, NULL), MP_OK);
    scene_mosaic(truth, cfa, f);
}

/* The 5D3's raw response to D65 white: its ColorMatrix1 (XYZ -> camera) as cm, applied to the
 * D65 white point (Y = 1) in n. */
static void d65_neutral_5d3(double cm[3][3], double n[3])
{
    const double d65[3] = {0.3127 / 0.3290, 1.0, (1 - 0.3127 - 0.3290) / 0.3290};
    for (int k = 0; k < 9; k++)
        cm[k / 3][k % 3] = cm_5d3[k] / 10000.0;
    apply3(cm, d65, n);
}

/* ---- demosaic quality ---- */

typedef struct quality {
    double psnr, chroma;
} quality;

static quality measure(develop_demosaic method, uint32_t cfa, float *truth[3], uint32_t w,
                       uint32_t h)
{
    mp_frame f = {0};
    mosaic_frame(&f, truth, w, h, cfa);
    develop_params p;
    scene_params(&p, method);
    develop_rgb out = {0};
    develop_once(&p, NULL, NULL, &f, &out);
    quality q = {scene_psnr(&out, truth, 8), scene_edge_chroma_error(&out, truth, 8)};
    mp_develop_rgb_free(&out);
    mp_frame_free(&f);
    return q;
}

static void rcd_beats_bilinear_on_every_cfa_order(void **state)
{
    (void)state;
    const uint32_t w = 320, h = 240;
    float *truth[3];
    truth_new(truth, w, h);
    for (int o = 0; o < 4; o++) {
        quality bil = measure(DEVELOP_DEMOSAIC_BILINEAR, cfa_orders[o], truth, w, h);
        quality rcd = measure(DEVELOP_DEMOSAIC_RCD, cfa_orders[o], truth, w, h);
        print_message("cfa %08x: bilinear %.2f dB chroma %.5f, rcd %.2f dB chroma %.5f\n",
                      cfa_orders[o], bil.psnr, bil.chroma, rcd.psnr, rcd.chroma);
    }
    for (int o = 0; o < 4; o++) {
        quality bil = measure(DEVELOP_DEMOSAIC_BILINEAR, cfa_orders[o], truth, w, h);
        quality rcd = measure(DEVELOP_DEMOSAIC_RCD, cfa_orders[o], truth, w, h);
        assert_true(rcd.psnr >= PSNR_FLOOR);
        assert_true(rcd.psnr - bil.psnr >= PSNR_MARGIN);
        assert_true(rcd.chroma <= CHROMA_RATIO * bil.chroma);
    }
    truth_free(truth);
}

/* The mlvsynth benchmark scene with its exact RGB truth (synth_case.h), at 480x270. RCD beats
 * bilinear by a measured margin in PSNR, false colour and zipper on the diagonal stripes and the
 * zone plate, from the ideal sensor and from the noisy one. Measured (ideal / noisy), bilinear ->
 * rcd: stripes 38.67 -> 44.72 / 38.62 -> 44.47 dB, false colour 0.427 -> 0.145 / 0.436 -> 0.153,
 * zipper 0.176 -> 0.078 / 0.185 -> 0.116; zone 27.59 -> 31.45 / 27.59 -> 31.59 dB, false colour
 * 0.404 -> 0.197 / 0.406 -> 0.201, zipper 0.577 -> 0.235 / 0.580 -> 0.241. */
static void rcd_beats_bilinear_on_the_mlvsynth_scene(void **state)
{
    (void)state;
    static const struct {
        double psnr_margin, rcd_psnr_floor, false_colour_ratio, zipper_ratio;
    } want[2] = {
        [SYNTH_CASE_STRIPES] = {5.0, 43.5, 0.45, 0.7},
        [SYNTH_CASE_ZONE] = {3.0, 30.5, 0.6, 0.5},
    };
    for (int noise = 0; noise <= 1; noise++) {
        synth_case c;
        assert_int_equal(synth_case_init(&c, 480, 270, noise, NULL), MP_OK);
        synth_case_quality q[2][2]; /* [bilinear, rcd][region] */
        for (int m = 0; m < 2; m++) {
            develop_params p;
            synth_case_params(&c, &p, m ? DEVELOP_DEMOSAIC_RCD : DEVELOP_DEMOSAIC_BILINEAR);
            develop_rgb out = {0};
            develop_once(&p, NULL, NULL, &c.frame, &out);
            if (!noise) {
                /* Each unclipped photosite's own channel comes back as sampled, to within the
                 * rounding of the raw DN and of the output code: the truth is in develop's
                 * units and on the right CFA sites. */
                for (uint32_t y = 0; y < c.height; y++)
                    for (uint32_t x = 0; x < c.width; x++) {
                        size_t i = (size_t)y * c.width + x;
                        int k = (y & 1) + (x & 1);
                        double t = c.truth[k][i];
                        double tolerance = 0.5 * c.wb[k] / (c.frame.white - c.frame.black) +
                                           0.5 / 65535 + 1e-6 * t;
                        if (t < 0.999)
                            assert_true(fabs(out.plane[k][i] / 65535.0 - t) <= tolerance);
                    }
            }
            for (int r = 0; r < 2; r++)
                synth_case_measure(&c, &out, (synth_case_region)r, &q[m][r]);
            mp_develop_rgb_free(&out);
        }
        for (int r = 0; r < 2; r++) {
            const synth_case_quality *bil = &q[0][r], *rcd = &q[1][r];
            print_message("noise %d region %d (%llu px, %llu at edges): PSNR %.2f -> %.2f dB, "
                          "false colour %.4f -> %.4f, zipper %.4f -> %.4f\n",
                          noise, r, (unsigned long long)rcd->pixels,
                          (unsigned long long)rcd->edge_pixels, bil->psnr_db, rcd->psnr_db,
                          bil->false_colour, rcd->false_colour, bil->zipper, rcd->zipper);
            assert_true(rcd->pixels > 3000 && rcd->edge_pixels > 300);
            assert_true(rcd->psnr_db >= want[r].rcd_psnr_floor);
            assert_true(rcd->psnr_db - bil->psnr_db >= want[r].psnr_margin);
            assert_true(rcd->false_colour <= want[r].false_colour_ratio * bil->false_colour);
            assert_true(rcd->zipper <= want[r].zipper_ratio * bil->zipper);
        }
        synth_case_free(&c);
    }
}

/* A flat colour must come back exactly, borders included, whatever the size and phase. */
static void flat_colour_is_exact_at_any_size_and_phase(void **state)
{
    (void)state;
    static const uint32_t sizes[][2] = {{2, 2}, {3, 3}, {2, 7}, {7, 2}, {5, 9}, {11, 11},
                                        {13, 12}, {31, 17}, {40, 33}};
    const double raw[3] = {0.31, 0.52, 0.17};
    mp_frame f = {0};
    develop_rgb out = {0};
    for (int m = 0; m < 2; m++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int o = 0; o < 4; o++) {
                flat_frame(&f, sizes[s][0], sizes[s][1], cfa_orders[o], raw);
                develop_params p;
                scene_params(&p, m ? DEVELOP_DEMOSAIC_RCD : DEVELOP_DEMOSAIC_BILINEAR);
                develop_once(&p, NULL, NULL, &f, &out);
                assert_int_equal(out.width, sizes[s][0]);
                assert_int_equal(out.height, sizes[s][1]);
                for (uint32_t y = 0; y < out.height; y++)
                    for (uint32_t x = 0; x < out.width; x++)
                        for (int k = 0; k < 3; k++)
                            assert_true(fabs(pixel(&out, k, x, y) - raw[k]) < 1.5 / 65535);
            }
    mp_develop_rgb_free(&out);
    mp_frame_free(&f);
}

/* ---- white balance ---- */

static void wbal_grey_comes_out_neutral(void **state)
{
    (void)state;
    mp_raw_info raw;
    set_matrix(&raw, cm_5d3, 10000);
    const double g[3] = {2253 / 1024.0, 1.0, 1587 / 1024.0};
    const double wb[3] = {1 / g[0], 1.0, 1 / g[2]};    /* the as-shot neutral */
    const double grey = 0.35;
    const double rawv[3] = {grey / g[0], grey / g[1], grey / g[2]};
    mp_frame f = {0};
    flat_frame(&f, 24, 24, MP_CFA_RGGB, rawv);
    develop_rgb out = {0};
    for (int gamut = 0; gamut < 3; gamut++) {
        develop_params p;
        mp_develop_params_default(&p);
        p.curve = MP_CURVE_LINEAR;
        p.gamut = (mp_gamut)gamut;
        develop_once(&p, &raw, wb, &f, &out);
        double r = pixel(&out, 0, 12, 12), gg = pixel(&out, 1, 12, 12), b = pixel(&out, 2, 12, 12);
        assert_true(fabs(r - gg) <= 0.005 * gg && fabs(b - gg) <= 0.005 * gg);
        assert_true(fabs(gg - grey) < 0.002); /* WB'd grey keeps its level through the matrix */
    }
    /* the context reports the gains it applies, smallest scaled to 1 */
    develop_params p;
    mp_develop_params_default(&p);
    develop_context *ctx;
    assert_int_equal(mp_develop_context_create(&p, &raw, wb, &ctx, NULL), MP_OK);
    float gains[3];
    mp_develop_context_wb_gains(ctx, gains);
    for (int c = 0; c < 3; c++)
        assert_true(fabs(gains[c] - g[c]) < 1e-6);
    mp_develop_context_free(ctx);
    mp_develop_rgb_free(&out);
    mp_frame_free(&f);
}

/* Without WBAL, as-shot falls back to the matrix's D65 neutral: a D65 grey is neutral. */
static void daylight_white_balance_from_color_matrix(void **state)
{
    (void)state;
    mp_raw_info raw;
    set_matrix(&raw, cm_5d3, 10000);
    double cm[3][3], n[3];
    d65_neutral_5d3(cm, n);
    const double rawv[3] = {0.3 * n[0], 0.3 * n[1], 0.3 * n[2]};
    mp_frame f = {0};
    flat_frame(&f, 16, 16, cfa_orders[2], rawv);
    develop_params p;
    mp_develop_params_default(&p);
    p.curve = MP_CURVE_LINEAR;
    develop_rgb out = {0};
    develop_once(&p, &raw, NULL, &f, &out);
    double r = pixel(&out, 0, 8, 8), g = pixel(&out, 1, 8, 8), b = pixel(&out, 2, 8, 8);
    assert_true(fabs(r - g) <= 0.005 * g && fabs(b - g) <= 0.005 * g);
    mp_develop_rgb_free(&out);
    mp_frame_free(&f);
}

static void grey_world_recovers_the_tint(void **state)
{
    (void)state;
    const double g[3] = {1.9, 1.0, 1.4};
    const double rawv[3] = {0.3 / g[0], 0.3 / g[1], 0.3 / g[2]};
    mp_frame f = {0};
    flat_frame(&f, 32, 20, MP_CFA_BGGR, rawv);
    develop_grey_world acc = {0};
    assert_int_equal(mp_develop_grey_world_add(&acc, &f, NULL), MP_OK);
    float gains[3];
    assert_int_equal(mp_develop_grey_world_gains(&acc, gains, NULL), MP_OK);
    for (int c = 0; c < 3; c++)
        assert_true(fabs(gains[c] - g[c]) < 0.005 * g[c]);
    /* a frame that is clipped everywhere gives nothing to balance on */
    const double clipped[3] = {1, 1, 1};
    flat_frame(&f, 8, 8, MP_CFA_RGGB, clipped);
    develop_grey_world none = {0};
    assert_int_equal(mp_develop_grey_world_add(&none, &f, NULL), MP_OK);
    mp_error err = {0};
    assert_int_equal(mp_develop_grey_world_gains(&none, gains, &err), MP_ERR_RANGE);
    assert_true(strlen(err.msg) > 0);
    mp_frame_free(&f);
}

/* ---- matrices ---- */

/* A known XYZ seen through the 5D3 ColorMatrix1 comes out as its Rec.709 value, scaled so the
 * white-balanced clip is 1.0 (the D65 white whose largest camera channel just clips). */
static void color_matrix1_maps_xyz_to_rec709(void **state)
{
    (void)state;
    mp_raw_info raw;
    set_matrix(&raw, cm_5d3, 10000);
    double cm[3][3], n[3];
    d65_neutral_5d3(cm, n);
    double nmax = fmax(n[0], fmax(n[1], n[2]));
    static const double targets[3][3] = {{0.30, 0.20, 0.10}, {0.05, 0.25, 0.12},
                                         {0.10, 0.12, 0.30}};
    for (int t = 0; t < 3; t++) {
        double xyz[3], cam[3], want[3];
        apply3(rec709_to_xyz, targets[t], xyz);
        apply3(cm, xyz, cam);
        for (int k = 0; k < 3; k++)
            want[k] = targets[t][k] * nmax;
        mp_frame f = {0};
        flat_frame(&f, 16, 16, MP_CFA_RGGB, cam);
        develop_params p;
        mp_develop_params_default(&p);
        p.wb = DEVELOP_WB_DAYLIGHT;
        p.curve = MP_CURVE_LINEAR;
        p.highlight = DEVELOP_HIGHLIGHT_CLIP;
        develop_rgb out = {0};
        develop_once(&p, &raw, NULL, &f, &out);
        for (int k = 0; k < 3; k++)
            assert_true(fabs(pixel(&out, k, 8, 8) - want[k]) < 0.004 * want[k] + 3.0 / 65535);
        mp_develop_rgb_free(&out);
        mp_frame_free(&f);
    }
}

/* With a camera whose primaries are Rec.709, Rec.2020 and ACES AP0 output match the published
 * conversion matrices (ITU-R BT.2087; ACES 709 -> AP0 with Bradford D65 -> ACES white). */
static void gamut_conversions_match_published_matrices(void **state)
{
    (void)state;
    double xyz_to_709[3][3];
    invert3(rec709_to_xyz, xyz_to_709);
    int32_t m[9];
    for (int k = 0; k < 9; k++)
        m[k] = (int32_t)lrint(xyz_to_709[k / 3][k % 3] * 1e6);
    mp_raw_info raw;
    set_matrix(&raw, m, 1000000);
    static const double to2020[3][3] = {{0.6274, 0.3293, 0.0433},
                                        {0.0691, 0.9195, 0.0114},
                                        {0.0164, 0.0880, 0.8956}};
    static const double to_ap0[3][3] = {{0.4397, 0.3830, 0.1774},
                                        {0.0898, 0.8134, 0.0968},
                                        {0.0175, 0.1115, 0.8707}};
    const double rgb[3] = {0.40, 0.10, 0.05};
    mp_frame f = {0};
    flat_frame(&f, 12, 12, cfa_orders[1], rgb);
    for (int gamut = 0; gamut < 3; gamut++) {
        double want[3];
        if (gamut == MP_GAMUT_REC709)
            memcpy(want, rgb, sizeof want);
        else
            apply3(gamut == MP_GAMUT_REC2020 ? to2020 : to_ap0, rgb, want);
        develop_params p;
        mp_develop_params_default(&p);
        p.wb = DEVELOP_WB_CUSTOM; /* the camera is already balanced for D65 */
        p.gamut = (mp_gamut)gamut;
        p.curve = MP_CURVE_LINEAR;
        develop_rgb out = {0};
        develop_once(&p, &raw, NULL, &f, &out);
        for (int k = 0; k < 3; k++)
            assert_true(fabs(pixel(&out, k, 6, 6) - want[k]) < 0.005 * want[k] + 0.0008);
        mp_develop_rgb_free(&out);
    }
    mp_frame_free(&f);
}

/* ---- curves, tags, exposure ---- */

static void curves_hit_published_code_values(void **state)
{
    (void)state;
    const struct { /* automatic: one entry is computed */
        mp_curve curve;
        double x, y;
    } known[] = {
        {MP_CURVE_LINEAR, 0.18, 0.18},
        {MP_CURVE_BT709, 0.018, 0.081},
        {MP_CURVE_BT709, 1.0, 1.0},
        {MP_CURVE_LOGC3, 0.18, 0.391},      /* ARRI: 18 % grey at EI 800 -> 0.391 */
        {MP_CURVE_LOGC3, 0.0, 0.092809},
        {MP_CURVE_SLOG3, 0.18, 420.0 / 1023}, /* Sony: 18 % grey -> 420 (10 bit) */
        {MP_CURVE_SLOG3, 0.0, 95.0 / 1023},
        {MP_CURVE_SLOG3, 0.9, (420 + 261.5 * log10(0.91 / 0.19)) / 1023},
        {MP_CURVE_ACESCCT, 0.18, 0.4135884},  /* the others' sources: test_colour.c */
        {MP_CURVE_DAVINCI, 0.18, 0.336043},
        {MP_CURVE_LOGC4, 0.18, 0.278396},
        {MP_CURVE_VLOG, 0.18, 433.0 / 1023},
        {MP_CURVE_CLOG3, 0.18, 0.343389},
        {MP_CURVE_SRGB, 0.18, 0.461356},
    };
    mp_frame f = {0};
    develop_rgb out = {0};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        const double rawv[3] = {known[i].x, known[i].x, known[i].x};
        flat_frame(&f, 6, 6, MP_CFA_RGGB, rawv);
        develop_params p;
        scene_params(&p, DEVELOP_DEMOSAIC_RCD);
        p.curve = known[i].curve;
        p.highlight = DEVELOP_HIGHLIGHT_CLIP;
        develop_once(&p, NULL, NULL, &f, &out);
        for (int k = 0; k < 3; k++)
            assert_true(fabs(pixel(&out, k, 3, 3) - known[i].y) < 0.0006);
    }
    mp_develop_rgb_free(&out);
    mp_frame_free(&f);
}

/* A dense sweep of every curve: the LUT agrees with the formula (rounding plus a tenth of a
 * code of interpolation error). */
static void curve_lut_matches_formula(void **state)
{
    (void)state;
    for (int c = 0; c < MP_CURVE_COUNT; c++) {
        curve_lut lut;
        mp_curve_lut_init(&lut, (mp_curve)c);
        for (int i = -200; i <= 1000; i++) {
            float x = i < 0 ? (float)(i + 200) * 1e-7f : (float)exp2(-18.0 + i * 0.026);
            double want = mp_curve_eval((mp_curve)c, x) * 65535.0;
            want = want > 65535 ? 65535 : want;
            assert_true(fabs(curve_lut_apply(&lut, x) - want) <= 0.6);
        }
        assert_int_equal(curve_lut_apply(&lut, -1.0f), curve_lut_apply(&lut, 0.0f));
        assert_int_equal(curve_lut_apply(&lut, NAN), curve_lut_apply(&lut, 0.0f));
        assert_int_equal(curve_lut_apply(&lut, 1e30f), curve_lut_apply(&lut, 256.0f));
    }
}

static void exposure_scales_scene_linear(void **state)
{
    (void)state;
    const double rawv[3] = {0.2, 0.2, 0.2};
    mp_frame f = {0};
    flat_frame(&f, 8, 8, MP_CFA_RGGB, rawv);
    static const double ev[] = {1.0, -2.0, 0.5};
    develop_rgb out = {0};
    for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++) {
        develop_params p;
        scene_params(&p, DEVELOP_DEMOSAIC_BILINEAR);
        p.exposure_ev = (float)ev[i];
        develop_once(&p, NULL, NULL, &f, &out);
        assert_true(fabs(pixel(&out, 1, 4, 4) - 0.2 * exp2(ev[i])) < 1.0 / 65535);
    }
    mp_develop_rgb_free(&out);
    mp_frame_free(&f);
}

/* ---- highlights ---- */

/* The warm light: white-balanced level at (x, y) (1.0 = green's clip), raw gains, tint. */
#define WARM_SIZE 96
static const double warm_g[3] = {2.0, 1.0, 1.5}, warm_tint[3] = {1.0, 0.85, 0.6};
static const double warm_wb[3] = {1 / 2.0, 1.0, 1 / 1.5};   /* the as-shot neutral */

static double warm_level(uint32_t x, uint32_t y)
{
    double dx = x - 47.5, dy = y - 47.5;
    return 0.05 + 4.0 * exp(-(dx * dx + dy * dy) / (2 * 18.0 * 18.0));
}

/* A warm light blown out in the middle, raw clipped at 16383 beyond the white 15000. */
static void warm_light_frame(mp_frame *f)
{
    assert_int_equal(mp_frame_reserve(f, WARM_SIZE, WARM_SIZE, NULL), MP_OK);
    f->bits = 14;
    f->black = 2048;
    f->white = 15000;
    f->cfa = MP_CFA_RGGB;
    for (uint32_t y = 0; y < WARM_SIZE; y++)
        for (uint32_t x = 0; x < WARM_SIZE; x++) {
            uint32_t c = mp_cfa_colour(f->cfa, x, y);
            double v = f->black + warm_level(x, y) * warm_tint[c] / warm_g[c] *
                                      (f->white - f->black);
            f->data[(size_t)y * WARM_SIZE + x] = (uint16_t)(v > 16383 ? 16383 : v);
        }
}

/* The warm light: green clips first, then red, then blue (unequal clipping after white
 * balance). The blown core must be neutral and no pixel magenta. */
static void clipped_highlights_stay_neutral(void **state)
{
    (void)state;
    mp_raw_info raw;
    set_matrix(&raw, cm_5d3, 10000);
    const double *wb = warm_wb;
    const uint32_t w = WARM_SIZE, h = WARM_SIZE;
    mp_frame f = {0};
    warm_light_frame(&f);
    develop_rgb out = {0};
    static const develop_highlight modes[3] = {DEVELOP_HIGHLIGHT_BLEND, DEVELOP_HIGHLIGHT_CLIP,
                                               DEVELOP_HIGHLIGHT_RECONSTRUCT};
    for (int i = 0; i < 3; i++)
        for (int m = 0; m < 2; m++) {
            const int mode = i == 2 ? 0 : i; /* RECONSTRUCT at 0 EV: as white as BLEND */
            develop_params p;
            mp_develop_params_default(&p);
            p.demosaic = m ? DEVELOP_DEMOSAIC_RCD : DEVELOP_DEMOSAIC_BILINEAR;
            p.highlight = modes[i];
            p.curve = MP_CURVE_LINEAR;
            develop_once(&p, &raw, wb, &f, &out);
            for (uint32_t y = 0; y < h; y++)
                for (uint32_t x = 0; x < w; x++) {
                    double r = pixel(&out, 0, x, y), gg = pixel(&out, 1, x, y),
                           b = pixel(&out, 2, x, y);
                    assert_true(fmin(r, b) - gg < 0.01); /* never magenta */
                    /* BLEND: wherever a channel has clipped (white-balanced red >= 1; 10 %
                     * beyond, as the demosaic mixes in neighbours), white. CLIP
                     * alone leaves these yellow until every channel has clipped. */
                    double level = warm_level(x, y);
                    if (mode == 0 && level >= 1.1) {
                        assert_true(fabs(r - gg) <= 0.01 * gg && fabs(b - gg) <= 0.01 * gg);
                    }
                }
            /* the core (every channel clipped) is white */
            for (uint32_t y = 40; y < 56; y++)
                for (uint32_t x = 40; x < 56; x++)
                    for (int k = 0; k < 3; k++)
                        assert_true(pixel(&out, k, x, y) > 0.995);
            if (mode == 1) {
                /* CLIP: where green and red have clipped but blue has not, still yellow */
                double gg = pixel(&out, 1, 47, 21), b = pixel(&out, 2, 47, 21);
                double level = warm_level(47, 21);
                assert_true(level > 1.2 && level < 1.6);
                assert_true(b < 0.95 * gg);
            }
        }
    mp_develop_rgb_free(&out);
    mp_frame_free(&f);
}

/* RECONSTRUCT on the warm light, 2 EV down so nothing reaches the top of the curve: where
 * only green clipped (raw, a ring 7 px wide; tested in the 4 px nearest to unclipped cells)
 * the rebuilt green gives the light's own colour
 * back (G/R 0.85, B/R 0.6, within 4 %), where BLEND makes it white (the check can fail);
 * where red clipped too, no unclipped cell is near enough and the pixel is white as in
 * BLEND; no pixel magenta; the same bytes at any strip size. */
static void reconstruct_rebuilds_clipped_channels(void **state)
{
    (void)state;
    const double *wb = warm_wb;
    const uint32_t w = WARM_SIZE, h = WARM_SIZE;
    mp_frame f = {0};
    warm_light_frame(&f);
    develop_rgb out = {0}, ref = {0};
    int rebuilt = 0;
    for (int mode = 0; mode < 2; mode++)
        for (int m = 0; m < 2; m++) {
            develop_params p;
            mp_develop_params_default(&p);
            p.demosaic = m ? DEVELOP_DEMOSAIC_RCD : DEVELOP_DEMOSAIC_BILINEAR;
            p.highlight = mode ? DEVELOP_HIGHLIGHT_BLEND : DEVELOP_HIGHLIGHT_RECONSTRUCT;
            p.matrix = DEVELOP_MATRIX_IDENTITY;
            p.curve = MP_CURVE_LINEAR;
            p.exposure_ev = -2;
            develop_once(&p, NULL, wb, &f, &out);
            for (uint32_t y = 2; y < h - 2; y++)
                for (uint32_t x = 2; x < w - 2; x++) {
                    double r = pixel(&out, 0, x, y), gg = pixel(&out, 1, x, y),
                           b = pixel(&out, 2, x, y);
                    assert_true(fmin(r, b) - gg < 0.01); /* never magenta */
                    double level = warm_level(x, y);
                    if (level > 1.3 && level < 1.6) { /* green alone clipped, unclipped cells near */
                        if (mode == 0) {
                            if (fabs(gg / r - 0.85) > 0.04 || fabs(b / r - 0.6) > 0.04)
                                fail_msg("reconstruct at level %.2f (%u, %u): G/R %.3f B/R %.3f", level,
                                         x, y, gg / r, b / r);
                            rebuilt++;
                        } else {
                            assert_true(gg / r > 0.95); /* BLEND: white there */
                        }
                    }
                    if (level > 2.6) /* every channel clipped: white */
                        assert_true(fabs(r - gg) < 0.01 && fabs(b - gg) < 0.01);
                }
            if (mode == 0 && m == 1) {
                for (uint32_t strip = 1; strip <= 13; strip += 6) {
                    p.strip_rows = strip;
                    develop_once(&p, NULL, wb, &f, &ref);
                    assert_same_rgb(&ref, &out);
                }
            }
        }
    assert_true(rebuilt > 200);
    mp_develop_rgb_free(&out);
    mp_develop_rgb_free(&ref);
    mp_frame_free(&f);
}

/* ---- dual-ISO highlights (issue 15) ---- */

/* CIE L*a*b* of linear Rec.709 RGB (D65 white = RGB 1,1,1). */
static void rec709_to_lab(const double rgb[3], double lab[3])
{
    static const double d65[3] = {0.95047, 1.0, 1.08883};
    double xyz[3], f[3];
    apply3(rec709_to_xyz, rgb, xyz);
    for (int k = 0; k < 3; k++) {
        double t = xyz[k] / d65[k];
        f[k] = t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116;
    }
    lab[0] = 116 * f[1] - 16;
    lab[1] = 500 * (f[0] - f[1]);
    lab[2] = 200 * (f[1] - f[2]);
}

/* Chroma C*ab of an output pixel: its distance in L*a*b* from the grey of the same L*. */
static double chroma_at(const develop_rgb *out, uint32_t x, uint32_t y)
{
    double rgb[3] = {pixel(out, 0, x, y), pixel(out, 1, x, y), pixel(out, 2, x, y)}, lab[3];
    rec709_to_lab(rgb, lab);
    return hypot(lab[1], lab[2]);
}

#define HL_W 256
#define HL_H 160
/* Scene neutral of the highlight test: raw R, G, B of a grey (daylight-like). */
static const double hl_neutral[3] = {0.5, 1.0, 0.65};
/* Patches: x0, x1, y0, y1 (active area), green EV, colour relative to neutral (R, B). Clip is
 * 16 EV (66000 e-): 0 and 1 clip in the raw (1: green and red, not blue), 2 and 3 are clipped
 * only by +5 EV of exposure in the developed picture. */
static const double hl_patch[4][7] = {
    {24, 88, 24, 72, 17.2, 1.0, 1.0},  {136, 200, 24, 72, 16.6, 1.6, 0.35},
    {24, 88, 96, 144, 11.6, 1.0, 1.0}, {136, 200, 96, 144, 11.6, 1.3, 0.6}};

/* A dual-ISO clip (100/1600, the benchmark sensor without photon noise) of a grey ramp with
 * the four patches, reconstructed with levels pooled from it (raw-clipped samples exactly at
 * the frame's white), then developed to linear
 * Rec.709 (identity matrix: camera RGB is taken as Rec.709, white balance the scene neutral)
 * at 0 and +5 EV: every patch that clips (in the raw or by exposure) comes out neutral
 * within Delta E 2 inside, and the tinted band at its left and right edges is at most 2 px
 * wide (pixels over C*ab 2 on the rows through its middle); with BLEND and with RECONSTRUCT,
 * whose clip test (raw >= the frame's white) is the same WhiteLevel checked here. */
static void dual_iso_highlights_stay_neutral(void **state)
{
    (void)state;
    synth_sensor s;
    mp_synth_sensor_default(&s, 14, 4);
    s.photon_noise = 0;
    s.read_noise_dark = s.read_noise_bright = 0.6;
    float *truth = malloc(sizeof *truth * HL_W * HL_H);
    assert_non_null(truth);
    for (uint32_t y = 0; y < HL_H; y++)
        for (uint32_t x = 0; x < HL_W; x++) {
            int c = (int)((y & 1) + (x & 1));
            double ev = 7 + 3.0 * x / HL_W, tint[3] = {1, 1, 1};
            for (int i = 0; i < 4; i++) {
                const double *p = hl_patch[i];
                if (x >= p[0] && x < p[1] && y >= p[2] && y < p[3]) {
                    ev = p[4];
                    tint[0] = p[5];
                    tint[2] = p[6];
                }
            }
            truth[(size_t)y * HL_W + x] = (float)(exp2(ev) * hl_neutral[c] * tint[c]);
        }
    mp_error err = {0};
    mp_frame raw = {0}, rec = {0};
    assert_int_equal(mp_synth_expose(&s, truth, HL_W, HL_H, 5, 0, &raw, &err), MP_OK);
    dualiso_levels lv;
    assert_int_equal(dualiso_case_reconstruct(&raw, &rec, &lv, &err), MP_OK);
    /* the raw clip is the frame's white (the DNG WhiteLevel), so a raw developer sees the
     * clipped samples as clipped: every sample of the neutral patch, and the green and red
     * of the coloured one (blue stays below), at exactly the white */
    for (int i = 0; i < 2; i++) {
        const double *q = hl_patch[i];
        for (uint32_t y = (uint32_t)q[2] + 2; y < (uint32_t)q[3] - 2; y++)
            for (uint32_t x = (uint32_t)q[0] + 2; x < (uint32_t)q[1] - 2; x++) {
                uint16_t v = rec.data[(size_t)(y + s.ob_top) * rec.width + x + s.ob_left];
                if (i == 0 || (y & 1) + (x & 1) < 2)
                    assert_int_equal(v, rec.white);
                else
                    assert_true(v < rec.white);
            }
    }
    develop_rgb out = {0};
    for (int e = 0; e < 4; e++) {
        develop_params p;
        mp_develop_params_default(&p);
        p.highlight = e < 2 ? DEVELOP_HIGHLIGHT_BLEND : DEVELOP_HIGHLIGHT_RECONSTRUCT;
        p.matrix = DEVELOP_MATRIX_IDENTITY;
        p.curve = MP_CURVE_LINEAR;
        p.wb = DEVELOP_WB_CUSTOM;
        for (int c = 0; c < 3; c++)
            p.wb_gains[c] = (float)(1 / hl_neutral[c]);
        p.exposure_ev = e & 1 ? 5 : 0;
        develop_once(&p, NULL, NULL, &rec, &out);
        for (int i = 0; i < 4; i++) {
            const double *q = hl_patch[i];
            if (q[4] + p.exposure_ev < 16.5)
                continue; /* not clipped at this exposure */
            uint32_t x0 = (uint32_t)q[0] + s.ob_left, x1 = (uint32_t)q[1] + s.ob_left;
            uint32_t y0 = (uint32_t)q[2] + s.ob_top, y1 = (uint32_t)q[3] + s.ob_top;
            double worst = 0;
            for (uint32_t y = y0 + 4; y < y1 - 4; y++)
                for (uint32_t x = x0 + 4; x < x1 - 4; x++)
                    worst = fmax(worst, chroma_at(&out, x, y));
            if (worst > 2)
                fail_msg("%s: patch %d at %+g EV: Delta E %.2f from neutral inside",
                         e < 2 ? "blend" : "reconstruct", i, p.exposure_ev, worst);
            uint32_t band = 0;
            for (uint32_t y = y0 + 8; y < y1 - 8; y++) {
                uint32_t left = 0, right = 0;
                for (uint32_t x = x0 - 6; x < x0 + 6; x++)
                    left += chroma_at(&out, x, y) > 2;
                for (uint32_t x = x1 - 6; x < x1 + 6; x++)
                    right += chroma_at(&out, x, y) > 2;
                band = band > left ? band : left;
                band = band > right ? band : right;
            }
            if (band > 2)
                fail_msg("%s: patch %d at %+g EV: a tinted band %u px wide at its edge",
                         e < 2 ? "blend" : "reconstruct", i, p.exposure_ev, band);
        }
    }
    mp_develop_rgb_free(&out);
    mp_frame_free(&raw);
    mp_frame_free(&rec);
    free(truth);
}

/* ---- determinism ---- */

static void output_is_identical_for_any_strip_size_and_run(void **state)
{
    (void)state;
    const uint32_t w = 150, h = 101;
    float *truth[3];
    truth_new(truth, w, h);
    mp_frame f = {0};
    mosaic_frame(&f, truth, w, h, cfa_orders[2]);
    static const uint32_t strips[] = {1, 2, 7, 24, 25, 64, 100, 101, 1000};
    for (int m = 0; m < 2; m++) {
        develop_params p;
        scene_params(&p, m ? DEVELOP_DEMOSAIC_RCD : DEVELOP_DEMOSAIC_BILINEAR);
        p.curve = MP_CURVE_LOGC3;
        develop_rgb ref = {0}, out = {0};
        develop_once(&p, NULL, NULL, &f, &ref);
        develop_context *ctx;
        assert_int_equal(mp_develop_context_create(&p, NULL, NULL, &ctx, NULL), MP_OK);
        develop_workspace ws = {0};
        /* the same workspace and output reused twice */
        for (int run = 0; run < 2; run++) {
            assert_int_equal(mp_develop_frame(ctx, &f, &ws, &out, NULL), MP_OK);
            assert_same_rgb(&out, &ref);
        }
        mp_develop_workspace_free(&ws);
        mp_develop_context_free(ctx);
        for (size_t s = 0; s < sizeof strips / sizeof strips[0]; s++) {
            p.strip_rows = strips[s];
            develop_once(&p, NULL, NULL, &f, &out);
            assert_same_rgb(&out, &ref);
        }
        mp_develop_rgb_free(&ref);
        mp_develop_rgb_free(&out);
    }
    mp_frame_free(&f);
    truth_free(truth);
}

/* mp_develop_frame_rows: the rows it hands over, for a range starting anywhere and any
 * strip size, are the planes' rows; a failing receiver stops the frame with its status. */
typedef struct rows_seen {
    const develop_rgb *ref;
    uint32_t next, last, stop_at;
} rows_seen;

static mp_status check_row(void *user, uint32_t y, const uint16_t *const rgb[3], mp_error *err)
{
    rows_seen *r = user;
    assert_int_equal(y, r->next);
    assert_true(y < r->last);
    r->next++;
    for (int k = 0; k < 3; k++)
        assert_memory_equal(rgb[k], r->ref->plane[k] + (size_t)y * r->ref->width,
                            r->ref->width * sizeof **rgb);
    return y == r->stop_at ? mp_error_set(err, MP_ERR_IO, "receiver full") : MP_OK;
}

static void rows_are_the_planes_rows(void **state)
{
    (void)state;
    const uint32_t w = 150, h = 101;
    float *truth[3];
    truth_new(truth, w, h);
    mp_frame f = {0};
    mosaic_frame(&f, truth, w, h, cfa_orders[1]);
    static const uint32_t ranges[][2] = {{0, 101}, {5, 96}, {13, 14}, {0, 1}, {100, 101}};
    static const uint32_t strips[] = {0, 7, 64};
    develop_params p;
    scene_params(&p, DEVELOP_DEMOSAIC_RCD);
    develop_rgb ref = {0};
    develop_once(&p, NULL, NULL, &f, &ref);
    develop_workspace ws = {0};
    for (size_t s = 0; s < sizeof strips / sizeof strips[0]; s++) {
        p.strip_rows = strips[s];
        develop_context *ctx;
        assert_int_equal(mp_develop_context_create(&p, NULL, NULL, &ctx, NULL), MP_OK);
        for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
            rows_seen r = {&ref, ranges[i][0], ranges[i][1], UINT32_MAX};
            assert_int_equal(mp_develop_frame_rows(ctx, &f, &ws, ranges[i][0], ranges[i][1],
                                                   check_row, &r, NULL), MP_OK);
            assert_int_equal(r.next, ranges[i][1]);
        }
        rows_seen r = {&ref, 10, 90, 40};
        mp_error err = {0};
        assert_int_equal(mp_develop_frame_rows(ctx, &f, &ws, 10, 90, check_row, &r, &err),
                         MP_ERR_IO);
        assert_int_equal(r.next, 41);
        assert_int_equal(mp_develop_frame_rows(ctx, &f, &ws, 50, 50, check_row, &r, &err),
                         MP_ERR_ARG);
        assert_int_equal(mp_develop_frame_rows(ctx, &f, &ws, 0, 102, check_row, &r, &err),
                         MP_ERR_ARG);
        mp_develop_context_free(ctx);
    }
    mp_develop_workspace_free(&ws);
    mp_develop_rgb_free(&ref);
    mp_frame_free(&f);
    truth_free(truth);
}

/* One shared context, several threads each with its own workspace and output: every thread
 * gets the single-threaded bytes. */
typedef struct job {
    const develop_context *ctx;
    const mp_frame *frame;
    develop_rgb out;
    mp_status status;
} job;

static void *develop_job(void *arg)
{
    job *j = arg;
    develop_workspace ws = {0};
    for (int run = 0; run < 3 && !j->status; run++)
        j->status = mp_develop_frame(j->ctx, j->frame, &ws, &j->out, NULL);
    mp_develop_workspace_free(&ws);
    return NULL;
}

static void threads_share_a_context(void **state)
{
    (void)state;
    const uint32_t w = 120, h = 90;
    float *truth[3];
    truth_new(truth, w, h);
    mp_frame f = {0};
    mosaic_frame(&f, truth, w, h, cfa_orders[3]);
    mp_raw_info raw;
    set_matrix(&raw, cm_5d3, 10000);
    develop_params p;
    mp_develop_params_default(&p);
    p.curve = MP_CURVE_SLOG3;
    p.strip_rows = 16;
    develop_rgb ref = {0};
    develop_once(&p, &raw, NULL, &f, &ref);
    develop_context *ctx;
    assert_int_equal(mp_develop_context_create(&p, &raw, NULL, &ctx, NULL), MP_OK);
    job jobs[4];
    pthread_t tid[4];
    for (int t = 0; t < 4; t++) {
        jobs[t] = (job){.ctx = ctx, .frame = &f};
        assert_int_equal(pthread_create(&tid[t], NULL, develop_job, &jobs[t]), 0);
    }
    for (int t = 0; t < 4; t++) {
        assert_int_equal(pthread_join(tid[t], NULL), 0);
        assert_int_equal(jobs[t].status, MP_OK);
        assert_same_rgb(&jobs[t].out, &ref);
        mp_develop_rgb_free(&jobs[t].out);
    }
    mp_develop_context_free(ctx);
    mp_develop_rgb_free(&ref);
    mp_frame_free(&f);
    truth_free(truth);
}

/* ---- edge cases ---- */

static void black_white_and_noise_frames(void **state)
{
    (void)state;
    mp_raw_info raw;
    set_matrix(&raw, cm_5d3, 10000);
    mp_frame f = {0};
    develop_rgb out = {0};
    static const uint32_t sizes[][2] = {{2, 2}, {3, 2}, {9, 13}, {64, 48}};
    uint32_t seed = 12345;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int m = 0; m < 2; m++) {
            uint32_t w = sizes[s][0], h = sizes[s][1];
            develop_params p;
            mp_develop_params_default(&p);
            p.demosaic = m ? DEVELOP_DEMOSAIC_RCD : DEVELOP_DEMOSAIC_BILINEAR;
            p.curve = MP_CURVE_LOGC3;
            assert_int_equal(mp_frame_reserve(&f, w, h, NULL), MP_OK);
            f.black = 2048;
            f.white = 15000;
            f.cfa = MP_CFA_BGGR;
            /* all black (and below black): the curve's code for 0 */
            for (size_t i = 0; i < (size_t)w * h; i++)
                f.data[i] = (uint16_t)(i & 1 ? 2048 : 1000);
            develop_once(&p, &raw, NULL, &f, &out);
            uint16_t zero = (uint16_t)lrint(0.092809 * 65535);
            for (int k = 0; k < 3; k++)
                for (size_t i = 0; i < (size_t)w * h; i++)
                    assert_true(abs(out.plane[k][i] - zero) <= 1);
            /* all white (and above white): the clip, neutral */
            for (size_t i = 0; i < (size_t)w * h; i++)
                f.data[i] = (uint16_t)(i & 1 ? 15000 : 16383);
            p.curve = MP_CURVE_LINEAR;
            develop_once(&p, &raw, NULL, &f, &out);
            for (int k = 0; k < 3; k++)
                for (size_t i = 0; i < (size_t)w * h; i++)
                    assert_true(out.plane[k][i] >= 65534);
            /* full-range noise: defined output, nothing read out of bounds (sanitizer run) */
            for (size_t i = 0; i < (size_t)w * h; i++) {
                seed = seed * 1664525u + 1013904223u;
                f.data[i] = (uint16_t)(seed >> 16);
            }
            develop_once(&p, &raw, NULL, &f, &out);
        }
    mp_develop_rgb_free(&out);
    mp_frame_free(&f);
}

static void bad_arguments_are_refused(void **state)
{
    (void)state;
    mp_error err = {0};
    develop_context *ctx = NULL;
    develop_params p;
    scene_params(&p, DEVELOP_DEMOSAIC_RCD);
    p.exposure_ev = 40;
    assert_int_equal(mp_develop_context_create(&p, NULL, NULL, &ctx, &err), MP_ERR_ARG);
    assert_null(ctx);
    scene_params(&p, (develop_demosaic)7);
    assert_int_equal(mp_develop_context_create(&p, NULL, NULL, &ctx, &err), MP_ERR_ARG);
    scene_params(&p, DEVELOP_DEMOSAIC_RCD);
    p.wb_gains[2] = 0;
    assert_int_equal(mp_develop_context_create(&p, NULL, NULL, &ctx, &err), MP_ERR_ARG);
    p.wb_gains[2] = 1e-30f;
    assert_int_equal(mp_develop_context_create(&p, NULL, NULL, &ctx, &err), MP_ERR_ARG);
    p.wb_gains[2] = NAN;
    assert_int_equal(mp_develop_context_create(&p, NULL, NULL, &ctx, &err), MP_ERR_ARG);
    /* the matrix path needs a usable ColorMatrix1 */
    mp_develop_params_default(&p);
    assert_int_equal(mp_develop_context_create(&p, NULL, NULL, &ctx, &err), MP_ERR_ARG);
    mp_raw_info raw;
    static const int32_t zero[9] = {0}, singular[9] = {1, 2, 3, 2, 4, 6, 1, 0, 1};
    set_matrix(&raw, zero, 10000);
    assert_int_equal(mp_develop_context_create(&p, &raw, NULL, &ctx, &err), MP_ERR_ARG);
    set_matrix(&raw, singular, 1);
    p.wb = DEVELOP_WB_CUSTOM;
    assert_int_equal(mp_develop_context_create(&p, &raw, NULL, &ctx, &err), MP_ERR_ARG);
    set_matrix(&raw, cm_5d3, 0); /* zero denominators */
    assert_int_equal(mp_develop_context_create(&p, &raw, NULL, &ctx, &err), MP_ERR_ARG);
    assert_true(strlen(err.msg) > 0);

    scene_params(&p, DEVELOP_DEMOSAIC_RCD);
    assert_int_equal(mp_develop_context_create(&p, NULL, NULL, &ctx, &err), MP_OK);
    develop_workspace ws = {0};
    develop_rgb out = {0};
    mp_frame f = {0};
    const double grey[3] = {0.5, 0.5, 0.5};
    flat_frame(&f, 1, 8, MP_CFA_RGGB, grey);
    assert_int_equal(mp_develop_frame(ctx, &f, &ws, &out, &err), MP_ERR_ARG);
    flat_frame(&f, 8, 8, MP_CFA_RGGB, grey);
    f.white = f.black;
    assert_int_equal(mp_develop_frame(ctx, &f, &ws, &out, &err), MP_ERR_ARG);
    f.capacity = 63; /* a buffer smaller than the frame claims */
    f.white = 65535;
    assert_int_equal(mp_develop_frame(ctx, &f, &ws, &out, &err), MP_ERR_ARG);
    f.capacity = 64;
    f.cfa = 0x01010101;
    assert_int_equal(mp_develop_frame(ctx, &f, &ws, &out, &err), MP_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "CFA"));
    mp_develop_workspace_free(&ws);
    mp_develop_rgb_free(&out);
    mp_develop_context_free(ctx);
    mp_frame_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rcd_beats_bilinear_on_every_cfa_order),
        cmocka_unit_test(rcd_beats_bilinear_on_the_mlvsynth_scene),
        cmocka_unit_test(flat_colour_is_exact_at_any_size_and_phase),
        cmocka_unit_test(wbal_grey_comes_out_neutral),
        cmocka_unit_test(daylight_white_balance_from_color_matrix),
        cmocka_unit_test(grey_world_recovers_the_tint),
        cmocka_unit_test(color_matrix1_maps_xyz_to_rec709),
        cmocka_unit_test(gamut_conversions_match_published_matrices),
        cmocka_unit_test(curves_hit_published_code_values),
        cmocka_unit_test(curve_lut_matches_formula),
        cmocka_unit_test(exposure_scales_scene_linear),
        cmocka_unit_test(clipped_highlights_stay_neutral),
        cmocka_unit_test(reconstruct_rebuilds_clipped_channels),
        cmocka_unit_test(dual_iso_highlights_stay_neutral),
        cmocka_unit_test(output_is_identical_for_any_strip_size_and_run),
        cmocka_unit_test(rows_are_the_planes_rows),
        cmocka_unit_test(threads_share_a_context),
        cmocka_unit_test(black_white_and_noise_frames),
        cmocka_unit_test(bad_arguments_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
