/* report: what the module's files share (not used outside src/report). */
#ifndef MP_REPORT_PRIV_H
#define MP_REPORT_PRIV_H

#include "common/mp_frame.h"
#include "common/json.h"
#include "develop/develop.h"
#include "dualiso/dualiso.h"
#include "report/report.h"

/* Histogram bin of every raw sample value, per field (measure.c). */
typedef struct report_lut {
    uint8_t *bin[2];
    uint32_t size;                /* 1 << bits */
} report_lut;

void mp_report_lut_free(report_lut *l);
/* How many whole code values each quarter-EV bin of a field with that black and white holds
 * (bins 1..MP_REPORT_HIST_BINS of the histogram as codes[0..]). Deep bins hold few or none:
 * 14-bit at 10 EV below the clip has about 3 codes a bin, at 12 EV under one. */
void mp_report_hist_codes(double black, double white, uint32_t codes[MP_REPORT_HIST_BINS]);

/* The raw (repaired, not yet reconstructed) frame into hist and field_clipped. */
mp_status mp_report_measure_raw(const mp_frame *raw, const dualiso_levels *lv, report_lut *lut,
                             uint64_t hist[2][3][MP_REPORT_HIST_BINS + 2],
                             mp_report_frame *fr, mp_error *err);
/* The linear frame (what convert writes): clipped, crushed and its tiles. */
mp_status mp_report_measure_linear(const mp_frame *lin, mp_report_frame *fr, mp_error *err);
/* Once every frame is measured: the bands of the tiles, each frame's band means and their
 * noise; the tiles are freed. */
void mp_report_bands(mp_clip_report *r);

/* A thumbnail of the linear frame: same-colour samples binned to about `width` pixels,
 * developed by ctx, encoded as PNG (thumb.c). */
mp_status mp_report_make_thumb(const mp_frame *lin, const develop_context *ctx,
                               uint32_t width, mp_frame *small, develop_workspace *ws,
                               develop_rgb *rgb, mp_report_thumb *t, mp_error *err);

/* Audio levels over the clip from short windows spread over it (audio.c). */
mp_status mp_report_audio(const mlv_clip *clip, mp_clip_report *r, mp_error *err);

/* Per band over the measured frames: mean level, measured frame-to-frame spread and the
 * spread the noise predicts, both in percent of the mean; frames counts the frames with
 * tiles in the band. */
typedef struct report_band_summary {
    uint32_t frames;
    double mean, flicker_pct, predicted_pct;
} report_band_summary;
void mp_report_band_summary_get(const mp_clip_report *r, uint32_t band, report_band_summary *s);

/* Over the readable measured frames: mean and largest clipped and crushed fractions. */
typedef struct report_clip_summary {
    uint32_t frames, damaged;
    double clipped_mean, clipped_max, crushed_mean, crushed_max;
} report_clip_summary;
void mp_report_clip_summary_get(const mp_clip_report *r, report_clip_summary *s);

/* The clip's file name without its folder. */
const char *mp_report_base_name(const char *path);

#endif
