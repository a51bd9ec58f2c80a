/* Reconstruction of one dual-ISO frame with clip levels.
 *
 * Every pixel has its native sample (its own field) and an estimate of the other field
 * interpolated from the same-colour rows two above and below, along the edge direction
 * found on a colour-neutral log guide. Both are in dark-field DN above black. They are
 * mixed by inverse variance: read + photon noise per field from the levels, plus the
 * interpolation error seen as the disagreement of the two interpolated samples. So the
 * clean bright field carries the shadows, the native rows keep full vertical resolution
 * wherever they are good enough, the dark rows alone carry what the bright field clipped,
 * and the bright field fades out smoothly before its clip.
 *
 * Rows are processed top to bottom through a ring of converted rows, so the scratch memory
 * is a few rows wide whatever the frame size. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dualiso_priv.h"

#define RING 8                /* rows y-3 .. y+3 converted, power of two */
#define NSCRATCH 5            /* blend scratch rows */
#define NDIR 9                /* edge directions: -2 .. +2 px per row, half-pixel steps */
#define WIN 2                 /* cost window: x-2 .. x+2 */
#define DIR_PENALTY 0.08      /* cost per px/row away from vertical, log2 units */
#define INTERP_ERR 0.10       /* error variance of a midpoint per squared disagreement */
#define ALIAS_WIN 3           /* disagreement window: 7 same-colour samples */
#define ALIAS_SIGMAS 3.0f     /* disagreement counts beyond this many of its own sigmas */
#define SEARCH_LO 0.95        /* edge search where the bright sample is this near its clip */
#define SHADOW_LO 2.0f        /* shadow smoothing fades out between these multiples of */
#define SHADOW_HI 6.0f        /* the bright field's read noise (dark-field units) */
#define LEVEL_WIN 3           /* level averaging window: 7 same-colour samples */
#define SIDE_SIGMAS 3.0f      /* pair disagreement (sigmas) that marks an edge between them */
#define SIDE_RESOLVE 25.0f    /* ... and that the native value resolves (step^2 / its var) */
#define CLIP_FLOOR 0.98f      /* a clipped bright sample bounds the estimate from below */
#define FADE_LO 0.70          /* bright field fades out between these fractions of */
#define FADE_HI 0.92          /* its clip (in dark-field units) */

struct dualiso_workspace {
    uint32_t width, lut_size;
    dualiso_levels lut_for;       /* levels the tables were built for */
    float *lut[2];                /* raw -> dark-field DN above black, per field */
    float *glut[2];               /* raw -> log2 guide value, per field */
    float *lin[RING], *guide[RING];
    uint8_t *clip[RING];
    int32_t ring_row[RING];
    float *cost[NDIR];            /* per-direction windowed cost of one row */
    float *est, *mis;             /* other-field estimate and its disagreement */
    uint8_t *est_clip, *est_mid;  /* estimate clipped / is the midpoint of a pair */
    float *scratch[NSCRATCH];     /* blend rows: levels, variances, disagreement */
    float *row_off;               /* per-row dark-field offsets of the frame */
    uint32_t row_off_size;
};

void dualiso_options_default(dualiso_options *o)
{
    o->row_align = 1;
    o->bad_pixels = 0;
    o->shadow_smooth = 1;
}

dualiso_workspace *dualiso_workspace_new(void)
{
    return calloc(1, sizeof(dualiso_workspace));
}

static void free_rows(dualiso_workspace *ws)
{
    for (int i = 0; i < RING; i++) {
        free(ws->lin[i]);
        free(ws->guide[i]);
        free(ws->clip[i]);
        ws->lin[i] = ws->guide[i] = NULL;
        ws->clip[i] = NULL;
    }
    for (int d = 0; d < NDIR; d++) {
        free(ws->cost[d]);
        ws->cost[d] = NULL;
    }
    free(ws->est);
    free(ws->mis);
    free(ws->est_clip);
    free(ws->est_mid);
    ws->est_mid = NULL;
    for (int i = 0; i < NSCRATCH; i++) {
        free(ws->scratch[i]);
        ws->scratch[i] = NULL;
    }
    ws->est = ws->mis = NULL;
    ws->est_clip = NULL;
    ws->width = 0;
}

