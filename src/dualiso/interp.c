/* The other field's estimate at every pixel of a row: the mean of the same-colour rows two
 * above and below, and, where the bright field clips and only the dark rows carry data, an
 * edge-directed estimate (direction from a colour-neutral log guide, greens from the
 * adjacent dark row, red and blue through their local ratio to green). */
#include <math.h>
#include <stdlib.h>

#include "recon_priv.h"

#define WIN 2                 /* cost window: x-2 .. x+2 */
#define DIR_PENALTY 0.08      /* cost per px/row away from vertical, log2 units */

static inline float guide_at(const float *g, uint32_t w, int32_t x2)
{
    /* x2 = position in half pixels */
    int32_t x = x2 >> 1;
    if (x < 0)
        x = 0;
    if (x >= (int32_t)w - 1)
        return g[w - 1];
    return (x2 & 1) ? 0.5f * (g[x] + g[x + 1]) : g[x];
}

/* Same-colour sample at integer offset o from x (odd offsets: mean of the same-colour
 * pair around it). Positions leaving the row step back inside by whole colour periods. */
static inline void sample_at(const float *lin, const uint8_t *cl, uint32_t w, int32_t x,
                             int32_t o, float *v, int *clipped)
{
    int32_t p[2];
    int n = (o & 1) ? 2 : 1;
    p[0] = (o & 1) ? x + o - 1 : x + o;
    p[1] = x + o + 1;
    float s = 0;
    for (int i = 0; i < n; i++) {
        int32_t q = p[i];
        while (q < 0)
            q += 2;
        while (q >= (int32_t)w)
            q -= 2;
        if (q < 0)
            q = x;
        s += lin[q];
        *clipped |= cl[q];
    }
    *v = n == 2 ? 0.5f * s : s;
}

/* The other field's rows around a row, for the green-guided estimate. Rows a and b are the
 * same-colour rows two above/below (same CFA row type as the target row), n the adjacent
 * row (the other CFA row type). */
typedef struct line_rows {
    const float *a, *b, *n;
    const uint8_t *ca, *cb, *cn;
    uint32_t w;
    int color_even, color_odd;  /* CFA colours of the target row at even / odd x */
    int green_n;                /* parity of the green columns on row n */
} line_rows;

static inline int32_t clamp_col(int32_t q, uint32_t w)
{
    while (q < 0)
        q += 2;
    while (q >= (int32_t)w)
        q -= 2;
    return q < 0 ? 0 : q;
}

/* Green at position p2 / 2 (p2 in half pixels) of a row whose greens sit at x % 2 == gpar:
 * the green itself, the mean of the two around a non-green column, or the nearest green
 * half a pixel off. */
static inline float green_at(const float *row, const uint8_t *cl, uint32_t w, int32_t p2,
                             int gpar, int *clipped)
{
    int32_t p = p2 >> 1;
    if (p2 & 1) { /* between p and p + 1: one of them is green */
        int32_t q = clamp_col(((p & 1) == gpar) ? p : p + 1, w);
        *clipped |= cl[q];
        return row[q];
    }
    if ((p & 1) == gpar) {
        int32_t q = clamp_col(p, w);
        *clipped |= cl[q];
        return row[q];
    }
    int32_t q0 = clamp_col(p - 1, w), q1 = clamp_col(p + 1, w);
    *clipped |= cl[q0] | cl[q1];
    return 0.5f * (row[q0] + row[q1]);
}

/* Ratio of colour samples to the mean of their two green neighbours at three same-colour
 * columns around p on a row whose colour columns have parity cpar. */
static inline int color_ratios(const float *row, uint32_t w, int32_t p, int cpar, float *out)
{
    int32_t q0 = ((p & 1) == cpar) ? p : p - 1;
    int n = 0;
    for (int32_t q = q0 - 2; q <= q0 + 2; q += 2) {
        int32_t qc = clamp_col(q, w), ql = clamp_col(q - 1, w), qr = clamp_col(q + 1, w);
        if (ql == qc || qr == qc)
            continue;
        float g = 0.5f * (row[ql] + row[qr]);
        if (g > 0 && row[qc] > 0)
            out[n++] = row[qc] / g;
    }
    return n;
}

