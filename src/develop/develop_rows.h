/* The row kernels of each level (rows_body.h), for dsp.c's table. */
#ifndef MP_DEVELOP_ROWS_H
#define MP_DEVELOP_ROWS_H

#include "develop/develop_dsp.h"

#define DEVELOP_ROW_KERNELS(l)                                                                 \
    void mp_develop_load_##l(const uint16_t *src, const float *scale, float black, float top, uint32_t w, \
                             float *dst);                                                      \
    void mp_develop_near_##l(const float *up, const float *mid, const float *down, uint32_t w, \
                             float *tmp, float *near);                                         \
    void mp_develop_grade_##l(const develop_grade *g, const float *near, float *r, float *gr,  \
                              float *b, uint32_t w);                                           \
    void mp_develop_encode_##l(const curve_lut *lut, const float *in, uint32_t w,              \
                               uint16_t *out);                                                 \
    void mp_develop_yuv444_##l(const develop_yuv *k, const uint16_t *r, const uint16_t *g,     \
                               const uint16_t *b, uint32_t w, uint16_t *y, uint16_t *cb,       \
                               uint16_t *cr);                                                  \
    void mp_develop_yuv422_##l(const develop_yuv *k, const uint16_t *r, const uint16_t *g,     \
                               const uint16_t *b, uint32_t w, uint16_t *y, uint16_t *cb,       \
                               uint16_t *cr);

DEVELOP_ROW_KERNELS(c)
DEVELOP_ROW_KERNELS(sse2)
DEVELOP_ROW_KERNELS(avx2)
DEVELOP_ROW_KERNELS(neon)

#endif
