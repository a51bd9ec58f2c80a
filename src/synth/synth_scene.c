/* Noise-free test scenes (doc/dualiso.md 8.2) in electrons per photosite. */
#include "synth/synth.h"

#include <math.h>

#include "synth/synth_rng.h"

/* Stream numbers of the scene's own draws, apart from mp_synth_expose's per-row streams. */
#define STREAM_ILLUMINATION (1ull << 63)
#define STREAM_DETAIL (1ull << 62)

void mp_synth_benchmark_patch(uint32_t width, uint32_t height, int i, double *x0, double *x1,
                           double *y0, double *y1, double *ev)
{
    *x0 = (0.08 + 0.22 * i) * width;
    *x1 = *x0 + 0.12 * width;
    *y0 = 0.06 * height;
    *y1 = 0.22 * height;
    *ev = 2 + 3 * i;
}

/* Second scene: patch EVs and colour gains (R, B; green 1): neutral, warm, cool, warm. */
static const double objects_patch_gain[SYNTH_PATCH_COUNT][2] = {
    {0.50, 0.60}, {0.90, 0.35}, {0.35, 0.90}, {0.80, 0.50}};

static void objects_patch(uint32_t width, uint32_t height, int i, double *x0, double *x1,
                          double *y0, double *y1, double *ev)
{
    *x0 = (0.06 + 0.23 * i) * width;
    *x1 = *x0 + 0.13 * width;
    *y0 = 0.50 * height;
    *y1 = 0.62 * height;
    *ev = 3.5 + 3 * i;
}

void mp_synth_scene_patch(synth_scene_kind kind, uint32_t width, uint32_t height, int i,
                          double *x0, double *x1, double *y0, double *y1, double *ev)
{
    if (kind == SYNTH_SCENE_OBJECTS)
        objects_patch(width, height, i, x0, x1, y0, y1, ev);
    else
        mp_synth_benchmark_patch(width, height, i, x0, x1, y0, y1, ev);
}

void mp_synth_objects_layout(uint32_t width, uint32_t height, synth_objects_layout *l)
{
    l->star_r = 0.15 * height;
    l->star_x[0] = 0.60 * width;
    l->star_x[1] = 0.84 * width;
    l->star_y[0] = l->star_y[1] = 0.24 * height;
    l->zone_x0 = 0.04 * width;
    l->zone_x1 = 0.44 * width;
    l->zone_y0 = 0.06 * height;
    l->zone_y1 = 0.40 * height;
}

double mp_synth_scene_offset(const synth_scene *scene, uint32_t frame)
{
    return frame * scene->shift_px;
}

double mp_synth_scene_illumination(const synth_scene *scene, uint32_t frame)
{
    if (scene->illum_sigma_ev == 0)
        return 1;
    synth_rng r;
    mp_synth_rng_init(&r, scene->seed, STREAM_ILLUMINATION | frame);
    return mp_synth_det_exp2(scene->illum_sigma_ev * mp_synth_rng_gaussian(&r));
}

static double sign(double v)
{
    return (v > 0) - (v < 0);
}

/* EV of the benchmark scene at scene position (x, y); row_ev is the row's base term. */
static double benchmark_ev(double x, double y, double w, double h, double row_ev)
{
    double u = x / w, v = y / h;
    if (y >= 0.06 * h && y < 0.22 * h) {
        for (int i = 0; i < SYNTH_PATCH_COUNT; i++) {
            double x0, x1, y0, y1, ev;
            mp_synth_benchmark_patch((uint32_t)w, (uint32_t)h, i, &x0, &x1, &y0, &y1, &ev);
            if (x >= x0 && x < x1)
                return ev;
        }
    }
    double ev = -1.5 + 18 * u + row_ev;
    if (v > 0.35 && v < 0.5)
        ev += 0.8 * sign(sin(2 * M_PI * (x + 0.6 * y) / 37));
    if (u < 0.45 && v > 0.62 && v < 0.95) {
        double dx = x - 0.225 * w, dy = y - 0.785 * h, r0 = 0.2 * h;
        ev += cos(40 * M_PI * (dx * dx + dy * dy) / (r0 * r0));
    }
    return ev;
}

