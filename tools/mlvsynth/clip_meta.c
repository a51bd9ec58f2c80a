#include "clip_meta.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/mp_frame.h"
#include "common/mp_white.h"
#include "content.h"
#include "diso_index.h"

/* Canon 5D Mark III ColorMatrix1 (dcraw adobe_coeff), x 10000, as in the shared samples. */
static const int32_t color_matrix_5d3[9] = {6722, -635, -963, -4287, 12460, 2028, -908, 2162,
                                            5668};

static void exposure_for(mp_exposure *e, uint32_t iso, uint32_t shutter_us)
{
    memset(e, 0, sizeof *e);
    e->present = 1;
    e->iso_mode = 0;
    e->iso = iso;
    /* Canon raw ISO code: 72 = ISO 100, +8 per stop (doc/mlv-format.md 4.5) */
    e->iso_analog = (uint32_t)lround(72.0 + 8.0 * log2(iso / 100.0));
    e->digital_gain = 0;
    e->shutter_us = shutter_us;
}

/* The LiveView buffer a width x height window is cut from, and where: the window centred in
 * the active area, its left edge a multiple of 8 and its top even (mlv_lite's cropPos
 * rounding, which also keeps the CFA phase); panPos is the unrounded position that rounds to
 * it. The body's buffer (camera_body.h) or --lv-buffer's; a window larger than its active
 * area gets a buffer grown around it. */
static void camera_buffer(const synth_options *o, uint32_t width, uint32_t height,
                          mp_raw_info *r, clip_window *w)
{
    const camera_body *b = o->camera;
    uint32_t bw = o->lv_width ? o->lv_width : b->buffer_width;
    uint32_t bh = o->lv_height ? o->lv_height : b->buffer_height;
    if (width > bw - b->ob_left - b->ob_right - 8)
        bw = b->ob_left + ((width + 8 + 7) & ~7u) + b->ob_right;
    if (height > bh - b->ob_top - 2)
        bh = b->ob_top + height + 2;
    uint32_t aw = bw - b->ob_left - b->ob_right, ah = bh - b->ob_top;
    uint32_t x = (b->ob_left + (aw - width) / 2 + 7) & ~7u;
    if (x + width > b->ob_left + aw)
        x -= 8;
    uint32_t y = (b->ob_top + (ah - height) / 2) & ~1u;
    if (y < b->ob_top)
        y += 2;
    *w = (clip_window){(uint16_t)x, (uint16_t)y, (uint16_t)(x - 5), (uint16_t)(y + 1)};
    r->buffer_width = (int32_t)bw;
    r->buffer_height = (int32_t)bh;
    r->crop_origin[0] = (int32_t)b->ob_left;
    r->crop_origin[1] = (int32_t)b->ob_top;
    r->crop_size[0] = (int32_t)aw;
    r->crop_size[1] = (int32_t)ah;
    r->active_area[0] = (int32_t)b->ob_top;
    r->active_area[1] = (int32_t)b->ob_left;
    r->active_area[2] = (int32_t)bh;
    r->active_area[3] = (int32_t)(bw - b->ob_right);
}

void clip_frame_origin(const synth_options *o, uint32_t *x, uint32_t *y, uint32_t *left_ob)
{
    *x = *y = 0;
    *left_ob = 0;
    if (!o->camera_geometry)
        return;
    mp_raw_info r = {0};
    clip_window w;
    camera_buffer(o, o->width, o->height, &r, &w);
    *x = w.crop_x;
    *y = w.crop_y;
    *left_ob = o->camera->ob_left;
}

static void raw_info_for(mp_raw_info *r, clip_window *win, const synth_options *o,
                         uint32_t width, uint32_t height, uint32_t black, uint32_t white,
                         uint32_t ob_left, uint32_t ob_top)
{
    r->api_version = 1;
    r->width = width;
    r->height = height;
    r->bits = o->bits;
    r->black = (int32_t)black;
    r->white = (int32_t)white;
    memset(win, 0, sizeof *win);
    if (o->camera_geometry) {
        camera_buffer(o, width, height, r, win);
    } else {
        /* Simplification shared with the samples: the "full buffer" is the recorded frame. */
        r->buffer_width = (int32_t)width;
        r->buffer_height = (int32_t)height;
        r->crop_origin[0] = (int32_t)ob_left;
        r->crop_origin[1] = (int32_t)ob_top;
        r->crop_size[0] = (int32_t)(width - ob_left);
        r->crop_size[1] = (int32_t)(height - ob_top);
        r->active_area[0] = (int32_t)ob_top;
        r->active_area[1] = (int32_t)ob_left;
        r->active_area[2] = (int32_t)height;
        r->active_area[3] = (int32_t)width;
    }
    /* mlv_lite rewrites pitch as the buffer width x bpp / 8 */
    r->pitch = (int32_t)((uint32_t)r->buffer_width * o->bits / 8);
    r->frame_size = r->pitch * r->buffer_height;
    r->exposure_bias.num = 0;
    r->exposure_bias.den = 0;
    r->cfa = MP_CFA_RGGB;
    r->calibration_illuminant = 21;   /* D65 */
    for (int i = 0; i < 9; i++) {
        r->color_matrix1[i].num = color_matrix_5d3[i];
        r->color_matrix1[i].den = 10000;
    }
    r->dynamic_range_x100 = 1100;
}