void dualiso_workspace_free(dualiso_workspace *ws)
{
    if (!ws)
        return;
    free_rows(ws);
    free(ws->row_off);
    for (int f = 0; f < 2; f++) {
        free(ws->lut[f]);
        free(ws->glut[f]);
    }
    free(ws);
}

static mp_status prepare(dualiso_workspace *ws, const dualiso_levels *lv, uint32_t width,
                         uint32_t height, mp_error *err)
{
    if (ws->row_off_size < height) {
        float *p = realloc(ws->row_off, height * sizeof *p);
        if (!p)
            return mp_error_set(err, MP_ERR_NOMEM, "dualiso: cannot allocate row offsets");
        ws->row_off = p;
        ws->row_off_size = height;
    }
    for (uint32_t y = 0; y < height; y++)
        ws->row_off[y] = 0;
    uint32_t size = 1u << lv->bits;
    if (ws->lut_size != size || memcmp(&ws->lut_for, lv, sizeof *lv) != 0) {
        for (int f = 0; f < 2; f++) {
            free(ws->lut[f]);
            free(ws->glut[f]);
            ws->lut[f] = malloc(size * sizeof(float));
            ws->glut[f] = malloc(size * sizeof(float));
            if (!ws->lut[f] || !ws->glut[f]) {
                ws->lut_size = 0;
                return mp_error_set(err, MP_ERR_NOMEM, "dualiso: cannot allocate tables");
            }
        }
        /* guide floor about two read-noise sigmas, so shadow noise does not steer it */
        double floor_d = 2 * lv->noise_dark, floor_b = 2 * lv->noise_bright / lv->ratio;
        for (uint32_t v = 0; v < size; v++) {
            double sd = v - lv->black_dark, sb = (v - lv->black_bright) / lv->ratio;
            ws->lut[0][v] = (float)sd;
            ws->lut[1][v] = (float)sb;
            ws->glut[0][v] = (float)log2((sd > 0 ? sd : 0) + floor_d);
            ws->glut[1][v] = (float)log2((sb > 0 ? sb : 0) + floor_b);
        }
        ws->lut_size = size;
        ws->lut_for = *lv;
    }
    if (ws->width != width) {
        free_rows(ws);
        int ok = 1;
        for (int i = 0; i < RING; i++) {
            ws->lin[i] = malloc(width * sizeof(float));
            ws->guide[i] = malloc(width * sizeof(float));
            ws->clip[i] = malloc(width);
            ok &= ws->lin[i] && ws->guide[i] && ws->clip[i];
        }
        for (int d = 0; d < NDIR; d++) {
            ws->cost[d] = malloc((width + 1) * sizeof(float));
            ok &= ws->cost[d] != NULL;
        }
        ws->est = malloc(width * sizeof(float));
        ws->mis = malloc(width * sizeof(float));
        ws->est_clip = malloc(width);
        ws->est_mid = malloc(width);
        ok &= ws->est && ws->mis && ws->est_clip && ws->est_mid;
        for (int i = 0; i < NSCRATCH; i++) {
            ws->scratch[i] = malloc(width * sizeof(float));
            ok &= ws->scratch[i] != NULL;
        }
        if (!ok) {
            free_rows(ws);
            return mp_error_set(err, MP_ERR_NOMEM, "dualiso: cannot allocate row buffers");
        }
        ws->width = width;
    }
    for (int i = 0; i < RING; i++)
        ws->ring_row[i] = -1;
    return MP_OK;
}

typedef struct frame_ctx {
    const mp_frame *in;
    const dualiso_levels *lv;
    const dualiso_options *opt;
    dualiso_workspace *ws;
    uint16_t clip_raw[2];
    float search_level;       /* native bright level from which edges are searched */
} frame_ctx;

