/* mp_develop_frame's row kernels (develop_dsp.h), written once; rows_c.c, x86/rows_sse2.c,
 * x86/rows_avx2.c and arm/rows_neon.c define FN and include this file, and meson builds each
 * with its level's flags (-ffp-contract=off -fno-trapping-math: the latter only lets the
 * compiler evaluate both sides of a select, which changes no value). The loops are branch-free over restrict
 * pointers so that the compiler vectorises them; every lookup index is clamped into the
 * table, so computing all sides of a select reads nothing outside it. */
#include <math.h>
#include <string.h>

#include "develop/develop_dsp.h"

void FN(mp_develop_load)(const uint16_t *restrict src, const float *restrict scale, float black,
                         float top, uint32_t w, float *restrict dst)
{
    for (uint32_t x = 0; x < w; x++) {
        float v = ((float)src[x] - black) * scale[x];
        v = v < 0 ? 0 : v;
        dst[x] = v > top ? top : v;
    }
}

void FN(mp_develop_near)(const float *restrict up, const float *restrict mid,
                         const float *restrict down, uint32_t w, float *restrict tmp,
                         float *restrict near)
{
    for (uint32_t x = 0; x < w; x++) {
        float v = up[x] > mid[x] ? up[x] : mid[x];
        tmp[x] = v > down[x] ? v : down[x];
    }
    if (w == 1) {
        near[0] = tmp[0];
        return;
    }
    near[0] = tmp[0] > tmp[1] ? tmp[0] : tmp[1];
    for (uint32_t x = 1; x + 1 < w; x++) {
        float m = tmp[x - 1] > tmp[x] ? tmp[x - 1] : tmp[x];
        near[x] = m > tmp[x + 1] ? m : tmp[x + 1];
    }
    near[w - 1] = tmp[w - 2] > tmp[w - 1] ? tmp[w - 2] : tmp[w - 1];
}

void FN(mp_develop_grade)(const develop_grade *gp, const float *restrict near, float *restrict r,
                          float *restrict g, float *restrict b, uint32_t w)
{
    const develop_grade k = *gp;
    for (uint32_t x = 0; x < w; x++) {
        float c0 = r[x], c1 = g[x], c2 = b[x];
        c0 = c0 > 0 ? (c0 < k.top_in ? c0 : k.top_in) : 0;
        c1 = c1 > 0 ? (c1 < k.top_in ? c1 : k.top_in) : 0;
        c2 = c2 > 0 ? (c2 < k.top_in ? c2 : k.top_in) : 0;
        float peak = c0 > c1 ? c0 : c1;
        peak = peak > c2 ? peak : c2;
        float t = (near[x] - k.start) * k.ramp;
        t = t > 0 ? t : 0;
        t = t < 1 ? t : 1;
        float wt = k.blend * t * t * (3.0f - 2.0f * t);
        c0 += wt * (peak - c0);
        c1 += wt * (peak - c1);
        c2 += wt * (peak - c2);
        float o0 = k.m[0][0] * c0 + k.m[0][1] * c1 + k.m[0][2] * c2;
        float o1 = k.m[1][0] * c0 + k.m[1][1] * c1 + k.m[1][2] * c2;
        float o2 = k.m[2][0] * c0 + k.m[2][1] * c1 + k.m[2][2] * c2;
        float top = o0 > o1 ? o0 : o1;
        top = top > o2 ? top : o2;
        float u = (top - k.out_start) * k.out_ramp;
        u = u > 0 ? u : 0;
        u = u < 1 ? u : 1;
        float wo = k.blend * u * u * (3.0f - 2.0f * u);
        r[x] = o0 + wo * (top - o0);
        g[x] = o1 + wo * (top - o1);
        b[x] = o2 + wo * (top - o2);
    }
}

/* Pixels per block of the curve lookup below: its index, fraction and table values stay on
 * the stack (1 KiB). */
enum { ENCODE_BLOCK = 64 };

/* curve_lut_apply (curve.h) with all three ranges computed and one selected, in three loops
 * per block: the table index and fraction (vectorised), the two table reads of each pixel
 * (scalar loads), the interpolation and rounding (vectorised). Scalar loads beat AVX2
 * gathers here: 1.0 against 2.3 ns per pixel on an AMD EPYC at AVX2, 2.5 against 6.3 at SSE2
 * (the same bits; doc/benchmarks.md, "Session 12"). */
