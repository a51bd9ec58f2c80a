/* checkasm: whole frames through the modules that hold kernels, at every level. A simulated
 * dual-ISO clip with sensor defects (8 frames, a width no vector divides) is measured by
 * rawfix (map built, frame 0 repaired), reconstructed by dual ISO and developed (RCD with the
 * BT.709 and LogC3 curves), and the develop curves' whole tables are made (they come from
 * libm's pow and log10, whose last bits differ between libm builds; a frame reads few of
 * their entries). Each stage's output bytes are hashed; every level must give the C
 * level's hashes. The hashes are printed so that a build for another architecture (run
 * under qemu, tests/checkasm/cross_arm64.sh) can be compared with this one: the same clip
 * gives the same bytes on every farm node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "develop/curve.h"
#include "develop/develop.h"
#include "dualiso/dualiso.h"
#include "dualiso_case.h"
#include "rawfix/rawfix.h"
#include "rawfix/rawfix_dsp.h"
#include "synth/synth.h"

enum { FW = 250, FH = 96, FRAMES = 8, STAGES = 5 };
static const char *const stage_names[STAGES] = {"rawfix", "dualiso", "develop-bt709",
                                                "develop-logc3", "curve-tables"};

static mp_status make_clip(mp_frame clip[FRAMES], mp_error *err)
{
    synth_sensor s;
    mp_synth_sensor_default(&s, 14, 3);
    s.ob_left = 24;
    s.ob_top = 8;
    synth_scene sc = {.kind = SYNTH_SCENE_BENCHMARK, .shift_px = 1.5, .seed = 7};
    synth_defects d = {.fp_period_x = 12, .fp_period_y = 10, .fp_x = 4, .fp_y = 3,
                       .fp_offset_dn = 16, .fp_slope = 0.03, .hot_count = 20,
                       .cold_count = 20, .stripe_amp = 0.005, .seed = 11};
    const uint32_t w = FW - s.ob_left, h = FH - s.ob_top;
    synth_defect *sites = NULL;
    uint32_t count = 0;
    float *truth = malloc(sizeof *truth * w * h);
    mp_status st = truth ? mp_synth_defects_sites(&d, w, h, s.ob_left, s.ob_top, &sites, &count,
                                                  NULL, err)
                         : mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    for (uint32_t k = 0; st == MP_OK && k < FRAMES; k++) {
        st = mp_synth_render_truth(&sc, w, h, k, truth, err);
        if (st == MP_OK)
            st = mp_synth_expose(&s, truth, w, h, 5, k, &clip[k], err);
        if (st == MP_OK)
            st = mp_synth_defects_apply(&d, &s, truth, sites, count, &clip[k], err);
    }
    free(sites);
    free(truth);
    return st;
}

static uint64_t hash_rgb(const develop_rgb *rgb)
{
    uint64_t h = CHECKASM_HASH_START;
    for (int c = 0; c < 3; c++)
        h = checkasm_hash(h, rgb->plane[c], sizeof *rgb->plane[c] * rgb->width * rgb->height);
    return h;
}

static mp_status develop(const mp_frame *f, mp_curve curve, uint64_t *hash, mp_error *err)
{
    develop_params p;
    mp_develop_params_default(&p);
    p.wb = DEVELOP_WB_CUSTOM;
    p.wb_gains[0] = 2.1f;
    p.wb_gains[1] = 1;
    p.wb_gains[2] = 1.6f;
    p.matrix = DEVELOP_MATRIX_IDENTITY;
    p.curve = curve;
    develop_context *ctx = NULL;
    develop_workspace ws = {0};
    develop_rgb rgb = {0};
    mp_status st = mp_develop_context_create(&p, NULL, NULL, &ctx, err);
    if (st == MP_OK)
        st = mp_develop_frame(ctx, f, &ws, &rgb, err);
    if (st == MP_OK)
        *hash = hash_rgb(&rgb);
    mp_develop_rgb_free(&rgb);
    mp_develop_workspace_free(&ws);
    mp_develop_context_free(ctx);
    return st;
}

static uint64_t hash_curve_tables(void)
{
    static const mp_curve curves[] = {MP_CURVE_LINEAR, MP_CURVE_BT709, MP_CURVE_LOGC3,
                                      MP_CURVE_SLOG3};
    static curve_lut lut;
    uint64_t h = CHECKASM_HASH_START;
    for (size_t i = 0; i < sizeof curves / sizeof *curves; i++) {
        mp_curve_lut_init(&lut, curves[i]);
        h = checkasm_hash(h, &lut, sizeof lut);
    }
    return h;
}

/* The stages' hashes for the clip at the level in use. */
static mp_status run_stages(const mp_frame clip[FRAMES], uint64_t hash[STAGES], mp_error *err)
{
    rawfix_measurement meas = {0};
    rawfix_accum *acc = mp_rawfix_accum_new(FW, FH);
    rawfix_map map = {0};
    rawfix_plan plan = {0};
    mp_frame f = clip[0], out = {0};
    dualiso_levels lv;
    uint64_t h = CHECKASM_HASH_START;
    f.data = NULL;
    f.capacity = 0;
    mp_status st = acc ? MP_OK : mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    for (uint32_t k = 0; st == MP_OK && k < FRAMES; k++) {
        st = mp_rawfix_measure(&clip[k], 1, &meas, err);
        if (st == MP_OK) {
            h = checkasm_hash(h, meas.sigma, sizeof *meas.sigma * 4 * RAWFIX_LEVEL_BINS);
            st = mp_rawfix_accum_add(acc, &meas, &clip[k], k, err);
        }
    }
    if (st == MP_OK)
        st = mp_rawfix_map_build(acc, &map, err);
    if (st == MP_OK) {
        h = checkasm_hash(h, &map.lattice, sizeof map.lattice);
        h = checkasm_hash(h, map.pixels, sizeof *map.pixels * 2 * map.pixel_count);
        h = checkasm_hash(h, map.stripe_gain, sizeof map.stripe_gain);
    }
    if (st == MP_OK)
        st = mp_rawfix_plan_make(&map, RAWFIX_ALL, 1, &plan, err);
    if (st == MP_OK)
        st = mp_frame_reserve(&f, FW, FH, err);
    if (st == MP_OK) {
        memcpy(f.data, clip[0].data, sizeof *f.data * FW * FH);
        st = mp_rawfix_apply(&plan, &f, err);
    }
    if (st == MP_OK) {
        hash[0] = checkasm_hash(h, f.data, sizeof *f.data * FW * FH);
        st = dualiso_case_reconstruct(&f, &out, &lv, err);
    }
    if (st == MP_OK) {
        hash[1] = checkasm_hash(CHECKASM_HASH_START, out.data,
                             sizeof *out.data * out.width * out.height);
        st = develop(&out, MP_CURVE_BT709, &hash[2], err);
    }
    if (st == MP_OK)
        st = develop(&out, MP_CURVE_LOGC3, &hash[3], err);
    hash[4] = hash_curve_tables();
    mp_frame_free(&out);
    mp_frame_free(&f);
    mp_rawfix_plan_free(&plan);
    mp_rawfix_map_free(&map);
    mp_rawfix_accum_free(acc);
    mp_rawfix_measurement_free(&meas);
    return st;
}

int checkasm_frames(void)
{
    mp_frame clip[FRAMES] = {{0}};
    mp_error err = {0};
    uint64_t ref[STAGES] = {0}, hash[STAGES];
    int failures = 0;
    mp_status st = make_clip(clip, &err);
    for (int l = MP_CPU_C; st == MP_OK && l < MP_CPU_LEVELS; l++) {
        if (!mp_cpu_has((mp_cpu_level)l))
            continue;
        mp_cpu_set_level((mp_cpu_level)l);
        st = run_stages(clip, l == MP_CPU_C ? ref : hash, &err);
        for (int s = 0; st == MP_OK && s < STAGES; s++) {
            uint64_t got = l == MP_CPU_C ? ref[s] : hash[s];
            int ok = got == ref[s];
            printf("  %-5s frames %-13s: %s hash %016llx\n", mp_cpu_level_name(l), stage_names[s],
                   ok ? "ok" : "FAILED", (unsigned long long)got);
            failures += !ok;
        }
    }
    for (int k = 0; k < FRAMES; k++)
        mp_frame_free(&clip[k]);
    if (st != MP_OK) {
        fprintf(stderr, "checkasm: frames: %s\n", err.msg);
        return 1;
    }
    return failures;
}
