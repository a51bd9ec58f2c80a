#include "movie/av_audio.h"

#include <stdlib.h>
#include <string.h>

/* Silence never prepended beyond this: a start offset of a day means broken timestamps. */
#define MAX_PAD_SECONDS 86400
/* Packets of at most this many sample frames (a frame's worth is usually less). */
#define MAX_PACKET_SAMPLES 8192

int64_t mp_av_audio_frame_start(uint64_t frame, uint32_t rate, AVRational fps)
{
    __int128 num = (__int128)frame * rate * fps.den;
    return (int64_t)((2 * num + fps.num) / (2 * (__int128)fps.num));
}

mp_status mp_av_audio_init(mp_av_audio *a, const mp_audio_format *fmt, AVRational fps,
                        uint64_t first_frame, int64_t offset, mp_error *err)
{
    memset(a, 0, sizeof *a);
    a->rate = fmt->sample_rate;
    a->block_align = (uint32_t)fmt->channels * fmt->bits_per_sample / 8;
    a->silence_byte = fmt->bits_per_sample == 8 ? 0x80 : 0;
    a->fps = fps;
    a->pts = mp_av_audio_frame_start(first_frame, a->rate, fps);
    if (offset < -(int64_t)MAX_PAD_SECONDS * a->rate)
        return mp_error_set(err, MP_ERR_ARG, "audio starts %lld samples after the video",
                            (long long)-offset);
    if (offset < 0)
        a->silence = (uint64_t)-offset;
    else
        a->drop_bytes = (uint64_t)offset > UINT64_MAX / a->block_align
                            ? UINT64_MAX : (uint64_t)offset * a->block_align;
    return MP_OK;
}

mp_status mp_av_audio_push(mp_av_audio *a, const void *pcm, size_t bytes, mp_error *err)
{
    const uint8_t *p = pcm;
    size_t drop = a->drop_bytes < bytes ? (size_t)a->drop_bytes : bytes;
    a->drop_bytes -= drop;
    p += drop;
    bytes -= drop;
    if (!bytes)
        return MP_OK;
    if (a->head && a->tail + bytes > a->capacity) {
        memmove(a->fifo, a->fifo + a->head, a->tail - a->head);
        a->tail -= a->head;
        a->head = 0;
    }
    if (a->tail + bytes > a->capacity) {
        size_t cap = a->capacity ? a->capacity : 65536;
        while (cap < a->tail + bytes) {
            if (cap > SIZE_MAX / 2)
                return mp_error_set(err, MP_ERR_NOMEM, "audio buffer of %zu bytes",
                                    a->tail + bytes);
            cap *= 2;
        }
        uint8_t *grown = realloc(a->fifo, cap);
        if (!grown)
            return mp_error_set(err, MP_ERR_NOMEM, "audio buffer of %zu bytes", cap);
        a->fifo = grown;
        a->capacity = cap;
    }
    memcpy(a->fifo + a->tail, p, bytes);
    a->tail += bytes;
    return MP_OK;
}

static mp_status emit_silence(mp_av_audio *a, uint64_t samples, mp_av_audio_emit_fn emit,
                              void *opaque, mp_error *err)
{
    uint8_t zero[4096];
    memset(zero, a->silence_byte, sizeof zero);
    uint64_t per_packet = sizeof zero / a->block_align;
    while (samples) {
        uint64_t n = samples < per_packet ? samples : per_packet;
        mp_status st = emit(opaque, zero, (size_t)n * a->block_align, a->pts, (uint32_t)n, err);
        if (st != MP_OK)
            return st;
        a->pts += (int64_t)n;
        samples -= n;
    }
    return MP_OK;
}

mp_status mp_av_audio_emit(mp_av_audio *a, uint64_t end_frame, int pad, mp_av_audio_emit_fn emit,
                        void *opaque, mp_error *err)
{
    int64_t end = mp_av_audio_frame_start(end_frame, a->rate, a->fps);
    mp_status st = MP_OK;
    while (st == MP_OK && a->pts < end) {
        uint64_t want = (uint64_t)(end - a->pts);
        if (a->silence) {
            uint64_t n = a->silence < want ? a->silence : want;
            a->silence -= n;
            st = emit_silence(a, n, emit, opaque, err);
            continue;
        }
        uint64_t have = (a->tail - a->head) / a->block_align;
        if (!have) {
            if (pad)
                st = emit_silence(a, want, emit, opaque, err);
            break;
        }
        uint64_t n = have < want ? have : want;
        if (n > MAX_PACKET_SAMPLES)
            n = MAX_PACKET_SAMPLES;
        size_t bytes = (size_t)n * a->block_align;
        st = emit(opaque, a->fifo + a->head, bytes, a->pts, (uint32_t)n, err);
        a->head += bytes;
        a->pts += (int64_t)n;
    }
    if (a->head == a->tail)
        a->head = a->tail = 0;
    return st;
}

void mp_av_audio_free(mp_av_audio *a)
{
    free(a->fifo);
    a->fifo = NULL;
    a->head = a->tail = a->capacity = 0;
}