/* Isolated hot or cold samples: far outside all same-colour, same-field neighbours (x +-2
 * on the row, x on rows +-4) take the neighbours' median. */
static uint16_t repair_sample(const frame_ctx *c, uint32_t x, uint32_t y, uint16_t v)
{
    const mp_frame *in = c->in;
    uint16_t nb[4];
    int n = 0;
    const uint16_t *row = in->data + (size_t)y * in->width;
    if (x >= 2)
        nb[n++] = row[x - 2];
    if (x + 2 < in->width)
        nb[n++] = row[x + 2];
    if (y >= 4)
        nb[n++] = row[x - 4 * (size_t)in->width];
    if (y + 4 < in->height)
        nb[n++] = row[x + 4 * (size_t)in->width];
    if (n < 3)
        return v;
    uint16_t lo = nb[0], hi = nb[0];
    for (int i = 1; i < n; i++) {
        lo = nb[i] < lo ? nb[i] : lo;
        hi = nb[i] > hi ? nb[i] : hi;
    }
    int bright = dualiso_row_is_bright(y, c->lv->phase);
    double black = bright ? c->lv->black_bright : c->lv->black_dark;
    double noise = bright ? c->lv->noise_bright : c->lv->noise_dark;
    double margin = 8 * noise;
    double vs = v - black, his = hi - black, los = lo - black;
    int hot = vs > 4 * (his > 0 ? his : 0) + margin;
    int cold = vs < -margin && los > margin;
    if (!hot && !cold)
        return v;
    for (int i = 1; i < n; i++) /* sort the few neighbours */
        for (int j = i; j > 0 && nb[j - 1] > nb[j]; j--) {
            uint16_t t = nb[j];
            nb[j] = nb[j - 1];
            nb[j - 1] = t;
        }
    return n == 4 ? (uint16_t)((nb[1] + nb[2] + 1) / 2) : nb[1];
}

/* Converts input row y into the ring (linear, guide, clip flags). */
static int load_row(frame_ctx *c, int32_t y)
{
    dualiso_workspace *ws = c->ws;
    int slot = y & (RING - 1);
    if (ws->ring_row[slot] == y)
        return slot;
    const uint32_t w = c->in->width;
    const uint16_t *src = c->in->data + (size_t)y * w;
    int bright = dualiso_row_is_bright((uint32_t)y, c->lv->phase);
    const float *lut = ws->lut[bright], *glut = ws->glut[bright];
    const uint16_t clip = c->clip_raw[bright], top = (uint16_t)(ws->lut_size - 1);
    float *lin = ws->lin[slot], *g = ws->guide[slot];
    uint8_t *cl = ws->clip[slot];
    const float shift = c->opt->row_align ? ws->row_off[y] : 0;
    for (uint32_t x = 0; x < w; x++) {
        uint16_t v = src[x] > top ? top : src[x];
        if (c->opt->bad_pixels)
            v = repair_sample(c, x, (uint32_t)y, v);
        lin[x] = lut[v] - shift;
        g[x] = glut[v];
        cl[x] = v >= clip;
    }
    /* two neighbouring columns hold both colours of the row: a colour-neutral guide */
    for (uint32_t x = 0; x + 1 < w; x++)
        g[x] = 0.5f * (g[x] + g[x + 1]);
    ws->ring_row[slot] = y;
    return slot;
}

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
static void interpolate_row(frame_ctx *c, int32_t y)
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
    int sa = load_row(c, have_a ? ya : yb), sb = load_row(c, have_b ? yb : ya);
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
    int sy = load_row(c, y);
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

    int sn = load_row(c, yn), sf = load_row(c, yf);
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

static inline float smooth_fade(float t)
{
    /* 1 at t <= 0, 0 at t >= 1, raised cosine between */
    if (t <= 0)
        return 1;
    if (t >= 1)
        return 0;
    return 0.5f * (1 + cosf((float)M_PI * t));
}

