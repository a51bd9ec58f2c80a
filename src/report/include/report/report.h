/* report: a look at a clip before grading, as numbers (JSON) and a self-contained HTML page:
 * a contact sheet, the raw histogram per channel in EV below the clip (per field for dual
 * ISO), clipped and crushed fractions over time, the dual-ISO levels and the dynamic range
 * they give, the raw defect map, band means over time against the noise, audio levels, and
 * the gaps and damage of the time line.
 *
 * It reads frames the way `convert` does, through the same code: the reader, the levels
 * pre-pass (analysis/prepass.h, which also finds the defect map), the raw repairs, the
 * dual-ISO reconstruction and the develop module for the thumbnails. It looks only at frames
 * spread over the clip (the pre-pass's samples plus `samples` of its own, on the work pool),
 * so a long clip costs seconds. The result depends on the clip and the options only, never
 * on the thread count. doc/json.md section 5 describes the JSON. */
#ifndef MP_REPORT_H
#define MP_REPORT_H

#include <limits.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "common/mp_status.h"
#include "analysis/levels_io.h"
#include "reader/mlv_reader.h"

#define MP_REPORT_FORMAT "mlvpipe-report"
#define MP_REPORT_FORMAT_VERSION 1

/* Raw histogram: bins of 1/4 EV from the field's clip down to 16 EV below it, plus a bin for
 * samples at or below black ("crushed") and one at or above the clip ("clipped"). */
#define MP_REPORT_HIST_BINS 64u
#define MP_REPORT_HIST_STEP_EV 0.25
/* Band means: 16x16 tiles of the linear frame, grouped by their mean over the measured
 * frames in bands of 2 EV below the clip: [0, 2), [2, 4) ... [10, 12). A tile keeps its band
 * in every frame, so a band's mean moves only with the light and the noise (the flicker check
 * of doc/dualiso.md 8.7, with the clip's own average standing in for the truth). */
#define MP_REPORT_BANDS 6u
#define MP_REPORT_BAND_EV 2.0
#define MP_REPORT_TILE 16u
#define MP_REPORT_AUDIO_POINTS 200u
#define MP_REPORT_MAX_SAMPLES 1024u
#define MP_REPORT_MAX_THUMBS 64u

typedef struct mp_report_options {
    uint32_t threads;             /* 0: one per CPU; never changes the result */
    uint32_t samples;             /* frames measured, spread over the clip (default 48) */
    uint32_t thumbs;              /* contact-sheet pictures among them (default 8) */
    uint32_t thumb_width;         /* pixels (default 192) */
    int no_defects;               /* do not look for raw defects (no map, no repairs) */
    const char *dark;             /* a dark frame (analysis/dark_load.h) subtracted from every
                                   * frame first, as convert's; NULL: none */
    const atomic_int *cancel;
    mp_logger log;
    const char *tool;             /* "mlvpipe 0.1.0" */
} mp_report_options;

void mp_report_options_default(mp_report_options *o);

/* One measured frame. Fractions are of all photosites of the frame. */
typedef struct mp_report_frame {
    uint32_t index, number;
    double time_s;                /* from the first frame's timestamp */
    int damaged;                  /* could not be read: nothing else is set */
    double clipped, crushed;      /* linear frame at/above its white, at/below its black */
    double field_clipped[2];      /* raw samples at/above their field's white (dark, bright;
                                   * single ISO: [0] only) */
    double band_mean[MP_REPORT_BANDS];   /* mean signal / clip of the band's tiles, 0 none */
    double band_noise[MP_REPORT_BANDS];  /* standard deviation of that mean the frame's own
                                          * noise predicts (same unit) */
    uint32_t band_tiles[MP_REPORT_BANDS];
    /* per tile while the clip is analysed: (mean - black) / (white - black) and the variance
     * of that its noise gives; NAN for a tile with a clipped sample (freed after the bands) */
    float *tile_rel, *tile_var;
    uint32_t tiles_x, tiles_y;
} mp_report_frame;

typedef struct mp_report_thumb {
    uint32_t number;
    uint32_t width, height;
    uint8_t *png;                 /* NULL when the frame was damaged */
    size_t png_size;
} mp_report_thumb;

typedef struct mp_report_audio_point {
    double time_s;                /* centre of the window, on the video's time line */
    double rms_dbfs[2], peak_dbfs[2];   /* left/right (mono: [0]); -120 for silence */
} mp_report_audio_point;

typedef struct mp_report_gap {
    uint32_t first, count;        /* missing frame numbers first .. first + count - 1 */
} mp_report_gap;

typedef struct mp_clip_report {
    char path[PATH_MAX];
    mp_status status;             /* MP_OK, MP_ERR_DAMAGED, or why there is no report */
    char error[MP_ERROR_MAX];
    /* what the reader says */
    mlv_clip_info info;
    mlv_damage *damage;           /* info.damage_count entries */
    uint32_t *damage_before;      /* per damage: the number of the first frame after it in
                                   * the files, or info.last_number + 1 after the last */
    mp_report_gap *gaps;
    uint32_t gap_count;
    /* what the pre-pass found: levels and defect map per segment */
    mp_clip_levels levels;
    int dual;                     /* a segment is dual ISO */
    uint32_t dark_frames;         /* frames averaged in the dark frame subtracted; 0: none */
    double dark_rms;              /* RMS of its pattern, DN */
    /* measured frames */
    mp_report_frame *frames;
    uint32_t frame_count;
    uint64_t hist[2][3][MP_REPORT_HIST_BINS + 2];   /* field, R G B, [crushed, bins, clipped] */
    mp_report_thumb *thumbs;
    uint32_t thumb_count;
    mp_report_audio_point *audio;
    uint32_t audio_count;
    double seconds;               /* wall time the analysis took (not in the outputs, which
                                   * depend on the clip and options only) */
} mp_clip_report;

/* Analyses one clip. A clip that cannot be read still gets a report whose status and error
 * say why (the function then returns that status too); damage gives MP_ERR_DAMAGED and a
 * complete report of what is readable. */
mp_status mp_report_clip(const char *path, const mp_report_options *o, mp_clip_report *r,
                         mp_error *err);
void mp_report_free(mp_clip_report *r);

/* Dynamic range in EV of a segment's levels: the dark field alone, the bright field alone
 * (its own clip over its own noise) and both together (the dark field's clip over the bright
 * field's noise in dark-field units). 0 where the noise is unknown (single-ISO levels). */
void mp_report_dynamic_range(const dualiso_levels *lv, double *dark, double *bright,
                             double *combined);

/* The JSON document (section 5 of doc/json.md) and the HTML page of n reports; *text is
 * malloc'd and NUL-terminated. */
mp_status mp_report_json(const mp_clip_report *const *r, uint32_t n, const char *tool,
                         char **text, size_t *len, mp_error *err);
mp_status mp_report_html(const mp_clip_report *const *r, uint32_t n, const char *tool,
                         char **text, size_t *len, mp_error *err);

#endif
