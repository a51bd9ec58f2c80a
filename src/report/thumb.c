/* Contact-sheet pictures: the linear frame shrunk on the mosaic (each 2x2 cell of the small
 * frame is the mean of k x k cells of the big one, colour by colour), developed by the same
 * develop code as movies, then 8-bit PNG. Shrinking first keeps a thumbnail at a few
 * milliseconds even from a 4K frame. */
#include "report_priv.h"

#include <stdlib.h>

#include "movie/png.h"

static mp_status shrink(const mp_frame *in, uint32_t width, mp_frame *out, mp_error *err)
{
    uint32_t cells_x = in->width / 2, cells_y = in->height / 2;
    uint32_t k = width >= 2 && cells_x > width / 2 ? cells_x / (width / 2) : 1;
    uint32_t ox = cells_x / k, oy = cells_y / k;
    if (!ox || !oy)
        return mp_error_set(err, MP_ERR_ARG, "report: frame %ux%u too small for a thumbnail",
                            in->width, in->height);
    mp_status st = mp_frame_reserve(out, 2 * ox, 2 * oy, err);
    if (st != MP_OK)
        return st;
    out->bits = 16;
    out->black = in->black;
    out->white = in->white;
    out->cfa = in->cfa;
    out->number = in->number;
    out->timestamp_us = in->timestamp_us;
    const uint64_t n = (uint64_t)k * k;
    for (uint32_t cy = 0; cy < oy; cy++)
        for (uint32_t cx = 0; cx < ox; cx++)
            for (uint32_t p = 0; p < 4; p++) {
                uint32_t dx = p & 1, dy = p >> 1;
                uint64_t sum = 0;
                for (uint32_t j = 0; j < k; j++) {
                    const uint16_t *row = in->data + (size_t)(2 * (cy * k + j) + dy) * in->width;
                    for (uint32_t i = 0; i < k; i++)
                        sum += row[2 * (cx * k + i) + dx];
                }
                out->data[(size_t)(2 * cy + dy) * out->width + 2 * cx + dx] =
                    (uint16_t)((sum + n / 2) / n);
            }
    return MP_OK;
}

mp_status mp_report_make_thumb(const mp_frame *lin, const develop_context *ctx,
                               uint32_t width, mp_frame *small, develop_workspace *ws,
                               develop_rgb *rgb, mp_report_thumb *t, mp_error *err)
{
    mp_status st = shrink(lin, width, small, err);
    if (st == MP_OK)
        st = mp_develop_frame(ctx, small, ws, rgb, err);
    if (st != MP_OK)
        return st;
    const uint32_t w = rgb->width, h = rgb->height;
    uint8_t *px = malloc((size_t)w * h * 3);
    if (!px)
        return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
    for (size_t i = 0; i < (size_t)w * h; i++)
        for (int c = 0; c < 3; c++)
            px[3 * i + c] = (uint8_t)((rgb->plane[c][i] * 255u + 32767u) / 65535u);
    st = mp_png_encode_rgb24(px, w, h, (size_t)w * 3, &t->png, &t->png_size, err);
    free(px);
    t->width = w;
    t->height = h;
    return st;
}
