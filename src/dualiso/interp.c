/* The other field's estimate at every pixel of a row: the mean of the same-colour rows two
 * above and below (in dark rows marked as a step edge, or not, for the blend's edge-side
 * choice), and, where the bright field clips and only the dark rows carry data, an
 * edge-directed estimate: the direction from a colour-neutral log guide at quarter-pixel
 * steps, then every dark sample and unclipped bright sample near the edge line, of any
 * colour through the local colour ratios, that the pixel's own bright sample allows on its
 * side of the edge, weighted by its distance to the line, or where they show a clear step,
 * the level of the pixel's side; edges too shallow for the line are placed from where the
 * dark rows around the bright pair cross them (doc/dualiso.md 8.13). In dark rows where the
 * midpoint would miss vertical detail: at small ISO gaps a cross-colour estimate from the
 * adjacent bright row, at larger ones a cubic through the column's four bright samples where
 * the native dark samples along the row favour it (doc/dualiso.md 8.14). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "edge_line.h"
#include "recon_priv.h"

#define WIN 2                 /* cost window: x-2 .. x+2 */
#define DIR_PENALTY 0.08      /* cost per px/row away from vertical */
#define STEP_FLAT 0.15f       /* a step: the outer samples within this share of the step */
#define STEP_NOISE 2.8f       /* ... plus this many sigmas of their difference's noise */
#define SMOOTH_COST (2 * (2 * WIN + 1) * 0.055f * 0.055f) /* vertical cost of rows that
                                 differ by 0.055 EV rms: smooth enough for the midpoint */
#define NARROW 8              /* directions up to 2 px per row (in quarter px); a shallower
                                 one, up to 4 px per row, only where it costs less than the
                                 best of them and its line's samples fit ... */
#define WIDE_FIT 0.1f         /* ... with at most this share of their residual (measured:
                                 0.25 / 1 raise the smooth ramp's line-pair error by 0.001 /
                                 0.006 % at HD, the second scene's 11-15 EV edges 0.0609 ->
                                 0.0605 / 0.0606, 4-frame mean) */
#define SHALLOW_MIN_EV 0.3f   /* shallow edges: rows 4 apart that differ this much (log2) ... */
#define SHALLOW_REACH 32      /* ... crossed by the edge within this many px of the pixel ... */
#define SHALLOW_FIT 1.0f      /* ... on a line within this many px rms of the crossings ... */
#define SHALLOW_FIT_SLOPE 0.1f /* ... plus this share of its slope (px per row) ... */
#define SHALLOW_SLOPE 2.0f    /* ... of more than this many px per row (measured at HD on the
                                 second scene's stars: 1 / 2 / 3 give 11-15 EV edges 0.0612 /
                                 0.0598 / 0.0598; 0.0609 without; 4-frame mean) */
#define SPAN_GAP 8            /* columns needing a direction closer than this share a span */

/* Larger / smaller of two numbers that are never NaN here (fmaxf is a libm call). */
static inline float max_f(float a, float b)
{
    return a > b ? a : b;
}

static inline float min_f(float a, float b)
{
    return a < b ? a : b;
}

/* The guide g at quarter-pixel steps as four phase planes: P[p][x] = the guide at position
 * x + p / 4, linear between samples, for x in [lo, hi] (within the row), and held at the
 * row ends: g[0] in the QPAD / 4 samples before 0, g[w - 1] from w - 1 to QPAD / 4 beyond.
 * Each entry depends only on its position (p / 4 is exact): the same floats whatever the
 * range. Planes, so that a direction's samples along the row are contiguous. */
