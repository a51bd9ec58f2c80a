/* dualiso: Magic Lantern dual-ISO reconstruction as pure functions on frames (no files, no
 * threads, no globals). Flow: detect -> per-frame statistics -> clip levels pooled over many
 * frames -> reconstruct each frame with the same levels (no flicker, chunk-independent).
 *
 * Row phase convention (same as src/synth): buffer row y belongs to the bright (high-ISO)
 * field when (y + phase) % 4 >= 2; phase 0 = "ddBB" (rows 0,1 dark, rows 2,3 bright).
 *
 * Units: "input DN" are the frame's own units at its bit depth. The signal model is
 *   dark rows:   v = black_dark   + s            (+ noise)
 *   bright rows: v = black_bright + ratio * s   (+ noise)
 * with s the dark-field signal. Reconstruction writes 16-bit samples
 *   out = out_black + out_scale * s
 * so out_black is an exact integer and out_black/out_white are the same for every frame
 * reconstructed with the same levels.
 *
 * CONTRACT NOTE (lead): mp_dualiso_detect and the output-scale fields of dualiso_levels below
 * are used by other modules (mlvpipe info, the quality benchmark). */
#ifndef MP_DUALISO_H
#define MP_DUALISO_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_frame.h"
#include "common/mp_status.h"

typedef struct dualiso_detection {
    int is_dual;          /* 1 when the period-4 row pattern is present */
    uint32_t phase;       /* 0..3, see above; valid when is_dual */
    double ev_estimate;   /* rough brightness ratio of the fields, EV */
    double confidence;    /* 0..1, how clearly the pattern stands out */
    uint64_t pairs;       /* evidence: usable pixel pairs of the scarcer row class (0 when
                             too few to say anything, e.g. a lens-cap frame) */
} dualiso_detection;

/* Looks for the dual-ISO row pattern in one raw frame, at any bit depth (levels from f).
 * A frame without usable pixel pairs (all black, all clipped, tiny) is reported as not
 * dual with confidence 0; only impossible frames (no data, white <= black) are errors. */
mp_status mp_dualiso_detect(const mp_frame *f, dualiso_detection *out, mp_error *err);

/* ---- per-frame statistics (plain, fixed-size, mergeable by mp_dualiso_stats_merge) ---- */

#define DUALISO_CELLS_X 24
#define DUALISO_CELLS_Y 16
#define DUALISO_CELLS (DUALISO_CELLS_X * DUALISO_CELLS_Y)

/* Matched pixel pairs of one grid cell and CFA colour: every sample of one field paired
 * with the mean of the same-colour samples two rows above and below (the other field).
 * Sums are relative to the frame's metadata black, in input DN. */
typedef struct dualiso_pair_cell {
    double n;           /* pairs */
    double sum_dark;    /* sum of dark-field values - black */
    double sum_bright;  /* sum of bright-field values - black */
    uint16_t max_dark, max_bright; /* largest raw sample that went into the sums */
    /* Sum over the dark samples' pairs of (bright sample above - bright sample below): near 0
     * in a flat cell, large where a horizontal edge (e.g. the top optical-black border) makes
     * the interpolated partners wrong. The telescoping sum is the bright field's step from
     * the cell's top rows to its bottom rows. */
    double sum_step;
} dualiso_pair_cell;

/* Horizontal same-colour second differences of one field in one cell (photon transfer
 * data, blind to smooth gradients): var(2v(x) - v(x-2) - v(x+2)) / 6
 * = read_noise^2 + gain * signal (+ scene texture). */
typedef struct dualiso_noise_cell {
    double n;
    double sum_level;   /* sum of the centre samples - black */
    double sum_diff2;   /* sum of squared second differences */
} dualiso_noise_cell;

