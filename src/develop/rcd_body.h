/* RCD, ratio corrected demosaicing, written from the description by Luis Sanz Rodriguez
 * (github.com/LuisSR/RCD-Demosaicing, release 2.3, 2017):
 *   1. direction statistics: squared responses of a 7-tap high-pass filter run along the
 *      vertical, horizontal and both diagonals directly on the CFA. Its taps cancel on any
 *      flat colour, so chromatic aberration does not bias the direction. A pixel keeps its
 *      own statistic or the mean of its four diagonal neighbours, whichever is more decided;
 *   2. a 3x3 [1 2 1; 2 4 2; 1 2 1] low-pass of the CFA, a soft luminance where every colour
 *      weighs the same;
 *   3. green at red/blue: each neighbouring green is scaled by the low-pass ratio between the
 *      pixel and the one beyond the neighbour, G_E = G(+1) * 2 L(0) / (L(0) + L(+2)), which
 *      cannot overshoot at hard edges as Hamilton-Adams' additive correction does; the four
 *      estimates are weighted by inverse directional gradients and blended by direction;
 *   4. red/blue from colour differences to green: first at blue/red along the diagonals, then
 *      at green along the cardinals.
 * Step reach in rows, chained for an output row: step 4 at green reads step 4 at +-3 rows,
 * which reads green at +-2, which reads the direction at +-1 and the CFA at +-4, the
 * direction reading the CFA at +-4 again: 10 rows (DEMOSAIC_RCD_CONTEXT keeps 12).
 *
 * Split planes. Each step is wanted at one kind of pixel only (green and the diagonal
 * direction at red/blue, red/blue from the cardinals at green), so the working planes hold
 * each row split by kind: its red/blue pixels (the "chroma half") first, in column order,
 * then its greens (the "green half"), both contiguous; every loop runs over one half with
 * unit stride, which the compiler vectorises at each level, and computes only what is kept.
 * In a Bayer pattern the pixel straight above or below a pixel sits at the same index in the
 * neighbouring row's other half (chroma under green, green under chroma) and the same half
 * two rows away; along a row, chroma j's left green is green j - gp (gp: the row's green
 * column parity) and green j's left chroma is chroma j + gp - 1; a diagonal neighbour of
 * chroma j (or green j) is in the same half one row away at index j + cp - 1 or j + cp on the
 * left or the right (cp = 1 - gp, for greens j + gp - 1 or j + gp).
 *
 * Written once: rcd_c.c, x86/rcd_sse2.c, x86/rcd_avx2.c and arm/rcd_neon.c define FN and
 * include this file, built with their level's flags (meson.build); each pixel's result is the
 * same sequence of elementwise IEEE operations at every level, no FMA, so each level gives
 * the C reference's bits (demosaic.h mp_demosaic_rcd dispatches). */
#include "demosaic.h"

#include <math.h>
#include <stddef.h>

static const float eps = 1e-5f, eps_sq = 1e-10f;

/* rows and columns this close to the window's edge are bilinear: the statistics reach 4 */
enum { BORDER = 5 };

/* Column parity of the greens in window row r. */
static inline uint32_t green_parity(const demosaic_window *w, uint32_t r)
{
    return w->colour[r & 1][0] == 1 ? 0 : 1;
}

/* Row r of a split plane: its chroma half, and its green half after the row's chroma
 * pixels. */
static inline float *chroma_half(float *plane, const demosaic_window *w, uint32_t r)
{
    return plane + (size_t)r * w->width;
}

static inline float *green_half(float *plane, const demosaic_window *w, uint32_t r)
{
    return plane + (size_t)r * w->width + (w->width + green_parity(w, r)) / 2;
}

/* Row r's green half when green, else its chroma half. */
static inline float *half_of(float *plane, const demosaic_window *w, uint32_t r, int green)
{
    return green ? green_half(plane, w, r) : chroma_half(plane, w, r);
}