/* out[x] = mean of the same-colour samples in[x - 2r], in[x - 2r + 2] .. in[x + 2r] (clipped
 * at the row ends); out may be in. */
static void box_mean(const float *in, float *out, uint32_t w, uint32_t r)
{
    float ring[2 * (LEVEL_WIN > ALIAS_WIN ? LEVEL_WIN : ALIAS_WIN) + 1];
    const uint32_t span = 2 * r + 1;
    const float full = 1.0f / (float)span;
    for (uint32_t p = 0; p < 2 && p < w; p++) {
        uint32_t len = (w - p + 1) / 2; /* samples of this colour: in[p + 2i] */
        float acc = 0;
        uint32_t n = 0, hi = 0;
        for (; hi < len && hi < r; hi++, n++)
            acc += in[p + 2 * hi];
        /* ring[i % span] = in[i]; in[i - r - 1] sits at (i + r) % span */
        uint32_t wr = 0, rd = r;
        for (uint32_t i = 0; i < len; i++) {
            if (hi < len) {
                acc += in[p + 2 * hi++];
                n++;
            }
            if (i > r) {
                acc -= ring[rd];
                n--;
            }
            ring[wr] = in[p + 2 * i];
            wr = wr + 1 == span ? 0 : wr + 1;
            rd = rd + 1 == span ? 0 : rd + 1;
            out[p + 2 * i] = n == span ? acc * full : acc / (float)n;
        }
    }
}

