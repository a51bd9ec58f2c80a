/* The blend's per-pixel kernels, in plain C (the reference, also used for the pixels a
 * vector does not cover) and in SIMD versions chosen at run time (dsp.c, x86/, arm/). Every
 * version gives the same bits: the same float operations in the same order (no
 * contraction into FMA: files build with -ffp-contract=off), the same double-precision
 * steps where the C code has them, and libm's cosf, called per pixel only in the narrow
 * fade bands, on every path. tests/checkasm holds them to that. */
#ifndef MP_DUALISO_DSP_H
#define MP_DUALISO_DSP_H

#include <math.h>
#include <stdint.h>

#include "common/mp_cpu.h"
#include "dualiso/dualiso.h"

#define INTERP_ERR 0.10       /* error variance of a midpoint per squared disagreement */
#define SIDE_SIGMAS 3.0f      /* pair disagreement (sigmas) that marks an edge between them */
#define SIDE_RESOLVE 16.0f    /* ... and that the native value resolves (step^2 / its var) */

/* 1 at t <= 0, 0 at t >= 1, raised cosine between. */
static inline float dualiso_smooth_fade(float t)
{
    if (t <= 0)
        return 1;
    if (t >= 1)
        return 0;
    return 0.5f * (1 + cosf((float)M_PI * t));
}

/* dualiso_smooth_fade(a / span), without the division where a alone decides: a <= 0 gives
 * t <= 0, and a >= span > 0 gives a rounded quotient of at least 1. The same bits. */
static inline float dualiso_fade_of(float a, float span)
{
    if (span > 0 && a <= 0)
        return 1;
    if (span > 0 && a >= span)
        return 0;
    return dualiso_smooth_fade(a / span);
}

/* One row of the blend (reconstruct.c says what the terms mean). nat: native samples;
 * est/mis/est_clip/est_mid: the other field's estimate; lev_mean: the level averaged along
 * the row; vn/vo: variances of native value and estimate; ex: their disagreement beyond
 * noise (box-filtered between the two kernels); dst: the output row. */
typedef struct dualiso_blend_row {
    uint32_t w;
    int bright, shadow;                   /* shadow: 0 off, 1 smoothing, 2 its weights only */
    const float *nat, *mis, *lev_mean;
    float *est, *vn, *vo, *ex;
    const uint8_t *nclip, *est_clip, *est_mid;
    uint16_t *dst;
    float var_d, var_b, gain;             /* read noise (both fields), photon gain */
    float clip_floor;                     /* least dark value under a clipped bright one */
    float fade_lo, fade_span;             /* bright field's fade-out band */
    float shadow_lo, shadow_span;         /* shadow smoothing's band */
    float alias_k;                        /* disagreement that counts, per sigma^2 */
    float ob, oscale, owhite;             /* output mapping */
} dualiso_blend_row;

/* Noise of both values at x, the edge-side choice, and the disagreement ex[x]. */
static inline void dualiso_blend_noise_px(const dualiso_blend_row *r, uint32_t x)
{
    float n = r->nat[x], o = r->est[x], m = r->mis[x];
    int n_ok = !r->nclip[x], o_ok = !r->est_clip[x];
    float photon = r->gain * (r->lev_mean[x] > 0 ? r->lev_mean[x] : 0);
    float vd = r->var_d + photon, vb = r->var_b + photon;
    float vn = r->bright ? vb : vd;
    r->vn[x] = vn;
    /* the estimate: mean of two samples, plus their disagreement beyond noise */
    float vi = r->bright ? vd : vb;
    float pair = m * m - 2 * vi;
    r->vo[x] = 0.5f * vi + INTERP_ERR * (pair > 0 ? pair : 0);
    if (r->est_mid[x] && n_ok && pair > SIDE_SIGMAS * SIDE_SIGMAS * 2 * vi &&
        m * m > SIDE_RESOLVE * vn) {
        /* An edge runs between the two samples: the native value, noisy but in the
         * right place, tells which side this pixel is on. */
        float lo = o - 0.5f * m, hi = o + 0.5f * m;
        o = fabsf(n - lo) < fabsf(n - hi) ? lo : hi;
        r->est[x] = o;
        r->vo[x] = vi;
    }
    float dn = n - o;
    r->ex[x] = (n_ok && o_ok) ? dn * dn - vn - r->vo[x] : 0;
}

