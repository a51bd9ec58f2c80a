/* Unit tests for src/synth: RNG determinism and distributions, sensor levels and noise
 * statistics, row phase, clipping, and the benchmark scene against its formulas. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "synth/synth.h"
#include "synth/synth_rng.h"

static void rng_streams_are_reproducible_and_distinct(void **state)
{
    (void)state;
    synth_rng a, b, c;
    mp_synth_rng_init(&a, 42, 7);
    mp_synth_rng_init(&b, 42, 7);
    mp_synth_rng_init(&c, 42, 8);
    int same_as_other_stream = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t va = mp_synth_rng_next(&a), vc = mp_synth_rng_next(&c);
        assert_true(va == mp_synth_rng_next(&b));
        same_as_other_stream += va == vc;
    }
    assert_int_equal(same_as_other_stream, 0);
    /* Pin the first output so a change of generator or seeding shows up on every platform. */
    mp_synth_rng_init(&a, 0, 0);
    uint64_t first = mp_synth_rng_next(&a);
    assert_true(first == 0xbf2c3e4f6b0f62a8ull);
    mp_synth_rng_init(&b, 0, 0);
    assert_true(first == mp_synth_rng_next(&b));
    mp_synth_rng_init(&b, 1, 0);
    assert_true(first != mp_synth_rng_next(&b));
}

static void det_log_exp_match_libm(void **state)
{
    (void)state;
    for (double x = 1e-300; x < 1e300; x *= 1.37) {
        assert_true(fabs(mp_synth_det_log(x) - log(x)) <= 4e-16 * fmax(1, fabs(log(x))));
    }
    for (double x = -700; x < 700; x += 0.913) {
        assert_true(fabs(mp_synth_det_exp(x) - exp(x)) <= 4e-16 * exp(x));
    }
    for (double x = -60; x < 60; x += 0.0771)
        assert_true(fabs(mp_synth_det_exp2(x) - exp2(x)) <= 4e-16 * exp2(x));
    assert_true(mp_synth_det_exp2(3) == 8);
    assert_true(mp_synth_det_exp2(0) == 1);
    assert_true(isinf(mp_synth_det_log(0)) && mp_synth_det_log(0) < 0);
    assert_true(isnan(mp_synth_det_log(-1)));
}

static void gaussian_has_unit_variance(void **state)
{
    (void)state;
    synth_rng r;
    mp_synth_rng_init(&r, 3, 0);
    const int n = 400000;
    double sum = 0, sum2 = 0, beyond3 = 0;
    for (int i = 0; i < n; i++) {
        double g = mp_synth_rng_gaussian(&r);
        sum += g;
        sum2 += g * g;
        beyond3 += fabs(g) > 3;
    }
    double mean = sum / n, var = sum2 / n - mean * mean;
    assert_true(fabs(mean) < 5 / sqrt(n));
    assert_true(fabs(var - 1) < 5 * sqrt(2.0 / n));
    /* Tail mass 0.0027: checks the shape, not only the moments. */
    assert_true(fabs(beyond3 / n - 0.0027) < 0.0005);
}

static void poisson_moments_over_all_regimes(void **state)
{
    (void)state;
    const double means[] = {0.3, 3, 9.9, 10, 47, 400, 999, 1001, 20000};
    for (size_t m = 0; m < sizeof means / sizeof means[0]; m++) {
        synth_rng r;
        mp_synth_rng_init(&r, 11, m);
        const int n = 200000;
        double mu = means[m], sum = 0, sum2 = 0, zeros = 0;
        for (int i = 0; i < n; i++) {
            double k = mp_synth_rng_poisson(&r, mu);
            assert_true(k >= 0 && k == floor(k));
            sum += k;
            sum2 += k * k;
            zeros += k == 0;
        }
        double mean = sum / n, var = sum2 / n - mean * mean;
        assert_true(fabs(mean - mu) < 5 * sqrt(mu / n));
        /* var of the sample variance of a Poisson law ~ (2 mu^2 + mu) / n */
        assert_true(fabs(var - mu) < 5 * sqrt((2 * mu * mu + mu) / n));
        if (mu < 5)
            assert_true(fabs(zeros / n - exp(-mu)) < 5 * sqrt(exp(-mu) / n));
    }
    synth_rng r;
    mp_synth_rng_init(&r, 1, 1);
    assert_true(mp_synth_rng_poisson(&r, 0) == 0);
    assert_true(mp_synth_rng_poisson(&r, -5) == 0);
}

