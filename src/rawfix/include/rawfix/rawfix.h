/* rawfix: repairs what real sensors get wrong before dual ISO sees a frame — focus pixels
 * (phase-detect pixels, a periodic lattice), hot and cold pixels, and 8-column stripe gains —
 * from a map found in the clip itself. Pure functions on frames and maps; no files, threads
 * or outputs.
 *
 * Finding (in the pre-pass, over frames sampled across the whole segment): every sampled
 * frame is measured on its own (rawfix_measure), the measurements are summed in an
 * accumulator (rawfix_accum_add, integer sums: the result does not depend on the order), and
 * rawfix_map_build turns the sums into a map. A sample is a defect when, across the frames,
 * it stays off its same-colour neighbours in the same direction both along its row (x +- 2)
 * and along its column (y +- 2, or y +- 4 in dual-ISO frames so that the neighbours are in
 * its own field): the mean deviation over the frames, in noise units, is large both ways and
 * has the same sign. A scene edge is off one way only; texture that moves averages out.
 * A sample whose same-colour neighbours average out around it (their mean deviations along
 * the directions that miss the sample stay a third of its own or less) needs fewer sigmas,
 * and (a sixth or less) less evidence that the scene moves through it for the test against
 * its own spread between the frames: still fine texture moves its neighbours as much as
 * itself. Weak single defects in clusters
 * are the scene's still detail and are dropped.
 * The thresholds count the independent looks the frames give (the variation of each
 * sample's deviation between frames, per tile), so a noiseless clip, whose frames are one
 * look, has no defects. Where clipping hides a sample or its neighbours, it still counts
 * when even the clipped values put it far off. Isolated defects of one sign that repeat with
 * a period along x and along y (a period that stands out of the distances around it) form
 * the focus-pixel lattice, which is completed: every site of its classes inside its box is
 * repaired, also those too weak to show alone. Stripe gains are the ratio of each column class (x mod 8,
 * per row class y mod 4, hence per field in dual ISO) to its same-colour neighbours over 16
 * columns, pooled over all frames and smooth areas, defects left out; they are applied only
 * when significant (against their spread between 8 bands of rows).
 *
 * Do no harm: in a still scene the scene's own fixed detail passes every one of those tests,
 * so a candidate is taken only where the scene is seen to move (each measurement's block sums:
 * a block's share of the light around it changes between the frames, which a change of light
 * does not do), is stuck, too quiet for its level or below black (map_quiet.c: no scene makes
 * a sample's noise less than its level's, or its light less than none), lies on the camera's known lattice confirmed by the clip, or comes
 * from a reference clip (mp_rawfix_map_build_reference); the others are counted as left alone
 * (rawfix_map.left_alone) and repaired nowhere.
 *
 * Repair (rawfix_apply, per frame, in place, before dual ISO): stripe gains first, then each
 * defect site takes the mean of its two same-colour neighbours along the direction (row,
 * column, two diagonals) where they differ least, skipping neighbours that are defects
 * themselves; in dual-ISO frames the column step is 4 rows, so a field only uses itself,
 * unless the plan has the clip's field levels (mp_rawfix_plan_set_fields): then a site also
 * takes the other field's samples 2 rows away, in its own field's units, each pair weighed by
 * its difference and its noise (repair.c). */
#ifndef MP_RAWFIX_H
#define MP_RAWFIX_H

#include <stdint.h>

#include "common/mp_frame.h"
#include "common/mp_status.h"

#define RAWFIX_MAX_FRAMES 64u       /* sample frames an accumulator takes */
#define RAWFIX_MIN_FRAMES 8u        /* sample frames a map needs (fewer: an empty map) */
#define RAWFIX_MAX_CLASSES 32u      /* residues of one lattice */
#define RAWFIX_MAX_PERIOD 128u      /* longest lattice period looked for */
#define RAWFIX_MAX_PIXELS 8192      /* single defects kept per map (the strongest) */
#define RAWFIX_STRIPE_ROWS 4u       /* stripe gain classes: y mod 4 ... */
#define RAWFIX_STRIPE_COLS 8u       /* ... x x mod 8 */
#define RAWFIX_BLOCK 16u            /* side of the blocks whose sums show motion */
#define RAWFIX_BLOCK_SUMS 4u         /* per block: one per row class (y mod 4) */
#define RAWFIX_BLOCK_CLIPPED UINT32_MAX

typedef struct rawfix_lattice {
    uint32_t period_x, period_y;    /* 0: no lattice */
    uint32_t x0, y0, x1, y1;        /* the box [x0, x1) x [y0, y1) it covers */
    uint32_t class_count;
    uint32_t class_x[RAWFIX_MAX_CLASSES], class_y[RAWFIX_MAX_CLASSES];   /* x % px, y % py */
} rawfix_lattice;

