/* rawfix_measure's and rawfix_accum's row kernels, written once; rows_c.c, x86/rows_sse2.c, x86/rows_avx2.c
 * and arm/rows_neon.c define FN and include this file, and meson builds each with its instruction
 * set's flags (-ffp-contract=off -fno-trapping-math: the latter only lets the compiler
 * evaluate both sides of a select, which changes no value). The loops are branch-free over
 * restrict pointers so that the compiler vectorises them. */
#include <math.h>
#include <string.h>

#include "rawfix/rawfix_dsp.h"
#include "rawfix_priv.h"

static inline int32_t iabs32(int32_t v)
{
    return v < 0 ? -v : v;
}

static inline int32_t imax32(int32_t a, int32_t b)
{
    return a > b ? a : b;
}

/* A sample that is clipped says nothing; one whose neighbour is clipped (a dead pixel in
 * the highlights still shows, but the differences say nothing about the noise) neither. */
void FN(mp_rawfix_row_diffs)(rawfix_row *r)
{
    const uint16_t *restrict c = r->c, *restrict u = r->u, *restrict d = r->d;
    int32_t *restrict dh2 = r->dh2, *restrict dv2 = r->dv2, *restrict bin_h = r->bin_h,
            *restrict bin_v = r->bin_v, *restrict ok = r->ok;
    const int32_t white = r->white, black = r->black;
    const size_t end = r->w - 2;
    for (size_t x = 2; x < end; x++) {
        int32_t v = c[x], lf = c[x - 2], rt = c[x + 2], up = u[x], dn = d[x];
        dh2[x] = 2 * v - lf - rt;
        dv2[x] = 2 * v - up - dn;
        bin_h[x] = mp_rawfix_level_bin(lf + rt, black);
        bin_v[x] = mp_rawfix_level_bin(up + dn, black);
        ok[x] = imax32(imax32(imax32(v, lf), imax32(rt, up)), dn) < white;
    }
}

/* act: how much the scene itself varies around the sample, the absolute second
 * differences of its four same-colour neighbours, each across the direction that would
 * include the sample (so that a defect does not raise its own yardstick). In flat areas
 * act / 8 is about 0.8 sigma of the noise; in fine static texture (a test pattern, a brick
 * wall on a tripod) about the sample's own deviation, so texture does not look like a
 * defect however many frames are pooled. The stripe window: same-colour samples
 * x - 8 .. x - 2 and x + 2 .. x + 8. */
void FN(mp_rawfix_row_texture)(rawfix_row *r)
{
    const uint16_t *restrict c = r->c, *restrict u = r->u, *restrict d = r->d;
    int32_t *restrict act = r->act, *restrict left = r->left, *restrict right = r->right,
            *restrict win_max = r->win_max;
    const size_t end = r->w - 2;
    for (size_t x = 2; x < end; x++)
        act[x] = iabs32(2 * c[x - 2] - u[x - 2] - d[x - 2]) +
                 iabs32(2 * c[x + 2] - u[x + 2] - d[x + 2]) +
                 iabs32(2 * u[x] - u[x - 2] - u[x + 2]) + iabs32(2 * d[x] - d[x - 2] - d[x + 2]);
    if (r->w <= 2 * STRIPE_REACH)
        return;
    const size_t wend = r->w - STRIPE_REACH;
    for (size_t x = STRIPE_REACH; x < wend; x++) {
        int32_t lsum = 0, rsum = 0, m = 0;
        for (int k = 2; k <= STRIPE_REACH; k += 2) {
            int32_t a = c[x - k], b = c[x + k];
            lsum += a;
            rsum += b;
            m = imax32(imax32(m, a), b);
        }
        left[x] = lsum;
        right[x] = rsum;
        win_max[x] = m;
    }
}

/* A second difference (x 2) in noise units x Z_SCALE, clamped and rounded to the nearest,
 * ties to even, as lrint in the default rounding mode (adding and taking off 1.5 x 2^52
 * leaves no fraction bits; unlike a libm call this vectorises). */
