/* mlvpipe convert, analyze and join: a clip (or a frame range of it) to a CinemaDNG sequence
 * or a movie; the clip-level dual-ISO levels as a sidecar shared by farm chunks; movie
 * segments joined without re-encoding.
 *
 * Dual-ISO clips are reconstructed with levels estimated once per clip, so every frame
 * range, thread count and farm chunk gives byte-identical frames. Every output file is
 * written under a temporary name and renamed when complete; inputs are never modified. */
#ifndef MLVPIPE_CONVERT_H
#define MLVPIPE_CONVERT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "mlvpipe/common.h"

/* Gamuts and curves (doc/colour.md); those after ACES_AP0 and SLOG3 are API 4.4. */
typedef enum mlvpipe_gamut {
    MLVPIPE_GAMUT_REC709, MLVPIPE_GAMUT_REC2020, MLVPIPE_GAMUT_ACES_AP0,
    MLVPIPE_GAMUT_ACES_AP1, MLVPIPE_GAMUT_DWG, MLVPIPE_GAMUT_AWG4, MLVPIPE_GAMUT_VGAMUT,
    MLVPIPE_GAMUT_CINEMA
} mlvpipe_gamut;

/* MLVPIPE_CURVE_AUTO (API 4.4, the default): the format's own, linear for OpenEXR (which
 * holds scene-linear light), BT.709 for the others. */
typedef enum mlvpipe_curve {
    MLVPIPE_CURVE_AUTO = -1,
    MLVPIPE_CURVE_LINEAR, MLVPIPE_CURVE_BT709, MLVPIPE_CURVE_LOGC3, MLVPIPE_CURVE_SLOG3,
    MLVPIPE_CURVE_ACESCCT, MLVPIPE_CURVE_DAVINCI, MLVPIPE_CURVE_LOGC4, MLVPIPE_CURVE_VLOG,
    MLVPIPE_CURVE_CLOG3, MLVPIPE_CURVE_SRGB
} mlvpipe_curve;

/* Highlights of developed movies (README "Highlights"): BLEND (default) takes every pixel
 * near a raw clip, or near the top of the output curve, smoothly to white; CLIP only clips
 * the white-balanced channels at the same level (dcraw's default: neutral where all clip);
 * RECONSTRUCT (API 2.0) rebuilds clipped channels from the unclipped ones and the colour
 * around them, BLEND where that cannot be done. */
typedef enum mlvpipe_highlights {
    MLVPIPE_HIGHLIGHTS_BLEND, MLVPIPE_HIGHLIGHTS_CLIP, MLVPIPE_HIGHLIGHTS_RECONSTRUCT
} mlvpipe_highlights;

/* The colour temperatures MLVPIPE_WB_KELVIN takes (where the daylight-locus fit holds). */
#define MLVPIPE_WB_KELVIN_MIN 2000
#define MLVPIPE_WB_KELVIN_MAX 25000

typedef enum mlvpipe_wb {
    MLVPIPE_WB_AS_SHOT,      /* the clip's WBAL as Magic Lantern means it (custom gains, else
                              * the Kelvin of its mode); without one, daylight */
    MLVPIPE_WB_DAYLIGHT,     /* the neutral of ColorMatrix1's illuminant */
    MLVPIPE_WB_GREY_WORLD,   /* grey world pooled over frames sampled across the whole clip */
    MLVPIPE_WB_CUSTOM,       /* wb_gains */
    MLVPIPE_WB_KELVIN        /* wb_kelvin: a daylight-locus white through the camera's D65
                              * matrix, as as-shot treats a Kelvin WBAL */
} mlvpipe_wb;

typedef enum mlvpipe_dng_storage {
    MLVPIPE_DNG_NATIVE,      /* the recorded depth (packed 10/12/14 bits); dual ISO: 16-bit */
    MLVPIPE_DNG_16BIT,       /* 16-bit samples */
    MLVPIPE_DNG_LJ92,        /* lossless JPEG, MLV-App's layout (predictor 6) */
    MLVPIPE_DNG_LJ92_2C      /* lossless JPEG, two components (predictor 1) */
} mlvpipe_dng_storage;

