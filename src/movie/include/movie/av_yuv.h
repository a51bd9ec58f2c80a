/* movie/av_yuv: R'G'B' (16-bit full range, 65535 = 1.0) -> 10-bit Y'CbCr for ProRes and
 * DNxHR HQX/444, 8-bit for DNxHR HQ.
 *
 * Y' = Kr R' + Kg G' + Kb B',  Cb' = (B' - Y') / (2 (1 - Kb)),  Cr' = (R' - Y') / (2 (1 - Kr))
 * with Kr/Kb of BT.709 (0.2126/0.0722), BT.2020 non-constant luminance (0.2627/0.0593) or
 * BT.601 (0.299/0.114). Quantisation (ITU-T H.273, 10 bits):
 *   limited ("tv", AVCOL_RANGE_MPEG): Y = 64 + 876 Y',  C = 512 + 896 C'   (clipped to 4..1019)
 *   full    ("pc", AVCOL_RANGE_JPEG): Y = 1023 Y',      C = 512 + 1023 C'  (clipped to 0..1023)
 * and at 8 bits: limited Y = 16 + 219 Y', C = 128 + 224 C' (1..254); full Y = 255 Y',
 * C = 128 + 255 C' (0..255).
 *
 * Integer arithmetic with coefficients fixed once from the doubles above (40 fraction bits,
 * rounded half up), so the output is the same on every machine, CPU level and thread count
 * (the rows, develop's SIMD kernels yuv444/yuv422, hold the integer sums in doubles, exact
 * below 2^53: av_yuv.c).
 * 4:2:2 chroma is co-sited with the even luma samples (BT.709 siting) and filtered with
 * [1 2 1]/4 before rounding; the row edges repeat the last sample. */
#ifndef MP_AV_YUV_H
#define MP_AV_YUV_H

#include <stdint.h>

#include <libavutil/pixfmt.h>

#include "common/mp_status.h"
#include "develop/develop_dsp.h"

typedef struct mp_av_yuv_coeffs {
    int64_t y[3], cb[3], cr[3];   /* per 16-bit input code, for R, G, B; 40 fraction bits */
    int64_t y_offset, c_offset;   /* output offsets with the same scale */
    int32_t min, max;             /* output clip */
    enum AVColorSpace matrix;     /* what was used (tag it) */
    enum AVColorRange range;
    develop_yuv rows;             /* the same as the rows' kernels take them */
    const develop_dsp *dsp;       /* the kernels of the CPU level at init */
} mp_av_yuv_coeffs;

/* matrix: AVCOL_SPC_BT709, AVCOL_SPC_BT2020_NCL, AVCOL_SPC_SMPTE170M or AVCOL_SPC_BT470BG;
 * AVCOL_SPC_UNSPECIFIED means BT.709 (what players assume for HD). range: AVCOL_RANGE_MPEG
 * or AVCOL_RANGE_JPEG; AVCOL_RANGE_UNSPECIFIED means limited. Others: MP_ERR_UNSUPPORTED. */
mp_status mp_av_yuv_init(mp_av_yuv_coeffs *c, enum AVColorSpace matrix, enum AVColorRange range,
                      mp_error *err);
/* The same at `bits` 8 or 10 (mp_av_yuv_init: 10); the rows below then hold 8-bit codes. */
mp_status mp_av_yuv_init_bits(mp_av_yuv_coeffs *c, enum AVColorSpace matrix,
                              enum AVColorRange range, int bits, mp_error *err);

/* One row of width pixels to 4:4:4: y, cb, cr hold width samples each. */
void mp_av_yuv_row_444(const mp_av_yuv_coeffs *c, const uint16_t *r, const uint16_t *g,
                    const uint16_t *b, uint32_t width, uint16_t *y, uint16_t *cb, uint16_t *cr);

/* One row to 4:2:2: y holds width samples, cb and cr (width + 1) / 2. */
void mp_av_yuv_row_422(const mp_av_yuv_coeffs *c, const uint16_t *r, const uint16_t *g,
                    const uint16_t *b, uint32_t width, uint16_t *y, uint16_t *cb, uint16_t *cr);

#endif
