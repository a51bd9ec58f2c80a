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
    /* The rows compute in double (develop_dsp.h yuv444, yuv422): every coefficient is below
     * 2^34 in magnitude (16 bits of input to at most 1023 codes: 2^-6 of 2^40), every input
     * sum below 2^18 (4:2:2's [1 2 1]), so each product and each partial sum, offsets
     * included, is an integer below 2^53 (at most 2^52 + 2^51): double arithmetic is exact,
     * gives the int64 sums bit for bit, and vectorises where int64 multiplies do not (SSE2
     * has none). Scaling by 2^-40 (2^-42 with the filter's /4) is exact too. */
    for (int i = 0; i < 3; i++) {
        c->rows.y[i] = (double)c->y[i];
        c->rows.cb[i] = (double)c->cb[i];
        c->rows.cr[i] = (double)c->cr[i];
    }
    c->rows.y_offset = (double)c->y_offset;
    c->rows.c_offset = (double)c->c_offset;
    c->rows.scale = 1.0 / (double)ONE;
    c->rows.min = c->min;
    c->rows.max = c->max;
    c->dsp = mp_develop_dsp_for(mp_cpu_level_get());
    return MP_OK;
}

void mp_av_yuv_row_444(const mp_av_yuv_coeffs *c, const uint16_t *r, const uint16_t *g,
                       const uint16_t *b, uint32_t width, uint16_t *y, uint16_t *cb,
                       uint16_t *cr)
{
    c->dsp->yuv444(&c->rows, r, g, b, width, y, cb, cr);
}

void mp_av_yuv_row_422(const mp_av_yuv_coeffs *c, const uint16_t *r, const uint16_t *g,
                       const uint16_t *b, uint32_t width, uint16_t *y, uint16_t *cb,
                       uint16_t *cr)
{
    c->dsp->yuv422(&c->rows, r, g, b, width, y, cb, cr);
}
