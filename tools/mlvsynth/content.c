#include "content.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lv_window.h"

uint16_t content_pattern(uint32_t x, uint32_t y, uint32_t frame, uint32_t bits)
{
    uint64_t v = 37ull * x + 101ull * y + 7919ull * frame + ((uint64_t)x * y) % 13u;
    return (uint16_t)(v & ((1u << bits) - 1u));
}

void content_dualiso_model(const synth_options *opt, uint32_t number, synth_sensor *sensor,
                           synth_scene *scene)
{
    int changed = opt->change_at != OPT_NONE && number >= (uint64_t)opt->change_at;
    double gap = changed && opt->change_diso ? opt->change_ev_gap : opt->ev_gap;
    mp_synth_sensor_default(sensor, opt->bits, gap);
    sensor->phase = opt->phase;
    sensor->bright_black_offset = opt->black_offset;
    if (opt->ob_left != OPT_NONE) {
        sensor->ob_left = (uint32_t)opt->ob_left;
        sensor->ob_top = (uint32_t)opt->ob_top;
    }
    memset(scene, 0, sizeof *scene);
    scene->kind = opt->scene;
    scene->exposure_ev = opt->exposure_ev;
    scene->shift_px = opt->shift_px;
    scene->illum_sigma_ev = opt->illum_sigma_ev;
    scene->seed = opt->seed;
    if (changed && opt->change_iso)   /* more gain: fewer electrons reach white */
        sensor->full_well_e *= (double)opt->iso / opt->change_iso;
    if (changed && opt->change_shutter_us)
        scene->exposure_ev += log2((double)opt->change_shutter_us / opt->shutter_us);
}

void content_levels(const synth_options *opt, uint32_t *black, uint32_t *white)
{
    if (opt->content == CONTENT_DUALISO) {
        synth_sensor s;
        synth_scene sc;
        content_dualiso_model(opt, 0, &s, &sc);
        *black = (uint32_t)lround(s.black);
        *white = (uint32_t)lround(s.white);
        return;
    }
    /* 14-bit 2048 / 15000 scaled like mlv_lite (and the shared samples): truncating. */
    switch (opt->bits) {
    case 10: *black = 2048 / 16; *white = 15000 / 16; break;
    case 12: *black = 2048 / 4; *white = 15000 / 4; break;
    case 16: *black = 2048 * 4; *white = 15000 * 4; break;
    default: *black = 2048; *white = 15000; break;
    }
}

mp_status content_borders(const synth_options *opt, uint32_t *ob_left, uint32_t *ob_top,
                          mp_error *err)
{
    *ob_left = *ob_top = 0;
    if (opt->content != CONTENT_DUALISO)
        return MP_OK;
    synth_sensor s;
    synth_scene sc;
    content_dualiso_model(opt, 0, &s, &sc);
    if (s.ob_left >= opt->width || s.ob_top >= opt->height || s.ob_left % 2 || s.ob_top % 2)
        return mp_error_set(err, MP_ERR_ARG, "optical-black borders %ux%u do not fit a %ux%u "
                            "frame (they must be even and smaller; see --ob)", s.ob_left,
                            s.ob_top, opt->width, opt->height);
    *ob_left = s.ob_left;
    *ob_top = s.ob_top;
    return MP_OK;
}

/* --focus-layout, from LiveView buffer coordinates to the active area's: the buffer's (bx, by)
 * is the active area's (bx - ox, by - oy), where the pixels come from (--pan-error moves them
 * off the recorded window). */
