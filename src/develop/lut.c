/* mp_lut_apply: 1D tables by linear interpolation per channel, 3D tables tetrahedrally (the
 * cube cell is cut into six tetrahedra along its grey diagonal, chosen by the order of the
 * three fractions: it keeps greys on the diagonal and needs four corners, not eight). */
#include "develop/lut.h"

#include <stdlib.h>

/* How one channel's value finds its place in a table: x = (v - lo) * scale, in [0, top]. */
typedef struct lut_axis {
    float lo, scale, top;
} lut_axis;

static void axes_of(const float domain[2][3], uint32_t size, lut_axis axis[3])
{
    for (int c = 0; c < 3; c++)
        axis[c] = (lut_axis){domain[0][c], (float)(size - 1) / (domain[1][c] - domain[0][c]),
                             (float)(size - 1)};
}

/* The cell of v (an index below size - 1) and the fraction into it. */
static inline uint32_t locate(const lut_axis *a, float v, float *frac)
{
    float x = (v - a->lo) * a->scale;
    x = x > 0 ? (x < a->top ? x : a->top) : 0;
    uint32_t i = (uint32_t)x;
    i = (float)i < a->top ? i : i - 1;
    *frac = x - (float)i;
    return i;
}

static void apply_1d(const mp_lut *lut, const lut_axis axis[3], float rgb[3])
{
    for (int c = 0; c < 3; c++) {
        float f;
        const float *t = lut->table1d + 3 * locate(&axis[c], rgb[c], &f) + c;
        rgb[c] = t[0] + (t[3] - t[0]) * f;
    }
}

/* Swaps axis a and b of the fractions and their strides. */
static inline void swap_axes(float f[3], size_t step[3], int a, int b)
{
    float t = f[a];
    f[a] = f[b];
    f[b] = t;
    size_t u = step[a];
    step[a] = step[b];
    step[b] = u;
}

static void apply_3d(const mp_lut *lut, const lut_axis axis[3], float rgb[3])
{
    const size_t n = lut->size3d;
    float f[3];
    size_t step[3] = {3, 3 * n, 3 * n * n}, at = 0;
    for (int c = 0; c < 3; c++)
        at += locate(&axis[c], rgb[c], &f[c]) * step[c];
    /* the walk from corner 000 to 111 steps along the axes by falling fraction (ties give
     * a zero weight, so their order does not matter) */
    if (f[0] < f[1])
        swap_axes(f, step, 0, 1);
    if (f[1] < f[2])
        swap_axes(f, step, 1, 2);
    if (f[0] < f[1])
        swap_axes(f, step, 0, 1);
    const float *p0 = lut->table3d + at, *p1 = p0 + step[0], *p2 = p1 + step[1],
                *p3 = p2 + step[2];
    for (int c = 0; c < 3; c++)
        rgb[c] = (1 - f[0]) * p0[c] + (f[0] - f[1]) * p1[c] + (f[1] - f[2]) * p2[c] +
                 f[2] * p3[c];
}

static inline uint16_t to_code(float v)
{
    v = v > 0 ? (v < 1 ? v : 1) : 0;
    return (uint16_t)(v * 65535.0f + 0.5f);
}

void mp_lut_apply(const mp_lut *lut, uint16_t *const plane[3], size_t n)
{
    lut_axis axis1d[3], axis3d[3];
    axes_of(lut->domain1d, lut->size1d, axis1d);
    axes_of(lut->domain3d, lut->size3d, axis3d);
    for (size_t i = 0; i < n; i++) {
        float rgb[3];
        for (int c = 0; c < 3; c++)
            rgb[c] = (float)plane[c][i] * (1.0f / 65535.0f);
        if (lut->size1d)
            apply_1d(lut, axis1d, rgb);
        if (lut->size3d)
            apply_3d(lut, axis3d, rgb);
        for (int c = 0; c < 3; c++)
            plane[c][i] = to_code(rgb[c]);
    }
}

void mp_lut_free(mp_lut *lut)
{
    free(lut->table1d);
    free(lut->table3d);
    *lut = (mp_lut){0};
}
