/* movie/av_audio: the movie's PCM track, aligned to the video and cut into packets as the
 * video advances (av_sink.h describes the rules). Pure bookkeeping: packets go out through a
 * callback, so the sink decides how they are muxed. */
#ifndef MP_AV_AUDIO_H
#define MP_AV_AUDIO_H

#include <stddef.h>
#include <stdint.h>

#include <libavutil/rational.h>

#include "common/mp_meta.h"
#include "common/mp_status.h"

typedef mp_status (*mp_av_audio_emit_fn)(void *opaque, const uint8_t *data, size_t bytes,
                                      int64_t pts, uint32_t samples, mp_error *err);

typedef struct mp_av_audio {
    uint32_t rate, block_align;
    uint8_t silence_byte;      /* 8-bit PCM is unsigned: silence is 0x80 */
    AVRational fps;
    int64_t pts;               /* sample position of the next packet */
    uint64_t drop_bytes;       /* still to drop from the pushed stream */
    uint64_t silence;          /* sample frames of silence still due before the stream */
    uint8_t *fifo;             /* pushed bytes [head, tail) not yet emitted */
    size_t head, tail, capacity;
} mp_av_audio;

/* Sample position at which frame `frame` starts: round(frame * rate * fps.den / fps.num). */
int64_t mp_av_audio_frame_start(uint64_t frame, uint32_t rate, AVRational fps);

/* fmt must pass mp_wav_check_format. offset as mp_av_sink_params.audio_offset. */
mp_status mp_av_audio_init(mp_av_audio *a, const mp_audio_format *fmt, AVRational fps,
                        uint64_t first_frame, int64_t offset, mp_error *err);
mp_status mp_av_audio_push(mp_av_audio *a, const void *pcm, size_t bytes, mp_error *err);
/* Emits packets up to the start of frame end_frame: what the FIFO holds, or with pad silence
 * for what it lacks. */
mp_status mp_av_audio_emit(mp_av_audio *a, uint64_t end_frame, int pad, mp_av_audio_emit_fn emit,
                        void *opaque, mp_error *err);
void mp_av_audio_free(mp_av_audio *a);

#endif