/* The output sample at x. */
static inline void dualiso_blend_mix_px(const dualiso_blend_row *r, uint32_t x)
{
    const int bright = r->bright;
    const float *bval = bright ? r->nat : r->est;
    const uint8_t *bclip = bright ? r->nclip : r->est_clip;
    /* only disagreement that stands out of its own noise counts */
    float alias = r->ex[x] - r->alias_k * (r->vn[x] + r->vo[x]);
    float n = r->nat[x], o = r->est[x];
    int n_ok = !r->nclip[x], o_ok = !r->est_clip[x];
    float D = bright ? o : n, B = bright ? n : o;
    int d_ok = bright ? o_ok : n_ok, b_ok = bright ? n_ok : o_ok;
    if (bright && !n_ok && D < r->clip_floor)
        D = r->clip_floor; /* a clipped bright sample says: at least its clip */
    float v_o = r->vo[x] + (alias > 0 ? alias : 0);
    float vd = bright ? v_o : r->vn[x], vb = bright ? r->vn[x] : v_o;
    /* Deep shadows, a few bright-field read-noise sigmas and below: detail is lost in
     * noise, so the bright value is smoothed with its same-colour row neighbours
     * ([1 2 1] / 4 cuts the noise variance to 3/8). shadow 2: the frame is denoised after
     * the blend (small ISO gaps), so only the weights are those of the smoothed value (the
     * mix the flat-field bias figures were measured with), the value itself stays. */
    if (r->shadow && b_ok && x >= 2 && x + 2 < r->w && !bclip[x - 2] && !bclip[x + 2]) {
        float smooth = 0.5f * B + 0.25f * (bval[x - 2] + bval[x + 2]);
        float k = dualiso_fade_of(r->lev_mean[x] - r->shadow_lo, r->shadow_span);
        if (r->shadow == 1)
            B += k * (smooth - B);
        vb *= 1 - 0.625f * k;
    }
    float out = r->owhite; /* both fields clipped */
    float fade = b_ok ? dualiso_fade_of(r->lev_mean[x] - r->fade_lo, r->fade_span) : 0;
    float wd = d_ok ? 1 / vd : 0, wb = fade / vb;
    if (wd + wb > 0)
        out = r->ob + r->oscale * (wd * D + wb * B) / (wd + wb);
    if (out > r->owhite)
        out = r->owhite;
    if (out < 0)
        out = 0;
    r->dst[x] = (uint16_t)(out + 0.5f); /* out is within [0, white] */
}

/* Kernels over the columns [x0, x1) of a row. */
typedef void (*dualiso_blend_fn)(const dualiso_blend_row *r, uint32_t x0, uint32_t x1);

/* One same-colour offset o = (ox, oy) of the cross-field denoise (denoise.c) at one row r of
 * patch centres. Every pointer is indexed by the column x of the patch centre (s1 and iv1
 * already moved by ox); columns down to x0 - 4 and up to x1 + 3 are read. */
typedef struct dualiso_dn_row {
    const float *s0, *iv0;  /* row r + 1: signal, inverse of 4 x its variance */
    const float *s1, *iv1;  /* row r + 1 + oy, at x + ox */
    const float *h0, *h1;   /* the 5-column patch sums of rows r - 1 and r */
    float *h2;              /* row r + 1's, written, for the next two rows */
    float *t;               /* scratch: row r + 1's terms */
    float *q;               /* the pair weights, written */
    int32_t x0, x1;         /* the patch centres' columns */
    float c0, slope;        /* weight (min(max(c0 - slope x distance, 0), 1))^2 */
} dualiso_dn_row;

/* The pair weights of one offset at one row: each term is (s(p) - s(p + o))^2 x the sum of
 * both quarter inverse variances (1 on average for equal signal and pure noise), a patch's
 * distance the sum of its 5 x 3 terms, added in a fixed order (5 along the row, then the
 * 3 rows) so that every level gets the same bits. (restrict on parameters: the pointers do
 * not overlap, so the loops vectorise without checks.) */
