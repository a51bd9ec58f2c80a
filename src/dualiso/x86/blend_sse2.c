/* The blend kernels with SSE2 (4 floats per vector; the x86-64 baseline). */
#include <emmintrin.h>
#include <string.h>

#include "dualiso/dsp.h"

typedef __m128 vf;
#define VW 4
#define VMASK_ALL 0xf
#define FN(name) name##_sse2

static inline vf v_set1(float a) { return _mm_set1_ps(a); }
static inline vf v_loadu(const float *p) { return _mm_loadu_ps(p); }
static inline void v_storeu(float *p, vf a) { _mm_storeu_ps(p, a); }
static inline vf v_add(vf a, vf b) { return _mm_add_ps(a, b); }
static inline vf v_sub(vf a, vf b) { return _mm_sub_ps(a, b); }
static inline vf v_mul(vf a, vf b) { return _mm_mul_ps(a, b); }
static inline vf v_div(vf a, vf b) { return _mm_div_ps(a, b); }
static inline vf v_max(vf a, vf b) { return _mm_max_ps(a, b); } /* a > b ? a : b */
static inline vf v_and(vf a, vf b) { return _mm_and_ps(a, b); }
static inline vf v_or(vf a, vf b) { return _mm_or_ps(a, b); }
static inline vf v_andnot(vf a, vf b) { return _mm_andnot_ps(a, b); } /* ~a & b */
static inline vf v_not(vf a) { return _mm_xor_ps(a, _mm_castsi128_ps(_mm_set1_epi32(-1))); }
static inline vf v_abs(vf a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
static inline vf v_lt(vf a, vf b) { return _mm_cmplt_ps(a, b); }
static inline vf v_le(vf a, vf b) { return _mm_cmple_ps(a, b); }
static inline vf v_gt(vf a, vf b) { return _mm_cmpgt_ps(a, b); }
static inline vf v_ge(vf a, vf b) { return _mm_cmpge_ps(a, b); }
static inline int v_mask(vf a) { return _mm_movemask_ps(a); }

/* all ones in the lanes whose flag byte is 0 */
static inline vf v_flag_zero(const uint8_t *p)
{
    int32_t bytes;
    memcpy(&bytes, p, sizeof bytes);
    const __m128i z = _mm_setzero_si128();
    __m128i v = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(bytes), z), z);
    return _mm_castsi128_ps(_mm_cmpeq_epi32(v, z));
}

/* (float)((double)a + c * (double)b), as C evaluates a float plus a double constant term */
static inline vf v_add_scaled_double(vf a, double c, vf b)
{
    const __m128d cd = _mm_set1_pd(c);
    __m128d lo = _mm_add_pd(_mm_cvtps_pd(a), _mm_mul_pd(cd, _mm_cvtps_pd(b)));
    __m128d hi = _mm_add_pd(_mm_cvtps_pd(_mm_movehl_ps(a, a)),
                            _mm_mul_pd(cd, _mm_cvtps_pd(_mm_movehl_ps(b, b))));
    return _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi));
}

/* (uint16_t)a per lane, for a in [0, 65536) */
static inline void v_store_u16(uint16_t *p, vf a)
{
    __m128i i = _mm_sub_epi32(_mm_cvttps_epi32(a), _mm_set1_epi32(32768));
    __m128i s = _mm_xor_si128(_mm_packs_epi32(i, i), _mm_set1_epi16(-32768));
    _mm_storel_epi64((__m128i *)(void *)p, s);
}

#include "blend_body.h"
