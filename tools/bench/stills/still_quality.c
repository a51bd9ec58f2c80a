/* still_quality: dual-ISO stills (or a clip's frames) of one static scene, converted by
 * mlvpipe, scored against the scene's truth with the quality metrics of doc/dualiso.md 8.7
 * (tools/bench/quality/metrics.h), for issue #31's must-show (doc/stills.md 6).
 *
 *   still_quality [--scene benchmark|objects] [--size WxH] [--ob LxT] [--seed S]
 *                 [--fields low|both] DNG...
 *
 * The truth is rendered as cr2synth and mlvsynth --content dualiso render it (the same scene,
 * size and seed; 5D Mark III-like 14-bit sensor at 100/1600): every DNG must be an exposure
 * of it, each with its own noise. Each output is read with its own tags (BlackLevel,
 * WhiteLevel, ActiveArea), its white the dark field's clip (full well), as a raw developer
 * reads it. Figures:
 *   - per output: engineering DR and the largest |bias| of the 0.5-EV bins of 5-14 EV;
 *   - on the mean of the outputs' electrons (the noise averaged down by their number, so
 *     what is left is mostly the reconstruction's own error): bias; edge RMS [8,11) and
 *     [11,15) EV (the stripes; the objects scene: the stars' rings); rings, the zone plate's
 *     RMS in [8,11) EV (8.7's region); line-pair, the n-weighted mean over the 5-14 EV bins of
 *     the bias of the rows read at the high ISO less that of the rows read at the low one (%):
 *     a level step between the two fields shows as bands of two rows.
 *   - flicker: per band of 8.7's flicker measure ([2,5) ... [11,14) EV of the smooth ramp),
 *     the standard deviation over the outputs of 100 * (sum e_out / sum e_true - 1), each
 *     output read with its own tags; the same for a single-ISO sequence of the scene is the
 *     reference issue #31 holds a dual-ISO timelapse to (at most 1.25 times it).
 *   - --fields low (for single-ISO outputs): each output's rows that a dual-ISO photo reads at
 *     the high ISO are first replaced by the mean of the nearest rows of their colour read at
 *     the low ISO, above and below: what a dual-ISO photo gives where its high-ISO field is
 *     clipped, if its reconstruction interpolated the low field without error. Its flicker is
 *     the physical floor of a dual-ISO timelapse in the highlights (doc/stills.md 6).
 * The bands 8-11 EV come from 8.7's own measure on a truth whose photosites below 2^8 e- are
 * left out (metrics.c skips e_true = 0); the line-pair rows likewise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dng_read.h"
#include "metrics.h"
#include "synth/synth.h"

typedef struct options {
    synth_scene_kind scene;
    uint32_t width, height, ob_left, ob_top;
    uint64_t seed;
    int low_field_only;          /* --fields low */
    int first;                   /* argv index of the first DNG */
} options;

static int parse(int argc, char **argv, options *o)
{
    *o = (options){SYNTH_SCENE_BENCHMARK, 1920, 1080, 72, 28, 7, 0, 0};
    int i = 1;
    for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
        const char *a = argv[i], *v = argv[i + 1];
        char x;
        if (!strcmp(a, "--scene") && (!strcmp(v, "benchmark") || !strcmp(v, "objects")))
            o->scene = strcmp(v, "objects") ? SYNTH_SCENE_BENCHMARK : SYNTH_SCENE_OBJECTS;
        else if (!strcmp(a, "--size") && sscanf(v, "%u%c%u", &o->width, &x, &o->height) == 3)
            continue;
        else if (!strcmp(a, "--ob") && sscanf(v, "%u%c%u", &o->ob_left, &x, &o->ob_top) == 3)
            continue;
        else if (!strcmp(a, "--fields") && (!strcmp(v, "low") || !strcmp(v, "both")))
            o->low_field_only = !strcmp(v, "low");
        else if (!strcmp(a, "--seed"))
            o->seed = strtoull(v, NULL, 0);
        else
            return 0;
    }
    o->first = i;
    return i < argc && o->width >= 64 && o->height >= 64;
}

/* The mean image: electrons per active photosite, written as a 16-bit frame at MEAN_SCALE DN
 * per electron above MEAN_BLACK (0.32 e- of rounding, far below what is measured). */
#define MEAN_BLACK 1024.0
#define MEAN_SCALE 0.9

