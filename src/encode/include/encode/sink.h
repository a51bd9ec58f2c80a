/* encode/sink: the one interface every output format implements (dav1d tools/output style):
 * open -> write_frame* or write_rgb* (+ skip_frame*) / write_audio* -> finish, or abort at any
 * point. A sink takes either the raw mosaic (write_frame) or developed RGB (write_rgb); the
 * format table (formats.h) lists them with their properties.
 *
 * Sinks, chosen by name: "dng" (CinemaDNG sequence, one file per frame), "tiff" and "exr"
 * (developed RGB, one file per frame: rgb_sequence_sink.c), "wav" (the clip's audio with
 * bext + iXML), "md5" (per-frame MD5 lines, for tests), "null" (discards), and the movies
 * (av/movie_sink.c; the format table lists them all). `path` is the output directory for the
 * sequences and "wav": they write into PATH/<sequence folder>/ (naming.h), creating the
 * folders. For "md5" it is the text file to write (NULL: none); for
 * a movie the file, or "-" for standard output.
 *
 * Every file is written under a temporary name in its final folder and renamed when complete;
 * an existing final file is an error unless params.overwrite is set. abort() removes the
 * temporary files. Layout and tag choices follow doc/cinemadng.md. */
#ifndef MP_SINK_H
#define MP_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_color.h"
#include "common/mp_frame.h"
#include "common/mp_meta.h"
#include "common/mp_status.h"

typedef enum mp_naming {
    MP_NAMING_PLAIN,    /* CLIP/CLIP_000000.dng, CLIP/CLIP.wav */
    MP_NAMING_RESOLVE   /* CLIP_1_2024-05-06_1432_C0000/CLIP_1_2024-05-06_1432_C0000_000000.dng */
} mp_naming;

typedef enum mp_dng_storage {
    MP_DNG_NATIVE,      /* the frame's own depth: 16-bit samples, or packed 10/12/14 bits */
    MP_DNG_16BIT,       /* always 16-bit samples (required for dual-ISO output) */
    MP_DNG_LJ92,        /* lossless JPEG (Compression 7), one strip, 1 component 2W x H/2,
                         * predictor 6: MLV-App's layout, which Resolve loads; darktable 4.2
                         * (rawspeed) refuses predictors other than 1 */
    MP_DNG_LJ92_2C      /* lossless JPEG, one strip, 2 components W/2 x H, predictor 1 (same
                         * colour to the left; as small as the above): also read by darktable,
                         * not verified in Resolve */
} mp_dng_storage;

/* Clip metadata in force at the first frame (from the reader's mlv_clip_info). Absent blocks
 * keep present = 0 and the corresponding tags are left out. */
typedef struct mp_clip_meta {
    mp_raw_info raw;                 /* colour matrix, illuminant, active area */
    mp_raw_capture capture;          /* binning/skipping -> DefaultScale */
    mp_camera camera;
    mp_lens lens;
    mp_exposure exposure;
    mp_white_balance white_balance;
    mp_wall_clock wall_clock;        /* RTCI: DateTime, time-of-day timecode, Resolve names */
    mp_photo photo;                  /* a still's owner and orientation */
} mp_clip_meta;