static void sensor_levels_scale_with_depth(void **state)
{
    (void)state;
    const struct { uint32_t bits; double black, white, rn_dark, rn_bright; } want[] = {
        {10, 128, 955, 6.6 / 16, 13.8 / 16},
        {12, 512, 3821, 6.6 / 4, 13.8 / 4},
        {14, 2048, 15283, 6.6, 13.8},
        {16, 8192, 61132, 26.4, 55.2},
    };
    for (size_t i = 0; i < 4; i++) {
        synth_sensor s;
        mp_synth_sensor_default(&s, want[i].bits, 4);
        assert_int_equal(s.bits, want[i].bits);
        assert_true(s.black == want[i].black);
        assert_true(s.white == want[i].white);
        assert_true(fabs(s.read_noise_dark - want[i].rn_dark) < 1e-12);
        assert_true(fabs(s.read_noise_bright - want[i].rn_bright) < 1e-12);
        assert_true(s.full_well_e == 66000 && s.ev_gap == 4 && s.phase == 0);
        assert_int_equal(s.ob_left, 72);
        assert_int_equal(s.ob_top, 28);
        assert_true(s.photon_noise);
        assert_true(fabs(mp_synth_sensor_gain(&s) - (s.white - s.black) / 66000) < 1e-15);
    }
}

static float *render(synth_scene_kind kind, double ev, uint32_t w, uint32_t h, uint32_t frame)
{
    synth_scene sc = {.kind = kind, .exposure_ev = ev};
    float *t = malloc(sizeof *t * w * h);
    assert_non_null(t);
    assert_int_equal(mp_synth_render_truth(&sc, w, h, frame, t, NULL), MP_OK);
    return t;
}

static void expose_is_deterministic(void **state)
{
    (void)state;
    const uint32_t w = 96, h = 64;
    float *t = render(SYNTH_SCENE_BENCHMARK, 0, w, h, 0);
    synth_sensor s;
    mp_synth_sensor_default(&s, 14, 4);
    s.ob_left = 8;
    s.ob_top = 4;
    mp_frame a = {0}, b = {0}, c = {0}, d = {0};
    assert_int_equal(mp_synth_expose(&s, t, w, h, 5, 0, &a, NULL), MP_OK);
    assert_int_equal(mp_synth_expose(&s, t, w, h, 5, 0, &b, NULL), MP_OK);
    assert_int_equal(mp_synth_expose(&s, t, w, h, 6, 0, &c, NULL), MP_OK);
    assert_int_equal(mp_synth_expose(&s, t, w, h, 5, 1, &d, NULL), MP_OK);
    size_t n = (size_t)(w + 8) * (h + 4);
    assert_int_equal(a.width, w + 8);
    assert_int_equal(a.height, h + 4);
    assert_memory_equal(a.data, b.data, n * 2);
    assert_memory_not_equal(a.data, c.data, n * 2);
    assert_memory_not_equal(a.data, d.data, n * 2);
    assert_int_equal(a.black, 2048);
    assert_int_equal(a.white, 15283);
    assert_int_equal(a.bits, 14);
    assert_int_equal(a.cfa, MP_CFA_RGGB);
    mp_frame_free(&a);
    mp_frame_free(&b);
    mp_frame_free(&c);
    mp_frame_free(&d);
    free(t);
}

/* Pinned checksum: the noise (Poisson in all three regimes, Gaussian read noise) gives the
 * same bytes on every platform and compiler. A flat scene keeps libm out of the truth. */
static void expose_bytes_are_pinned(void **state)
{
    (void)state;
    const uint32_t w = 64, h = 16;
    float *t = render(SYNTH_SCENE_FLAT, 0, w, h, 0);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            t[y * w + x] = (float)ldexp(1, (int)((x + y) % 16));  /* 1 ... 32768 e- */
    synth_sensor s;
    mp_synth_sensor_default(&s, 14, 4);
    s.ob_left = 4;
    s.ob_top = 0;
    mp_frame f = {0};
    assert_int_equal(mp_synth_expose(&s, t, w, h, 123, 9, &f, NULL), MP_OK);
    uint64_t hash = 1469598103934665603ull;  /* FNV-1a over the samples */
    for (size_t i = 0; i < (size_t)f.width * f.height; i++)
        hash = (hash ^ f.data[i]) * 1099511628211ull;
    assert_true(hash == 0xc6ffef30cbed4e83ull);
    mp_frame_free(&f);
    free(t);
}

