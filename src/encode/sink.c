#include "encode/sink.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

extern const mp_sink_ops mp_sink_dng, mp_sink_wav, mp_sink_md5, mp_sink_null;

static const mp_sink_ops *const sink_formats[] = {&mp_sink_dng, &mp_sink_wav, &mp_sink_md5,
                                                  &mp_sink_null};

struct mp_sink {
    const mp_sink_ops *ops;
    void *priv;
    atomic_uint_fast64_t frames, audio_bytes;
};

const mp_sink_ops *mp_sink_find(const char *name)
{
    for (size_t i = 0; i < sizeof sink_formats / sizeof sink_formats[0]; i++)
        if (!strcmp(sink_formats[i]->name, name))
            return sink_formats[i];
    return NULL;
}

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
    mp_status st = s->ops->finish(s->priv, err);
    free(s->priv);
    free(s);
    return st;
}

void mp_sink_abort(mp_sink *s)
{
    if (!s)
        return;
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
