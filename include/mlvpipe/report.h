/* mlvpipe report: a look at clips before grading, as one self-contained HTML page (no
 * script, nothing fetched: pictures are inline PNG and SVG) and/or a JSON document with every
 * number (doc/json.md section 5; the same schema for one clip or many).
 *
 * Per clip: a contact sheet, the raw histogram per channel in EV below the clip (per field
 * for dual ISO), clipped and crushed fractions over time, the dual-ISO levels with the
 * dynamic range they give, the raw defect map, band means over time against the noise,
 * audio levels, gaps and damage. Frames are sampled over each clip and read, repaired and
 * reconstructed as mlvpipe_convert does, so a long clip costs seconds. */
#ifndef MLVPIPE_REPORT_H
#define MLVPIPE_REPORT_H

#include <stdatomic.h>
#include <stdint.h>

#include "mlvpipe/common.h"

typedef struct mlvpipe_report_settings {
    const char *const *inputs;    /* the clips (.MLV, .RAW or any chunk's name) */
    uint32_t input_count;
    const char *html;             /* the page; NULL: none */
    const char *json;             /* the numbers; NULL: none */
    int overwrite;                /* replace existing outputs */
    uint32_t threads;             /* 0: one per CPU; never changes the result */
    uint32_t samples;             /* frames measured per clip, spread over it (default 48) */
    uint32_t thumbs;              /* contact-sheet pictures per clip (default 8, max 64) */
    uint32_t thumb_width;         /* their width in pixels (default 192) */
    int no_defects;               /* do not look for raw defects */
    const char *dark;             /* (API 3.0) a dark frame subtracted from every frame first, as
                                   * mlvpipe_convert_settings.dark (NULL: none) */
    const char *tool;             /* NULL: "mlvpipe VERSION" */
    const atomic_int *cancel;
    mlvpipe_logger log;
    /* optional: told about each clip when its analysis ends (message: NULL when ok) */
    void (*clip_done)(void *opaque, const char *path, mlvpipe_status status,
                      const char *message, double seconds);
    void *clip_done_opaque;
} mlvpipe_report_settings;

/* Fills s with the defaults (the size of *s as the header lays it out: version.h). */
MLVPIPE_API void mlvpipe_default_report_settings_sized(mlvpipe_report_settings *s, size_t size);
#define mlvpipe_default_report_settings(s) mlvpipe_default_report_settings_sized((s), sizeof *(s))
MLVPIPE_API void (mlvpipe_default_report_settings)(mlvpipe_report_settings *s);

typedef struct mlvpipe_report_result {
    uint32_t clips, ok, damaged, failed;
    int output_failed;            /* the error came from writing the page or the JSON */
} mlvpipe_report_result;

/* Analyses every clip and writes the outputs (each through a temporary file). A clip that
 * cannot be read is shown as such and does not stop the others. Returns MLVPIPE_OK when all
 * clips were read cleanly; else the first failing clip's status (MLVPIPE_ERR_DAMAGED when
 * all failures are damage), or the output's error. */
MLVPIPE_API mlvpipe_status mlvpipe_report_sized(const mlvpipe_report_settings *s, size_t size,
                                                mlvpipe_report_result *result,
                                                mlvpipe_error *err);
#define mlvpipe_report(s, result, err) mlvpipe_report_sized((s), sizeof *(s), (result), (err))
MLVPIPE_API mlvpipe_status (mlvpipe_report)(const mlvpipe_report_settings *s,
                                            mlvpipe_report_result *result, mlvpipe_error *err);

#endif
