/* Demosaic quality on the mlvsynth benchmark scene (doc/dualiso.md 8.2, src/synth) with its exact
 * RGB truth, shared by the develop unit tests and tools/bench/bench_develop.c.
 *
 * The scene is rendered SYNTH_CASE_EXPOSURE_EV brighter than the mlvsynth default so that the
 * two measured regions hold 150 to 35000 electrons in every channel (7.3 to 15.1 EV, measured
 * at 480x270 and 1920x1080; the clip is 66000 e-, and after white balance no developed value
 * passes 0.7): nothing in or near them clips, and with noise on they are shot-noise limited
 * (read noise is 33 e-), not read-noise dominated. The rest of the frame (patches, the bright end of the ramp) clips
 * and is not measured.
 *
 * The sensor is mp_synth_sensor_default(16, 0) without optical-black borders (16-bit so that
 * rounding to DN, 0.8 DN per electron, stays far below the demosaic errors): either ideal
 * (no photon noise, no read noise: the error is the demosaic's alone, plus rounding) or with
 * its normal Poisson shot noise and read noise.
 *
 * Development: identity matrix, linear curve, highlight CLIP (nothing comes near it), and
 * white balance = the reciprocal of the scene's colour gains at the frame centre (R x 0.575,
 * B x 0.65), because develop white-balances the CFA before demosaicing and a real clip reaches
 * the demosaic roughly neutral; the scene's gains vary across the frame by +-22 %, so grey
 * areas are near-neutral, not exactly. The truth is compared in that white-balanced camera
 * space: truth_c = electrons_c * wb_c / full_well, which is exactly develop's linear output
 * scale ((raw - black) * wb / (white - black)).
 *
 * Regions (for 16:9 frames both lie well inside the frame, so no border handling enters):
 * - STRIPES: the diagonal square-wave stripes (+-0.8 EV, period 37 px along x + 0.6 y), columns
 *   0.17..0.42 of the width, rows 2 px inside the band 0.35..0.5 of the height;
 * - ZONE: the disc of the zone plate, centre (0.225 w, 0.785 h), radius 0.16 h (inside the
 *   plate's box) or less where the plate's local frequency 40 r / (0.2 h)^2 would pass 0.5
 *   cycles/pixel: beyond Nyquist the point-sampled truth itself aliases. At 1920x1080 the disc
 *   reaches 0.15 cycles/pixel, at 480x270 the full 0.5. */
#ifndef MP_TEST_SYNTH_CASE_H
#define MP_TEST_SYNTH_CASE_H

#include <stdint.h>

#include "common/mp_frame.h"
#include "common/mp_status.h"
#include "develop/develop.h"

#define SYNTH_CASE_EXPOSURE_EV 8.5

typedef struct synth_case {
    uint32_t width, height;
    float *truth[3];     /* white-balanced camera RGB in develop's linear units */
    mp_frame frame;      /* the mosaic as the sensor read it (RGGB, 16-bit) */
    float wb[3];         /* the white balance the truth assumes; smallest is 1.0 */
} synth_case;

/* Renders and exposes frame 0 of the scene; noise 0 = ideal sensor, 1 = normal noise. */
mp_status synth_case_init(synth_case *c, uint32_t width, uint32_t height, int noise,
                          mp_error *err);
void synth_case_free(synth_case *c);

/* Parameters that develop the case's frame into the truth's space. */
void synth_case_params(const synth_case *c, develop_params *p, develop_demosaic method);

typedef enum synth_case_region { SYNTH_CASE_STRIPES, SYNTH_CASE_ZONE } synth_case_region;

typedef struct synth_case_quality {
    double psnr_db;      /* over all pixels of the region and all channels, peak 1.0 (clip) */
    double false_colour; /* mean |chroma error| / local level over the region's edge pixels */
    double zipper;       /* fraction of the region's pixels with a zipper artefact */
    uint64_t pixels, edge_pixels;
} synth_case_quality;

/* Measures the developed frame against the truth in one region:
 * - false colour: 0.5 (|(R-G) - (R-G)true| + |(B-G) - (B-G)true|) / Ytrue with
 *   Ytrue = (R + 2G + B)true / 4, averaged over edge pixels (truth differs from a 4-neighbour
 *   by more than 10 % in some channel). Relative, because the scene spans 7 EV;
 * - zipper (after Lu and Tan 2003): for each pixel, the 8-neighbour most similar to it in the
 *   truth; a zipper pixel when the developed pair differs by more than 0.3 Ytrue beyond the
 *   truth pair (distance = sum over channels of |difference|; 0.3 is about Lu and Tan's
 *   2.3 CIELAB units for a grey near 0.18). */
void synth_case_measure(const synth_case *c, const develop_rgb *out, synth_case_region region,
                        synth_case_quality *q);

#endif
