/* The shadows' resolution reference of the quality benchmark (bright_alone.h). */
#include "bright_alone.h"

#include <math.h>

mp_status qm_bright_field_alone(const mp_frame *raw, const dualiso_levels *lv, mp_frame *out,
                                mp_error *err)
{
    mp_status st = mp_frame_reserve(out, raw->width, raw->height, err);
    if (st != MP_OK)
        return st;
    out->bits = 16;
    out->black = lv->out_black;
    out->white = lv->out_white;
    out->cfa = raw->cfa;
    const uint32_t w = raw->width, h = raw->height;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            double v = 0;
            int n = 0;
            for (int d = -2; d <= 2; d++) {
                int64_t yy = (int64_t)y + d;
                if ((d && d != -2 && d != 2) || yy < 0 || yy >= h ||
                    !dualiso_row_is_bright((uint32_t)yy, lv->phase) ||
                    (d && dualiso_row_is_bright(y, lv->phase)))
                    continue;
                v += raw->data[(size_t)yy * w + x];
                n++;
            }
            double s = n ? (v / n - lv->black_bright) / lv->ratio : 0;
            double o = lv->out_black + lv->out_scale * s;
            out->data[(size_t)y * w + x] =
                (uint16_t)lrint(fmin(fmax(o, 0), lv->out_white));
        }
    return MP_OK;
}