static void layout_defects(const synth_options *opt, uint32_t ob_left, uint32_t ob_top,
                           synth_defects *d)
{
    const focus_layout *l = &opt->fp_layout;
    uint32_t fx, fy, left_ob;
    clip_frame_origin(opt, &fx, &fy, &left_ob);
    if (!opt->camera_geometry)
        left_ob = ob_left;   /* the frame is the buffer, its own borders the buffer's */
    const int64_t ox = (int64_t)fx + opt->pan_error_x + ob_left;
    const int64_t oy = (int64_t)fy + opt->pan_error_y + ob_top;
    d->fp_period_x = l->period_x;
    d->fp_period_y = l->period_y;
    d->fp_classes = l->count;
    for (uint32_t k = 0; k < l->count; k++) {
        int64_t cx = ((int64_t)l->col[k] - ox) % l->period_x;
        int64_t cy = ((int64_t)l->row[k] - oy) % l->period_y;
        d->fp_class_x[k] = (uint32_t)(cx < 0 ? cx + l->period_x : cx);
        d->fp_class_y[k] = (uint32_t)(cy < 0 ? cy + l->period_y : cy);
    }
    int64_t x0 = (int64_t)left_ob - ox, y0 = (int64_t)l->first_row - oy;
    int64_t y1 = l->last_row == UINT32_MAX ? INT32_MAX : (int64_t)l->last_row + 1 - oy;
    d->fp_x0 = x0 > 0 ? (uint32_t)x0 : 0;
    d->fp_y0 = y0 > 0 ? (uint32_t)y0 : 0;
    d->fp_y1 = y1 > 0 ? (uint32_t)(y1 < INT32_MAX ? y1 : INT32_MAX) : 0;
}

void content_defects(const synth_options *opt, synth_defects *d)
{
    *d = opt->defects;
    /* positions apart from the noise, fixed for a seed */
    d->seed = opt->sensor_seed != OPT_NONE ? (uint64_t)opt->sensor_seed : opt->seed + 99;
    if (d->fp_period_x && d->fp_period_y) {
        d->fp_x = d->fp_period_x > 4 ? 4 : d->fp_period_x - 1;
        d->fp_y = d->fp_period_y > 4 ? 3 : d->fp_period_y - 2;
        if (d->fp_offset_dn == 0)
            d->fp_offset_dn = 16;
        if (d->fp_slope == 0)
            d->fp_slope = 0.03;
    } else {
        d->fp_period_x = d->fp_period_y = 0;
    }
    if (opt->fp_layout.period_x) {
        uint32_t ob_left = 0, ob_top = 0;
        mp_error ignored;   /* content_init has checked the borders */
        content_borders(opt, &ob_left, &ob_top, &ignored);
        layout_defects(opt, ob_left, ob_top, d);
        if (d->fp_offset_dn == 0)
            d->fp_offset_dn = 16;
        if (d->fp_slope == 0)
            d->fp_slope = 0.03;
    }
}

mp_status content_init(content_ctx *c, const synth_options *opt, mp_error *err)
{
    memset(c, 0, sizeof *c);
    c->opt = opt;
    mp_status st = content_borders(opt, &c->ob_left, &c->ob_top, err);
    if (st || opt->content != CONTENT_DUALISO)
        return st;
    c->active_w = opt->width - c->ob_left;
    c->active_h = opt->height - c->ob_top;
    c->truth = malloc((size_t)c->active_w * c->active_h * sizeof *c->truth);
    if (!c->truth)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory for a %ux%u truth frame",
                            c->active_w, c->active_h);
    content_defects(opt, &c->defects);
    return mp_synth_defects_sites(&c->defects, c->active_w, c->active_h, c->ob_left, c->ob_top,
                               &c->sites, &c->site_count, c->stripe_gain, err);
}

void content_free(content_ctx *c)
{
    free(c->truth);
    free(c->sites);
    mp_frame_free(&c->exposed);
    memset(c, 0, sizeof *c);
}