typedef struct mp_sink_params {
    char clip_name[128];             /* clip file name without extension: ReelName, file names */
    mp_clip_meta meta;

    /* Video timing. The effective rate (timecode.h mp_sink_fps) is the override when set,
     * else the recorded rate normalised to the standard rationals; FrameRate, TimeCodes and
     * the WAV's TimeReference and iXML speed all use it. */
    uint32_t fps_num, fps_den;                     /* as recorded (MLVI) */
    uint32_t fps_override_num, fps_override_den;   /* 0/0: no override */
    int timecode_time_of_day;        /* start TimeCodes at the RTCI wall clock, else 00:00:00:00 */
    int timecode_drop_frame;         /* drop-frame codes (29.97 and 59.94 only) */
    mp_rational baseline_exposure;   /* BaselineExposure, constant over the clip (0/0: 0) */

    /* A still (a one-frame clip that is a photo): sequences write PATH/CLIP.EXT with no
     * folder of their own, and DNGs carry no CinemaDNG timing (FrameRate, TimeCodes). */
    int still;

    /* Sequences (DNG, TIFF, EXR): names of the folder and files, DNG storage */
    const char *extension;           /* of the frame files, from the format table; NULL: dng */
    mp_dng_storage storage;
    mp_naming naming;
    uint32_t resolve_clip_index;     /* the C0000 part of Resolve names */
    int one_based;                   /* file numbers = frame number + 1 (TimeCodes unchanged) */

    /* Audio (WAV): PCM format and the timing needed to align it with the video. */
    mp_audio_format audio;
    uint64_t audio_start_us;         /* timestamp of the first audio sample */
    uint64_t video_start_us;         /* timestamp of the clip's first frame */
    uint32_t clip_first_frame;       /* absolute number of the clip's first frame */
    uint32_t first_frame;            /* absolute number of the first frame being exported */
    uint32_t frame_count;            /* frames being exported; 0: keep all the audio given */

    /* Developed outputs: colour tags; movies: encoder threads, and the clip's PCM
     * (audio_bytes of it in the `audio` format, read on demand through read_audio; 0 or NULL:
     * no audio track). */
    mp_gamut gamut;
    mp_curve curve;
    int graded;                      /* a LUT made the colour: no gamut or curve to state */
    mp_rational pixel_aspect;        /* of the pictures given (anamorphic ones kept as
                                      * recorded); 0/0: square */
    uint32_t threads;                /* 0 = 1 */
    int prores_aw;                   /* ProRes: prores_aw instead of prores_ks (av_sink.h) */
    int prores_slice_rc;             /* ProRes: prores_ks's own rate control (av_sink.h) */
    uint64_t audio_bytes;
    mp_status (*read_audio)(void *opaque, uint64_t offset, void *buf, size_t bytes,
                            mp_error *err);
    void *audio_opaque;

    /* Files */
    int overwrite;                   /* replace existing final files */
    int fsync;                       /* fsync each file (and its folder) before and after rename */
    mp_logger log;
} mp_sink_params;

/* Per-frame metadata that may change within a clip; NULL fields use the clip's. */
typedef struct mp_frame_meta {
    const mp_exposure *exposure;
    const mp_white_balance *white_balance;
} mp_frame_meta;

/* A developed picture: planes R, G, B of width x height samples, rows width apart, full range
 * (65535 = 1.0), of absolute frame `number`. */
typedef struct mp_rgb_frame {
    const uint16_t *plane[3];
    uint32_t width, height;
    uint32_t number;
} mp_rgb_frame;

/* A developed picture row by row (mp_sink_encode_rows): produce(user, first, last, row,
 * row_user, err) calls row(row_user, y, rgb, err) for every row y in [first, last) of the
 * width x height picture, in ascending order, rgb[k] the row's R, G, B samples (as
 * mp_rgb_frame's), valid during the call; the first failure ends it with that status. */
typedef mp_status (*mp_rgb_row_fn)(void *row_user, uint32_t y, const uint16_t *const rgb[3],
                                   mp_error *err);
typedef struct mp_rgb_rows {
    mp_status (*produce)(void *user, uint32_t first, uint32_t last, mp_rgb_row_fn row,
                         void *row_user, mp_error *err);
    void *user;
    uint32_t width, height;
    uint32_t number;
} mp_rgb_rows;

/* An encoded picture (movies): made by encode_rgb on a worker thread, written in frame order
 * by write_unit. */
typedef struct mp_sink_unit mp_sink_unit;