#define STAR_SECTORS 24          /* alternate sectors of a star */
#define ZONE_FX 0.11              /* zone plate: cycles per px at the box's side edges */
#define ZONE_FY 0.16              /* ... and at its top and bottom (past one field's 0.125) */

/* EV and colour gains (R, G, B) of the second scene at scene position (x, y). */
static double objects_ev(const synth_objects_layout *l, double x, double y, double w, double h,
                         double gain[3])
{
    double u = x / w, v = y / h;
    for (int i = 0; i < SYNTH_PATCH_COUNT; i++) {
        double x0, x1, y0, y1, ev;
        objects_patch((uint32_t)w, (uint32_t)h, i, &x0, &x1, &y0, &y1, &ev);
        if (x >= x0 && x < x1 && y >= y0 && y < y1) {
            gain[0] = objects_patch_gain[i][0];
            gain[2] = objects_patch_gain[i][1];
            return ev;
        }
    }
    for (int i = 0; i < 2; i++) {
        double dx = x - l->star_x[i], dy = y - l->star_y[i];
        if (dx * dx + dy * dy >= l->star_r * l->star_r)
            continue;
        double side = sign(sin(STAR_SECTORS / 2 * atan2(dy, dx)));
        gain[0] = side > 0 ? 0.50 : 0.85;
        gain[2] = side > 0 ? 0.62 : 0.32;
        return (i ? 12.8 : 8.5) + 1.2 * dx / l->star_r + 0.8 * side;
    }
    if (x >= l->zone_x0 && x < l->zone_x1 && y >= l->zone_y0 && y < l->zone_y1) {
        double ax = 0.5 * (l->zone_x1 - l->zone_x0), ay = 0.5 * (l->zone_y1 - l->zone_y0);
        double dx = x - (l->zone_x0 + ax), dy = y - (l->zone_y0 + ay);
        gain[0] = 0.70;
        gain[2] = 0.45;
        return 8.5 + 1.5 * dx / ax + 0.7 * cos(M_PI * (ZONE_FX * dx * dx / ax + ZONE_FY * dy * dy / ay));
    }
    gain[0] = 0.60 - 0.15 * v;
    gain[2] = 0.50 + 0.25 * u;
    double a = h / w, t = sqrt(u * u + (1 - v) * (1 - v) * a * a) / sqrt(1 + a * a);
    return -1.5 + 19 * t + 0.5 * sin(2 * M_PI * 1.25 * (u - v));
}

#define DETAIL_STAR 300           /* one photosite in this many is a point of light */
#define DETAIL_SPECULAR 2000      /* ... a specular point */
#define GLYPH_W 6                 /* glyph cells: 5 x 7 strokes and a space */
#define GLYPH_H 10

/* The EV the detail scene adds at whole scene photosite (xi, y): OBJECTS_EV + this. */
static double detail_ev(uint64_t seed, int64_t xi, uint32_t y, double w, double h)
{
    synth_rng r;
    mp_synth_rng_init(&r, seed, STREAM_DETAIL | ((uint64_t)(xi & 0xffffffff) << 24) | y);
    const uint64_t pick = mp_synth_rng_next(&r);
    if (pick % DETAIL_SPECULAR == 0)
        return 20;
    if (pick % DETAIL_STAR == 1)
        return 3 + 4 * mp_synth_rng_uniform(&r);
    const double u = xi / w, v = y / h;
    if (u < 0.1 || u >= 0.9 || v < 0.1 || v >= 0.3 || xi < 0)
        return 0;
    const int64_t cx = xi % GLYPH_W, cy = y % GLYPH_H;
    if (cx >= 5 || cy >= 7)
        return 0;
    synth_rng g;   /* one glyph per cell: 35 stroke bits */
    mp_synth_rng_init(&g, seed, STREAM_DETAIL | 1ull << 56 | (uint64_t)(xi / GLYPH_W) << 24 |
                                    (y / GLYPH_H));
    return (mp_synth_rng_next(&g) >> (cy * 5 + cx)) & 1 ? -3 : 0;
}

