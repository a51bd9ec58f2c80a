#include "encode/md5.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/out_file.h"
#include "encode/sink.h"

static void to_hex(const uint8_t d[16], char hex[33])
{
    for (int i = 0; i < 16; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

mp_status mp_frame_md5(const mp_frame *f, char hex[33], mp_error *err)
{
    (void)err;
    mp_md5 ctx;
    mp_md5_init(&ctx);
    /* Byte order fixed to little-endian so digests match on every host. */
    uint8_t buf[4096];
    size_t n = (size_t)f->width * f->height, i = 0;
    while (i < n) {
        size_t k = 0;
        for (; k < sizeof buf / 2 && i < n; k++, i++) {
            buf[2 * k] = (uint8_t)f->data[i];
            buf[2 * k + 1] = (uint8_t)(f->data[i] >> 8);
        }
        mp_md5_update(&ctx, buf, 2 * k);
    }
    uint8_t d[16];
    mp_md5_final(&ctx, d);
    to_hex(d, hex);
    return MP_OK;
}

/* The sink collects its lines in memory and writes the file once, at finish. */
typedef struct md5_sink {
    char path[4096];
    int has_path, overwrite, fsync;
    char *text;
    size_t len, cap;
    int has_audio;
    mp_md5 audio;
} md5_sink;

static mp_status append(md5_sink *s, const char *line, mp_error *err)
{
    size_t n = strlen(line);
    if (s->len + n + 1 > s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4096;
        while (cap < s->len + n + 1)
            cap *= 2;
        char *t = realloc(s->text, cap);
        if (!t)
            return mp_error_set(err, MP_ERR_NOMEM, "md5: out of memory");
        s->text = t;
        s->cap = cap;
    }
    memcpy(s->text + s->len, line, n + 1);
    s->len += n;
    return MP_OK;
}

static mp_status md5_open(void *priv, const char *path, const mp_sink_params *p, mp_error *err)
{
    md5_sink *s = priv;
    s->overwrite = p->overwrite;
    s->fsync = p->fsync;
    if (path) {
        if (snprintf(s->path, sizeof s->path, "%s", path) >= (int)sizeof s->path)
            return mp_error_set(err, MP_ERR_ARG, "%s: path too long", path);
        s->has_path = 1;
    }
    return MP_OK;
}

static mp_status md5_write_frame(void *priv, const mp_frame *f, const mp_frame_meta *m,
                                 mp_error *err)
{
    (void)m;
    md5_sink *s = priv;
    char hex[33], line[64];
    mp_status st = mp_frame_md5(f, hex, err);
    if (st != MP_OK)
        return st;
    snprintf(line, sizeof line, "%u %s\n", f->number, hex);
    return append(s, line, err);
}

static mp_status md5_write_audio(void *priv, const void *pcm, size_t bytes, mp_error *err)
{
    md5_sink *s = priv;
    (void)err;
    if (!s->has_audio) {
        mp_md5_init(&s->audio);
        s->has_audio = 1;
    }
    mp_md5_update(&s->audio, pcm, bytes);
    return MP_OK;
}

static void md5_free(md5_sink *s)
{
    free(s->text);
    s->text = NULL;
    s->has_audio = 0;
}

static mp_status md5_finish(void *priv, mp_error *err)
{
    md5_sink *s = priv;
    mp_status st = MP_OK;
    if (s->has_audio) {
        uint8_t d[16];
        char hex[33], line[64];
        mp_md5_final(&s->audio, d);
        to_hex(d, hex);
        snprintf(line, sizeof line, "audio %s\n", hex);
        st = append(s, line, err);
    }
    if (st == MP_OK && s->has_path)
        st = mp_out_write_file(s->path, s->text ? s->text : "", s->len, s->overwrite, s->fsync,
                               err);
    md5_free(s);
    return st;
}

static void md5_abort(void *priv)
{
    md5_free(priv);
}

const mp_sink_ops mp_sink_md5 = {
    .name = "md5",
    .priv_size = sizeof(md5_sink),
    .open = md5_open,
    .write_frame = md5_write_frame,
    .write_audio = md5_write_audio,
    .finish = md5_finish,
    .abort = md5_abort,
};
