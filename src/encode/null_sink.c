/* The "null" sink: accepts and discards everything (benchmarks, dry runs); the generic layer
 * still counts frames and audio bytes. */
#include "encode/sink.h"

static mp_status null_open(void *priv, const char *path, const mp_sink_params *p, mp_error *err)
{
    (void)priv;
    (void)path;
    (void)p;
    (void)err;
    return MP_OK;
}

static mp_status null_write_frame(void *priv, const mp_frame *f, const mp_frame_meta *m,
                                  mp_error *err)
{
    (void)priv;
    (void)m;
    if (!f->data || !f->width || !f->height)
        return mp_error_set(err, MP_ERR_ARG, "frame %u is empty", f->number);
    return MP_OK;
}

static mp_status null_write_audio(void *priv, const void *pcm, size_t bytes, mp_error *err)
{
    (void)priv;
    (void)pcm;
    (void)bytes;
    (void)err;
    return MP_OK;
}

static mp_status null_finish(void *priv, mp_error *err)
{
    (void)priv;
    (void)err;
    return MP_OK;
}

static void null_abort(void *priv)
{
    (void)priv;
}

const mp_sink_ops mp_sink_null = {
    .name = "null",
    .priv_size = 1,
    .concurrent_frames = 1,
    .open = null_open,
    .write_frame = null_write_frame,
    .write_audio = null_write_audio,
    .finish = null_finish,
    .abort = null_abort,
};
