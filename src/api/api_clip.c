/* mlvpipe_clip_*: the public face of reader/mlv_reader.h. */
#include "api_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/mp_frame.h"

/* A frame's buffers: the decoded samples and the decoder's scratch. */
typedef struct frame_priv {
    mp_frame frame;
    mlv_scratch scratch;
} frame_priv;

static void cfa_name(uint32_t cfa, char out[5])
{
    const char *name = mp_api_cfa_name(cfa);
    snprintf(out, 5, "%s", name ? name : "");
}

mlvpipe_status mlvpipe_clip_open(const char *path, const mlvpipe_logger *log,
                                 mlvpipe_clip **out, mlvpipe_error *err)
{
    mp_error e = {0};
    *out = NULL;
    mlvpipe_clip *c = calloc(1, sizeof *c);
    if (!c)
        return mp_api_status(mp_error_set(&e, MP_ERR_NOMEM, "%s: out of memory", path), &e, err);
    if (log)
        c->log = *log;
    mlv_open_options oo = {mp_api_logger(&c->log), 0};
    mp_status st = mp_mlv_clip_open(&c->clip, path, &oo, &e);
    if (st != MP_OK) {
        free(c);
        return mp_api_status(st, &e, err);
    }
    *out = c;
    return MLVPIPE_OK;
}

void mlvpipe_clip_close(mlvpipe_clip *clip)
{
    if (!clip)
        return;
    mp_mlv_clip_close(clip->clip);
    free(clip);
}

void mlvpipe_clip_get_info(const mlvpipe_clip *clip, mlvpipe_clip_info *out)
{
    const mlv_clip_info *in = mp_mlv_clip_get_info(clip->clip);
    *out = (mlvpipe_clip_info){
        .path = mp_mlv_clip_path(clip->clip, 0),
        .chunk_count = in->chunk_count,
        .legacy_raw = in->container == MLV_CONTAINER_RAW,
        .guid = in->guid,
        .compression = mp_mlv_compression_name(in->compression),
        .video_supported = mp_mlv_clip_check_video(clip->clip, NULL) == MP_OK,
        .camera = in->camera.present ? in->camera.name : "",
        .width = in->raw.width,
        .height = in->raw.height,
        .bits = in->raw.bits,
        .black = in->raw.black,
        .white = in->raw.white,
        .fps_num = in->fps_num,
        .fps_den = in->fps_den,
        .frame_count = in->frame_count,
        .first_frame = in->first_number,
        .last_frame = in->last_number,
        .gap_count = in->gap_count,
        .missing_frames = in->missing_frames,
        .segment_count = in->segment_count,
        .iso = in->exposure.present ? in->exposure.iso : 0,
        .dual_iso_tag = in->dual_iso.present && in->dual_iso.mode,
        .damage_count = in->damage_count,
    };
    cfa_name(in->raw.cfa, out->cfa);
    if (in->audio.present) {
        out->audio_channels = in->audio.channels;
        out->audio_sample_rate = in->audio.sample_rate;
        out->audio_bits = in->audio.bits_per_sample;
    }
}

mlvpipe_status mlvpipe_clip_read_frame(const mlvpipe_clip *clip, uint32_t index,
                                       mlvpipe_frame *frame, mlvpipe_error *err)
{
    mp_error e = {0};
    frame_priv *p = frame->priv;
    if (!p) {
        if (!(p = calloc(1, sizeof *p)))
            return mp_api_status(mp_error_set(&e, MP_ERR_NOMEM, "frame: out of memory"), &e, err);
        frame->priv = p;
    }
    mp_status st = mp_mlv_read_frame(clip->clip, index, &p->frame, &p->scratch, &e);
    if (st != MP_OK)
        return mp_api_status(st, &e, err);
    const mp_frame *f = &p->frame;
    frame->data = f->data;
    frame->width = f->width;
    frame->height = f->height;
    frame->bits = f->bits;
    frame->black = f->black;
    frame->white = f->white;
    cfa_name(f->cfa, frame->cfa);
    frame->number = f->number;
    frame->timestamp_us = f->timestamp_us;
    return MLVPIPE_OK;
}

void mlvpipe_frame_free(mlvpipe_frame *frame)
{
    frame_priv *p = frame->priv;
    if (p) {
        mp_frame_free(&p->frame);
        mp_mlv_scratch_free(&p->scratch);
        free(p);
    }
    memset(frame, 0, sizeof *frame);
}