static void guide_planes(const float *restrict g, uint32_t w, int32_t lo, int32_t hi,
                         float *const P[4])
{
    const int32_t pad = QPAD / 4, last = (int32_t)w - 1;
    for (int p = 0; p < 4; p++) {
        for (int32_t x = -pad; x < 0; x++)
            P[p][x] = g[0];
        for (int32_t x = last; x <= last + pad; x++)
            P[p][x] = g[last];
    }
    lo = lo < 0 ? 0 : lo;
    hi = hi > last - 1 ? last - 1 : hi;
    float *restrict p0 = P[0], *restrict p1 = P[1], *restrict p2 = P[2], *restrict p3 = P[3];
    for (int32_t x = lo; x <= hi; x++) {
        float a = g[x], d = g[x + 1] - a;
        p0[x] = a + 0.0f * d;
        p1[x] = a + 0.25f * d;
        p2[x] = a + 0.5f * d;
        p3[x] = a + 0.75f * d;
    }
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

/* Ratio of every sample of ring row `slot` to the mean of its two row neighbours (the
 * greens, at a non-green column), 0 where it is not positive; made once per loaded row. */
static const float *pair_ratios(dualiso_workspace *ws, int slot, uint32_t w)
{
    float *restrict pr = ws->pratio[slot];
    if (ws->pratio_row[slot] == ws->ring_row[slot])
        return pr;
    const float *restrict v = ws->lin[slot];
    pr[0] = pr[w - 1] = 0;
    /* Two branch-free loops, so both vectorise (in one, GCC moves the division under the
     * condition, where it may not run it speculatively): every quotient, then the ones
     * without a positive sample and sum dropped (a quotient of a zero is harmless, FP traps
     * being off). */
    for (uint32_t q = 1; q + 1 < w; q++)
        pr[q] = 2 * v[q] / (v[q - 1] + v[q + 1]);
    for (uint32_t q = 1; q + 1 < w; q++)
        pr[q] = ((v[q - 1] + v[q + 1] > 0) & (v[q] > 0)) ? pr[q] : 0;
    ws->pratio_row[slot] = ws->ring_row[slot];
    return pr;
}

/* Colour ratio (to green) of the non-green column q of a row: the median of the pair ratios
 * at q - 2, q, q + 2 (a median, so an edge crossing the window does not leak into it);
 * 0 when none is known. */
static float ratio_to_green(const float *pr, uint32_t w, int32_t q)
{
    float r[3];
    int n = 0;
    for (int32_t k = q - 2; k <= q + 2; k += 2)
        if (k >= 0 && k < (int32_t)w && pr[k] > 0)
            r[n++] = pr[k];
    if (n < 3)
        return n == 0 ? 0 : n == 1 ? r[0] : 0.5f * (r[0] + r[1]);
    float lo = min_f(r[0], min_f(r[1], r[2])), hi = max_f(r[0], max_f(r[1], r[2]));
    return r[0] + r[1] + r[2] - lo - hi;
}

/* Mean of two ratios, or the one that is known (0 = unknown). */
static inline float mean_ratio(float a, float b)
{
    return a > 0 && b > 0 ? 0.5f * (a + b) : max_f(a, b);
}

#define LINE_HALF 0.6f      /* samples count within this many px of the edge line */
#define CONSIST_SIGMAS 4.0f /* near its clip, an unclipped bright sample keeps the line
                               samples within this many dark-field sigmas of its value */
#define COLOUR_EDGE 0.15f   /* colour ratios that differ by this many EV above and below
                               halve the weight of the other colours' samples */

/* What the edge-directed estimate of one pixel needs besides the rows. */
typedef struct line_query {
    int32_t x;
    float t;            /* edge direction, px per row */
    float mul[3];       /* factors to the target colour: green, non-green of the target's
                           row type, non-green of the other row type */
    int green;          /* the target is green */
    float other_w;      /* weight of samples of other colours than the target's */
    float lo, hi;       /* values a sample on the pixel's side of the edge can have */
} line_query;

/* The samples of one pixel's edge line that pass its side test: offset across the line
 * (px along the row), log2 value, weight; in arrays, for the ranking's loop. */
typedef struct line_pts {
    float d[2 * LINE_ROWS], lv[2 * LINE_ROWS], w[2 * LINE_ROWS];
    int n;
} line_pts;

/* Where the line samples show a step (two levels, each side consistent), the pixel's value
 * from the step's position instead of the mean: the level of its side, or, when it lies
 * between the last sample of one level and the first of the other, the log-linear
 * interpolation between the two levels by its place in that gap (the expected log value
 * when the edge is equally likely anywhere in the gap). The samples cross the line at the
 * sub-pixel offsets of their rows, so the gap is a fraction of a pixel where the mean's
 * kernel spans 1.2 px. The weights are those of row distance and colour; the distance to
 * the line is what the step's place replaces. The samples are taken in the order of their
 * offsets, equal ones in the order gathered. Returns 0 (and leaves *lv) where there is
 * no clear step. *resid: the weighted mean squared log residual of the best fit, one level
 * or two, which says how well a line direction fits the samples (INFINITY below three). */
static int step_estimate(line_pts *p, float *lv, float *resid)
{
    const int n = p->n;
    *resid = INFINITY;
    if (n < 3)
        return 0;
    int gathered[2 * LINE_ROWS], rank[2 * LINE_ROWS], o[2 * LINE_ROWS];
    for (int i = 0; i < n; i++)
        gathered[i] = i;
    rank_order(p->d, gathered, n, rank, o);
    float W = 0, S = 0, Q = 0;
    for (int i = 0; i < n; i++) {
        const float w = p->w[o[i]], v = p->lv[o[i]];
        W += w;
        S += w * v;
        Q += w * v * v;
    }
    const float sse_all = Q - S * S / W;
    float wl = 0, sl = 0, ql = 0, best = INFINITY, ml = 0, mr = 0;
    int split = 0;
    for (int k = 1; k < n; k++) {
        const float w = p->w[o[k - 1]], v = p->lv[o[k - 1]];
        wl += w;
        sl += w * v;
        ql += w * v * v;
        float wr = W - wl, sr = S - sl, qr = Q - ql;
        if (p->d[o[k]] == p->d[o[k - 1]] || !(wr > 0))
            continue;
        float sse = (ql - sl * sl / wl) + (qr - sr * sr / wr);
        if (sse < best) {
            best = sse;
            split = k;
            ml = sl / wl;
            mr = sr / wr;
        }
    }
    *resid = min_f(best, sse_all) / W;
    if (!split || fabsf(mr - ml) < STEP_MIN_EV || best > STEP_FIT * sse_all)
        return 0;
    const float a = p->d[o[split - 1]], b = p->d[o[split]];
    *lv = 0 <= a ? ml : 0 >= b ? mr : ml + (mr - ml) * (0 - a) / (b - a);
    return 1;
}

/* Where only the dark rows carry data, the pixel lies on an edge line x + t (row - y) that
 * the dark rows cross at sub-pixel offsets of their own: every dark sample near the line
 * (of any colour, brought to the target colour by the local colour ratios) is a sample of
 * the same profile across the edge, and so is every unclipped sample of the bright rows
 * nearby. The pixel's own bright sample says which of them can be on its side of the edge:
 * clipped, only those at least near the clip; unclipped near the clip, those within the
 * noise of its value (lo..hi). The estimate is a weighted mean in log space (an edge the
 * line samples cannot place comes out at the geometric midpoint, which halves the worst
 * log error against either side), by distance to the line, so the nearest decide on which
 * side the pixel lies, by row distance, and by colour: across a colour edge the ratios at
 * the pixel misconvert the other colours' samples, so they count less where the ratios
 * above and below differ. When no sample passes the side test, the plain linear mean of
 * all; when clipped samples outweigh the rest, none (*clipped). Where the samples that pass
 * show a clear step, the step's place decides instead of the mean (step_estimate, which
 * also gives *resid, how well the line fits them; INFINITY without such samples). */
static int line_estimate(const line_row *rows, int nrows, uint32_t w, const line_query *lq,
                         float *out, int *clipped, float *resid)
{
    *resid = INFINITY;
    float sw = 0, sv = 0, aw = 0, av = 0, cw = 0;
    line_pts pts;
    pts.n = 0;
    for (int i = 0; i < nrows; i++) {
        const line_row *r = &rows[i];
        float xr = (float)lq->x + lq->t * (float)r->dy;
        int32_t q0 = (int32_t)floorf(xr);
        float rw = 1.0f / (float)abs(r->dy);
        for (int32_t q = q0; q <= q0 + 1; q++) {
            float d = fabsf((float)q - xr);
            if (d >= LINE_HALF || q < 0 || q >= (int32_t)w)
                continue;
            float k = 1 - d / LINE_HALF;
            int green = (q & 1) == r->gpar;
            int same = lq->green ? green : !green && !(r->dy & 1);
            float wt = rw * k * k * (same ? 1.0f : lq->other_w);
            if (r->clip[q]) {
                cw += r->own_field ? 0 : wt;
                continue;
            }
            float v = r->v[q] * (green ? lq->mul[0] : lq->mul[1 + (r->dy & 1)]);
            aw += wt;
            av += wt * v;
            if (v >= lq->lo && v <= lq->hi && v > 0) {
                float lv = log2f(v);
                sw += wt;
                sv += wt * lv;
                pts.d[pts.n] = (float)q - xr;
                pts.lv[pts.n] = lv;
                pts.w[pts.n++] = rw * (same ? 1.0f : lq->other_w);
            }
        }
    }
    if (cw > aw) {
        *clipped = 1;
        return 0;
    }
    if (sw > 0) {
        float lv = sv / sw;
        step_estimate(&pts, &lv, resid);
        *out = exp2f(lv);
        return 1;
    }
    if (!(aw > 0))
        return 0;
    *out = av / aw;
    return 1;
}

/* |log2 a/b| of two ratios, 0 unless both are known. */
static inline float ratio_gap(float a, float b)
{
    return a > 0 && b > 0 ? fabsf(log2f(a / b)) : 0;
}

typedef struct line_ctx {
    frame_ctx *c;
    int32_t y, s;       /* target row, side of its adjacent other-field row */
    int gpar;           /* parity of the target row's green columns */
    const int *slots;   /* ring slots of the rows y-2s, y+2s, y+s, y-3s */
    const line_row *rows;
    int nrows;
    const uint8_t *need; /* columns that need a direction (direction_needed) */
} line_ctx;

/* Edge-directed only in bright rows where the bright sample nears its clip: there the dark
 * rows alone carry the detail. Elsewhere the native rows and the noise-aware mix do better
 * than a direction search misled by noise and aliasing (measured: directed bright-field
 * estimates in dark rows made the zone plate worse and the 6-11 EV edges no better).
 * need[x] = 1 there, for the whole row at once (the test per column in the loops that
 * look for the spans was 3 % of the reconstruction's instructions). */
static void direction_needed(const frame_ctx *c, int32_t y, uint8_t *restrict need)
{
    const int slot = y & (RING - 1);
    const float *restrict lin = c->ws->lin[slot];
    const uint8_t *restrict cl = c->ws->clip[slot];
    const float level = c->search_level;
    for (int32_t x = 0; x < (int32_t)c->in->width; x++)
        need[x] = cl[x] | (lin[x] >= level);
}

/* The squared log differences along one direction at the columns x in [xa, xb], into
 * r[x - xa]: between rows a and b, and n and f, each read at column x held inside the row
 * (the pointers already at the direction's offsets). */
static void direction_raw(const float *restrict a, const float *restrict b,
                          const float *restrict n, const float *restrict f, int32_t w,
                          int32_t xa, int32_t xb, float *restrict r)
{
    const int32_t hi = xb < w - 1 ? xb : w - 1;
    int32_t x = xa;
    for (; x <= xb && x < 0; x++) {
        float r1 = a[0] - b[0], r2 = n[0] - f[0];
        r[x - xa] = r1 * r1 + r2 * r2;
    }
    for (; x <= hi; x++) { /* inside the row: a loop that vectorises */
        float r1 = a[x] - b[x], r2 = n[x] - f[x];
        r[x - xa] = r1 * r1 + r2 * r2;
    }
    for (; x <= xb; x++) {
        float r1 = a[w - 1] - b[w - 1], r2 = n[w - 1] - f[w - 1];
        r[x - xa] = r1 * r1 + r2 * r2;
    }
}

/* The running window sums of m directions (raw differences r[j], from column x0 - 2 WIN;
 * penalties pen[j]) into out[j][x] for x in [x0, x_end]. Each is the same sequence of
 * operations as a sum on its own; m is a constant where this is inlined. */
static inline __attribute__((always_inline)) void
direction_sums(int m, float *const r[DIR_GROUP], const float *pen, int32_t x0, int32_t x_end,
               float *const out[DIR_GROUP])
{
    const int32_t xa = x0 - 2 * WIN;
    float acc[DIR_GROUP];
    for (int j = 0; j < m; j++)
        acc[j] = 0;
    int32_t x = xa;
    for (; x <= x0; x++)
        for (int j = 0; j < m; j++)
            acc[j] += r[j][x - xa];
    for (; x < x0 + WIN && x <= x_end + WIN; x++)
        for (int j = 0; j < m; j++) {
            acc[j] -= r[j][x - xa - (2 * WIN + 1)];
            acc[j] += r[j][x - xa];
        }
    for (; x <= x_end + WIN; x++)
        for (int j = 0; j < m; j++) {
            acc[j] -= r[j][x - xa - (2 * WIN + 1)];
            acc[j] += r[j][x - xa];
            out[j][x - WIN] = acc[j] + pen[j];
        }
}

/* Windowed cost of the directions t4 = dirs[0..n-1] (quarter px per row) at the columns
 * x0..x_end of the span that starts at x0 (cost[d][x] for x in [x0, x_end], d = t4 + NDIR/2):
 * a running sum from the span's start, so a cost depends only on the span's start and the
 * column, never on where the loop stops. P[k][p]: phase plane p of guide row k (k: the rows
 * y-2s, y+2s, y+s, y-3s; for the vertical alone the guide rows themselves). The differences
 * of each direction are made along the row first, in a loop that vectorises; then the sums
 * of DIR_GROUP directions at a time, as independent chains in one loop. */
static void direction_costs(const line_ctx *l, const float *const P[4][4], const int32_t *dirs,
                            int n, int32_t x0, int32_t x_end, float *const *cost)
{
    const int32_t w = (int32_t)l->c->in->width, s = l->s;
    float *const *raw = l->c->ws->dir_raw;
    for (int i0 = 0; i0 < n; i0 += DIR_GROUP) {
        const int m = n - i0 < DIR_GROUP ? n - i0 : DIR_GROUP;
        float pen[DIR_GROUP], *out[DIR_GROUP];
        for (int j = 0; j < m; j++) {
            const int32_t t4 = dirs[i0 + j];
            /* offsets in quarter px of the rows y-2s, y+2s, y+s, y-3s along the direction */
            const int32_t o[4] = {-2 * s * t4, 2 * s * t4, s * t4, -3 * s * t4};
            const float *row[4];
            for (int k = 0; k < 4; k++)
                row[k] = P[k][o[k] & 3] + (o[k] - (o[k] & 3)) / 4;
            direction_raw(row[0], row[1], row[2], row[3], w, x0 - 2 * WIN, x_end + WIN,
                          raw[j]);
            pen[j] = DIR_PENALTY * fabsf((float)t4) * 0.25f;
            out[j] = cost[t4 + NDIR / 2];
        }
        if (m == DIR_GROUP)
            direction_sums(DIR_GROUP, raw, pen, x0, x_end, out);
        else
            direction_sums(m, raw, pen, x0, x_end, out);
    }
}

/* Where guide row g, going from column x in direction dir (+-1), first crosses level m:
 * a column between two guide samples, linear between them; each guide sample is the mean
 * of two columns, so it stands at c + 0.5. NAN when it does not within SHALLOW_REACH px. */
static float crossing(const float *g, int32_t w, int32_t x, int dir, float m)
{
    float v0 = g[x] - m;
    for (int32_t k = 1; k <= SHALLOW_REACH; k++) {
        int32_t c = x + dir * k;
        if (c < 0 || c >= w - 1)
            return NAN;
        float v = g[c] - m;
        if ((v > 0) != (v0 > 0)) {
            float vp = g[c - dir] - m;
            float f = vp / (vp - v); /* 0..1 from c - dir to c */
            return (float)(c - dir) + (float)dir * f + 0.5f;
        }
    }
    return NAN;
}

/* A shallow edge (more than SHALLOW_SLOPE px per row, beyond the reach of the direction
 * search's line) between the dark rows y-2s and y+s at column x: there the same-colour
 * rows y-2s and y+2s differ, and so do y-3s and y+s, their other-colour neighbours. Along
 * each of the four dark rows the edge is where its guide crosses the middle of those two
 * levels: in the rows on the y-2s side in one direction, on the y+s side in the other.
 * A straight line through the four crossings (column = x0 + q r, r in rows of s from y;
 * within SHALLOW_FIT px rms) gives the edge's row at column x, r_e = (x - x0) / q, and so
 * the pixel's side: that of y-2s when r_e > 0. 1 and *above where it is found. */
static int shallow_side(const line_ctx *l, int32_t x, int *above)
{
    const dualiso_workspace *ws = l->c->ws;
    const int32_t w = (int32_t)l->c->in->width;
    const float *ga = ws->guide[l->slots[0]], *gb = ws->guide[l->slots[1]],
                *gn = ws->guide[l->slots[2]], *gf = ws->guide[l->slots[3]];
    if (x < 1 || x >= w - 2)
        return 0;
    const float A = ga[x], B = gb[x], A2 = gf[x], B2 = gn[x];
    if (fabsf(A - B) < SHALLOW_MIN_EV)
        return 0;
    /* y+s like y-2s: the edge is not between them (or not one edge) */
    if (fabsf(A2 - B2) < 0.5f * fabsf(A - B) || (A2 - B2) * (A - B) < 0)
        return 0;
    const float m1 = 0.5f * (A + B), m2 = 0.5f * (A2 + B2);
    /* the rows' offsets r = -3, -2, 1, 2: sum -2, sum of squares 18 */
    static const float rr[4] = {-3, -2, 1, 2};
    float best_res = INFINITY, best_re = 0, best_q = 0;
    for (int dir = -1; dir <= 1; dir += 2) {
        float c[4] = {crossing(gf, w, x, dir, m2), crossing(ga, w, x, dir, m1),
                      crossing(gn, w, x, -dir, m2), crossing(gb, w, x, -dir, m1)};
        float sc = 0, src = 0;
        for (int i = 0; i < 4; i++) {
            sc += c[i];
            src += rr[i] * c[i];
        }
        if (isnan(sc))
            continue;
        float q = (4 * src + 2 * sc) / (4 * 18 - 4), x0 = (sc + 2 * q) / 4;
        float res = 0;
        for (int i = 0; i < 4; i++) {
            float e = c[i] - (x0 + q * rr[i]);
            res += e * e;
        }
        res = sqrtf(res / 2); /* per degree of freedom */
        if (res < best_res && q != 0) {
            best_res = res;
            best_q = q;
            best_re = ((float)x - x0) / q;
        }
    }
    if (!(best_res < SHALLOW_FIT + SHALLOW_FIT_SLOPE * fabsf(best_q)) ||
        fabsf(best_q) < SHALLOW_SLOPE)
        return 0;
    *above = best_re > 0;
    return 1;
}

#define PAIR_MATCH 0.25f      /* a bright-pair sample is on a side whose same-colour dark
                                 sample it matches within this share of the two sides' gap */

/* A dark-field level r lies clearly below the bright field's clip: a bright sample there
 * would not have clipped, by CONSIST_SIGMAS of r's noise. */
static inline int below_clip(const frame_ctx *c, float r)
{
    float k = CONSIST_SIGMAS * sqrtf(c->var_dark + c->gain * max_f(r, 0));
    return r + k < c->clip_floor;
}

/* Which side's same-colour dark sample, ra (the -s side) or rb, the bright-pair sample v
 * matches (1: ra, 0: rb), where their log gap is a step: within PAIR_MATCH of the gap; a
 * clipped v (vclip) is on the side whose sample is not clearly below the clip, where the
 * other's is (a side whose samples stay below the clip cannot hold a clipped one, whatever
 * the row pattern's phase puts there: the colour that says it need not be unclipped). */
static int pair_vote(const frame_ctx *c, float v, int vclip, float ra, float rb, int *side)
{
    if (!(ra > 0 && rb > 0))
        return 0;
    float la = log2f(ra), lb = log2f(rb), gap = fabsf(la - lb);
    if (gap < SHALLOW_MIN_EV)
        return 0;
    if (vclip) {
        int a_below = below_clip(c, ra), b_below = below_clip(c, rb);
        *side = b_below;
        return a_below != b_below;
    }
    if (!(v > 0))
        return 0;
    float lv = log2f(v);
    if (fabsf(lv - la) <= PAIR_MATCH * gap) {
        *side = 1;
        return 1;
    }
    if (fabsf(lv - lb) <= PAIR_MATCH * gap) {
        *side = 0;
        return 1;
    }
    return 0;
}

/* A near-horizontal edge between the bright pair and a dark row, which neither the line
 * nor the crossings can place (doc/dualiso.md 8.13: the bright pair has no dark sample,
 * and its clipped samples say only "above the clip"). Where the other colours of the pair
 * stay below the clip (a colour edge: the second scene's sectors), their samples do say
 * it: each is compared with the same-colour dark samples of its own column on either side
 * (rows y -+ 2s for the pixel's row, y - 3s and y + s for the pair's other row y - s,
 * whose colours those rows share), so no colour ratio enters; and so does a clipped one
 * where one side stays below the clip. A straight edge crosses each column once, so:
 * both row neighbours of the pixel on one side put it there; the pair row's sample above
 * or below the pixel, or both of its diagonal ones, on the +s side put row y there too
 * (their -s side says nothing about row y); and where the pair row's sample matches
 * both dark samples of its colour around, rows y - 3s and y + s, no edge lies between
 * those rows, so row y is on the side of y - 2s, between them, while the step between
 * y - 2s and y + 2s lies beyond y + s (doc/dualiso.md 8.16). 1 and *above (the -s side,
 * as shallow_side) where one of these holds. */
static int pair_side(const line_ctx *l, int32_t x, int *above)
{
    const dualiso_workspace *ws = l->c->ws;
    const int32_t w = (int32_t)l->c->in->width, y = l->y, s = l->s;
    const int ys = y & (RING - 1), yp = (y - s) & (RING - 1);
    if (x < 1 || x >= w - 1 || ws->ring_row[yp] != y - s)
        return 0;
    const frame_ctx *c = l->c;
    const float *la = ws->lin[l->slots[0]], *lb = ws->lin[l->slots[1]],
                *ln = ws->lin[l->slots[2]], *lf = ws->lin[l->slots[3]];
    const float *v = ws->lin[ys], *vp = ws->lin[yp];
    const uint8_t *cl = ws->clip[ys], *cp = ws->clip[yp];
    int s1, s2;
    if (pair_vote(c, v[x - 1], cl[x - 1], la[x - 1], lb[x - 1], &s1) &&
        pair_vote(c, v[x + 1], cl[x + 1], la[x + 1], lb[x + 1], &s2) && s1 == s2) {
        *above = s1;
        return 1;
    }
    int sd, sl, sr;
    int mid = pair_vote(c, vp[x], cp[x], lf[x], ln[x], &sd) && sd == 0;
    int two = pair_vote(c, vp[x - 1], cp[x - 1], lf[x - 1], ln[x - 1], &sl) &&
              pair_vote(c, vp[x + 1], cp[x + 1], lf[x + 1], ln[x + 1], &sr) && sl == 0 &&
              sr == 0;
    if (mid || two) {
        *above = 0;
        return 1;
    }
    /* rows y - 3s .. y + s on one side (the pair row's sample within PAIR_MATCH of the
     * step between y - 2s and y + 2s from both dark samples of its colour around) */
    if (!cp[x] && vp[x] > 0 && lf[x] > 0 && ln[x] > 0 && la[x] > 0 && lb[x] > 0) {
        float gap = fabsf(log2f(la[x]) - log2f(lb[x])), lv = log2f(vp[x]);
        if (gap >= SHALLOW_MIN_EV && fabsf(lv - log2f(lf[x])) <= PAIR_MATCH * gap &&
            fabsf(lv - log2f(ln[x])) <= PAIR_MATCH * gap) {
            *above = 1;
            return 1;
        }
    }
    return 0;
}

/* Edge direction d (an index of ws->cost) at column x in px per row, refined between the
 * quarter steps by the minimum of a parabola through the three costs; not across the
 * bound of the narrow directions, whose neighbour beyond is looked at only by the
 * shallow search (measured: a parabola there moved the second scene's edges 11-15 EV at
 * 640 x 480 from 0.110 to 0.122, 4-frame mean). */
static float direction_at(const dualiso_workspace *ws, int d, int32_t x)
{
    float step = 0;
    if (d > 0 && d < NDIR - 1 && abs(d - NDIR / 2) != NARROW) {
        float c = ws->cost[d][x], cm = ws->cost[d - 1][x], cp = ws->cost[d + 1][x];
        float curv = cm - 2 * c + cp;
        if (curv > 0)
            step = 0.5f * (cm - cp) / curv;
    }
    return 0.25f * ((float)(d - NDIR / 2) + step);
}

/* The edge-directed query of column x, all but the direction: the colour ratios to green
 * of both row types near x (above and below, from the pair ratios pr of the rows y-2s,
 * y+2s, y+s, y-3s), the factors that take a green, a non-green of the target's row type
 * and one of the other row type to the target's colour, the other colours' weight and the
 * side test from the pixel's own bright sample. 0 where a ratio is unknown. */
static int pixel_query(const line_ctx *l, int32_t x, const float *const pr[4], line_query *lq)
{
    const dualiso_workspace *ws = l->c->ws;
    const uint32_t w = l->c->in->width;
    *lq = (line_query){.x = x, .green = (x & 1) == l->gpar, .hi = INFINITY};
    int32_t xs = lq->green ? x + 1 : x, xo = lq->green ? x : x + 1; /* non-green columns */
    float rsa = ratio_to_green(pr[0], w, xs), rsb = ratio_to_green(pr[1], w, xs),
          ron = ratio_to_green(pr[2], w, xo), rof = ratio_to_green(pr[3], w, xo);
    float r_same = mean_ratio(rsa, rsb), r_other = mean_ratio(ron, rof);
    if (!(r_same > 0 && r_other > 0))
        return 0;
    lq->mul[0] = lq->green ? 1 : r_same;
    lq->mul[1] = lq->green ? 1 / r_same : 1;
    lq->mul[2] = lq->mul[0] / r_other;
    float cd = max_f(ratio_gap(rsa, rsb), ratio_gap(ron, rof)) / COLOUR_EDGE;
    lq->other_w = 1 / (1 + cd * cd);
    const int ys = l->y & (RING - 1);
    lq->lo = l->c->clip_floor;
    if (!ws->clip[ys][x]) {
        float n = ws->lin[ys][x];
        float k = CONSIST_SIGMAS * sqrtf(l->c->var_dark + l->c->gain * max_f(n, 0));
        lq->lo = n - k;
        lq->hi = n + k;
    }
    return 1;
}

/* Direction search and edge-directed estimate for the columns x0..x1 of the target row. */
static void directed_span(const line_ctx *l, int32_t x0, int32_t x1)
{
    dualiso_workspace *ws = l->c->ws;
    const int32_t w = (int32_t)l->c->in->width, s = l->s;
    /* direction d: t = (d - NDIR / 2) / 4 px per row; cost = sum over a window of the
     * squared log differences between the field's rows on either side along t. The
     * vertical first: where it is smooth enough for the midpoint at every column that
     * needs a direction, the other directions are never looked at, and they are costed
     * only up to the last column that looks at them (the same sums, so the same bytes). */
    const float *g[4][4];
    for (int i = 0; i < 4; i++)
        for (int p = 0; p < 4; p++)
            g[i][p] = ws->guide[l->slots[i]];
    static const int32_t vertical = 0;
    direction_costs(l, g, &vertical, 1, x0, x1, ws->cost);
    int32_t last = -1;
    for (int32_t x = x0; x <= x1; x++)
        if (l->need[x] && ws->cost[NDIR / 2][x] >= SMOOTH_COST)
            last = x;
    if (last < 0)
        return;
    /* the guide rows at quarter-pixel steps over the columns the search reads */
    const int32_t reach = 3 * (NDIR / 2) / 4; /* farthest offset: 3 rows at 4 px */
    const int32_t x_lo = x0 - 2 * WIN < 0 ? 0 : x0 - 2 * WIN;
    const int32_t x_hi = last + WIN >= w ? w - 1 : last + WIN;
    const float *q[4][4];
    const size_t plane = (size_t)w + 2 * (QPAD / 4);
    for (int i = 0; i < 4; i++) {
        float *P[4];
        for (int p = 0; p < 4; p++)
            q[i][p] = P[p] = ws->quarter[i] + QPAD / 4 + p * plane;
        guide_planes(g[i][0], (uint32_t)w, x_lo - reach, x_hi + reach, P);
    }
    int32_t slanted[NDIR - 1];
    for (int i = 0; i < NDIR - 1; i++)
        slanted[i] = i < NDIR / 2 ? i - NDIR / 2 : i - NDIR / 2 + 1;
    direction_costs(l, q, slanted, NDIR - 1, x0, last, ws->cost);
    const int sa = l->slots[0], sb = l->slots[1];
    const float *la = ws->lin[sa], *lb = ws->lin[sb];
    const uint8_t *ca = ws->clip[sa], *cb = ws->clip[sb];
    const float *pr[4];
    for (int i = 0; i < 4; i++)
        pr[i] = pair_ratios(ws, l->slots[i], (uint32_t)w);
    for (int32_t x = x0; x <= last; x++) {
        if (!l->need[x])
            continue;
        int best = NDIR / 2;
        float bc = ws->cost[best][x];
        if (bc < SMOOTH_COST)
            continue; /* smooth along the vertical: the midpoint is as good, and cheaper */
        for (int d = NDIR / 2 - NARROW; d <= NDIR / 2 + NARROW; d++)
            if (ws->cost[d][x] < bc) {
                bc = ws->cost[d][x];
                best = d;
            }
        /* the cheapest shallow direction (2-4 px per row), if cheaper still */
        int wide = -1;
        for (int d = 0; d < NDIR; d++)
            if ((d < NDIR / 2 - NARROW || d > NDIR / 2 + NARROW) &&
                ws->cost[d][x] < (wide < 0 ? bc : ws->cost[wide][x]))
                wide = d;
        line_query lq;
        float g[2], resid[2] = {INFINITY, INFINITY};
        int ok[2] = {0, 0};
        const int cand[2] = {best, wide};
        if (pixel_query(l, x, pr, &lq))
            for (int k = 0; k < 2 && cand[k] >= 0; k++) {
                int clipped = 0;
                lq.t = direction_at(ws, cand[k], x);
                ok[k] = line_estimate(l->rows, l->nrows, (uint32_t)w, &lq, &g[k], &clipped,
                                      &resid[k]) && !clipped;
            }
        /* the shallow direction where its line's samples fit far better: the cost compares
         * guide rows a few px apart, which near-horizontal edges and the next spoke of a
         * star also satisfy; the line's own samples, 1 to 7 rows away, tell them apart */
        int pick = wide >= 0 && ok[1] && (!ok[0] || resid[1] < WIDE_FIT * resid[0]);
        /* an edge the line cannot place, the same-colour sample of the pixel's side: a
         * near-horizontal one between the pair and a dark row, from the pair's own samples
         * of the colours that stay below the clip, or else a shallow one from where the
         * dark rows cross it */
        int above;
        const int sided =
            !ca[x] && !cb[x] && (pair_side(l, x, &above) || shallow_side(l, x, &above));
        /* the direction refined where the line's samples do not fit it (residual beyond
         * half a least step: misplaced, or a step between them), unless the side decides */
        if (!sided && ok[pick] && resid[pick] >= 0.25f * STEP_MIN_EV * STEP_MIN_EV) {
            float t0 = direction_at(ws, cand[pick], x);
            float t1 = mp_dualiso_refine_direction(l->rows, l->nrows, (uint32_t)w, x, t0);
            if (t1 != t0) {
                float v, r;
                int clipped = 0;
                lq.t = t1;
                if (line_estimate(l->rows, l->nrows, (uint32_t)w, &lq, &v, &clipped, &r) &&
                    !clipped)
                    g[pick] = v;
            }
        }
        int32_t t4 = cand[pick] - NDIR / 2, t2 = (int32_t)lrintf(0.5f * (float)t4);
        float a, b;
        int clipped = 0;
        sample_at(la, ca, (uint32_t)w, x, -s * t2, &a, &clipped);
        sample_at(lb, cb, (uint32_t)w, x, s * t2, &b, &clipped);
        ws->est[x] = 0.5f * (a + b);
        ws->mis[x] = fabsf(a - b);
        ws->est_clip[x] = (uint8_t)clipped;
        if (ok[pick]) {
            ws->est[x] = g[pick];
            ws->est_clip[x] = 0; /* the integer-step pair may have met a clipped sample */
            ws->est_mid[x] = 0;
        }
        if (sided) {
            ws->est[x] = above ? la[x] : lb[x];
            ws->est_clip[x] = 0;
            ws->est_mid[x] = 0;
        }
    }
}

#define CC_LEVEL 4.0f   /* only above this many bright-field read-noise sigmas */
#define CC_AGREE 3.0f   /* ... where the bright pair agrees within this many sigmas */
#define CC_TOP 1.0      /* ... and below the level where the dark field's photon noise is
                           this many times its read noise variance: above it the native
                           dark sample carries the detail nearly as well, and the colour
                           ratio's errors at colour edges are all that is left (measured:
                           edges 11-15 EV 0.009 -> 0.010 at 100/400 on scene 2 without it) */
