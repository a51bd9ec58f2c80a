#include "common/mp_meta.h"

void mp_raw_active_area(const mp_raw_info *raw, uint32_t width, uint32_t height,
                        uint32_t area[4])
{
    const int32_t *a = raw->active_area;
    if (a[0] >= 0 && a[1] >= 0 && a[0] < a[2] && a[1] < a[3] && (uint32_t)a[2] <= height &&
        (uint32_t)a[3] <= width) {
        for (int i = 0; i < 4; i++)
            area[i] = (uint32_t)a[i];
    } else {
        area[0] = area[1] = 0;
        area[2] = height;
        area[3] = width;
    }
}

void mp_raw_capture_pixel_shape(const mp_raw_capture *c, uint32_t *across, uint32_t *down)
{
    uint32_t h = 1, v = 1;
    if (c->present && c->binning_x + c->skipping_x && c->binning_y + c->skipping_y) {
        h = (uint32_t)c->binning_x + c->skipping_x;
        v = (uint32_t)c->binning_y + c->skipping_y;
    }
    uint32_t a = h, b = v;
    while (b) {
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    *across = h / a;
    *down = v / a;
}
