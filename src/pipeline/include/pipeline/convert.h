/* convert: a clip (or the --frames part of it) to a CinemaDNG sequence or another frame sink.
 *
 * Flow: open the clip; levels from a sidecar or the pre-pass (prepass.h); then the worker
 * pool runs the frames with bounded memory: one reader thread preads payloads in frame order
 * into a ring of `window` buffers, and each worker takes one, decodes it, runs the dual-ISO
 * reconstruction (or level pass-through) and hands it to the sink. (DELTA clips: a worker
 * whose last frame was not the one before re-reads the frames in between itself.) Clips in which no segment is dual ISO are written with their
 * native samples and levels, as mlv_dump does. Audio goes to a WAV beside the frames when
 * the whole clip is converted (or always with audio = 1).
 * Movies (movie.h): the workers also develop each frame to RGB; one contiguous --frames range
 * per file; audio is muxed unless audio = 0; output is a file or "-" (stdout).
 * Frame cache (cache_dir, cache/frame_cache.h): frames of dual-ISO segments are stored after
 * reconstruction, keyed by clip (cache_key.h), frame number and a hash of the program, the
 * segment's levels and the reconstruction options; a frame with an entry is neither read
 * nor reconstructed. Output bytes are the same with or without the cache. Frames that are
 * not reconstructed (single-ISO segments, native clips) are not cached: reading and
 * unpacking them costs about what decoding an entry does.
 *
 * Outcome: MP_OK when every selected frame was written or skipped; MP_ERR_DAMAGED when the
 * input is damaged (every intact frame is still written and each damage logged);
 * MP_ERR_INTERRUPTED on cancel (finished frames stay, no partial file keeps a final name);
 * other errors stop the run. */
#ifndef MP_CONVERT_H
#define MP_CONVERT_H

#include <stdatomic.h>
#include <stdint.h>

#include "common/mp_status.h"
#include "develop/develop.h"
#include "encode/sink.h"
#include "engine/progress.h"

typedef struct mp_convert_options {
    const char *input;           /* the clip (.MLV, .RAW, or a chunk name) */
    const char *output;          /* output directory (the sequence folder goes inside) */
    const char *format;          /* "dng" (default), "md5", "null", or a movie:
                                  * "prores422hq", "prores4444", "ffv1", "nut", "rawvideo" */
    const char *frames;          /* --frames text (frame_range.h); NULL: the whole clip */
    uint32_t threads;            /* 0: one per CPU */
    const char *levels_path;     /* sidecar to use; NULL: run the pre-pass */
    int skip_existing;           /* leave frames whose final file exists */
    int overwrite;               /* replace existing final files */
    int audio;                   /* -1: only for a whole-clip run, 0: never, 1: always */
    int force_phase;             /* -1: detect */
    int chroma_smooth;           /* dual ISO: dualiso_options.chroma_smooth (0 off, 2, 3, 5) */
    unsigned raw_fixes;          /* RAWFIX_* bits (src/rawfix) repaired; default RAWFIX_ALL,
                                  * 0 also skips looking for defects in the pre-pass */
    develop_params develop;      /* movies: raw -> RGB */
    int prores_aw;               /* ProRes formats: libavcodec's prores_aw, not prores_ks */
    int prores_slice_rc;         /* ProRes formats: prores_ks's own per-slice rate control */
    int wb_grey_world;           /* movies: develop.wb becomes DEVELOP_WB_CUSTOM with grey-world
                                  * gains pooled over frames sampled across the whole clip
                                  * (never only the --frames part: farm chunks agree) */
    uint32_t wb_kelvin;          /* movies, non-zero: develop.wb becomes DEVELOP_WB_CUSTOM with
                                  * the multipliers of a white of this many kelvin on the
                                  * daylight locus, through the camera's D65 matrix */
    /* DNG: MP_DNG_NATIVE (default) keeps the recorded depth; dual-ISO output is 16-bit
     * whenever it is uncompressed, and LJ92 keeps each frame's own depth (16 for dual ISO). */
    mp_dng_storage dng_storage;
    mp_naming naming;            /* sequence folder and file names (encode/naming.h) */
    uint32_t resolve_clip_index; /* the C0000 part of Resolve names, 0..9999 */
    int one_based;               /* DNG file numbers = frame number + 1 */
    /* Timing of every output (encode/timecode.h): 0/0 keeps the recorded rate (normalised);
     * an override retimes DNG FrameRate/TimeCodes, the WAV and a movie's time base, while the
     * audio keeps its sample rate (cut or padded to end with the last frame). */
    uint32_t fps_override_num, fps_override_den;
    int timecode_time_of_day;    /* time codes from the RTCI wall clock, else 00:00:00:00 */
    int timecode_drop_frame;     /* drop-frame codes; the rate must be 29.97 or 59.94 */
    const char *tool;            /* "mlvpipe 0.1.0": sidecar and log text; part of the
                                  * cache's settings hash (new program, new entries) */
    const atomic_int *cancel;
    mp_logger log;
    mp_progress_fn progress;     /* optional; called from one thread at a time */
    void *progress_opaque;
    const char *cache_dir;       /* frame cache folder (created if missing); NULL: none */
    const char *dark_path;       /* dark frame (analysis/dark_load.h) subtracted from every
                                  * frame before the pre-pass and the repairs; NULL: none */
    int no_stretch;              /* developed outputs keep anamorphic pixels (the container
                                  * says their aspect) instead of being resampled square */
    const char *defects_from;    /* a clip whose raw-defect sites replace the ones the pre-pass
                                  * finds (analysis/defects_from.h); NULL: none. Not with
                                  * levels_path: the sidecar holds the map */
    /* The caller's settings as the public header lays them out (NULL for the library's own
     * callers: the defaults). Members added from API 4.2 on are read from here where they are
     * used, not copied into these options (doc/architecture.md 7). */
    const struct mlvpipe_convert_settings *settings;
} mp_convert_options;

void mp_convert_options_default(mp_convert_options *o);

typedef struct mp_convert_result {
    uint32_t selected, written, skipped, damaged;
    uint32_t threads;
    int output_failed;           /* the error came from writing, not from the input */
    /* With a cache: lookups that hit / missed (rejected: a corrupt or stale entry, also a
     * miss), entries written. */
    uint64_t cache_hits, cache_misses, cache_rejected, cache_puts;
} mp_convert_result;

mp_status mp_convert(const mp_convert_options *o, mp_convert_result *res, mp_error *err);

#endif