#define CC_RMAX 1.75f   /* ... and where the adjacent sample's colour is at most this much
                           weaker than the pixel's (measured at 100/400: beyond it, the
                           errors of a small sample and of its ratio, multiplied up, cost
                           the second scene's coloured star edges more than the plates gain;
                           1.5 kept those edges at 0.068 but moved the smooth ramp's 6.5-8
                           EV bias by -0.04 %, 1.75 by -0.02 %, 2 let the edges reach 0.070) */
#define CC_EDGE 1.15f   /* half windows whose ratios differ by this factor: a colour edge */

/* Per column q of a dark row: the sums of its non-green samples (n) and of the mean of
 * their green row neighbours (g) over the two bright rows where q is non-green: rows
 * y -+ 2s at the row's own non-green columns, rows y + s and y - 3s at its green ones;
 * 0 for the CC_PAD columns beyond each row end. Then the window sums sn[q], sg[q] over the
 * same-parity columns q .. q + CC_PAD: a fixed tree of additions, so every sum is the same
 * whatever the vector width, and whatever the range. What the columns [lo, hi) read:
 * n, g at [lo - CC_PAD, hi + CC_PAD), sn, sg at [lo - CC_PAD, hi) (sn, sg hold partial
 * sums up to hi + 14). */
static void colour_sums(const float *const rows[4], int gpar, int32_t w, int32_t lo,
                        int32_t hi, float *restrict n, float *restrict g, float *restrict sn,
                        float *restrict sg)
{
    const int32_t a = lo - CC_PAD, b = hi + CC_PAD;
    for (int32_t q = a; q < 0; q++)
        n[q] = g[q] = 0;
    for (int32_t q = w > a ? w : a; q < b; q++)
        n[q] = g[q] = 0;
    const float *r0 = rows[0], *r1 = rows[1], *r2 = rows[2], *r3 = rows[3];
    /* the row ends take their one neighbour twice; between them, a loop that vectorises:
     * k is 0 or 1 and all terms finite, so k * u + (1 - k) * v is an exact select */
    for (int32_t q = 0; q < w; q += w - 1) {
        if (q < a || q >= b)
            continue;
        int32_t l = q > 0 ? q - 1 : q + 1, r = q + 1 < w ? q + 1 : q - 1;
        int own = (q & 1) != gpar;
        n[q] = own ? r0[q] + r1[q] : r2[q] + r3[q];
        g[q] = own ? 0.5f * ((r0[l] + r0[r]) + (r1[l] + r1[r]))
                   : 0.5f * ((r2[l] + r2[r]) + (r3[l] + r3[r]));
    }
    const int32_t in_hi = b < w - 1 ? b : w - 1;
    for (int32_t q = a > 1 ? a : 1; q < in_hi; q++) {
        float k = (float)((q ^ gpar) & 1);
        float n01 = r0[q] + r1[q], n23 = r2[q] + r3[q];
        float g01 = 0.5f * ((r0[q - 1] + r0[q + 1]) + (r1[q - 1] + r1[q + 1]));
        float g23 = 0.5f * ((r2[q - 1] + r2[q + 1]) + (r3[q - 1] + r3[q + 1]));
        n[q] = k * n01 + (1 - k) * n23;
        g[q] = k * g01 + (1 - k) * g23;
    }
    /* columns q, q + 2 .. q + CC_PAD: pairs, fours, eights, then the last */
    _Static_assert(CC_PAD == 16, "the tree below sums 9 columns");
    for (int32_t q = a; q < hi + 14; q++) {
        sn[q] = n[q] + n[q + 2];
        sg[q] = g[q] + g[q + 2];
    }
    for (int32_t q = a; q < hi + 8; q++) {
        sn[q] += sn[q + 4];
        sg[q] += sg[q + 4];
    }
    for (int32_t q = a; q < hi; q++) {
        sn[q] += sn[q + 8];
        sg[q] += sg[q + 8];
    }
    for (int32_t q = a; q < hi; q++) {
        sn[q] += n[q + CC_PAD];
        sg[q] += g[q + CC_PAD];
    }
}

