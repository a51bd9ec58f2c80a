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
    if (c->fp_offset_dn > 0)
        d->fp_offset_dn = c->fp_offset_dn;
}

void defect_case_lattice(const defect_case *c, int dx, rawfix_lattice *l)
{
    synth_sensor s;
    synth_defects d;
    mp_synth_sensor_default(&s, 14, c->ev_gap);
    defect_case_defects(c, &d);
    memset(l, 0, sizeof *l);
    l->period_x = d.fp_period_x;
    l->period_y = d.fp_period_y;
    l->x0 = s.ob_left;
    l->y0 = s.ob_top;
    l->x1 = s.ob_left + c->width;
    l->y1 = s.ob_top + c->height;
    l->class_count = 2;
    for (uint32_t k = 0; k < 2; k++) {
        int x = (int)(d.fp_x + s.ob_left) + dx + (int)d.fp_period_x;
        l->class_x[k] = (uint32_t)x % d.fp_period_x;
        l->class_y[k] = (d.fp_y + k + s.ob_top) % d.fp_period_y;
    }
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
    case CASE_OBJECTS: sc->kind = SYNTH_SCENE_OBJECTS; sc->shift_px = 1.5; break;
    case CASE_JITTER: sc->kind = SYNTH_SCENE_BENCHMARK; sc->illum_sigma_ev = 0.25; break;
    case CASE_LENS_CAP: sc->kind = SYNTH_SCENE_FLAT; sc->exposure_ev = -40; break;
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
            if (mean < 1)   /* no light (a lens cap): gains mean nothing */
                continue;
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
    uint16_t *before;           /* the sites' values before the defects, one frame */
} sim;

/* The value the sensor would record at (x, y) without the defect and its noise (the
 * truth's electrons through the row's gain) into *expect, and that sample's own noise sigma
 * (read and shot noise) into *noise; returns the row's gain (DN per electron). */
static double truth_at(const sim *m, const defect_case *c, uint32_t x, uint32_t y,
                       double *expect, double *noise)
{
    const synth_sensor *s = &m->sensor;
    int bright = mp_synth_row_is_bright(s, y);
    double gain = mp_synth_sensor_gain(s) * (bright ? exp2(s->ev_gap) : 1);
    double sigma = bright ? s->read_noise_bright : s->read_noise_dark;
    double e = m->truth[(size_t)(y - s->ob_top) * c->width + x - s->ob_left];
    *expect = s->black + (bright ? s->bright_black_offset : 0) + e * gain;
    *noise = sqrt(sigma * sigma + gain * gain * e);
    return gain;
}

/* One simulated frame; changed (NULL: not counted) counts per site the frames where the
 * defect changed the recorded value, visible those where it changed it by more than the
 * sample's noise sigma (truth_at); offset sums that change in those sigmas. */
static int sim_frame(const defect_case *c, sim *m, uint32_t frame, mp_frame *out,
                     uint32_t *changed, uint32_t *visible, double *offset)
{
    mp_error err = {0};
    if (mp_synth_render_truth(&m->scene, c->width, c->height, frame, m->truth, &err) ||
        mp_synth_expose(&m->sensor, m->truth, c->width, c->height, c->seed, frame, out, &err))
        goto fail;
    for (uint32_t k = 0; changed && k < m->count; k++)
        m->before[k] = out->data[(size_t)m->sites[k].y * out->width + m->sites[k].x];
    if (mp_synth_defects_apply(&m->defects, &m->sensor, m->truth, m->sites, m->count, out, &err))
        goto fail;
    for (uint32_t k = 0; changed && k < m->count; k++) {
        const uint32_t x = m->sites[k].x, y = m->sites[k].y;
        const int32_t after = out->data[(size_t)y * out->width + x];
        double expect, noise;
        truth_at(m, c, x, y, &expect, &noise);
        changed[k] += m->before[k] != after;
        visible[k] += fabs((double)(after - m->before[k])) > noise;
        offset[k] += (after - m->before[k]) / noise;
    }
    return 0;
fail:
    fprintf(stderr, "defect_case: %s\n", err.msg);
    return 1;
}