typedef enum mlvpipe_naming {
    MLVPIPE_NAMING_PLAIN,    /* NAME/NAME_000000.dng */
    MLVPIPE_NAMING_RESOLVE   /* NAME_1_2024-05-06_1432_C0000/..._000000.dng */
} mlvpipe_naming;

typedef struct mlvpipe_convert_settings {
    const char *input;            /* the clip (.MLV, .RAW, or any chunk's name) */
    const char *output;           /* a sequence (DNG, TIFF, EXR): the folder the sequence
                                   * folder goes in; a movie or md5: the file, "-" for stdout */
    const char *format;           /* "dng" (default), "tiff", "exr", "prores422hq",
                                   * "prores4444", "prores422", "prores422lt",
                                   * "prores422proxy", "dnxhrhq", "dnxhrhqx", "dnxhr444",
                                   * "h264", "h265", "ffv1", "nut", "movraw" (API 4.5),
                                   * "rawvideo", "md5" or "null" (the README's --to) */
    const char *frames;           /* absolute frame numbers, e.g. "100-199" (see the README's
                                   * --frames); NULL: the whole clip */
    uint32_t threads;             /* 0: one per CPU; never changes the output */
    const char *levels_path;      /* a sidecar from mlvpipe_analyze; NULL: estimate them */
    int skip_existing;            /* DNG: keep frames whose file exists (resume) */
    int overwrite;                /* replace existing files */
    int audio;                    /* -1: for a whole-clip run (default), 0 never, 1 always */
    int force_phase;              /* -1: detect dual ISO (default); 0..3 force that row phase */
    int chroma_smooth;            /* dual ISO: 0 off (default), 2, 3 or 5 */
    /* movies: development */
    int fast;                     /* bilinear demosaic instead of RCD */
    mlvpipe_gamut gamut;
    mlvpipe_curve curve;
    float exposure_ev;            /* -16..16 */
    mlvpipe_wb wb;
    float wb_gains[3];            /* MLVPIPE_WB_CUSTOM: R, G, B multipliers */
    uint32_t wb_kelvin;           /* MLVPIPE_WB_KELVIN: 2000..25000 */
    /* DNG sequences */
    mlvpipe_dng_storage dng_storage;
    mlvpipe_naming naming;
    uint32_t resolve_clip_index;  /* the C0000 part of Resolve names, 0..9999 */
    int one_based;                /* file numbers = frame number + 1 */
    /* timing of every output: 0/0 keeps the recorded rate */
    uint32_t fps_num, fps_den;
    int timecode_time_of_day;     /* time codes from the recording's clock, else 00:00:00:00 */
    int timecode_drop_frame;      /* 29.97 / 59.94 only */
    const char *cache_dir;        /* frame cache folder; NULL: none */
    const char *tool;             /* names the program in sidecars and the cache key;
                                   * NULL: "mlvpipe VERSION" */
    const atomic_int *cancel;     /* non-zero stops the run (MLVPIPE_ERR_INTERRUPTED) */
    mlvpipe_logger log;
    mlvpipe_progress_fn progress; /* optional */
    void *progress_opaque;
    /* raw defects found in the clip and repaired before dual ISO (README "Raw defects"); each
     * non-zero leaves one fix out; all three: not even looked for */
    int no_focus_pixels, no_bad_pixels, no_stripes;
    mlvpipe_highlights highlights;    /* movies */
    const char *dark;             /* a lens-cap clip (MLV/RAW) whose averaged frames are
                                   * subtracted from every frame first (README "Dark
                                   * frames"); same size, bit depth and ISO; NULL: none */
    int no_stretch;               /* developed outputs of anamorphic or line-skipping modes
                                   * keep the recorded pixels (movies say their aspect in
                                   * the container) instead of being resampled to square
                                   * pixels */
    const char *defects_from;     /* (API 4.0) a clip of the same camera body and video mode
                                   * whose hot, cold and focus pixels replace the ones found in
                                   * this clip (README "--defects-from"); NULL: none. Not with
                                   * levels_path (the sidecar holds the map) */
    float denoise;                /* (API 4.2) dual ISO: 0 off (default: no smoothing); a
                                   * strength up to 8, the cross-field non-local mean that
                                   * trades shadow detail for noise (README "--denoise") */
    /* (API 4.4) developed outputs resized (Lanczos-3 on the developed samples,
     * doc/outputs.md 10): scale > 0 (1/64..4) multiplies the square-pixel size, else
     * size_width x size_height is the box it is fitted into, its aspect kept; sides rounded
     * to even numbers. All zero: full size. Not both. */
    float scale;
    uint32_t size_width, size_height;
    const char *lut;              /* (API 4.4) a .cube file (1D or 3D) applied to the developed
                                   * picture after the curve (doc/colour.md); NULL: none */
    /* (API 4.2) zero: room for the members of later minor versions, which take it from the
     * front so that the struct keeps its size (version.h) */
    int reserved[10];
} mlvpipe_convert_settings;