mp_status clip_meta_build(clip_meta *m, const synth_options *o, mp_error *err)
{
    memset(m, 0, sizeof *m);
    uint32_t black, white;
    content_levels(o, &black, &white);
    uint32_t ob_left, ob_top;
    mp_status st = content_borders(o, &ob_left, &ob_top, err);
    if (st)
        return st;
    if (o->camera_geometry && (ob_left || ob_top))
        return mp_error_set(err, MP_ERR_ARG, "--camera-geometry records a window inside the "
                            "active area, so the frame has no optical-black borders of its "
                            "own: add --ob 0x0");

    raw_info_for(&m->raw, &m->window, o, o->width, o->height, black, white, ob_left, ob_top);
    uint32_t w2, h2;
    options_frame_geometry(o, UINT32_MAX, &w2, &h2);
    raw_info_for(&m->raw_changed, &m->window_changed, o, w2, h2, black, white, ob_left,
                 ob_top);

    mp_raw_capture *c = &m->capture;
    c->present = 1;
    c->sensor_width = 5760;
    c->sensor_height = 3840;
    c->sensor_crop_x100 = 100;
    c->binning_x = (uint8_t)o->binning_x;   /* default 3x3: 5D Mark III 1080p */
    c->skipping_x = (uint8_t)o->skipping_x;
    c->binning_y = (uint8_t)o->binning_y;
    c->skipping_y = (uint8_t)o->skipping_y;
    c->offset_x = INT16_MIN;          /* unknown */
    c->offset_y = INT16_MIN;
    if (o->camera_geometry) {         /* the window's offset in full-resolution pixels */
        c->offset_x = (int16_t)((m->window.crop_x - o->camera->ob_left) *
                                (c->binning_x + c->skipping_x));
        c->offset_y = (int16_t)((m->window.crop_y - o->camera->ob_top) *
                                (c->binning_y + c->skipping_y));
    }

    m->camera.present = 1;
    snprintf(m->camera.name, sizeof m->camera.name, "%s", o->camera->name);
    m->camera.model = o->camera->model;
    strcpy(m->camera.serial, "MLVSYNTH0001");

    exposure_for(&m->exposure, o->iso, o->shutter_us);
    exposure_for(&m->exposure_changed, o->change_iso ? o->change_iso : o->iso,
                 o->change_shutter_us ? o->change_shutter_us : o->shutter_us);

    mp_lens *l = &m->lens;
    l->present = 1;
    l->focal_mm = 50;
    l->focus_dist = 300;
    l->aperture_x100 = 280;
    l->autofocus = 1;
    l->lens_id = 0x1234;
    strcpy(l->name, "EF50mm f/1.4 USM");
    strcpy(l->serial, "00000000ab");

    mp_white_balance *w = &m->white_balance;
    w->present = 1;
    /* Custom white balance on the simulated scene's mid raw colour (R/G 0.575, B/G 0.65,
     * doc/dualiso.md 8.2), so developed frames come out grey rather than green.
     * Magic Lantern stores custom gains as 1024 / multiplier, i.e. 1024 x the camera
     * neutral (src/lens.h, shoot.c), and they count only in custom mode. */
    w->mode = MP_WB_MODE_CUSTOM;
    w->kelvin = 5500;
    w->gain_r = 589;                  /* 1024 x 0.575 */
    w->gain_g = 1024;
    w->gain_b = 666;                  /* 1024 x 0.65 */

    mp_wall_clock *t = &m->wall_clock;
    t->present = 1;
    t->year = 2024;
    t->month = 3;
    t->day = 23;
    t->hour = 12;
    t->minute = 34;
    t->second = 56;
    t->gmtoff = 0;
    strcpy(t->zone, "UTC");
    t->timestamp_us = CLIP_HEADER_TS;

    if (o->content == CONTENT_DUALISO && !o->no_diso) {
        m->dual_iso.present = 1;
        m->dual_iso.mode = 1;
        m->dual_iso.iso_value = diso_index_for(o->iso, o->ev_gap);
        m->dual_iso_changed = m->dual_iso;
        if (o->change_diso)
            m->dual_iso_changed.iso_value = o->change_diso_value;
    }

    m->style.present = 1;
    m->style.id = 2;
    m->style.contrast = -2;
    m->style.sharpness = 0;
    m->style.saturation = -1;
    m->style.colortone = 0;
    strcpy(m->style.name, "Neutral");

    m->level.present = 1;
    m->level.roll_x100 = 150;
    m->level.pitch_x100 = -200;

    if (o->audio) {
        mp_audio_format *a = &m->audio;
        a->present = 1;
        a->format = 1;
        a->channels = CONTENT_AUDIO_CHANNELS;
        a->sample_rate = CONTENT_AUDIO_RATE;
        a->bits_per_sample = 16;
        a->block_align = CONTENT_AUDIO_CHANNELS * 2;
        a->bytes_per_second = CONTENT_AUDIO_RATE * a->block_align;
    }
    m->info_text = "mlvsynth synthetic clip";
    m->version_text = "mlv_lite (written by mlvsynth)";
    return MP_OK;
}