static inline int32_t z_units(int32_t d2, double sigma)
{
    const double round_even = 6755399441055744.0;
    double z = Z_SCALE * d2 / 2.0 / sigma;
    z = z < Z_CLAMP ? z : Z_CLAMP;
    z = z > -Z_CLAMP ? z : -Z_CLAMP;
    return (int32_t)((z + round_even) - round_even);
}

/* The stripe sums of n samples against 2, 4 and 2 sigmas x the window's size, each sample's
 * sigma as z_float took it: whole numbers under 2^20, exact in float, compare with those as with
 * the double sigmas (mp_rawfix_float_sigmas), so no per-bin limits are looked up; restrict
 * parameters, as GCC does not take restrict from local pointers, so that the loop vectorises. */
static void stripe_sums(size_t n, const uint16_t *restrict c, const int32_t *restrict ok,
                        const int32_t *restrict left, const int32_t *restrict right,
                        const int32_t *restrict win_max, const float *restrict sigma,
                        int32_t white, int32_t black, int32_t *restrict out)
{
    const int32_t size = STRIPE_REACH;   /* samples in the window */
    for (size_t x = 0; x < n; x++) {
        int32_t win = left[x] + right[x], above = win - size * black, dev = size * c[x] - win;
        const float two = 2 * size * sigma[x];
        int32_t use = ok[x] & (win_max[x] < white) & ((float)above >= two) &
                      ((float)iabs32(dev) <= 2 * two) &
                      ((float)iabs32(left[x] - right[x]) <= two);
        out[2 * x] = (c[x] - black) & -use;
        out[2 * x + 1] = above & -use;
    }
}

/* The same in single precision, for twice the lanes: the divisor lies within one unit in the
 * last place (2^-23 of it) of the double one (act is exact in either precision, the sigmas
 * are mp_rawfix_float_sigmas), so the float quotient is off the double's by at most
 * |q| x (2^-23 + 2^-24 + 2^-45) (the divisor, the division's rounding; the double's own
 * 2^-53 is in the last term): within |z| x 2^-22. It rounds to the same whole number
 * unless it lies that close to a half, where rounding could go either way: those come back as
 * Z_RECHECK, for z_units. The margin is twice that bound (the threshold's own rounding, at
 * most 2^-26, is under half of it wherever a half is within reach, |z| >= 1 / 2). A margin
 * of 1e-3 whatever |z| (as up to session 16) sent about 1 deviation in 1000 there, so nearly
 * every row had one; |z| x 2^-21 sends about 1 in 30,000 at the deviations of noise (|z| of
 * 16 or so), and most rows skip the search for them (rawfix_row_z). */
#define Z_RECHECK (INT16_MIN + 3)
#define Z_NEAR_HALF 0x1p-21f
static inline int32_t z_units_float(int32_t d2, float sigma)
{
    const float round_even = 12582912.0f;   /* 1.5 x 2^23 */
    float z = (float)(Z_SCALE / 2 * d2) / sigma;
    z = z < Z_CLAMP ? z : Z_CLAMP;
    z = z > -Z_CLAMP ? z : -Z_CLAMP;
    float whole = (z + round_even) - round_even, off = z - whole, mag = z < 0 ? -z : z;
    off = off < 0 ? -off : off;
    return off > 0.5f - mag * Z_NEAR_HALF ? Z_RECHECK : (int32_t)whole;
}

/* Whether one of 4 deviations is Z_RECHECK, 4 at a time in a 64-bit word (the loop that
 * looks for them is scalar): a 16-bit lane is zero after the xor exactly when it held it. */
static inline int recheck_in4(const int16_t *z)
{
    uint64_t v;
    memcpy(&v, z, sizeof v);
    v ^= 0x0001000100010001u * (uint16_t)Z_RECHECK;
    return ((v - 0x0001000100010001u) & ~v & 0x8000800080008000u) != 0;
}

/* act8 x TEXTURE_WEIGHT / 8 is exact in either precision (act8 < 2^20, the weight 5 / 4), and
 * the larger of it and a sigma lies as close to the double loop's divisor as the float sigma
 * to the double, within one unit in the last place: the float loop divides by the double
 * loop's divisor, rounded. Returns whether a deviation came back as Z_RECHECK; sigma_h takes
 * each sample's sigma of bin_h, for stripe_sums. */
