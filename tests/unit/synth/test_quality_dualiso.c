/* The dual-ISO reconstruction against ground truth on both benchmark scenes (doc/dualiso.md
 * 8.2 and 8.8) at 640x480, 100/1600, levels pooled blind from the frame: the edge RMS where
 * the bright field clips (11-15 EV) holds issue 15's gain (before it: 0.086 on the first
 * scene, 0.139 on the second; after: 0.067 and 0.112), and nothing else slips. The second
 * scene's regions are checked on the ISO-100 control: every region is populated and the
 * 11-15 EV edges of a raw frame show only its noise. Since issue 34 nothing is smoothed by
 * default: the DR stays at what the optimal mix of the two exposures allows and the
 * shadows' edge contrast at least at the bright field's own. The highlight estimate's step
 * fit and shallow edges (issue 34, doc/dualiso.md 8.13) hold their gain: 11-15 EV edges
 * 0.067 -> 0.063 on the first scene (the step fit; without it 0.067), 0.112 -> 0.106 on the
 * second (without the shallow edges' crossings 0.111, without the shallower directions as
 * well 0.113). The zone plates hold session 15's column estimate of the dark rows (interp.c
 * column_row, doc/dualiso.md 8.14; without it 0.399 and 0.148, with it 0.367 and 0.130). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "dualiso_case.h"
#include "bright_alone.h"
#include "metrics.h"
#include "synth/synth.h"

#define W 640
#define H 480

typedef struct limits {
    double edge_lo, edge_hi, zone;  /* largest acceptable RMS, EV */
} limits;

/* Exposes frame 0 of the scene on sensor s (the high-ISO field's read noise bright_e
 * electrons, 0: the sensor's 13.8 DN); reconstructs it when s is dual, and then measures the
 * bright field alone into *alone too. */
static void measure_on(synth_scene_kind kind, double ev_gap, double bright_e, qm_report *rep,
                       qm_report *alone)
{
    float *truth = malloc(sizeof *truth * W * H);
    assert_non_null(truth);
    synth_scene sc = {.kind = kind, .seed = 7};
    assert_int_equal(mp_synth_render_truth(&sc, W, H, 0, truth, NULL), MP_OK);
    synth_sensor s;
    mp_synth_sensor_default(&s, 14, ev_gap);
    if (bright_e > 0)
        s.read_noise_bright = bright_e * mp_synth_sensor_gain(&s) * exp2(ev_gap);
    mp_frame raw = {0}, out = {0};
    mp_error err = {0};
    assert_int_equal(mp_synth_expose(&s, truth, W, H, 7, 0, &raw, &err), MP_OK);
    const mp_frame *measured = &raw;
    double s_out = mp_synth_sensor_gain(&s);
    if (ev_gap > 0) {
        dualiso_levels lv;
        assert_int_equal(dualiso_case_reconstruct(&raw, &out, &lv, &err), MP_OK);
        measured = &out;
        s_out *= lv.out_scale;
    }
    qm_input in = {.truth = truth, .width = W, .height = H, .out = measured,
                   .roi_x = s.ob_left, .roi_y = s.ob_top, .black = measured->black,
                   .white = measured->white, .s_out = s_out,
                   .objects = kind == SYNTH_SCENE_OBJECTS};
    double gb = mp_synth_sensor_gain(&s) * exp2(ev_gap);
    qm_noise_model model = {.read_noise_dark_e = s.read_noise_dark / mp_synth_sensor_gain(&s),
                            .read_noise_bright_e = s.read_noise_bright / gb,
                            .bright_clip_e = ev_gap > 0 ? (s.white - s.black) / gb : 0,
                            .phase = ev_gap > 0 ? (int)s.phase : -1};
    in.floor = &model;
    assert_int_equal(qm_measure(&in, rep, &err), MP_OK);
    if (ev_gap > 0) {
        dualiso_levels lv;
        assert_int_equal(dualiso_case_reconstruct(&raw, &out, &lv, &err), MP_OK);
        assert_int_equal(qm_bright_field_alone(&raw, &lv, &out, &err), MP_OK);
        in.black = out.black;
        in.white = out.white;
        assert_int_equal(qm_measure(&in, alone, &err), MP_OK);
    }
    mp_frame_free(&raw);
    mp_frame_free(&out);
    free(truth);
}

static void measure(synth_scene_kind kind, double ev_gap, qm_report *rep, qm_report *alone)
{
    measure_on(kind, ev_gap, 0, rep, alone);
}

