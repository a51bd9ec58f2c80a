#include "per_frame.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dualiso/dualiso.h"
#include "reader/mlv_reader.h"

/* cr2hdr reads the black from the left border, x from 2 to left - 8 (doc/dualiso.md 3.1). */
#define OB_FIRST_COL 2
#define OB_LAST_MARGIN 8

static mp_status ob_mean(const mp_frame *raw, uint32_t ob_left, double *mean, mp_error *err)
{
    if (ob_left < OB_FIRST_COL + OB_LAST_MARGIN + 1)
        return mp_error_set(err, MP_ERR_ARG, "flicker: a %u px optical-black border is too "
                            "narrow for cr2hdr's black", ob_left);
    double sum = 0;
    uint64_t n = 0;
    for (uint32_t y = 0; y < raw->height; y++)
        for (uint32_t x = OB_FIRST_COL; x + OB_LAST_MARGIN < ob_left; x++, n++)
            sum += raw->data[(size_t)y * raw->width + x];
    *mean = sum / (double)n;
    return MP_OK;
}

static void note_levels(per_frame_levels *s, uint32_t index, const dualiso_levels *lv,
                        uint32_t out_black)
{
    double bb = lv->black_bright - lv->in_black;
    if (index == 0) {
        s->ratio_ev_min = s->ratio_ev_max = lv->ratio_ev;
        s->black_bright_min = s->black_bright_max = bb;
        s->out_black_min = s->out_black_max = out_black;
        s->out_white_min = s->out_white_max = lv->out_white;
        return;
    }
    s->ratio_ev_min = fmin(s->ratio_ev_min, lv->ratio_ev);
    s->ratio_ev_max = fmax(s->ratio_ev_max, lv->ratio_ev);
    s->black_bright_min = fmin(s->black_bright_min, bb);
    s->black_bright_max = fmax(s->black_bright_max, bb);
    s->out_black_min = out_black < s->out_black_min ? out_black : s->out_black_min;
    s->out_black_max = out_black > s->out_black_max ? out_black : s->out_black_max;
    s->out_white_min = lv->out_white < s->out_white_min ? lv->out_white : s->out_white_min;
    s->out_white_max = lv->out_white > s->out_white_max ? lv->out_white : s->out_white_max;
}

/* One frame: its own statistics, its own levels, reconstructed with them. */
static mp_status one_frame(const mp_frame *raw, const clip_truth *t, int cr2hdr_black,
                           dualiso_workspace *ws, mp_frame *out, dualiso_levels *lv,
                           double *black_tag, mp_error *err)
{
    dualiso_detection det;
    dualiso_stats *st1 = calloc(1, sizeof *st1); /* large: not on the stack */
    if (!st1)
        return mp_error_set(err, MP_ERR_NOMEM, "flicker: cannot allocate statistics");
    mp_status st = mp_dualiso_detect(raw, &det, err);
    if (st == MP_OK && !det.is_dual)
        st = mp_error_set(err, MP_ERR_FORMAT, "flicker: frame %u shows no dual-ISO pattern",
                          raw->number);
    if (st == MP_OK)
        st = mp_dualiso_stats_collect(raw, det.phase, st1, err);
    if (st == MP_OK)
        st = mp_dualiso_levels_pool(st1, 1, NULL, lv, err);
    free(st1);
    if (st == MP_OK)
        st = mp_dualiso_reconstruct(raw, lv, NULL, ws, out, err);
    if (st != MP_OK)
        return st;
    *black_tag = out->black;
    if (cr2hdr_black) {
        /* the samples keep the exact black; only the tag follows the floored OB mean */
        double m = 0;
        st = ob_mean(raw, t->sensor.ob_left, &m, err);
        *black_tag = lv->out_black + lv->out_scale * (floor(m) - lv->in_black);
    }
    return st;
}

mp_status per_frame_measure(const char *clip_path, const clip_truth *t, int cr2hdr_black,
                            per_frame_fn fn, void *opaque, per_frame_levels *spread,
                            mp_error *err)
{
    mlv_clip *clip = NULL;
    mp_status st = mp_mlv_clip_open(&clip, clip_path, NULL, err);
    if (st != MP_OK)
        return st;
    const mlv_clip_info *info = mp_mlv_clip_get_info(clip);
    if (info->frame_count != t->frames)
        st = mp_error_set(err, MP_ERR_FORMAT, "%s: %u frames, the truth file says %u",
                          clip_path, info->frame_count, t->frames);
    mlv_scratch scratch;
    memset(&scratch, 0, sizeof scratch);
    mp_frame raw = {0}, out = {0};
    dualiso_workspace *ws = mp_dualiso_workspace_new();
    if (st == MP_OK && !ws)
        st = mp_error_set(err, MP_ERR_NOMEM, "flicker: cannot allocate a workspace");
    for (uint32_t i = 0; st == MP_OK && i < info->frame_count; i++) {
        dualiso_levels lv;
        double black = 0;
        st = mp_mlv_read_frame(clip, i, &raw, &scratch, err);
        if (st == MP_OK)
            st = one_frame(&raw, t, cr2hdr_black, ws, &out, &lv, &black, err);
        if (st == MP_OK) {
            note_levels(spread, i, &lv, (uint32_t)black);
            st = fn(opaque, i, &out, black, out.white, err);
        }
    }
    mp_dualiso_workspace_free(ws);
    mp_frame_free(&raw);
    mp_frame_free(&out);
    mp_mlv_scratch_free(&scratch);
    mp_mlv_clip_close(clip);
    return st;
}
