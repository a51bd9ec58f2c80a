/* Unit tests for the dual-ISO quality metrics (tools/bench/quality/metrics.c) on synthetic
 * outputs with known answers: exact, scaled, log-offset, noisy, blurred and shifted copies
 * of the benchmark truth. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "metrics.h"
#include "synth/synth.h"
#include "synth/synth_rng.h"

#define W 640
#define H 480

typedef struct fixture {
    float truth[W * H];
    mp_frame out;
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    synth_scene sc = {.kind = SYNTH_SCENE_BENCHMARK};
    if (!fx || mp_synth_render_truth(&sc, W, H, 0, fx->truth, NULL) != MP_OK)
        return -1;
    if (mp_frame_reserve(&fx->out, W, H, NULL) != MP_OK)
        return -1;
    fx->out.bits = 16;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    mp_frame_free(&fx->out);
    free(fx);
    return 0;
}

/* out = black + s_out * f(truth), rounded and clipped to [0, white]. */
typedef double (*transform)(double e, int x, int y, void *ctx);

static void make_output(fixture *fx, double black, double white, double s_out, transform f,
                        void *ctx)
{
    fx->out.black = (uint32_t)black;
    fx->out.white = (uint32_t)white;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double v = floor(black + s_out * f(fx->truth[y * W + x], x, y, ctx) + 0.5);
            fx->out.data[y * W + x] = (uint16_t)(v < 0 ? 0 : v > white ? white : v);
        }
}

static qm_input input_of(fixture *fx, double s_out)
{
    return (qm_input){.truth = fx->truth, .width = W, .height = H, .out = &fx->out,
                      .black = fx->out.black, .white = fx->out.white, .s_out = s_out};
}

static double identity(double e, int x, int y, void *ctx)
{
    (void)x, (void)y, (void)ctx;
    return e;
}

static double scaled(double e, int x, int y, void *ctx)
{
    (void)x, (void)y;
    return e * *(double *)ctx;
}

static double gaussian_noise(double e, int x, int y, void *ctx)
{
    (void)x, (void)y;
    return e + 10 * mp_synth_rng_gaussian(ctx);
}

static void exact_output_has_no_error(void **state)
{
    fixture *fx = *state;
    /* Integer truth so that S_out = 1 reproduces it exactly. */
    for (int i = 0; i < W * H; i++)
        fx->truth[i] = floorf(fx->truth[i] + 0.5f);
    make_output(fx, 100, 65100, 1, identity, NULL);
    qm_input in = input_of(fx, 1);
    qm_report rep;
    assert_int_equal(qm_measure(&in, &rep, NULL), MP_OK);
    assert_true(rep.clip_e == 65000);
    int valid = 0;
    for (int i = 0; i < QM_BINS; i++) {
        if (!rep.bin_valid[i])
            continue;
        valid++;
        assert_true(rep.bins[i].bias == 0 && rep.bins[i].noise == 0);
        assert_true(rep.bins[i].n > QM_BIN_MIN_PIXELS);
    }
    assert_true(valid > 25);  /* -1 ... 15.5 EV of ramp inside the mask */
    assert_true(rep.midtone_bias_pct[0] == 0 && rep.midtone_bias_pct[1] == 0);
    assert_true(rep.max_abs_bias_pct == 0);
    assert_true(isinf(rep.dr_ev));
    assert_true(rep.edge_rms[0] == 0 && rep.edge_rms[1] == 0 && rep.zone_rms == 0);
    assert_true(rep.edge_n[0] > 1000 && rep.edge_n[1] > 1000 && rep.zone_n > 1000);
    /* a perfect step measures ~0.3 px: the floor set by the 0.25-px sampling of the ESF */
    assert_true(rep.edge_width_px < 0.4);
    assert_true(fabs(rep.gain_error_pct) < 1e-9 && fabs(rep.offset_e) < 1e-6);
    for (int p = 0; p < 4; p++)
        for (int c = 0; c < QM_CHANNELS; c++) {
            assert_true(rep.patches[p].n[c] > 100);
            assert_true(rep.patches[p].error_pct[c] == 0);
        }
    /* green patch values are the scene's exact 2^EV */
    assert_true(rep.patches[1].mean_true[1] == 32);
}