/* The truth with the photosites outside keep() at 0, which every 8.7 measure leaves out. */
static float *truth_where(const float *truth, const options *o, const synth_sensor *s,
                          int (*keep)(double t, int bright_row))
{
    size_t n = (size_t)o->width * o->height;
    float *t = malloc(n * sizeof *t);
    for (uint32_t y = 0; t && y < o->height; y++)
        for (uint32_t x = 0; x < o->width; x++) {
            size_t i = (size_t)y * o->width + x;
            t[i] = keep(truth[i], mp_synth_row_is_bright(s, y + o->ob_top)) ? truth[i] : 0;
        }
    return t;
}

/* The nearest row of y's colour (rows two apart) read at the low ISO, searching by step (-2
 * or +2) within the active rows; -1 when there is none. */
static long low_row(const synth_sensor *s, const options *o, long y, long step)
{
    for (y += step; y >= 0 && y < (long)o->height; y += step)
        if (!mp_synth_row_is_bright(s, (uint32_t)y + o->ob_top))
            return y;
    return -1;
}

/* --fields low: every high-ISO row of the active area the mean of its low-ISO neighbours. */
static void keep_low_field(mp_frame *f, const options *o, const synth_sensor *s,
                           uint32_t roi_x, uint32_t roi_y)
{
    for (long y = 0; y < (long)o->height; y++) {
        if (!mp_synth_row_is_bright(s, (uint32_t)y + o->ob_top))
            continue;
        long a = low_row(s, o, y, -2), b = low_row(s, o, y, 2);
        a = a < 0 ? b : a;
        b = b < 0 ? a : b;
        uint16_t *row = f->data + (size_t)(y + roi_y) * f->width + roi_x;
        const uint16_t *ra = f->data + (size_t)(a + roi_y) * f->width + roi_x,
                       *rb = f->data + (size_t)(b + roi_y) * f->width + roi_x;
        for (uint32_t x = 0; a >= 0 && x < o->width; x++)
            row[x] = (uint16_t)((ra[x] + rb[x] + 1) / 2);
    }
}

static int from_8_ev(double t, int bright_row)
{
    (void)bright_row;
    return t >= 256;
}

static int bright_rows(double t, int bright_row)
{
    (void)t;
    return bright_row;
}

static int dark_rows(double t, int bright_row)
{
    (void)t;
    return !bright_row;
}

static double bin_bias_mean(const qm_report *r)
{
    double s = 0, n = 0;
    for (int b = 0; b < QM_BINS; b++)
        if (r->bin_valid[b] && r->bins[b].ev_lo >= 5 && r->bins[b].ev_lo < 14) {
            s += r->bins[b].bias_pct * (double)r->bins[b].n;
            n += (double)r->bins[b].n;
        }
    return n > 0 ? s / n : NAN;
}