static void check(synth_scene_kind kind, const limits *l)
{
    qm_report d, a;
    measure(kind, 4, &d, &a);
    print_message("scene %d: edge %.4f / %.4f, zone %.4f, DR %.2f (ideal unsmoothed %.2f), "
                  "edge contrast %.3f %.3f %.3f %.3f\n",
                  kind == SYNTH_SCENE_OBJECTS ? 2 : 1, d.edge_rms[0], d.edge_rms[1], d.zone_rms,
                  d.dr_ev, d.dr_ideal_ev, qm_edge_contrast(&d.res, 0),
                  qm_edge_contrast(&d.res, 1), qm_edge_contrast(&d.res, 2),
                  qm_edge_contrast(&d.res, 3));
    print_message("  the bright field alone: edge contrast %.3f %.3f\n",
                  qm_edge_contrast(&a.res, 0), qm_edge_contrast(&a.res, 1));
    assert_true(d.edge_rms[1] <= l->edge_hi);
    assert_true(d.edge_rms[0] <= l->edge_lo);
    assert_true(d.zone_rms <= l->zone);
    /* issue 34: no smoothing, so the DR is what the noise of the two exposures' optimal
     * combination gives (the shadow smoothing of before: 14.70 on scene 1 at HD, above the
     * 13.97 possible), and the shadows keep at least the bright field's own detail (it:
     * edge contrast 0.685 at 3-6 EV against the bright field's 0.721 at HD) */
    assert_true(d.dr_ev <= d.dr_ideal_ev + 0.05 && d.dr_ev >= d.dr_ideal_ev - 0.1);
    assert_true(qm_edge_contrast(&d.res, 0) >= qm_edge_contrast(&a.res, 0) - 0.01);
}

static void first_scene_edges_where_the_bright_field_clips(void **state)
{
    (void)state;
    /* edge 11-15 EV: 0.063 before session 16's colour edges above the clip, 0.044 after */
    const limits l = {.edge_lo = 0.102, .edge_hi = 0.052, .zone = 0.385};
    check(SYNTH_SCENE_BENCHMARK, &l);
}

static void second_scene_edges_where_the_bright_field_clips(void **state)
{
    (void)state;
    /* edge 11-15 EV: 0.106 before session 16's colour edges above the clip, 0.079 after */
    const limits l = {.edge_lo = 0.097, .edge_hi = 0.092, .zone = 0.140};
    check(SYNTH_SCENE_OBJECTS, &l);
}

/* Issue 34 asks DR >= 14.85 EV at 100/1600 without smoothing: on this sensor (4.30 e- of
 * read noise at ISO 1600, 5D Mark III-like) the two exposures allow 13.97, so only a
 * cleaner high-ISO field gives it (doc/dualiso.md 8.10: 2.0 e- allow 14.89). On such a
 * sensor the reconstruction, levels pooled blind as ever, reaches what the noise allows
 * and no more: the DR follows the sensor, not the smoothing. */
static void cleaner_high_iso_field_gives_its_dr_and_no_more(void **state)
{
    (void)state;
    qm_report d, a;
    measure_on(SYNTH_SCENE_BENCHMARK, 4, 2.0, &d, &a);
    print_message("bright read noise 2.0 e-: DR %.3f (ideal unsmoothed %.3f), edge contrast "
                  "3-6 EV %.3f (bright field alone %.3f)\n", d.dr_ev, d.dr_ideal_ev,
                  qm_edge_contrast(&d.res, 0), qm_edge_contrast(&a.res, 0));
    assert_true(d.dr_ideal_ev > 14.8);
    assert_true(d.dr_ev <= d.dr_ideal_ev + 0.05 && d.dr_ev >= d.dr_ideal_ev - 0.1);
    assert_true(qm_edge_contrast(&d.res, 0) >= qm_edge_contrast(&a.res, 0) - 0.01);
}

static void second_scene_regions_on_the_control(void **state)
{
    (void)state;
    qm_report c;
    measure(SYNTH_SCENE_OBJECTS, 0, &c, NULL);
    assert_true(c.edge_n[0] > 10000 && c.edge_n[1] > 5000 && c.zone_n > 10000);
    assert_true(c.edge_rms[1] < 0.03); /* raw 11-15 EV: shot and read noise only */
    assert_true(isnan(c.edge_width_px));
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 3; k++)
            assert_true(c.patches[i].n[k] > 100);
    int bins = 0;
    for (int i = 0; i < QM_BINS; i++)
        bins += c.bin_valid[i];
    assert_true(bins >= 30); /* the ramp covers -1.5 .. 16 EV */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(first_scene_edges_where_the_bright_field_clips),
        cmocka_unit_test(second_scene_edges_where_the_bright_field_clips),
        cmocka_unit_test(cleaner_high_iso_field_gives_its_dr_and_no_more),
        cmocka_unit_test(second_scene_regions_on_the_control),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
