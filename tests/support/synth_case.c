#include "synth_case.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "synth/synth.h"

/* The scene's colour gains at the frame centre (synth.h: R x (0.45 + 0.25 v),
 * B x (0.75 - 0.2 u) at u = v = 0.5). */
#define CENTRE_GAIN_R 0.575
#define CENTRE_GAIN_B 0.65

static const uint64_t SEED = 1234;

void synth_case_free(synth_case *c)
{
    for (int k = 0; k < 3; k++) {
        free(c->truth[k]);
        c->truth[k] = NULL;
    }
    mp_frame_free(&c->frame);
}

mp_status synth_case_init(synth_case *c, uint32_t width, uint32_t height, int noise,
                          mp_error *err)
{
    *c = (synth_case){.width = width, .height = height,
                      .wb = {(float)(1 / CENTRE_GAIN_R), 1, (float)(1 / CENTRE_GAIN_B)}};
    size_t n = (size_t)width * height;
    float *cfa = malloc(n * sizeof *cfa);
    for (int k = 0; k < 3; k++)
        c->truth[k] = malloc(n * sizeof *c->truth[k]);
    mp_status st = MP_OK;
    if (!cfa || !c->truth[0] || !c->truth[1] || !c->truth[2])
        st = mp_error_set(err, MP_ERR_NOMEM, "synth_case: cannot allocate %ux%u", width, height);

    synth_scene scene = {.kind = SYNTH_SCENE_BENCHMARK, .exposure_ev = SYNTH_CASE_EXPOSURE_EV};
    synth_sensor sensor;
    mp_synth_sensor_default(&sensor, 16, 0);
    sensor.ob_left = sensor.ob_top = 0;
    if (!noise) {
        sensor.photon_noise = 0;
        sensor.read_noise_dark = sensor.read_noise_bright = 0;
    }
    if (st == MP_OK)
        st = mp_synth_render_truth(&scene, width, height, 0, cfa, err);
    if (st == MP_OK)
        st = mp_synth_expose(&sensor, cfa, width, height, SEED, 0, &c->frame, err);
    if (st == MP_OK)
        st = mp_synth_render_truth_rgb(&scene, width, height, 0, c->truth[0], c->truth[1],
                                    c->truth[2], err);
    free(cfa);
    if (st != MP_OK) {
        synth_case_free(c);
        return st;
    }
    for (int k = 0; k < 3; k++) {
        double scale = c->wb[k] / sensor.full_well_e;
        for (size_t i = 0; i < n; i++)
            c->truth[k][i] = (float)(c->truth[k][i] * scale);
    }
    return MP_OK;
}

void synth_case_params(const synth_case *c, develop_params *p, develop_demosaic method)
{
    mp_develop_params_default(p);
    p->demosaic = method;
    p->wb = DEVELOP_WB_CUSTOM;
    for (int k = 0; k < 3; k++)
        p->wb_gains[k] = c->wb[k];
    p->matrix = DEVELOP_MATRIX_IDENTITY;
    p->curve = MP_CURVE_LINEAR;
    p->highlight = DEVELOP_HIGHLIGHT_CLIP;
}

/* Bounding box [x0, x1) x [y0, y1) of the region, and for the zone plate its disc. */
typedef struct region_shape {
    uint32_t x0, x1, y0, y1;
    double cx, cy, radius; /* radius 0: the whole box */
} region_shape;

/* v rounded down into [1, size - 1]: the measures read the 8 neighbours of every pixel, and
 * on tiny or odd-shaped frames a region may come out empty, never outside the frame. */
static uint32_t clamp_bound(double v, uint32_t size)
{
    double hi = size > 1 ? size - 1 : 1;
    return (uint32_t)(v < 1 ? 1 : v > hi ? hi : floor(v));
}