/* Mean and variance of the active samples of rows with the given brightness. */
static void row_stats(const mp_frame *f, const synth_sensor *s, int bright, double *mean,
                      double *var)
{
    double sum = 0, sum2 = 0, n = 0;
    for (uint32_t y = s->ob_top; y < f->height; y++) {
        if (mp_synth_row_is_bright(s, y) != bright)
            continue;
        for (uint32_t x = s->ob_left; x < f->width; x++) {
            double v = f->data[(size_t)y * f->width + x];
            sum += v;
            sum2 += v * v;
            n++;
        }
    }
    *mean = sum / n;
    *var = sum2 / n - *mean * *mean;
}

static void flat_field_matches_poisson_plus_read_noise(void **state)
{
    (void)state;
    const uint32_t w = 512, h = 256;
    const double levels[] = {0, 4, 8, 11};  /* 1 e- (read-noise bound) ... 2048 e- (normal) */
    for (size_t l = 0; l < 4; l++) {
        float *t = render(SYNTH_SCENE_FLAT, levels[l], w, h, 0);
        synth_sensor s;
        mp_synth_sensor_default(&s, 14, 3);
        s.bright_black_offset = 5;
        mp_frame f = {0};
        assert_int_equal(mp_synth_expose(&s, t, w, h, 99, 0, &f, NULL), MP_OK);
        double e = exp2(levels[l]), g = mp_synth_sensor_gain(&s);
        for (int bright = 0; bright <= 1; bright++) {
            double gain = bright ? g * 8 : g, rn = bright ? 13.8 : 6.6;
            double want_mean = 2048 + (bright ? 5 : 0) + gain * e;
            /* + 1/12: rounding to whole DN adds uniform quantisation noise */
            double want_var = gain * gain * e + rn * rn + 1.0 / 12;
            double mean, var, n = w * h / 2.0;
            row_stats(&f, &s, bright, &mean, &var);
            assert_true(fabs(mean - want_mean) < 5 * sqrt(want_var / n) + 0.01);
            assert_true(fabs(var / want_var - 1) < 5 * sqrt(2 / n) + 0.01);
        }
        mp_frame_free(&f);
        free(t);
    }
}

static void ob_border_holds_black_and_read_noise(void **state)
{
    (void)state;
    synth_sensor s;
    mp_synth_sensor_default(&s, 12, 4);
    const uint32_t w = 64, h = 64;
    float *t = render(SYNTH_SCENE_FLAT, 14, w, h, 0);
    mp_frame f = {0};
    assert_int_equal(mp_synth_expose(&s, t, w, h, 1, 0, &f, NULL), MP_OK);
    double sum = 0, sum2 = 0, n = 0;
    for (uint32_t y = 0; y < f.height; y++)
        for (uint32_t x = 0; x < s.ob_left; x++) {
            double v = f.data[(size_t)y * f.width + x];
            sum += v;
            sum2 += v * v;
            n++;
        }
    double mean = sum / n, sd = sqrt(sum2 / n - mean * mean);
    assert_true(fabs(mean - 512) < 0.2);
    /* half the rows dark (1.65 DN), half bright (3.45 DN) */
    double want_sd = sqrt((1.65 * 1.65 + 3.45 * 3.45) / 2 + 1.0 / 12);
    assert_true(fabs(sd - want_sd) < 0.1);
    mp_frame_free(&f);
    free(t);
}

static void clipping_and_dark_frames(void **state)
{
    (void)state;
    const uint32_t w = 64, h = 32;
    float *t = render(SYNTH_SCENE_FLAT, 17, w, h, 0);  /* 131072 e-, beyond the full well */
    for (uint32_t bits = 10; bits <= 16; bits += 2) {
        synth_sensor s;
        mp_synth_sensor_default(&s, bits, 4);
        s.ob_left = s.ob_top = 0;
        mp_frame f = {0};
        assert_int_equal(mp_synth_expose(&s, t, w, h, 2, 0, &f, NULL), MP_OK);
        for (size_t i = 0; i < (size_t)w * h; i++)
            assert_int_equal(f.data[i], (uint16_t)s.white);
        assert_int_equal(f.white, (uint32_t)s.white);
        /* Black 0 and noise: negative values clip at 0, nothing wraps around. */
        s.black = 0;
        assert_int_equal(mp_synth_expose(&s, NULL, w, h, 2, 0, &f, NULL), MP_OK);
        int zeros = 0;
        for (size_t i = 0; i < (size_t)w * h; i++) {
            assert_true(f.data[i] < 40 * (1u << (bits - 10)));
            zeros += f.data[i] == 0;
        }
        assert_true(zeros > (int)(w * h / 3));
        mp_frame_free(&f);
    }
    free(t);
}