static void blend_row(frame_ctx *c, int32_t y, uint16_t *dst)
{
    dualiso_workspace *ws = c->ws;
    const dualiso_levels *lv = c->lv;
    const uint32_t w = c->in->width;
    int bright = dualiso_row_is_bright((uint32_t)y, lv->phase);
    int slot = load_row(c, y);
    const float *nat = ws->lin[slot];
    const uint8_t *nclip = ws->clip[slot];

    const float var_d = (float)(lv->noise_dark * lv->noise_dark);
    const float nb = (float)(lv->noise_bright / lv->ratio);
    const float var_b = nb * nb;
    const float gain = (float)lv->gain_dark;
    const float clip_b = (float)((lv->white_bright - lv->black_bright) / lv->ratio);
    const float fade_lo = FADE_LO * clip_b, fade_span = (FADE_HI - FADE_LO) * clip_b;
    const float ob = (float)lv->out_black, oscale = (float)lv->out_scale;
    const float owhite = (float)lv->out_white;

    float *lev = ws->scratch[0], *lev_mean = ws->scratch[1], *vn = ws->scratch[2],
          *vo = ws->scratch[3], *ex = ws->scratch[4];
    /* The level that sets photon noise and the fade: the cleanest value at hand, averaged
     * along the row so the weights hardly depend on the noise of the values they mix
     * (a weight that follows a value's own noise biases the mix). */
    for (uint32_t x = 0; x < w; x++) {
        int b_ok = bright ? !nclip[x] : !ws->est_clip[x];
        lev[x] = b_ok ? (bright ? nat[x] : ws->est[x]) : (bright ? ws->est[x] : nat[x]);
    }
    box_mean(lev, lev_mean, w, LEVEL_WIN);
    /* noise of both values, and how much native and estimate disagree beyond it */
    for (uint32_t x = 0; x < w; x++) {
        float n = nat[x], o = ws->est[x], m = ws->mis[x];
        int n_ok = !nclip[x], o_ok = !ws->est_clip[x];
        float photon = gain * (lev_mean[x] > 0 ? lev_mean[x] : 0);
        float vd = var_d + photon, vb = var_b + photon;
        vn[x] = bright ? vb : vd;
        /* the estimate: mean of two samples, plus their disagreement beyond noise */
        float vi = bright ? vd : vb;
        float pair = m * m - 2 * vi;
        vo[x] = 0.5f * vi + INTERP_ERR * (pair > 0 ? pair : 0);
        if (ws->est_mid[x] && n_ok && pair > SIDE_SIGMAS * SIDE_SIGMAS * 2 * vi &&
            m * m > SIDE_RESOLVE * vn[x]) {
            /* An edge runs between the two samples: the native value, noisy but in the
             * right place, tells which side this pixel is on. */
            float lo = o - 0.5f * m, hi = o + 0.5f * m;
            o = fabsf(n - lo) < fabsf(n - hi) ? lo : hi;
            ws->est[x] = o;
            vo[x] = vi;
        }
        float dn = n - o;
        ex[x] = (n_ok && o_ok) ? dn * dn - vn[x] - vo[x] : 0;
    }
    /* a local mean of that disagreement is the estimate's error variance (an even function
     * of the native noise, so the mix stays unbiased where the estimate is right) */
    box_mean(ex, ex, w, ALIAS_WIN);
    const float *bval = bright ? nat : ws->est;
    const uint8_t *bclip = bright ? nclip : ws->est_clip;
    const float shadow_lo = SHADOW_LO * nb, shadow_span = (SHADOW_HI - SHADOW_LO) * nb;
    const int shadow = c->opt->shadow_smooth;
    const float alias_k = ALIAS_SIGMAS * sqrtf(2.0f / (2 * ALIAS_WIN + 1));
    for (uint32_t x = 0; x < w; x++) {
        /* only disagreement that stands out of its own noise counts */
        float alias = ex[x] - alias_k * (vn[x] + vo[x]);
        float n = nat[x], o = ws->est[x];
        int n_ok = !nclip[x], o_ok = !ws->est_clip[x];
        float D = bright ? o : n, B = bright ? n : o;
        int d_ok = bright ? o_ok : n_ok, b_ok = bright ? n_ok : o_ok;
        if (bright && !n_ok && D < CLIP_FLOOR * clip_b)
            D = CLIP_FLOOR * clip_b; /* a clipped bright sample says: at least its clip */
        float v_o = vo[x] + (alias > 0 ? alias : 0);
        float vd = bright ? v_o : vn[x], vb = bright ? vn[x] : v_o;
        /* Deep shadows, a few bright-field read-noise sigmas and below: detail is lost in
         * noise, so the bright value is smoothed with its same-colour row neighbours
         * ([1 2 1] / 4 cuts the noise variance to 3/8). */
        if (shadow && b_ok && x >= 2 && x + 2 < w && !bclip[x - 2] && !bclip[x + 2]) {
            float smooth = 0.5f * B + 0.25f * (bval[x - 2] + bval[x + 2]);
            float k = smooth_fade((lev_mean[x] - shadow_lo) / shadow_span);
            B += k * (smooth - B);
            vb *= 1 - 0.625f * k;
        }
        float out = owhite; /* both fields clipped */
        float fade = b_ok ? smooth_fade((lev_mean[x] - fade_lo) / fade_span) : 0;
        float wd = d_ok ? 1 / vd : 0, wb = fade / vb;
        if (wd + wb > 0)
            out = ob + oscale * (wd * D + wb * B) / (wd + wb);
        if (out > owhite)
            out = owhite;
        if (out < 0)
            out = 0;
        dst[x] = (uint16_t)(out + 0.5f); /* out is within [0, white] */
    }
}

static mp_status check_match(const mp_frame *in, const dualiso_levels *lv, mp_error *err)
{
    mp_status st = dualiso_check_frame(in, err);
    if (st != MP_OK)
        return st;
    if (in->bits != lv->bits || in->black != (uint32_t)lv->in_black ||
        in->white != (uint32_t)lv->in_white)
        return mp_error_set(err, MP_ERR_ARG,
                            "dualiso: frame %u levels %u/%u at %u bits differ from the clip "
                            "levels %.0f/%.0f at %u bits", in->number, in->black, in->white,
                            in->bits, lv->in_black, lv->in_white, lv->bits);
    if (!(lv->out_scale > 0) || lv->out_white <= lv->out_black || lv->out_white > 65535)
        return mp_error_set(err, MP_ERR_ARG, "dualiso: output mapping of the levels is invalid");
    return MP_OK;
}