/* The window behind the colour ratio of column x of a dark row (from colour_sums). */
typedef struct cc_window {
    float r;        /* the pixel's colour to that of the adjacent bright row's sample */
    float lev;      /* the window's mean level, times cnt */
    float cnt;      /* same-parity columns in the window */
    int positive;   /* both half windows have positive sums */
} cc_window;

/* The colour ratio of column x: a ratio of sums over the window x - CC_PAD .. x + CC_PAD,
 * or, where the ratios of its two halves differ by more than CC_EDGE (a colour edge), over
 * the half whose ratio is nearer that of the three columns around x. Floats only and
 * without branches, so that its callers' loops vectorise. */
static inline cc_window cc_window_at(const float *restrict n, const float *restrict g,
                                     const float *restrict sn, const float *restrict sg,
                                     int32_t w, int32_t x, int gpar)
{
    /* left half window: columns x - CC_PAD .. x, right: x .. x + CC_PAD */
    float ln = sn[x - CC_PAD], lg = sg[x - CC_PAD], rn = sn[x], rg = sg[x];
    float wn = ln + rn - n[x], wg = lg + rg - g[x];
    int32_t cl = x >> 1, cr = (w - 1 - x) >> 1;
    cl = cl < CC_PAD / 2 ? cl : CC_PAD / 2;
    cr = cr < CC_PAD / 2 ? cr : CC_PAD / 2;
    cc_window k;
    k.cnt = (float)(cl + cr + 1);
    /* the level from the whole window (times cnt): a gate on the pixel's own estimate
     * would pick its noise (above the level, the midpoint is replaced more often where
     * it is high by noise, a bias) */
    k.lev = 0.25f * (wn + wg);
    k.positive = (ln > 0) & (lg > 0) & (rn > 0) & (rg > 0);
    /* a colour edge: the half whose ratio is nearer that of the three columns around
     * x, |L / C - 1| <= |R / C - 1| in products (all positive) */
    int edge = (ln * rg > CC_EDGE * (rn * lg)) | (rn * lg > CC_EDGE * (ln * rg));
    float cn = n[x - 2] + n[x] + n[x + 2], cg = g[x - 2] + g[x] + g[x + 2];
    int left = fabsf(ln * cg - lg * cn) * rg <= fabsf(rn * cg - rg * cn) * lg;
    float hn = left ? ln : rn, hg = left ? lg : rg;
    float sel_n = edge ? hn : wn, sel_g = edge ? hg : wg;
    int green = (x & 1) == gpar;
    float num = green ? sel_g : sel_n, den = green ? sel_n : sel_g;
    k.r = num / den; /* before the selects, which it then does not stay under */
    return k;
}

