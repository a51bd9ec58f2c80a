/* The movie sinks (prores422hq, prores4444, prores422, prores422lt, prores422proxy, dnxhrhq,
 * dnxhrhqx, dnxhr444, ffv1, nut, rawvideo, movraw, h264, h265): developed RGB frames in frame
 * order to an av sink (av_sink.h). The picture is the active area (mp_raw_active_area) cut to
 * even sizes; a lost frame (dropped by the camera, unreadable, or announced with
 * mp_sink_skip_frame) repeats the previous picture so the stream keeps its frame rate; the
 * clip's audio is pulled through params.read_audio as the video advances, so memory stays
 * bounded for any clip length. The first frame written has PTS = its absolute frame number,
 * so chunks of a clip join with farm/join.h (mlvpipe join). NUT and rawvideo carry no colour
 * tags (rawvideo no size or rate either): opening one logs, at info level (-v), the ffmpeg
 * input options that read it as written. Pictures are encoded on the pipeline's workers
 * (one encoder each, mp_sink_ops.encoder_new) except DNxHR's and FFV1's, which write_rgb
 * encodes (one encoder, slice threads); a lost
 * frame repeats the previous packet (the same bytes a second encoding would give). H.264 and
 * H.265 (review copies) predict frames from frames: one encoder, and a lost frame is the
 * previous picture encoded again. */
#include <stdlib.h>
#include <string.h>

#include "movie/av_sink.h"
#include "movie/color_tags.h"
#include "encode/sink.h"
#include "encode/timecode.h"
#include "encode/wav.h"
#include "movie/av_load.h"

#define AUDIO_READ_MAX (1u << 20)

typedef struct movie {
    mp_av_sink *sink;
    uint32_t first, end;          /* absolute frame numbers [first, end) */
    uint32_t crop_top, crop_left; /* the picture is the active area */
    uint32_t width, height;       /* of the active area, cut to even sizes */
    uint32_t next;                /* next number expected */
    uint64_t written;             /* pictures given to the sink */
    uint32_t pending;             /* lost frames before the first picture */
    AVPacket *last;               /* the last picture's packet, to fill lost frames */
    int review;                   /* H.264/H.265: lost frames encode the last picture again */
    int pictured;                 /* review: a picture was written */
    /* audio */
    mp_status (*read_audio)(void *opaque, uint64_t offset, void *buf, size_t bytes,
                            mp_error *err);
    void *audio_opaque;
    uint64_t audio_total, audio_pushed;
    uint32_t rate, block_align;
    int64_t audio_offset;         /* sample frames dropped (> 0) or padded (< 0) by the sink */
    mp_rational fps;
    uint8_t *audio_buf;
} movie;

/* Pushes the clip's PCM up to one second past the end of the pictures written so far: the
 * sink muxes it as the video reaches it, and never holds more than that. */
static mp_status push_audio(movie *m, mp_error *err)
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
        mp_status st = m->read_audio(m->audio_opaque, m->audio_pushed, m->audio_buf, n, err);
        if (st == MP_OK)
            st = mp_av_sink_write_audio(m->sink, m->audio_buf, n, err);
        if (st != MP_OK)
            return st;
        m->audio_pushed += n;
    }
    return MP_OK;
}

struct mp_sink_unit {
    AVPacket *pkt;
    uint32_t number;
};

static mp_status emit(movie *m, const AVPacket *pkt, uint32_t times, mp_error *err)
{
    for (uint32_t i = 0; i < times; i++) {
        mp_status st = mp_av_sink_write_packet(m->sink, pkt, m->first + m->written, err);
        if (st != MP_OK)
            return st;
        m->written++;
        if ((st = push_audio(m, err)) != MP_OK)
            return st;
    }
    return MP_OK;
}

static void movie_abort(void *priv)
{
    movie *m = priv;
    mp_av_sink_abort(m->sink);
    m->sink = NULL;
    if (m->last)   /* libav may not be loaded: it is only when a sink opened */
        mp_libav.av_packet_free(&m->last);
    free(m->audio_buf);
    m->audio_buf = NULL;
}