static inline void dualiso_dn_weights_body(
    const float *restrict s0, const float *restrict iv0, const float *restrict s1,
    const float *restrict iv1, const float *restrict h0, const float *restrict h1,
    float *restrict h2, float *restrict t, float *restrict q, int32_t x0, int32_t x1,
    float c0, float slope)
{
    /* 4 columns each side where the sums need 2: with x1 - x0 a multiple of 8, so is this
     * loop's length, and no lanes are left for a scalar remainder */
    for (int32_t x = x0 - 4; x < x1 + 4; x++) {
        float d = s0[x] - s1[x];
        t[x] = d * d * (iv0[x] + iv1[x]);
    }
    for (int32_t x = x0; x < x1; x++) {
        float h = t[x - 2] + t[x - 1] + t[x] + t[x + 1] + t[x + 2];
        h2[x] = h;
        float u = c0 - slope * (h0[x] + h1[x] + h);
        /* u clamped to [0, 1], squared: the form GCC vectorises in the fewest steps */
        float on = u > 0 ? 1.0f : 0.0f, v = u < 1 ? u : 1;
        q[x] = on * v * v;
    }
}

static inline void dualiso_dn_weights_row(const dualiso_dn_row *r)
{
    dualiso_dn_weights_body(r->s0, r->iv0, r->s1, r->iv1, r->h0, r->h1, r->h2, r->t, r->q,
                            r->x0, r->x1, r->c0, r->slope);
}

/* Offsets per call of dualiso_dn_gather_row: the sums stay in registers over that many. */
#define DUALISO_DN_GROUP 4

/* The neighbours of one row of pixels, DUALISO_DN_GROUP offsets: for each, the pair with
 * p + o (weight qp, sample sp) then the one with p - o (qm, sm), added to num and den over
 * the columns [x0, x1) in that order. */
typedef struct dualiso_dn_gather {
    float *num, *den;
    const float *qp[DUALISO_DN_GROUP], *sp[DUALISO_DN_GROUP];
    const float *qm[DUALISO_DN_GROUP], *sm[DUALISO_DN_GROUP];
    int32_t x0, x1;
} dualiso_dn_gather;

static inline void dualiso_dn_gather_body(
    float *restrict num, float *restrict den, const float *restrict qp0,
    const float *restrict sp0, const float *restrict qm0, const float *restrict sm0,
    const float *restrict qp1, const float *restrict sp1, const float *restrict qm1,
    const float *restrict sm1, const float *restrict qp2, const float *restrict sp2,
    const float *restrict qm2, const float *restrict sm2, const float *restrict qp3,
    const float *restrict sp3, const float *restrict qm3, const float *restrict sm3,
    int32_t x0, int32_t x1)
{
    for (int32_t x = x0; x < x1; x++) {
        float n = num[x], d = den[x];
        n += qp0[x] * sp0[x];
        d += qp0[x];
        n += qm0[x] * sm0[x];
        d += qm0[x];
        n += qp1[x] * sp1[x];
        d += qp1[x];
        n += qm1[x] * sm1[x];
        d += qm1[x];
        n += qp2[x] * sp2[x];
        d += qp2[x];
        n += qm2[x] * sm2[x];
        d += qm2[x];
        n += qp3[x] * sp3[x];
        d += qp3[x];
        n += qm3[x] * sm3[x];
        d += qm3[x];
        num[x] = n;
        den[x] = d;
    }
}

static inline void dualiso_dn_gather_row(const dualiso_dn_gather *g)
{
    dualiso_dn_gather_body(g->num, g->den, g->qp[0], g->sp[0], g->qm[0], g->sm[0], g->qp[1],
                           g->sp[1], g->qm[1], g->sm[1], g->qp[2], g->sp[2], g->qm[2],
                           g->sm[2], g->qp[3], g->sp[3], g->qm[3], g->sm[3], g->x0, g->x1);
}

typedef void (*dualiso_dn_weights_fn)(const dualiso_dn_row *r);
typedef void (*dualiso_dn_gather_fn)(const dualiso_dn_gather *g);

typedef struct dualiso_dsp {
    dualiso_blend_fn blend_noise;  /* dualiso_blend_noise_px over the range */
    dualiso_blend_fn blend_mix;    /* dualiso_blend_mix_px over the range */
    dualiso_dn_weights_fn dn_weights;  /* dualiso_dn_weights_row */
    dualiso_dn_gather_fn dn_gather;    /* dualiso_dn_gather_row */
} dualiso_dsp;

