/* Cross-field noise reduction on the blended frame, on request (dualiso_options.denoise;
 * off by default: it trades resolution for noise, doc/dualiso.md 5).
 *
 * At a gap of a few EV both fields carry comparable information (at 100/400 the bright
 * field's read noise is 17 e-, the dark field's 33 e-), so the blend alone leaves most of
 * their noise: the best a per-pixel mix can do is the RMS "floor" of the quality
 * benchmark. Going below it means averaging neighbours, and averaging must not pull
 * detail down (a zone plate's peaks, an edge). This is a non-local mean over the 48
 * same-colour neighbours up to 6 px away (the 7x7 grid of offsets (2i, 2j)): each
 * neighbour is weighted by how alike the 5x3 patches (5 columns, 3 rows) around it and
 * around the pixel are, measured in units of the expected noise. A patch spans both fields
 * (rows y-1..y+1) and all three colours, so the other field and the other colours vote on
 * whether a difference is structure or noise; a patch pair that differs no more than noise
 * does is averaged, one that differs beyond it is left alone. The window is that wide
 * because at 100/400 the zone plate's RMS follows the number of neighbours, not the test
 * on the patches: every stricter or larger patch over the 8 nearest neighbours traded
 * edges and noise for the plate one for one (doc/benchmarks.md §1, session 9).
 *
 * A pair's weight depends on the pair alone (the distance of the patches at p and p + o),
 * so it is computed once, for the 24 offsets of one half-plane, and serves both pixels.
 * The noise of each blended sample comes from the clip levels (read noise of both fields,
 * photon noise from a local level, the mix the blend made for its row type), never from
 * the frame's own statistics, so the result is a pure function of the frame and the levels.
 * The frame is done in strips of columns, rows streaming through small rings per strip
 * (the blend has written the frame; rows are read before they are overwritten, and the
 * columns left of a strip, already written by the strip before it, from a copy that strip
 * kept), and frame borders are mirrored by even amounts so every neighbour keeps its
 * colour. The strength multiplies the variance a patch pair's difference is measured
 * against: 1 accepts what the predicted noise gives, more averages across larger
 * differences (more noise gone, more detail with it). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "recon_priv.h"

#define DN_REACH 3          /* neighbours up to 3 same-colour steps (6 px) away each way */
#define DN_NOFF 24          /* offsets of one half-plane: ((2 DN_REACH + 1)^2 - 1) / 2 */
#define DN_PATCH_W 5        /* patch columns (dualiso_dn_weights_row sums 5) */
#define DN_PATCH_H 3        /* patch rows: the pair's row, one above, one below */
#define DN_XR (2 * DN_REACH)            /* px from a pixel to its farthest neighbour */
#define DN_STRIP 512        /* columns per strip: a strip's rings (0.75 MB) stay in a 1-MB
                               L2 cache, and the margins every strip redoes stay near 10 % */
#define DN_PAD 32           /* columns each side of a ring row: the terms read up to 18
                               columns left of the strip and 22 right, their levels 4 more;
                               a multiple of 8, so that every row's column 0 is 32-byte
                               aligned */
#define DN_XW 8             /* weights made from 8 px left of the strip (6 are needed; 8
                               keeps the kernels' loads aligned) */
#define DN_ALIGN 8          /* floats per 32 bytes */
#define DN_RING 16          /* signal rows kept: r .. r + DN_XR + 1 and the rows the
                               mirrored ones are copied from (power of two) */
#define DN_Q_RING 8         /* pair weights kept per offset: rows r - DN_XR .. r */
#define DN_H_RING 4         /* patch row sums kept per offset: rows r - 1 .. r + 1 */
#define DN_LEVEL_R 2        /* the noise level: same-colour samples up to 2 x 2 px away */
#define DN_ACCEPT 1.0f      /* a patch pair whose mean normalised squared difference is */
#define DN_SPAN 2.0f        /* below DN_ACCEPT is averaged fully, above DN_ACCEPT + DN_SPAN
                               not at all, (1 - t)^2 between; pure noise gives 1 on average.
                               Measured at 100/400 (doc/benchmarks.md §1, session 9):
                               with 48 neighbours a span of 2 rather than 4 lowers the zone
                               plate's error (0.268 -> 0.258 with 3x3 patches) */
#define DN_TAB 4096         /* noise table entries from black to white */
#define DN_CLIPPED 1e12f    /* quarter inverse variance of a clipped sample: no patch
                               matches it */

/* (dx, dy) of the half-plane: dy > 0, or dy = 0 and dx > 0 (the other 24 are their
 * negatives), ring by ring; this order is the order of the sums' additions. */
