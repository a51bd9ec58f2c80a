/* join: movie segments (one per farm chunk) into one file without re-encoding
 * (doc/outputs.md 5): every video and audio packet is copied as it is.
 *
 * Segments must have the same streams with the same parameters (codec, size, pixel format,
 * sample rate, channels, codec private data); the first difference is an error naming the
 * segment and the stream. Order and timestamps: segments play in the order of their start
 * times (mlvpipe's segments carry absolute frame times, so a shell glob's order does not
 * matter) and keep their timestamps, so the result has the packets of a whole-clip run. A
 * gap of half a frame or more between two segments is refused naming the missing frames
 * (allow_gaps: a warning, timestamps kept); an overlap of a frame or more is refused naming
 * the frames in both; the same file given twice is refused (MP_ERR_ARG). An overlap of less
 * than a frame (rounding in the tool that cut it) is shifted to follow on at the next frame's
 * exact time, and so are segments that all start at the same time (e.g. at 0, as ffmpeg cuts
 * them with -reset_timestamps), which keep the order given. The shift is measured on the
 * video stream and applied to every stream, so audio stays in sync with it. The container comes from the output's extension (.mov, .mkv, .nut);
 * the time code (MOV tmcd track, Matroska/NUT tag) is the first segment's, other metadata is
 * not copied.
 *
 * The output is written under a temporary name and renamed when complete (common/out_file.h);
 * an existing output is an error unless overwrite. */
#ifndef MP_FARM_JOIN_H
#define MP_FARM_JOIN_H

#include <stdatomic.h>
#include <stdint.h>

#include "common/mp_status.h"

typedef struct farm_join_options {
    const char *output;
    const char *const *segments;   /* any order (see above) */
    uint32_t segment_count;        /* >= 1 */
    int overwrite;
    int allow_gaps;                /* missing frames between segments: warn, not refuse */
    const atomic_int *cancel;      /* optional: stop (MP_ERR_INTERRUPTED) when non-zero */
    mp_logger log;                 /* one info line per segment */
    /* The caller's settings as the public header lays them out (NULL: the defaults, all
     * zero). Members added from API 4.2 on are read from here, not copied into these
     * options (doc/architecture.md 7). */
    const struct mlvpipe_join_settings *settings;
} farm_join_options;

typedef struct farm_join_result {
    uint64_t packets;              /* copied, all streams */
    uint64_t video_packets;
    uint32_t shifted_segments;     /* segments whose timestamps were moved */
} farm_join_result;

/* Errors: MP_ERR_ARG (no segments, unknown container), MP_ERR_FORMAT (a segment is not a
 * movie or its streams differ), MP_ERR_IO (reading or writing), MP_ERR_INTERRUPTED.
 * output_failed in *failed_on_output tells a write failure from an input one. */
mp_status mp_farm_join(const farm_join_options *o, farm_join_result *res, int *failed_on_output,
                    mp_error *err);

#endif
