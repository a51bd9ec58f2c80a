/* The table of rawfix row kernels per instruction-set level. */
#include <math.h>
#include <stdint.h>

#include "rawfix_priv.h"
#include "rawfix_rows.h"

static const rawfix_dsp tables[MP_CPU_LEVELS] = {
    [MP_CPU_C] = {mp_rawfix_row_diffs_c, mp_rawfix_row_texture_c, mp_rawfix_row_z_c,
                   mp_rawfix_row_sums_c,
                   mp_rawfix_row_destripe_c},
#if defined(__x86_64__)
    [MP_CPU_SSE2] = {mp_rawfix_row_diffs_sse2, mp_rawfix_row_texture_sse2, mp_rawfix_row_z_sse2,
                   mp_rawfix_row_sums_sse2,
                   mp_rawfix_row_destripe_sse2},
    [MP_CPU_AVX2] = {mp_rawfix_row_diffs_avx2, mp_rawfix_row_texture_avx2, mp_rawfix_row_z_avx2,
                   mp_rawfix_row_sums_avx2,
                   mp_rawfix_row_destripe_avx2},
#elif defined(__aarch64__)
    [MP_CPU_NEON] = {mp_rawfix_row_diffs_neon, mp_rawfix_row_texture_neon, mp_rawfix_row_z_neon,
                   mp_rawfix_row_sums_neon,
                   mp_rawfix_row_destripe_neon},
#endif
};

/* Whole numbers that compare with whole numbers as the sigmas do: a < t exactly when
 * a < ceil(t), and a > t exactly when a > floor(t). */
static int32_t limit(double t, int up)
{
    t = up ? ceil(t) : floor(t);
    return t > INT32_MAX ? INT32_MAX : t < INT32_MIN ? INT32_MIN : (int32_t)t;
}

void mp_rawfix_stripe_limits(const double *sigma, rawfix_stripe_limits *l)
{
    const double n = STRIPE_REACH;
    for (int b = 0; b < RAWFIX_LEVEL_BINS; b++) {
        l->min_above[b] = limit(2 * sigma[b] * n, 1);
        l->max_dev[b] = limit(4 * sigma[b] * n, 0);
        l->max_tilt[b] = limit(2 * sigma[b] * n, 0);
    }
}

const rawfix_dsp *mp_rawfix_dsp_for(mp_cpu_level level)
{
    int l = (int)level;
    if (l >= MP_CPU_LEVELS)
        l = MP_CPU_LEVELS - 1;
    while (l > 0 && (!tables[l].diffs || !mp_cpu_has((mp_cpu_level)l)))
        l--;
    return &tables[l < 0 ? 0 : l];
}
