/* A test scene with known linear RGB truth for measuring demosaicing (shared by the develop
 * unit tests and tools/bench/bench_develop.c), and the quality measures used on it. */
#ifndef MP_TEST_DEVELOP_SCENE_H
#define MP_TEST_DEVELOP_SCENE_H

#include <stdint.h>

#include "common/mp_frame.h"
#include "develop/develop.h"

/* Quadrants: colour patches; a sector star (hard edges at every angle, grey above, red/blue
 * below); a grey zone plate up to 0.35 cycles/pixel; smooth colour gradients. Values stay in
 * [0.03, 0.72] so nothing reaches the highlight blend. truth: 3 planes of width x height. */
void scene_render(float *truth[3], uint32_t width, uint32_t height);

/* Samples the truth through a CFA into f (already reserved to width x height): 16-bit with
 * black 1024 and white 61024, rounded. */
void scene_mosaic(float *const truth[3], uint32_t cfa, mp_frame *f);

/* Parameters that make development a pure demosaic: unity white balance, identity matrix,
 * linear curve. */
void scene_params(develop_params *p, develop_demosaic method);

/* PSNR (dB, peak 1.0) of the developed planes against the truth over all channels, leaving
 * out `margin` pixels on each side. */
double scene_psnr(const develop_rgb *out, float *const truth[3], uint32_t margin);

/* Mean false colour near edges: |(R-G) - (R-G)true| + |(B-G) - (B-G)true|, halved, over the
 * pixels whose truth differs from a 4-neighbour by more than 0.1 in some channel. */
double scene_edge_chroma_error(const develop_rgb *out, float *const truth[3], uint32_t margin);

#endif