static mp_status begin_output(const mp_frame *in, const dualiso_levels *lv, mp_frame *out,
                              mp_error *err)
{
    mp_status st = mp_frame_reserve(out, in->width, in->height, err);
    if (st != MP_OK)
        return st;
    out->bits = 16;
    out->black = lv->out_black;
    out->white = lv->out_white;
    out->cfa = in->cfa;
    out->number = in->number;
    out->timestamp_us = in->timestamp_us;
    return MP_OK;
}

mp_status dualiso_passthrough(const mp_frame *in, const dualiso_levels *lv, mp_frame *out,
                              mp_error *err)
{
    mp_status st = check_match(in, lv, err);
    if (st == MP_OK)
        st = begin_output(in, lv, out, err);
    if (st != MP_OK)
        return st;
    const double ob = lv->out_black, scale = lv->out_scale, black = lv->in_black;
    const double top = lv->out_white;
    size_t n = (size_t)in->width * in->height;
    for (size_t i = 0; i < n; i++) {
        double v = ob + scale * (in->data[i] - black);
        out->data[i] = (uint16_t)lrint(v < 0 ? 0 : (v > top ? top : v));
    }
    return MP_OK;
}

mp_status dualiso_reconstruct(const mp_frame *in, const dualiso_levels *lv,
                              const dualiso_options *opt, dualiso_workspace *ws, mp_frame *out,
                              mp_error *err)
{
    if (!lv || !ws || !out)
        return mp_error_set(err, MP_ERR_ARG, "dualiso: reconstruct needs levels, workspace "
                                             "and an output frame");
    if (!lv->is_dual)
        return dualiso_passthrough(in, lv, out, err);
    mp_status st = check_match(in, lv, err);
    if (st != MP_OK)
        return st;
    if (in->width < 4 || in->height < 4)
        return mp_error_set(err, MP_ERR_ARG,
                            "dualiso: frame %u is %ux%u, too small for dual-ISO reconstruction",
                            in->number, in->width, in->height);
    if (lv->phase > 3 || !(lv->ratio >= 1) || !isfinite(lv->ratio) ||
        !isfinite(lv->black_bright) || !(lv->noise_dark > 0) || !(lv->noise_bright > 0) ||
        !(lv->white_bright > lv->black_bright) || !(lv->white_dark > lv->black_dark))
        return mp_error_set(err, MP_ERR_ARG, "dualiso: clip levels are inconsistent");
    dualiso_options defaults;
    if (!opt) {
        dualiso_options_default(&defaults);
        opt = &defaults;
    }
    st = prepare(ws, lv, in->width, in->height, err);
    if (st == MP_OK)
        st = begin_output(in, lv, out, err);
    if (st != MP_OK)
        return st;

    frame_ctx c = {in, lv, opt, ws, {0, 0}, 0};
    c.search_level = (float)(SEARCH_LO * (lv->white_bright - lv->black_bright) / lv->ratio);
    double top = (1u << lv->bits) - 1;
    c.clip_raw[0] = (uint16_t)fmin(ceil(lv->white_dark), top);
    c.clip_raw[1] = (uint16_t)fmin(ceil(lv->white_bright), top);
    if (opt->row_align)
        dualiso_row_offsets(in, lv, ws->lut[0], ws->lut[1], c.clip_raw[0], c.clip_raw[1],
                            (float)(FADE_LO * (lv->white_bright - lv->black_bright) / lv->ratio),
                            ws->scratch[0], ws->row_off);
    for (int32_t y = 0; y < (int32_t)in->height; y++) {
        interpolate_row(&c, y);
        blend_row(&c, y, out->data + (size_t)y * in->width);
    }
    return MP_OK;
}