static void phase_selects_bright_rows(void **state)
{
    (void)state;
    const uint32_t w = 32, h = 32;
    float *t = render(SYNTH_SCENE_FLAT, 8, w, h, 0);
    for (uint32_t phase = 0; phase < 4; phase++) {
        synth_sensor s;
        mp_synth_sensor_default(&s, 14, 4);
        s.phase = phase;
        s.ob_left = 0;
        s.ob_top = 2;  /* borders count: the pattern follows buffer rows */
        mp_frame f = {0};
        assert_int_equal(mp_synth_expose(&s, t, w, h, 4, 0, &f, NULL), MP_OK);
        for (uint32_t y = 2; y < f.height; y++) {
            double sum = 0;
            for (uint32_t x = 0; x < w; x++)
                sum += f.data[(size_t)y * w + x];
            int bright = sum / w > 2048 + 0.2005 * 256 * 4;  /* halfway in log terms */
            assert_int_equal(bright, (y + phase) % 4 >= 2);
            assert_int_equal(bright, mp_synth_row_is_bright(&s, y));
        }
        mp_frame_free(&f);
    }
    synth_sensor s;
    mp_synth_sensor_default(&s, 14, 0);
    for (uint32_t y = 0; y < 8; y++)
        assert_false(mp_synth_row_is_bright(&s, y));
    free(t);
}

/* The scene formulas of doc/dualiso.md 8.2, written out independently of synth_scene.c. */
static double expected_truth(double x, int px, int py, double W, double H, double illum)
{
    double y = py, u = x / W, v = y / H, ev;
    int patch = -1;
    for (int i = 0; i < 4; i++)
        if (y >= 0.06 * H && y < 0.22 * H && x >= (0.08 + 0.22 * i) * W &&
            x < (0.08 + 0.22 * i) * W + 0.12 * W)
            patch = i;
    if (patch >= 0) {
        ev = 2 + 3 * patch;
    } else {
        ev = -1.5 + 18 * u + 1.2 * sin(2 * M_PI * 1.5 * v);
        if (v > 0.35 && v < 0.5) {
            double sn = sin(2 * M_PI * (x + 0.6 * y) / 37);
            ev += sn > 0 ? 0.8 : sn < 0 ? -0.8 : 0;
        }
        if (u < 0.45 && v > 0.62 && v < 0.95)
            ev += cos(40 * M_PI * ((x - 0.225 * W) * (x - 0.225 * W) +
                                   (y - 0.785 * H) * (y - 0.785 * H)) / (0.04 * H * H));
    }
    double e = exp2(ev) * illum;
    if (px % 2 == 0 && py % 2 == 0)
        e *= 0.45 + 0.25 * v;
    if (px % 2 == 1 && py % 2 == 1)
        e *= 0.75 - 0.2 * u;
    return e;
}

static void benchmark_truth_follows_formulas(void **state)
{
    (void)state;
    const uint32_t W = 640, H = 480;
    float *t = render(SYNTH_SCENE_BENCHMARK, 0, W, H, 0);
    /* ramp, stripes, zone plate, every patch, both colour gains */
    const int pts[][2] = {{0, 0},     {639, 479}, {320, 100}, {321, 101}, {100, 200},
                          {101, 201}, {50, 40},   {190, 60},  {330, 70},  {471, 80},
                          {144, 377}, {145, 378}, {10, 300},  {600, 250}, {630, 220},
                          {0, 28},    {52, 29},   {51, 105},  {76, 106},  {400, 470}};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++) {
        int x = pts[i][0], y = pts[i][1];
        double want = expected_truth(x, x, y, W, H, 1);
        assert_true(fabs(t[(size_t)y * W + x] / want - 1) < 1e-6);
    }
    /* patch values are exact powers of two on green photosites */
    assert_true(t[(size_t)41 * W + 52] == 4.0f);    /* patch 0, green on an odd row */
    assert_true(t[(size_t)40 * W + 53] == 4.0f);    /* green on an even row */
    assert_true(t[(size_t)40 * W + 475] == 2048.0f); /* patch 3 */
    assert_true(fabs(t[(size_t)41 * W + 53] - 4 * (0.75 - 0.2 * 53 / 640)) < 1e-5); /* blue */
    free(t);
}

