/* options: everything that defines a synthetic clip, parsed from the command line.
 * The same parser serves mlvsynth and the round-trip checker (tests/e2e/synth_roundtrip.c),
 * so a clip can always be regenerated, or verified, from its option list alone. */
#ifndef MLVSYNTH_OPTIONS_H
#define MLVSYNTH_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "camera_body.h"
#include "common/mp_status.h"
#include "synth/synth.h"

typedef enum content_kind { CONTENT_PATTERN, CONTENT_GRADIENT, CONTENT_DUALISO } content_kind;

typedef enum compression_kind {
    COMPRESS_NONE, COMPRESS_LJ92, COMPRESS_LZMA, COMPRESS_DELTA, COMPRESS_LZMA_DELTA
} compression_kind;

typedef enum lj92_layout { LJ92_LAYOUT_CAMERA, LJ92_LAYOUT_MLVDUMP } lj92_layout;

typedef enum header_style {
    HEADER_MLV_LITE,   /* MLVI RAWI RAWC IDNT EXPO LENS RTCI WBAL VERS [DISO] [WAVI] NULL */
    HEADER_MINIMAL,    /* MLVI RAWI EXPO [DISO] [WAVI] NULL, like shared/samples/synthetic */
    HEADER_ALL         /* mlv_lite set plus STYL ELVL INFO, a MARK and a NULL between frames */
} header_style;

/* A set of frame numbers, from "3,5-7". */
typedef struct frame_list {
    uint32_t *v;       /* sorted, unique */
    uint32_t count;
} frame_list;

int frame_list_has(const frame_list *l, uint32_t number);

#define OPT_NONE (-1)

/* A focus-pixel layout as the community's maps give it (doc/rawfix.md): in LiveView buffer
 * coordinates, the sites at rows first_row..last_row with row % period_y == row[k] and at
 * columns from the buffer's left optical black on with column % period_x == col[k]. */
typedef struct focus_layout {
    uint32_t period_x, period_y, count;
    uint32_t row[SYNTH_FP_MAX_CLASSES], col[SYNTH_FP_MAX_CLASSES];
    uint32_t first_row, last_row;
} focus_layout;

typedef struct synth_options {
    const char *output;          /* NAME.MLV (or NAME.RAW with legacy_raw) */
    int overwrite;

    /* picture */
    uint32_t width, height, frames, bits;
    uint32_t fps_num, fps_den;
    content_kind content;
    header_style header;
    uint64_t guid;

    /* coding */
    compression_kind compression;
    lj92_layout layout;
    uint32_t lj92_predictor;     /* 0 = the layout's own (camera 1, mlv_dump 6) */
    int64_t video_class;         /* OPT_NONE = derived from the coding */
    uint32_t frame_space;        /* VIDF filler; mlv_lite 32 */

    /* container variants */
    int legacy_raw;
    uint64_t raw_chunk_bytes;
    int raw_unpadded;
    uint32_t chunk_frames;       /* 0 = one file */
    int shuffle;
    uint64_t shuffle_seed;
    frame_list drop, duplicate;

    /* audio */
    int audio;
    double tone_hz;
    int64_t audio_offset_us;     /* first AUDF timestamp minus first VIDF timestamp */

    /* damage */
    int interrupted;
    uint64_t zero_tail, truncate;
    int64_t garbage_block;       /* VIDF slot (file order) whose blockSize is made impossible */
    int64_t bad_frame_space;     /* VIDF slot whose frameSpace points past its block */
    int no_rawi;
    int64_t guid_mismatch;       /* chunk index written with another GUID */

    /* exposure; a change of settings at frame change_at */
    uint32_t iso, shutter_us;
    int64_t change_at;
    uint32_t change_iso, change_shutter_us;
    uint32_t change_width, change_height;   /* new RAWI geometry from frame K on; 0 = same */
    int change_in_filler;        /* the new EXPO/DISO inside frame K's VIDF slot (mlv_rec) */
    int change_diso;
    int32_t change_diso_value;
    double change_ev_gap;        /* true gap after the change (default: nominal of the value) */

    /* dual ISO (content dualiso) */
    uint32_t iso_high;
    double ev_gap;               /* < 0: from iso_high / iso */
    uint32_t phase;
    uint64_t seed;
    synth_scene_kind scene;
    double shift_px, illum_sigma_ev, black_offset, exposure_ev;
    int64_t ob_left, ob_top;     /* OPT_NONE = sensor defaults */
    uint32_t rtci_every;         /* an RTCI block before every Nth frame slot (mlv_rec), 0 none */
    int camera_geometry;         /* RAWI raw_info = the 5D Mark III LiveView buffer around the
                                  * recorded window; VIDF crop/pan and RAWC offset say where */
    int no_diso;
    int truth_raw;
    synth_defects defects;       /* sensor defects (dual ISO content); all zero: none */
    const camera_body *camera;   /* IDNT and the LiveView buffer (default the 5D Mark III) */
    uint32_t lv_width, lv_height;   /* --lv-buffer: another mode's buffer; 0: the body's */
    int32_t pan_error_x, pan_error_y;   /* --pan-error: the pixels come from this far right
                                         * and down of the window VIDF records */
    focus_layout fp_layout;      /* --focus-layout; period_x 0: none */
    int single_iso;              /* the same physical sensor at one ISO (no bright field,
                                  * no DISO block) */
    int lens_cap;                /* no light reaches the sensor: noise and defects only */
    int64_t sensor_seed;         /* seed of the defects and dark pattern; OPT_NONE: seed+99 */
    uint32_t binning_x, binning_y, skipping_x, skipping_y;   /* RAWC (default 3x3, 0x0) */
    uint32_t dark_block;         /* MLV-App DARK block: the average of this many lens-cap
                                  * frames of the same sensor; 0: none */
} synth_options;

/* Parses argv[first..argc). On a usage error returns MP_ERR_ARG with the reason in err.
 * *help is set when --help was given (nothing else is validated then). */
mp_status options_parse(synth_options *o, int argc, char **argv, int first, int *help,
                        mp_error *err);
void options_free(synth_options *o);
void options_print_help(const char *prog);

/* Recorded frame size of frame `number` (--change-size applies from --change-at on), and the
 * largest frame of the clip in pixels. */
void options_frame_geometry(const synth_options *o, uint32_t number, uint32_t *width,
                            uint32_t *height);
size_t options_max_pixels(const synth_options *o);

/* Frame rate period in microseconds, rounded, and the timestamp of frame `number`. */
uint64_t options_frame_time_us(const synth_options *o, uint32_t number);
uint64_t options_first_frame_time_us(const synth_options *o);

#endif
