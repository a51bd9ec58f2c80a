/* develop: raw CFA frame -> 16-bit planar RGB for the movie sinks (which tag its colour with
 * movie/color_tags.h).
 *
 * Pipeline per frame, all in float:
 *   1. black/white normalisation and white balance on the CFA, clipped to 1.0: gains are scaled
 *      so the smallest is 1.0, which puts every channel's clip at the same level and keeps
 *      clipped highlights neutral (dcraw's default highlight handling);
 *   2. demosaic: RCD (ratio corrected demosaicing, L. Sanz Rodriguez 2017: chromatic-aberration
 *      invariant direction statistics, ratio-corrected green in a low-pass domain, colour
 *      differences for red/blue) or bilinear as the fast path;
 *   3. highlights: BLEND desaturates towards white as the brightest CFA sample around a pixel
 *      approaches the clip (smoothstep from 0.8 to 1.0 of the clip, 3x3 neighbourhood), so
 *      partially clipped areas go white, not magenta or yellow. RECONSTRUCT first rebuilds
 *      each raw-clipped sample (before step 1's clip at 1.0, which it skips) from the
 *      unclipped channels around it times the colour of the unclipped cells near it, up to
 *      2x the highest clip; a sample that cannot be rebuilt (no such neighbours, or a
 *      rebuilt value below its own clip) takes that highest clip and its pixels go to white
 *      as in BLEND;
 *   4. camera -> XYZ -> output gamut: from ColorMatrix1 (XYZ -> camera) and the white balance
 *      the DNG way: camera neutral -> scene white in XYZ, Bradford adaptation to the output
 *      white, XYZ -> output primaries; normalised so the white-balanced clip (1,1,1) maps to
 *      output (1,1,1). Exposure (2^EV) is folded into this matrix;
 *   5. transfer curve through a LUT, rounded to uint16 full range (0 = 0.0, 65535 = 1.0).
 *
 * Scene-linear convention: 1.0 is the white-balanced sensor clip of the least amplified channel
 * (usually green), i.e. a conventional exposure puts middle grey (0.18) about 2.5 stops below
 * the clip. Linear and BT.709 outputs clip above 1.0; the log curves keep headroom, so with
 * them a negative exposure offset is not needed to protect highlights.
 *
 * Curves and gamuts: common/mp_color.h (mp_curves.c and mp_gamuts.c; doc/colour.md gives
 * each formula, its constants, source and reference values). Negative values (out of gamut)
 * are clipped to 0 before the curve. The log curves keep 7-10 stops of headroom above grey.
 *
 * Threads: a develop_context is read-only after creation and can be shared; each thread owns a
 * develop_workspace and its output develop_rgb. Output bytes depend only on the frame, the
 * clip metadata and the params (never on threads, strip size or earlier frames). After the first
 * frame of a size, mp_develop_frame does not allocate. */
#ifndef MP_DEVELOP_H
#define MP_DEVELOP_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_color.h"
#include "common/mp_frame.h"
#include "common/mp_meta.h"
#include "common/mp_status.h"

typedef enum develop_demosaic {
    DEVELOP_DEMOSAIC_RCD,       /* edge-aware, the default */
    DEVELOP_DEMOSAIC_BILINEAR   /* fast preview quality (--fast) */
} develop_demosaic;

typedef enum develop_wb {
    DEVELOP_WB_AS_SHOT,   /* the clip's as-shot neutral (from WBAL); without one, DAYLIGHT */
    DEVELOP_WB_DAYLIGHT,  /* neutral of ColorMatrix1's calibration illuminant (D65 for ML) */
    DEVELOP_WB_CUSTOM     /* wb_gains (e.g. 1/AsShotNeutral, or mp_develop_grey_world_gains) */
} develop_wb;

typedef enum develop_matrix {
    DEVELOP_MATRIX_COLOR_MATRIX1, /* camera -> XYZ from mp_raw_info.color_matrix1 */
    DEVELOP_MATRIX_IDENTITY       /* camera RGB taken as output RGB (tests, unknown cameras) */
} develop_matrix;

typedef enum develop_highlight {
    DEVELOP_HIGHLIGHT_BLEND,      /* clip neutral + desaturate towards white near the clip */
    DEVELOP_HIGHLIGHT_CLIP,       /* clip neutral only */
    DEVELOP_HIGHLIGHT_RECONSTRUCT /* raw-clipped samples rebuilt from the unclipped channels
                                     and the neighbourhood's colour (highlights.h), values
                                     above the clip kept; BLEND where that fails */
} develop_highlight;

