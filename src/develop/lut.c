/* mp_lut_apply: 1D tables by linear interpolation per channel, 3D tables tetrahedrally (the
 * cube cell is cut into six tetrahedra along its grey diagonal, chosen by the order of the
 * three fractions: it keeps greys on the diagonal and needs four corners, not eight). */
#include "develop/lut.h"

#include <stdlib.h>

/* v in [0, 1] into the table's index space: a cell index below size - 1 and the fraction. */
static inline uint32_t locate(float v, float lo, float hi, uint32_t size, float *frac)
{
    float t = (v - lo) / (hi - lo);
    t = t > 0 ? (t < 1 ? t : 1) : 0;
    float x = t * (float)(size - 1);
    uint32_t i = (uint32_t)x;
    i = i < size - 1 ? i : size - 2;
    *frac = x - (float)i;
    return i;
}

static void apply_1d(const mp_lut *lut, float rgb[3])
{
    for (int c = 0; c < 3; c++) {
        float f;
        uint32_t i = locate(rgb[c], lut->domain1d[0][c], lut->domain1d[1][c], lut->size1d, &f);
        const float *t = lut->table1d + 3 * i + c;
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

static void apply_3d(const mp_lut *lut, float rgb[3])
{
    const uint32_t n = lut->size3d;
    float f[3];
    size_t step[3] = {3, 3 * (size_t)n, 3 * (size_t)n * n}, at = 0;
    for (int c = 0; c < 3; c++)
        at += locate(rgb[c], lut->domain3d[0][c], lut->domain3d[1][c], n, &f[c]) * step[c];
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
    for (size_t i = 0; i < n; i++) {
        float rgb[3];
        for (int c = 0; c < 3; c++)
            rgb[c] = (float)plane[c][i] * (1.0f / 65535.0f);
        if (lut->size1d)
            apply_1d(lut, rgb);
        if (lut->size3d)
            apply_3d(lut, rgb);
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