static void one_percent_gain_shows_as_one_percent_bias(void **state)
{
    fixture *fx = *state;
    double k = 1.01;
    make_output(fx, 4096, 65535, 16, scaled, &k);
    qm_input in = input_of(fx, 16);
    qm_report rep;
    assert_int_equal(qm_measure(&in, &rep, NULL), MP_OK);
    int checked = 0;
    for (int i = 0; i < QM_BINS; i++) {
        if (!rep.bin_valid[i] || rep.bins[i].ev_lo < 5)
            continue;
        assert_true(fabs(rep.bins[i].bias_pct - 1) < 0.01);
        checked++;
    }
    assert_true(checked >= 10);  /* 5 ... 11.5 EV below this output's clip of 3840 e- */
    assert_true(fabs(rep.midtone_bias_pct[0] - 1) < 0.01);
    assert_true(fabs(rep.midtone_bias_pct[1] - 1) < 0.01);
    assert_true(fabs(rep.max_abs_bias_pct - 1) < 0.01);
    assert_true(fabs(rep.max_bias_excess_pct - 1) < 0.02);  /* no noise: s.e. ~ 0 */
    assert_true(fabs(rep.gain_error_pct - 1) < 0.01);
    assert_true(fabs(rep.offset_e) < 0.05);
    for (int c = 0; c < QM_CHANNELS; c++)
        assert_true(fabs(rep.patches[2].error_pct[c] - 1) < 0.01);
    /* a log error of log2(1.01) on every edge pixel */
    assert_true(fabs(rep.edge_rms[0] - log2(1.01)) < 1e-3);
    assert_true(fabs(rep.zone_rms - log2(1.01)) < 1e-3);
}

static void known_noise_gives_expected_dr(void **state)
{
    fixture *fx = *state;
    synth_rng r;
    mp_synth_rng_init(&r, 5, 0);
    make_output(fx, 4096, 65535, 16, gaussian_noise, &r);
    qm_input in = input_of(fx, 16);
    qm_report rep;
    assert_int_equal(qm_measure(&in, &rep, NULL), MP_OK);
    /* sigma 10 e-: SNR first reaches 1 in the 3.5-4.0 EV bin (mean ~13.6 e-) */
    assert_true(rep.dr_bin_ev == 3.5);
    assert_true(fabs(rep.dr_ev - log2(rep.clip_e / 10)) < 0.03);
    assert_true(fabs(rep.noise_at_512 - 10) < 0.3);
    assert_true(fabs(rep.deep_shadow_noise - 10) < 0.5);
    for (int i = 0; i < QM_BINS; i++)
        if (rep.bin_valid[i]) {
            assert_true(fabs(rep.bins[i].noise - 10) < 10 * 5 / sqrt(2.0 * rep.bins[i].n));
            assert_true(fabs(rep.bins[i].bias) < 5 * 10 / sqrt((double)rep.bins[i].n));
        }
    /* bias is sampling noise only: what 2 s.e. do not explain is small */
    assert_true(rep.max_bias_excess_pct < 0.3 && rep.max_bias_excess_pct <= rep.max_abs_bias_pct);
    assert_true(fabs(rep.bins[20].bias_se_pct - 100 * 10 / sqrt((double)rep.bins[20].n) /
                                                    rep.bins[20].mean_true) < 0.02);
    assert_true(fabs(rep.patches[1].snr[1] - 32 / 10.0) < 0.2);
    assert_true(fabs(rep.patches[3].noise[0] - 10) < 0.5);
}

static double box_blur_x(double e, int x, int y, void *ctx)
{
    const float *t = ctx;
    (void)e;
    double s = 0;
    for (int dx = -2; dx <= 2; dx += 2) {  /* same CFA colour */
        int xx = x + dx < 0 ? x : x + dx >= W ? x : x + dx;
        s += t[y * W + xx];
    }
    return s / 3;
}

static void blur_widens_edges(void **state)
{
    fixture *fx = *state;
    make_output(fx, 4096, 65535, 1, box_blur_x, fx->truth);
    qm_input in = input_of(fx, 1);
    qm_report rep;
    assert_int_equal(qm_measure(&in, &rep, NULL), MP_OK);
    assert_true(rep.edge_width_px > 1.5 && rep.edge_width_px < 5);
    assert_true(rep.edge_rms[0] > 0.2);
}

