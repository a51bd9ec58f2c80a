/* The blend kernels in C: the level c of dsp.c's table, and the tails the SIMD levels
 * (blend_body.h) leave to it. */
#include "dualiso/dsp.h"

void mp_dualiso_blend_noise_c(const dualiso_blend_row *r, uint32_t x0, uint32_t x1)
{
    for (uint32_t x = x0; x < x1; x++)
        dualiso_blend_noise_px(r, x);
}

void mp_dualiso_blend_mix_c(const dualiso_blend_row *r, uint32_t x0, uint32_t x1)
{
    for (uint32_t x = x0; x < x1; x++)
        dualiso_blend_mix_px(r, x);
}
