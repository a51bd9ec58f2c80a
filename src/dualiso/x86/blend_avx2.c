/* The blend kernels with AVX2 (8 floats per vector). Built with -mavx2 only: no FMA, so
 * every product is rounded before its sum, as in the C reference. */
#include <immintrin.h>

#include "dualiso/dsp.h"

typedef __m256 vf;
#define VW 8
#define VMASK_ALL 0xff
#define FN(name) name##_avx2

static inline vf v_set1(float a) { return _mm256_set1_ps(a); }
static inline vf v_loadu(const float *p) { return _mm256_loadu_ps(p); }
static inline void v_storeu(float *p, vf a) { _mm256_storeu_ps(p, a); }
static inline vf v_add(vf a, vf b) { return _mm256_add_ps(a, b); }
static inline vf v_sub(vf a, vf b) { return _mm256_sub_ps(a, b); }
static inline vf v_mul(vf a, vf b) { return _mm256_mul_ps(a, b); }
static inline vf v_div(vf a, vf b) { return _mm256_div_ps(a, b); }
static inline vf v_max(vf a, vf b) { return _mm256_max_ps(a, b); } /* a > b ? a : b */
static inline vf v_and(vf a, vf b) { return _mm256_and_ps(a, b); }
static inline vf v_or(vf a, vf b) { return _mm256_or_ps(a, b); }
static inline vf v_andnot(vf a, vf b) { return _mm256_andnot_ps(a, b); } /* ~a & b */
static inline vf v_not(vf a)
{
    return _mm256_xor_ps(a, _mm256_castsi256_ps(_mm256_set1_epi32(-1)));
}
static inline vf v_abs(vf a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
static inline vf v_lt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
static inline vf v_le(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_LE_OQ); }
static inline vf v_gt(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
static inline vf v_ge(vf a, vf b) { return _mm256_cmp_ps(a, b, _CMP_GE_OQ); }
static inline int v_mask(vf a) { return _mm256_movemask_ps(a); }

/* all ones in the lanes whose flag byte is 0 */
static inline vf v_flag_zero(const uint8_t *p)
{
    __m256i v = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p));
    return _mm256_castsi256_ps(_mm256_cmpeq_epi32(v, _mm256_setzero_si256()));
}

/* (float)((double)a + c * (double)b), as C evaluates a float plus a double constant term */
static inline vf v_add_scaled_double(vf a, double c, vf b)
{
    const __m256d cd = _mm256_set1_pd(c);
    __m256d lo = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(a)),
                               _mm256_mul_pd(cd, _mm256_cvtps_pd(_mm256_castps256_ps128(b))));
    __m256d hi = _mm256_add_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(a, 1)),
                               _mm256_mul_pd(cd, _mm256_cvtps_pd(_mm256_extractf128_ps(b, 1))));
    return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
}

/* (uint16_t)a per lane, for a in [0, 65536) */
static inline void v_store_u16(uint16_t *p, vf a)
{
    __m256i i = _mm256_cvttps_epi32(a);
    __m128i s = _mm_packus_epi32(_mm256_castsi256_si128(i), _mm256_extracti128_si256(i, 1));
    _mm_storeu_si128((__m128i *)(void *)p, s);
}

#include "blend_body.h"
