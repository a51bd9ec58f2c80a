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
