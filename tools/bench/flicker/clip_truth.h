/* clip_truth: what the flicker check needs from an mlvsynth clip's NAME.truth.json: the
 * sensor (levels, gain, read noise per field, row phase, optical-black borders), the scene,
 * the frame geometry, and the noise-free electrons of the active area rendered from them
 * (the file's "render" rule: mp_synth_render_truth(scene, active_width, active_height, f)).
 * Only static dual-ISO clips are accepted: one segment, no drift, no illumination jitter,
 * so every frame has the same truth and only the noise differs. */
#ifndef FLICKER_CLIP_TRUTH_H
#define FLICKER_CLIP_TRUTH_H

#include <stdint.h>

#include "common/mp_status.h"
#include "synth/synth.h"

typedef struct clip_truth {
    synth_sensor sensor;
    synth_scene scene;
    uint32_t width, height;          /* recorded frame (raw buffer) */
    uint32_t active_width, active_height;
    uint32_t frames;
    float *electrons;                /* active_width x active_height, row-major */
} clip_truth;

mp_status clip_truth_load(const char *path, clip_truth *t, mp_error *err);
void clip_truth_free(clip_truth *t);

#endif