/* The indices [*j0, *j1) of the columns of parity p within [x0, x1) (x0 >= p). */
static inline void half_range(uint32_t x0, uint32_t x1, uint32_t p, uint32_t *j0, uint32_t *j1)
{
    *j0 = (x0 - p + 1) / 2;
    *j1 = x1 > p ? (x1 - p + 1) / 2 : 0;
}

/* Inverse-gradient mix of the estimates from both sides of one axis. */
static inline float mix(float est_a, float grad_a, float est_b, float grad_b)
{
    return (grad_b * est_a + grad_a * est_b) / (grad_a + grad_b);
}

/* The pixel's own direction statistic or its diagonal neighbours' mean, whichever lies farther
 * from undecided (0.5): own, and the up-left, up-right, down-left, down-right neighbours. */
static inline float refine(float own, float ul, float ur, float dl, float dr)
{
    float around = 0.25f * (ul + ur + dl + dr);
    return fabsf(0.5f - own) < fabsf(0.5f - around) ? around : own;
}

/* The 7-tap high-pass [1 -3 -1 6 -1 -3 1] of samples m3..p3 (three before the pixel, the
 * pixel, three after). */
static inline float high_pass(float m3, float m2, float m1, float c, float p1, float p2,
                              float p3)
{
    return (m3 + p3) - 3.0f * (m2 + p2) - (m1 + p1) + 6.0f * c;
}

/* The squared high-pass response: the planes keep squares, since every statistic (stat3)
 * sums three of them and each is read by three pixels' statistics. */
static inline float squared(float response)
{
    return response * response;
}

/* Sum of the squared high-pass responses at a pixel (b) and its two neighbours along the
 * axis (a, c). */
static inline float stat3(float a, float b, float c)
{
    return eps_sq + a + b + c;
}

/* out[j] = in[2 j] for j < n. */
__attribute__((noinline)) static void every_other(const float *restrict in, uint32_t n,
                                                  float *restrict out)
{
    for (uint32_t j = 0; j < n; j++)
        out[j] = in[2 * j];
}

/* The CFA into split rows. */
static void split_cfa(const demosaic_window *w, float *out)
{
    for (uint32_t r = 0; r < w->rows; r++) {
        uint32_t gp = green_parity(w, r), cp = gp ^ 1;
        const float *in = w->cfa + (size_t)r * w->width;
        every_other(in + cp, (w->width + gp) / 2, chroma_half(out, w, r));
        every_other(in + gp, (w->width + cp) / 2, green_half(out, w, r));
    }
}

/* The bilinear values of the border (within BORDER of the window's edges) of plane k (or,
 * k < 0, of each row's missing chroma) at chroma pixels into the chroma half of out: the
 * interior steps read them there as the full-plane steps read the bilinear border. */
static void split_border(const demosaic_window *w, int k, float *out)
{
    for (uint32_t r = 0; r < w->rows; r++) {
        uint32_t gp = green_parity(w, r), cp = gp ^ 1, n = (w->width + gp) / 2, j0, j1;
        uint32_t plane = k >= 0 ? (uint32_t)k : (uint32_t)(2 - w->colour[r & 1][cp]);
        const float *restrict in = w->rgb[plane] + (size_t)r * w->width;
        float *restrict c = chroma_half(out, w, r);
        half_range(BORDER, w->width - BORDER, cp, &j0, &j1);
        if (r < BORDER || r + BORDER >= w->rows)
            j0 = j1 = n;   /* the whole row */
        for (uint32_t j = 0; j < j0; j++)
            c[j] = in[2 * j + cp];
        for (uint32_t j = j1; j < n; j++)
            c[j] = in[2 * j + cp];
    }
}