static int copy_frame(mp_frame *dst, const mp_frame *src, mp_error *err)
{
    if (mp_frame_reserve(dst, src->width, src->height, err))
        return 1;
    uint16_t *data = dst->data;
    size_t capacity = dst->capacity;
    *dst = *src;
    dst->data = data;
    dst->capacity = capacity;
    memcpy(data, src->data, (size_t)src->width * src->height * sizeof *data);
    return 0;
}

const double case_strength_edges[CASE_STRENGTHS - 1] = {3, 6, 12};

uint32_t visible_frames(uint32_t frames)
{
    return frames / 4 > 3 ? frames / 4 : 3;
}

static int plan_site(const rawfix_plan *p, size_t i)
{
    return p->is_site && p->is_site[i];
}

/* The repaired sample at (x, y) against truth_at's value, in units of its noise sigma; 0
 * where the truth clips. */
static int residue_at(const sim *m, const defect_case *c, const mp_frame *f, uint32_t x,
                      uint32_t y, double *r)
{
    double expect, noise;
    truth_at(m, c, x, y, &expect, &noise);
    if (expect >= 0.95 * m->sensor.white)
        return 0;
    *r = (f->data[(size_t)y * f->width + x] - expect) / noise;
    return 1;
}

/* Whether the noise-free scene at (x, y) lies within one noise sigma of the mean of some pair
 * of its same-colour neighbours of the same field (row, column, diagonals): the scene is
 * resolved there by the samples a repair can use. Where it is not (detail finer than the
 * same-colour sampling, as at the zone plate's high frequencies), no repair from neighbours
 * can give the value back. */
static int resolved(const sim *m, const defect_case *c, int dual, uint32_t x, uint32_t y)
{
    const synth_sensor *s = &m->sensor;
    const int32_t ax = (int32_t)(x - s->ob_left), ay = (int32_t)(y - s->ob_top);
    const int32_t vs = dual ? 4 : 2, w = (int32_t)c->width, h = (int32_t)c->height;
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    double expect, noise, gain = truth_at(m, c, x, y, &expect, &noise);
    double e = m->truth[(size_t)ay * w + ax];
    for (int k = 0; k < 4; k++) {
        int32_t x0 = ax - 2 * dirs[k][0], y0 = ay - vs * dirs[k][1];
        int32_t x1 = ax + 2 * dirs[k][0], y1 = ay + vs * dirs[k][1];
        if (x0 < 0 || x1 < 0 || y0 < 0 || y1 < 0 || x0 >= w || x1 >= w || y0 >= h || y1 >= h)
            continue;
        double mean = (m->truth[(size_t)y0 * w + x0] + m->truth[(size_t)y1 * w + x1]) / 2;
        if (fabs(e - mean) * gain <= noise)
            return 1;
    }
    return 0;
}


/* The dual-ISO repair's field levels: the sensor's own, as the clip's levels would give them. */
static void set_fields(rawfix_plan *p, const synth_sensor *s)
{
    const rawfix_field_levels f = {
        .phase = s->phase,
        .ratio = exp2(s->ev_gap),
        .black = {s->black, s->black + s->bright_black_offset},
        .white = {s->white, s->white},
        .read_noise = {s->read_noise_dark, s->read_noise_bright},
        .gain = s->photon_noise ? mp_synth_sensor_gain(s) : 0,
    };
    mp_rawfix_plan_set_fields(p, &f);
}
/* The map's plan with probes added: clean samples on a grid of 11 x 9 (prime to the
 * lattice's steps) whose same-colour neighbours within 4 are no defect. */
static int probe_plan(const defect_case *c, const sim *m, const rawfix_map *map,
                      const uint8_t *truth_kind, int dual, rawfix_plan *probe, mp_error *err)
{
    const uint32_t bw = c->width + m->sensor.ob_left, bh = c->height + m->sensor.ob_top;
    rawfix_map pm;
    if (mp_rawfix_map_copy(&pm, map, err))
        return 1;
    uint32_t cap = (bw / 11 + 1) * (bh / 9 + 1) + map->pixel_count;
    uint32_t *px = malloc(2 * (size_t)cap * sizeof *px);
    if (!px) {
        mp_rawfix_map_free(&pm);
        return 1;
    }
    uint32_t n = 0;
    for (uint32_t k = 0; k < map->pixel_count; k++, n++)
        px[2 * n] = map->pixels[2 * k], px[2 * n + 1] = map->pixels[2 * k + 1];
    for (uint32_t y = m->sensor.ob_top + 8; y + 8 < bh; y += 9)
        for (uint32_t x = m->sensor.ob_left + 8; x + 8 < bw; x += 11) {
            int near = 0;
            for (int dy = -4; dy <= 4; dy++)
                for (int dx = -4; dx <= 4; dx++)
                    near |= truth_kind[(size_t)(y + dy) * bw + x + dx] != 0;
            if (!near)
                px[2 * n] = x, px[2 * n + 1] = y, n++;
        }
    free(pm.pixels);
    pm.pixels = px;
    pm.pixel_count = n;
    int rc = mp_rawfix_plan_make(&pm, RAWFIX_ALL, dual, probe, err) != MP_OK;
    if (!rc && dual)
        set_fields(probe, &m->sensor);
    mp_rawfix_map_free(&pm);
    return rc;
}

