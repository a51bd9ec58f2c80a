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

static void apply_3d(const mp_lut *lut, float rgb[3])
{
    const uint32_t n = lut->size3d;
    float fr, fg, fb;
    uint32_t r = locate(rgb[0], lut->domain3d[0][0], lut->domain3d[1][0], n, &fr);
    uint32_t g = locate(rgb[1], lut->domain3d[0][1], lut->domain3d[1][1], n, &fg);
    uint32_t b = locate(rgb[2], lut->domain3d[0][2], lut->domain3d[1][2], n, &fb);
    const size_t sr = 3, sg = 3 * (size_t)n, sb = 3 * (size_t)n * n;
    const float *p000 = lut->table3d + r * sr + g * sg + b * sb;
    const float *p111 = p000 + sr + sg + sb;
    /* the walk from corner 000 to 111 steps first along the largest fraction's axis */
    const float *p1, *p2;
    float w1, w2, w3; /* weights: p000 (1 - w1), p1 (w1 - w2), p2 (w2 - w3), p111 w3 */
    if (fr >= fg) {
        if (fg >= fb) {
            p1 = p000 + sr, p2 = p000 + sr + sg, w1 = fr, w2 = fg, w3 = fb;
        } else if (fr >= fb) {
            p1 = p000 + sr, p2 = p000 + sr + sb, w1 = fr, w2 = fb, w3 = fg;
        } else {
            p1 = p000 + sb, p2 = p000 + sr + sb, w1 = fb, w2 = fr, w3 = fg;
        }
    } else {
        if (fb >= fg) {
            p1 = p000 + sb, p2 = p000 + sg + sb, w1 = fb, w2 = fg, w3 = fr;
        } else if (fb >= fr) {
            p1 = p000 + sg, p2 = p000 + sg + sb, w1 = fg, w2 = fb, w3 = fr;
        } else {
            p1 = p000 + sg, p2 = p000 + sr + sg, w1 = fg, w2 = fr, w3 = fb;
        }
    }
    for (int c = 0; c < 3; c++)
        rgb[c] = (1 - w1) * p000[c] + (w1 - w2) * p1[c] + (w2 - w3) * p2[c] + w3 * p111[c];
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