typedef struct rawfix_map {
    uint32_t width, height;         /* frame size it was made for; 0: empty map (no fixes) */
    uint32_t frames;                /* sample frames it comes from */
    rawfix_lattice lattice;
    uint32_t pixel_count;           /* single defects (hot, cold, off-lattice) */
    uint32_t *pixels;               /* x0, y0, x1, y1, ... (malloc'd), raster order */
    uint32_t left_alone;            /* samples that look like single defects where the scene
                                     * does not move through them: not repaired, since a
                                     * still scene's fixed detail looks the same */
    int lattice_left_alone;         /* a period found, not taken (a still scene, no camera
                                     * map confirmed) */
    uint8_t *clean;                 /* a bit per sample, raster order (NULL: not known): the
                                     * clip's own frames show it in line with its neighbours,
                                     * so a borrowed site there stays as recorded
                                     * (mp_rawfix_map_add_moved) */
    uint32_t borrowed_vetoed;       /* borrowed single sites left as recorded for that */
    int borrowed_lattice_vetoed;    /* a borrowed lattice not taken: most of its sites clean */
    int stripes;                    /* stripe gains significant, applied */
    double stripe_amplitude;        /* largest |gain - 1| measured (also when not applied) */
    double stripe_gain[RAWFIX_STRIPE_ROWS][RAWFIX_STRIPE_COLS];  /* 1 when not applied */
} rawfix_map;

void mp_rawfix_map_free(rawfix_map *m);
/* Deep copy (dst is overwritten, not freed). */
mp_status mp_rawfix_map_copy(rawfix_map *dst, const rawfix_map *src, mp_error *err);
/* Adds src's single defects, moved by (dx, dy), to dst's, and src's lattice, moved, when dst has
 * none. A borrowed site where dst's own frames show a clean sample (dst->clean) is not added
 * (counted in dst->borrowed_vetoed), nor a lattice most of whose sites they show clean
 * (dst->borrowed_lattice_vetoed): another clip's map never makes a sample worse. For another clip's map, (dx, dy) is where its window starts in the LiveView buffer
 * less where dst's starts (even, so colours stay). Sites that leave dst's width x height are
 * dropped; the union stays in raster order, at most RAWFIX_MAX_PIXELS sites (the first
 * ones). Stripe gains are dst's own. */
mp_status mp_rawfix_map_add_moved(rawfix_map *dst, const rawfix_map *src, int32_t dx, int32_t dy,
                                  mp_error *err);
/* Lattice sites inside the box (what the lattice repairs). */
uint64_t mp_rawfix_lattice_sites(const rawfix_lattice *l);

/* ---- finding ---- */

/* One frame's measurement (reused between frames): its noise per row class and brightness,
 * and one row's work arrays. The deviations themselves are made row by row while they are
 * added (rawfix_accum_rows), so that no frame-sized array of them is written and read back. */
struct rawfix_dsp;
typedef struct rawfix_measurement {
    uint32_t width, height;
    uint32_t vstep;                 /* column step to a same-colour sample of the field */
    int32_t white, black;
    int measurable;                 /* 0: the frame is too small, every deviation is
                                     * RAWFIX_NO_Z (adds nothing) */
    uint64_t signature;             /* of the frame's samples: copies of a frame share it */
    const struct rawfix_dsp *dsp;   /* the row kernels of the CPU level in use */
    double *sigma;                  /* noise sigma of a difference per row class (y mod 4)
                                     * and brightness bin */
    float *sigma_float;             /* the same in single precision (mp_rawfix_float_sigmas) */
    uint32_t *blocks;               /* per RAWFIX_BLOCK-square block (raster order) and row
                                     * class: the sum of its samples less black,
                                     * RAWFIX_BLOCK_CLIPPED where one is at white (what shows
                                     * the scene moving) */
    size_t block_count;             /* sums allocated */
    uint32_t *light;                /* per block and row class: the light around it
                                     * (mp_rawfix_light of the blocks' sums; made by
                                     * rawfix_accum_rows for its rows; internal) */
    uint32_t *hist;                 /* noise histograms (internal) */
    void *work;                     /* one row's work arrays and outputs (internal) */
    uint32_t work_width;
} rawfix_measurement;
/* A sample's deviation from its row / column neighbours, in noise units x 16: */
#define RAWFIX_NO_Z INT16_MIN
/* zh = zv = RAWFIX_CLIPPED_LOW: not measurable (clipping around it) but below half of each of
 * its four same-colour neighbours' signal while one of them is clipped (a dead pixel in the
 * highlights); RAWFIX_CLIPPED_HIGH: clipped itself while its four neighbours are unclipped and
 * have less than half its signal (a pixel stuck at white in the shadows). */