static void frames_shift_and_jitter(void **state)
{
    (void)state;
    const uint32_t W = 200, H = 100;
    synth_scene sc = {.kind = SYNTH_SCENE_BENCHMARK, .shift_px = 0.7, .illum_sigma_ev = 0.5,
                      .seed = 11};
    float *t = malloc(sizeof *t * W * H);
    double log_sum = 0, log_sum2 = 0;
    const int frames = 400;
    for (uint32_t f = 0; f < (uint32_t)frames; f++) {
        double illum = mp_synth_scene_illumination(&sc, f);
        assert_true(illum == mp_synth_scene_illumination(&sc, f));
        log_sum += log2(illum);
        log_sum2 += log2(illum) * log2(illum);
        if (f % 97 == 3) {
            assert_int_equal(mp_synth_render_truth(&sc, W, H, f, t, NULL), MP_OK);
            for (int y = 0; y < (int)H; y += 7)
                for (int x = 0; x < (int)W; x += 5) {
                    double want = expected_truth(x + 0.7 * f, x, y, W, H, illum);
                    assert_true(fabs(t[(size_t)y * W + x] / want - 1) < 1e-6);
                }
        }
    }
    double mean = log_sum / frames, sd = sqrt(log_sum2 / frames - mean * mean);
    assert_true(fabs(mean) < 5 * 0.5 / sqrt(frames));
    assert_true(fabs(sd - 0.5) < 0.1);
    synth_scene other = sc;
    other.seed = 12;
    assert_true(mp_synth_scene_illumination(&other, 3) != mp_synth_scene_illumination(&sc, 3));
    sc.illum_sigma_ev = 0;
    assert_true(mp_synth_scene_illumination(&sc, 3) == 1);
    free(t);
}

static void flat_and_ramp_scenes(void **state)
{
    (void)state;
    const uint32_t W = 64, H = 8;
    float *t = render(SYNTH_SCENE_FLAT, 5.5, W, H, 0);
    for (size_t i = 0; i < (size_t)W * H; i++)
        assert_true(fabs(t[i] - exp2(5.5)) < 1e-4);
    free(t);
    t = render(SYNTH_SCENE_RAMP, 1, W, H, 0);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            double e = exp2(-0.5 + 18.0 * x / W), v = (double)y / H;
            if (!(x & 1) && !(y & 1))
                e *= 0.45 + 0.25 * v;
            if ((x & 1) && (y & 1))
                e *= 0.75 - 0.2 * x / (double)W;
            assert_true(fabs(t[y * W + x] / e - 1) < 1e-6);
        }
    free(t);
}

static void bad_arguments_are_refused(void **state)
{
    (void)state;
    synth_sensor s;
    mp_synth_sensor_default(&s, 14, 4);
    float t[16] = {0};
    mp_frame f = {0};
    mp_error err = {0};
    s.bits = 13;
    assert_int_equal(mp_synth_expose(&s, t, 4, 4, 0, 0, &f, &err), MP_ERR_ARG);
    assert_non_null(strstr(err.msg, "13-bit"));
    mp_synth_sensor_default(&s, 10, 4);
    s.white = 2000;  /* above 10-bit range */
    assert_int_equal(mp_synth_expose(&s, t, 4, 4, 0, 0, &f, NULL), MP_ERR_ARG);
    mp_synth_sensor_default(&s, 14, 4);
    s.phase = 4;
    assert_int_equal(mp_synth_expose(&s, t, 4, 4, 0, 0, &f, NULL), MP_ERR_ARG);
    mp_synth_sensor_default(&s, 14, 4);
    assert_int_equal(mp_synth_expose(&s, t, 0, 4, 0, 0, &f, NULL), MP_ERR_ARG);
    t[5] = NAN;
    assert_int_equal(mp_synth_expose(&s, t, 4, 4, 0, 0, &f, &err), MP_ERR_ARG);
    assert_non_null(strstr(err.msg, "(1, 1)"));
    t[5] = -1;
    assert_int_equal(mp_synth_expose(&s, t, 4, 4, 0, 0, &f, NULL), MP_ERR_ARG);
    synth_scene sc = {.kind = 7};
    assert_int_equal(mp_synth_render_truth(&sc, 4, 4, 0, t, NULL), MP_ERR_ARG);
    sc.kind = SYNTH_SCENE_FLAT;
    sc.exposure_ev = NAN;
    assert_int_equal(mp_synth_render_truth(&sc, 4, 4, 0, t, NULL), MP_ERR_ARG);
    mp_frame_free(&f);
}

