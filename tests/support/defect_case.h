/* defect_case: a simulated clip with sensor defects (src/synth) run through rawfix, scored
 * against the simulator's truth. Shared by the rawfix unit test and tools/bench/bench_rawfix. */
#ifndef DEFECT_CASE_H
#define DEFECT_CASE_H

#include <stdint.h>
#include <stdio.h>

#include "rawfix/rawfix.h"
#include "synth/synth.h"

/* CASE_OBJECTS: the second benchmark scene (synth.h), drifting like CASE_TEXTURED: a scene the
 * detector's constants were not set on. CASE_JITTER: CASE_STATIC under illumination jitter
 * (0.25 EV per frame): still fine texture whose deviations change with the light.
 * CASE_LENS_CAP: no light (read noise, the defects' offsets), the clip a map is borrowed
 * from with --defects-from. */
typedef enum case_scene {
    CASE_FLAT, CASE_TEXTURED, CASE_DARK, CASE_STATIC, CASE_OBJECTS, CASE_JITTER, CASE_LENS_CAP
} case_scene;

typedef struct defect_case {
    uint32_t width, height;     /* active area */
    uint32_t frames;            /* sampled by the "pre-pass" */
    double ev_gap;              /* 0: single ISO */
    case_scene scene;
    int defects;                /* 0: a clean clip */
    uint64_t seed;
    double fp_offset_dn;        /* focus pixels' mean offset, DN14; 0: the default 16 */
    const rawfix_lattice *prior;    /* prior lattices for the map (NULL: none) ... */
    uint32_t prior_count;           /* ... how many (0 with a prior: one) */
    const rawfix_map *borrowed;     /* not NULL: its lattice and single sites replace the
                                     * ones found (--defects-from, same frame size) */
    FILE *misses;               /* not NULL: each hot/cold site the map missed, with what
                                 * the sampled frames showed there (a diagnostic) */
} defect_case;

#define CASE_STRENGTHS 4
extern const double case_strength_edges[CASE_STRENGTHS - 1];   /* 3, 6, 12 sigmas */

typedef struct case_score {
    uint64_t pixels;                        /* of the recorded frame */
    uint32_t focus_true, focus_found;       /* truth sites of each kind and those in the map */
    uint32_t bad_true, bad_found;           /* hot + cold */
    uint32_t focus_hidden, bad_hidden;      /* sites left out of the *_true counts: the defect
                                             * changed the recorded value in none of the
                                             * sampled frames (a hot pixel in highlights
                                             * that clip in every frame reads white either
                                             * way; nothing in the clip can show it) */
    uint32_t bad_visible, bad_visible_found;    /* hot/cold sites the defect moved by more
                                             * than the sample's noise sigma (read + shot)
                                             * from the value recorded without it, in at
                                             * least visible_frames() sampled frames, and
                                             * those in the map: a warm pixel at white where
                                             * its true value is within the noise of white,
                                             * or a stuck one at the scene's value, is
                                             * counted in bad_true but not here */
    /* The "pixels more than 6 sigma off": the hot/cold sites (bad_true) by their
     * strength, the mean over the sampled frames of what the defect moved the recorded value
     * by, in units of the clean sample's temporal noise there (read + shot noise at the
     * noise-free value): < 3, 3-6, 6-12, >= 12 sigmas; and by kind (synth_defect_kind less
     * 1: hot stuck, hot warm, cold dead, cold weak) those 6 sigmas off or more. */
    uint32_t strength_true[CASE_STRENGTHS], strength_found[CASE_STRENGTHS];
    uint32_t kind6_true[4], kind6_found[4];
    uint32_t false_sites;                   /* map sites that are no defect */
    uint32_t period_x, period_y;            /* the map's lattice */
    double residue_rms;                     /* at truth sites, / local noise (RMS) */
    double residue_within2;                 /* share of those (sites x repaired frames)
                                             * within 2 noise sigmas (issue #11's bound) */
    double floor_within2;                   /* ... of the same repair at clean samples */
    double residue_found_rms;               /* ... at those the map repairs */
    double residue_floor_rms;               /* the same repair at clean samples */
    double residue_resolved_rms;            /* at truth sites where the scene is resolved by
                                             * the same-colour neighbours (defect_case.c) */
    double resolved_share;                  /* ... their share of the truth sites */
    double stripe_before, stripe_after;     /* max |column-class mean / mean - 1|, % */
    int stripes_applied;
    double stripe_amplitude;                /* measured by the map, % */
    double seconds_apply;                   /* CPU time of one rawfix_apply */
} case_score;

/* The default defect set: focus lattice 12x10 with pairs at (4, 3), +-16 DN14 (+3 % of the
 * signal), 200 hot and 200 cold pixels, +-0.5 % stripes. */
void defect_case_defects(const defect_case *c, synth_defects *d);

/* The default set's focus lattice in the recorded frame of a case, as a prior; dx shifts its
 * columns (a prior that does not match the clip). */
void defect_case_lattice(const defect_case *c, int dx, rawfix_lattice *l);

/* The frames in which a defect must show for bad_visible: as many as the map needs to
 * judge a sample at all (a quarter of the sampled frames, at least 3: map_build.c). */
uint32_t visible_frames(uint32_t frames);

/* Runs the case: simulates c->frames frames, measures and accumulates them, builds the map
 * (into *map when map is not NULL; caller frees), repairs one more frame and scores it. */
int defect_case_run(const defect_case *c, case_score *s, rawfix_map *map);

#endif
