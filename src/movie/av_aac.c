#include "movie/av_aac.h"

#include <string.h>

#include "movie/av_load.h"

#define BITRATE_PER_CHANNEL 96000   /* transparent for review at 48 kHz, ~2x Apple's minimum */

static mp_status fail(int r, const char *what, mp_error *err)
{
    char reason[AV_ERROR_MAX_STRING_SIZE];
    mp_libav.av_strerror(r, reason, sizeof reason);
    return mp_error_set(err, r == AVERROR(ENOMEM) ? MP_ERR_NOMEM : MP_ERR_IO, "aac: %s: %s",
                        what, reason);
}

mp_status mp_av_aac_open(mp_av_aac *a, const mp_audio_format *fmt, int global_header,
                         mp_error *err)
{
    memset(a, 0, sizeof *a);
    const AVCodec *codec = mp_libav.avcodec_find_encoder_by_name("aac");
    if (!codec)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "libavcodec has no aac encoder");
    a->channels = fmt->channels;
    a->bits = fmt->bits_per_sample;
    a->block_align = a->channels * a->bits / 8;
    AVCodecContext *c = a->ctx = mp_libav.avcodec_alloc_context3(codec);
    a->frame = mp_libav.av_frame_alloc();
    a->pkt = mp_libav.av_packet_alloc();
    if (!c || !a->frame || !a->pkt) {
        mp_av_aac_free(a);
        return mp_error_set(err, MP_ERR_NOMEM, "aac: out of memory");
    }
    c->sample_fmt = AV_SAMPLE_FMT_FLTP;
    c->sample_rate = (int)fmt->sample_rate;
    mp_libav.av_channel_layout_default(&c->ch_layout, (int)fmt->channels);
    c->bit_rate = (int64_t)BITRATE_PER_CHANNEL * fmt->channels;
    c->time_base = (AVRational){1, (int)fmt->sample_rate};
    c->flags |= AV_CODEC_FLAG_BITEXACT;
    if (global_header)
        c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    int r = mp_libav.avcodec_open2(c, codec, NULL);
    if (r >= 0) {
        a->frame->format = AV_SAMPLE_FMT_FLTP;
        a->frame->nb_samples = c->frame_size;
        a->frame->sample_rate = c->sample_rate;
        mp_libav.av_channel_layout_default(&a->frame->ch_layout, (int)fmt->channels);
        r = mp_libav.av_frame_get_buffer(a->frame, 0);
    }
    if (r < 0) {
        mp_av_aac_free(a);
        return fail(r, "opening the encoder", err);
    }
    return MP_OK;
}

static float sample_at(const uint8_t *p, uint32_t bits)
{
    switch (bits) {
    case 8: return (p[0] - 128) / 128.0f;
    case 16: return (int16_t)(p[0] | p[1] << 8) / 32768.0f;
    case 24: return (float)((int32_t)((uint32_t)p[0] << 8 | (uint32_t)p[1] << 16 |
                                      (uint32_t)p[2] << 24) / 256) / 8388608.0f;
    default:
        return (float)((double)(int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
                                         (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24) /
                       2147483648.0);
    }
}

/* What the encoder has ready, to fn. */
static mp_status drain(mp_av_aac *a, mp_av_aac_packet_fn fn, void *opaque, mp_error *err)
{
    for (;;) {
        int r = mp_libav.avcodec_receive_packet(a->ctx, a->pkt);
        if (r == AVERROR(EAGAIN) || r == AVERROR_EOF)
            return MP_OK;
        if (r < 0)
            return fail(r, "encoding", err);
        mp_status st = fn(opaque, a->pkt, err);
        mp_libav.av_packet_unref(a->pkt);
        if (st != MP_OK)
            return st;
    }
}

static mp_status send(mp_av_aac *a, mp_av_aac_packet_fn fn, void *opaque, mp_error *err)
{
    a->frame->nb_samples = a->filled;
    a->frame->pts = a->next_pts;
    int r = mp_libav.avcodec_send_frame(a->ctx, a->frame);
    if (r < 0)
        return fail(r, "encoding", err);
    a->next_pts += a->filled;
    a->filled = 0;
    return drain(a, fn, opaque, err);
}

mp_status mp_av_aac_push(mp_av_aac *a, const uint8_t *pcm, uint32_t samples, int64_t pts,
                         mp_av_aac_packet_fn fn, void *opaque, mp_error *err)
{
    if (!a->started) {
        a->started = 1;
        a->next_pts = pts;
    }
    const int size = a->ctx->frame_size;
    const uint32_t width = a->bits / 8;
    while (samples) {
        if (!a->filled) {
            int r = mp_libav.av_frame_make_writable(a->frame);
            if (r < 0)
                return fail(r, "frame buffer", err);
        }
        uint32_t n = (uint32_t)(size - a->filled);
        n = n < samples ? n : samples;
        for (uint32_t ch = 0; ch < a->channels; ch++) {
            float *out = (float *)a->frame->extended_data[ch] + a->filled;
            const uint8_t *in = pcm + (size_t)ch * width;
            for (uint32_t i = 0; i < n; i++)
                out[i] = sample_at(in + (size_t)i * a->block_align, a->bits);
        }
        a->filled += (int)n;
        pcm += (size_t)n * a->block_align;
        samples -= n;
        if (a->filled == size) {
            mp_status st = send(a, fn, opaque, err);
            if (st != MP_OK)
                return st;
        }
    }
    return MP_OK;
}

mp_status mp_av_aac_flush(mp_av_aac *a, mp_av_aac_packet_fn fn, void *opaque, mp_error *err)
{
    mp_status st = a->filled ? send(a, fn, opaque, err) : MP_OK;
    if (st != MP_OK)
        return st;
    int r = mp_libav.avcodec_send_frame(a->ctx, NULL);
    if (r < 0)
        return fail(r, "draining", err);
    return drain(a, fn, opaque, err);
}

void mp_av_aac_free(mp_av_aac *a)
{
    if (a->ctx)
        mp_libav.avcodec_free_context(&a->ctx);
    if (a->frame)
        mp_libav.av_frame_free(&a->frame);
    if (a->pkt)
        mp_libav.av_packet_free(&a->pkt);
}