/* The colour ratio (the pixel's colour to that of the adjacent bright row's sample at its
 * column) of each column of a dark row, 0 where the cross-colour estimate is not used (see
 * cross_colour_row): floats only and without branches, so that it vectorises. */
static void cc_ratios(const frame_ctx *c, const float *restrict n, const float *restrict g,
                      const float *restrict sn, const float *restrict sg,
                      const float *restrict mis, int gpar, float *restrict ratio)
{
    const int32_t w = (int32_t)c->in->width;
    const float nb = (float)(c->lv->noise_bright / c->lv->ratio), var = nb * nb;
    const float gain = (float)c->lv->gain_dark, level = CC_LEVEL * nb;
    const float agree = 2 * CC_AGREE * CC_AGREE;
    const float top = (float)(CC_TOP * c->lv->noise_dark * c->lv->noise_dark / c->lv->gain_dark);
    for (int32_t x = 0; x < w; x++) {
        cc_window k = cc_window_at(n, g, sn, sg, w, x, gpar);
        float cnt = k.cnt, lev = k.lev, m = mis[x], r = k.r;
        int use = (lev > level * cnt) & (lev < top * cnt) &
                  (m * m * cnt <= agree * (var * cnt + gain * lev)) & k.positive;
        ratio[x] = (use & (r > 0) & (r <= CC_RMAX)) ? r : 0;
    }
}

