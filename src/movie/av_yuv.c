#include "movie/av_yuv.h"
#include "movie/av_load.h"

#include <math.h>

#include <libavutil/pixdesc.h>

#define FRAC_BITS 40   /* products stay below 2^56 even for the 4:2:2 sums */
#define ONE ((int64_t)1 << FRAC_BITS)

static int64_t fixed(double v)
{
    return (int64_t)floor(v * (double)ONE + 0.5);
}

mp_status mp_av_yuv_init(mp_av_yuv_coeffs *c, enum AVColorSpace matrix, enum AVColorRange range,
                      mp_error *err)
{
    return mp_av_yuv_init_bits(c, matrix, range, 10, err);
}

mp_status mp_av_yuv_init_bits(mp_av_yuv_coeffs *c, enum AVColorSpace matrix,
                              enum AVColorRange range, int bits, mp_error *err)
{
    if (bits != 8 && bits != 10)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%d-bit Y'CbCr is not supported", bits);
    const int step = 1 << (bits - 8), top = (1 << bits) - 1;
    double kr, kb;
    switch (matrix) {
    case AVCOL_SPC_UNSPECIFIED:
        matrix = AVCOL_SPC_BT709;
        /* fall through */
    case AVCOL_SPC_BT709: kr = 0.2126; kb = 0.0722; break;
    case AVCOL_SPC_BT2020_NCL: kr = 0.2627; kb = 0.0593; break;
    case AVCOL_SPC_SMPTE170M:
    case AVCOL_SPC_BT470BG: kr = 0.299; kb = 0.114; break;
    default:
        return mp_error_set(
            err, MP_ERR_UNSUPPORTED, "Y'CbCr matrix %s is not supported",
            mp_libav_load(NULL) == MP_OK && mp_libav.av_color_space_name(matrix)
                ? mp_libav.av_color_space_name(matrix)
                : "?");
    }
    double y_span, c_span, y_base;
    switch (range) {
    case AVCOL_RANGE_UNSPECIFIED:
        range = AVCOL_RANGE_MPEG;
        /* fall through */
    case AVCOL_RANGE_MPEG:
        y_span = 219 * step; c_span = 224 * step; y_base = 16 * step;
        c->min = step; c->max = 255 * step - 1;    /* codes outside are reserved for sync */
        break;
    case AVCOL_RANGE_JPEG: y_span = top; c_span = top; y_base = 0; c->min = 0; c->max = top; break;
    default:
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "colour range %d is not supported", range);
    }
    double ys = y_span / 65535.0, cs = c_span / 65535.0;
    /* The green coefficients absorb the rounding so that grey gives exactly Y = Y' span and
     * Cb = Cr = 0 before the offsets: white is 940 (1023) at 10 bits, every grey has chroma
     * 512 (128 at 8 bits). */
    c->y[0] = fixed(kr * ys);
    c->y[2] = fixed(kb * ys);
    c->y[1] = fixed(ys) - c->y[0] - c->y[2];
    double cbd = 2.0 * (1.0 - kb), crd = 2.0 * (1.0 - kr);
    c->cb[0] = fixed(-kr / cbd * cs);
    c->cb[2] = fixed((1.0 - kb) / cbd * cs);
    c->cb[1] = -c->cb[0] - c->cb[2];
    c->cr[0] = fixed((1.0 - kr) / crd * cs);
    c->cr[2] = fixed(-kb / crd * cs);
    c->cr[1] = -c->cr[0] - c->cr[2];
    c->y_offset = (int64_t)y_base * ONE + ONE / 2;
    c->c_offset = (int64_t)(128 * step) * ONE + ONE / 2;
    c->matrix = matrix;
    c->range = range;
    return MP_OK;
}

/* The rows compute in double: every coefficient is below 2^34 in magnitude (16 bits of
 * input to at most 1023 codes: 2^-6 of 2^40), every input sum below 2^18 (4:2:2's [1 2 1]),
 * so each product and each partial sum, offsets included, is an integer below 2^53 (at
 * most 2^52 + 2^51): double arithmetic is exact, gives the int64 sums bit for bit, and
 * vectorises where int64 multiplies do not (SSE2 has none): bench_av's rgb->yuv422 row, 13.3
 * -> 7.5 ms per 1080p frame (doc/benchmarks.md, "Session 12"). Scaling by 2^-40 (2^-42 with
 * the filter's /4) is exact too; truncation equals the floor for every sum >= 0, and a
 * negative sum truncates to at most 0 and floors below 0, which both give c->min (>= 0). */