static const int8_t dn_off[DN_NOFF][2] = {
    {2, 0}, {0, 2}, {2, 2}, {-2, 2},
    {4, 0}, {0, 4}, {4, 4}, {-4, 4}, {2, 4}, {4, 2}, {-2, 4}, {-4, 2},
    {6, 0}, {0, 6}, {2, 6}, {-2, 6}, {4, 6}, {-4, 6}, {6, 6}, {-6, 6}, {6, 2}, {-6, 2},
    {6, 4}, {-6, 4}};

typedef struct dn_ctx {
    const dualiso_levels *lv;
    const dualiso_dsp *dsp;
    mp_frame *out;
    uint32_t w, h;
    int32_t x_begin, sw;    /* the strip: its first column and width */
    uint32_t stride;        /* of the ring rows: DN_STRIP + 2 DN_PAD */
    float *edge;            /* per frame row: the DN_PAD columns left of the strip as they
                               were before the strip to the left wrote its output */
    float *s[DN_RING], *iv[DN_RING];        /* signal, 1 / (4 variance) */
    float *hsum[DN_NOFF][DN_H_RING];        /* per offset: the patch rows' 5-column sums */
    float *q[DN_NOFF][DN_Q_RING];           /* per offset: the pair weights */
    float *tmp, *num, *den;           /* rows of scratch (DN_PAD on each side) */
    float ivtab[2][DN_TAB];           /* per row type (bright = 1): 1 / (4 variance) */
    float tab_step;                   /* table entries per unit of the summed level */
    float ob, inv_scale, owhite_s;
    float var_d, var_b, gain, fade_lo, fade_span;
} dn_ctx;

/* 1 / (4 x the blended sample's variance) at level L in a row of the given type: the
 * native sample mixed with the mean of two samples of the other field, the bright one
 * faded out towards its clip as the blend does. A pair's term is its squared difference x
 * the sum of both samples' values: 1 on average for equal signal and pure noise. */
static float inv_four_var(const dn_ctx *d, float level, int bright)
{
    float photon = d->gain * (level > 0 ? level : 0);
    float vd = d->var_d + photon, vb = d->var_b + photon;
    float fade = dualiso_fade_of(level - d->fade_lo, d->fade_span);
    float wsum = bright ? fade / vb + 2 / vd : 1 / vd + 2 * fade / vb;
    return 0.25f * wsum;
}

/* Virtual row r (mirrored outside the frame) into its ring slot: signal in dark-field DN
 * above black and its inverse variance, both over the strip's padded width. */
static void load_row(dn_ctx *d, int32_t r)
{
    const int32_t h = (int32_t)d->h, w = (int32_t)d->w, x_begin = d->x_begin;
    int slot = r & (DN_RING - 1);
    float *s = d->s[slot] + DN_PAD, *iv = d->iv[slot] + DN_PAD;
    int32_t m = r < 0 ? -r : (r >= h ? 2 * (h - 1) - r : r);
    if (m != r) { /* mirrored: that row is in the ring (maybe already overwritten in out) */
        int src = m & (DN_RING - 1);
        memcpy(d->s[slot], d->s[src], d->stride * sizeof(float));
        memcpy(d->iv[slot], d->iv[src], d->stride * sizeof(float));
        return;
    }
    const uint16_t *row = d->out->data + (size_t)r * d->w;
    const float *edge = d->edge + (size_t)r * DN_PAD - (x_begin - DN_PAD);
    /* from the strip's first column on, the frame as it is, up to its last column */
    const int32_t x_in = w - x_begin < d->sw + DN_PAD ? w - x_begin : d->sw + DN_PAD;
    for (int32_t x = 0; x < x_in; x++)
        s[x] = ((float)row[x_begin + x] - d->ob) * d->inv_scale;
    /* the margins: mirrored at the frame's borders; left of the strip the frame holds the
     * output already, so the copy made before it was written */
    for (int32_t x = -DN_PAD; x < d->sw + DN_PAD; x++) {
        if (x == 0)
            x = x_in;
        if (x >= d->sw + DN_PAD)
            break;
        int32_t c = x_begin + x;
        c = c < 0 ? -c : (c >= w ? 2 * (w - 1) - c : c);
        float v = c < x_begin && x_begin > 0 ? edge[c] : (float)row[c];
        s[x] = (v - d->ob) * d->inv_scale;
    }
    /* the level: mean of the same-colour samples 2 and 4 px away along the row, without
     * the sample itself: a level that followed the sample's own noise would weight its
     * positive errors more (lower inverse variance, smaller patch distances): a bias */
    const float *tab = d->ivtab[dualiso_row_is_bright((uint32_t)r, d->lv->phase)];
    const int32_t lo = -DN_PAD + 2 * DN_LEVEL_R, hi = d->sw + DN_PAD - 2 * DN_LEVEL_R;
    float *level = d->tmp;
    for (int32_t x = lo; x < hi; x++) {
        float i = (s[x - 4] + s[x - 2] + s[x + 2] + s[x + 4]) * d->tab_step;
        i = i < 0 ? 0 : i;
        i = i > DN_TAB - 1 ? DN_TAB - 1 : i;
        level[x] = i;
    }
    for (int32_t x = lo; x < hi; x++)
        iv[x] = s[x] >= d->owhite_s ? DN_CLIPPED : tab[(int32_t)level[x]];
}

