#include "movie.h"

#include <stdlib.h>
#include <string.h>

#include "encode/av/color_tags.h"
#include "encode/timecode.h"
#include "encode/wav.h"

#define AUDIO_READ_MAX (1u << 20)

struct mp_movie {
    av_sink *sink;
    develop_context *dev;
    const mlv_clip *clip;
    uint32_t first, end;         /* absolute frame numbers [first, end) */
    uint32_t crop_top, crop_left; /* the picture is the active area (mp_raw_active_area) */
    uint32_t next;               /* next number expected */
    uint64_t written;            /* pictures given to the sink */
    uint32_t pending;            /* lost frames before the first picture */
    develop_rgb last;            /* copy of the last picture, to fill lost frames */
    int have_last;
    /* audio */
    uint64_t audio_total, audio_pushed;
    uint32_t rate, block_align;
    int64_t audio_offset;        /* sample frames dropped (> 0) or padded (< 0) by the sink */
    mp_rational fps;
    uint8_t *audio_buf;
};

/* Pushes the clip's PCM up to one second past the end of the pictures written so far: the
 * sink muxes it as the video reaches it, and never holds more than that. */
static mp_status push_audio(mp_movie *m, mp_error *err)
{
    if (!m->audio_buf)
        return MP_OK;
    uint64_t samples = (m->written * m->rate * (uint64_t)m->fps.den + m->fps.num - 1) /
                       (uint64_t)m->fps.num;
    int64_t need = (int64_t)samples + m->audio_offset + m->rate;
    uint64_t target = need <= 0 ? 0 : (uint64_t)need * m->block_align;
    if (target > m->audio_total)
        target = m->audio_total;
    while (m->audio_pushed < target) {
        size_t n = target - m->audio_pushed < AUDIO_READ_MAX ? target - m->audio_pushed
                                                             : AUDIO_READ_MAX;
        mp_status st = mlv_read_audio(m->clip, m->audio_pushed, m->audio_buf, n, err);
        if (st == MP_OK)
            st = av_sink_write_audio(m->sink, m->audio_buf, n, err);
        if (st != MP_OK)
            return st;
        m->audio_pushed += n;
    }
    return MP_OK;
}

static mp_status emit(mp_movie *m, const develop_rgb *rgb, uint32_t times, mp_error *err)
{
    size_t corner = (size_t)m->crop_top * rgb->width + m->crop_left;
    const uint16_t *const planes[3] = {rgb->plane[0] + corner, rgb->plane[1] + corner,
                                       rgb->plane[2] + corner};
    for (uint32_t i = 0; i < times; i++) {
        mp_status st = av_sink_write_rgb(m->sink, planes, rgb->width, m->first + m->written,
                                         err);
        if (st != MP_OK)
            return st;
        m->written++;
        if ((st = push_audio(m, err)) != MP_OK)
            return st;
    }
    return MP_OK;
}

static mp_status keep_last(mp_movie *m, const develop_rgb *rgb, mp_error *err)
{
    size_t n = (size_t)rgb->width * rgb->height;
    if (m->last.capacity < 3 * n) {
        uint16_t *p = realloc(m->last.plane[0], 3 * n * sizeof *p);
        if (!p)
            return mp_error_set(err, MP_ERR_NOMEM, "movie: out of memory");
        m->last.plane[0] = p;
        m->last.capacity = 3 * n;
    }
    m->last.plane[1] = m->last.plane[0] + n;
    m->last.plane[2] = m->last.plane[0] + 2 * n;
    for (int c = 0; c < 3; c++)
        memcpy(m->last.plane[c], rgb->plane[c], n * sizeof *rgb->plane[c]);
    m->last.width = rgb->width;
    m->last.height = rgb->height;
    m->have_last = 1;
    return MP_OK;
}

