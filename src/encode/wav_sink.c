/* The "wav" sink: aligns the PCM stream to the first exported frame while it arrives and
 * writes PATH/<folder>/<name>.wav through a temporary file. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "encode/naming.h"
#include "common/out_file.h"
#include "encode/timecode.h"
#include "encode/wav.h"

/* Silence never prepended beyond this: a start offset of a day means broken timestamps. */
#define MAX_PAD_SECONDS 86400

typedef struct wav_sink {
    mp_sink_params p;
    mp_rational fps;
    mp_out_file out;
    uint32_t block_align;
    size_t header_size;
    uint64_t skip_bytes;    /* still to drop from the start of the stream */
    uint64_t limit_bytes;   /* data bytes the file holds at most; UINT64_MAX: no limit */
    uint64_t data_bytes;    /* written so far */
} wav_sink;

static mp_status write_silence(wav_sink *s, uint64_t bytes, mp_error *err)
{
    uint8_t zero[4096];
    /* 8-bit WAV samples are unsigned: silence is 0x80. */
    memset(zero, s->p.audio.bits_per_sample == 8 ? 0x80 : 0, sizeof zero);
    while (bytes) {
        size_t n = bytes < sizeof zero ? (size_t)bytes : sizeof zero;
        mp_status st = mp_out_write(&s->out, zero, n, err);
        if (st != MP_OK)
            return st;
        s->data_bytes += n;
        bytes -= n;
    }
    return MP_OK;
}

static mp_status wav_open(void *priv, const char *path, const mp_sink_params *p, mp_error *err)
{
    wav_sink *s = priv;
    s->p = *p;
    s->out.fd = -1;
    mp_status st = mp_naming_check(p, err);
    if (st == MP_OK)
        st = mp_wav_check_format(&p->audio, err);
    if (st == MP_OK)
        st = mp_sink_fps(p, &s->fps, err);
    if (st != MP_OK)
        return st;
    s->block_align = (uint32_t)p->audio.channels * p->audio.bits_per_sample / 8;
    int64_t offset = mp_wav_start_offset(p, s->fps);
    if (offset < -(int64_t)MAX_PAD_SECONDS * p->audio.sample_rate)
        return mp_error_set(err, MP_ERR_ARG, "%s: audio starts %lld samples after the video",
                            p->clip_name, (long long)-offset);
    s->skip_bytes = offset > 0 ? (uint64_t)offset * s->block_align : 0;
    mp_log(&p->log, MP_LOG_DEBUG, "%s: audio %s %lld sample frames to start with frame %u",
           p->clip_name, offset > 0 ? "drops" : "is padded with", (long long)llabs(offset),
           p->first_frame);
    s->limit_bytes = p->frame_count ? mp_wav_length(p, s->fps) * s->block_align : UINT64_MAX;

    char folder[PATH_MAX], name[MP_NAME_MAX], file[PATH_MAX];
    mp_name_folder(p, name);
    if (path && *path && (st = mp_make_dir(path, err)) != MP_OK)
        return st;
    if ((st = mp_path_join(folder, sizeof folder, path, name, err)) != MP_OK ||
        (st = mp_make_dir(folder, err)) != MP_OK)
        return st;
    mp_name_audio(p, name);
    if ((st = mp_path_join(file, sizeof file, folder, name, err)) != MP_OK ||
        (st = mp_out_open(&s->out, file, p->overwrite, err)) != MP_OK)
        return st;

    uint8_t header[MP_WAV_HEADER_MAX];
    s->header_size = mp_wav_header(p, s->fps, 0, header);
    st = mp_out_write(&s->out, header, s->header_size, err);
    if (st == MP_OK && offset < 0) {
        uint64_t pad = (uint64_t)-offset * s->block_align;
        st = write_silence(s, pad < s->limit_bytes ? pad : s->limit_bytes, err);
    }
    if (st != MP_OK)
        mp_out_abort(&s->out);
    return st;
}

static mp_status wav_write_audio(void *priv, const void *pcm, size_t bytes, mp_error *err)
{
    wav_sink *s = priv;
    const uint8_t *p = pcm;
    uint64_t skip = s->skip_bytes < bytes ? s->skip_bytes : bytes;
    s->skip_bytes -= skip;
    p += skip;
    bytes -= (size_t)skip;
    uint64_t room = s->limit_bytes - s->data_bytes;
    if (bytes > room)
        bytes = (size_t)room;
    if (s->header_size + s->data_bytes + bytes > UINT32_MAX)
        return mp_error_set(err, MP_ERR_RANGE, "%s: audio exceeds the 4 GiB WAV limit",
                            s->out.final_path);
    mp_status st = mp_out_write(&s->out, p, bytes, err);
    if (st == MP_OK)
        s->data_bytes += bytes;
    return st;
}

static mp_status wav_finish(void *priv, mp_error *err)
{
    wav_sink *s = priv;
    mp_status st = MP_OK;
    /* Exact length: silence up to the exported frames' duration. */
    if (s->limit_bytes != UINT64_MAX && s->data_bytes < s->limit_bytes) {
        mp_log(&s->p.log, MP_LOG_INFO, "%s: audio ends %llu sample frames before the video; "
               "padded with silence", s->p.clip_name,
               (unsigned long long)((s->limit_bytes - s->data_bytes) / s->block_align));
        st = write_silence(s, s->limit_bytes - s->data_bytes, err);
    }
    /* Only whole sample frames: a partial one would shift the channels. */
    uint64_t data = s->data_bytes - s->data_bytes % s->block_align;
    uint8_t header[MP_WAV_HEADER_MAX];
    mp_wav_header(&s->p, s->fps, data, header);
    if (st == MP_OK)
        st = mp_out_pwrite(&s->out, header, s->header_size, 0, err);
    uint64_t end = s->header_size + data;
    if (st == MP_OK && (data & 1)) {
        static const uint8_t pad = 0;   /* RIFF chunks have even sizes */
        st = mp_out_pwrite(&s->out, &pad, 1, end++, err);
    }
    if (st == MP_OK && ftruncate(s->out.fd, (off_t)end) != 0)
        st = mp_error_set(err, MP_ERR_IO, "%s: truncate failed: %s", s->out.final_path,
                          strerror(errno));
    if (st == MP_OK)
        return mp_out_commit(&s->out, s->p.fsync, err);
    mp_out_abort(&s->out);
    return st;
}

static void wav_abort(void *priv)
{
    wav_sink *s = priv;
    mp_out_abort(&s->out);
}

const mp_sink_ops mp_sink_wav = {
    .name = "wav",
    .priv_size = sizeof(wav_sink),
    .open = wav_open,
    .write_audio = wav_write_audio,
    .finish = wav_finish,
    .abort = wav_abort,
};
