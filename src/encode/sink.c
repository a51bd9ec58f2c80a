#include "encode/sink.h"

#include <stdatomic.h>
#include <stdlib.h>

struct mp_sink {
    const mp_sink_ops *ops;
    void *priv;
    atomic_uint_fast64_t frames, audio_bytes;
};

mp_status mp_sink_open(mp_sink **out, const mp_sink_ops *ops, const char *path,
                       const mp_sink_params *p, mp_error *err)
{
    *out = NULL;
    if (!ops || !p)
        return mp_error_set(err, MP_ERR_ARG, "sink: no format or no parameters");
    mp_sink *s = calloc(1, sizeof *s);
    void *priv = calloc(1, ops->priv_size ? ops->priv_size : 1);
    if (!s || !priv) {
        free(s);
        free(priv);
        return mp_error_set(err, MP_ERR_NOMEM, "sink %s: out of memory", ops->name);
    }
    s->ops = ops;
    s->priv = priv;
    mp_status st = ops->open(priv, path, p, err);
    if (st != MP_OK) {
        free(priv);
        free(s);
        return st;
    }
    *out = s;
    return MP_OK;
}

mp_status mp_sink_write_frame(mp_sink *s, const mp_frame *f, const mp_frame_meta *m,
                              mp_error *err)
{
    if (!s->ops->write_frame)
        return mp_error_set(err, MP_ERR_ARG, "sink %s takes no video", s->ops->name);
    static const mp_frame_meta none;
    mp_status st = s->ops->write_frame(s->priv, f, m ? m : &none, err);
    if (st == MP_OK)
        atomic_fetch_add(&s->frames, 1);
    return st;
}

mp_status mp_sink_write_rgb(mp_sink *s, const mp_rgb_frame *rgb, mp_error *err)
{
    if (!s->ops->write_rgb)
        return mp_error_set(err, MP_ERR_ARG, "sink %s takes no RGB", s->ops->name);
    mp_status st = s->ops->write_rgb(s->priv, rgb, err);
    if (st == MP_OK)
        atomic_fetch_add(&s->frames, 1);
    return st;
}

mp_status mp_sink_encoder_new(mp_sink *s, void **enc, mp_error *err)
{
    *enc = NULL;
    return s->ops->encoder_new ? s->ops->encoder_new(s->priv, enc, err) : MP_OK;
}

void mp_sink_encoder_free(mp_sink *s, void *enc)
{
    if (enc)
        s->ops->encoder_free(enc);
}

mp_status mp_sink_encode_rgb(mp_sink *s, void *enc, const mp_rgb_frame *rgb,
                             mp_sink_unit **unit, mp_error *err)
{
    return s->ops->encode_rgb(s->priv, enc, rgb, unit, err);
}

int mp_sink_takes_rows(mp_sink *s, void *enc)
{
    return enc && s->ops->takes_rows && s->ops->takes_rows(s->priv, enc);
}

mp_status mp_sink_encode_rows(mp_sink *s, void *enc, const mp_rgb_rows *rows,
                              mp_sink_unit **unit, mp_error *err)
{
    return s->ops->encode_rows(s->priv, enc, rows, unit, err);
}

mp_status mp_sink_write_unit(mp_sink *s, mp_sink_unit *unit, mp_error *err)
{
    mp_status st = s->ops->write_unit(s->priv, unit, err);
    if (st == MP_OK)
        atomic_fetch_add(&s->frames, 1);
    return st;
}

void mp_sink_unit_free(mp_sink *s, mp_sink_unit *unit)
{
    if (unit)
        s->ops->unit_free(unit);
}

mp_status mp_sink_skip_frame(mp_sink *s, uint32_t number, mp_error *err)
{
    return s->ops->skip_frame ? s->ops->skip_frame(s->priv, number, err) : MP_OK;
}

mp_status mp_sink_write_audio(mp_sink *s, const void *pcm, size_t bytes, mp_error *err)
{
    if (!s->ops->write_audio)
        return mp_error_set(err, MP_ERR_ARG, "sink %s takes no audio", s->ops->name);
    mp_status st = s->ops->write_audio(s->priv, pcm, bytes, err);
    if (st == MP_OK)
        atomic_fetch_add(&s->audio_bytes, bytes);
    return st;
}

mp_status mp_sink_finish(mp_sink *s, mp_error *err)
{
    mp_status st = s->ops->finish ? s->ops->finish(s->priv, err) : MP_OK;
    free(s->priv);
    free(s);
    return st;
}

void mp_sink_abort(mp_sink *s)
{
    if (!s)
        return;
    if (s->ops->abort)
        s->ops->abort(s->priv);
    free(s->priv);
    free(s);
}

uint64_t mp_sink_frames_written(const mp_sink *s)
{
    return atomic_load(&((mp_sink *)s)->frames);
}

uint64_t mp_sink_audio_bytes_written(const mp_sink *s)
{
    return atomic_load(&((mp_sink *)s)->audio_bytes);
}
