/* band_stats: the flicker measure of doc/dualiso.md 8.7 on a static clip, and the
 * frame-to-frame spread that shot and read noise alone predict for it.
 *
 * Bands are ranges of true signal (log2 electrons); a band holds the active photosites of
 * the smooth-ramp mask (benchmark scene: stripes, zone plate and patches left out; no
 * margin) whose truth lies in it. Per frame and band
 *   error_f = 100 * (sum e_out / sum e_true - 1),
 *   e_out = (DN - B_f) / (W_f - B_f) * full_well_e,
 * i.e. each frame normalised by its own BlackLevel/WhiteLevel as a raw developer does, with
 * the output's white taken as the dark field's clip (66 000 e- on the 8.2 sensor). The
 * flicker of a band is the standard deviation of error_f over the frames.
 *
 * Prediction ("field mix" model, computed from the sensor model, not from the output): the
 * reconstruction gives each photosite its own sample (native field) mixed by inverse
 * variance with the midpoint of the other field's same-colour samples two rows above and
 * below, variances read + shot noise at the photosite's true signal, a field that clips
 * getting no weight. Each raw sample j then carries a total weight W_j in the band's sum, and
 *   var(sum e_out) = sum_j W_j^2 (e_j + read_noise_j^2)        (electrons, independent j)
 * which is what the noise of the sensor alone makes the band mean move by. It ignores what
 * only adds variance in a real reconstruction (the interpolation-error term and the fade
 * that move weight to the noisier field, noise in the mixing weights, row alignment, 1/12 DN
 * quantisation), so the prediction is a floor: a reconstruction cannot beat it, and the
 * 1.5x allowance covers those extras. Where one field carries a band alone (deep shadows)
 * every bright sample stands in for itself and half of each of two dark-row neighbours,
 * W = 2, which is sqrt(2) above the "every photosite its best field" floor of the quality
 * metrics (tools/bench/quality, qm_noise_model): half the photosites are read 8x noisier. */
#ifndef FLICKER_BAND_STATS_H
#define FLICKER_BAND_STATS_H

#include <stdint.h>

#include "clip_truth.h"
#include "common/mp_frame.h"
#include "common/mp_status.h"

#define FB_MAX_BANDS 16

typedef struct fb_bands {
    uint32_t count;
    double lo_ev[FB_MAX_BANDS], hi_ev[FB_MAX_BANDS];
    int8_t *band_of;                 /* per active photosite: band index or -1 */
    uint64_t n[FB_MAX_BANDS];
    double sum_true[FB_MAX_BANDS];
    double predicted_var[FB_MAX_BANDS];  /* of sum e_out, electrons^2 (field mix model) */
} fb_bands;

/* count bands of width_ev each from lo_ev up; fills the map, truth sums and predictions. */
mp_status fb_bands_init(fb_bands *b, const clip_truth *t, double lo_ev, double width_ev,
                        uint32_t count, mp_error *err);
void fb_bands_free(fb_bands *b);

/* Per band error_f (percent) of one output frame: the clip's whole raw buffer with the
 * active area at the sensor's optical-black offsets; black/white = the frame's own tags. */
mp_status fb_frame_errors(const fb_bands *b, const clip_truth *t, const mp_frame *out,
                          double black, double white, double *error_pct, mp_error *err);

typedef struct fb_summary {
    double mean_pct, std_pct, min_pct, max_pct;
    double predicted_std_pct;
    double ratio;                    /* std_pct / predicted_std_pct */
} fb_summary;

/* errors: frames x b->count, frame-major. Sample standard deviation (n - 1). */
void fb_summarise(const fb_bands *b, const double *errors, uint32_t frames,
                  fb_summary *out);

#endif
