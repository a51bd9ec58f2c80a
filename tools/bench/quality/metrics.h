/* metrics: reconstruction quality against ground truth on the dual-ISO benchmark scene,
 * exactly as defined in doc/dualiso.md 8.7 (so our figures compare with the cr2hdr
 * reference figures of 8.4 and 8.6).
 *
 * Inputs: the noise-free truth (electrons per active photosite, from mp_synth_render_truth),
 * an output mosaic holding the active area at a known offset, the output's black B and
 * white W, and S_out = output DN per electron at the dark-field exposure. Then per pixel
 *   e_out = (DN - B) / S_out,  err = e_out - e_true,  clip_e = (W - B) / S_out.
 * All CFA positions are used, nothing is demosaiced. */
#ifndef MP_QUALITY_METRICS_H
#define MP_QUALITY_METRICS_H

#include <stdint.h>

#include "common/mp_frame.h"
#include "common/mp_status.h"

/* 0.5-EV bins of log2(e_true) from -2 to 17 EV. */
#define QM_BIN_LO_EV (-2.0)
#define QM_BIN_STEP_EV 0.5
#define QM_BINS 38
#define QM_BIN_MIN_PIXELS 200   /* bins with fewer pixels are not reported */
#define QM_BANDS 4              /* flicker bands [2,5), [5,8), [8,11), [11,14) EV */
#define QM_CHANNELS 3           /* R, G (both greens), B */
#define QM_RES_BANDS 4          /* resolution bands [3,6), [6,9), [9,12), [12,15) EV */
#define QM_ESF_BINS 32          /* edge spread sampled over +-4 px in 0.25-px bins */

typedef struct qm_input {
    const float *truth;        /* width x height electrons, row-major */
    uint32_t width, height;    /* active area */
    const mp_frame *out;       /* output mosaic */
    uint32_t roi_x, roi_y;     /* where the active area starts in out */
    double black, white;       /* output levels B and W (from the output frame) */
    double s_out;              /* output DN per electron at the dark-field exposure */
    double scene_offset;       /* the frame's horizontal scene shift (mp_synth_scene_offset);
                                  the zone plate and patches move with it */
    int objects;               /* 0: the benchmark scene (8.7's regions); 1: the second
                                  scene, SYNTH_SCENE_OBJECTS (its regions, 8.8) */
    const struct qm_noise_model *floor; /* NULL, or the sensor, for the RMS floors below */
} qm_input;

typedef struct qm_bin {
    double ev_lo;              /* bin covers [ev_lo, ev_lo + 0.5) */
    uint64_t n;
    double mean_true;          /* e- */
    double bias;               /* mean(err), e- */
    double noise;              /* std(err), e- */
    double snr;                /* mean_true / noise */
    double bias_pct;           /* 100 * bias / mean_true */
    double bias_se_pct;        /* its standard error, 100 * noise / sqrt(n) / mean_true */
} qm_bin;

/* Resolution sums on the edge region (the stripes; on the second scene the stars' rings),
 * per band of true signal; they add over frames (qm_resolution_add).
 * Edge contrast kept: each photosite's local detail, its value minus the mean of the 25
 * same-colour samples of its 9x9 px neighbourhood, divided by the truth's local mean; the
 * output's detail projected on the truth's: dot = sum d_out d_true, norm = sum d_true^2.
 * Linear in the output, so noise adds no bias: raw data gives 1 in expectation, any
 * smoothing less (and the projection of a frame mean is the mean of the projections).
 * Edge spread (stripes only): each photosite's level between the two sides of its edge,
 * (e_out - lo) / (hi - lo) with lo, hi the truth on either side, binned by its signed
 * distance to the edge; linear too, so raw samples give the point-sampled step of the
 * truth. */
typedef struct qm_resolution {
    double dot[QM_RES_BANDS], norm[QM_RES_BANDS];
    double esf_n[QM_RES_BANDS][QM_ESF_BINS], esf_s[QM_RES_BANDS][QM_ESF_BINS];
} qm_resolution;

void qm_resolution_add(qm_resolution *acc, const qm_resolution *add);
/* dot / norm of band k (NAN when empty). */
double qm_edge_contrast(const qm_resolution *r, int band);
/* 10-90 % rise of band k's edge spread, px perpendicular to the edge (NAN without one);
 * the truth's own point-sampled step measures about 0.3 px (the bin width). */
double qm_edge_spread_px(const qm_resolution *r, int band);
double qm_res_band_lo_ev(int band);

typedef struct qm_patch {
    uint64_t n[QM_CHANNELS];
    double mean_true[QM_CHANNELS];
    double error_pct[QM_CHANNELS];   /* 100 * mean(err) / mean(e_true) */
    double noise[QM_CHANNELS];       /* std(err), e- */
    double snr[QM_CHANNELS];
} qm_patch;

