/* The row kernels of each level (rows_body.h), for dsp.c's table. */
#ifndef MP_RAWFIX_ROWS_H
#define MP_RAWFIX_ROWS_H

#include "rawfix/rawfix_dsp.h"

#define RAWFIX_ROW_KERNELS(l)                                                                  \
    void mp_rawfix_row_diffs_##l(rawfix_row *r);                                              \
    void mp_rawfix_row_texture_##l(rawfix_row *r);                                            \
    void mp_rawfix_row_z_##l(rawfix_row *r);                                                  \
    void mp_rawfix_row_sums_##l(const rawfix_sums *s);                                        \
    void mp_rawfix_row_destripe_##l(uint16_t *row, size_t n, const float *gain, float black,  \
                                    uint32_t white);

RAWFIX_ROW_KERNELS(c)
RAWFIX_ROW_KERNELS(sse2)
RAWFIX_ROW_KERNELS(avx2)
RAWFIX_ROW_KERNELS(neon)

#endif
