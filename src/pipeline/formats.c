#include "pipeline/formats.h"

#include <string.h>

extern const mp_sink_ops mp_sink_wav, mp_sink_dng, mp_sink_tiff, mp_sink_exr, mp_sink_md5, mp_sink_null,
    mp_sink_prores422hq, mp_sink_prores4444, mp_sink_prores422, mp_sink_prores422lt,
    mp_sink_prores422proxy, mp_sink_dnxhrhq, mp_sink_dnxhrhqx, mp_sink_dnxhr444, mp_sink_ffv1,
    mp_sink_nut, mp_sink_rawvideo, mp_sink_h264, mp_sink_h265, mp_sink_movraw;

/* Movies in MOV: one file, seekable output only, joinable, PCM muxed. */
#define MOV_ROW(id, text, is_prores)                                                           \
    {.name = #id, .summary = text, .input = MP_INPUT_RGB, .container = "MOV",                  \
     .extension = "mov", .sequence = 0, .to_stdout = 0, .joinable = 1,                         \
     .audio = MP_AUDIO_MUXED, .prores = is_prores, .ops = &mp_sink_##id}

static const mp_format formats[] = {
    {.name = "dng", .summary = "CinemaDNG sequence in DIR/NAME/ (+ NAME.wav)",
     .input = MP_INPUT_RAW, .container = "CinemaDNG", .extension = "dng", .sequence = 1,
     .to_stdout = 0, .joinable = 1, .audio = MP_AUDIO_BESIDE, .ops = &mp_sink_dng},
    {.name = "tiff", .summary = "16-bit RGB TIFF sequence in DIR/NAME/ (+ NAME.wav)",
     .input = MP_INPUT_RGB, .container = "TIFF", .extension = "tiff", .sequence = 1,
     .to_stdout = 0, .joinable = 1, .audio = MP_AUDIO_BESIDE, .ops = &mp_sink_tiff},
    {.name = "exr", .summary = "OpenEXR half-float RGB sequence in DIR/NAME/ (+ NAME.wav)",
     .input = MP_INPUT_RGB, .container = "OpenEXR", .extension = "exr", .sequence = 1,
     .to_stdout = 0, .joinable = 1, .audio = MP_AUDIO_BESIDE, .scene_linear = 1,
     .ops = &mp_sink_exr},
    MOV_ROW(prores422hq, "ProRes 422 HQ in MOV", 1),   /* first: what .mov means without --to */
    MOV_ROW(prores4444, "ProRes 4444 in MOV", 1),
    MOV_ROW(prores422, "ProRes 422 in MOV", 1),
    MOV_ROW(prores422lt, "ProRes 422 LT in MOV", 1),
    MOV_ROW(prores422proxy, "ProRes 422 Proxy in MOV", 1),
    MOV_ROW(dnxhrhq, "DNxHR HQ (8-bit 4:2:2) in MOV, from 256x120 up", 0),
    MOV_ROW(dnxhrhqx, "DNxHR HQX (10-bit 4:2:2) in MOV, from 256x120 up", 0),
    MOV_ROW(dnxhr444, "DNxHR 444 (10-bit 4:4:4) in MOV, from 256x120 up", 0),
    /* Review copies: frames predicted from frames, so farm chunks do not join. */
    {.name = "h264", .summary = "H.264 (8-bit 4:2:0) + AAC in MP4, review copies",
     .input = MP_INPUT_RGB, .container = "MP4", .extension = "mp4", .sequence = 0,
     .to_stdout = 0, .joinable = 0, .audio = MP_AUDIO_MUXED, .ops = &mp_sink_h264},
    {.name = "h265", .summary = "H.265/HEVC (8-bit 4:2:0) + AAC in MP4, review copies",
     .input = MP_INPUT_RGB, .container = "MP4", .extension = "mp4", .sequence = 0,
     .to_stdout = 0, .joinable = 0, .audio = MP_AUDIO_MUXED, .ops = &mp_sink_h265},
    {.name = "ffv1", .summary = "FFV1 (lossless RGB) in Matroska (MKV)",
     .input = MP_INPUT_RGB, .container = "Matroska", .extension = "mkv", .sequence = 0,
     .to_stdout = 1, .joinable = 1, .audio = MP_AUDIO_MUXED, .ops = &mp_sink_ffv1},
    {.name = "nut", .summary = "raw RGB in NUT, for pipes (-o -)",
     .input = MP_INPUT_RGB, .container = "NUT", .extension = "nut", .sequence = 0,
     .to_stdout = 1, .joinable = 1, .audio = MP_AUDIO_MUXED, .ops = &mp_sink_nut},
    {.name = "movraw", .summary = "raw RGB in fragmented MOV, colour tags kept, for pipes (-o -)",
     .input = MP_INPUT_RGB, .container = "MOV", .extension = "mov", .sequence = 0,
     .to_stdout = 1, .joinable = 0, .audio = MP_AUDIO_MUXED, .ops = &mp_sink_movraw},
    {.name = "rawvideo", .summary = "raw rgb48le frames back to back, for pipes (-o -)",
     .input = MP_INPUT_RGB, .container = "none", .extension = NULL, .sequence = 0,
     .to_stdout = 1, .joinable = 0, .audio = MP_AUDIO_NONE, .ops = &mp_sink_rawvideo},
    {.name = "md5", .summary = "a text file of per-frame MD5s (tests)",
     .input = MP_INPUT_RAW, .container = "text", .extension = "md5", .sequence = 0,
     .to_stdout = 0, .joinable = 0, .audio = MP_AUDIO_NONE, .ops = &mp_sink_md5},
    {.name = "null", .summary = "discard the frames (timing)",
     .input = MP_INPUT_RAW, .container = "none", .extension = NULL, .sequence = 0,
     .to_stdout = 0, .joinable = 0, .audio = MP_AUDIO_NONE, .ops = &mp_sink_null},
};
_Static_assert(sizeof formats / sizeof formats[0] <= MP_FORMAT_MAX, "raise MP_FORMAT_MAX");

const mp_format *mp_format_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof formats / sizeof formats[0]; i++)
        if (!strcmp(formats[i].name, name))
            return &formats[i];
    return NULL;
}

const mp_format *mp_format_at(size_t i)
{
    return i < sizeof formats / sizeof formats[0] ? &formats[i] : NULL;
}

const mp_sink_ops *mp_sink_find(const char *name)
{
    const mp_format *f = mp_format_find(name);
    if (f)
        return f->ops;
    return name && !strcmp(name, "wav") ? &mp_sink_wav : NULL;   /* beside a sequence only */
}