/* The RGB truth sampled through RGGB is the CFA truth bit for bit at all four CFA positions,
 * and the channels a photosite does not sample carry the scene's colour gains. */
static void rgb_truth_is_the_unsampled_cfa_truth(void **state)
{
    (void)state;
    const uint32_t w = 97, h = 61; /* odd: the last row and column are partial CFA cells */
    const synth_scene scenes[] = {
        {.kind = SYNTH_SCENE_BENCHMARK, .exposure_ev = 3, .shift_px = 1.25,
         .illum_sigma_ev = 0.3, .seed = 11},
        {.kind = SYNTH_SCENE_RAMP, .exposure_ev = -2},
        {.kind = SYNTH_SCENE_FLAT, .exposure_ev = 5},
    };
    float *cfa = malloc(sizeof *cfa * w * h), *rgb[3];
    assert_non_null(cfa);
    for (int c = 0; c < 3; c++)
        assert_non_null(rgb[c] = malloc(sizeof *rgb[c] * w * h));
    for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; k++) {
        const uint32_t frame = 3;
        assert_int_equal(mp_synth_render_truth(&scenes[k], w, h, frame, cfa, NULL), MP_OK);
        assert_int_equal(mp_synth_render_truth_rgb(&scenes[k], w, h, frame, rgb[0], rgb[1], rgb[2],
                                                NULL), MP_OK);
        uint32_t checked[4] = {0};
        double offset = mp_synth_scene_offset(&scenes[k], frame);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                size_t i = (size_t)y * w + x;
                int pos = 2 * (y & 1) + (x & 1); /* 0 R, 1 and 2 G, 3 B */
                int colour = pos == 0 ? 0 : pos == 3 ? 2 : 1;
                assert_memory_equal(&cfa[i], &rgb[colour][i], sizeof(float));
                checked[pos]++;
                double r_gain = 1, b_gain = 1;
                if (scenes[k].kind != SYNTH_SCENE_FLAT) {
                    r_gain = 0.45 + 0.25 * y / h;
                    b_gain = 0.75 - 0.2 * (x + offset) / w;
                }
                assert_true(fabs(rgb[0][i] / rgb[1][i] - r_gain) < 1e-6);
                assert_true(fabs(rgb[2][i] / rgb[1][i] - b_gain) < 1e-6);
            }
        for (int pos = 0; pos < 4; pos++)
            assert_true(checked[pos] >= (w / 2) * (h / 2));
    }
    synth_scene bad = {.kind = 7};
    assert_int_equal(mp_synth_render_truth_rgb(&bad, w, h, 0, rgb[0], rgb[1], rgb[2], NULL),
                     MP_ERR_ARG);
    assert_int_equal(mp_synth_render_truth_rgb(&scenes[0], w, h, 0, rgb[0], NULL, rgb[2], NULL),
                     MP_ERR_ARG);
    assert_int_equal(mp_synth_render_truth_rgb(&scenes[0], 0, h, 0, rgb[0], rgb[1], rgb[2], NULL),
                     MP_ERR_ARG);
    free(cfa);
    for (int c = 0; c < 3; c++)
        free(rgb[c]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rng_streams_are_reproducible_and_distinct),
        cmocka_unit_test(det_log_exp_match_libm),
        cmocka_unit_test(gaussian_has_unit_variance),
        cmocka_unit_test(poisson_moments_over_all_regimes),
        cmocka_unit_test(sensor_levels_scale_with_depth),
        cmocka_unit_test(expose_is_deterministic),
        cmocka_unit_test(expose_bytes_are_pinned),
        cmocka_unit_test(flat_field_matches_poisson_plus_read_noise),
        cmocka_unit_test(ob_border_holds_black_and_read_noise),
        cmocka_unit_test(clipping_and_dark_frames),
        cmocka_unit_test(phase_selects_bright_rows),
        cmocka_unit_test(benchmark_truth_follows_formulas),
        cmocka_unit_test(frames_shift_and_jitter),
        cmocka_unit_test(flat_and_ramp_scenes),
        cmocka_unit_test(bad_arguments_are_refused),
        cmocka_unit_test(rgb_truth_is_the_unsampled_cfa_truth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