static inline uint16_t quantise(double v, double scale, int32_t min, int32_t max)
{
    int32_t q = (int32_t)(v * scale);
    q = q < min ? min : q;
    return (uint16_t)(q > max ? max : q);
}

/* out = k . (r, g, b) + offset, quantised, for width pixels (one plane at a time: GCC
 * vectorises a loop with one output, not one with two). */
static void plane_row(const int64_t k[3], int64_t offset, const mp_av_yuv_coeffs *c,
                      const uint16_t *restrict r, const uint16_t *restrict g,
                      const uint16_t *restrict b, uint32_t width, uint16_t *restrict out)
{
    const double k0 = (double)k[0], k1 = (double)k[1], k2 = (double)k[2], off = (double)offset;
    const double scale = 1.0 / (double)ONE;
    const int32_t min = c->min, max = c->max;
    for (uint32_t x = 0; x < width; x++)
        out[x] = quantise(k0 * r[x] + k1 * g[x] + k2 * b[x] + off, scale, min, max);
}

void mp_av_yuv_row_444(const mp_av_yuv_coeffs *c, const uint16_t *r, const uint16_t *g,
                       const uint16_t *b, uint32_t width, uint16_t *y, uint16_t *cb,
                       uint16_t *cr)
{
    plane_row(c->y, c->y_offset, c, r, g, b, width, y);
    plane_row(c->cb, c->c_offset, c, r, g, b, width, cb);
    plane_row(c->cr, c->c_offset, c, r, g, b, width, cr);
}

/* Chroma of the even pixel x from its neighbours left and right: [1 2 1] of the three
 * pixels' R', G', B', then one product (the matrix is linear, so this equals filtering the
 * unrounded chroma). k: the three coefficients and 4 times the offset. */
static inline uint16_t chroma_at(const double k[4], int32_t min, int32_t max,
                                 const uint16_t *restrict r, const uint16_t *restrict g,
                                 const uint16_t *restrict b, uint32_t left, uint32_t x,
                                 uint32_t right)
{
    double rs = (int32_t)r[left] + 2 * (int32_t)r[x] + (int32_t)r[right];
    double gs = (int32_t)g[left] + 2 * (int32_t)g[x] + (int32_t)g[right];
    double bs = (int32_t)b[left] + 2 * (int32_t)b[x] + (int32_t)b[right];
    return quantise(k[0] * rs + k[1] * gs + k[2] * bs + k[3], 1.0 / (double)(ONE * 4), min,
                    max);
}

/* One chroma plane of a 4:2:2 row. The row's ends repeat the last sample; the interior loop
 * has no edge tests, so it vectorises. */
static void chroma_422(const int64_t coeff[3], const mp_av_yuv_coeffs *c,
                       const uint16_t *restrict r, const uint16_t *restrict g,
                       const uint16_t *restrict b, uint32_t width, uint16_t *restrict out)
{
    const double k[4] = {(double)coeff[0], (double)coeff[1], (double)coeff[2],
                         4.0 * (double)c->c_offset};
    const int32_t min = c->min, max = c->max;
    const uint32_t half = (width + 1) / 2, last = 2 * (half - 1);
    out[0] = chroma_at(k, min, max, r, g, b, 0, 0, width > 1 ? 1 : 0);
    for (uint32_t h = 1; h + 1 < half; h++)
        out[h] = chroma_at(k, min, max, r, g, b, 2 * h - 1, 2 * h, 2 * h + 1);
    if (half > 1)
        out[half - 1] = chroma_at(k, min, max, r, g, b, last - 1, last,
                                  last + 1 < width ? last + 1 : last);
}

void mp_av_yuv_row_422(const mp_av_yuv_coeffs *c, const uint16_t *r, const uint16_t *g,
                       const uint16_t *b, uint32_t width, uint16_t *y, uint16_t *cb,
                       uint16_t *cr)
{
    plane_row(c->y, c->y_offset, c, r, g, b, width, y);
    chroma_422(c->cb, c, r, g, b, width, cb);
    chroma_422(c->cr, c, r, g, b, width, cr);
}
