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

/* Whether whole numbers compare with 16 f and 32 f (window sizes x 2 and 4 sigmas) as with
 * 16 s and 32 s: a >= t exactly when a >= ceil(t), a <= t exactly when a <= floor(t). */
static int same_limits(double s, double f)
{
    const double n = STRIPE_REACH;
    return ceil(2 * n * f) == ceil(2 * n * s) && floor(4 * n * f) == floor(4 * n * s) &&
           floor(2 * n * f) == floor(2 * n * s);
}

/* The sigmas with s's limits form an interval between multiples of 1 / 32 (floats below 2^16),
 * at least 1 / 32 wide, closed at a multiple of 1 / 16 that is s x 16 itself, open at one
 * that ceil(16 s) just passes: the nearest float lies in it or on one of its ends, and then
 * the next float inwards, towards zero or away, lies in it. At 2^16 and above the window's
 * sums (under 2^19) lie below 16 s either way. */
void mp_rawfix_float_sigmas(const double *sigma, float *out)
{
    for (int b = 0; b < RAWFIX_LEVEL_BINS; b++) {
        const double s = sigma[b];
        float f = (float)s;
        if (s < 65536 && !same_limits(s, f))
            f = same_limits(s, nextafterf(f, 0)) ? nextafterf(f, 0) : nextafterf(f, INFINITY);
        out[b] = f;
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
