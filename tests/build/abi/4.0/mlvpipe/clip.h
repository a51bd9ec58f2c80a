/* mlvpipe clips: open a Magic Lantern clip (.MLV with its .M00.. chunks, or a legacy .RAW),
 * read its metadata and decode its frames.
 *
 * Opening reads only block headers, so it is quick even for a 100 GB clip. Damage that
 * leaves frames readable is reported through the logger and counted in damage_count; the
 * clip still opens. Frames are indexed 0..frame_count-1 in frame-number order; a frame's
 * absolute number is mlvpipe_frame.number. A clip is read-only once open: any number of
 * threads may read frames at once, each with its own mlvpipe_frame. */
#ifndef MLVPIPE_CLIP_H
#define MLVPIPE_CLIP_H

#include <stdint.h>

#include "mlvpipe/common.h"

typedef struct mlvpipe_clip mlvpipe_clip;

typedef struct mlvpipe_clip_info {
    const char *path;                   /* the first chunk (owned by the clip) */
    uint32_t chunk_count;
    int legacy_raw;                     /* 1: legacy .RAW, 0: MLV */
    uint64_t guid;                      /* MLVI fileGuid (0 for .RAW) */
    const char *compression;            /* "none", "lj92", "lzma", "delta", "lzma+delta" */
    int video_supported;                /* 0: frames cannot be decoded (see mlvpipe_clip_open) */
    const char *camera;                 /* IDNT camera name, "" when absent */
    uint32_t width, height, bits;       /* at the first frame */
    int32_t black, white;
    char cfa[5];                        /* "RGGB", "GRBG", "GBRG" or "BGGR" */
    uint32_t fps_num, fps_den;
    uint32_t frame_count;               /* frames that can be read */
    uint32_t first_frame, last_frame;   /* their first and last absolute numbers */
    uint32_t gap_count, missing_frames; /* dropped frames: runs and frames in total */
    uint32_t segment_count;             /* runs of frames with the same recorded settings */
    uint32_t iso;                       /* EXPO at the first frame, 0 when absent */
    int dual_iso_tag;                   /* a DISO block says dual ISO */
    uint32_t audio_channels, audio_sample_rate, audio_bits;   /* 0: no audio */
    uint32_t damage_count;              /* damage found while indexing (logged) */
} mlvpipe_clip_info;

/* A decoded frame: raw CFA samples in the recorded bit depth, as the sensor wrote them
 * (dual-ISO clips are not reconstructed here; mlvpipe_convert does that). */
typedef struct mlvpipe_frame {
    uint16_t *data;                     /* width * height samples, row-major, no padding */
    uint32_t width, height, bits;
    uint32_t black, white;
    char cfa[5];
    uint32_t number;                    /* absolute frame number */
    uint64_t timestamp_us;              /* since the start of the recording */
    void *priv;                         /* the library's buffers; do not touch */
} mlvpipe_frame;

/* Opens path; *out is NULL on failure. log receives warnings while indexing (may be NULL). */
MLVPIPE_API mlvpipe_status mlvpipe_clip_open(const char *path, const mlvpipe_logger *log,
                                             mlvpipe_clip **out, mlvpipe_error *err);
MLVPIPE_API void mlvpipe_clip_close(mlvpipe_clip *clip);

MLVPIPE_API void mlvpipe_clip_get_info(const mlvpipe_clip *clip, mlvpipe_clip_info *out);

/* Decodes frame `index` (0..frame_count-1) into frame, reusing its buffers; zero-initialise
 * a frame before its first use and release it with mlvpipe_frame_free. */
MLVPIPE_API mlvpipe_status mlvpipe_clip_read_frame(const mlvpipe_clip *clip, uint32_t index,
                                                   mlvpipe_frame *frame, mlvpipe_error *err);
MLVPIPE_API void mlvpipe_frame_free(mlvpipe_frame *frame);

/* mlvpipe_clip_describe's flags. */
#define MLVPIPE_DESCRIBE_JSON    1u  /* one JSON object (keys: doc/json.md, section 1) */
#define MLVPIPE_DESCRIBE_DEFECTS 2u  /* also run convert's pre-pass and report the raw defects
                                      * it finds per segment (reads up to 32 frames each) */

/* The report `mlvpipe info` prints, into *out (release it with mlvpipe_text_free): every fact
 * of the clip's headers, a dual-ISO check of the pixels of 5 frames spread over the clip, the
 * metadata segments, and the damage list (the reader's damage, then frames of the check
 * that are damaged). A clip whose frames cannot be decoded is described too
 * (mlvpipe_clip_info.video_supported tells). MLVPIPE_OK: the damage list is empty;
 * MLVPIPE_ERR_DAMAGED: it has entries (or the defects pre-pass met damage), the report is
 * complete; MLVPIPE_ERR_FORMAT: the same, and no frame can be used (every segment's levels
 * or CFA layout are impossible), the report is complete; MLVPIPE_ERR_NOMEM: no report. Messages of the pre-pass go to the clip's logger.
 * Added in API 1.1. */
MLVPIPE_API mlvpipe_status mlvpipe_clip_describe(const mlvpipe_clip *clip, unsigned flags,
                                                 mlvpipe_text *out, mlvpipe_error *err);

#endif