static mp_status movie_open(movie *m, const char *path, mp_av_sink_kind kind,
                            const mp_sink_params *p, mp_error *err)
{
    m->first = m->next = p->first_frame;
    m->end = p->first_frame + p->frame_count;
    if (!p->frame_count)
        return mp_error_set(err, MP_ERR_RANGE, "movie: no frame to write");
    mp_status st = mp_sink_fps(p, &m->fps, err);
    if (st != MP_OK)
        return st;
    mp_color_tags color = mp_color_tags_for(p->gamut, p->curve);
    if (p->graded) {   /* the LUT decides what the colour is */
        color.primaries = AVCOL_PRI_UNSPECIFIED;
        color.transfer = AVCOL_TRC_UNSPECIFIED;
    }
    mp_av_sink_params ap;
    mp_av_sink_params_default(&ap);
    ap.kind = kind;
    const mp_raw_info *raw = &p->meta.raw;
    uint32_t area[4];
    mp_raw_active_area(raw, raw->width, raw->height, area);
    m->crop_top = area[0];
    m->crop_left = area[1];
    /* Even sizes: ProRes 4:2:2 needs them, and so do most 4:2:0 readers downstream. */
    ap.width = m->width = (area[3] - area[1]) & ~1u;
    ap.height = m->height = (area[2] - area[0]) & ~1u;
    if (p->pixel_aspect.num > 0 && p->pixel_aspect.den > 0) {
        ap.sar_num = (uint32_t)p->pixel_aspect.num;
        ap.sar_den = (uint32_t)p->pixel_aspect.den;
    }
    ap.fps_num = m->fps.num;
    ap.fps_den = m->fps.den;
    ap.first_frame = p->first_frame;
    ap.timecode_frames = (int64_t)(mp_timecode_base(p, m->fps) + p->first_frame);
    ap.timecode_drop_frame = p->timecode_drop_frame;
    ap.primaries = color.primaries;
    ap.transfer = color.transfer;
    ap.yuv_matrix = color.yuv_matrix;
    ap.threads = (int)p->threads;
    ap.prores_aw = p->prores_aw;
    ap.prores_slice_rc = p->prores_slice_rc;
    ap.overwrite = p->overwrite;
    ap.log = p->log;
    if (p->audio.present && p->audio_bytes && p->read_audio) {
        ap.audio = p->audio;
        ap.audio_offset = mp_wav_start_offset(p, m->fps);
        m->audio_offset = ap.audio_offset;
        m->audio_total = p->audio_bytes;
        m->read_audio = p->read_audio;
        m->audio_opaque = p->audio_opaque;
        m->rate = p->audio.sample_rate;
        m->block_align = (uint32_t)p->audio.channels * p->audio.bits_per_sample / 8;
        if (!(m->audio_buf = malloc(AUDIO_READ_MAX)))
            return mp_error_set(err, MP_ERR_NOMEM, "movie: out of memory");
    }
    char reader[320];
    if (mp_av_sink_reader_options(&ap, reader, sizeof reader) > 0)
        mp_log(&p->log, MP_LOG_INFO, "%s: %s carries no colour tags%s; read it with: ffmpeg %s",
               path, mp_av_sink_kind_name(kind),
               kind == AV_SINK_RAWVIDEO ? ", size or rate" : "", reader);
    if ((st = mp_av_sink_open(&m->sink, path, &ap, err)) == MP_OK) {
        m->review = mp_av_sink_predicts(m->sink);
        st = push_audio(m, err);
    }
    if (st != MP_OK)
        movie_abort(m);
    return st;
}

/* The active area of a picture through enc (NULL: the sink's own encoder) into u. */
static mp_status movie_encode(movie *m, mp_av_encoder *enc, const mp_rgb_frame *rgb,
                              mp_sink_unit *u, mp_error *err)
{
    size_t corner = (size_t)m->crop_top * rgb->width + m->crop_left;
    const uint16_t *const planes[3] = {rgb->plane[0] + corner, rgb->plane[1] + corner,
                                       rgb->plane[2] + corner};
    u->number = rgb->number;
    return mp_av_encode_rgb(enc ? enc : mp_av_sink_encoder(m->sink), planes, rgb->width,
                            &u->pkt, err);
}

/* The packet of frame `number`, or NULL when it was lost; a packet given is kept as the last
 * picture (the movie takes it). */
static mp_status movie_picture(movie *m, uint32_t number, AVPacket *pkt, mp_error *err)
{
    if (number < m->next || number >= m->end) {
        mp_libav.av_packet_free(&pkt);
        return mp_error_set(err, MP_ERR_ARG, "movie: frame %u out of order (expected %u-%u)",
                            number, m->next, m->end - 1);
    }
    uint32_t gap = number - m->next;
    m->next = number + 1;
    if (!pkt) {
        if (!m->last) {
            m->pending += gap + 1;
            return MP_OK;
        }
        return emit(m, m->last, gap + 1, err);
    }
    mp_status st;
    if (m->last)
        st = emit(m, m->last, gap, err);
    else
        st = emit(m, pkt, m->pending + gap, err);   /* nothing earlier: hold this picture */
    m->pending = 0;
    mp_libav.av_packet_free(&m->last);
    m->last = pkt;
    return st == MP_OK ? emit(m, pkt, 1, err) : st;
}

