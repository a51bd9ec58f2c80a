/* Borrowing another clip's defect sites (rawfix.h, mp_rawfix_map_add_moved). A hot pixel or a
 * focus pixel is a photosite: in a clip whose window starts elsewhere in the same LiveView
 * buffer it sits at the same buffer position, so only the offset between the windows moves
 * it. */
#include <stdlib.h>
#include <string.h>

#include "rawfix/rawfix.h"

static uint32_t residue(int64_t v, uint32_t period)
{
    int64_t r = v % (int64_t)period;
    return (uint32_t)(r < 0 ? r + period : r);
}

static int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Whether the clip's own frames show most of lattice l's sites in line with their neighbours
 * (m->clean): a lattice placed where this clip has none (a window recorded elsewhere than its
 * pixels, a body without focus pixels in this mode) would only replace good values with
 * guesses. Focus pixels this clip shows are candidates here, so not clean. */
static int mostly_clean(const rawfix_map *m, const rawfix_lattice *l)
{
    uint64_t sites = 0, clean = 0;
    for (uint32_t y = l->y0; m->clean && y < l->y1; y++)
        for (uint32_t k = 0; k < l->class_count; k++) {
            if (y % l->period_y != l->class_y[k])
                continue;
            const uint32_t first = l->x0 + (l->class_x[k] + l->period_x - l->x0 % l->period_x) %
                                                l->period_x;
            for (uint32_t x = first; x < l->x1; x += l->period_x) {
                const size_t at = (size_t)y * m->width + x;
                sites++;
                clean += (m->clean[at / 8] >> (at % 8)) & 1;
            }
        }
    return 2 * clean > sites;
}

static void move_lattice(rawfix_map *m, const rawfix_lattice *src, int32_t dx, int32_t dy)
{
    const uint32_t width = m->width, height = m->height;
    rawfix_lattice l = *src;
    l.x0 = (uint32_t)clamp((int64_t)src->x0 + dx, 0, width);
    l.x1 = (uint32_t)clamp((int64_t)src->x1 + dx, 0, width);
    l.y0 = (uint32_t)clamp((int64_t)src->y0 + dy, 0, height);
    l.y1 = (uint32_t)clamp((int64_t)src->y1 + dy, 0, height);
    for (uint32_t k = 0; k < l.class_count; k++) {
        l.class_x[k] = residue((int64_t)src->class_x[k] + dx, l.period_x);
        l.class_y[k] = residue((int64_t)src->class_y[k] + dy, l.period_y);
    }
    if (!(l.x0 < l.x1 && l.y0 < l.y1 && mp_rawfix_lattice_sites(&l)))
        return;
    if (mostly_clean(m, &l))
        m->borrowed_lattice_vetoed = 1;
    else
        m->lattice = l;
}

static int raster_less(const uint32_t *a, const uint32_t *b)
{
    return a[1] != b[1] ? a[1] < b[1] : a[0] < b[0];
}

mp_status mp_rawfix_map_add_moved(rawfix_map *dst, const rawfix_map *src, int32_t dx, int32_t dy,
                                  mp_error *err)
{
    if (!dst->lattice.period_x && src->lattice.period_x && src->lattice.class_count)
        move_lattice(dst, &src->lattice, dx, dy);
    /* src's sites that land in dst's frame, still in raster order (a move keeps the order) */
    uint32_t *moved = malloc(2 * ((size_t)src->pixel_count + 1) * sizeof *moved);
    uint32_t *merged = malloc(2 * ((size_t)src->pixel_count + dst->pixel_count + 1) *
                              sizeof *merged);
    if (!moved || !merged) {
        free(moved);
        free(merged);
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for a defect map");
    }
    uint32_t n = 0;
    for (uint32_t k = 0; k < src->pixel_count; k++) {
        int64_t x = (int64_t)src->pixels[2 * k] + dx, y = (int64_t)src->pixels[2 * k + 1] + dy;
        if (x < 0 || y < 0 || x >= dst->width || y >= dst->height)
            continue;
        const size_t at = (size_t)y * dst->width + (size_t)x;
        if (dst->clean && (dst->clean[at / 8] >> (at % 8)) & 1) {
            dst->borrowed_vetoed++;
            continue;
        }
        moved[2 * n] = (uint32_t)x;
        moved[2 * n + 1] = (uint32_t)y;
        n++;
    }
    uint32_t i = 0, j = 0, m = 0;
    while ((i < dst->pixel_count || j < n) && m < RAWFIX_MAX_PIXELS) {
        const uint32_t *a = i < dst->pixel_count ? &dst->pixels[2 * i] : NULL;
        const uint32_t *b = j < n ? &moved[2 * j] : NULL;
        const uint32_t *next = !b || (a && !raster_less(b, a)) ? a : b;
        if (a && b && a[0] == b[0] && a[1] == b[1])
            j++;
        if (next == a)
            i++;
        else
            j++;
        memcpy(&merged[2 * m++], next, 2 * sizeof *next);
    }
    free(moved);
    free(dst->pixels);
    dst->pixels = merged;
    dst->pixel_count = m;
    return MP_OK;
}