static int32_t z_float(size_t x0, size_t x1, const int32_t *restrict dh2,
                       const int32_t *restrict dv2, const int32_t *restrict ok,
                       const int32_t *restrict act8, const int32_t *restrict bin_h,
                       const int32_t *restrict bin_v, const float *restrict sigma_of,
                       int16_t *restrict zh, int16_t *restrict zv, float *restrict sigma_h)
{
    int32_t recheck = 0;
    for (size_t x = x0; x < x1; x++) {
        float act = (float)TEXTURE_WEIGHT * ((float)act8[x] / 8.0f);
        float sh = sigma_of[bin_h[x]], sv = sigma_of[bin_v[x]];
        sigma_h[x] = sh;
        int32_t h = z_units_float(dh2[x], sh > act ? sh : act);
        int32_t v = z_units_float(dv2[x], sv > act ? sv : act);
        h = ok[x] ? h : RAWFIX_NO_Z;
        v = ok[x] ? v : RAWFIX_NO_Z;
        recheck |= (h == Z_RECHECK) | (v == Z_RECHECK);
        zh[x] = (int16_t)h;
        zv[x] = (int16_t)v;
    }
    return recheck;
}

void FN(mp_rawfix_row_z)(rawfix_row *r)
{
    const uint16_t *restrict c = r->c;
    const int32_t *restrict dh2 = r->dh2, *restrict dv2 = r->dv2, *restrict ok = r->ok,
                  *restrict act8 = r->act, *restrict left = r->left, *restrict right = r->right,
                  *restrict win_max = r->win_max, *restrict bin_h = r->bin_h,
                  *restrict bin_v = r->bin_v;
    const double *restrict sigma_of = r->sigma;
    int16_t *restrict zh = r->zh, *restrict zv = r->zv;
    float *restrict sigma_h = r->sigma_h;
    int32_t (*restrict stripe)[2] = r->stripe;
    const size_t w = r->w, end = w - 2;
    const int32_t recheck =
        z_float(2, end, dh2, dv2, ok, act8, bin_h, bin_v, r->sigma_float, zh, zv, sigma_h);
    for (size_t x = 2; recheck && x < end; x++) {
        if (x + 4 <= end && !recheck_in4(zh + x) && !recheck_in4(zv + x)) {
            x += 3;
            continue;
        }
        if (zh[x] != Z_RECHECK && zv[x] != Z_RECHECK)
            continue;
        double act = TEXTURE_WEIGHT * (act8[x] / 8.0);
        double sh = sigma_of[bin_h[x]], sv = sigma_of[bin_v[x]];
        if (zh[x] == Z_RECHECK)
            zh[x] = (int16_t)z_units(dh2[x], sh > act ? sh : act);
        if (zv[x] == Z_RECHECK)
            zv[x] = (int16_t)z_units(dv2[x], sv > act ? sv : act);
    }
    zh[0] = zh[1] = zh[w - 2] = zh[w - 1] = RAWFIX_NO_Z;
    zv[0] = zv[1] = zv[w - 2] = zv[w - 1] = RAWFIX_NO_Z;

    /* Stripe sums only where the signal stands well above the noise, away from defects,
     * and where the window's two halves agree (no edge, not across the border of the
     * optical black). */
    const size_t edge = w < 2 * STRIPE_REACH ? w : STRIPE_REACH, wend = w - edge;
    for (size_t x = 0; x < edge; x++)
        stripe[x][0] = stripe[x][1] = stripe[wend + x][0] = stripe[wend + x][1] = 0;
    if (wend > STRIPE_REACH)
        stripe_sums(wend - STRIPE_REACH, c + STRIPE_REACH, ok + STRIPE_REACH,
                    left + STRIPE_REACH, right + STRIPE_REACH, win_max + STRIPE_REACH,
                    sigma_h + STRIPE_REACH, r->white, r->black, &stripe[STRIPE_REACH][0]);
}