/* The 3x3 low-pass at chroma pixels (the only ones green reads it at). */
static void low_pass(const demosaic_window *w, float *cfa, float *lpf)
{
    for (uint32_t r = 1; r + 1 < w->rows; r++) {
        uint32_t gp = green_parity(w, r), cp = gp ^ 1, j0, j1;
        const float *restrict up = green_half(cfa, w, r - 1),
                              *restrict mid = chroma_half(cfa, w, r),
                              *restrict dn = green_half(cfa, w, r + 1),
                              *restrict side = green_half(cfa, w, r) - gp,
                              *restrict up_d = chroma_half(cfa, w, r - 1) + cp - 1,
                              *restrict dn_d = chroma_half(cfa, w, r + 1) + cp - 1;
        float *restrict out = chroma_half(lpf, w, r);
        half_range(1, w->width - 1, cp, &j0, &j1);
        for (uint32_t j = j0; j < j1; j++)
            out[j] = 4.0f * mid[j] + 2.0f * (up[j] + dn[j] + side[j] + side[j + 1]) +
                     (up_d[j] + up_d[j + 1] + dn_d[j] + dn_d[j + 1]);
    }
}

/* One half of row r: the vertical (into a) and horizontal (into b) high-pass responses,
 * squared.
 * col[k]: the column at k - 3 rows from r in the same half's index, own: the row's half,
 * side: the row's other kind, shifted so that side[j] is the left neighbour. */
__attribute__((noinline)) static void high_pass_half(const float *const col[7],
                                                     const float *restrict own,
                                                     const float *restrict side, uint32_t j0,
                                                     uint32_t j1, float *restrict a,
                                                     float *restrict b)
{
    const float *restrict c0 = col[0], *restrict c1 = col[1], *restrict c2 = col[2],
                          *restrict c4 = col[4], *restrict c5 = col[5], *restrict c6 = col[6];
    for (uint32_t j = j0; j < j1; j++) {
        a[j] = squared(high_pass(c0[j], c1[j], c2[j], own[j], c4[j], c5[j], c6[j]));
        b[j] = squared(high_pass(side[j - 1], own[j - 1], side[j], own[j], side[j + 1],
                                 own[j + 1], side[j + 2]));
    }
}

/* The rows' halves at -3..+3 rows from r at the same index as r's half `green` (0: chroma):
 * rows at an odd distance hold the other kind there. */
static void column_of(float *plane, const demosaic_window *w, uint32_t r, int green,
                      const float *col[7])
{
    for (int k = 0; k < 7; k++) {
        uint32_t rr = r + (uint32_t)k - 3;
        int odd = !(k & 1);   /* k - 3 rows away */
        col[k] = half_of(plane, w, rr, green ^ odd);
    }
}

/* The vertical against horizontal statistic at [j0, j1) of a row's half: v0, v1, v2 the
 * vertical responses above (the other kind), at and below the pixel, h the horizontal one,
 * side the row's other kind shifted so that side[j] is the left neighbour. */
__attribute__((noinline)) static void vh_row(const float *restrict v0, const float *restrict v1,
                                             const float *restrict v2, const float *restrict h,
                                             const float *restrict side, uint32_t j0,
                                             uint32_t j1, float *restrict out)
{
    for (uint32_t j = j0; j < j1; j++) {
        float v = stat3(v0[j], v1[j], v2[j]);
        float hs = stat3(side[j], h[j], side[j + 1]);
        out[j] = v / (v + hs);
    }
}

/* Vertical against horizontal direction statistic in [0, 1] at every pixel (near 1: the
 * vertical varies, so interpolate horizontally), through the high-pass responses hp_v,
 * hp_h. */
static void directions_vh(const demosaic_window *w, float *cfa, float *vh, float *hp_v,
                          float *hp_h)
{
    for (uint32_t r = 3; r + 3 < w->rows; r++) {
        uint32_t gp = green_parity(w, r), cp = gp ^ 1, j0, j1;
        const float *col[7];
        column_of(cfa, w, r, 0, col);
        half_range(3, w->width - 3, cp, &j0, &j1);
        high_pass_half(col, col[3], green_half(cfa, w, r) - gp, j0, j1,
                       chroma_half(hp_v, w, r), chroma_half(hp_h, w, r));
        column_of(cfa, w, r, 1, col);
        half_range(3, w->width - 3, gp, &j0, &j1);
        high_pass_half(col, col[3], chroma_half(cfa, w, r) + gp - 1, j0, j1,
                       green_half(hp_v, w, r), green_half(hp_h, w, r));
    }
    for (uint32_t r = 4; r + 4 < w->rows; r++) {
        uint32_t gp = green_parity(w, r);
        for (int green = 0; green < 2; green++) {
            uint32_t j0, j1;
            half_range(4, w->width - 4, green ? gp : gp ^ 1, &j0, &j1);
            vh_row(half_of(hp_v, w, r - 1, !green), half_of(hp_v, w, r, green),
                   half_of(hp_v, w, r + 1, !green), half_of(hp_h, w, r, green),
                   green ? chroma_half(hp_h, w, r) + gp - 1 : green_half(hp_h, w, r) - gp, j0,
                   j1, half_of(vh, w, r, green));
        }
    }
}

