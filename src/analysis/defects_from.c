#include "analysis/defects_from.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/prepass.h"

void mp_defects_from_free(mp_defects_from *d)
{
    for (uint32_t k = 0; d->segments && k < d->count; k++)
        mp_rawfix_map_free(&d->segments[k].map);
    free(d->segments);
    memset(d, 0, sizeof *d);
}

static mp_status keep_segments(mp_defects_from *out, const mlv_clip *other, mp_clip_levels *cl,
                               mp_error *err)
{
    if (!(out->segments = calloc(cl->segment_count, sizeof *out->segments)))
        return mp_error_set(err, MP_ERR_NOMEM, "--defects-from: out of memory");
    out->count = cl->segment_count;
    uint32_t with_map = 0;
    for (uint32_t k = 0; k < cl->segment_count; k++) {
        mp_levels_segment *ls = &cl->segments[k];
        mp_defect_source *src = &out->segments[k];
        mlv_frame_info fi;
        if (mp_mlv_frame_info_get(other, ls->first_index, &fi) != MP_OK || !fi.raw)
            return mp_error_set(err, MP_ERR_DAMAGED, "--defects-from %s: frame index "
                                "unreadable", out->path);
        src->map = ls->fix;                 /* taken over: cl no longer owns its pixels */
        ls->fix = (rawfix_map){0};
        src->buffer_width = fi.raw->buffer_width;
        src->buffer_height = fi.raw->buffer_height;
        src->crop_x = fi.crop_x;
        src->crop_y = fi.crop_y;
        src->first_frame = ls->first_frame;
        src->last_frame = ls->last_frame;
        if (src->map.frames < RAWFIX_MIN_FRAMES)   /* it saw nothing */
            mp_rawfix_map_free(&src->map);
        with_map += src->map.width != 0;
    }
    if (!with_map)
        return mp_error_set(err, MP_ERR_FORMAT, "--defects-from %s: no defect map to borrow (%u "
                            "frames; the search needs %u or more per segment)", out->path,
                            cl->frame_count, RAWFIX_MIN_FRAMES);
    return MP_OK;
}

mp_status mp_defects_from_load(const char *path, const mp_prepass_options *o,
                               mp_defects_from *out, mp_error *err)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    mlv_clip *other = NULL;
    mlv_open_options oo = {.log = o->log};
    mp_status st = mp_mlv_clip_open(&other, path, &oo, err);
    if (st != MP_OK) {
        char why[MP_ERROR_MAX];
        memcpy(why, err->msg, sizeof why);
        return mp_error_set(err, st, "--defects-from: %s", why);
    }
    const mlv_clip_info *info = mp_mlv_clip_get_info(other);
    out->camera = info->camera;
    out->capture = info->capture;
    mp_prepass_options po;
    mp_prepass_options_default(&po);
    po.threads = o->threads;
    po.cancel = o->cancel;
    po.log = o->log;
    po.reference = 1;
    mp_clip_levels cl;
    st = mp_prepass_run(other, &po, "", &cl, err);
    if (st == MP_OK) {
        st = keep_segments(out, other, &cl, err);
        mp_clip_levels_free(&cl);
    }
    mp_mlv_clip_close(other);
    if (st != MP_OK)
        mp_defects_from_free(out);
    return st;
}

/* The same body and the same way of reading the sensor, or a clear refusal. */
static mp_status check_camera(const mp_defects_from *d, const mlv_clip_info *c,
                              const char *name, mp_error *err)
{
    const mp_camera *a = &d->camera, *b = &c->camera;
    if (a->present && b->present && a->model != b->model)
        return mp_error_set(err, MP_ERR_FORMAT, "--defects-from %s: shot on a %s (model "
                            "0x%x), the clip %s on a %s (0x%x)", d->path, a->name, a->model,
                            name, b->name, b->model);
    if (a->present && b->present && a->serial[0] && b->serial[0] && strcmp(a->serial, b->serial))
        return mp_error_set(err, MP_ERR_FORMAT, "--defects-from %s: camera serial %s, the clip "
                            "%s: %s (defects belong to one body)", d->path, a->serial, name,
                            b->serial);
    const mp_raw_capture *p = &d->capture, *q = &c->capture;
    if (p->present && q->present &&
        (p->binning_x != q->binning_x || p->skipping_x != q->skipping_x ||
         p->binning_y != q->binning_y || p->skipping_y != q->skipping_y))
        return mp_error_set(err, MP_ERR_FORMAT, "--defects-from %s: binning %ux%u, skipping "
                            "%ux%u; the clip %s: %ux%u, %ux%u (another video mode)", d->path,
                            p->binning_x, p->binning_y, p->skipping_x, p->skipping_y, name,
                            q->binning_x, q->binning_y, q->skipping_x, q->skipping_y);
    return MP_OK;
}

/* Segment k of the clip: its own sites replaced by the union of the fitting sources; but a
 * lattice of the camera's table that the clip itself confirmed stays (its own samples showed
 * it where it is, a source's may have been placed by a window position recorded otherwise). */