/* The kernels of one level (levels this build or CPU lacks fall back to lower ones). */
const dualiso_dsp *mp_dualiso_dsp_for(mp_cpu_level level);

/* C versions, and the x86 (x86/blend_*.c) and ARM (arm/blend_neon.c) ones where built. */
void mp_dualiso_blend_noise_c(const dualiso_blend_row *r, uint32_t x0, uint32_t x1);
void mp_dualiso_blend_mix_c(const dualiso_blend_row *r, uint32_t x0, uint32_t x1);
void mp_dualiso_blend_noise_sse2(const dualiso_blend_row *r, uint32_t x0, uint32_t x1);
void mp_dualiso_blend_mix_sse2(const dualiso_blend_row *r, uint32_t x0, uint32_t x1);
void mp_dualiso_blend_noise_avx2(const dualiso_blend_row *r, uint32_t x0, uint32_t x1);
void mp_dualiso_blend_mix_avx2(const dualiso_blend_row *r, uint32_t x0, uint32_t x1);
void mp_dualiso_blend_noise_neon(const dualiso_blend_row *r, uint32_t x0, uint32_t x1);
void mp_dualiso_blend_mix_neon(const dualiso_blend_row *r, uint32_t x0, uint32_t x1);

/* The denoise kernels: plain C (above) that each level's build vectorises with its own
 * instructions (x86/denoise_*.c, arm/denoise_neon.c): element-wise loops without FMA, so
 * every level computes the same bits. */
#define DUALISO_DN_DECLARE(level)                                                        \
    void mp_dualiso_dn_weights_##level(const dualiso_dn_row *r);                        \
    void mp_dualiso_dn_gather_##level(const dualiso_dn_gather *g);
/* the definitions, one line in each level's file */
#define DUALISO_DN_DEFINE(level)                                                         \
    void mp_dualiso_dn_weights_##level(const dualiso_dn_row *r) { dualiso_dn_weights_row(r); } \
    void mp_dualiso_dn_gather_##level(const dualiso_dn_gather *g) { dualiso_dn_gather_row(g); }
DUALISO_DN_DECLARE(c)
DUALISO_DN_DECLARE(sse2)
DUALISO_DN_DECLARE(avx2)
DUALISO_DN_DECLARE(neon)

/* The statistics' per-frame sums (stats.c, the loops in stats_body.h): plain C that each
 * level's build vectorises (x86/stats_*.c, arm/stats_neon.c), exact integers at every level. */
typedef struct dualiso_pair_acc {
    int64_t n, sum_dark2, sum_bright2; /* sums of 2x the values, so the mean of two is exact */
    int64_t sum_step;
    uint16_t max_dark, max_bright;
} dualiso_pair_acc;

typedef struct dualiso_noise_acc {
    int64_t n, sum_level2;
    uint64_t sum_diff2;
} dualiso_noise_acc;

/* One frame's sums, and each field's largest sample and how often it occurs. */
typedef struct dualiso_stats_acc {
    dualiso_pair_acc pairs[DUALISO_CELLS][3];
    dualiso_noise_acc noise[2][DUALISO_CELLS];
    uint16_t field_max[2];
    uint64_t field_max_count[2];
} dualiso_stats_acc;

/* Adds frame f's samples to acc (zeroed by the caller) with row phase phase (f checked). */
typedef void (*dualiso_stats_fn)(const mp_frame *f, uint32_t phase, dualiso_stats_acc *acc);

void mp_dualiso_stats_frame_c(const mp_frame *f, uint32_t phase, dualiso_stats_acc *acc);
void mp_dualiso_stats_frame_sse2(const mp_frame *f, uint32_t phase, dualiso_stats_acc *acc);
void mp_dualiso_stats_frame_avx2(const mp_frame *f, uint32_t phase, dualiso_stats_acc *acc);
void mp_dualiso_stats_frame_neon(const mp_frame *f, uint32_t phase, dualiso_stats_acc *acc);

/* The version of one level (levels this build or CPU lacks fall back to lower ones). */
dualiso_stats_fn mp_dualiso_stats_frame_for(mp_cpu_level level);

#endif