/* Fills s with the defaults. The header passes the size of *s as it lays the struct out
 * (API 4.1, version.h); the entry in parentheses is API 4.0's, for programs built before. */
MLVPIPE_API void mlvpipe_default_convert_settings_sized(mlvpipe_convert_settings *s, size_t size);
#define mlvpipe_default_convert_settings(s) mlvpipe_default_convert_settings_sized((s), sizeof *(s))
MLVPIPE_API void (mlvpipe_default_convert_settings)(mlvpipe_convert_settings *s);

typedef struct mlvpipe_convert_result {
    uint32_t selected, written, skipped, damaged;
    uint32_t threads;
    int output_failed;            /* the error came from writing, not from the input */
    uint64_t cache_hits, cache_misses, cache_rejected, cache_puts;
} mlvpipe_convert_result;

/* MLVPIPE_OK when every selected frame was written or skipped; MLVPIPE_ERR_DAMAGED when the
 * input is damaged (every intact frame still written, each damage logged). */
#define mlvpipe_convert(s, result, err)                                                        \
    mlvpipe_convert_movie_sized((s), sizeof *(s), NULL, (result), (err))
MLVPIPE_API mlvpipe_status (mlvpipe_convert)(const mlvpipe_convert_settings *s,
                                             mlvpipe_convert_result *result, mlvpipe_error *err);

/* The encoder of the ProRes formats (API 2.0; KS_SLICE 3.1), README "--prores-encoder": KS is
 * libavcodec's prores_ks coding each frame at one quantiser, the finest that keeps to the
 * profile's data rate (the default); KS_SLICE is prores_ks with its own rate control, which
 * picks each slice's quantiser (the bytes `ffmpeg -c:v prores_ks` writes: slower, and lower
 * quality for the same rate); AW its prores_aw (fixed quantisers, more bytes than the
 * profile's rate). */
typedef enum mlvpipe_prores_encoder {
    MLVPIPE_PRORES_KS, MLVPIPE_PRORES_AW, MLVPIPE_PRORES_KS_SLICE
} mlvpipe_prores_encoder;

/* Movie settings added after 1.1 (mlvpipe_convert_settings keeps its size); all zero is the
 * default. */
typedef struct mlvpipe_movie_settings {
    mlvpipe_prores_encoder prores_encoder;   /* ProRes formats only (mlvpipe_format.prores) */
    int reserved[15];                        /* zero */
} mlvpipe_movie_settings;

/* mlvpipe_convert with movie settings (API 2.0; m NULL: the defaults). A setting the format
 * does not take (a ProRes encoder for another format), or a reserved field not zero, is
 * MLVPIPE_ERR_ARG before any work. */
MLVPIPE_API mlvpipe_status mlvpipe_convert_movie_sized(const mlvpipe_convert_settings *s,
                                                       size_t size,
                                                       const mlvpipe_movie_settings *m,
                                                       mlvpipe_convert_result *result,
                                                       mlvpipe_error *err);
#define mlvpipe_convert_movie(s, m, result, err)                                               \
    mlvpipe_convert_movie_sized((s), sizeof *(s), (m), (result), (err))
