/* The blend kernels with NEON (4 floats per vector; part of every aarch64 CPU). Masks live
 * in float vectors as all-ones / all-zeros lanes, as in the x86 versions; the operations
 * that IEEE defines exactly (add, sub, mul, div, comparisons, conversions) give the C
 * code's bits, and the file builds with -ffp-contract=off so that no product is fused. */
#include <arm_neon.h>
#include <string.h>

#include "dualiso/dsp.h"

typedef float32x4_t vf;
#define VW 4
#define VMASK_ALL 0xf
#define FN(name) name##_neon

static inline uint32x4_t u(vf a) { return vreinterpretq_u32_f32(a); }
static inline vf f(uint32x4_t a) { return vreinterpretq_f32_u32(a); }

static inline vf v_set1(float a) { return vdupq_n_f32(a); }
static inline vf v_loadu(const float *p) { return vld1q_f32(p); }
static inline void v_storeu(float *p, vf a) { vst1q_f32(p, a); }
static inline vf v_add(vf a, vf b) { return vaddq_f32(a, b); }
static inline vf v_sub(vf a, vf b) { return vsubq_f32(a, b); }
static inline vf v_mul(vf a, vf b) { return vmulq_f32(a, b); }
static inline vf v_div(vf a, vf b) { return vdivq_f32(a, b); }
/* a > b ? a : b, as the C code and x86's maxps (vmaxq_f32 differs on NaN and on -0 vs +0) */
static inline vf v_max(vf a, vf b) { return vbslq_f32(vcgtq_f32(a, b), a, b); }
static inline vf v_and(vf a, vf b) { return f(vandq_u32(u(a), u(b))); }
static inline vf v_or(vf a, vf b) { return f(vorrq_u32(u(a), u(b))); }
static inline vf v_andnot(vf a, vf b) { return f(vbicq_u32(u(b), u(a))); } /* ~a & b */
static inline vf v_not(vf a) { return f(vmvnq_u32(u(a))); }
static inline vf v_abs(vf a) { return vabsq_f32(a); }
static inline vf v_lt(vf a, vf b) { return f(vcltq_f32(a, b)); }
static inline vf v_le(vf a, vf b) { return f(vcleq_f32(a, b)); }
static inline vf v_gt(vf a, vf b) { return f(vcgtq_f32(a, b)); }
static inline vf v_ge(vf a, vf b) { return f(vcgeq_f32(a, b)); }

/* one bit per lane (lane i -> bit i), as x86's movemask */
static inline int v_mask(vf a)
{
    static const uint32_t bit[4] = {1, 2, 4, 8};
    return (int)vaddvq_u32(vandq_u32(u(a), vld1q_u32(bit)));
}

/* all ones in the lanes whose flag byte is 0 */
static inline vf v_flag_zero(const uint8_t *p)
{
    uint32_t bytes;
    memcpy(&bytes, p, sizeof bytes);
    uint8x8_t b = vreinterpret_u8_u32(vdup_n_u32(bytes));
    return f(vceqzq_u32(vmovl_u16(vget_low_u16(vmovl_u8(b)))));
}

/* (float)((double)a + c * (double)b), as C evaluates a float plus a double constant term */
static inline vf v_add_scaled_double(vf a, double c, vf b)
{
    const float64x2_t cd = vdupq_n_f64(c);
    float64x2_t lo = vaddq_f64(vcvt_f64_f32(vget_low_f32(a)),
                               vmulq_f64(cd, vcvt_f64_f32(vget_low_f32(b))));
    float64x2_t hi = vaddq_f64(vcvt_high_f64_f32(a), vmulq_f64(cd, vcvt_high_f64_f32(b)));
    return vcvt_high_f32_f64(vcvt_f32_f64(lo), hi);
}

/* (uint16_t)a per lane, for a in [0, 65536): truncation, as the C cast */
static inline void v_store_u16(uint16_t *p, vf a)
{
    vst1_u16(p, vmovn_u32(vcvtq_u32_f32(a)));
}

#include "blend_body.h"