/* The cross-colour estimate where ratio[x] > 0 and no sample is clipped (adj: the adjacent
 * bright row, opp: the same-colour bright row on the other side). */
static void cc_apply(dualiso_workspace *ws, int32_t w, const float *restrict opp,
                     const float *restrict adj, const uint8_t *restrict adj_clip,
                     float *restrict ratio)
{
    const uint8_t *restrict est_clip = ws->est_clip;
    float *restrict est = ws->est, *restrict mis = ws->mis;
    uint8_t *restrict est_mid = ws->est_mid;
    for (int32_t x = 0; x < w; x++)
        ratio[x] = est_clip[x] | adj_clip[x] ? 0 : ratio[x];
    for (int32_t x = 0; x < w; x++) {
        float a = adj[x] * ratio[x], b = opp[x];
        /* k is 0 or 1 and all terms finite, so this is an exact select (in a form GCC
         * does not turn into a conditional store, which would not vectorise) */
        float k = ratio[x] > 0 ? 1.0f : 0.0f;
        est[x] = k * ((2 * a + b) * (1.0f / 3)) + (1 - k) * est[x];
        mis[x] = k * ((float)M_SQRT2 * fabsf(a - b)) + (1 - k) * mis[x];
    }
    for (int32_t x = 0; x < w; x++)
        est_mid[x] = ratio[x] > 0 ? 0 : est_mid[x];
}

/* At small ISO gaps the dark rows' estimate of the bright field, the mean of the
 * same-colour rows two above and below, misses the vertical frequencies those rows (every
 * fourth row) cannot represent. The adjacent bright row is one row away: its sample at the
 * same column, brought to the pixel's colour by the local colour ratio, weighted 2/3
 * against 1/3 for the same-colour row on the far side, is a linear interpolation at half
 * the distance. Its error for the blend is the difference of its two parts. Only where the
 * bright pair agrees (no edge the midpoint needs the side pick for), above the deep shadows
 * (where the colour ratio is noise) and where the dark field's read noise still outweighs
 * its photon noise (CC_TOP).
 * The colour ratio is a ratio of sums over the bright rows along the row, wide so that
 * detail past one colour's Nyquist averages out (scene 1's plate); but where a colour edge
 * crosses the window (scene 2's coloured star sectors) the pixel takes the half window on
 * its own side: the one whose ratio is nearer that of the three columns around it.
 * rows: the bright rows y - 2s, y + 2s, y + s, y - 3s (s: side of the adjacent one). */
static void cross_colour_row(frame_ctx *c, const float *const rows[4], const uint8_t *adj_clip,
                             int gpar)
{
    dualiso_workspace *ws = c->ws;
    const int32_t w = (int32_t)c->in->width;
    float *n = ws->ccsum[0] + CC_PAD, *g = ws->ccsum[1] + CC_PAD;
    float *sn = ws->ccsum[2] + CC_PAD, *sg = ws->ccsum[3] + CC_PAD;
    colour_sums(rows, gpar, w, 0, w, n, g, sn, sg);
    cc_ratios(c, n, g, sn, sg, ws->mis, gpar, ws->scratch[0]);
    cc_apply(ws, w, rows[0], rows[2], adj_clip, ws->scratch[0]);
}

