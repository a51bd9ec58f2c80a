/* synth: a physically simulated raw sensor and test scenes, for generating clips with known
 * ground truth (tools/mlvsynth) and for measuring reconstruction quality (benchmarks, tests).
 * Pure functions, deterministic for a given seed on every platform (own RNG, no libm
 * randomness). Sensor and scene default to doc/dualiso.md section 8.2. */
#ifndef MP_SYNTH_H
#define MP_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_frame.h"
#include "common/mp_status.h"

typedef struct synth_sensor {
    uint32_t bits;              /* 10, 12, 14 or 16 */
    double black;               /* DN, both fields */
    double bright_black_offset; /* extra DN on bright rows (delta), usually 0 */
    double white;               /* clip level, DN */
    double full_well_e;         /* electrons that reach white at the dark (base) ISO */
    double ev_gap;              /* bright field gain = 2^ev_gap; 0 = not dual ISO */
    double read_noise_dark;     /* DN, Gaussian */
    double read_noise_bright;   /* DN, Gaussian */
    uint32_t phase;             /* row y is bright when (y + phase) % 4 >= 2; 0 = ddBB */
    uint32_t ob_left, ob_top;   /* optical-black borders (black + read noise only) */
    int photon_noise;           /* Poisson shot noise on/off */
} synth_sensor;

/* 5D Mark III-like defaults for the given depth (levels scaled from 14-bit 2048/15283,
 * read noise 6.6 / 13.8 DN14 scaled likewise). ev_gap 0 gives a plain single-ISO sensor. */
void mp_synth_sensor_default(synth_sensor *s, uint32_t bits, double ev_gap);

/* Dark-field (base ISO) gain in DN per electron: (white - black) / full_well_e. */
double mp_synth_sensor_gain(const synth_sensor *s);

/* 1 when buffer row y is read at the high ISO (never when ev_gap is 0). */
int mp_synth_row_is_bright(const synth_sensor *s, uint32_t y);

typedef enum synth_scene_kind {
    SYNTH_SCENE_BENCHMARK,      /* doc/dualiso.md 8.2: log ramp, stripes, zone plate, patches */
    SYNTH_SCENE_FLAT,           /* uniform, level = exposure_ev */
    SYNTH_SCENE_RAMP,           /* horizontal log ramp only */
    SYNTH_SCENE_OBJECTS,        /* second benchmark scene: stars, elliptical zone plate */
    SYNTH_SCENE_DETAIL          /* OBJECTS with still single-photosite detail: points of
                                 * light, specular points that clip, strokes of fine text */
} synth_scene_kind;

/* Scene layouts (electrons before colour gains, u = x / width, v = y / height over the
 * active area, x = photosite column + frame * shift_px, y = photosite row):
 * - BENCHMARK: doc/dualiso.md 8.2 exactly; colour gains R x (0.45 + 0.25 v), B x (0.75 - 0.2 u).
 * - FLAT: 2^exposure_ev on every photosite, no colour gains (a truly flat field).
 * - RAMP: the benchmark's base ramp 2^(-1.5 + 18 u) without modulation, with colour gains.
 * - DETAIL: OBJECTS plus detail one photosite wide, drawn per whole scene photosite
 *   (floor(x), y) from the seed: points of light 3-7 EV above the scene at one photosite in
 *   300 (stars), one in 2000 at 20 EV (specular points, clipped), and in the band
 *   0.1 <= v < 0.3 rows of 5x7-photosite glyphs whose strokes are 3 EV darker (fine text).
 *   Nothing spreads it over the neighbours: the hardest case for telling scene from defect.
 * The illumination factor multiplies all three. The noise-free scene uses libm sin/cos
 * (correctly rounded in glibc); powers of two use mp_synth_det_exp2. */
typedef struct synth_scene {
    synth_scene_kind kind;
    double exposure_ev;         /* added to the scene's EV everywhere */
    double shift_px;            /* horizontal drift per frame */
    double illum_sigma_ev;      /* per-frame illumination jitter, EV */
    uint64_t seed;
} synth_scene;

#define SYNTH_PATCH_COUNT 4
/* Flat patch i (0..3) of the benchmark: x0 <= x < x1, y0 <= y < y1 (scene coordinates,
 * fractional) and its EV before exposure_ev. */
void mp_synth_benchmark_patch(uint32_t width, uint32_t height, int i, double *x0, double *x1,
                           double *y0, double *y1, double *ev);

/* The second benchmark scene (SYNTH_SCENE_OBJECTS, doc/dualiso.md 8.8): different layout
 * and content from the first, so tuning on one is checked on the other. Over a radial log
 * ramp (dark at the bottom-left corner, -1.5 to +17.5 EV) with a wave along the angle:
 * two Siemens stars of 24 spokes whose spokes alternate by 1.6 EV AND in colour (neutral /
 * warm), one around 8.5 EV and one around 12.8 EV (where the bright field clips at
 * 100/1600), both with a horizontal level gradient; an elliptical zone plate that reaches
 * higher vertical than horizontal frequencies; four coloured flat patches at 3.5, 6.5,
 * 9.5 and 12.5 EV. Geometry in scene pixels for a width x height area: */
typedef struct synth_objects_layout {
    double star_x[2], star_y[2], star_r;   /* star centres, outer radius */
    double zone_x0, zone_x1, zone_y0, zone_y1;  /* zone plate box */
} synth_objects_layout;

void mp_synth_objects_layout(uint32_t width, uint32_t height, synth_objects_layout *l);

/* Flat patch i (0..3) of a scene kind with patches (BENCHMARK or OBJECTS), as
 * mp_synth_benchmark_patch. */
void mp_synth_scene_patch(synth_scene_kind kind, uint32_t width, uint32_t height, int i,
                          double *x0, double *x1, double *y0, double *y1, double *ev);