/* The review kinds: `times` more frames of the last picture. */
static mp_status review_repeat(movie *m, uint32_t times, mp_error *err)
{
    mp_status st = MP_OK;
    for (uint32_t i = 0; i < times && st == MP_OK; i++) {
        st = mp_av_sink_repeat(m->sink, m->first + m->written, err);
        if (st == MP_OK) {
            m->written++;
            st = push_audio(m, err);
        }
    }
    return st;
}

/* The review kinds' frame `number` (rgb NULL: lost) through the sink's one encoder, which
 * predicts each picture from the ones before: a lost frame is the last picture encoded again
 * (lost frames before the first picture take that picture). */
static mp_status review_picture(movie *m, const mp_rgb_frame *rgb, uint32_t number,
                                mp_error *err)
{
    if (number < m->next || number >= m->end)
        return mp_error_set(err, MP_ERR_ARG, "movie: frame %u out of order (expected %u-%u)",
                            number, m->next, m->end - 1);
    uint32_t gap = number - m->next;
    m->next = number + 1;
    if (!rgb) {
        if (m->pictured)
            return review_repeat(m, gap + 1, err);
        m->pending += gap + 1;
        return MP_OK;
    }
    mp_status st = review_repeat(m, m->pictured ? gap : 0, err);
    size_t corner = (size_t)m->crop_top * rgb->width + m->crop_left;
    const uint16_t *const planes[3] = {rgb->plane[0] + corner, rgb->plane[1] + corner,
                                       rgb->plane[2] + corner};
    if (st == MP_OK)
        st = mp_av_sink_write_rgb(m->sink, planes, rgb->width, m->first + m->written, err);
    if (st != MP_OK)
        return st;
    m->written++;
    if ((st = push_audio(m, err)) != MP_OK || m->pictured)
        return st;
    m->pictured = 1;
    st = review_repeat(m, m->pending + gap, err);
    m->pending = 0;
    return st;
}

static mp_status movie_write_rgb(void *priv, const mp_rgb_frame *rgb, mp_error *err)
{
    movie *m = priv;
    if (m->review)
        return review_picture(m, rgb, rgb->number, err);
    mp_sink_unit u;
    mp_status st = movie_encode(m, NULL, rgb, &u, err);
    return st == MP_OK ? movie_picture(m, rgb->number, u.pkt, err) : st;
}

static mp_status movie_encoder_new(void *priv, void **enc, mp_error *err)
{
    movie *m = priv;
    return mp_av_encoder_new(m->sink, (mp_av_encoder **)enc, err);
}

static void movie_encoder_free(void *enc)
{
    mp_av_encoder_free(enc);
}

static mp_status unit_new(mp_sink_unit **unit, mp_error *err)
{
    *unit = malloc(sizeof **unit);
    return *unit ? MP_OK : mp_error_set(err, MP_ERR_NOMEM, "movie: out of memory");
}

static mp_status movie_encode_rgb(void *priv, void *enc, const mp_rgb_frame *rgb,
                                  mp_sink_unit **unit, mp_error *err)
{
    mp_status st = unit_new(unit, err);
    if (st == MP_OK && (st = movie_encode(priv, enc, rgb, *unit, err)) != MP_OK) {
        free(*unit);
        *unit = NULL;
    }
    return st;
}

static int movie_takes_rows(void *priv, void *enc)
{
    (void)priv;
    return mp_av_encoder_takes_rows(enc);
}

/* A picture's row into the encoder: its active area's part (movie_encode_rows). */
typedef struct area_rows {
    const movie *m;
    mp_av_encoder *enc;
} area_rows;

static mp_status area_row(void *user, uint32_t y, const uint16_t *const rgb[3], mp_error *err)
{
    (void)err;
    const area_rows *a = user;
    const uint32_t left = a->m->crop_left;
    const uint16_t *const row[3] = {rgb[0] + left, rgb[1] + left, rgb[2] + left};
    mp_av_encode_row(a->enc, y - a->m->crop_top, row);
    return MP_OK;
}

