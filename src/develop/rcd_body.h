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
 * Written once: rcd_c.c, x86/rcd_sse2.c, x86/rcd_avx2.c and arm/rcd_neon.c define FN and
 * include this file, built with their level's flags (meson.build); elementwise IEEE operations in a fixed order, no
 * FMA, so each level gives the C reference's bits (demosaic.h mp_demosaic_rcd dispatches). */
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

/* First column at or after `from` with the given parity. */
static inline uint32_t first_of_parity(uint32_t from, uint32_t parity)
{
    return from + ((from ^ parity) & 1);
}

/* The pixel's own direction statistic or its diagonal neighbours' mean, whichever lies farther
 * from undecided (0.5). */
static inline float refine(const float *dir, ptrdiff_t s)
{
    float own = dir[0];
    float around = 0.25f * (dir[-s - 1] + dir[-s + 1] + dir[s - 1] + dir[s + 1]);
    return fabsf(0.5f - own) < fabsf(0.5f - around) ? around : own;
}

/* Inverse-gradient mix of the estimates from both sides of one axis. */
static inline float mix(float est_a, float grad_a, float est_b, float grad_b)
{
    return (grad_b * est_a + grad_a * est_b) / (grad_a + grad_b);
}

static void low_pass(const demosaic_window *w, float *restrict lpf)
{
    const ptrdiff_t s = w->width;
    for (uint32_t r = 1; r + 1 < w->rows; r++) {
        const float *restrict up = w->cfa + (r - 1) * s, *restrict mid = up + s,
                              *restrict dn = mid + s;
        float *restrict out = lpf + r * s;
        for (uint32_t x = 1; x + 1 < w->width; x++)
            out[x] = 4.0f * mid[x] + 2.0f * (up[x] + dn[x] + mid[x - 1] + mid[x + 1]) +
                     (up[x - 1] + up[x + 1] + dn[x - 1] + dn[x + 1]);
    }
}

/* The 7-tap high-pass [1 -3 -1 6 -1 -3 1] through (x, row c3) of rows c0..c6 (ck: k - 3
 * rows away), stepping dx columns per row: 0 vertical, 1 and -1 the diagonals. */
static inline float high_pass_rows(const float *c0, const float *c1, const float *c2,
                                   const float *c3, const float *c4, const float *c5,
                                   const float *c6, uint32_t x, ptrdiff_t dx)
{
    c0 += x, c1 += x, c2 += x, c4 += x, c5 += x, c6 += x;   /* signed offsets from x */
    return (c0[-3 * dx] + c6[3 * dx]) - 3.0f * (c1[-2 * dx] + c5[2 * dx]) -
           (c2[-dx] + c4[dx]) + 6.0f * c3[x];
}

/* Sum of the squared high-pass responses at a pixel (b) and its two neighbours along the
 * axis (a, c). */
static inline float stat3(float a, float b, float c)
{
    return eps_sq + a * a + b * b + c * c;
}

/* Direction statistics in [0, 1], the first axis' share of the high-pass energy (near 1: the
 * first axis varies, so interpolate along the second): vh for vertical against horizontal at
 * every pixel, pq for the two diagonals (used at red/blue pixels only, whose diagonal
 * neighbours are red/blue too; computed everywhere, which lets every loop run over whole
 * rows). The filter responses go to hp_a, hp_b first so each is computed once, not three
 * times. */
__attribute__((noinline)) static void directions(const demosaic_window *w, float *restrict vh,
                                                 float *restrict pq,
                       float *restrict hp_a, float *restrict hp_b)
{
    const ptrdiff_t s = w->width;
    const uint32_t width = w->width;
    for (int diagonal = 0; diagonal < 2; diagonal++) {
        for (uint32_t r = 3; r + 3 < w->rows; r++) {
            const float *restrict c0 = w->cfa + (r - 3) * s, *restrict c1 = c0 + s,
                                  *restrict c2 = c1 + s, *restrict mid = c2 + s,
                                  *restrict c4 = mid + s, *restrict c5 = c4 + s,
                                  *restrict c6 = c5 + s;
            float *restrict a = hp_a + r * s, *restrict b = hp_b + r * s;
            if (diagonal) {
                for (uint32_t x = 3; x + 3 < width; x++) {
                    a[x] = high_pass_rows(c0, c1, c2, mid, c4, c5, c6, x, 1);
                    b[x] = high_pass_rows(c0, c1, c2, mid, c4, c5, c6, x, -1);
                }
            } else {
                for (uint32_t x = 3; x + 3 < width; x++) {
                    a[x] = high_pass_rows(c0, c1, c2, mid, c4, c5, c6, x, 0);
                    b[x] = (mid[x - 3] + mid[x + 3]) - 3.0f * (mid[x - 2] + mid[x + 2]) -
                           (mid[x - 1] + mid[x + 1]) + 6.0f * mid[x];
                }
            }
        }
        for (uint32_t r = 4; r + 4 < w->rows; r++) {
            const float *restrict a0 = hp_a + (r - 1) * s, *restrict a1 = a0 + s,
                                  *restrict a2 = a1 + s;
            const float *restrict b0 = hp_b + (r - 1) * s, *restrict b1 = b0 + s,
                                  *restrict b2 = b1 + s;
            float *restrict out = (diagonal ? pq : vh) + r * s;
            if (diagonal) {
                for (uint32_t x = 4; x + 4 < width; x++) {
                    float d1 = stat3(a0[x - 1], a1[x], a2[x + 1]);
                    float d2 = stat3(b0[x + 1], b1[x], b2[x - 1]);
                    out[x] = d1 / (d1 + d2);
                }
            } else {
                for (uint32_t x = 4; x + 4 < width; x++) {
                    float v = stat3(a0[x], a1[x], a2[x]);
                    float h = stat3(b1[x - 1], b1[x], b1[x + 1]);
                    out[x] = v / (v + h);
                }
            }
        }
    }
}