#define COL_RMAX 4.0f    /* the column estimate: colour ratios within 1/4 .. 4 */
#define COL_EVIDENCE 0.8f /* ... taken where its squared disagreement with the native
                             samples along the row is below this share of the midpoint's
                             (measured, 4 HD frames at 100/1600: 0.6 kept a third of the
                             rings' gain, 0.9 added 0.01 % of bias on scene 1) */
#define COL_WIN 8         /* ... over 2 COL_WIN + 1 same-colour samples */

/* The sum of v over the same-colour columns x - 2 COL_WIN .. x + 2 COL_WIN inside the row. */
static float same_colour_sum_at(const float *v, int32_t w, int32_t x)
{
    float acc = 0;
    for (int32_t q = x - 2 * COL_WIN; q <= x + 2 * COL_WIN; q += 2)
        acc += q >= 0 && q < w ? v[q] : 0;
    return acc;
}

/* out[x] = same_colour_sum_at(v, w, x) for x in [x0, x1); where the window lies inside the
 * row, as one expression in a fixed order of additions, which vectorises. */
static void same_colour_sums(const float *restrict v, int32_t w, int32_t x0, int32_t x1,
                             float *restrict out)
{
    _Static_assert(COL_WIN == 8, "the sum below has 17 terms");
    const int32_t r = 2 * COL_WIN, lo = r < x1 ? r : x1, hi = w - r < x1 ? w - r : x1;
    int32_t x = x0;
    for (; x < lo; x++)
        out[x] = same_colour_sum_at(v, w, x);
    for (; x < hi; x++)
        out[x] = (((v[x - 16] + v[x - 14]) + (v[x - 12] + v[x - 10])) +
                  ((v[x - 8] + v[x - 6]) + (v[x - 4] + v[x - 2]))) +
                 (((v[x + 2] + v[x + 4]) + (v[x + 6] + v[x + 8])) +
                  ((v[x + 10] + v[x + 12]) + (v[x + 14] + v[x + 16]))) + v[x];
    for (; x < x1; x++)
        out[x] = same_colour_sum_at(v, w, x);
}

/* Flags to floats (GCC 12 vectorises neither loop where they are mixed): use 1 where the
 * column estimate may replace the midpoint (no pair it would replace with a step's side
 * pick, nothing clipped), ok 1 where the native sample counts as evidence. */
static void column_masks(const uint8_t *restrict est_mid, const uint8_t *restrict est_clip,
                         const uint8_t *restrict adj_clip, const uint8_t *restrict oth_clip,
                         const uint8_t *restrict nclip, int32_t w, float *restrict use,
                         float *restrict ok)
{
    for (int32_t x = 0; x < w; x++) {
        use[x] = (est_mid[x] | est_clip[x] | adj_clip[x] | oth_clip[x]) ? 0.0f : 1.0f;
        ok[x] = (nclip[x] | est_clip[x]) ? 0.0f : 1.0f;
    }
}

/* The colour ratio of each column of a dark row where the column estimate may be used
 * (use 1 on entry), else 0; use stays 1 where the ratio is usable, else becomes 0. */
static void column_ratios(const float *restrict n, const float *restrict g,
                          const float *restrict sn, const float *restrict sg, int32_t w,
                          int32_t x0, int32_t x1, int gpar, float level, float *restrict use,
                          float *restrict ratio)
{
    for (int32_t x = x0; x < x1; x++) {
        cc_window k = cc_window_at(n, g, sn, sg, w, x, gpar);
        float r = k.r;
        int ok = (use[x] > 0) & k.positive & (k.lev > level * k.cnt) &
                 (r > 1 / COL_RMAX) & (r < COL_RMAX);
        ratio[x] = ok ? r : 0;
        use[x] = ok ? 1.0f : 0.0f;
    }
}

/* The column estimate col (the midpoint where ratio is 0) and the squared disagreement of
 * both predictions with the native sample, where it counts (ok 1). far, near, adj, oth:
 * the bright rows y - 2s, y + 2s, y + s, y - 3s. */
static void column_evidence(const float *restrict far, const float *restrict near,
                            const float *restrict adj, const float *restrict oth,
                            const float *restrict ratio, const float *restrict use,
                            const float *restrict mid, const float *restrict nat,
                            const float *restrict ok, int32_t x0, int32_t x1,
                            float *restrict col, float *restrict err_mid,
                            float *restrict err_col)
{
    for (int32_t x = x0; x < x1; x++) {
        float r = ratio[x], m = mid[x], k = use[x];
        float cub = r * (adj[x] - 0.2f * oth[x]) - 0.3f * near[x] + 0.5f * far[x];
        /* k is 0 or 1 and all terms finite, so k * u + (1 - k) * v is an exact select (k
         * loaded, not compared here: with a comparison in it GCC 12 leaves the loop scalar) */
        float v = k * cub + (1 - k) * m;
        float dm = nat[x] - m, dc = nat[x] - v;
        err_mid[x] = ok[x] * (dm * dm);
        err_col[x] = ok[x] * (dc * dc);
        col[x] = v;
    }
}

/* est = col where the column estimate is used and its evidence wins. */
static void column_apply(const float *restrict ratio, const float *restrict col,
                         const float *restrict sum_mid, const float *restrict sum_col,
                         int32_t x0, int32_t x1, float *restrict est)
{
    for (int32_t x = x0; x < x1; x++) {
        float k = ((ratio[x] > 0) & (sum_col[x] < COL_EVIDENCE * sum_mid[x])) ? 1.0f : 0.0f;
        est[x] = k * col[x] + (1 - k) * est[x];
    }
}

#define COL_BLOCK 8       /* the spans are found a block of columns at a time ... */
#define COL_GAP_BLOCKS 5  /* ... and end at this many blocks without a column using the
                             estimate (40 columns: beyond two reaches of the evidence) */

/* any[b] = 1 where one of the columns of block b has its mask (0.0f or 1.0f) set: by the
 * masks' bits, without a branch per column. */
static void block_flags(const float *restrict m, int32_t w, uint8_t *restrict any)
{
    for (int32_t b = 0; b * COL_BLOCK < w; b++) {
        uint32_t o = 0;
        for (int32_t x = b * COL_BLOCK; x < (b + 1) * COL_BLOCK && x < w; x++) {
            uint32_t u;
            memcpy(&u, m + x, sizeof u);
            o |= u;
        }
        any[b] = o != 0;
    }
}

/* At large ISO gaps, in dark rows where the bright field oscillates vertically (the rows
 * 6 away do not continue the pair: est_mid is 0), the midpoint of the same-colour rows
 * two above and below misses what one colour of one field (every fourth row) cannot
 * represent, past 0.125 cycles per px (scene 1's zone plate). The column holds two more
 * bright samples, of the other colour, 1 and 3 rows away: with the colour ratio of
 * cc_window_at, the four make a cubic (Lagrange) interpolation at the pixel, from rows
 * +1, +2, -2, -3 (in the direction of the adjacent bright row) weighted 1, -0.3, 0.5, -0.2.
 * Its response stays near 1 far beyond the midpoint's, but it overshoots at steps and its
 * ratio misconverts at colour edges; so it replaces the midpoint only where the native
 * dark samples along the row (17 of the pixel's colour) agree with it clearly better than
 * with the midpoint: the dark rows' own samples, noisy but in the right place, judge the
 * two predictions. The evidence sums many samples, so the pixel's own noise hardly
 * selects (no bias), and a flat area, where both predict alike, keeps the midpoint and its
 * lower noise. rows: the bright rows y - 2s, y + 2s, y + s, y - 3s; clips: their flags;
 * nat / nclip: the dark row itself. */
static void column_row(frame_ctx *c, const float *const rows[4], const uint8_t *const clips[4],
                       const float *nat, const uint8_t *nclip, int gpar)
{
    dualiso_workspace *ws = c->ws;
    const int32_t w = (int32_t)c->in->width;
    float *n = ws->ccsum[0] + CC_PAD, *g = ws->ccsum[1] + CC_PAD;
    float *sn = ws->ccsum[2] + CC_PAD, *sg = ws->ccsum[3] + CC_PAD;
    float *col = ws->scratch[0], *err_mid = ws->scratch[1], *err_col = ws->scratch[2];
    float *sum_mid = ws->scratch[3], *sum_col = ws->scratch[4], *ratio = ws->scratch[5];
    /* the ratio's window above CC_LEVEL bright-field read-noise sigmas, as for the
     * cross-colour estimate (below, the ratio is noise) */
    const float level = CC_LEVEL * (float)(c->lv->noise_bright / c->lv->ratio);
    /* sum_mid and sum_col hold the masks until the sums */
    column_masks(ws->est_mid, ws->est_clip, clips[2], clips[3], nclip, w, sum_mid, sum_col);
    /* Only around the columns that may use the estimate (a tenth of a dark row in the
     * mlvsynth scene): spans of the blocks of COL_BLOCK columns that hold one, joined
     * across fewer than COL_GAP_BLOCKS blocks without, each with the reach of its evidence
     * sums on either side. A span is finished before the next, whose reach starts beyond
     * this one (so it reads est as it was), and every value depends only on its column:
     * the same as made for the whole row. */
    const int32_t reach = 2 * COL_WIN, nb = (w + COL_BLOCK - 1) / COL_BLOCK;
    _Static_assert(COL_GAP_BLOCKS * COL_BLOCK > 2 * 2 * COL_WIN, "spans' reaches overlap");
    uint8_t any[MP_FRAME_MAX_DIM / COL_BLOCK];
    block_flags(sum_mid, w, any);
    for (int32_t b = 0; b < nb;) {
        while (b < nb && !any[b])
            b++;
        if (b >= nb)
            break;
        const int32_t b_first = b;
        int32_t b_last = b;
        for (b++; b < nb && b - b_last <= COL_GAP_BLOCKS; b++)
            b_last = any[b] ? b : b_last;
        const int32_t x0 = b_first * COL_BLOCK, end = (b_last + 1) * COL_BLOCK;
        const int32_t last = end < w ? end - 1 : w - 1;
        const int32_t e0 = x0 - reach > 0 ? x0 - reach : 0;
        const int32_t e1 = last + 1 + reach < w ? last + 1 + reach : w;
        colour_sums(rows, gpar, w, x0, last + 1, n, g, sn, sg);
        for (int32_t q = e0; q < e1; q++) /* the reach: no estimate there */
            ratio[q] = 0;
        column_ratios(n, g, sn, sg, w, x0, last + 1, gpar, level, sum_mid, ratio);
        column_evidence(rows[0], rows[1], rows[2], rows[3], ratio, sum_mid, ws->est, nat,
                        sum_col, e0, e1, col, err_mid, err_col);
        same_colour_sums(err_mid, w, x0, last + 1, sum_mid);
        same_colour_sums(err_col, w, x0, last + 1, sum_col);
        column_apply(ratio, col, sum_mid, sum_col, x0, last + 1, ws->est);
    }
}

/* Estimates the other field at every pixel of row y: rows y+2s and y-2s are the other
 * field's same-colour rows, y+s and y-3s its other-colour rows (used by the guide). */
void mp_dualiso_interpolate_row(frame_ctx *c, int32_t y)
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
    int sa = mp_dualiso_load_row(c, have_a ? ya : yb), sb = mp_dualiso_load_row(c, have_b ? yb : ya);
    /* plain pointers the compiler may keep in registers and vectorise over */
    const float *restrict la = ws->lin[sa], *restrict lb = ws->lin[sb];
    const uint8_t *restrict ca = ws->clip[sa], *restrict cb = ws->clip[sb];
    float *restrict est = ws->est, *restrict mis = ws->mis;
    uint8_t *restrict est_clip = ws->est_clip, *restrict est_mid = ws->est_mid;
    const int both = have_a && have_b;
    /* floats and flags in separate loops: GCC 12 vectorises neither when they are mixed */
    for (int32_t x = 0; x < w; x++) {
        float a = la[x], b = lb[x];
        est[x] = 0.5f * (a + b);
        mis[x] = both ? fabsf(a - b) : 1e6f;
    }
    for (int32_t x = 0; x < w; x++) {
        est_clip[x] = ca[x] | cb[x];
        est_mid[x] = (uint8_t)both;
    }
    /* In dark rows the estimate comes from the clean bright field; the blend may move it to
     * one of its two samples when the native value shows which side of an edge the pixel
     * is on. Only where the bright rows 6 above and below continue the two samples (a step
     * edge, straight or slanted): in a fine oscillation, which the midpoint follows better
     * than either sample, they do not. */
    int32_t ya2 = y - 6 * s, yb2 = y + 6 * s;
    if (!bright && both && ya2 >= 0 && ya2 < h && yb2 >= 0 && yb2 < h) {
        const float *restrict la2 = ws->lin[mp_dualiso_load_row(c, ya2)],
                              *restrict lb2 = ws->lin[mp_dualiso_load_row(c, yb2)];
        const float rn = (float)(c->lv->noise_bright / c->lv->ratio), var = rn * rn;
        const float gain = (float)c->lv->gain_dark;
        float *restrict step = ws->scratch[0]; /* 1 at a step; then into the flags, apart */
        for (int32_t x = 0; x < w; x++) {
            float lev = est[x];
            float off = max_f(fabsf(la2[x] - la[x]), fabsf(lb2[x] - lb[x])) -
                        STEP_FLAT * mis[x];
            step[x] = ((off > 0) &
                       (off * off > STEP_NOISE * STEP_NOISE * (var + gain * max_f(lev, 0))))
                          ? 1.0f
                          : 0.0f;
        }
        for (int32_t x = 0; x < w; x++)
            est_mid[x] = step[x] != 0 ? 0 : est_mid[x];
    }
    if (!full)
        return;
    int sn = mp_dualiso_load_row(c, yn), sf = mp_dualiso_load_row(c, yf);
    const int srcs[4] = {sa, sb, sn, sf};
    const int gpar = dualiso_cfa_color(c->in->cfa, 0, (uint32_t)y) == 1 ? 0 : 1;
    if (!bright) {
        const float *rows[4] = {la, lb, ws->lin[sn], ws->lin[sf]};
        if (c->cross_colour) {
            cross_colour_row(c, rows, ws->clip[sn], gpar);
        } else {
            const uint8_t *clips[4] = {ca, cb, ws->clip[sn], ws->clip[sf]};
            int sy = mp_dualiso_load_row(c, y);
            column_row(c, rows, clips, ws->lin[sy], ws->clip[sy], gpar);
        }
        return;
    }
    /* the other field's rows around: 1 and 2 rows on one side, 2 and 3 on the other, the
     * next pairs 5 to 7 rows away (their sub-pixel offsets place an edge more finely; they
     * blurred the second scene's star spokes until the other colours' weight followed
     * colour edges), then the target field's rows 1 and 3 away (unclipped samples only) */
    static const int32_t dys[LINE_ROWS] = {1, 2, -2, -3, 5, 6, -6, -7, -1, 3};
    line_row rows[LINE_ROWS];
    int nrows = 0;
    for (int i = 0; i < LINE_ROWS; i++) {
        int32_t yr = y + dys[i] * s;
        if (yr < 0 || yr >= h)
            continue;
        int sl = mp_dualiso_load_row(c, yr);
        rows[nrows++] = (line_row){ws->lin[sl], ws->clip[sl], dys[i] * s,
                                   (dys[i] & 1) ? 1 - gpar : gpar, i >= 8};
    }
    uint8_t need[MP_FRAME_MAX_DIM];
    direction_needed(c, y, need);
    const line_ctx lc = {c, y, s, gpar, srcs, rows, nrows, need};
    /* runs of columns that need a direction, joined across short gaps; eight columns at a
     * time where none does (most of a row) */
    int32_t x0 = -1, x1 = -1;
    for (int32_t x = 0; x < w; x++) {
        uint64_t none8;
        if (x + 8 <= w && (memcpy(&none8, need + x, sizeof none8), none8 == 0)) {
            x += 7;
            continue;
        }
        if (!need[x])
            continue;
        if (x0 >= 0 && x - x1 > SPAN_GAP) {
            directed_span(&lc, x0, x1);
            x0 = -1;
        }
        if (x0 < 0)
            x0 = x;
        x1 = x;
    }
    if (x0 >= 0)
        directed_span(&lc, x0, x1);
}
