/* Internal to the reconstruction files of src/dualiso: the per-thread workspace, the
 * per-frame context, and the row stages (load, interpolate) the blend builds on. */
#ifndef MP_DUALISO_RECON_PRIV_H
#define MP_DUALISO_RECON_PRIV_H

#include <math.h>
#include <stdint.h>

#include "dualiso/dsp.h"
#include "dualiso_priv.h"

#define RING 16               /* rows y-7 .. y+7 converted, power of two */
#define NSCRATCH 6            /* blend scratch rows */
#define QPAD 64               /* padding of the quarter-pixel guide rows (>= 3 rows x 4 px),
                                 in quarter px: QPAD / 4 samples of each phase plane */
#define CC_PAD 16             /* padding of the cross-colour sums: the colour-ratio half
                                 window, in px (interp.c) */
#define CS_RING 8             /* chroma smoothing: cell rows kept (>= 5 for 5x5), power of 2 */
#define NDIR 33               /* edge directions: -4 .. +4 px per row, quarter-pixel steps */
#define DIR_GROUP 8           /* directions whose running cost sums share a loop (interp.c) */
#define DIR_RAW_PAD 8         /* a span's cost reads this many columns beyond it, at most */
#define DUALISO_FADE_LO 0.70  /* bright field fades out between these fractions of */
#define DUALISO_FADE_HI 0.92  /* its clip (in dark-field units) */

/* The rows one blended row needs besides the ring: its estimate (interp.c) and scratch. */
typedef struct blend_set {
    float *est, *mis;             /* other-field estimate and its disagreement */
    uint8_t *est_clip, *est_mid;  /* estimate clipped / is the midpoint of a pair */
    float *scratch[NSCRATCH];     /* blend rows: levels, variances, disagreement */
} blend_set;

struct dualiso_workspace {
    uint32_t width;
    dualiso_levels lut_for;       /* levels the tables were built for */
    uint32_t lut_size;            /* entries at lut_for's depth (1 << bits) */
    uint32_t lut_filled;          /* entries 0 .. lut_filled - 1 made for lut_for */
    uint32_t lut_cap;             /* entries allocated */
    float *lut[2];                /* raw -> dark-field DN above black, per field */
    float *glut[2];               /* raw -> log2 guide value, per field */
    float *lin[RING], *guide[RING];
    uint8_t *clip[RING];
    int32_t ring_row[RING];
    float *cost[NDIR];            /* per-direction windowed cost of one row */
    float *pratio[RING];          /* sample / mean of its row neighbours, made on demand */
    int32_t pratio_row[RING];     /* row each pratio holds (-1: none) */
    float *quarter[4];            /* guide rows at quarter-pixel steps: four phase planes each
                                     (positions 4 x + p), QPAD / 4 samples each side */
    float *dir_raw[DIR_GROUP];    /* a span's squared differences along a direction */
    float *ccsum[4];              /* cross-colour estimate: colour sums and their window
                                     sums, CC_PAD each side */
    float *est, *mis;             /* other-field estimate and its disagreement */
    uint8_t *est_clip, *est_mid;  /* estimate clipped / is the midpoint of a pair */
    float *scratch[NSCRATCH];     /* blend rows: levels, variances, disagreement */
    blend_set other;              /* a second set: row y + 1 is estimated while y blends */
    float *cs_cells[CS_RING];     /* chroma cells: green mean, R/G, B/G per 2x2 cell */
    uint8_t *cs_ok[CS_RING];      /* cell usable for chroma smoothing */
    uint32_t *keys;               /* row alignment: sort keys of one row */
    float *row_off;               /* per-row dark-field offsets of the frame */
    uint32_t row_off_size;
    float *dn_mem;                /* cross-field denoise rows (denoise.c) */
    size_t dn_size;               /* ... and how many floats they hold */
};

typedef struct frame_ctx {
    const mp_frame *in;
    const dualiso_levels *lv;
    const dualiso_options *opt;
    dualiso_workspace *ws;
    const dualiso_dsp *dsp;   /* kernels of the instruction-set level in use */
    uint16_t clip_raw[2];
    float search_level;       /* native bright level from which edges are searched */
    float clip_floor;         /* least dark value under a clipped bright sample */
    float var_dark, gain;     /* dark-field read noise variance, photon gain (DN, per DN) */
    int denoise;              /* dualiso_options.denoise > 0: denoise.c runs after the blend */
    int cross_colour;         /* small ISO gap: the cross-colour estimate of dark rows */
} frame_ctx;

/* Makes the tables (for lv, up to the largest sample of in) and the row buffers (for in's
 * size) ready; resets the ring. */
mp_status mp_dualiso_ws_prepare(dualiso_workspace *ws, const dualiso_levels *lv,
                                const mp_frame *in, mp_error *err);

/* The other set of blend row buffers becomes the one interpolation and the blend fill. */
void mp_dualiso_swap_sets(dualiso_workspace *ws);

/* Converts input row y into the ring (once) and returns its slot. */
int mp_dualiso_load_row(frame_ctx *c, int32_t y);

/* Fills ws->est / mis / est_clip / est_mid with the other field's estimate for row y. */
void mp_dualiso_interpolate_row(frame_ctx *c, int32_t y);

/* Chroma smoothing (chroma.c), called after output row y is written, rows in order:
 * smooths the cell rows whose neighbourhood is complete (all the rest at the last row). */
void mp_dualiso_chroma_row(const frame_ctx *c, mp_frame *out, uint32_t y);

#endif
