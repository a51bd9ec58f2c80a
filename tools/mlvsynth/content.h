/* content: the pixel and audio content of synthetic clips. Every function is a pure function
 * of the options and the frame (or sample) number, so the writer, the DELTA reference and the
 * round-trip checker all get the same values without storing anything. */
#ifndef MLVSYNTH_CONTENT_H
#define MLVSYNTH_CONTENT_H

#include <stdint.h>

#include "common/mp_frame.h"
#include "options.h"
#include "synth/synth.h"

#define CONTENT_AUDIO_RATE 48000u
#define CONTENT_AUDIO_CHANNELS 2u
#define CONTENT_AUDIO_AMPLITUDE 8192.0

typedef struct content_ctx {
    const synth_options *opt;
    uint32_t ob_left, ob_top;          /* dual ISO: borders inside the recorded frame */
    uint32_t active_w, active_h;
    float *truth;                      /* dual ISO: electrons of the last rendered frame */
    mp_frame exposed;                  /* dual ISO: mp_synth_expose output */
    synth_defects defects;             /* dual ISO: the sensor's defects (content_defects) */
    synth_defect *sites;               /* and their sites */
    uint32_t site_count;
    double stripe_gain[8];
} content_ctx;

/* The defects the options ask for, completed (lattice placement, offsets, seed). */
void content_defects(const synth_options *opt, synth_defects *d);

/* Dual ISO: the optical-black borders inside the recorded frame (0 otherwise); fails when
 * they do not fit. */
mp_status content_borders(const synth_options *opt, uint32_t *ob_left, uint32_t *ob_top,
                          mp_error *err);

mp_status content_init(content_ctx *c, const synth_options *opt, mp_error *err);
void content_free(content_ctx *c);

/* RAWI black and white for the options (dual ISO: the simulated sensor's). */
void content_levels(const synth_options *opt, uint32_t *black, uint32_t *white);

/* The samples of the VIDF with frameNumber `number`: its geometry (options_frame_geometry),
 * row-major. `source` is
 * the frame whose picture it carries (number itself, or another for a duplicate VIDF). */
mp_status content_frame(content_ctx *c, uint32_t number, uint32_t source, uint16_t *dst,
                        mp_error *err);

/* --dark-block: the average (rounded) of opt->dark_block lens-cap frames of the clip's
 * sensor (frame 0's settings, noise from a seed of its own), width x height samples. */
mp_status content_dark_average(content_ctx *c, uint16_t *dst, mp_error *err);

/* The test pattern of the shared samples (doc/mlv-format.md 19). */
uint16_t content_pattern(uint32_t x, uint32_t y, uint32_t frame, uint32_t bits);

/* Dual ISO: sensor and scene in force at frame `number` (after --change-at they follow the
 * new ISO, shutter and gap). */
void content_dualiso_model(const synth_options *opt, uint32_t number, synth_sensor *sensor,
                           synth_scene *scene);

/* count stereo s16 sample frames starting at sample `first`, interleaved L R. */
void content_tone(const synth_options *opt, uint64_t first, uint32_t count, int16_t *dst);

/* Sample frames held by audio block k: about one video frame's worth, exactly
 * rate * den / num on average (cumulative rounding down). */
uint32_t content_audio_block_samples(const synth_options *opt, uint32_t k);
uint64_t content_audio_block_start(const synth_options *opt, uint32_t k);

#endif
