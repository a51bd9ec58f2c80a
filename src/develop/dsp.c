/* The table of develop row kernels per instruction-set level. */
#include "demosaic.h"
#include "develop_rows.h"

#define KERNELS(l) {mp_develop_load_##l, mp_develop_near_##l, mp_develop_grade_##l,           \
                    mp_develop_encode_##l, mp_demosaic_rcd_##l, mp_develop_yuv444_##l,         \
                    mp_develop_yuv422_##l}

static const develop_dsp tables[MP_CPU_LEVELS] = {
    [MP_CPU_C] = KERNELS(c),
#if defined(__x86_64__)
    [MP_CPU_SSE2] = KERNELS(sse2),
    [MP_CPU_AVX2] = KERNELS(avx2),
#elif defined(__aarch64__)
    [MP_CPU_NEON] = KERNELS(neon),
#endif
};

const develop_dsp *mp_develop_dsp_for(mp_cpu_level level)
{
    int l = (int)level;
    if (l >= MP_CPU_LEVELS)
        l = MP_CPU_LEVELS - 1;
    while (l > 0 && (!tables[l].load || !mp_cpu_has((mp_cpu_level)l)))
        l--;
    return &tables[l < 0 ? 0 : l];
}