static mp_status dualiso_frame(content_ctx *c, uint32_t number, uint32_t source, uint16_t *dst,
                               mp_error *err)
{
    const synth_options *o = c->opt;
    synth_sensor s;
    synth_scene sc;
    content_dualiso_model(o, number, &s, &sc);
    mp_status st = mp_synth_render_truth(&sc, c->active_w, c->active_h, source, c->truth, err);
    if (st)
        return st;
    if (o->lens_cap)
        memset(c->truth, 0, (size_t)c->active_w * c->active_h * sizeof *c->truth);
    st = mp_synth_expose(&s, c->truth, c->active_w, c->active_h, o->seed, source, &c->exposed, err);
    if (st == MP_OK)
        st = mp_synth_defects_apply(&c->defects, &s, c->truth, c->sites, c->site_count,
                                    &c->exposed, err);
    if (st)
        return st;
    if (c->exposed.width != o->width || c->exposed.height != o->height)
        return mp_error_set(err, MP_ERR_ARG, "mp_synth_expose gave %ux%u, expected %ux%u",
                            c->exposed.width, c->exposed.height, o->width, o->height);
    memcpy(dst, c->exposed.data, (size_t)o->width * o->height * sizeof *dst);
    return MP_OK;
}

mp_status content_dark_average(content_ctx *c, uint16_t *dst, mp_error *err)
{
    const synth_options *o = c->opt;
    const size_t n = (size_t)o->width * o->height;
    uint32_t *sum = calloc(n, sizeof *sum);
    if (!sum)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory for the dark frame");
    synth_sensor s;
    synth_scene sc;
    content_dualiso_model(o, 0, &s, &sc);
    memset(c->truth, 0, (size_t)c->active_w * c->active_h * sizeof *c->truth);
    mp_status st = MP_OK;
    for (uint32_t i = 0; i < o->dark_block && st == MP_OK; i++) {
        /* other noise than any frame of the clip: the seed's complement */
        st = mp_synth_expose(&s, c->truth, c->active_w, c->active_h, ~o->seed, i, &c->exposed,
                             err);
        if (st == MP_OK)
            st = mp_synth_defects_apply(&c->defects, &s, c->truth, c->sites, c->site_count,
                                        &c->exposed, err);
        for (size_t k = 0; k < n && st == MP_OK; k++)
            sum[k] += c->exposed.data[k];
    }
    for (size_t k = 0; k < n && st == MP_OK; k++)
        dst[k] = (uint16_t)((sum[k] + o->dark_block / 2) / o->dark_block);
    free(sum);
    return st;
}

mp_status content_frame(content_ctx *c, uint32_t number, uint32_t source, uint16_t *dst,
                        mp_error *err)
{
    const synth_options *o = c->opt;
    uint32_t w, h;
    options_frame_geometry(o, number, &w, &h);
    switch (o->content) {
    case CONTENT_PATTERN:
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                dst[(size_t)y * w + x] = content_pattern(x, y, source, o->bits);
        return MP_OK;
    case CONTENT_GRADIENT: {
        uint32_t black, white;
        content_levels(o, &black, &white);
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++)
                dst[(size_t)y * w + x] = (uint16_t)(black + (uint64_t)(white - black) *
                                         ((x + source) % w) / (w - 1));
        return MP_OK;
    }
    case CONTENT_DUALISO:
        return dualiso_frame(c, number, source, dst, err);
    }
    return mp_error_set(err, MP_ERR_ARG, "unknown content kind");
}

uint64_t content_audio_block_start(const synth_options *opt, uint32_t k)
{
    return (uint64_t)k * CONTENT_AUDIO_RATE * opt->fps_den / opt->fps_num;
}

uint32_t content_audio_block_samples(const synth_options *opt, uint32_t k)
{
    return (uint32_t)(content_audio_block_start(opt, k + 1) - content_audio_block_start(opt, k));
}

static int16_t tone_sample(double hz, uint64_t n)
{
    /* fmod keeps the phase argument small and exact for integer frequencies */
    double turns = fmod(hz * (double)n, (double)CONTENT_AUDIO_RATE) / CONTENT_AUDIO_RATE;
    return (int16_t)lround(CONTENT_AUDIO_AMPLITUDE * sin(2.0 * M_PI * turns));
}

void content_tone(const synth_options *opt, uint64_t first, uint32_t count, int16_t *dst)
{
    for (uint32_t i = 0; i < count; i++) {
        dst[2 * i] = tone_sample(opt->tone_hz, first + i);
        dst[2 * i + 1] = tone_sample(1.5 * opt->tone_hz, first + i);
    }
}