static void roi_offset_and_shift_are_honoured(void **state)
{
    fixture *fx = *state;
    double k = 1.02;
    make_output(fx, 4096, 65535, 16, scaled, &k);
    qm_input in = input_of(fx, 16);
    qm_report ref, rep;
    assert_int_equal(qm_measure(&in, &ref, NULL), MP_OK);
    /* the same output inside a frame with OB borders */
    mp_frame big = {0};
    assert_int_equal(mp_frame_reserve(&big, W + 72, H + 28, NULL), MP_OK);
    for (uint32_t i = 0; i < big.width * big.height; i++)
        big.data[i] = 7;
    for (int y = 0; y < H; y++)
        memcpy(big.data + (size_t)(y + 28) * big.width + 72, fx->out.data + y * W, W * 2);
    in.out = &big;
    in.roi_x = 72;
    in.roi_y = 28;
    assert_int_equal(qm_measure(&in, &rep, NULL), MP_OK);
    assert_memory_equal(&rep, &ref, sizeof rep);
    in.roi_x = 73;
    mp_error err = {0};
    assert_int_equal(qm_measure(&in, &rep, &err), MP_ERR_ARG);
    assert_non_null(strstr(err.msg, "outside"));
    in.roi_x = 72;
    in.s_out = 0;
    assert_int_equal(qm_measure(&in, &rep, NULL), MP_ERR_ARG);
    mp_frame_free(&big);

    /* A shifted frame: patches and the zone plate move with the scene. */
    synth_scene sc = {.kind = SYNTH_SCENE_BENCHMARK, .shift_px = 13.5};
    assert_int_equal(mp_synth_render_truth(&sc, W, H, 2, fx->truth, NULL), MP_OK);
    make_output(fx, 4096, 65535, 16, scaled, &k);
    in = input_of(fx, 16);
    in.scene_offset = 27;
    assert_int_equal(qm_measure(&in, &rep, NULL), MP_OK);
    for (int p = 0; p < 4; p++)
        assert_true(rep.patches[p].mean_true[1] == exp2(2 + 3 * p));
    assert_true(fabs(rep.zone_rms - log2(1.02)) < 1e-3);
}

static void flicker_ranges_and_prediction(void **state)
{
    fixture *fx = *state;
    qm_band_sums frames[4];
    for (int f = 0; f < 4; f++) {
        double k = 1 + 0.01 * f;
        /* frames with different output ranges: the normalisation to r_ref removes them */
        double white = f == 2 ? 40000 : 65535, black = f == 2 ? 2000 : 4096;
        double s_out = (white - black) / 4000;
        make_output(fx, black, white, s_out, scaled, &k);
        qm_input in = input_of(fx, s_out);
        qm_report rep;
        assert_int_equal(qm_measure(&in, &rep, NULL), MP_OK);
        /* e_out = (DN - B) / (W - B) * r_ref / S_out with the first frame's range and S_out */
        const double r_ref = 65535 - 4096, s_ref = r_ref / 4000;
        in.s_out = s_ref;
        assert_int_equal(qm_band_measure(&in, &rep, r_ref, NULL, &frames[f], NULL), MP_OK);
        for (int b = 0; b < QM_BANDS - 1; b++) {  /* the 11-14 EV band clips at 4000 e- */
            assert_true(frames[f].n[b] > 1000);
            double e = 100 * (frames[f].sum_out[b] / frames[f].sum_true[b] - 1);
            assert_true(fabs(e - f) < 0.02);
        }
    }
    qm_flicker fl;
    qm_flicker_summarise(frames, 4, &fl);
    for (int b = 0; b < QM_BANDS - 1; b++) {
        assert_true(fabs(fl.min_pct[b]) < 0.02 && fabs(fl.max_pct[b] - 3) < 0.02);
        assert_true(fabs(fl.std_pct[b] - sqrt(5.0 / 3)) < 0.02);
        assert_true(fl.predicted_std_pct[b] < 0.01);  /* rounding noise only */
    }

    /* Noise 10 e- per pixel: predicted std = 100 * sqrt(n * 100) / sum e_true. */
    synth_rng r;
    mp_synth_rng_init(&r, 9, 0);
    make_output(fx, 4096, 65535, 16, gaussian_noise, &r);
    qm_input in = input_of(fx, 16);
    qm_report rep;
    assert_int_equal(qm_measure(&in, &rep, NULL), MP_OK);
    qm_band_sums one;
    /* model: 10 e- of read noise below 1000 e-, 20 e- above, plus shot noise */
    qm_noise_model model = {.read_noise_dark_e = 20, .read_noise_bright_e = 10,
                            .bright_clip_e = 1000};
    assert_int_equal(qm_band_measure(&in, &rep, 65535 - 4096, &model, &one, NULL), MP_OK);
    qm_flicker_summarise(&one, 1, &fl);
    for (int b = 0; b < QM_BANDS - 1; b++) {
        double want = 100 * sqrt(one.n[b] * 100.0) / one.sum_true[b];
        assert_true(fabs(fl.predicted_std_pct[b] / want - 1) < 0.1);
        assert_true(one.model_var[b] > one.sum_true[b] + 100.0 * one.n[b] * 0.999);
        assert_true(fl.model_std_pct[b] > fl.predicted_std_pct[b]); /* shot noise on top */
    }
    /* 2-5 EV and 5-8 EV are all below 1000 e- (except R/B gains never raise them) */
    assert_true(fabs(one.model_var[0] - (one.sum_true[0] + 100.0 * one.n[0])) < 1e-6 * one.model_var[0]);
    assert_true(fabs(one.model_var[1] - (one.sum_true[1] + 100.0 * one.n[1])) < 1e-6 * one.model_var[1]);
    assert_true(one.model_var[2] > one.sum_true[2] + 100.0 * one.n[2]);  /* some above 1000 */
    assert_true(fl.std_pct[0] == 0);  /* one frame */
    assert_true(qm_band_lo_ev(0) == 2 && qm_band_lo_ev(3) == 11);
}

