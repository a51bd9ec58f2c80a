/* Where a recorded window lies in the LiveView buffer with --camera-geometry: the buffer's
 * size and the window's position, for the RAWI and VIDF blocks (clip_meta.c) and the defects
 * placed in buffer coordinates (content.c). */
#include "lv_window.h"

/* The LiveView buffer a width x height window is cut from, and where: the window centred in
 * the active area, its left edge a multiple of 8 and its top even (mlv_lite's cropPos
 * rounding, which also keeps the CFA phase); panPos is the unrounded position that rounds to
 * it. The body's buffer (camera_body.h) or --lv-buffer's; a window larger than its active
 * area gets a buffer grown around it. */
void camera_buffer(const synth_options *o, uint32_t width, uint32_t height, mp_raw_info *r,
                   clip_window *w)
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