static float median_small(float *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            float t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return (n & 1) ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]);
}

/* Where only the dark rows carry data, the adjacent dark row (one row away, the other CFA
 * row type) holds greens on or next to the edge line; the nearer samples keep hard edges
 * that the same-colour rows two away blur. Green = (2 near + 1 far) / 3 along the line;
 * red and blue = that green times their local ratio to green on the same-colour rows
 * (a median, so an edge crossing the ratio window does not leak into it). */
static int green_estimate(const frame_ctx *c, const line_rows *r, int32_t x, int32_t s,
                          int32_t t2, float *out, int *clipped)
{
    (void)c;
    int color = (x & 1) ? r->color_odd : r->color_even;
    int gpar_a = r->color_even == 1 ? 0 : 1; /* greens of the target row type */
    int32_t xx2 = 2 * x;
    float gn = green_at(r->n, r->cn, r->w, xx2 + s * t2, r->green_n, clipped);
    float ga = green_at(r->a, r->ca, r->w, xx2 - 2 * s * t2, gpar_a, clipped);
    float gb = green_at(r->b, r->cb, r->w, xx2 + 2 * s * t2, gpar_a, clipped);
    /* a sample from the far side of the edge disagrees with the other two: half the
     * weight goes to their median */
    float lo = fminf(gn, fminf(ga, gb)), hi = fmaxf(gn, fmaxf(ga, gb));
    float mid = gn + ga + gb - lo - hi;
    float g = 0.5f * mid + 0.5f * (2 * gn + ga) * (1.0f / 3);
    if (color == 1) {
        *out = g;
        return 1;
    }
    float ratios[6];
    int cpar = 1 - gpar_a;
    int n = color_ratios(r->a, r->w, x - s * t2, cpar, ratios);
    n += color_ratios(r->b, r->w, x + s * t2, cpar, ratios + n);
    if (n < 3)
        return 0;
    *out = g * median_small(ratios, n);
    return 1;
}

/* Estimates the other field at every pixel of row y: rows y+2s and y-2s are the other
 * field's same-colour rows, y+s and y-3s its other-colour rows (used by the guide). */