static region_shape region_of(uint32_t width, uint32_t height, synth_case_region region)
{
    double w = width, h = height;
    if (region == SYNTH_CASE_STRIPES)
        return (region_shape){.x0 = clamp_bound(0.17 * w, width),
                              .x1 = clamp_bound(0.42 * w, width),
                              .y0 = clamp_bound(ceil(0.35 * h) + 2, height),
                              .y1 = clamp_bound(floor(0.5 * h) - 2, height)};
    double r0 = 0.2 * h; /* the plate's own radius: local frequency 40 r / r0^2 */
    double radius = fmin(0.16 * h, 0.5 * r0 * r0 / 40);
    double cx = 0.225 * w, cy = 0.785 * h;
    return (region_shape){.x0 = clamp_bound(ceil(cx - radius), width),
                          .x1 = clamp_bound(cx + radius + 1, width),
                          .y0 = clamp_bound(ceil(cy - radius), height),
                          .y1 = clamp_bound(cy + radius + 1, height),
                          .cx = cx, .cy = cy, .radius = radius};
}

static int inside(const region_shape *s, uint32_t x, uint32_t y)
{
    if (s->radius == 0)
        return 1;
    double dx = x - s->cx, dy = y - s->cy;
    return dx * dx + dy * dy < s->radius * s->radius;
}

static double developed(const develop_rgb *out, int k, size_t i)
{
    return out->plane[k][i] / 65535.0;
}

static int is_edge(const synth_case *c, size_t i)
{
    const ptrdiff_t step[4] = {-1, 1, -(ptrdiff_t)c->width, (ptrdiff_t)c->width};
    for (int k = 0; k < 3; k++)
        for (int d = 0; d < 4; d++) {
            double a = c->truth[k][i], b = c->truth[k][i + step[d]];
            if (fabs(a - b) > 0.1 * fmin(a, b))
                return 1;
        }
    return 0;
}

/* Sum over channels of |pixel i - pixel j|, in the truth or in the developed frame. */
static double truth_distance(const synth_case *c, size_t i, size_t j)
{
    double d = 0;
    for (int k = 0; k < 3; k++)
        d += fabs((double)c->truth[k][i] - c->truth[k][j]);
    return d;
}

static double developed_distance(const develop_rgb *out, size_t i, size_t j)
{
    double d = 0;
    for (int k = 0; k < 3; k++)
        d += fabs(developed(out, k, i) - developed(out, k, j));
    return d;
}

static int is_zipper(const synth_case *c, const develop_rgb *out, size_t i, double level)
{
    size_t nearest = i;
    double best = INFINITY;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            if (!dx && !dy)
                continue;
            size_t j = (size_t)((ptrdiff_t)i + dy * (ptrdiff_t)c->width + dx);
            double d = truth_distance(c, i, j);
            if (d < best) {
                best = d;
                nearest = j;
            }
        }
    return developed_distance(out, i, nearest) - best > 0.3 * level;
}

void synth_case_measure(const synth_case *c, const develop_rgb *out, synth_case_region region,
                        synth_case_quality *q)
{
    region_shape s = region_of(c->width, c->height, region);
    double squares = 0, chroma = 0;
    uint64_t zippers = 0;
    *q = (synth_case_quality){0};
    for (uint32_t y = s.y0; y < s.y1; y++)
        for (uint32_t x = s.x0; x < s.x1; x++) {
            if (!inside(&s, x, y))
                continue;
            size_t i = (size_t)y * c->width + x;
            double t[3], o[3];
            for (int k = 0; k < 3; k++) {
                t[k] = c->truth[k][i];
                o[k] = developed(out, k, i);
                squares += (o[k] - t[k]) * (o[k] - t[k]);
            }
            double level = (t[0] + 2 * t[1] + t[2]) / 4;
            q->pixels++;
            zippers += is_zipper(c, out, i, level);
            if (is_edge(c, i)) {
                chroma += 0.5 * (fabs((o[0] - o[1]) - (t[0] - t[1])) +
                                 fabs((o[2] - o[1]) - (t[2] - t[1]))) / level;
                q->edge_pixels++;
            }
        }
    q->psnr_db = squares > 0 ? 10 * log10(3.0 * (double)q->pixels / squares) : INFINITY;
    q->false_colour = q->edge_pixels ? chroma / (double)q->edge_pixels : 0;
    q->zipper = q->pixels ? (double)zippers / (double)q->pixels : 0;
}