/* What one sampled frame showed at a hot/cold site: its deviations and the recorded values
 * of the site and of its same-colour neighbours of the same field (left, right, up, down). */
typedef struct site_look {
    int16_t zh, zv;
    uint16_t v[5];
} site_look;

static void look_at_sites(const sim *m, const mp_frame *f, rawfix_measurement *meas,
                          site_look *looks)
{
    const size_t w = f->width, vs = meas->vstep;
    for (uint32_t k = 0; k < m->count; k++) {
        const size_t i = (size_t)m->sites[k].y * w + m->sites[k].x;
        site_look *l = &looks[k];
        mp_rawfix_measure_at(meas, f, m->sites[k].x, m->sites[k].y, &l->zh, &l->zv);
        const size_t at[5] = {i, i - 2, i + 2, i - vs * w, i + vs * w};
        for (int j = 0; j < 5; j++)
            l->v[j] = at[j] < w * f->height ? f->data[at[j]] : 0;
    }
}

static const char *kind_name(synth_defect_kind k)
{
    static const char *names[] = {"focus", "hot stuck", "hot warm", "cold dead", "cold weak"};
    return names[k];
}

/* One line per missed hot/cold site (where, what, the noise-free scene's DN there in the
 * last sampled frame, frames measured / judged beyond clipping / where the defect moved
 * the value by more than its noise sigma, its strength), then its frames: z row/column in sigmas ("-" not
 * measured, "L" / "H" judged beyond clipping) and the recorded values, site first then its
 * four neighbours, a "*" on those at white. */