#define DN_ROW(a, n, r) ((a)[(r) & ((n) - 1)] + DN_PAD)

/* The weights of the pairs whose patches are centred on row r (r + 1's signal rows in the
 * ring, the patch row sums of r - 1 and r made), for the columns whose pixel or neighbour
 * is in the strip. */
static void pairs_row(dn_ctx *d, int32_t r)
{
    const float slope = 1.0f / (DN_PATCH_W * DN_PATCH_H * DN_SPAN);
    dualiso_dn_row k = {.s0 = DN_ROW(d->s, DN_RING, r + 1), .iv0 = DN_ROW(d->iv, DN_RING, r + 1),
                        .t = d->tmp, .x0 = -DN_XW,
                        .x1 = -DN_XW + ((d->sw + DN_XR + DN_XW + 7) & ~7),
                        .c0 = 1 + DN_PATCH_W * DN_PATCH_H * DN_ACCEPT * slope, .slope = slope};
    for (int o = 0; o < DN_NOFF; o++) {
        const int32_t ox = dn_off[o][0], oy = dn_off[o][1];
        k.s1 = DN_ROW(d->s, DN_RING, r + 1 + oy) + ox;
        k.iv1 = DN_ROW(d->iv, DN_RING, r + 1 + oy) + ox;
        k.h0 = DN_ROW(d->hsum[o], DN_H_RING, r - 1);
        k.h1 = DN_ROW(d->hsum[o], DN_H_RING, r);
        k.h2 = DN_ROW(d->hsum[o], DN_H_RING, r + 1);
        k.q = DN_ROW(d->q[o], DN_Q_RING, r);
        d->dsp->dn_weights(&k);
    }
}

/* Output row y, whose pairs are all made (rows y - DN_XR .. y): each pixel with weight 1,
 * then per offset its pair with p + o (weighed on row y) and with p - o (on row y - oy).
 * The columns the next strip reads as its left margin are kept first. */
static void output_row(const dn_ctx *d, int32_t y)
{
    float *restrict num = d->num, *restrict den = d->den;
    const float *sy = DN_ROW(d->s, DN_RING, y);
    memcpy(num, sy, (size_t)d->sw * sizeof(float));
    for (int32_t x = 0; x < d->sw; x++)
        den[x] = 1;
    dualiso_dn_gather g = {.num = num, .den = den, .x0 = 0, .x1 = d->sw};
    for (int o = 0; o < DN_NOFF; o += DUALISO_DN_GROUP) {
        for (int i = 0; i < DUALISO_DN_GROUP; i++) {
            const int32_t ox = dn_off[o + i][0], oy = dn_off[o + i][1];
            g.qp[i] = DN_ROW(d->q[o + i], DN_Q_RING, y);
            g.sp[i] = DN_ROW(d->s, DN_RING, y + oy) + ox;
            g.qm[i] = DN_ROW(d->q[o + i], DN_Q_RING, y - oy) - ox;
            g.sm[i] = DN_ROW(d->s, DN_RING, y - oy) - ox;
        }
        d->dsp->dn_gather(&g);
    }
    uint16_t *restrict dst = d->out->data + (size_t)y * d->w + d->x_begin;
    if (d->x_begin + d->sw < (int32_t)d->w)
        for (int32_t x = 0; x < DN_PAD; x++)
            d->edge[(size_t)y * DN_PAD + (size_t)x] = (float)dst[d->sw - DN_PAD + x];
    const float scale = 1 / d->inv_scale, ob = d->ob, top = d->owhite_s * scale + d->ob;
    for (int32_t x = 0; x < d->sw; x++) {
        float v = ob + scale * (num[x] / den[x]);
        v = v < 0 ? 0 : v;
        v = v > top ? top : v;
        dst[x] = (uint16_t)(v + 0.5f);
    }
}