static mp_status check_scene(const synth_scene *scene, uint32_t width, uint32_t height,
                             mp_error *err)
{
    if (width == 0 || height == 0 || width > MP_FRAME_MAX_DIM || height > MP_FRAME_MAX_DIM)
        return mp_error_set(err, MP_ERR_ARG, "synth: scene size %ux%u out of range", width,
                            height);
    if (scene->kind != SYNTH_SCENE_BENCHMARK && scene->kind != SYNTH_SCENE_FLAT &&
        scene->kind != SYNTH_SCENE_RAMP && scene->kind != SYNTH_SCENE_OBJECTS &&
        scene->kind != SYNTH_SCENE_DETAIL)
        return mp_error_set(err, MP_ERR_ARG, "synth: unknown scene kind %d", (int)scene->kind);
    if (!isfinite(scene->exposure_ev) || fabs(scene->exposure_ev) > 60 ||
        !isfinite(scene->shift_px) || !(scene->illum_sigma_ev >= 0 && scene->illum_sigma_ev <= 8))
        return mp_error_set(err, MP_ERR_ARG,
                            "synth: scene exposure %g EV, shift %g px or jitter %g EV out of range",
                            scene->exposure_ev, scene->shift_px, scene->illum_sigma_ev);
    return MP_OK;
}

/* Renders both kinds of truth from one per-photosite computation, so the CFA truth is by
 * construction the RGB truth sampled at each photosite's colour: electrons (CFA, RGGB) when
 * it is not NULL, else the three planes rgb[0..2]. */
static void render(const synth_scene *scene, uint32_t width, uint32_t height, uint32_t frame,
                   float *electrons, float *const rgb[3])
{
    double w = width, h = height;
    double offset = mp_synth_scene_offset(scene, frame);
    double scale = mp_synth_scene_illumination(scene, frame);
    synth_objects_layout l;
    mp_synth_objects_layout(width, height, &l);
    for (uint32_t y = 0; y < height; y++) {
        double v = y / h;
        double row_ev = 1.2 * sin(2 * M_PI * 1.5 * v);
        size_t row = (size_t)y * width;
        for (uint32_t x = 0; x < width; x++) {
            double xs = x + offset;
            double ev, gain[3] = {1, 1, 1};
            if (scene->kind == SYNTH_SCENE_FLAT) {
                ev = 0;
            } else if (scene->kind == SYNTH_SCENE_OBJECTS || scene->kind == SYNTH_SCENE_DETAIL) {
                ev = objects_ev(&l, xs, y, w, h, gain);
                if (scene->kind == SYNTH_SCENE_DETAIL)
                    ev += detail_ev(scene->seed, (int64_t)floor(xs), y, w, h);
            } else {
                ev = scene->kind == SYNTH_SCENE_BENCHMARK ? benchmark_ev(xs, y, w, h, row_ev)
                                                          : -1.5 + 18 * xs / w;
                gain[0] = 0.45 + 0.25 * v;
                gain[2] = 0.75 - 0.2 * xs / w;
            }
            double e = mp_synth_det_exp2(ev + scene->exposure_ev);
            if (electrons) {
                /* RGGB: red on even rows and columns, blue on odd rows and columns. */
                int c = (y & 1) + (x & 1);
                electrons[row + x] = (float)(e * gain[c] * scale);
            } else {
                for (int c = 0; c < 3; c++)
                    rgb[c][row + x] = (float)(e * gain[c] * scale);
            }
        }
    }
}

mp_status mp_synth_render_truth(const synth_scene *scene, uint32_t width, uint32_t height,
                             uint32_t frame, float *electrons, mp_error *err)
{
    if (!scene || !electrons)
        return mp_error_set(err, MP_ERR_ARG, "synth: no scene or output buffer");
    mp_status st = check_scene(scene, width, height, err);
    if (st == MP_OK)
        render(scene, width, height, frame, electrons, NULL);
    return st;
}

mp_status mp_synth_render_truth_rgb(const synth_scene *scene, uint32_t width, uint32_t height,
                                 uint32_t frame, float *r, float *g, float *b, mp_error *err)
{
    if (!scene || !r || !g || !b)
        return mp_error_set(err, MP_ERR_ARG, "synth: no scene or output planes");
    mp_status st = check_scene(scene, width, height, err);
    if (st == MP_OK)
        render(scene, width, height, frame, NULL, (float *const[3]){r, g, b});
    return st;
}