void dualiso_interpolate_row(frame_ctx *c, int32_t y)
{
    dualiso_workspace *ws = c->ws;
    const int32_t h = (int32_t)c->in->height, w = (int32_t)c->in->width;
    const uint32_t phase = c->lv->phase;
    int bright = dualiso_row_is_bright((uint32_t)y, phase);
    /* s: side of the adjacent other-field row (rows come in pairs, so exactly one) */
    int32_t s = dualiso_row_is_bright((uint32_t)y + 1, phase) != bright ? 1 : -1;
    int32_t ya = y - 2 * s, yb = y + 2 * s, yn = y + s, yf = y - 3 * s;
    int have_a = ya >= 0 && ya < h, have_b = yb >= 0 && yb < h;
    int full = have_a && have_b && yn >= 0 && yn < h && yf >= 0 && yf < h;

    /* vertical estimate everywhere (at the frame border: a copy of the one row there is) */
    int sa = dualiso_load_row(c, have_a ? ya : yb), sb = dualiso_load_row(c, have_b ? yb : ya);
    for (int32_t x = 0; x < w; x++) {
        float a = ws->lin[sa][x], b = ws->lin[sb][x];
        ws->est[x] = 0.5f * (a + b);
        ws->mis[x] = (have_a && have_b) ? fabsf(a - b) : 1e6f;
        ws->est_clip[x] = ws->clip[sa][x] | ws->clip[sb][x];
        ws->est_mid[x] = have_a && have_b;
    }
    /* Edge-directed only where the bright field nears its clip: there the dark rows alone
     * carry the detail. Elsewhere the native rows and the noise-aware mix do better than a
     * direction search misled by noise and aliasing. */
    if (!full || !bright)
        return;
    int sy = dualiso_load_row(c, y);
    const float *nat = ws->lin[sy];
    const uint8_t *ncl = ws->clip[sy];
    const float thr = c->search_level;
    int32_t first = -1, last = -1;
    for (int32_t x = 0; x < w; x++)
        if (ncl[x] || nat[x] >= thr) {
            if (first < 0)
                first = x;
            last = x;
        }
    if (first < 0)
        return;

    int sn = dualiso_load_row(c, yn), sf = dualiso_load_row(c, yf);
    const float *ga = ws->guide[sa], *gb = ws->guide[sb], *gn = ws->guide[sn],
                *gf = ws->guide[sf];
    /* direction d: t = (d - 4) / 2 px per row; positions in half pixels */
    for (int d = 0; d < NDIR; d++) {
        int32_t t2 = d - NDIR / 2; /* 2t */
        float *cost = ws->cost[d];
        float pen = DIR_PENALTY * fabsf((float)t2) * 0.5f;
        float raw_prev[2 * WIN + 1];
        float acc = 0;
        /* windowed sum via a running window over x */
        /* only the columns that need a direction, plus the window around them */
        for (int32_t x = first - 2 * WIN; x <= last + WIN; x++) {
            int32_t xc = x < 0 ? 0 : (x >= w ? w - 1 : x);
            int32_t xx2 = 2 * xc;
            float r = fabsf(guide_at(ga, (uint32_t)w, xx2 - 2 * s * t2) -
                            guide_at(gb, (uint32_t)w, xx2 + 2 * s * t2)) +
                      fabsf(guide_at(gn, (uint32_t)w, xx2 + s * t2) -
                            guide_at(gf, (uint32_t)w, xx2 - 3 * s * t2));
            int32_t i = x - (first - 2 * WIN); /* samples seen so far, minus one */
            int k = i % (2 * WIN + 1);
            if (i > 2 * WIN) /* slot k holds the sample leaving the window */
                acc -= raw_prev[k];
            raw_prev[k] = r;
            acc += r;
            int32_t xo = x - WIN;
            if (xo >= first)
                cost[xo] = acc + pen;
        }
    }
    const float *la = ws->lin[sa], *lb = ws->lin[sb];
    const uint8_t *ca = ws->clip[sa], *cb = ws->clip[sb];
    const line_rows rows = {la, lb, ws->lin[sn], ca, cb, ws->clip[sn], (uint32_t)w,
                            dualiso_cfa_color(c->in->cfa, 0, (uint32_t)y),
                            dualiso_cfa_color(c->in->cfa, 1, (uint32_t)y),
                            dualiso_cfa_color(c->in->cfa, 0, (uint32_t)yn) == 1 ? 0 : 1};
    for (int32_t x = first; x <= last; x++) {
        if (!ncl[x] && nat[x] < thr)
            continue;
        int best = NDIR / 2;
        float bc = ws->cost[best][x];
        for (int d = 0; d < NDIR; d++)
            if (ws->cost[d][x] < bc) {
                bc = ws->cost[d][x];
                best = d;
            }
        int32_t t2 = best - NDIR / 2;
        float a, b;
        int clipped = 0;
        sample_at(la, ca, (uint32_t)w, x, -s * t2, &a, &clipped);
        sample_at(lb, cb, (uint32_t)w, x, s * t2, &b, &clipped);
        ws->est[x] = 0.5f * (a + b);
        ws->mis[x] = fabsf(a - b);
        ws->est_clip[x] = (uint8_t)clipped;
        float g;
        if (green_estimate(c, &rows, x, s, t2, &g, &clipped) && !clipped) {
            ws->est[x] = g;
            ws->est_mid[x] = 0;
        }
    }
}