MLVPIPE_API mlvpipe_status (mlvpipe_convert_movie)(const mlvpipe_convert_settings *s,
                                                   const mlvpipe_movie_settings *m,
                                                   mlvpipe_convert_result *result,
                                                   mlvpipe_error *err);

/* Batches (API 4.3): started (optional) says clip `index` begins, finished gives its outcome
 * as mlvpipe_convert returns it (err: its message), in index order, one call at a time. */
typedef void (*mlvpipe_batch_started_fn)(void *opaque, uint32_t index);
typedef void (*mlvpipe_batch_finished_fn)(void *opaque, uint32_t index, mlvpipe_status status,
                                          const mlvpipe_convert_result *result,
                                          const mlvpipe_error *err);

/* Converts inputs[i] to outputs[i], i in 0..count-1, with the settings s (s->input and
 * s->output are not used), going on past the clips that fail. Raw photos next to each other in
 * the list are converted side by side, one per thread of s->threads (a photo is one frame:
 * nothing inside it to share out), without progress events; any other clip alone, with every
 * thread, its progress as mlvpipe_convert's. Each output is the bytes of converting its clip
 * alone, whatever the thread count. Returns MLVPIPE_OK when every clip was run (each one's
 * outcome went to finished), MLVPIPE_ERR_INTERRUPTED when s->cancel stopped the batch (the
 * clips not finished were not started or stopped), MLVPIPE_ERR_ARG for settings no clip can
 * take. */
MLVPIPE_API mlvpipe_status mlvpipe_convert_batch_sized(const mlvpipe_convert_settings *s,
                                                       size_t size,
                                                       const mlvpipe_movie_settings *m,
                                                       const char *const *inputs,
                                                       const char *const *outputs,
                                                       uint32_t count,
                                                       mlvpipe_batch_started_fn started,
                                                       mlvpipe_batch_finished_fn finished,
                                                       void *opaque, mlvpipe_error *err);
#define mlvpipe_convert_batch(s, m, inputs, outputs, count, started, finished, opaque, err)    \
    mlvpipe_convert_batch_sized((s), sizeof *(s), (m), (inputs), (outputs), (count), (started), \
                                (finished), (opaque), (err))

typedef struct mlvpipe_analyze_settings {
    const char *input;
    const char *output;           /* the sidecar (JSON); NULL: only returned as text */
    int overwrite;
    uint32_t threads;             /* 0: one per CPU; never changes the result */
    int force_phase;              /* -1: detect (default) */
    const char *tool;             /* NULL: "mlvpipe VERSION" */
    const atomic_int *cancel;
    mlvpipe_logger log;
    mlvpipe_progress_fn progress; /* optional: MLVPIPE_PROGRESS_LEVELS events */
    void *progress_opaque;
    const char *dark;             /* as convert's: the levels and defect
                                   * maps are measured on frames with it subtracted */
    const char *defects_from;     /* (API 4.0) as convert's: the sidecar gets that clip's
                                   * defect sites */
} mlvpipe_analyze_settings;

MLVPIPE_API void mlvpipe_default_analyze_settings_sized(mlvpipe_analyze_settings *s, size_t size);
#define mlvpipe_default_analyze_settings(s) mlvpipe_default_analyze_settings_sized((s), sizeof *(s))
MLVPIPE_API void (mlvpipe_default_analyze_settings)(mlvpipe_analyze_settings *s);

typedef struct mlvpipe_analyze_result {
    char *json;                   /* the sidecar's text when s->output is NULL; free() it */
    int output_failed;            /* the error came from writing the sidecar */
} mlvpipe_analyze_result;

/* Estimates the clip's dual-ISO levels from frames sampled over each of its segments and
 * writes them as a sidecar (s->output) or returns its text (result->json). The segments'
 * levels are logged at MLVPIPE_LOG_INFO. MLVPIPE_ERR_DAMAGED: the clip has damage (logged),
 * the levels are still complete. */