static mp_status borrow_segment(const mp_defects_from *d, const char *name,
                                const mlv_frame_info *fi, mp_levels_segment *ls,
                                const mp_logger *log, mp_error *err)
{
    rawfix_map *m = &ls->fix;
    const uint32_t own_pixels = m->pixel_count;
    const rawfix_lattice own_lattice = m->lattice;
    const int keep_lattice = ls->prior == MP_PRIOR_CONFIRMED;
    if (!m->width) {    /* the clip gave no map: no stripe gains either */
        m->width = fi->raw->width;
        m->height = fi->raw->height;
        for (uint32_t r = 0; r < RAWFIX_STRIPE_ROWS; r++)
            for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++)
                m->stripe_gain[r][c] = 1;
    }
    free(m->pixels);
    m->pixels = NULL;
    m->pixel_count = 0;
    if (!keep_lattice) {
        m->lattice = (rawfix_lattice){0};
        ls->prior = MP_PRIOR_NONE;
    }
    uint32_t used = 0;
    for (uint32_t j = 0; j < d->count; j++) {
        const mp_defect_source *src = &d->segments[j];
        if (!src->map.width || src->buffer_width != fi->raw->buffer_width ||
            src->buffer_height != fi->raw->buffer_height)
            continue;
        /* Without a buffer size or any window position (legacy RAW, stripped headers) the
         * windows cannot be placed: only a frame of the same size is taken as the same
         * window, unmoved. */
        int placed = src->buffer_width > 0 && src->buffer_height > 0 &&
                     (src->crop_x || src->crop_y || fi->crop_x || fi->crop_y);
        if (!placed && (src->map.width != fi->raw->width || src->map.height != fi->raw->height))
            continue;
        int64_t dx = placed ? (int64_t)src->crop_x - fi->crop_x : 0;
        int64_t dy = placed ? (int64_t)src->crop_y - fi->crop_y : 0;
        if ((dx | dy) & 1)
            return mp_error_set(err, MP_ERR_FORMAT, "--defects-from %s: frames %u-%u start at "
                                "(%u, %u) in the LiveView buffer, the clip's frames %u-%u at "
                                "(%u, %u): an odd offset puts other colours on the sites",
                                d->path, src->first_frame, src->last_frame, src->crop_x,
                                src->crop_y, ls->first_frame, ls->last_frame, fi->crop_x,
                                fi->crop_y);
        mp_status st = mp_rawfix_map_add_moved(m, &src->map, (int32_t)dx, (int32_t)dy, err);
        if (st != MP_OK)
            return st;
        used++;
    }
    if (!used)
        return mp_error_set(err, MP_ERR_FORMAT, "--defects-from %s: no segment with a defect "
                            "map was recorded in the clip's LiveView buffer of %dx%d with a "
                            "window it can be placed in (%s, frames %u-%u, %ux%u)", d->path,
                            fi->raw->buffer_width, fi->raw->buffer_height, name,
                            ls->first_frame, ls->last_frame, fi->raw->width, fi->raw->height);
    char own[48] = "none", got[48] = "none";
    if (own_lattice.period_x)
        snprintf(own, sizeof own, "%ux%u", own_lattice.period_x, own_lattice.period_y);
    if (m->lattice.period_x)
        snprintf(got, sizeof got, "%ux%u", m->lattice.period_x, m->lattice.period_y);
    mp_log(log, MP_LOG_INFO, "frames %u-%u: raw defects from %s: %u hot/cold pixels, lattice "
           "%s (the clip's own: %u, lattice %s); %u of its sites left as recorded (in line with "
           "their neighbours here)", ls->first_frame, ls->last_frame, d->path, m->pixel_count,
           got, own_pixels, own, m->borrowed_vetoed);
    return MP_OK;
}

mp_status mp_defects_from_apply(const mp_defects_from *d, const mlv_clip *clip,
                                mp_clip_levels *cl, const mp_logger *log, mp_error *err)
{
    const char *name = mp_mlv_clip_path(clip, 0);
    mp_status st = check_camera(d, mp_mlv_clip_get_info(clip), name, err);
    for (uint32_t k = 0; k < cl->segment_count && st == MP_OK; k++) {
        mlv_frame_info fi;
        if (mp_mlv_frame_info_get(clip, cl->segments[k].first_index, &fi) != MP_OK || !fi.raw)
            return mp_error_set(err, MP_ERR_DAMAGED, "%s: frame index unreadable", name);
        st = borrow_segment(d, name, &fi, &cl->segments[k], log, err);
    }
    return st;
}

mp_status mp_defects_from_prepass(const mlv_clip *clip, const mp_prepass_options *o,
                                  const mp_defects_from *d, const char *tool,
                                  mp_clip_levels *out, mp_error *err)
{
    mp_status st = mp_prepass_run(clip, o, tool, out, err);
    if (st == MP_OK && d && d->count && !o->no_defects &&
        (st = mp_defects_from_apply(d, clip, out, &o->log, err)) != MP_OK)
        mp_clip_levels_free(out);
    return st;
}