static int measure(const qm_input *base, const float *truth, qm_report *r)
{
    qm_input in = *base;
    in.truth = truth;
    mp_error err = {0};
    if (!truth || qm_measure(&in, r, &err) != MP_OK) {
        fprintf(stderr, "still_quality: %s\n", truth ? err.msg : "out of memory");
        return 0;
    }
    return 1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    options o;
    if (!parse(argc, argv, &o)) {
        fprintf(stderr, "usage: still_quality [--scene benchmark|objects] [--size WxH] "
                        "[--ob LxT] [--seed S] [--fields low|both] DNG...\n");
        return 2;
    }
    synth_sensor s;
    mp_synth_sensor_default(&s, 14, 4);
    s.ob_left = o.ob_left;
    s.ob_top = o.ob_top;
    synth_scene scene = {.kind = o.scene, .seed = o.seed};
    const size_t n = (size_t)o.width * o.height;
    float *truth = malloc(n * sizeof *truth);
    double *sum = calloc(n, sizeof *sum);
    const int count = argc - o.first;
    double *dr = malloc((size_t)count * sizeof *dr), worst_bias = 0;
    qm_band_sums *bands = malloc((size_t)count * sizeof *bands);
    mp_error err = {0};
    if (!truth || !sum || !dr || !bands ||
        mp_synth_render_truth(&scene, o.width, o.height, 0, truth, &err) != MP_OK) {
        fprintf(stderr, "still_quality: truth: %s\n", err.msg[0] ? err.msg : "out of memory");
        return 2;
    }
    const qm_input base = {.width = o.width, .height = o.height,
                           .objects = o.scene == SYNTH_SCENE_OBJECTS};
    fc_dng d = {0};
    for (int k = 0; k < count; k++) {
        const char *path = argv[o.first + k];
        if (fc_dng_read(path, &d, &err) != MP_OK) {
            fprintf(stderr, "still_quality: %s\n", err.msg);
            return 2;
        }
        qm_input in = base;
        in.out = &d.frame;
        in.roi_x = d.active[1];
        in.roi_y = d.active[0];
        if (o.low_field_only)
            keep_low_field(&d.frame, &o, &s, in.roi_x, in.roi_y);
        in.black = d.black;
        in.white = d.white;
        in.s_out = (d.white - d.black) / s.full_well_e;
        qm_report r;
        if (!measure(&in, truth, &r))
            return 2;
        dr[k] = r.dr_ev;
        in.truth = truth;
        if (qm_band_measure(&in, &r, in.white - in.black, NULL, &bands[k], &err) != MP_OK) {
            fprintf(stderr, "still_quality: %s\n", err.msg);
            return 2;
        }
        worst_bias = fmax(worst_bias, r.max_abs_bias_pct);
        for (uint32_t y = 0; y < o.height; y++) {
            const uint16_t *row = d.frame.data + (size_t)(y + in.roi_y) * d.frame.width + in.roi_x;
            for (uint32_t x = 0; x < o.width; x++)
                sum[(size_t)y * o.width + x] += (row[x] - in.black) / in.s_out;
        }
    }
    mp_frame mean = {0};
    if (mp_frame_reserve(&mean, o.width, o.height, &err) != MP_OK) {
        fprintf(stderr, "still_quality: %s\n", err.msg);
        return 2;
    }
    for (size_t i = 0; i < n; i++) {
        double v = MEAN_BLACK + MEAN_SCALE * sum[i] / count;
        mean.data[i] = (uint16_t)lrint(fmin(fmax(v, 0), 65535));
    }
    qm_input in = base;
    in.out = &mean;
    in.black = MEAN_BLACK;
    in.white = MEAN_BLACK + MEAN_SCALE * s.full_well_e;
    in.s_out = MEAN_SCALE;
    qm_report all, band8, bright, dark;
    float *t8 = truth_where(truth, &o, &s, from_8_ev);
    float *tb = truth_where(truth, &o, &s, bright_rows);
    float *td = truth_where(truth, &o, &s, dark_rows);
    if (!measure(&in, truth, &all) || !measure(&in, t8, &band8) || !measure(&in, tb, &bright) ||
        !measure(&in, td, &dark))
        return 2;
    qsort(dr, (size_t)count, sizeof *dr, cmp_double);
    printf("%d outputs, %s scene %ux%u, seed %llu\n", count,
           o.scene == SYNTH_SCENE_OBJECTS ? "objects" : "benchmark", o.width, o.height,
           (unsigned long long)o.seed);
    printf("engineering DR (each)         %.3f EV median (%.3f .. %.3f)\n", dr[count / 2],
           dr[0], dr[count - 1]);
    printf("max |bias| 5-14 EV (each)     %.3f %% worst\n", worst_bias);
    qm_flicker fl;
    qm_flicker_summarise(bands, (uint32_t)count, &fl);
    printf("flicker (std over the outputs)");
    for (int b = 0; b < QM_BANDS; b++)
        printf("  [%g,%g) %.4f %%", qm_band_lo_ev(b), qm_band_lo_ev(b) + 3, fl.std_pct[b]);
    printf("\n");
    printf("on the mean of the %d:\n", count);
    printf("  max |bias| 5-14 EV          %.3f %%\n", all.max_abs_bias_pct);
    printf("  edge RMS 8-11 EV            %.4f\n", band8.edge_rms[0]);
    printf("  edge RMS 11-15 EV           %.4f\n", all.edge_rms[1]);
    printf("  rings (zone plate) 8-11 EV  %.4f\n", band8.zone_rms);
    printf("  line-pair                   %.3f %%\n", bin_bias_mean(&bright) - bin_bias_mean(&dark));
    printf("  (edge RMS 6-11 EV %.4f, zone plate 6-11 EV %.4f)\n", all.edge_rms[0],
           all.zone_rms);
    fc_dng_free(&d);
    mp_frame_free(&mean);
    free(t8);
    free(tb);
    free(td);
    free(truth);
    free(sum);
    free(dr);
    free(bands);
    return 0;
}