/* The strip of columns [x_begin, x_begin + sw) of every row. */
static void denoise_strip(dn_ctx *d, float *mem, size_t mem_floats)
{
    /* the first rows' patch sums use rows above the frame not yet made: zeros, whose
     * weights are never added */
    memset(mem, 0, mem_floats * sizeof(float));
    /* Pairs centred on rows -DN_XR .. h - 1 reach every pair with a pixel in the frame;
     * their patches need signal rows -DN_XR - 1 .. h + DN_XR, mirrored outside (rows 0 ..
     * DN_XR + 1 first, so that the rows above can be copied from them). Two rows before
     * those for the patch sums they leave (their own weights are never used). */
    const int32_t h = (int32_t)d->h, first = -DN_XR - 2;
    int32_t next = 0;
    for (; next <= DN_XR + 1; next++)
        load_row(d, next);
    for (int32_t r = -1; r >= first + 1; r--)
        load_row(d, r);
    for (int32_t r = first; r < h; r++) {
        for (; next <= r + 1 + DN_XR; next++)
            load_row(d, next);
        pairs_row(d, r);
        if (r >= 0)
            output_row(d, r);
    }
}

mp_status mp_dualiso_denoise(const dualiso_levels *lv, float strength, mp_frame *out,
                             float **mem, size_t *mem_size, mp_error *err)
{
    if (!(strength > 0 && strength <= DUALISO_DENOISE_MAX))
        return mp_error_set(err, MP_ERR_ARG, "dualiso: denoise strength %g is not within "
                            "(0, %g]", (double)strength, (double)DUALISO_DENOISE_MAX);
    /* too small for the mirrored rows and columns; nothing to average */
    if (out->width <= DN_PAD || out->height <= DN_XR + 1)
        return MP_OK;
    dn_ctx d = {.lv = lv, .dsp = mp_dualiso_dsp_for(mp_cpu_level_get()), .out = out,
                .w = out->width, .h = out->height, .stride = DN_STRIP + 2 * DN_PAD};
    const size_t rows = 2 * DN_RING + DN_NOFF * (DN_H_RING + DN_Q_RING) + 3;
    const size_t ring_floats = (size_t)d.stride * rows;
    const size_t need = ring_floats + (size_t)d.h * DN_PAD + DN_ALIGN;
    if (*mem_size < need) {
        float *p = realloc(*mem, need * sizeof(float));
        if (!p)
            return mp_error_set(err, MP_ERR_NOMEM, "dualiso: cannot allocate denoise rows");
        *mem = p;
        *mem_size = need;
    }
    float *const base = *mem + (DN_ALIGN - ((uintptr_t)*mem / sizeof(float)) % DN_ALIGN) % DN_ALIGN;
    float *p = base;
    for (int i = 0; i < DN_RING; i++, p += 2 * d.stride) {
        d.s[i] = p;
        d.iv[i] = p + d.stride;
    }
    for (int o = 0; o < DN_NOFF; o++) {
        for (int i = 0; i < DN_H_RING; i++, p += d.stride)
            d.hsum[o][i] = p;
        for (int i = 0; i < DN_Q_RING; i++, p += d.stride)
            d.q[o][i] = p;
    }
    d.tmp = p + DN_PAD;
    d.num = p + d.stride + DN_PAD;
    d.den = p + 2 * d.stride + DN_PAD;
    d.edge = base + ring_floats;
    d.ob = (float)lv->out_black;
    d.inv_scale = (float)(1 / lv->out_scale);
    d.owhite_s = (float)((lv->out_white - lv->out_black) / lv->out_scale);
    d.var_d = (float)(lv->noise_dark * lv->noise_dark);
    float nb = (float)(lv->noise_bright / lv->ratio);
    d.var_b = nb * nb;
    d.gain = (float)lv->gain_dark;
    float clip_b = (float)((lv->white_bright - lv->black_bright) / lv->ratio);
    d.fade_lo = DUALISO_FADE_LO * clip_b;
    d.fade_span = (DUALISO_FADE_HI - DUALISO_FADE_LO) * clip_b;

    /* the table's level is the sum of the 2 DN_LEVEL_R samples, in steps of tab_step */
    const float range = d.owhite_s > 1 ? d.owhite_s : 1;
    d.tab_step = (float)(DN_TAB - 1) / (range * (2 * DN_LEVEL_R));
    for (int i = 0; i < DN_TAB; i++)
        for (int b = 0; b < 2; b++)
            d.ivtab[b][i] = inv_four_var(&d, (float)i * range / (DN_TAB - 1), b) / strength;

    for (d.x_begin = 0; d.x_begin < (int32_t)d.w; d.x_begin += DN_STRIP) {
        d.sw = (int32_t)d.w - d.x_begin < DN_STRIP ? (int32_t)d.w - d.x_begin : DN_STRIP;
        denoise_strip(&d, base, ring_floats);
    }
    return MP_OK;
}