/* The two diagonals' squared high-pass responses (down-right into a, down-left into b) at
 * the chroma pixels [j0, j1) of a row: m3..p3 are the chroma halves -3..+3 rows away, those
 * at an odd distance shifted by cp - 1 so that [j] is the pixel one column left and [j + 1]
 * right. */
__attribute__((noinline)) static void diagonal_row(
    const float *restrict m3, const float *restrict m2, const float *restrict m1,
    const float *restrict c, const float *restrict p1, const float *restrict p2,
    const float *restrict p3, uint32_t j0, uint32_t j1, float *restrict a, float *restrict b)
{
    for (uint32_t j = j0; j < j1; j++) {
        a[j] = squared(
            high_pass(m3[j - 1], m2[j - 1], m1[j], c[j], p1[j + 1], p2[j + 1], p3[j + 2]));
        b[j] = squared(
            high_pass(m3[j + 2], m2[j + 1], m1[j + 1], c[j], p1[j], p2[j - 1], p3[j - 1]));
    }
}

/* The diagonal statistic at the chroma pixels [j0, j1) of a row from the responses of the
 * row (a1, b1) and those above and below (shifted as in diagonal_row). */
__attribute__((noinline)) static void diagonal_stat_row(
    const float *restrict a0, const float *restrict a1, const float *restrict a2,
    const float *restrict b0, const float *restrict b1, const float *restrict b2, uint32_t j0,
    uint32_t j1, float *restrict out)
{
    for (uint32_t j = j0; j < j1; j++) {
        float d1 = stat3(a0[j], a1[j], a2[j + 1]);
        float d2 = stat3(b0[j + 1], b1[j], b2[j]);
        out[j] = d1 / (d1 + d2);
    }
}

/* The two diagonals' statistic in [0, 1] at chroma pixels (the only ones that use it: their
 * diagonal neighbours are chroma too), through the high-pass responses hp_a and hp_b, chroma
 * halves. */
static void directions_pq(const demosaic_window *w, float *cfa, float *pq, float *hp_a,
                          float *hp_b)
{
    for (uint32_t r = 3; r + 3 < w->rows; r++) {
        uint32_t cp = green_parity(w, r) ^ 1, j0, j1;
        half_range(3, w->width - 3, cp, &j0, &j1);
        diagonal_row(chroma_half(cfa, w, r - 3) + cp - 1, chroma_half(cfa, w, r - 2),
                     chroma_half(cfa, w, r - 1) + cp - 1, chroma_half(cfa, w, r),
                     chroma_half(cfa, w, r + 1) + cp - 1, chroma_half(cfa, w, r + 2),
                     chroma_half(cfa, w, r + 3) + cp - 1, j0, j1, chroma_half(hp_a, w, r),
                     chroma_half(hp_b, w, r));
    }
    for (uint32_t r = 4; r + 4 < w->rows; r++) {
        uint32_t cp = green_parity(w, r) ^ 1, j0, j1;
        half_range(4, w->width - 4, cp, &j0, &j1);
        diagonal_stat_row(chroma_half(hp_a, w, r - 1) + cp - 1, chroma_half(hp_a, w, r),
                          chroma_half(hp_a, w, r + 1) + cp - 1,
                          chroma_half(hp_b, w, r - 1) + cp - 1, chroma_half(hp_b, w, r),
                          chroma_half(hp_b, w, r + 1) + cp - 1, j0, j1, chroma_half(pq, w, r));
    }
}