/* Green at every pixel of row r's interior from the ratio-corrected estimates (only red/blue
 * pixels keep it: computing it everywhere lets the loop run over whole rows), into est. */
__attribute__((noinline)) static void green_estimates(const float *restrict cfa,
                                                      const float *restrict lpf,
                                                      const float *restrict vh, ptrdiff_t s,
                                                      uint32_t r, uint32_t width, float top,
                                                      float *restrict est)
{
    for (uint32_t x = BORDER; x + BORDER < width; x++) {
        size_t i = r * s + x;
        const float *p = cfa + i, *l = lpf + i;
        float n_grad = eps + fabsf(p[-s] - p[s]) + fabsf(p[0] - p[-2 * s]) +
                       fabsf(p[-s] - p[-3 * s]) + fabsf(p[-2 * s] - p[-4 * s]);
        float s_grad = eps + fabsf(p[s] - p[-s]) + fabsf(p[0] - p[2 * s]) +
                       fabsf(p[s] - p[3 * s]) + fabsf(p[2 * s] - p[4 * s]);
        float w_grad = eps + fabsf(p[-1] - p[1]) + fabsf(p[0] - p[-2]) +
                       fabsf(p[-1] - p[-3]) + fabsf(p[-2] - p[-4]);
        float e_grad = eps + fabsf(p[1] - p[-1]) + fabsf(p[0] - p[2]) +
                       fabsf(p[1] - p[3]) + fabsf(p[2] - p[4]);
        float twice = 2.0f * l[0];
        float n_est = p[-s] * twice / (eps + l[0] + l[-2 * s]);
        float s_est = p[s] * twice / (eps + l[0] + l[2 * s]);
        float w_est = p[-1] * twice / (eps + l[0] + l[-2]);
        float e_est = p[1] * twice / (eps + l[0] + l[2]);
        float v_est = mix(n_est, n_grad, s_est, s_grad);
        float h_est = mix(w_est, w_grad, e_est, e_grad);
        float g = v_est + refine(vh + i, s) * (h_est - v_est);
        est[x] = g < 0 ? 0 : g > top ? top : g;
    }
}

/* Green, and the row's own red or blue, at every interior pixel. The chroma planes get 0
 * where they are still missing (the other colour everywhere, the own one at greens): the
 * chroma steps compute their estimates at every pixel and keep half, and the half they drop
 * reads those places, which must hold written values, never whatever the buffer held. */
static void green(const demosaic_window *w, const float *lpf, const float *vh, float *est)
{
    const ptrdiff_t s = w->width;
    for (uint32_t r = BORDER; r + BORDER < w->rows; r++) {
        uint32_t gp = green_parity(w, r), own = w->colour[r & 1][gp ^ 1];
        green_estimates(w->cfa, lpf, vh, s, r, w->width, w->top, est);
        const float *restrict cfa = w->cfa + r * s;
        float *restrict g = w->rgb[1] + r * s, *restrict c = w->rgb[own] + r * s,
                        *restrict other = w->rgb[2 - own] + r * s;
        for (uint32_t x = BORDER; x + BORDER < w->width; x++) {
            int chroma = (x ^ gp) & 1;
            g[x] = chroma ? est[x] : cfa[x];
            c[x] = chroma ? cfa[x] : 0;
            other[x] = 0;
        }
    }
}

/* The missing chroma (plane c) at the red/blue pixels of row r from the colour differences on
 * both diagonals, computed at every interior pixel into est (only red/blue pixels keep it; at
 * the others it reads green() placeholders no result depends on). */