#define RAWFIX_CLIPPED_LOW (INT16_MIN + 1)
#define RAWFIX_CLIPPED_HIGH (INT16_MIN + 2)

/* Measures a raw frame's noise; dual says its rows alternate ISO (column step 4). */
mp_status mp_rawfix_measure(const mp_frame *f, int dual, rawfix_measurement *m, mp_error *err);
void mp_rawfix_measurement_free(rawfix_measurement *m);

typedef struct rawfix_accum rawfix_accum;

rawfix_accum *mp_rawfix_accum_new(uint32_t width, uint32_t height);
/* A caller's way to run the parts of a pass at once (rawfix makes no threads): run calls
 * fn(ctx, part) for every part in [0, parts), each exactly once, in any order and on any
 * threads, and returns when all are done. Each part writes outputs of its own (sums of whole
 * numbers, or partial sums the pass adds up in part order), so the result is the same however
 * the parts are run. */
typedef struct rawfix_runner {
    void (*run)(void *opaque, uint32_t parts, void (*fn)(void *ctx, uint32_t part), void *ctx);
    void *opaque;
} rawfix_runner;

/* As mp_rawfix_accum_new, its arrays made through runner (NULL: one after another), which
 * mp_rawfix_accum_settled and the map builders then run their passes through; the same map
 * whatever the runner. mp_rawfix_accum_runner changes it. */
rawfix_accum *mp_rawfix_accum_new_with(uint32_t width, uint32_t height,
                                       const rawfix_runner *runner);
void mp_rawfix_accum_runner(rawfix_accum *a, const rawfix_runner *runner);
void mp_rawfix_accum_free(rawfix_accum *a);
/* Adds frame f, measured in m, as sample number `sample` (< RAWFIX_MAX_FRAMES, each once) of
 * the same size: mp_rawfix_accum_claim, then mp_rawfix_accum_rows over every row. */
mp_status mp_rawfix_accum_add(rawfix_accum *a, rawfix_measurement *m, const mp_frame *f,
                              uint32_t sample, mp_error *err);
/* The same in parts, for threads that share an accumulator: claim checks and counts the
 * sample (callers serialise); rows adds rows [y0, y1) of f, which m measured, to the sums.
 * Calls for disjoint rows may run at once (each with its own measurement); calls for the
 * same rows are serialised by the caller. Integer sums: the order does not matter. */
mp_status mp_rawfix_accum_claim(rawfix_accum *a, const rawfix_measurement *m, uint32_t sample,
                                mp_error *err);
void mp_rawfix_accum_rows(rawfix_accum *a, rawfix_measurement *m, const mp_frame *f,
                          uint32_t y0, uint32_t y1);
/* Adds row y's recorded values, deviations and stripe sums (width entries each, as a
 * measurement makes them) and the light around each sample (rawfix_sums.light, or NULL:
 * no value_light) to the sums of the sample claimed for them: what mp_rawfix_accum_rows does
 * per row. */
void mp_rawfix_accum_add_row(rawfix_accum *a, uint32_t y, const uint16_t *values,
                             const int16_t *zh, const int16_t *zv, const int32_t (*stripe)[2],
                             const uint32_t *light);
/* The deviations of the sample at (x, y) of f, which m measured: what the sums get for it
 * (diagnostics; RAWFIX_NO_Z where nothing is measured). */
void mp_rawfix_measure_at(rawfix_measurement *m, const mp_frame *f, uint32_t x, uint32_t y,
                          int16_t *zh, int16_t *zv);

/* Whether the frames added so far (RAWFIX_SETTLED_FRAMES or more) already give the map that
 * `more` frames of the same scene would: no block of the scene moves in them (a still clip's
 * map takes only stuck pixels, the camera's known lattice and stripes, which 16 frames decide
 * as bench_rawfix measures them), no sample is near the stuck test's limit (one value in
 * every frame where more repeats could make it stuck) and no candidate is near the quiet
 * test's (map_build.c, quiet_could_pass). *settled 1: the pre-pass may stop. */
#define RAWFIX_SETTLED_FRAMES 16u
mp_status mp_rawfix_accum_settled(const rawfix_accum *a, uint32_t more, int *settled,
                                  mp_error *err);

/* Builds the map from the frames added so far. Fewer than RAWFIX_MIN_FRAMES frames give an
 * empty map. */
mp_status mp_rawfix_map_build(const rawfix_accum *a, rawfix_map *m, mp_error *err);