/* Green at the chroma pixels [j0, j1) of a row. u4..d4: the CFA's halves -4..+4 rows away at
 * the pixel's index (greens at odd distances); side: the row's greens shifted so that
 * side[j] is the green on the left, side[j + 1] on the right; l, lu, ld: the low-pass of the
 * row and 2 rows up and down; dir, dir_u, dir_d: the direction statistic of the row and the
 * rows above and below (shifted as side). */
__attribute__((noinline)) static void green_row(
    const float *restrict u4, const float *restrict u3, const float *restrict u2,
    const float *restrict u1, const float *restrict p, const float *restrict d1,
    const float *restrict d2, const float *restrict d3, const float *restrict d4,
    const float *restrict side, const float *restrict l, const float *restrict lu,
    const float *restrict ld, const float *restrict dir, const float *restrict dir_u,
    const float *restrict dir_d, float top, uint32_t j0, uint32_t j1, float *restrict out)
{
    for (uint32_t j = j0; j < j1; j++) {
        /* |a - b| is |b - a| to the bit: each axis's two sides share their middle step */
        float ud = fabsf(u1[j] - d1[j]), lr = fabsf(side[j] - side[j + 1]);
        float n_grad = eps + ud + fabsf(p[j] - u2[j]) + fabsf(u1[j] - u3[j]) +
                       fabsf(u2[j] - u4[j]);
        float s_grad = eps + ud + fabsf(p[j] - d2[j]) + fabsf(d1[j] - d3[j]) +
                       fabsf(d2[j] - d4[j]);
        float w_grad = eps + lr + fabsf(p[j] - p[j - 1]) + fabsf(side[j] - side[j - 1]) +
                       fabsf(p[j - 1] - p[j - 2]);
        float e_grad = eps + lr + fabsf(p[j] - p[j + 1]) + fabsf(side[j + 1] - side[j + 2]) +
                       fabsf(p[j + 1] - p[j + 2]);
        float twice = 2.0f * l[j];
        float n_est = u1[j] * twice / (eps + l[j] + lu[j]);
        float s_est = d1[j] * twice / (eps + l[j] + ld[j]);
        float w_est = side[j] * twice / (eps + l[j] + l[j - 1]);
        float e_est = side[j + 1] * twice / (eps + l[j] + l[j + 1]);
        float v_est = mix(n_est, n_grad, s_est, s_grad);
        float h_est = mix(w_est, w_grad, e_est, e_grad);
        float k = refine(dir[j], dir_u[j], dir_u[j + 1], dir_d[j], dir_d[j + 1]);
        float v = v_est + k * (h_est - v_est);
        out[j] = v < 0 ? 0 : v > top ? top : v;
    }
}

/* Green at the chroma pixels of the interior from the ratio-corrected estimates, into the
 * chroma half of g. */
static void green_at_chroma(const demosaic_window *w, float *cfa, float *lpf, float *vh,
                            float *g)
{
    for (uint32_t r = BORDER; r + BORDER < w->rows; r++) {
        uint32_t gp = green_parity(w, r), cp = gp ^ 1, j0, j1;
        half_range(BORDER, w->width - BORDER, cp, &j0, &j1);
        green_row(chroma_half(cfa, w, r - 4), green_half(cfa, w, r - 3),
                  chroma_half(cfa, w, r - 2), green_half(cfa, w, r - 1), chroma_half(cfa, w, r),
                  green_half(cfa, w, r + 1), chroma_half(cfa, w, r + 2),
                  green_half(cfa, w, r + 3), chroma_half(cfa, w, r + 4),
                  green_half(cfa, w, r) - gp, chroma_half(lpf, w, r),
                  chroma_half(lpf, w, r - 2), chroma_half(lpf, w, r + 2),
                  chroma_half(vh, w, r), chroma_half(vh, w, r - 1) + cp - 1,
                  chroma_half(vh, w, r + 1) + cp - 1, w->top, j0, j1, chroma_half(g, w, r));
    }
}

