/* The direction of a bright-row pixel's edge line refined by the line's own samples: the
 * direction near the guide's along which they split best into two levels per colour
 * (doc/dualiso.md 8.15). */
#include <stdlib.h>

#include "edge_line.h"

#define REFINE_STEPS 4        /* the line's direction refined by its own samples: this many */
#define REFINE_STEP 0.0625f   /* ... steps of this many px per row either side (measured on
                                 the second scene's stars, 4-frame HD mean, edges 11-15 EV,
                                 before the gates of directed_span and the pair's sides:
                                 +-2 / +-4 / +-8 steps 0.0548 / 0.0545 / 0.0537, steps of
                                 1/32 px 0.0543; 0.0598 without) ... */
#define REFINE_REACH 1.5f     /* ... over the samples within this many px of the first line
                                 (2 px: 0.0550) */
#define REFINE_PTS (4 * LINE_ROWS)

/* The samples for the direction refinement: column, row offset, log2 value, weight (row
 * distance), colour (0: green, 1 and 2: the non-green colour of either row type). */
typedef struct dir_pts {
    float x[REFINE_PTS], dy[REFINE_PTS], lv[REFINE_PTS], w[REFINE_PTS];
    int ch[REFINE_PTS];
    int n;
} dir_pts;

/* One level per colour of the samples p: sums of weight, value and square, and the
 * squared residual about the levels, the same for every direction. */
typedef struct colour_levels {
    float W[3], S[3], Q[3], sse;
} colour_levels;

static colour_levels colour_one_level(const dir_pts *p)
{
    colour_levels L = {{0}, {0}, {0}, 0};
    for (int i = 0; i < p->n; i++) {
        int c = p->ch[i];
        L.W[c] += p->w[i];
        L.S[c] += p->w[i] * p->lv[i];
        L.Q[c] += p->w[i] * p->lv[i] * p->lv[i];
    }
    for (int c = 0; c < 3; c++)
        if (L.W[c] > 0)
            L.sse += L.Q[c] - L.S[c] * L.S[c] / L.W[c];
    return L;
}

/* The squared residuals of colour c about its levels either side of a split, from its
 * sums on the left (wl, sl, ql) and the totals L: lr[0] left, lr[1] right, 0 for a side
 * without a sample of c (so that adding it changes no sum). */
static inline void colour_side_sse(const colour_levels *L, int c, float wl, float sl, float ql,
                                   float lr[2])
{
    float wr = L->W[c] - wl, sr = L->S[c] - sl, qr = L->Q[c] - ql;
    float left = ql - sl * sl / wl, right = qr - sr * sr / wr;
    lr[0] = wl > 0 ? left : 0;
    lr[1] = wr > 0 ? right : 0;
}

/* The least squared log residual of a step across the line x + t dy through the samples
 * p, with two levels per colour on either side of one split, the split running along the
 * samples sorted by their offset across the line, equal offsets in the order of the
 * previous direction: rank holds that order on entry (the order gathered for the first)
 * and this direction's on return. A step moves one colour's sums, so only its residuals
 * are made again; the total adds the six in a fixed order. */
static float colour_step_sse(const dir_pts *p, const colour_levels *L, float x, float t,
                             int *rank)
{
    const int n = p->n;
    float d[REFINE_PTS];
    int prev[REFINE_PTS], o[REFINE_PTS];
    for (int i = 0; i < n; i++) {
        d[i] = p->x[i] - (x + t * p->dy[i]);
        prev[i] = rank[i];
    }
    rank_order(d, prev, n, rank, o);
    float wl[3] = {0}, sl[3] = {0}, ql[3] = {0}, lr[3][2], best = L->sse;
    for (int c = 0; c < 3; c++)
        colour_side_sse(L, c, 0, 0, 0, lr[c]);
    for (int k = 1; k < n; k++) {
        const int i = o[k - 1], c = p->ch[i];
        const float w = p->w[i], v = p->lv[i];
        wl[c] += w;
        sl[c] += w * v;
        ql[c] += w * v * v;
        colour_side_sse(L, c, wl[c], sl[c], ql[c], lr[c]);
        float sse = lr[0][0] + lr[0][1] + lr[1][0] + lr[1][1] + lr[2][0] + lr[2][1];
        best = d[o[k]] != d[i] && sse < best ? sse : best;
    }
    return best;
}

/* The edge direction t0 from the guide's cost, refined by the line's own samples. The cost
 * compares guide rows 4 apart at quarter-pixel steps, each guide sample the mean of two
 * columns, and a parabola between the steps; at a coloured edge between those steps (the
 * second scene's sectors at 60-75 degrees: 0.58 and 0.27 px per row) it misses by a tenth
 * of a px per row, which puts the samples 5 to 7 rows away on the wrong side of the edge
 * and the pixel on the other side's level. The samples near the line, every unclipped one
 * of the rows around, show the edge's place directly: the direction within REFINE_STEPS
 * steps of t0 along which they split best into two levels is taken where that split
 * leaves at most STEP_FIT of their one-level spread. The levels are per colour: a colour
 * edge's place is common to all channels, its levels are not, so no colour ratio (which
 * mixes both sides at the edge) enters. The sample set stays that of t0, so the
 * candidates' residuals compare like with like; where the samples show no step of
 * STEP_MIN_EV (their spread below its half squared), there is nothing to place. */
float mp_dualiso_refine_direction(const line_row *rows, int nrows, uint32_t w, int32_t x, float t0)
{
    dir_pts p;
    int n = 0;
    float wsum = 0;
    for (int i = 0; i < nrows; i++) {
        const line_row *r = &rows[i];
        float xr = (float)x + t0 * (float)r->dy;
        for (int32_t q = (int32_t)ceilf(xr - REFINE_REACH);
             q <= (int32_t)floorf(xr + REFINE_REACH) && n < REFINE_PTS; q++) {
            if (q < 0 || q >= (int32_t)w || r->clip[q] || !(r->v[q] > 0))
                continue;
            int green = (q & 1) == r->gpar;
            float wt = 1.0f / (float)abs(r->dy);
            p.x[n] = (float)q;
            p.dy[n] = (float)r->dy;
            p.lv[n] = log2f(r->v[q]);
            p.w[n] = wt;
            p.ch[n++] = green ? 0 : 1 + (r->dy & 1);
            wsum += wt;
        }
    }
    p.n = n;
    if (n < 6)
        return t0;
    const colour_levels L = colour_one_level(&p);
    if (L.sse < 0.25f * STEP_MIN_EV * STEP_MIN_EV * wsum)
        return t0;
    int rank[REFINE_PTS];
    for (int i = 0; i < n; i++)
        rank[i] = i;
    float sse[2 * REFINE_STEPS + 1];
    for (int k = -REFINE_STEPS; k <= REFINE_STEPS; k++)
        sse[k + REFINE_STEPS] =
            colour_step_sse(&p, &L, (float)x, t0 + (float)k * REFINE_STEP, rank);
    float best = sse[REFINE_STEPS], bt = t0;
    for (int k = -REFINE_STEPS; k <= REFINE_STEPS; k++)
        if (sse[k + REFINE_STEPS] < best) {
            best = sse[k + REFINE_STEPS];
            bt = t0 + (float)k * REFINE_STEP;
        }
    return best < STEP_FIT * L.sse ? bt : t0;
}

