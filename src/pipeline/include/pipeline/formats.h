/* pipeline/formats: the one list of output formats (`convert --to`, `plan --to`, --help), each
 * with what it takes and what it writes, so the pipeline and the CLI ask the format instead of
 * comparing names. Each is written by its mp_sink (sink.h): frame formats take the raw
 * mosaic, movies developed RGB in frame order. */
#ifndef MP_FORMATS_H
#define MP_FORMATS_H

#include <stddef.h>

#include "encode/sink.h"

typedef enum mp_format_input {
    MP_INPUT_RAW,       /* the linear mosaic (reconstructed dual ISO, or the recorded samples) */
    MP_INPUT_RGB        /* developed RGB (src/develop), in frame order */
} mp_format_input;

typedef enum mp_format_audio {
    MP_AUDIO_NONE,
    MP_AUDIO_BESIDE,    /* a WAV beside the frames (sink "wav") */
    MP_AUDIO_MUXED      /* in the same file */
} mp_format_audio;

typedef struct mp_format {
    const char *name;               /* as --to takes it */
    const char *summary;            /* one line for --help */
    mp_format_input input;
    const char *container;          /* "CinemaDNG", "MOV", "Matroska", "NUT", "none", "text" */
    const char *extension;          /* of the file(s) written; NULL: no name of its own */
    int sequence;                   /* one file per frame in a folder (-o DIR), else one file */
    int to_stdout;                  /* -o - writes it to standard output */
    int joinable;                   /* farm chunks of it join into the whole clip */
    mp_format_audio audio;
    int prores;                     /* ProRes: the encoder can be chosen (mp_sink_params) */
    int scene_linear;               /* holds scene-linear light: the default curve is linear */
    const mp_sink_ops *ops;         /* the sink (raw: write_frame, RGB: write_rgb); frames
                                     * in order unless ops->concurrent_frames */
} mp_format;

/* The table holds at most this many (the public API mirrors it in an array this size). */
#define MP_FORMAT_MAX 32

/* NULL when no format has that name. */
const mp_format *mp_format_find(const char *name);
/* The i-th format in --help order (dng first, the default), NULL past the last. */
const mp_format *mp_format_at(size_t i);
/* The sink of the format of that name, or "wav" (beside a sequence only); NULL if none. */
const mp_sink_ops *mp_sink_find(const char *name);

#endif
