/* The simulated sensor plus the quality metrics reproduce the measured control column of
 * doc/dualiso.md 8.4 (ISO-100-only raw, HD): this ties the sensor model, the scene
 * and every metric definition to the reference figures they are compared with. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "metrics.h"
#include "synth/synth.h"

static void hd_control_matches_reference_figures(void **state)
{
    (void)state;
    const uint32_t w = 1920, h = 1080;
    float *truth = malloc(sizeof *truth * w * h);
    assert_non_null(truth);
    synth_scene sc = {.kind = SYNTH_SCENE_BENCHMARK};
    assert_int_equal(mp_synth_render_truth(&sc, w, h, 0, truth, NULL), MP_OK);
    synth_sensor s;
    mp_synth_sensor_default(&s, 14, 0);
    mp_frame raw = {0};
    assert_int_equal(mp_synth_expose(&s, truth, w, h, 7, 0, &raw, NULL), MP_OK);
    qm_input in = {.truth = truth, .width = w, .height = h, .out = &raw, .roi_x = s.ob_left,
                   .roi_y = s.ob_top, .black = raw.black, .white = raw.white,
                   .s_out = mp_synth_sensor_gain(&s)};
    qm_report rep;
    assert_int_equal(qm_measure(&in, &rep, NULL), MP_OK);

    /* 8.4, first row. Tolerances cover the spread over seeds 1-12 of one frame (edge RMS
     * 0.455-0.484, zone plate 0.818-0.881, DR 10.925-10.957). */
    assert_true(fabs(rep.clip_e - 66000) < 1e-6);
    assert_true(fabs(rep.dr_ev - 10.95) < 0.06);
    assert_true(rep.dr_bin_ev == 5.0);                   /* "the 5.0-5.5 EV bin" */
    assert_true(fabs(rep.deep_shadow_noise - 32.9) < 0.6);
    assert_true(fabs(rep.noise_at_512 - 41.3) < 0.8);
    assert_true(fabs(rep.midtone_bias_pct[0]) < 0.1 && fabs(rep.midtone_bias_pct[1]) < 0.1);
    assert_true(fabs(rep.edge_rms[0] - 0.458) < 0.035);
    assert_true(fabs(rep.edge_rms[1] - 0.022) < 0.003);
    assert_true(fabs(rep.zone_rms - 0.832) < 0.06);
    /* flat patches: green SNR 0.95 at 2^5 e-, 7.0 at 2^8 e- */
    assert_true(fabs(rep.patches[1].snr[1] - 0.95) < 0.06);
    assert_true(fabs(rep.patches[2].snr[1] - 7.0) < 0.3);
    /* a raw frame has no gain or offset error */
    assert_true(fabs(rep.gain_error_pct) < 0.05 && fabs(rep.offset_e) < 0.5);
    mp_frame_free(&raw);
    free(truth);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hd_control_matches_reference_figures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
