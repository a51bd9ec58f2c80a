/* lv_window: the LiveView buffer a synthetic clip's frames are cut from (--camera-geometry,
 * --lv-buffer) and where the frame lies in it. */
#ifndef MLVSYNTH_LV_WINDOW_H
#define MLVSYNTH_LV_WINDOW_H

#include "common/mp_meta.h"
#include "options.h"

/* Where the recorded frame lies in the LiveView buffer (VIDF cropPos / panPos). */
typedef struct clip_window {
    uint16_t crop_x, crop_y, pan_x, pan_y;
} clip_window;

/* The buffer (r's buffer size, crop origin and size, active area) a width x height window is
 * cut from with o's camera, and the window's place in it (w). */
void camera_buffer(const synth_options *o, uint32_t width, uint32_t height, mp_raw_info *r,
                   clip_window *w);
/* Where the first frame's (0, 0) lies in the LiveView buffer, and the width of the buffer's
 * left optical black (all 0 without --camera-geometry: the frame is the buffer). */
void clip_frame_origin(const synth_options *o, uint32_t *x, uint32_t *y, uint32_t *left_ob);

#endif