mp_status mp_movie_open(mp_movie **out, const char *path, av_sink_kind kind,
                        const develop_params *dp, const mp_sink_params *p,
                        const mlv_clip *clip, int with_audio, uint32_t encoder_threads,
                        mp_error *err)
{
    *out = NULL;
    const mlv_clip_info *info = mlv_clip_get_info(clip);
    mp_movie *m = calloc(1, sizeof *m);
    if (!m)
        return mp_error_set(err, MP_ERR_NOMEM, "movie: out of memory");
    m->clip = clip;
    m->first = m->next = p->first_frame;
    m->end = p->first_frame + p->frame_count;

    mp_status st = mp_sink_fps(p, &m->fps, err);
    if (st == MP_OK)
        st = develop_context_create(dp, &info->raw, &info->white_balance, &m->dev, err);
    if (st != MP_OK) {
        mp_movie_abort(m);
        return st;
    }
    const mp_color_tags color = mp_color_tags_for(dp->gamut, dp->curve);
    av_sink_params ap;
    av_sink_params_default(&ap);
    ap.kind = kind;
    uint32_t area[4];
    mp_raw_active_area(&info->raw, info->raw.width, info->raw.height, area);
    m->crop_top = area[0];
    m->crop_left = area[1];
    /* Even sizes: ProRes 4:2:2 needs them, and so do most 4:2:0 readers downstream. */
    ap.width = (area[3] - area[1]) & ~1u;
    ap.height = (area[2] - area[0]) & ~1u;
    ap.fps_num = m->fps.num;
    ap.fps_den = m->fps.den;
    ap.first_frame = p->first_frame;
    ap.timecode_frames = (int64_t)(mp_timecode_base(p, m->fps) + p->first_frame);
    ap.timecode_drop_frame = p->timecode_drop_frame;
    ap.primaries = color.primaries;
    ap.transfer = color.transfer;
    ap.yuv_matrix = color.yuv_matrix;
    ap.threads = (int)encoder_threads;
    ap.overwrite = p->overwrite;
    ap.log = p->log;
    if (with_audio && info->audio.present && info->audio_bytes) {
        ap.audio = info->audio;
        ap.audio_offset = mp_wav_start_offset(p, m->fps);
        m->audio_offset = ap.audio_offset;
        m->audio_total = info->audio_bytes;
        m->rate = info->audio.sample_rate;
        m->block_align = (uint32_t)info->audio.channels * info->audio.bits_per_sample / 8;
        if (!(m->audio_buf = malloc(AUDIO_READ_MAX))) {
            mp_movie_abort(m);
            return mp_error_set(err, MP_ERR_NOMEM, "movie: out of memory");
        }
    }
    if ((st = av_sink_open(&m->sink, path, &ap, err)) == MP_OK)
        st = push_audio(m, err);
    if (st != MP_OK) {
        mp_movie_abort(m);
        return st;
    }
    *out = m;
    return MP_OK;
}

mp_status mp_movie_develop(const mp_movie *m, const mp_frame *f, develop_workspace *ws,
                           develop_rgb *out, mp_error *err)
{
    return develop_frame(m->dev, f, ws, out, err);
}

mp_status mp_movie_write(mp_movie *m, uint32_t number, const develop_rgb *rgb, mp_error *err)
{
    if (number < m->next || number >= m->end)
        return mp_error_set(err, MP_ERR_ARG, "movie: frame %u out of order (expected %u-%u)",
                            number, m->next, m->end - 1);
    uint32_t gap = number - m->next;
    m->next = number + 1;
    mp_status st;
    if (!rgb) {
        if (!m->have_last) {
            m->pending += gap + 1;
            return MP_OK;
        }
        return emit(m, &m->last, gap + 1, err);
    }
    if (m->have_last)
        st = emit(m, &m->last, gap, err);
    else
        st = emit(m, rgb, m->pending + gap, err);   /* nothing earlier: hold this picture */
    m->pending = 0;
    if (st == MP_OK)
        st = emit(m, rgb, 1, err);
    if (st == MP_OK)
        st = keep_last(m, rgb, err);
    return st;
}

mp_status mp_movie_finish(mp_movie *m, mp_error *err)
{
    mp_status st = MP_OK;
    if (!m->have_last)
        st = mp_error_set(err, MP_ERR_DAMAGED, "movie: no frame of %u-%u could be decoded",
                          m->first, m->end - 1);
    else if (m->next < m->end)
        st = emit(m, &m->last, m->end - m->next, err);
    if (st != MP_OK) {
        mp_movie_abort(m);
        return st;
    }
    st = av_sink_finish(m->sink, err);
    m->sink = NULL;
    mp_movie_abort(m);
    return st;
}

void mp_movie_abort(mp_movie *m)
{
    if (!m)
        return;
    av_sink_abort(m->sink);
    develop_context_free(m->dev);
    free(m->last.plane[0]);
    free(m->audio_buf);
    free(m);
}