MLVPIPE_API mlvpipe_status mlvpipe_analyze_sized(const mlvpipe_analyze_settings *s, size_t size,
                                                 mlvpipe_analyze_result *result,
                                                 mlvpipe_error *err);
#define mlvpipe_analyze(s, result, err) mlvpipe_analyze_sized((s), sizeof *(s), (result), (err))
MLVPIPE_API mlvpipe_status (mlvpipe_analyze)(const mlvpipe_analyze_settings *s,
                                             mlvpipe_analyze_result *result, mlvpipe_error *err);

/* All zero is the default. */
typedef struct mlvpipe_join_settings {
    const char *output;           /* .mov, .mkv or .nut: the container follows the extension */
    const char *const *segments;  /* one clip's --frames chunks, in any order */
    uint32_t segment_count;
    int overwrite;
    int allow_gaps;               /* frames missing between segments: a warning, not an error */
    const atomic_int *cancel;
    mlvpipe_logger log;           /* one line per segment at MLVPIPE_LOG_INFO */
    int no_verify;                /* (API 4.2) copy FFV1 packets without checking their slice
                                   * CRCs and decoding them */
    int reserved[7];              /* (API 4.2) zero: room for later members, as convert's */
} mlvpipe_join_settings;

typedef struct mlvpipe_join_result {
    uint64_t packets, video_packets;
    uint32_t shifted_segments;    /* segments whose timestamps were moved to follow on */
    int output_failed;            /* the error came from writing, not from a segment */
} mlvpipe_join_result;

/* Joins movie segments into one file without re-encoding (every packet copied as it is),
 * played in the order of their start times. Refuses segments whose streams differ, that
 * overlap by a frame or more, or (unless allow_gaps) that leave frames out between them. */
MLVPIPE_API mlvpipe_status mlvpipe_join_sized(const mlvpipe_join_settings *s, size_t size,
                                              mlvpipe_join_result *result, mlvpipe_error *err);
#define mlvpipe_join(s, result, err) mlvpipe_join_sized((s), sizeof *(s), (result), (err))
MLVPIPE_API mlvpipe_status (mlvpipe_join)(const mlvpipe_join_settings *s,
                                          mlvpipe_join_result *result, mlvpipe_error *err);

/* An output format mlvpipe_convert_settings.format can name, from the one table convert
 * uses. The library owns these structs (they live as long as the program) and may add
 * members at their end in a minor version. Added in API 1.1. */
typedef enum mlvpipe_format_audio {
    MLVPIPE_FORMAT_AUDIO_NONE,
    MLVPIPE_FORMAT_AUDIO_BESIDE,  /* a WAV beside the frames */
    MLVPIPE_FORMAT_AUDIO_MUXED    /* in the same file */
} mlvpipe_format_audio;

typedef struct mlvpipe_format {
    const char *name;             /* "dng", "prores422hq", ... */
    const char *summary;          /* one line for a --help */
    const char *container;        /* "CinemaDNG", "MOV", "Matroska", "NUT", "none", "text" */
    const char *extension;        /* of the file(s) written; NULL: no name of its own */
    int developed;                /* 1: developed RGB (a movie when it has an extension);
                                   * 0: the raw mosaic */
    int sequence;                 /* one file per frame in a folder (output is the folder) */
    int to_stdout;                /* output "-" writes it to standard output */
    int joinable;                 /* farm chunks of it join into the whole clip (plan.h) */
    mlvpipe_format_audio audio;
    int prores;                   /* ProRes: takes mlvpipe_movie_settings.prores_encoder (1.2) */
} mlvpipe_format;

/* The i-th format in --help order ("dng" first, the default), NULL past the last. */
MLVPIPE_API const mlvpipe_format *mlvpipe_format_at(size_t i);
/* NULL when no format has that name. */
MLVPIPE_API const mlvpipe_format *mlvpipe_format_find(const char *name);

/* Sends libavcodec/libavformat's own messages to log (process-wide: libav has one log
 * callback); NULL: back to libav's default. */
MLVPIPE_API void mlvpipe_route_libav_log(const mlvpipe_logger *log);

#endif
