/* rawfix_plan_make and rawfix_apply: the repair of frames from a map (rawfix.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rawfix_priv.h"

void mp_rawfix_plan_free(rawfix_plan *p)
{
    free(p->sites);
    free(p->is_site);
    memset(p, 0, sizeof *p);
}

static void mark(rawfix_plan *p, uint32_t x, uint32_t y)
{
    if (x < p->width && y < p->height)
        p->is_site[(size_t)y * p->width + x] = 1;
}

mp_status mp_rawfix_plan_make(const rawfix_map *m, unsigned fixes, int dual, rawfix_plan *p,
                           mp_error *err)
{
    memset(p, 0, sizeof *p);
    p->width = m->width;
    p->height = m->height;
    p->dual = dual;
    p->stripes = (fixes & RAWFIX_STRIPES) && m->stripes;
    for (uint32_t r = 0; r < RAWFIX_STRIPE_ROWS; r++)
        for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++)
            p->inv_gain[r][c] = p->stripes ? (float)(1 / m->stripe_gain[r][c]) : 1;
    const rawfix_lattice *l = &m->lattice;
    int lattice = (fixes & RAWFIX_FOCUS) && l->period_x && l->class_count;
    int singles = (fixes & RAWFIX_BAD) && m->pixel_count;
    if (!lattice && !singles)
        return MP_OK;
    const size_t n = (size_t)m->width * m->height;
    if (!(p->is_site = calloc(n, 1))) {
        mp_rawfix_plan_free(p);
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for a %ux%u plan",
                            m->width, m->height);
    }
    for (uint32_t k = 0; lattice && k < l->class_count; k++) {
        uint32_t x0 = l->x0 + (l->class_x[k] + l->period_x - l->x0 % l->period_x) % l->period_x;
        uint32_t y0 = l->y0 + (l->class_y[k] + l->period_y - l->y0 % l->period_y) % l->period_y;
        for (uint32_t y = y0; y < l->y1; y += l->period_y)
            for (uint32_t x = x0; x < l->x1; x += l->period_x)
                mark(p, x, y);
    }
    for (uint32_t k = 0; singles && k < m->pixel_count; k++)
        mark(p, m->pixels[2 * k], m->pixels[2 * k + 1]);
    for (size_t i = 0; i < n; i++)
        p->site_count += p->is_site[i];
    if (!(p->sites = malloc((p->site_count ? p->site_count : 1) * sizeof *p->sites))) {
        mp_rawfix_plan_free(p);
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory");
    }
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (p->is_site[i])
            p->sites[k++] = (uint32_t)i;
    return MP_OK;
}

static void apply_stripes(const rawfix_plan *p, mp_frame *f)
{
    const float black = (float)f->black;
    for (uint32_t y = 0; y < f->height; y++) {
        const float *g = p->inv_gain[y % RAWFIX_STRIPE_ROWS];
        uint16_t *row = f->data + (size_t)y * f->width;
        for (uint32_t x = 0; x < f->width; x++) {
            if (row[x] >= f->white)   /* clipped samples stay clipped */
                continue;
            float v = black + (row[x] - black) * g[x % RAWFIX_STRIPE_COLS] + 0.5f;
            row[x] = (uint16_t)(v < 0 ? 0 : v >= f->white ? f->white - 1 : v);
        }
    }
}

/* The site's value from its same-colour neighbours of the same field: the pair (opposite
 * sides) that differ least, else the mean of whatever neighbours are usable. */
static void repair_site(const rawfix_plan *p, uint16_t *d, uint32_t i)
{
    const int32_t w = (int32_t)p->width, h = (int32_t)p->height, s = (int32_t)mp_rawfix_vstep(p->dual);
    const int32_t x = (int32_t)(i % p->width), y = (int32_t)(i / p->width);
    static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    int32_t best = -1, best_diff = INT32_MAX, single_sum = 0, singles = 0;
    for (int k = 0; k < 4; k++) {
        int32_t dx = 2 * dirs[k][0], dy = s * dirs[k][1];
        int32_t ax = x - dx, ay = y - dy, bx = x + dx, by = y + dy;
        int a_ok = ax >= 0 && ay >= 0 && ax < w && ay < h &&
                   !p->is_site[(size_t)ay * w + ax];
        int b_ok = bx >= 0 && by >= 0 && bx < w && by < h &&
                   !p->is_site[(size_t)by * w + bx];
        int32_t a = a_ok ? d[(size_t)ay * w + ax] : 0, b = b_ok ? d[(size_t)by * w + bx] : 0;
        single_sum += a + b;
        singles += a_ok + b_ok;
        if (a_ok && b_ok && abs(a - b) < best_diff) {
            best_diff = abs(a - b);
            best = (a + b + 1) / 2;
        }
    }
    if (best >= 0)
        d[i] = (uint16_t)best;
    else if (singles)
        d[i] = (uint16_t)((single_sum + singles / 2) / singles);
}

mp_status mp_rawfix_apply(const rawfix_plan *p, mp_frame *f, mp_error *err)
{
    if (!mp_rawfix_plan_active(p))
        return MP_OK;
    if (f->width != p->width || f->height != p->height)
        return mp_error_set(err, MP_ERR_ARG, "rawfix: a %ux%u frame, the map is for %ux%u",
                            f->width, f->height, p->width, p->height);
    if (p->stripes)
        apply_stripes(p, f);
    for (uint32_t k = 0; k < p->site_count; k++)
        repair_site(p, f->data, p->sites[k]);
    return MP_OK;
}
