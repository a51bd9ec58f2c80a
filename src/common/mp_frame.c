#include "common/mp_frame.h"

#include <stdlib.h>

mp_status mp_frame_reserve(mp_frame *f, uint32_t width, uint32_t height, mp_error *err)
{
    if (width == 0 || height == 0)
        return mp_error_set(err, MP_ERR_ARG, "frame size %ux%u is empty", width, height);
    if (width > MP_FRAME_MAX_DIM || height > MP_FRAME_MAX_DIM ||
        (uint64_t)width * height > MP_FRAME_MAX_PIXELS)
        return mp_error_set(err, MP_ERR_NOMEM, "frame size %ux%u exceeds the %u-pixel limit",
                            width, height, MP_FRAME_MAX_PIXELS);
    size_t need = (size_t)width * height;
    if (need > f->capacity) {
        uint16_t *p = realloc(f->data, need * sizeof *p);
        if (!p)
            return mp_error_set(err, MP_ERR_NOMEM, "cannot allocate a %ux%u frame", width, height);
        f->data = p;
        f->capacity = need;
    }
    f->width = width;
    f->height = height;
    return MP_OK;
}

int mp_cfa_is_bayer(uint32_t cfa)
{
    uint32_t a = mp_cfa_colour(cfa, 0, 0), b = mp_cfa_colour(cfa, 1, 0);
    uint32_t c = mp_cfa_colour(cfa, 0, 1), d = mp_cfa_colour(cfa, 1, 1);
    if (a > 2 || b > 2 || c > 2 || d > 2)
        return 0;
    if (a == 1 && d == 1)
        return b != 1 && c != 1 && b != c;
    return b == 1 && c == 1 && a != 1 && d != 1 && a != d;
}

void mp_frame_free(mp_frame *f)
{
    free(f->data);
    f->data = NULL;
    f->capacity = 0;
}