static void report_misses(const defect_case *c, const sim *m, const uint8_t *truth_kind,
                          const rawfix_plan *plan, const site_look *looks,
                          const uint32_t *visible, const double *offset, uint32_t white)
{
    const uint32_t bw = c->width + m->sensor.ob_left;
    for (uint32_t k = 0; k < m->count; k++) {
        const uint32_t x = m->sites[k].x, y = m->sites[k].y;
        const size_t i = (size_t)y * bw + x;
        if (truth_kind[i] != 2 || plan_site(plan, i))
            continue;
        uint32_t used = 0, low = 0, high = 0;
        for (uint32_t fr = 0; fr < c->frames; fr++) {
            int16_t z = looks[(size_t)fr * m->count + k].zh;
            used += z != RAWFIX_NO_Z && z != RAWFIX_CLIPPED_LOW && z != RAWFIX_CLIPPED_HIGH;
            low += z == RAWFIX_CLIPPED_LOW;
            high += z == RAWFIX_CLIPPED_HIGH;
        }
        const int bright = mp_synth_row_is_bright(&m->sensor, y);
        const double gain = mp_synth_sensor_gain(&m->sensor) * (bright ? exp2(c->ev_gap) : 1);
        const double scene = m->sensor.black + (bright ? m->sensor.bright_black_offset : 0) +
                             gain * m->truth[(size_t)(y - m->sensor.ob_top) * c->width + x -
                                             m->sensor.ob_left];
        fprintf(c->misses, "  miss (%u, %u) %s, %s row, scene %.0f DN (white %u); measured %u, "
                "beyond clipping low %u high %u of %u frames; moved by > 1 sigma in %u, by "
                "%.1f sigmas on average\n", x, y, kind_name(m->sites[k].kind),
                bright ? "bright" : "dark", scene, white, used, low, high, c->frames, visible[k],
                offset[k] / c->frames);
        for (uint32_t fr = 0; fr < c->frames; fr++) {
            const site_look *l = &looks[(size_t)fr * m->count + k];
            fprintf(c->misses, "    frame %2u z ", fr);
            if (l->zh == RAWFIX_NO_Z || l->zh == RAWFIX_CLIPPED_LOW || l->zh == RAWFIX_CLIPPED_HIGH)
                fprintf(c->misses, "%-13s", l->zh == RAWFIX_NO_Z ? "-" :
                        l->zh == RAWFIX_CLIPPED_LOW ? "L" : "H");
            else
                fprintf(c->misses, "%6.2f/%-6.2f", l->zh / 16.0, l->zv / 16.0);
            fprintf(c->misses, " values");
            for (int j = 0; j < 5; j++)
                fprintf(c->misses, " %5u%s", l->v[j], l->v[j] >= white ? "*" : " ");
            fprintf(c->misses, "\n");
        }
    }
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
    mp_frame f = {0}, g = {0};
    rawfix_measurement meas = {0};
    rawfix_accum *acc = mp_rawfix_accum_new(bw, bh);
    rawfix_map map = {0};
    rawfix_plan plan = {0}, probe = {0};
    uint8_t *truth_kind = calloc(n, 1);   /* 0 none, 1 focus, 2 hot/cold, 3 hidden */
    uint32_t *changed = NULL, *visible = NULL;
    double *offset = NULL;
    site_look *looks = NULL;
    m.truth = malloc((size_t)c->width * c->height * sizeof *m.truth);
    int rc = 1;
    if (!acc || !truth_kind || !m.truth ||
        mp_synth_defects_sites(&m.defects, c->width, c->height, m.sensor.ob_left, m.sensor.ob_top,
                            &m.sites, &m.count, NULL, &err))
        goto done;
    changed = calloc(m.count + 1, sizeof *changed);
    visible = calloc(m.count + 1, sizeof *visible);
    offset = calloc(m.count + 1, sizeof *offset);
    m.before = malloc((m.count + 1) * sizeof *m.before);
    if (c->misses)
        looks = malloc(((size_t)m.count * c->frames + 1) * sizeof *looks);
    if (!changed || !visible || !offset || !m.before || (c->misses && !looks))
        goto done;
    for (uint32_t fr = 0; fr < c->frames; fr++) {
        if (sim_frame(c, &m, fr, &f, changed, visible, offset) ||
            mp_rawfix_measure(&f, dual, &meas, &err) ||
            mp_rawfix_accum_add(acc, &meas, &f, fr, &err))
            goto done;
        if (looks)
            look_at_sites(&m, &f, &meas, looks + (size_t)fr * m.count);
    }
    for (uint32_t k = 0; k < m.count; k++) {
        int focus = m.sites[k].kind == SYNTH_DEFECT_FOCUS;
        truth_kind[(size_t)m.sites[k].y * bw + m.sites[k].x] = !changed[k] ? 3 : focus ? 1 : 2;
        if (!changed[k])
            *(focus ? &s->focus_hidden : &s->bad_hidden) += 1;
    }
    if (mp_rawfix_map_build_prior(acc, c->prior,
                                  c->prior ? (c->prior_count ? c->prior_count : 1) : 0, &map,
                                  NULL, &err))
        goto done;
    if (c->borrowed) {
        free(map.pixels);
        map.pixels = NULL;
        map.pixel_count = 0;
        map.lattice = (rawfix_lattice){0};
        if (mp_rawfix_map_add_moved(&map, c->borrowed, 0, 0, &err))
            goto done;
    }
    if (mp_rawfix_plan_make(&map, RAWFIX_ALL, dual, &plan, &err))
        goto done;
    if (dual)
        set_fields(&plan, &m.sensor);
    s->pixels = n;
    s->period_x = map.lattice.period_x;
    s->period_y = map.lattice.period_y;
    s->stripes_applied = map.stripes;
    s->stripe_amplitude = 100 * map.stripe_amplitude;
    const uint32_t min_visible = visible_frames(c->frames);
    for (uint32_t k = 0; k < m.count; k++) {
        const size_t i = (size_t)m.sites[k].y * bw + m.sites[k].x;
        if (truth_kind[i] == 2 && visible[k] >= min_visible)
            s->bad_visible++, s->bad_visible_found += plan_site(&plan, i);
        if (truth_kind[i] != 2)
            continue;
        const double strength = fabs(offset[k]) / c->frames;
        uint32_t b = 0;
        while (b + 1 < CASE_STRENGTHS && strength >= case_strength_edges[b])
            b++;
        s->strength_true[b]++;
        s->strength_found[b] += plan_site(&plan, i);
        if (strength >= case_strength_edges[1]) {
            s->kind6_true[m.sites[k].kind - 1]++;
            s->kind6_found[m.sites[k].kind - 1] += plan_site(&plan, i);
        }
    }
    for (size_t i = 0; i < n; i++) {
        uint8_t site = plan.is_site ? plan.is_site[i] : 0;
        if (truth_kind[i] == 1)
            s->focus_true++, s->focus_found += site;
        else if (truth_kind[i] == 2)
            s->bad_true++, s->bad_found += site;
        else if (truth_kind[i] == 0)
            s->false_sites += site;
    }
    if (looks)
        report_misses(c, &m, truth_kind, &plan, looks, visible, offset, f.white);
    /* Repair frames the map never saw; stripe residue over 4 of them. The same repair at
     * clean samples (probes: a sparse grid away from every defect, repaired as if they were
     * sites in a copy of the frame) gives what the scene itself allows there: no repair from
     * neighbours can know a sample's own detail or noise. */
    if (probe_plan(c, &m, &map, truth_kind, dual, &probe, &err))
        goto done;
    double sb[4][8] = {{0}}, cb[4][8] = {{0}}, sa[4][8] = {{0}}, ca[4][8] = {{0}};
    double res2 = 0, found2 = 0, floor2 = 0, smooth2 = 0;
    uint32_t res_n = 0, found_n = 0, floor_n = 0, smooth_n = 0, within2 = 0, floor_within2 = 0;
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t fr = c->frames + k;
        if (sim_frame(c, &m, fr, &f, NULL, NULL, NULL))
            goto done;
        if (copy_frame(&g, &f, &err) || mp_rawfix_apply(&probe, &g, &err))
            goto done;
        for (uint32_t j = 0; j < probe.site_count; j++) {
            size_t i = probe.sites[j];
            double r;
            if (truth_kind[i] == 0 && !plan_site(&plan, i) &&
                residue_at(&m, c, &g, (uint32_t)(i % bw), (uint32_t)(i / bw), &r))
                floor2 += r * r, floor_n++, floor_within2 += fabs(r) < 2;
        }
        stripe_means(&f, &m.sensor, truth_kind, sb, cb);
        double t0 = cpu_now();
        if (mp_rawfix_apply(&plan, &f, &err))
            goto done;
        s->seconds_apply += (cpu_now() - t0) / 4;
        stripe_means(&f, &m.sensor, truth_kind, sa, ca);
        for (uint32_t j = 0; j < m.count; j++) {
            uint32_t x = m.sites[j].x, y = m.sites[j].y;
            double r;
            if (truth_kind[(size_t)y * bw + x] == 3 || !residue_at(&m, c, &f, x, y, &r))
                continue;
            res2 += r * r;
            res_n++;
            within2 += fabs(r) < 2;
            if (plan_site(&plan, (size_t)y * bw + x))
                found2 += r * r, found_n++;
            if (resolved(&m, c, dual, x, y))
                smooth2 += r * r, smooth_n++;
        }
    }
    s->residue_floor_rms = floor_n ? sqrt(floor2 / floor_n) : 0;
    s->residue_resolved_rms = smooth_n ? sqrt(smooth2 / smooth_n) : 0;
    s->resolved_share = res_n ? (double)smooth_n / res_n : 0;
    s->stripe_before = stripe_residue(sb, cb);
    s->stripe_after = stripe_residue(sa, ca);
    s->residue_rms = res_n ? sqrt(res2 / res_n) : 0;
    s->residue_within2 = res_n ? (double)within2 / res_n : 0;
    s->floor_within2 = floor_n ? (double)floor_within2 / floor_n : 0;
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
    mp_rawfix_plan_free(&probe);
    mp_rawfix_accum_free(acc);
    mp_rawfix_measurement_free(&meas);
    mp_frame_free(&f);
    mp_frame_free(&g);
    free(truth_kind);
    free(m.truth);
    free(m.sites);
    free(m.before);
    free(changed);
    free(visible);
    free(offset);
    free(looks);
    return rc;
}
