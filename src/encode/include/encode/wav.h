/* encode/wav: the clip's audio as a Broadcast WAVE file with bext and iXML chunks, aligned to
 * the first exported video frame (doc/cinemadng.md 5). The "wav" sink takes PCM in stream order
 * (as mp_mlv_read_audio returns it), drops or pads whole sample frames at the start, cuts or pads
 * the end to the exported frames' duration, and writes PATH/<folder>/<name>.wav. */
#ifndef MP_WAV_H
#define MP_WAV_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_meta.h"
#include "common/mp_status.h"
#include "encode/sink.h"

/* Chunk layout: RIFF/WAVE 12, bext 8 + 602 + coding history, iXML 8 + 1024, fmt 8 + 16,
 * data 8 + n. The header size is fixed for a given coding history (see mp_wav_header). */
#define MP_WAV_IXML_SIZE 1024
#define MP_WAV_HEADER_MAX 2048

/* Sample frames to drop from the start of the audio (> 0) or of silence to prepend (< 0) so
 * that it starts with the video frame at video_start_us: the timestamp difference at the
 * sample rate, rounded to the nearest whole sample frame. */
int64_t mp_audio_align(uint64_t audio_start_us, uint64_t video_start_us, uint32_t rate);

/* mp_audio_align plus the offset of params.first_frame from params.clip_first_frame at fps. */
int64_t mp_wav_start_offset(const mp_sink_params *p, mp_rational fps);

/* Sample frames the WAV holds: params.frame_count frames at fps (0 when frame_count is 0). */
uint64_t mp_wav_length(const mp_sink_params *p, mp_rational fps);

/* bext TimeReference: samples since midnight of the first exported frame's time code, on the
 * same timeline as the DNG TimeCodes (timecode.h). */
uint64_t mp_wav_time_reference(const mp_sink_params *p, mp_rational fps);

/* Validates params.audio (integer PCM, 8/16/24/32 bits, 1-64 channels, sane rate). */
mp_status mp_wav_check_format(const mp_audio_format *a, mp_error *err);

/* Writes the header for data_bytes of PCM into out (MP_WAV_HEADER_MAX bytes); returns its
 * size. The data chunk starts right after it. */
size_t mp_wav_header(const mp_sink_params *p, mp_rational fps, uint64_t data_bytes,
                     uint8_t *out);

/* The WAV file the "wav" sink writes from all of params.audio_bytes of PCM (read through
 * params.read_audio), for params.frame_count frames: its exact size, and n of its bytes from
 * offset into buf (wav_file.c; for readers that want a part without the file). */
mp_status mp_wav_file_size(const mp_sink_params *p, uint64_t *size, mp_error *err);
mp_status mp_wav_file_read(const mp_sink_params *p, uint64_t offset, uint8_t *buf, size_t n,
                           mp_error *err);

#endif
