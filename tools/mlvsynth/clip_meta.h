/* clip_meta: the metadata a synthetic clip carries, as the mp_meta structs the reader fills.
 * One place decides every field, so the writer and the round-trip checker agree. */
#ifndef MLVSYNTH_CLIP_META_H
#define MLVSYNTH_CLIP_META_H

#include "common/mp_meta.h"
#include "options.h"

#define CLIP_HEADER_TS 1000u    /* timestamp of the header blocks, us */

/* Where the recorded frame lies in the LiveView buffer (VIDF cropPos / panPos). */
typedef struct clip_window {
    uint16_t crop_x, crop_y, pan_x, pan_y;
} clip_window;

typedef struct clip_meta {
    mp_raw_info raw;
    mp_raw_info raw_changed;       /* from --change-at on (a new RAWI with --change-size) */
    clip_window window, window_changed;    /* all 0 without --camera-geometry */
    mp_raw_capture capture;
    mp_camera camera;
    mp_exposure exposure;          /* at frame 0 */
    mp_exposure exposure_changed;  /* from --change-at on */
    mp_lens lens;
    mp_white_balance white_balance;
    mp_wall_clock wall_clock;
    mp_dual_iso_tag dual_iso;      /* present only for dual ISO with a DISO block */
    mp_dual_iso_tag dual_iso_changed;
    mp_style style;
    mp_level_info level;
    mp_audio_format audio;
    const char *info_text;
    const char *version_text;
} clip_meta;

/* Where the first frame's (0, 0) lies in the LiveView buffer, and the width of the buffer's
 * left optical black (all 0 without --camera-geometry: the frame is the buffer). */
void clip_frame_origin(const synth_options *o, uint32_t *x, uint32_t *y, uint32_t *left_ob);

/* Fails if the dual-ISO optical-black borders do not fit the frame. */
mp_status clip_meta_build(clip_meta *m, const synth_options *opt, mp_error *err);

#endif