typedef struct qm_report {
    double clip_e;
    qm_bin bins[QM_BINS];            /* only bins with n > QM_BIN_MIN_PIXELS are valid */
    int bin_valid[QM_BINS];
    double midtone_bias_pct[2];      /* bins 9.0-9.5 and 10.0-10.5 EV (NAN if absent) */
    double max_abs_bias_pct;         /* over valid bins inside 5..14 EV */
    double max_bias_excess_pct;      /* max over those bins of |bias %| - 2 s.e., >= 0: the
                                        part no sampling noise explains (a 0.1 % target is
                                        below the s.e. of the 5-6 EV bins of one HD frame) */
    double dr_ev;                    /* log2(clip_e / noise of the lowest bin with SNR >= 1) */
    double dr_bin_ev;                /* that bin's lower edge */
    double dr_ideal_ev;              /* with qm_input.floor: the DR the noise of an ideal
                                        reconstruction that does not smooth gives (each bin's
                                        noise from qm_floor_var over its pixels): no output
                                        without smoothing reaches above it (NAN without) */
    double deep_shadow_noise;        /* std(err) over mask pixels with e_true < 2 e- */
    double noise_at_512;             /* noise of the 9.0-9.5 EV bin */
    double edge_rms[2];              /* RMS log2 error on the stripes (second scene: the
                                        stars' rings), [6,11) and [11,15) EV */
    double edge_le2[2];              /* their sums of squares, to pool frames */
    uint64_t edge_n[2];
    double zone_rms;                 /* RMS log2 error on the zone plate, [6,11) EV */
    double zone_le2;
    uint64_t zone_n;
    double edge_floor[2], zone_floor; /* with qm_input.floor: the RMS an ideal reconstruction
                                        that does not smooth would still show (a sum of
                                        squares like edge_le2; NAN without) */
    qm_resolution res;               /* edge contrast and spread per band */
    double edge8_le2, zone8_le2;     /* squared log errors of the edges and the zone plate
                                        ("rings") at [8,11) EV, as the issue-34 figures */
    uint64_t edge8_n, zone8_n;
    double edge_clip_le2;            /* with qm_input.floor and a phase: the part of
                                        edge_le2[1] from bright rows whose true signal is at
                                        or above the bright field's clip (estimated from the
                                        dark rows alone) */
    double zone8_dark_le2;           /* ... and the part of zone8_le2 from dark rows */
    double row_err[2], row_true[2];  /* with qm_input.floor and a phase: sums of err and
                                        e_true over the smooth ramp at 2^5..2^14 e-, dark
                                        (0) and bright (1) rows (qm_line_pair_pct) */
    double edge_width_px;            /* 10-90 % width of the stripe edges (perpendicular, px;
                                        NAN on the second scene) */
    qm_patch patches[4];
    double gain_error_pct;           /* 100 * (a - 1) of the fit e_out = a e_true + b */
    double offset_e;                 /* b of that fit: over bins 5..14 EV, weights n / noise^2 */
} qm_report;

/* The 8.7 metrics of one frame. Fails (MP_ERR_ARG) when the active area does not fit in the
 * output, when S_out <= 0 or W <= B. */
mp_status qm_measure(const qm_input *in, qm_report *rep, mp_error *err);

/* Line-pair error, %: the relative error of the dark rows minus that of the bright rows over
 * the smooth ramp (NAN without a phase). One frame shows the noise; a mean of frames the
 * pattern the reconstruction leaves. */
double qm_line_pair_pct(const qm_report *r);

/* Sensor noise in electrons for the model-based flicker prediction: a pixel's variance is
 * its shot noise e_true plus the read noise of the best field that sees it unclipped:
 * the bright field below bright_clip_e, the dark field above (bright_clip_e = 0 for a
 * single-ISO sensor). That is the floor a reconstruction can reach, pixel by pixel. */
typedef struct qm_noise_model {
    double read_noise_dark_e;     /* sigma_DN(dark) / g */
    double read_noise_bright_e;   /* sigma_DN(bright) / (g 2^gap) */
    double bright_clip_e;         /* (white - black) / (g 2^gap) */
    int phase;                    /* row r of the output is bright when (r + phase) mod 4 >= 2
                                     (-1: a single-ISO sensor) */
} qm_noise_model;

/* The RMS floors of qm_report: each pixel's own sample and the mean of the two samples of the
 * other field two rows away, both taken as seeing the pixel's true value (an interpolation
 * without error), mixed by inverse variance (shot + read noise of each unclipped field); the
 * expected squared log2 error of that unbiased estimate, clamped at 0.5 e- as the metric
 * clamps, averaged over the same pixels as the metric. A reconstruction reaches below it
 * only by smoothing (trading resolution), and lies above it by the error of its
 * interpolation and blend. */
double qm_floor_le2(const struct qm_noise_model *m, double t, int bright_row);
/* The variance (e-^2) of that estimate at true signal t. */
double qm_floor_var(const struct qm_noise_model *m, double t, int bright_row);

/* Per-band sums for the flicker measure. e_out is normalised by the frame's own levels to a
 * fixed reference range: e_out = (DN - B) / (W - B) * r_ref / S_out (8.7). noise_var is the
 * sum over the band's pixels of the squared bin noise of their 0.5-EV bin in rep (the
 * frame-to-frame variance of sum e_out if pixel errors were independent); model_var the
 * same sum from the noise model (0 when model is NULL). */
typedef struct qm_band_sums {
    double sum_true[QM_BANDS];
    double sum_out[QM_BANDS];
    double noise_var[QM_BANDS];
    double model_var[QM_BANDS];
    uint64_t n[QM_BANDS];
} qm_band_sums;

mp_status qm_band_measure(const qm_input *in, const qm_report *rep, double r_ref,
                          const qm_noise_model *model, qm_band_sums *sums, mp_error *err);

/* error_f = 100 * (sum e_out / sum e_true - 1) per frame and band, summarised over frames;
 * predicted_std = RMS over frames of 100 * sqrt(noise_var) / sum_true: the spread shot and
 * read noise alone would cause with the measured per-pixel noise; model_std the same from
 * model_var. */
typedef struct qm_flicker {
    double min_pct[QM_BANDS], max_pct[QM_BANDS];
    double mean_pct[QM_BANDS], std_pct[QM_BANDS];
    double predicted_std_pct[QM_BANDS];
    double model_std_pct[QM_BANDS];
} qm_flicker;

void qm_flicker_summarise(const qm_band_sums *frames, uint32_t n, qm_flicker *out);

/* Band edges in EV of true signal. */
double qm_band_lo_ev(int band);

#endif
