#include "defect_case.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void defect_case_defects(const defect_case *c, synth_defects *d)
{
    memset(d, 0, sizeof *d);
    if (!c->defects)
        return;
    *d = (synth_defects){.fp_period_x = 12, .fp_period_y = 10, .fp_x = 4, .fp_y = 3,
                         .fp_offset_dn = 16, .fp_slope = 0.03, .hot_count = 200,
                         .cold_count = 200, .stripe_amp = 0.005, .seed = c->seed + 99};
}

static void case_model(const defect_case *c, synth_sensor *s, synth_scene *sc)
{
    mp_synth_sensor_default(s, 14, c->ev_gap);
    memset(sc, 0, sizeof *sc);
    sc->seed = c->seed;
    switch (c->scene) {
    case CASE_FLAT: sc->kind = SYNTH_SCENE_FLAT; sc->exposure_ev = 11; break;
    case CASE_DARK: sc->kind = SYNTH_SCENE_FLAT; sc->exposure_ev = 3; break;
    case CASE_TEXTURED: sc->kind = SYNTH_SCENE_BENCHMARK; sc->shift_px = 1.5; break;
    case CASE_STATIC: sc->kind = SYNTH_SCENE_BENCHMARK; break;
    }
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Largest |column-class mean / mean of its colour's classes - 1| over the active area,
 * defect sites left out, in %. */
static void stripe_means(const mp_frame *f, const synth_sensor *s, const uint8_t *defect,
                         double sum[4][8], double cnt[4][8])
{
    for (uint32_t y = s->ob_top; y < f->height; y++)
        for (uint32_t x = s->ob_left; x < f->width; x++) {
            size_t i = (size_t)y * f->width + x;
            if (defect[i] || f->data[i] >= f->white)
                continue;
            sum[y % 4][x % 8] += f->data[i] - s->black;
            cnt[y % 4][x % 8]++;
        }
}

static double stripe_residue(double sum[4][8], double cnt[4][8])
{
    double worst = 0;
    for (int r = 0; r < 4; r++)
        for (int p = 0; p < 2; p++) {
            double mean = 0;
            for (int c = p; c < 8; c += 2)
                mean += sum[r][c] / cnt[r][c] / 4;
            for (int c = p; c < 8; c += 2)
                worst = fmax(worst, fabs(sum[r][c] / cnt[r][c] / mean - 1));
        }
    return 100 * worst;
}

typedef struct sim {
    synth_sensor sensor;
    synth_scene scene;
    synth_defects defects;
    synth_defect *sites;
    uint32_t count;
    float *truth;
} sim;

static int sim_frame(const defect_case *c, sim *m, uint32_t frame, mp_frame *out)
{
    mp_error err = {0};
    if (mp_synth_render_truth(&m->scene, c->width, c->height, frame, m->truth, &err) ||
        mp_synth_expose(&m->sensor, m->truth, c->width, c->height, c->seed, frame, out, &err) ||
        mp_synth_defects_apply(&m->defects, &m->sensor, m->truth, m->sites, m->count, out, &err)) {
        fprintf(stderr, "defect_case: %s\n", err.msg);
        return 1;
    }
    return 0;
}

int defect_case_run(const defect_case *c, case_score *s, rawfix_map *map_out)
{
    memset(s, 0, sizeof *s);
    sim m = {0};
    mp_error err = {0};
    case_model(c, &m.sensor, &m.scene);
    defect_case_defects(c, &m.defects);
    const uint32_t bw = c->width + m.sensor.ob_left, bh = c->height + m.sensor.ob_top;
    const size_t n = (size_t)bw * bh;
    const int dual = c->ev_gap > 0;
    mp_frame f = {0};
    rawfix_measurement meas = {0};
    rawfix_accum *acc = mp_rawfix_accum_new(bw, bh);
    rawfix_map map = {0};
    rawfix_plan plan = {0};
    uint8_t *truth_kind = calloc(n, 1);   /* 0 none, 1 focus, 2 hot/cold */
    m.truth = malloc((size_t)c->width * c->height * sizeof *m.truth);
    int rc = 1;
    if (!acc || !truth_kind || !m.truth ||
        mp_synth_defects_sites(&m.defects, c->width, c->height, m.sensor.ob_left, m.sensor.ob_top,
                            &m.sites, &m.count, NULL, &err))
        goto done;
    for (uint32_t k = 0; k < m.count; k++)
        truth_kind[(size_t)m.sites[k].y * bw + m.sites[k].x] =
            m.sites[k].kind == SYNTH_DEFECT_FOCUS ? 1 : 2;
    for (uint32_t fr = 0; fr < c->frames; fr++) {
        if (sim_frame(c, &m, fr, &f) || mp_rawfix_measure(&f, dual, &meas, &err) ||
            mp_rawfix_accum_add(acc, &meas, fr, &err))
            goto done;
    }
    if (mp_rawfix_map_build(acc, &map, &err) ||
        mp_rawfix_plan_make(&map, RAWFIX_ALL, dual, &plan, &err))
        goto done;
    s->pixels = n;
    s->period_x = map.lattice.period_x;
    s->period_y = map.lattice.period_y;
    s->stripes_applied = map.stripes;
    s->stripe_amplitude = 100 * map.stripe_amplitude;
    for (size_t i = 0; i < n; i++) {
        uint8_t site = plan.is_site ? plan.is_site[i] : 0;
        if (truth_kind[i] == 1)
            s->focus_true++, s->focus_found += site;
        else if (truth_kind[i] == 2)
            s->bad_true++, s->bad_found += site;
        else
            s->false_sites += site;
    }
    /* Repair frames the map never saw; stripe residue over 4 of them. */
    double sb[4][8] = {{0}}, cb[4][8] = {{0}}, sa[4][8] = {{0}}, ca[4][8] = {{0}};
    double res2 = 0, found2 = 0;
    uint32_t res_n = 0, found_n = 0;
    const double g_dark = mp_synth_sensor_gain(&m.sensor);
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t fr = c->frames + k;
        if (sim_frame(c, &m, fr, &f))
            goto done;
        stripe_means(&f, &m.sensor, truth_kind, sb, cb);
        double t0 = cpu_now();
        if (mp_rawfix_apply(&plan, &f, &err))
            goto done;
        s->seconds_apply += (cpu_now() - t0) / 4;
        stripe_means(&f, &m.sensor, truth_kind, sa, ca);
        for (uint32_t j = 0; j < m.count; j++) {
            uint32_t x = m.sites[j].x, y = m.sites[j].y;
            int bright = mp_synth_row_is_bright(&m.sensor, y);
            double gain = bright ? g_dark * exp2(m.sensor.ev_gap) : g_dark;
            double sigma = bright ? m.sensor.read_noise_bright : m.sensor.read_noise_dark;
            double e = m.truth[(size_t)(y - m.sensor.ob_top) * c->width + x - m.sensor.ob_left];
            double expect = m.sensor.black + e * gain;
            if (expect >= 0.95 * m.sensor.white)
                continue;
            double noise = sqrt(sigma * sigma + gain * gain * e);
            double r = (f.data[(size_t)y * bw + x] - expect) / noise;
            res2 += r * r;
            res_n++;
            if (plan.is_site && plan.is_site[(size_t)y * bw + x])
                found2 += r * r, found_n++;
        }
    }
    s->stripe_before = stripe_residue(sb, cb);
    s->stripe_after = stripe_residue(sa, ca);
    s->residue_rms = res_n ? sqrt(res2 / res_n) : 0;
    s->residue_found_rms = found_n ? sqrt(found2 / found_n) : 0;
    rc = 0;
done:
    if (rc && err.msg[0])
        fprintf(stderr, "defect_case: %s\n", err.msg);
    if (map_out && rc == 0)
        *map_out = map;
    else
        mp_rawfix_map_free(&map);
    mp_rawfix_plan_free(&plan);
    mp_rawfix_accum_free(acc);
    mp_rawfix_measurement_free(&meas);
    mp_frame_free(&f);
    free(truth_kind);
    free(m.truth);
    free(m.sites);
    return rc;
}