/* The RMS floor: expected squared log2 error of t + sigma z (clamped at 0.5 e-), against a
 * fine direct integral, at high and at low SNR (where the clamp matters); and its noise mix:
 * single ISO = own field; a bright row below the bright clip mixes its own sample with the
 * dark pair; above it, only the dark pair (half the dark variance). */
static double direct_le2(double t, double sigma)
{
    double s = 0, dz = 1e-3;
    for (double z = -9; z <= 9; z += dz) {
        double le = log2(fmax(t + sigma * z, 0.5)) - log2(t);
        s += le * le * exp(-0.5 * z * z) * dz;
    }
    return s / sqrt(2 * M_PI);
}

static void floor_is_the_expected_log_error(void **state)
{
    (void)state;
    qm_noise_model single = {.read_noise_dark_e = 30, .phase = -1};
    static const double t[3] = {10000, 300, 40};
    for (int i = 0; i < 3; i++) {
        double want = direct_le2(t[i], sqrt(900 + t[i]));
        double got = qm_floor_le2(&single, t[i], 0);
        if (fabs(got / want - 1) > 0.02)
            fail_msg("t %g: floor %g, direct %g", t[i], got, want);
    }
    qm_noise_model dual = {.read_noise_dark_e = 30, .read_noise_bright_e = 5,
                           .bright_clip_e = 1000, .phase = 0};
    double v = 1 / (1 / (25.0 + 300) + 2 / (900.0 + 300)); /* bright row: own + dark pair */
    assert_true(fabs(qm_floor_le2(&dual, 300, 1) / direct_le2(300, sqrt(v)) - 1) < 0.02);
    v = 1 / (1 / (900.0 + 300) + 2 / (25.0 + 300));        /* dark row: own + bright pair */
    assert_true(fabs(qm_floor_le2(&dual, 300, 0) / direct_le2(300, sqrt(v)) - 1) < 0.02);
    v = (900.0 + 4000) / 2;                                /* bright row, bright clipped */
    assert_true(fabs(qm_floor_le2(&dual, 4000, 1) / direct_le2(4000, sqrt(v)) - 1) < 0.02);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(exact_output_has_no_error, setup, teardown),
        cmocka_unit_test_setup_teardown(one_percent_gain_shows_as_one_percent_bias, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(known_noise_gives_expected_dr, setup, teardown),
        cmocka_unit_test_setup_teardown(blur_widens_edges, setup, teardown),
        cmocka_unit_test_setup_teardown(roi_offset_and_shift_are_honoured, setup, teardown),
        cmocka_unit_test_setup_teardown(flicker_ranges_and_prediction, setup, teardown),
        cmocka_unit_test(floor_is_the_expected_log_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