/* The missing chroma at the chroma pixels [j0, j1) of a row from the colour differences on
 * both diagonals. c_*: the CFA's chroma halves 3 and 1 rows up and down, g_*: green's 2 and
 * 1 rows up and down and the row's own, dir*: the diagonal statistic of the row and the rows
 * above and below; those at an odd distance shifted by cp - 1 so that [j] is the pixel one
 * column left and [j + 1] right. */
__attribute__((noinline)) static void chroma_row(
    const float *restrict c_u3, const float *restrict c_u1, const float *restrict c_d1,
    const float *restrict c_d3, const float *restrict g_u2, const float *restrict g_u1,
    const float *restrict g0, const float *restrict g_d1, const float *restrict g_d2,
    const float *restrict dir, const float *restrict dir_u, const float *restrict dir_d,
    uint32_t j0, uint32_t j1, float *restrict out)
{
    for (uint32_t j = j0; j < j1; j++) {
        /* each diagonal's two sides share their middle step (|a - b| is |b - a|) */
        float p_mid = fabsf(c_u1[j] - c_d1[j + 1]), q_mid = fabsf(c_u1[j + 1] - c_d1[j]);
        float nw_grad = eps + p_mid + fabsf(c_u1[j] - c_u3[j - 1]) + fabsf(g0[j] - g_u2[j - 1]);
        float se_grad = eps + p_mid + fabsf(c_d1[j + 1] - c_d3[j + 2]) +
                        fabsf(g0[j] - g_d2[j + 1]);
        float ne_grad = eps + q_mid + fabsf(c_u1[j + 1] - c_u3[j + 2]) +
                        fabsf(g0[j] - g_u2[j + 1]);
        float sw_grad = eps + q_mid + fabsf(c_d1[j] - c_d3[j - 1]) + fabsf(g0[j] - g_d2[j - 1]);
        float p_est = mix(c_u1[j] - g_u1[j], nw_grad, c_d1[j + 1] - g_d1[j + 1], se_grad);
        float q_est = mix(c_u1[j + 1] - g_u1[j + 1], ne_grad, c_d1[j] - g_d1[j], sw_grad);
        float k = refine(dir[j], dir_u[j], dir_u[j + 1], dir_d[j], dir_d[j + 1]);
        out[j] = g0[j] + p_est + k * (q_est - p_est);
    }
}

/* The missing chroma at the chroma pixels of the interior, into the chroma half of other.
 * The diagonal neighbours of a red are blue, whose own samples are the CFA's. */
static void chroma_at_chroma(const demosaic_window *w, float *cfa, float *g, float *pq,
                             float *other)
{
    for (uint32_t r = BORDER; r + BORDER < w->rows; r++) {
        uint32_t cp = green_parity(w, r) ^ 1, j0, j1;
        half_range(BORDER, w->width - BORDER, cp, &j0, &j1);
        chroma_row(chroma_half(cfa, w, r - 3) + cp - 1, chroma_half(cfa, w, r - 1) + cp - 1,
                   chroma_half(cfa, w, r + 1) + cp - 1, chroma_half(cfa, w, r + 3) + cp - 1,
                   chroma_half(g, w, r - 2), chroma_half(g, w, r - 1) + cp - 1,
                   chroma_half(g, w, r), chroma_half(g, w, r + 1) + cp - 1,
                   chroma_half(g, w, r + 2), chroma_half(pq, w, r),
                   chroma_half(pq, w, r - 1) + cp - 1, chroma_half(pq, w, r + 1) + cp - 1, j0,
                   j1, chroma_half(other, w, r));
    }
}

/* Both chroma planes at the greens [j0, j1) of row r from the colour differences of the four
 * cardinal neighbours, into est_a (a_rows' colour) and est_b, in one loop: the direction and
 * the green gradients serve both (RCD 14 % faster at AVX2 than one plane per loop). The two
 * planes' lines are written out: through an inline helper GCC 12 vectorises the loop at half
 * this speed (measured). g: the green plane's halves (CFA greens, chroma: estimates); a_rows,
 * b_rows: each plane at chroma pixels (the CFA in rows whose chroma is that colour, else the
 * estimates) from 3 rows up to 3 down. */