static inline int32_t clamp_sum(int32_t z)
{
    z = z < Z_SUM_CLAMP ? z : Z_SUM_CLAMP;
    return z > -Z_SUM_CLAMP ? z : -Z_SUM_CLAMP;
}

/* Branch-free over restrict parameters (GCC does not take restrict from local pointers), so
 * that the loop vectorises; a sample without a measurement adds zeros. */
static void add_sums(size_t n, const uint16_t *restrict v, const int16_t *restrict zhs,
                     const int16_t *restrict zvs, const int32_t *restrict stripe,
                     uint16_t *restrict lo, uint16_t *restrict hi, int32_t *restrict stripe_sum,
                     int16_t *restrict sum_h, int16_t *restrict sum_v, int32_t *restrict zh_sum,
                     uint32_t *restrict zh_sq, uint32_t *restrict value_sum,
                     uint64_t *restrict value_sq, uint8_t *restrict used_n,
                     uint8_t *restrict pos_n, uint8_t *restrict neg_n, uint8_t *restrict big_n)
{
    for (size_t i = 0; i < n; i++) {
        lo[i] = v[i] < lo[i] ? v[i] : lo[i];
        hi[i] = v[i] > hi[i] ? v[i] : hi[i];
        value_sum[i] += v[i];
        value_sq[i] += (uint64_t)((uint32_t)v[i] * v[i]);
        stripe_sum[2 * i] += stripe[2 * i];
        stripe_sum[2 * i + 1] += stripe[2 * i + 1];
        int32_t zh = zhs[i], zv = zvs[i];
        int32_t used = (zh != RAWFIX_NO_Z) & (zh != RAWFIX_CLIPPED_LOW) &
                       (zh != RAWFIX_CLIPPED_HIGH);
        sum_h[i] = (int16_t)(sum_h[i] + (clamp_sum(zh) & -used));
        sum_v[i] = (int16_t)(sum_v[i] + (clamp_sum(zv) & -used));
        zh_sum[i] += zh & -used;
        zh_sq[i] += (uint32_t)(zh * zh) & (uint32_t)-used;
        used_n[i] += (uint8_t)used;
        pos_n[i] += (uint8_t)(used & (zh > 0) & (zv > 0));
        neg_n[i] += (uint8_t)(used & (zh < 0) & (zv < 0));
        big_n[i] += (uint8_t)(used & (((zh >= Z_BIG) & (zv >= Z_BIG)) |
                                      ((zh <= -Z_BIG) & (zv <= -Z_BIG))));
    }
}

/* A 16-bit value times a light under 2^26: whole numbers of 32 bits, multiplied into 64. */
static void add_light(size_t n, const uint16_t *restrict v, const uint32_t *restrict light,
                      uint64_t *restrict value_light)
{
    for (size_t i = 0; i < n; i++)
        value_light[i] += (uint64_t)(uint32_t)v[i] * light[i];
}

void FN(mp_rawfix_row_sums)(const rawfix_sums *s)
{
    add_sums(s->n, s->values, s->zh, s->zv, &s->stripe[0][0], s->lo, s->hi, &s->stripe_sum[0][0],
             s->sum_h, s->sum_v, s->zh_sum, s->zh_sq, s->value_sum, s->value_sq, s->used, s->pos,
             s->neg, s->big);
    if (s->light)
        add_light(s->n, s->values, s->light, s->value_light);
}

/* One row's stripe correction: v' = black + (v - black) x gain + 0.5, truncated into
 * 0 .. white - 1; clipped samples stay clipped. Single precision, as rawfix_apply always did. */
static void destripe(size_t n, uint16_t *restrict v, const float *restrict gain, float black,
                     uint32_t white)
{
    const float top = (float)(white - 1);
    for (size_t x = 0; x < n; x++) {
        float r = black + ((float)v[x] - black) * gain[x] + 0.5f;
        r = r < 0 ? 0 : r;
        r = r > top ? top : r;
        v[x] = v[x] >= white ? v[x] : (uint16_t)r;
    }
}

void FN(mp_rawfix_row_destripe)(uint16_t *row, size_t n, const float *gain, float black,
                                uint32_t white)
{
    destripe(n, row, gain, black, white);
}
