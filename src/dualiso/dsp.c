/* The denoise kernels in C and the table of versions per instruction-set level (the blend
 * kernels in C are blend_c.c, which the SIMD levels also call for their tails). */
#include "dualiso/dsp.h"

DUALISO_DN_DEFINE(c)

static const dualiso_dsp tables[MP_CPU_LEVELS] = {
    [MP_CPU_C] = {mp_dualiso_blend_noise_c, mp_dualiso_blend_mix_c, mp_dualiso_dn_weights_c,
                  mp_dualiso_dn_gather_c},
#if defined(__x86_64__)
    [MP_CPU_SSE2] = {mp_dualiso_blend_noise_sse2, mp_dualiso_blend_mix_sse2,
                     mp_dualiso_dn_weights_sse2, mp_dualiso_dn_gather_sse2},
    [MP_CPU_AVX2] = {mp_dualiso_blend_noise_avx2, mp_dualiso_blend_mix_avx2,
                     mp_dualiso_dn_weights_avx2, mp_dualiso_dn_gather_avx2},
#elif defined(__aarch64__)
    [MP_CPU_NEON] = {mp_dualiso_blend_noise_neon, mp_dualiso_blend_mix_neon,
                     mp_dualiso_dn_weights_neon, mp_dualiso_dn_gather_neon},
#endif
};

const dualiso_dsp *mp_dualiso_dsp_for(mp_cpu_level level)
{
    int l = (int)level;
    if (l >= MP_CPU_LEVELS)
        l = MP_CPU_LEVELS - 1;
    while (l > 0 && (!tables[l].blend_noise || !mp_cpu_has((mp_cpu_level)l)))
        l--;
    return &tables[l < 0 ? 0 : l];
}