__attribute__((noinline)) static void chroma_at_green_row(
    const demosaic_window *w, uint32_t r, float *cfa, float *g, const float *const a_rows[7],
    const float *const b_rows[7], float *vh, uint32_t j0, uint32_t j1, float *restrict est_a,
    float *restrict est_b)
{
    uint32_t gp = green_parity(w, r);
    const float *restrict g0 = green_half(cfa, w, r), *restrict g_u1 = chroma_half(g, w, r - 1),
                          *restrict g_d1 = chroma_half(g, w, r + 1),
                          *restrict g_u2 = green_half(cfa, w, r - 2),
                          *restrict g_d2 = green_half(cfa, w, r + 2),
                          *restrict g_side = chroma_half(g, w, r) + gp - 1,
                          *restrict a_u3 = a_rows[0], *restrict a_u1 = a_rows[2],
                          *restrict a_side = a_rows[3] + gp - 1, *restrict a_d1 = a_rows[4],
                          *restrict a_d3 = a_rows[6], *restrict b_u3 = b_rows[0],
                          *restrict b_u1 = b_rows[2], *restrict b_side = b_rows[3] + gp - 1,
                          *restrict b_d1 = b_rows[4], *restrict b_d3 = b_rows[6],
                          *restrict dir = green_half(vh, w, r),
                          *restrict dir_u = green_half(vh, w, r - 1) + gp - 1,
                          *restrict dir_d = green_half(vh, w, r + 1) + gp - 1;
    for (uint32_t j = j0; j < j1; j++) {
        /* *_side[j] is the chroma pixel on the left, [j + 1] on the right */
        float k = refine(dir[j], dir_u[j], dir_u[j + 1], dir_d[j], dir_d[j + 1]);
        /* each axis's two sides share their middle step (|a - b| is |b - a|) */
        float g_ud = fabsf(g_u1[j] - g_d1[j]), g_lr = fabsf(g_side[j] - g_side[j + 1]);
        float gn = g_ud + fabsf(g0[j] - g_u2[j]);
        float gs = g_ud + fabsf(g0[j] - g_d2[j]);
        float gw = g_lr + fabsf(g0[j] - g0[j - 1]);
        float ge = g_lr + fabsf(g0[j] - g0[j + 1]);
        float ud = fabsf(a_u1[j] - a_d1[j]), lr = fabsf(a_side[j] - a_side[j + 1]);
        float n_grad = eps + gn + ud + fabsf(a_u1[j] - a_u3[j]);
        float s_grad = eps + gs + ud + fabsf(a_d1[j] - a_d3[j]);
        float w_grad = eps + gw + lr + fabsf(a_side[j] - a_side[j - 1]);
        float e_grad = eps + ge + lr + fabsf(a_side[j + 1] - a_side[j + 2]);
        float v_est = mix(a_u1[j] - g_u1[j], n_grad, a_d1[j] - g_d1[j], s_grad);
        float h_est = mix(a_side[j] - g_side[j], w_grad, a_side[j + 1] - g_side[j + 1], e_grad);
        est_a[j] = g0[j] + v_est + k * (h_est - v_est);
        ud = fabsf(b_u1[j] - b_d1[j]);
        lr = fabsf(b_side[j] - b_side[j + 1]);
        n_grad = eps + gn + ud + fabsf(b_u1[j] - b_u3[j]);
        s_grad = eps + gs + ud + fabsf(b_d1[j] - b_d3[j]);
        w_grad = eps + gw + lr + fabsf(b_side[j] - b_side[j - 1]);
        e_grad = eps + ge + lr + fabsf(b_side[j + 1] - b_side[j + 2]);
        v_est = mix(b_u1[j] - g_u1[j], n_grad, b_d1[j] - g_d1[j], s_grad);
        h_est = mix(b_side[j] - g_side[j], w_grad, b_side[j + 1] - g_side[j + 1], e_grad);
        est_b[j] = g0[j] + v_est + k * (h_est - v_est);
    }
}