/* Horizontal scene offset of a frame (frame * shift_px) and its illumination factor
 * 2^(illum_sigma_ev * N(0,1)), N drawn from (seed, frame); 1 when illum_sigma_ev is 0. */
double mp_synth_scene_offset(const synth_scene *scene, uint32_t frame);
double mp_synth_scene_illumination(const synth_scene *scene, uint32_t frame);

/* Noise-free electrons per photosite of the active area (width x height, CFA RGGB colour
 * gains applied, frame's illumination factor applied), row-major floats. */
mp_status mp_synth_render_truth(const synth_scene *scene, uint32_t width, uint32_t height,
                             uint32_t frame, float *electrons, mp_error *err);

/* The same scene in full RGB: the noise-free electrons every photosite would collect behind a
 * red, a green and a blue filter (planes r, g, b of width x height; colour gains and the
 * frame's illumination applied). mp_synth_render_truth is exactly this sampled through the RGGB
 * CFA, value for value. */
mp_status mp_synth_render_truth_rgb(const synth_scene *scene, uint32_t width, uint32_t height,
                                 uint32_t frame, float *r, float *g, float *b, mp_error *err);

/* Exposes a truth image on the sensor: out gets (width + ob_left) x (height + ob_top)
 * samples with the OB borders, noise drawn from seed (and frame), levels set from s.
 * Pass truth = NULL for a dark frame. */
mp_status mp_synth_expose(const synth_sensor *s, const float *truth, uint32_t width,
                       uint32_t height, uint64_t seed, uint32_t frame, mp_frame *out,
                       mp_error *err);

/* Sensor defects (issue #11), at known positions, applied to an exposed frame after
 * synth_expose. DN values are 14-bit units, scaled by 2^(bits - 14) like the sensor's levels.
 * - Focus pixels: a rectangular lattice of pixel pairs (period_x x period_y, first member at
 *   (fp_x, fp_y) of each cell of the active area, second one row below); each member reads
 *   its sample + sign * (offset_i + fp_slope * signal), the first member +, the second -,
 *   offset_i drawn per member in [0.5, 1.5] x fp_offset_dn: a few to tens of DN that grow
 *   with the scene, like the phase-detect pixels of the EOS M / 650D / 700D / 100D. With
 *   fp_classes, the lattice is instead those classes of each cell (a camera's published
 *   layout), inside columns >= fp_x0 and rows [fp_y0, fp_y1); class k reads + when k is
 *   even, - when odd.
 * - Hot pixels: half stuck at black + 3000 DN14, half warm (300 e- of dark current, i.e.
 *   60 DN14 at the base ISO and 2^ev_gap times more in the bright field, + 2 % of the signal);
 *   cold pixels: half dead (0 DN), half weak (25 % of the signal, 80 DN14 below black).
 *   Positions drawn from seed over the active area, never on a focus pixel or next to
 *   another defect of the same colour (x +- 2, y +- 4).
 * - Stripes: the signal above black of buffer column x is scaled by 1 + stripe_gain[x % 8].
 * - Dark pattern: a fixed offset per photosite, N(0, dark_pattern_dn) from seed, in every
 *   frame (what a dark frame averages out). */
typedef enum synth_defect_kind {
    SYNTH_DEFECT_FOCUS, SYNTH_DEFECT_HOT_STUCK, SYNTH_DEFECT_HOT_WARM, SYNTH_DEFECT_COLD_DEAD,
    SYNTH_DEFECT_COLD_WEAK
} synth_defect_kind;

typedef struct synth_defect {
    uint32_t x, y;              /* buffer coordinates (OB borders included) */
    synth_defect_kind kind;
} synth_defect;

#define SYNTH_FP_MAX_CLASSES 16u

typedef struct synth_defects {
    uint32_t fp_period_x, fp_period_y;  /* 0: no focus pixels */
    uint32_t fp_x, fp_y;        /* first member inside each cell (fp_y + 1 < period_y) */
    double fp_offset_dn;        /* mean offset of a member, DN14 */
    double fp_slope;            /* extra offset per DN of signal */
    uint32_t fp_classes;        /* > 0: the lattice is these classes, not the pair */
    uint32_t fp_class_x[SYNTH_FP_MAX_CLASSES];  /* column % period_x, active-area coords */
    uint32_t fp_class_y[SYNTH_FP_MAX_CLASSES];  /* row % period_y */
    uint32_t fp_x0, fp_y0, fp_y1;   /* with fp_classes: columns >= x0, rows [y0, y1) */
    uint32_t hot_count, cold_count;
    double stripe_amp;          /* stripe gains drawn in [-amp, +amp], e.g. 0.005 */
    double dark_pattern_dn;     /* DN14 RMS of the fixed dark pattern; 0 = none */
    uint64_t seed;
} synth_defects;

/* Sites and gains of the defects on a width x height active area with borders ob_left/ob_top.
 * *sites is malloc'd (focus members first, in raster order of their cells, then hot and cold
 * pixels), *count their number; stripe_gain (may be NULL) gets the 8 column gains. */
mp_status mp_synth_defects_sites(const synth_defects *d, uint32_t width, uint32_t height,
                              uint32_t ob_left, uint32_t ob_top, synth_defect **sites,
                              uint32_t *count, double stripe_gain[8], mp_error *err);

/* Applies the defects to a frame exposed by synth_expose from truth (NULL: a dark frame)
 * with sensor s; sites from synth_defects_sites for the same geometry. */
mp_status mp_synth_defects_apply(const synth_defects *d, const synth_sensor *s, const float *truth,
                              const synth_defect *sites, uint32_t count, mp_frame *f,
                              mp_error *err);

#endif