typedef struct develop_params {
    develop_demosaic demosaic;
    develop_wb wb;
    float wb_gains[3];       /* DEVELOP_WB_CUSTOM: R, G, B multipliers on the raw data */
    develop_matrix matrix;
    mp_gamut gamut;
    mp_curve curve;
    float exposure_ev;       /* scene-linear gain 2^EV after the matrix, within [-16, 16] */
    develop_highlight highlight;
    uint32_t strip_rows;     /* rows per processing strip, 0 = default; never changes output */
} develop_params;

/* RCD, as-shot WB, ColorMatrix1, Rec.709 primaries, BT.709 curve, 0 EV, BLEND. */
void mp_develop_params_default(develop_params *p);

/* Three planes R, G, B of width x height uint16 each, row-major, no padding (one allocation,
 * reused). For gbrp16 order the planes as plane[1], plane[2], plane[0]. */
typedef struct develop_rgb {
    uint16_t *plane[3];
    size_t capacity;         /* samples allocated over all three planes */
    uint32_t width, height;
    uint32_t number;         /* frame number, copied from the input frame */
} develop_rgb;

void mp_develop_rgb_free(develop_rgb *rgb);

/* Per-thread scratch memory; zero-initialise, reuse across frames, free at the end. */
typedef struct develop_workspace {
    float *buf;
    size_t capacity;         /* floats */
} develop_workspace;

void mp_develop_workspace_free(develop_workspace *ws);

typedef struct develop_context develop_context;

/* raw supplies color_matrix1 and calibration_illuminant (may be NULL with
 * DEVELOP_MATRIX_IDENTITY and a white balance other than DAYLIGHT). as_shot_neutral is the
 * clip's camera neutral R, G, B (common/mp_white.h mp_wb_as_shot_neutral), used by
 * DEVELOP_WB_AS_SHOT as multipliers 1 / neutral; NULL when the clip has none (as-shot then
 * means DAYLIGHT). Fails with MP_ERR_ARG on impossible params or a missing/singular
 * ColorMatrix1. */
mp_status mp_develop_context_create(const develop_params *params, const mp_raw_info *raw,
                                 const double *as_shot_neutral, develop_context **out,
                                 mp_error *err);
void mp_develop_context_free(develop_context *ctx);

/* The R, G, B multipliers the context applies to the raw data (smallest scaled to 1.0). */
void mp_develop_context_wb_gains(const develop_context *ctx, float gains[3]);

/* Develops one frame (width and height >= 2, any of the four CFA orders, white > black).
 * Thread-safe for distinct ws/out. */
mp_status mp_develop_frame(const develop_context *ctx, const mp_frame *frame, develop_workspace *ws,
                        develop_rgb *out, mp_error *err);

/* Receives developed row y of a frame: its R, G, B samples (the frame's width of each), valid
 * during the call. A failure stops the frame with that status. */
typedef mp_status (*develop_row_fn)(void *user, uint32_t y, const uint16_t *const rgb[3],
                                    mp_error *err);

/* Rows [first, last) of the frame (last <= height), the same values as mp_develop_frame's
 * planes, each handed to fn as soon as it is developed, in ascending order: no frame of
 * planes is written and read again (12 MB per 1080p frame), and rows outside the range are
 * not developed (a movie's active area). Thread-safe for distinct ws. */
mp_status mp_develop_frame_rows(const develop_context *ctx, const mp_frame *frame,
                                develop_workspace *ws, uint32_t first, uint32_t last,
                                develop_row_fn fn, void *user, mp_error *err);

/* Grey-world white balance pooled over frames sampled from the whole clip (so every farm
 * chunk gets the same gains): accumulate frames, then read R, G, B gains for
 * DEVELOP_WB_CUSTOM. 2x2 cells with a sample near the clip are skipped. */
typedef struct develop_grey_world {
    double sum[3];
    uint64_t cells;
} develop_grey_world;

mp_status mp_develop_grey_world_add(develop_grey_world *acc, const mp_frame *frame, mp_error *err);
/* MP_ERR_RANGE when nothing usable was accumulated (all clipped or all black). */
mp_status mp_develop_grey_world_gains(const develop_grey_world *acc, float gains[3], mp_error *err);

#endif