/* The focus-pixel lattices the camera (IDNT cameraModel) and video mode (RAWI raw_info
 * buffer size, the frame's VIDF pan) are known to have in a width x height frame, from the
 * community's published maps (priors.c, doc/rawfix.md): each mode that fits the buffer at the
 * recorded window position and moved by the offsets the recorders' rounding of that position
 * can make (8 columns, up to 6 rows), most likely first, at most max (RAWFIX_MAX_PRIORS holds
 * them all). 0: another camera or mode, or the frame holds none of it. */
#define RAWFIX_MAX_PRIORS 48u
uint32_t mp_rawfix_priors(uint32_t camera_model, uint32_t buffer_width, uint32_t buffer_height,
                          uint32_t pan_x, uint32_t pan_y, uint32_t width, uint32_t height,
                          rawfix_lattice *out, uint32_t max);

/* As mp_rawfix_map_build, with prior lattices (count 0: none) checked against the clip
 * (prior_check.c): of those whose every class stands out of the frame's other cells of the
 * same period, the one that stands out most is the map's lattice, complete (also where the
 * clip alone would not show the period), and *chosen (when not NULL) its index; -1 when none
 * is confirmed, and then the clip's own search runs as without priors. */
mp_status mp_rawfix_map_build_prior(const rawfix_accum *a, const rawfix_lattice *priors,
                                    uint32_t count, rawfix_map *m, int *chosen, mp_error *err);

/* As mp_rawfix_map_build_prior, for a reference clip: one the user gives as showing this
 * sensor's defects (a lens-cap clip, or one whose scene moves), so a sample steadily off its
 * neighbours is a defect also where the clip shows no motion, and a lattice found in its
 * pixels is taken. */
mp_status mp_rawfix_map_build_reference(const rawfix_accum *a, const rawfix_lattice *priors,
                                        uint32_t count, rawfix_map *m, int *chosen,
                                        mp_error *err);

/* ---- repairing ---- */

enum {
    RAWFIX_FOCUS = 1,               /* the lattice */
    RAWFIX_BAD = 2,                 /* single hot and cold pixels */
    RAWFIX_STRIPES = 4,
    RAWFIX_ALL = 7
};

/* The two fields of a dual-ISO clip as the repair reads them: the clip's levels, which the
 * caller takes from the dual-ISO module (rawfix does not depend on it). Field 0 is the dark
 * (low-ISO) one, 1 the bright one; a bright sample v stands for the dark-field signal
 * (v - black[1]) / ratio. */
typedef struct rawfix_field_levels {
    uint32_t phase;             /* row y is in the bright field when (y + phase) % 4 >= 2 */
    double ratio;               /* the bright field's gain over the dark field's (> 1) */
    double black[2], white[2];  /* per field, input DN: above white[k] a sample is clipped */
    double read_noise[2];       /* per field, input DN of that field */
    double gain;                /* dark field, DN per electron (0: unknown, read noise only) */
} rawfix_field_levels;

/* What a map repairs in frames, with some fixes switched off: the sorted sites and a bitmap. */
typedef struct rawfix_plan {
    uint32_t width, height;
    int dual;
    int has_fields;             /* dual ISO with fields (mp_rawfix_plan_set_fields) */
    rawfix_field_levels fields;
    double inv_scale[2], read_var[2];   /* per field: 1 / its gain over the dark field's, and
                                         * its read noise^2 in the dark field's DN */
    int stripes;
    float inv_gain[RAWFIX_STRIPE_ROWS][RAWFIX_STRIPE_COLS];
    float *gain_rows;               /* inv_gain along a row of each row class (width each;
                                     * NULL without stripes) */
    uint32_t site_count;
    uint32_t *sites;                /* y * width + x, ascending */
    uint8_t *is_site;               /* width * height */
} rawfix_plan;

/* fixes: RAWFIX_* bits; dual: the frames alternate ISO by row pairs. */
mp_status mp_rawfix_plan_make(const rawfix_map *m, unsigned fixes, int dual, rawfix_plan *p,
                           mp_error *err);
void mp_rawfix_plan_free(rawfix_plan *p);
/* A dual-ISO plan's sites then also take the other field's samples, two rows nearer than
 * their own field's (repair.c); levels that could not be a dual-ISO clip's (ratio <= 1,
 * white <= black, not finite) are ignored, and so are fields for a plan that is not dual. */
void mp_rawfix_plan_set_fields(rawfix_plan *p, const rawfix_field_levels *f);
/* Whether the plan changes anything. */
static inline int mp_rawfix_plan_active(const rawfix_plan *p)
{
    return p->stripes || p->site_count;
}

/* Repairs f in place. A frame of another size than the plan's is an error. */
mp_status mp_rawfix_apply(const rawfix_plan *p, mp_frame *f, mp_error *err);

#endif