__attribute__((noinline)) static void chroma_estimates(const float *restrict g_plane,
                                                       const float *restrict c_plane,
                                                       const float *restrict pq, ptrdiff_t s,
                                                       uint32_t r, uint32_t width,
                                                       float *restrict est)
{
    const ptrdiff_t d1 = s + 1, d2 = s - 1;
    for (uint32_t x = BORDER; x + BORDER < width; x++) {
        size_t i = r * s + x;
        const float *g = g_plane + i, *c = c_plane + i;
        float nw_grad = eps + fabsf(c[-d1] - c[d1]) + fabsf(c[-d1] - c[-3 * d1]) +
                        fabsf(g[0] - g[-2 * d1]);
        float se_grad = eps + fabsf(c[d1] - c[-d1]) + fabsf(c[d1] - c[3 * d1]) +
                        fabsf(g[0] - g[2 * d1]);
        float ne_grad = eps + fabsf(c[-d2] - c[d2]) + fabsf(c[-d2] - c[-3 * d2]) +
                        fabsf(g[0] - g[-2 * d2]);
        float sw_grad = eps + fabsf(c[d2] - c[-d2]) + fabsf(c[d2] - c[3 * d2]) +
                        fabsf(g[0] - g[2 * d2]);
        float p_est = mix(c[-d1] - g[-d1], nw_grad, c[d1] - g[d1], se_grad);
        float q_est = mix(c[-d2] - g[-d2], ne_grad, c[d2] - g[d2], sw_grad);
        est[x] = g[0] + p_est + refine(pq + i, s) * (q_est - p_est);
    }
}

static void chroma_at_chroma(const demosaic_window *w, const float *pq, float *est)
{
    const ptrdiff_t s = w->width;
    for (uint32_t r = BORDER; r + BORDER < w->rows; r++) {
        uint32_t gp = green_parity(w, r), own = w->colour[r & 1][gp ^ 1];
        float *c = w->rgb[2 - own];
        chroma_estimates(w->rgb[1], c, pq, s, r, w->width, est);
        float *restrict row = c + r * s;
        for (uint32_t x = first_of_parity(BORDER, gp ^ 1); x + BORDER < w->width; x += 2)
            row[x] = est[x];
    }
}

/* Plane c (red or blue) at the green pixels of row r from the colour differences of the four
 * cardinal neighbours, computed at every interior pixel into est (only greens keep it). */
__attribute__((noinline)) static void chroma_green_estimates(const float *restrict g_plane,
                                                             const float *restrict c_plane,
                                                             const float *restrict vh,
                                                             ptrdiff_t s, uint32_t r,
                                                             uint32_t width,
                                                             float *restrict est)
{
    for (uint32_t x = BORDER; x + BORDER < width; x++) {
        size_t i = r * s + x;
        const float *g = g_plane + i, *c = c_plane + i;
        float dir = refine(vh + i, s);
        float gn = fabsf(g[-s] - g[s]) + fabsf(g[0] - g[-2 * s]);
        float gs = fabsf(g[s] - g[-s]) + fabsf(g[0] - g[2 * s]);
        float gw = fabsf(g[-1] - g[1]) + fabsf(g[0] - g[-2]);
        float ge = fabsf(g[1] - g[-1]) + fabsf(g[0] - g[2]);
        float n_grad = eps + gn + fabsf(c[-s] - c[s]) + fabsf(c[-s] - c[-3 * s]);
        float s_grad = eps + gs + fabsf(c[s] - c[-s]) + fabsf(c[s] - c[3 * s]);
        float w_grad = eps + gw + fabsf(c[-1] - c[1]) + fabsf(c[-1] - c[-3]);
        float e_grad = eps + ge + fabsf(c[1] - c[-1]) + fabsf(c[1] - c[3]);
        float v_est = mix(c[-s] - g[-s], n_grad, c[s] - g[s], s_grad);
        float h_est = mix(c[-1] - g[-1], w_grad, c[1] - g[1], e_grad);
        est[x] = g[0] + v_est + dir * (h_est - v_est);
    }
}

/* Red and blue at green pixels, from the colour differences of the four cardinal neighbours
 * (all red/blue pixels, complete after chroma_at_chroma). */
static void chroma_at_green(const demosaic_window *w, const float *vh, float *est)
{
    const ptrdiff_t s = w->width;
    for (uint32_t r = BORDER; r + BORDER < w->rows; r++) {
        uint32_t gp = green_parity(w, r);
        for (int k = 0; k < 3; k += 2) {
            chroma_green_estimates(w->rgb[1], w->rgb[k], vh, s, r, w->width, est);
            float *restrict row = w->rgb[k] + r * s;
            for (uint32_t x = first_of_parity(BORDER, gp); x + BORDER < w->width; x += 2)
                row[x] = est[x];
        }
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

    float *lpf = w->scratch[0], *vh = w->scratch[1], *pq = w->scratch[2];
    low_pass(w, lpf);
    directions(w, vh, pq, w->scratch[3], w->scratch[4]);
    green(w, lpf, vh, w->scratch[3]);   /* the high-pass responses are spent */
    chroma_at_chroma(w, pq, w->scratch[3]);
    chroma_at_green(w, vh, w->scratch[3]);
}