typedef struct dualiso_stats {
    uint32_t frames;             /* frames summed in (0 = empty) */
    uint32_t bits, black, white; /* metadata levels the sums refer to */
    uint32_t phase;
    uint32_t phase_votes[4];     /* detected phase per frame (majority vote when pooling) */
    dualiso_pair_cell pairs[DUALISO_CELLS][3];     /* 0 = R, 1 = G, 2 = B */
    dualiso_noise_cell noise[2][DUALISO_CELLS];    /* 0 = dark field, 1 = bright field */
    uint16_t field_max[2];       /* largest sample per field */
    uint64_t field_max_count[2]; /* samples at exactly that value (a pile-up = clipping) */
} dualiso_stats;

/* Collects the statistics of one frame for the given row phase (from detection).
 * Overwrites *st. Frames too small for any pair give empty sums, not an error. */
mp_status mp_dualiso_stats_collect(const mp_frame *f, uint32_t phase, dualiso_stats *st,
                                mp_error *err);

/* acc += add. Both must refer to the same bits/levels/phase (else MP_ERR_ARG). An empty
 * acc (frames == 0) takes add as is. */
mp_status mp_dualiso_stats_merge(dualiso_stats *acc, const dualiso_stats *add, mp_error *err);

/* ---- clip levels ---- */

/* The row phase most frames voted for (votes[p] frames detected phase p), the lower phase on
 * a tie; -1 when there is no vote at all. The one vote used by pooling, the pre-pass and
 * `info`, so they can never disagree on a clip's phase. */
int mp_dualiso_phase_majority(const uint32_t votes[4]);

/* Where the ratio and the bright-field black came from, in the order mp_dualiso_levels_pool
 * tries them. A flat field (grey wall, sky) puts every cell at one level, where slope and
 * intercept cannot be told apart: the offset is then taken as 0 (the metadata black) and
 * the ratio is the ratio of the fields' means. A clip with nothing above noise (lens cap)
 * falls back to the nominal ratio of the pool options. */
typedef enum dualiso_ratio_source {
    DUALISO_RATIO_NONE = 0,            /* not dual ISO (passthrough levels) */
    DUALISO_RATIO_FITTED = 1,          /* line fit: ratio and offset (0 when within noise) */
    DUALISO_RATIO_THROUGH_ORIGIN = 2,  /* cells at too few levels: offset 0, fitted ratio */
    DUALISO_RATIO_NOMINAL = 3          /* no usable cells: pool option nominal_ev, offset 0 */
} dualiso_ratio_source;

/* Short name of a dualiso_ratio_source ("fitted" ...), "unknown" for other values. */
const char *mp_dualiso_ratio_source_name(uint32_t source);

typedef struct dualiso_levels {
    int is_dual;                 /* 0: frames pass through with the same output mapping */
    uint32_t phase;
    uint32_t bits;
    uint32_t ratio_source;       /* dualiso_ratio_source */
    double in_black, in_white;   /* metadata levels of the input, input DN */
    double ratio;                /* bright gain / dark gain (linear) */
    double ratio_ev;             /* log2(ratio) */
    double black_dark, black_bright;   /* per-field black, input DN, sub-DN precision */
    double white_dark, white_bright;   /* per-field clip, input DN */
    double noise_dark, noise_bright;   /* per-field read noise, input DN of that field */
    double gain_dark;            /* photon gain of the dark field, DN per electron (0 unknown) */
    uint32_t frames_used;        /* frames that contributed */
    uint32_t cells_used;         /* cell points kept by the ratio fit */
    uint32_t out_black;          /* output 16-bit black (exact integer) */
    uint32_t out_white;          /* output 16-bit white */
    double out_scale;            /* output DN per dark-field input DN above black */
} dualiso_levels;

typedef struct dualiso_pool_options {
    double nominal_ev;     /* ratio to fall back on (e.g. from a DISO block); 0 = none */
    int force_phase;       /* -1: majority of the frames' phases, else 0..3 */
} dualiso_pool_options;

void mp_dualiso_pool_options_default(dualiso_pool_options *o);