/* Only the active area's rows are developed. */
static mp_status movie_encode_rows(void *priv, void *enc, const mp_rgb_rows *src,
                                   mp_sink_unit **unit, mp_error *err)
{
    const movie *m = priv;
    const area_rows a = {m, enc};
    *unit = NULL;
    if ((uint64_t)m->crop_left + m->width > src->width ||
        (uint64_t)m->crop_top + m->height > src->height)
        return mp_error_set(err, MP_ERR_ARG, "movie: frame %u: %ux%u picture for a %ux%u "
                            "area at %u,%u", src->number, src->width, src->height, m->width,
                            m->height, m->crop_left, m->crop_top);
    mp_status st = unit_new(unit, err);
    if (st == MP_OK && (st = mp_av_encode_rows_begin(enc, err)) == MP_OK &&
        (st = src->produce(src->user, m->crop_top, m->crop_top + m->height, area_row,
                           (void *)&a, err)) == MP_OK)
        st = mp_av_encode_rows_end(enc, &(*unit)->pkt, err);
    if (st != MP_OK) {
        free(*unit);
        *unit = NULL;
        return st;
    }
    (*unit)->number = src->number;
    return MP_OK;
}

static mp_status movie_write_unit(void *priv, mp_sink_unit *u, mp_error *err)
{
    mp_status st = movie_picture(priv, u->number, u->pkt, err);
    free(u);
    return st;
}

static void movie_unit_free(mp_sink_unit *u)
{
    mp_libav.av_packet_free(&u->pkt);
    free(u);
}

static mp_status movie_skip(void *priv, uint32_t number, mp_error *err)
{
    movie *m = priv;
    if (m->review)
        return review_picture(m, NULL, number, err);
    return movie_picture(m, number, NULL, err);
}

static mp_status movie_finish(void *priv, mp_error *err)
{
    movie *m = priv;
    mp_status st = MP_OK;
    if (!m->last && !m->pictured) {
        st = mp_error_set(err, MP_ERR_DAMAGED, "movie: no frame of %u-%u could be decoded",
                          m->first, m->end - 1);
    } else if (m->review) {
        st = review_repeat(m, m->end - m->next, err);
    } else if (m->next < m->end) {
        st = emit(m, m->last, m->end - m->next, err);
    }
    if (st == MP_OK) {
        st = mp_av_sink_finish(m->sink, err);
        m->sink = NULL;
    }
    movie_abort(m);
    return st;
}

#define MOVIE_SINK(id, kind)                                                                   \
    static mp_status open_##id(void *priv, const char *path, const mp_sink_params *p,          \
                               mp_error *err)                                                  \
    {                                                                                          \
        return movie_open(priv, path, kind, p, err);                                           \
    }                                                                                          \
    const mp_sink_ops mp_sink_##id = {                                                         \
        .name = #id, .priv_size = sizeof(movie), .open = open_##id,                            \
        .write_rgb = movie_write_rgb, .skip_frame = movie_skip, .finish = movie_finish,        \
        .abort = movie_abort, .encoder_new = movie_encoder_new,                                \
        .encoder_free = movie_encoder_free, .encode_rgb = movie_encode_rgb,                    \
        .write_unit = movie_write_unit, .unit_free = movie_unit_free,                          \
        .takes_rows = movie_takes_rows, .encode_rows = movie_encode_rows,                      \
    };

MOVIE_SINK(prores422hq, AV_SINK_PRORES_422HQ)
MOVIE_SINK(prores4444, AV_SINK_PRORES_4444)
MOVIE_SINK(ffv1, AV_SINK_FFV1)
MOVIE_SINK(nut, AV_SINK_NUT)
MOVIE_SINK(rawvideo, AV_SINK_RAWVIDEO)
MOVIE_SINK(movraw, AV_SINK_MOVRAW)
MOVIE_SINK(prores422, AV_SINK_PRORES_422)
MOVIE_SINK(prores422lt, AV_SINK_PRORES_422LT)
MOVIE_SINK(prores422proxy, AV_SINK_PRORES_PROXY)
MOVIE_SINK(dnxhrhq, AV_SINK_DNXHR_HQ)
MOVIE_SINK(dnxhrhqx, AV_SINK_DNXHR_HQX)
MOVIE_SINK(dnxhr444, AV_SINK_DNXHR_444)
MOVIE_SINK(h264, AV_SINK_H264)
MOVIE_SINK(h265, AV_SINK_H265)
