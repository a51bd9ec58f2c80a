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
 * direction reading the CFA at +-4 again: 10 rows (DEMOSAIC_RCD_CONTEXT keeps 12). */
#include "demosaic.h"

#include <math.h>
#include <stddef.h>

static const float eps = 1e-5f, eps_sq = 1e-10f;

/* rows and columns this close to the window's edge are bilinear: the statistics reach 4 */
enum { BORDER = 5 };

static inline float high_pass(const float *p, ptrdiff_t step)
{
    return (p[-3 * step] + p[3 * step]) - 3.0f * (p[-2 * step] + p[2 * step]) -
           (p[-step] + p[step]) + 6.0f * p[0];
}

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

/* Sum of squared high-pass responses at the pixel and its two neighbours along the axis. */
static inline float direction_stat(const float *hp, ptrdiff_t step)
{
    return eps_sq + hp[-step] * hp[-step] + hp[0] * hp[0] + hp[step] * hp[step];
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

static void low_pass(const demosaic_window *w, float *lpf)
{
    const ptrdiff_t s = w->width;
    for (uint32_t r = 1; r + 1 < w->rows; r++)
        for (uint32_t x = 1; x + 1 < w->width; x++) {
            const float *p = w->cfa + r * s + x;
            lpf[r * s + x] = 4.0f * p[0] + 2.0f * (p[-s] + p[s] + p[-1] + p[1]) +
                             (p[-s - 1] + p[-s + 1] + p[s - 1] + p[s + 1]);
        }
}

/* Direction statistics in [0, 1], the first axis' share of the high-pass energy (near 1: the
 * first axis varies, so interpolate along the second): vh for vertical against horizontal at
 * every pixel, pq for the two diagonals at red/blue pixels only (whose diagonal neighbours are
 * red/blue too). The filter responses go to hp_a, hp_b first so each is computed once, not
 * three times. */
static void directions(const demosaic_window *w, float *vh, float *pq, float *hp_a, float *hp_b)
{
    const ptrdiff_t s = w->width;
    for (uint32_t r = 3; r + 3 < w->rows; r++)
        for (uint32_t x = 3; x + 3 < w->width; x++) {
            size_t i = r * s + x;
            hp_a[i] = high_pass(w->cfa + i, s);
            hp_b[i] = high_pass(w->cfa + i, 1);
        }
    for (uint32_t r = 4; r + 4 < w->rows; r++)
        for (uint32_t x = 4; x + 4 < w->width; x++) {
            size_t i = r * s + x;
            float v = direction_stat(hp_a + i, s), h = direction_stat(hp_b + i, 1);
            vh[i] = v / (v + h);
        }
    for (uint32_t r = 3; r + 3 < w->rows; r++)
        for (uint32_t x = first_of_parity(3, green_parity(w, r) ^ 1); x + 3 < w->width; x += 2) {
            size_t i = r * s + x;
            hp_a[i] = high_pass(w->cfa + i, s + 1);
            hp_b[i] = high_pass(w->cfa + i, s - 1);
        }
    for (uint32_t r = 4; r + 4 < w->rows; r++)
        for (uint32_t x = first_of_parity(4, green_parity(w, r) ^ 1); x + 4 < w->width; x += 2) {
            size_t i = r * s + x;
            float d1 = direction_stat(hp_a + i, s + 1), d2 = direction_stat(hp_b + i, s - 1);
            pq[i] = d1 / (d1 + d2);
        }
}

static void green(const demosaic_window *w, const float *lpf, const float *vh)
{
    const ptrdiff_t s = w->width;
    for (uint32_t r = BORDER; r + BORDER < w->rows; r++) {
        uint32_t gp = green_parity(w, r), own = w->colour[r & 1][gp ^ 1];
        for (uint32_t x = first_of_parity(BORDER, gp); x + BORDER < w->width; x += 2)
            w->rgb[1][r * s + x] = w->cfa[r * s + x];
        for (uint32_t x = first_of_parity(BORDER, gp ^ 1); x + BORDER < w->width; x += 2) {
            size_t i = r * s + x;
            const float *p = w->cfa + i, *l = lpf + i;
            w->rgb[own][i] = p[0];
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
            w->rgb[1][i] = g < 0 ? 0 : g > w->top ? w->top : g;
        }
    }
}

/* The missing chroma at red/blue pixels, from the colour differences on both diagonals. */
static void chroma_at_chroma(const demosaic_window *w, const float *pq)
{
    const ptrdiff_t s = w->width, d1 = s + 1, d2 = s - 1;
    for (uint32_t r = BORDER; r + BORDER < w->rows; r++) {
        uint32_t gp = green_parity(w, r), own = w->colour[r & 1][gp ^ 1];
        for (uint32_t x = first_of_parity(BORDER, gp ^ 1); x + BORDER < w->width; x += 2) {
            size_t i = r * s + x;
            const float *g = w->rgb[1] + i;
            const float *c = w->rgb[2 - own] + i;
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
            w->rgb[2 - own][i] = g[0] + p_est + refine(pq + i, s) * (q_est - p_est);
        }
    }
}

/* Red and blue at green pixels, from the colour differences of the four cardinal neighbours
 * (all red/blue pixels, complete after chroma_at_chroma). */
static void chroma_at_green(const demosaic_window *w, const float *vh)
{
    const ptrdiff_t s = w->width;
    for (uint32_t r = BORDER; r + BORDER < w->rows; r++)
        for (uint32_t x = first_of_parity(BORDER, green_parity(w, r)); x + BORDER < w->width;
             x += 2) {
            size_t i = r * s + x;
            const float *g = w->rgb[1] + i;
            float dir = refine(vh + i, s);
            float gn = fabsf(g[-s] - g[s]) + fabsf(g[0] - g[-2 * s]);
            float gs = fabsf(g[s] - g[-s]) + fabsf(g[0] - g[2 * s]);
            float gw = fabsf(g[-1] - g[1]) + fabsf(g[0] - g[-2]);
            float ge = fabsf(g[1] - g[-1]) + fabsf(g[0] - g[2]);
            for (int k = 0; k < 3; k += 2) {
                const float *c = w->rgb[k] + i;
                float n_grad = eps + gn + fabsf(c[-s] - c[s]) + fabsf(c[-s] - c[-3 * s]);
                float s_grad = eps + gs + fabsf(c[s] - c[-s]) + fabsf(c[s] - c[3 * s]);
                float w_grad = eps + gw + fabsf(c[-1] - c[1]) + fabsf(c[-1] - c[-3]);
                float e_grad = eps + ge + fabsf(c[1] - c[-1]) + fabsf(c[1] - c[3]);
                float v_est = mix(c[-s] - g[-s], n_grad, c[s] - g[s], s_grad);
                float h_est = mix(c[-1] - g[-1], w_grad, c[1] - g[1], e_grad);
                w->rgb[k][i] = g[0] + v_est + dir * (h_est - v_est);
            }
        }
}

void mp_demosaic_rcd(const demosaic_window *w)
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
    green(w, lpf, vh);
    chroma_at_chroma(w, pq);
    chroma_at_green(w, vh);
}