/* Pools the statistics of n frames (each entry may itself be merged) into one set of
 * levels: per-field whites from clipping pile-ups, read noise and gain from a photon
 * transfer fit, ratio and bright-field black offset from a robust weighted line fit of the
 * matched cell means in linear space (every cell of every entry is one point), with the
 * fallbacks of dualiso_ratio_source when the cells do not span enough levels. Fails
 * (MP_ERR_FORMAT) when nothing is usable and opt->nominal_ev is 0. */
mp_status mp_dualiso_levels_pool(const dualiso_stats *many, uint32_t n,
                              const dualiso_pool_options *opt, dualiso_levels *lv,
                              mp_error *err);

/* Levels for frames that are not dual ISO: same output mapping, fields identical. */
mp_status mp_dualiso_levels_passthrough(const mp_frame *f, dualiso_levels *lv, mp_error *err);

/* ---- reconstruction ---- */

typedef struct dualiso_options {
    int row_align;         /* shift dark rows whose offset to the bright rows stands out of
                              the noise (line-pair banding); other rows keep the clip levels */
    int bad_pixels;        /* repair isolated hot/cold samples before interpolating */
    int shadow_smooth;     /* 0 (default): off; 1: smooth the bright field within a few
                              read-noise sigmas of black ([1 2 1] along the row): less
                              deep-shadow noise for less shadow resolution (the default
                              before issue 34; ignored when denoise is on) */
    int chroma_smooth;     /* 0 (default): off; 2, 3, 5: cr2hdr's --cs2x2 / --cs3x3 / --cs5x5
                              median chroma of each 2x2 cell and its neighbours (5-point,
                              3x3, 5x5 cells), applied only where noise swamps chroma (deep
                              shadows; fades out by a green SNR of 12). Less shadow colour
                              noise, softer colour edges there (chroma.c) */
    float denoise;         /* 0 (default): off, the frame is the noise-weighted mix of both
                              fields' samples and nothing is smoothed; > 0: the cross-field
                              non-local mean (mp_dualiso_denoise) at that strength, which
                              multiplies the noise a patch difference may show and still be
                              averaged (1: the noise the levels predict; up to
                              DUALISO_DENOISE_MAX). Lower noise for less resolution
                              (doc/dualiso.md 5) */
} dualiso_options;

#define DUALISO_DENOISE_MAX 8.0f

void mp_dualiso_options_default(dualiso_options *o);

/* Reusable per-thread scratch memory (a few rows wide), so memory stays bounded. */
typedef struct dualiso_workspace dualiso_workspace;
dualiso_workspace *mp_dualiso_workspace_new(void);
void mp_dualiso_workspace_free(dualiso_workspace *ws);

/* Reconstructs one frame with the given levels into out (16-bit, out->black/white set from
 * lv). Frames whose size or bit depth do not match the levels are MP_ERR_ARG. Same input,
 * levels and options give the same bytes. When lv->is_dual is 0 this is the passthrough. */
mp_status mp_dualiso_reconstruct(const mp_frame *in, const dualiso_levels *lv,
                              const dualiso_options *opt, dualiso_workspace *ws, mp_frame *out,
                              mp_error *err);

/* Cross-field non-local mean of a blended frame in place (denoise.c): noise averaged where
 * the 5x3 patches around the 48 same-colour neighbours up to 6 px away agree within
 * strength x the noise the levels predict, structure kept where they do not (strength > 0,
 * dualiso_options.denoise). *mem / *mem_size: reusable row memory (realloc'ed). */
mp_status mp_dualiso_denoise(const dualiso_levels *lv, float strength, mp_frame *out,
                             float **mem, size_t *mem_size, mp_error *err);

/* Non-dual frames: only the level normalisation of the output mapping. */
mp_status mp_dualiso_passthrough(const mp_frame *in, const dualiso_levels *lv, mp_frame *out,
                              mp_error *err);

/* Helpers shared by the module's files (and handy for tests). */
static inline int dualiso_row_is_bright(uint32_t y, uint32_t phase)
{
    return (y + phase) % 4 >= 2;
}

#endif