void FN(mp_develop_encode)(const curve_lut *lut, const float *restrict in, uint32_t w,
                           uint16_t *restrict out)
{
    const float lo = 1.0f / (float)(1 << -CURVE_LOG2_MIN), hi = (float)(1 << CURVE_LOG2_MAX);
    const float below_hi = nextafterf(hi, 0);
    const int32_t frac_bits = 23 - CURVE_MANTISSA_BITS;
    const float *restrict table = lut->y;
    /* the table's ends copied out of it: read through lut, they keep GCC from vectorising */
    float zero, first, last;
    memcpy(&zero, &lut->zero, sizeof zero);
    memcpy(&first, &lut->y[0], sizeof first);
    memcpy(&last, &lut->y[CURVE_ENTRIES - 1], sizeof last);
    const float rise0 = first - zero;
    for (uint32_t x0 = 0; x0 < w; x0 += ENCODE_BLOCK) {
        const uint32_t n = w - x0 < ENCODE_BLOCK ? w - x0 : ENCODE_BLOCK;
        const float *restrict v_in = in + x0;
        uint16_t *restrict dst = out + x0;
        int32_t idx[ENCODE_BLOCK];
        float t[ENCODE_BLOCK], a[ENCODE_BLOCK], b[ENCODE_BLOCK];
        for (uint32_t x = 0; x < n; x++) {
            float c = v_in[x] > lo ? v_in[x] : lo;      /* NaN -> lo */
            c = c < below_hi ? c : below_hi;
            int32_t bits;
            memcpy(&bits, &c, sizeof bits);
            /* c >= lo > 0: the sign bit is clear, so bits is the same as unsigned */
            idx[x] = ((bits >> 23) - (127 + CURVE_LOG2_MIN)) * CURVE_STEPS_PER_OCTAVE +
                     ((bits >> frac_bits) & (CURVE_STEPS_PER_OCTAVE - 1));
            t[x] = (float)(bits & ((1 << frac_bits) - 1)) * (1.0f / (float)(1 << frac_bits));
        }
        for (uint32_t x = 0; x < n; x++) {
            a[x] = table[idx[x]];
            b[x] = table[idx[x] + 1];
        }
        for (uint32_t x = 0; x < n; x++) {
            float v = v_in[x];
            float pos = v > 0 ? v : 0;                  /* also NaN -> 0 */
            float y_lo = zero + rise0 * (pos / lo);
            float y_mid = a[x] + (b[x] - a[x]) * t[x];
            float y = v >= hi ? last : y_mid;
            y = v >= lo ? y : y_lo;
            y = y < 65535.0f ? y : 65535.0f;
            dst[x] = (uint16_t)(int32_t)(y + 0.5f);
        }
    }
}

/* The Y'CbCr rows (develop_dsp.h develop_yuv): the sums are exact integers in double (below
 * 2^53), so truncation after the scale is the floor for every sum >= 0, and a negative sum
 * truncates to at most 0 where the floor goes below 0: both clip to min (>= 0). */
static inline uint16_t yuv_quantise(double v, double scale, int32_t min, int32_t max)
{
    int32_t q = (int32_t)(v * scale);
    q = q < min ? min : q;
    return (uint16_t)(q > max ? max : q);
}

/* out = k . (r, g, b) + offset, quantised (one plane at a time: GCC vectorises a loop with
 * one output, not one with two). */
static void yuv_plane(const double k[3], double offset, const develop_yuv *c,
                          const uint16_t *restrict r, const uint16_t *restrict g,
                          const uint16_t *restrict b, uint32_t w, uint16_t *restrict out)
{
    const double k0 = k[0], k1 = k[1], k2 = k[2], scale = c->scale;
    const int32_t min = c->min, max = c->max;
    for (uint32_t x = 0; x < w; x++)
        out[x] = yuv_quantise(k0 * r[x] + k1 * g[x] + k2 * b[x] + offset, scale, min, max);
}

void FN(mp_develop_yuv444)(const develop_yuv *k, const uint16_t *r, const uint16_t *g,
                           const uint16_t *b, uint32_t w, uint16_t *y, uint16_t *cb,
                           uint16_t *cr)
{
    yuv_plane(k->y, k->y_offset, k, r, g, b, w, y);
    yuv_plane(k->cb, k->c_offset, k, r, g, b, w, cb);
    yuv_plane(k->cr, k->c_offset, k, r, g, b, w, cr);
}

/* Chroma of the even pixel x from its neighbours left and right: [1 2 1] of the three
 * pixels' R', G', B', then one product (the matrix is linear, so this equals filtering the
 * unrounded chroma); k: the three coefficients and 4 times the offset. */
static inline uint16_t chroma_at(const double k[4], double scale, int32_t min,
                                     int32_t max, const uint16_t *restrict r,
                                     const uint16_t *restrict g, const uint16_t *restrict b,
                                     uint32_t left, uint32_t x, uint32_t right)
{
    double rs = (int32_t)r[left] + 2 * (int32_t)r[x] + (int32_t)r[right];
    double gs = (int32_t)g[left] + 2 * (int32_t)g[x] + (int32_t)g[right];
    double bs = (int32_t)b[left] + 2 * (int32_t)b[x] + (int32_t)b[right];
    return yuv_quantise(k[0] * rs + k[1] * gs + k[2] * bs + k[3], scale, min, max);
}

/* One chroma plane of a 4:2:2 row. The row's ends repeat the last sample; the interior loop
 * has no edge tests, so it vectorises. */
static void chroma_422(const double coeff[3], const develop_yuv *c,
                           const uint16_t *restrict r, const uint16_t *restrict g,
                           const uint16_t *restrict b, uint32_t w, uint16_t *restrict out)
{
    const double k[4] = {coeff[0], coeff[1], coeff[2], 4.0 * c->c_offset};
    const double scale = c->scale * 0.25;
    const int32_t min = c->min, max = c->max;
    const uint32_t half = (w + 1) / 2, last = 2 * (half - 1);
    out[0] = chroma_at(k, scale, min, max, r, g, b, 0, 0, w > 1 ? 1 : 0);
    for (uint32_t h = 1; h + 1 < half; h++)
        out[h] = chroma_at(k, scale, min, max, r, g, b, 2 * h - 1, 2 * h, 2 * h + 1);
    if (half > 1)
        out[half - 1] = chroma_at(k, scale, min, max, r, g, b, last - 1, last,
                                      last + 1 < w ? last + 1 : last);
}

void FN(mp_develop_yuv422)(const develop_yuv *k, const uint16_t *r, const uint16_t *g,
                           const uint16_t *b, uint32_t w, uint16_t *y, uint16_t *cb,
                           uint16_t *cr)
{
    yuv_plane(k->y, k->y_offset, k, r, g, b, w, y);
    chroma_422(k->cb, k, r, g, b, w, cb);
    chroma_422(k->cr, k, r, g, b, w, cr);
}
