/* RECONSTRUCT highlights: raw-clipped samples rebuilt from the channels that did not clip.
 *
 * A clipped sample only says "at least the clip". Where some channel of a surface clipped and
 * others did not, the unclipped ones, times the surface's colour ratios, give the clipped one
 * back; the ratios come from the unclipped cells around it, the nearest view of that surface.
 * Where that colour cannot hold (the rebuilt value would be below the clip the sample is known
 * to have reached: the surface is not the colour of its neighbourhood), or where no unclipped
 * sample or cell is near, the sample is left unresolved and the grade takes its pixels to
 * white, as the blend mode does. */
#include "highlights.h"

static inline int raw_clipped(const mp_frame *f, uint32_t x, uint32_t y)
{
    return f->data[(size_t)y * f->width + x] >= f->white;
}

/* Mean of each colour over the unclipped 2x2 cells (of the frame's CFA grid) that lie within
 * the reach of (x, r); 0 when there is none. */
static int cell_colour(const highlight_rebuild *hr, const float *cfa, uint32_t wy0,
                       uint32_t rows, uint32_t x, uint32_t r, double sum[3])
{
    const mp_frame *f = hr->f;
    const int32_t reach = HIGHLIGHT_REBUILD_REACH, w = (int32_t)f->width;
    int32_t y = (int32_t)(wy0 + r);
    int32_t ylo = y - reach, yhi = y + reach, xlo = (int32_t)x - reach, xhi = (int32_t)x + reach;
    ylo += ylo & 1; /* first cell row at or after the window's top edge */
    xlo += xlo & 1;
    if (ylo < (int32_t)wy0)
        ylo = (int32_t)wy0 + (int32_t)(wy0 & 1);
    if (xlo < 0)
        xlo = 0;
    int cells = 0, n[3] = {0, 0, 0};
    sum[0] = sum[1] = sum[2] = 0;
    for (int32_t cy = ylo; cy + 1 <= yhi && cy + 1 < (int32_t)(wy0 + rows); cy += 2)
        for (int32_t cx = xlo; cx + 1 <= xhi && cx + 1 < w; cx += 2) {
            if (raw_clipped(f, (uint32_t)cx, (uint32_t)cy) ||
                raw_clipped(f, (uint32_t)cx + 1, (uint32_t)cy) ||
                raw_clipped(f, (uint32_t)cx, (uint32_t)cy + 1) ||
                raw_clipped(f, (uint32_t)cx + 1, (uint32_t)cy + 1))
                continue;
            const float *c0 = cfa + (size_t)((uint32_t)cy - wy0) * (uint32_t)w;
            for (int dy = 0; dy < 2; dy++)
                for (int dx = 0; dx < 2; dx++) {
                    uint32_t c = mp_cfa_colour(f->cfa, (uint32_t)(cx + dx), (uint32_t)(cy + dy));
                    sum[c] += c0[(size_t)dy * (uint32_t)w + (uint32_t)(cx + dx)];
                    n[c]++;
                }
            cells++;
        }
    for (int c = 0; c < 3; c++)
        sum[c] = n[c] ? sum[c] / n[c] : 0;
    return cells;
}

/* The rebuilt value of clipped sample (x, r), or -1 when it cannot be rebuilt. */
static float rebuild_one(const highlight_rebuild *hr, const float *cfa, uint32_t wy0,
                         uint32_t rows, uint32_t x, uint32_t r)
{
    const mp_frame *f = hr->f;
    const uint32_t w = f->width, y = wy0 + r;
    const uint32_t k = mp_cfa_colour(f->cfa, x, y);
    double near[3] = {0, 0, 0};
    int n[3] = {0, 0, 0};
    for (int32_t dy = -1; dy <= 1; dy++)
        for (int32_t dx = -1; dx <= 1; dx++) {
            int64_t yy = (int64_t)y + dy, xx = (int64_t)x + dx;
            if (yy < (int64_t)wy0 || yy >= (int64_t)(wy0 + rows) || xx < 0 || xx >= (int64_t)w)
                continue;
            uint32_t c = mp_cfa_colour(f->cfa, (uint32_t)xx, (uint32_t)yy);
            if (c == k || raw_clipped(f, (uint32_t)xx, (uint32_t)yy))
                continue;
            near[c] += cfa[(size_t)(yy - wy0) * w + (size_t)xx];
            n[c]++;
        }
    double sum[3];
    if (!cell_colour(hr, cfa, wy0, rows, x, r, sum) || !(sum[k] > 0))
        return -1;
    double est = 0;
    int used = 0;
    for (int c = 0; c < 3; c++)
        if (n[c] && sum[c] > 0) {
            est += near[c] / n[c] * (sum[k] / sum[c]);
            used++;
        }
    if (!used)
        return -1;
    est /= used;
    if (est < hr->wb[y & 1][x & 1])
        return -1; /* below the clip it reached: not the neighbourhood's colour */
    return est < hr->top ? (float)est : hr->top;
}

void mp_highlight_rebuild_rows(const highlight_rebuild *hr, float *cfa, float *failed,
                               uint32_t wy0, uint32_t rows, uint32_t r0, uint32_t r1)
{
    const mp_frame *f = hr->f;
    const uint32_t w = f->width;
    for (uint32_t r = r0; r < r1; r++) {
        float *fl = failed + (size_t)r * w;
        for (uint32_t x = 0; x < w; x++) {
            fl[x] = 0;
            if (!raw_clipped(f, x, wy0 + r))
                continue;
            float v = rebuild_one(hr, cfa, wy0, rows, x, r);
            if (v < 0) {
                fl[x] = 1;
                v = hr->unresolved;
            }
            cfa[(size_t)r * w + x] = v;
        }
    }
}