/* out[x] for x in [x0, x1) from the halves of its row: even[x / 2] at even columns,
 * odd[x / 2] at odd ones. */
__attribute__((noinline)) static void interleave(const float *restrict even,
                                                 const float *restrict odd, uint32_t x0,
                                                 uint32_t x1, float *restrict out)
{
    if (x0 & 1) {
        out[x0] = odd[x0 / 2];
        x0++;
    }
    for (uint32_t i = x0 / 2; i < x1 / 2; i++) {
        out[2 * i] = even[i];
        out[2 * i + 1] = odd[i];
    }
    if (x1 & 1)
        out[x1 - 1] = even[x1 / 2];
}

/* The interior of the RGB planes: at chroma pixels the CFA, green and the other chroma
 * estimated; at greens the CFA and both chroma planes from the cardinals (est: two rows of
 * scratch). */
static void rgb_rows(const demosaic_window *w, float *cfa, float *g, float *other, float *vh,
                     float *est)
{
    for (uint32_t r = BORDER; r + BORDER < w->rows; r++) {
        uint32_t gp = green_parity(w, r), cp = gp ^ 1, own = w->colour[r & 1][cp], j0, j1;
        half_range(BORDER, w->width - BORDER, gp, &j0, &j1);
        float *at_green[3] = {est, green_half(cfa, w, r), est + w->width};
        const float *c_rows[3][7];
        for (uint32_t k = 0; k < 3; k += 2)
            for (int d = 0; d < 7; d++) {
                uint32_t rr = r + (uint32_t)d - 3;
                /* rows at an odd distance are the other kind: their chroma is `own`'s other */
                int native = (w->colour[rr & 1][green_parity(w, rr) ^ 1] == k);
                c_rows[k][d] = chroma_half(native ? cfa : other, w, rr);
            }
        chroma_at_green_row(w, r, cfa, g, c_rows[0], c_rows[2], vh, j0, j1, at_green[0],
                            at_green[2]);
        const float *at_chroma[3];
        at_chroma[own] = chroma_half(cfa, w, r);
        at_chroma[1] = chroma_half(g, w, r);
        at_chroma[2 - own] = chroma_half(other, w, r);
        for (int k = 0; k < 3; k++)
            interleave(gp ? at_chroma[k] : at_green[k], gp ? at_green[k] : at_chroma[k],
                       BORDER, w->width - BORDER, w->rgb[k] + (size_t)r * w->width);
    }
}

void FN(mp_demosaic_rcd)(const demosaic_window *w)
{
    const uint32_t width = w->width, rows = w->rows;
    if (width <= 2 * BORDER || rows <= 2 * BORDER) {
        mp_demosaic_bilinear(w, 0, width, 0, rows);
        return;
    }
    mp_demosaic_bilinear(w, 0, width, 0, BORDER);
    mp_demosaic_bilinear(w, 0, width, rows - BORDER, rows);
    mp_demosaic_bilinear(w, 0, BORDER, BORDER, rows - BORDER);
    mp_demosaic_bilinear(w, width - BORDER, width, BORDER, rows - BORDER);

    float *cfa = w->scratch[0], *lpf = w->scratch[1], *vh = w->scratch[2],
          *pq = w->scratch[5], *g = w->scratch[3], *other = w->scratch[4];
    split_cfa(w, cfa);
    low_pass(w, cfa, lpf);
    directions_vh(w, cfa, vh, w->scratch[3], w->scratch[4]);
    directions_pq(w, cfa, pq, w->scratch[3], w->scratch[4]);
    /* the high-pass responses are spent: g and other take their planes */
    split_border(w, 1, g);
    split_border(w, -1, other);
    green_at_chroma(w, cfa, lpf, vh, g);
    chroma_at_chroma(w, cfa, g, pq, other);
    rgb_rows(w, cfa, g, other, vh, lpf);   /* the low-pass is spent */
}
