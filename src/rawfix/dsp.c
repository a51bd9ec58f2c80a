/* The table of rawfix row kernels per instruction-set level. */
#include "rawfix_rows.h"

static const rawfix_dsp tables[MP_CPU_LEVELS] = {
    [MP_CPU_C] = {mp_rawfix_row_diffs_c, mp_rawfix_row_texture_c, mp_rawfix_row_z_c},
#if defined(__x86_64__)
    [MP_CPU_SSE2] = {mp_rawfix_row_diffs_sse2, mp_rawfix_row_texture_sse2, mp_rawfix_row_z_sse2},
    [MP_CPU_AVX2] = {mp_rawfix_row_diffs_avx2, mp_rawfix_row_texture_avx2, mp_rawfix_row_z_avx2},
#elif defined(__aarch64__)
    [MP_CPU_NEON] = {mp_rawfix_row_diffs_neon, mp_rawfix_row_texture_neon, mp_rawfix_row_z_neon},
#endif
};

const rawfix_dsp *mp_rawfix_dsp_for(mp_cpu_level level)
{
    int l = (int)level;
    if (l >= MP_CPU_LEVELS)
        l = MP_CPU_LEVELS - 1;
    while (l > 0 && (!tables[l].diffs || !mp_cpu_has((mp_cpu_level)l)))
        l--;
    return &tables[l < 0 ? 0 : l];
}