/* One format. priv is priv_size zeroed bytes owned by the generic layer. */
typedef struct mp_sink_ops {
    const char *name;
    size_t priv_size;
    int concurrent_frames;           /* write_frame may run on several threads at once; else
                                      * frames come one at a time in ascending order */
    mp_status (*open)(void *priv, const char *path, const mp_sink_params *p, mp_error *err);
    mp_status (*write_frame)(void *priv, const mp_frame *f, const mp_frame_meta *m,
                             mp_error *err);                /* NULL: takes no raw frames */
    mp_status (*write_rgb)(void *priv, const mp_rgb_frame *rgb,
                           mp_error *err);                  /* NULL: takes no RGB */
    mp_status (*skip_frame)(void *priv, uint32_t number,
                            mp_error *err);                 /* NULL: lost frames are no event */
    mp_status (*write_audio)(void *priv, const void *pcm, size_t bytes,
                             mp_error *err);                /* NULL: takes no audio */
    mp_status (*finish)(void *priv, mp_error *err);   /* NULL: every file is complete once
                                                       * written (sequences) */
    void (*abort)(void *priv);                        /* NULL: nothing to remove */
    /* Optional (movies): encoding on the caller's worker threads, so that only muxing is
     * left to the one in-order writer. encoder_new makes one thread's encoder (*enc NULL:
     * this sink encodes in write_rgb only); encode_rgb may run on several threads at once,
     * each with its own encoder; write_unit takes the units in frame order, as write_rgb
     * takes pictures, and frees them; unit_free frees one that is not written. */
    mp_status (*encoder_new)(void *priv, void **enc, mp_error *err);
    void (*encoder_free)(void *enc);
    mp_status (*encode_rgb)(void *priv, void *enc, const mp_rgb_frame *rgb,
                            mp_sink_unit **unit, mp_error *err);
    mp_status (*write_unit)(void *priv, mp_sink_unit *unit, mp_error *err);
    void (*unit_free)(mp_sink_unit *unit);
    /* Optional, with encode_rgb: the same unit from the picture's rows as they are
     * developed (no frame of planes between), for encoders takes_rows accepts. */
    int (*takes_rows)(void *priv, void *enc);
    mp_status (*encode_rows)(void *priv, void *enc, const mp_rgb_rows *rows,
                             mp_sink_unit **unit, mp_error *err);
} mp_sink_ops;

typedef struct mp_sink mp_sink;

mp_status mp_sink_open(mp_sink **out, const mp_sink_ops *ops, const char *path,
                       const mp_sink_params *p, mp_error *err);
/* Frames may arrive in any order. Thread-safe only when ops->concurrent_frames. */
mp_status mp_sink_write_frame(mp_sink *s, const mp_frame *f, const mp_frame_meta *m,
                              mp_error *err);
/* A developed picture, for sinks with write_rgb (in frame order). */
mp_status mp_sink_write_rgb(mp_sink *s, const mp_rgb_frame *rgb, mp_error *err);
/* Worker-thread encoding (mp_sink_ops.encoder_new): *enc NULL when the sink has none; then
 * give it pictures with mp_sink_write_rgb. Free encoders before finishing the sink. */
mp_status mp_sink_encoder_new(mp_sink *s, void **enc, mp_error *err);
void mp_sink_encoder_free(mp_sink *s, void *enc);   /* NULL is ignored */
mp_status mp_sink_encode_rgb(mp_sink *s, void *enc, const mp_rgb_frame *rgb,
                             mp_sink_unit **unit, mp_error *err);
/* Whether enc (from mp_sink_encoder_new, not NULL) takes pictures row by row. */
int mp_sink_takes_rows(mp_sink *s, void *enc);
mp_status mp_sink_encode_rows(mp_sink *s, void *enc, const mp_rgb_rows *rows,
                              mp_sink_unit **unit, mp_error *err);
/* Takes the unit (frees it, also on failure); in frame order like mp_sink_write_rgb. */
mp_status mp_sink_write_unit(mp_sink *s, mp_sink_unit *unit, mp_error *err);
void mp_sink_unit_free(mp_sink *s, mp_sink_unit *unit);   /* NULL is ignored */
/* Frame `number` will not come (lost or unreadable): a movie repeats the previous picture. */
mp_status mp_sink_skip_frame(mp_sink *s, uint32_t number, mp_error *err);
/* Interleaved PCM in params.audio's format, in stream order, any byte count. */
mp_status mp_sink_write_audio(mp_sink *s, const void *pcm, size_t bytes, mp_error *err);
/* Completes the outputs and frees the sink (also on failure). */
mp_status mp_sink_finish(mp_sink *s, mp_error *err);
/* Removes unfinished outputs and frees the sink. NULL is ignored. */
void mp_sink_abort(mp_sink *s);

/* Frames and audio bytes accepted so far. */
uint64_t mp_sink_frames_written(const mp_sink *s);
uint64_t mp_sink_audio_bytes_written(const mp_sink *s);

#endif
