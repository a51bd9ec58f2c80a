/* Cross-field noise reduction for small ISO gaps, on the blended frame.
 *
 * At a gap of a few EV both fields carry comparable information (at 100/400 the bright
 * field's read noise is 17 e-, the dark field's 33 e-), so the blend alone leaves most of
 * their noise: the best a per-pixel mix can do is the RMS "floor" of the quality
 * benchmark. Going below it means averaging neighbours, and averaging must not pull
 * detail down (a zone plate's peaks, an edge). This is a non-local mean over the 8
 * same-colour neighbours two pixels away: each neighbour is weighted by how alike the 3x3
 * patches around it and around the pixel are, measured in units of the expected noise.
 * A patch spans both fields (rows y-1..y+1) and all three colours, so the other field and
 * the other colours vote on whether a difference is structure or noise; a patch pair that
 * differs no more than noise does is averaged, one that differs beyond it is left alone.
 *
 * The noise of each blended sample comes from the clip levels (read noise of both fields,
 * photon noise from a local level, the mix the blend made for its row type), never from
 * the frame's own statistics, so the result is a pure function of the frame and the levels.
 * Rows stream through small rings (the blend has written the frame; rows are read before
 * they are overwritten), and frame borders are mirrored by even amounts so every
 * neighbour keeps its colour. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "recon_priv.h"

#define DN_MAX_GAP_EV 2.5   /* only gaps up to this many EV (100/200, 100/400) */
#define DN_PAD 12           /* mirrored columns each side of a ring row */
#define DN_RING 8           /* rows kept: y-3 .. y+3 (power of two) */
#define DN_NOFF 4           /* patch offsets (2,0) (0,2) (2,2) (-2,2); their negatives too */
#define DN_LEVEL_R 2        /* the noise level: same-colour samples up to 2 x 2 px away */
#define DN_ACCEPT 1.0f      /* a patch pair whose mean normalised squared difference is */
#define DN_SPAN 4.0f        /* below DN_ACCEPT is averaged fully, above DN_ACCEPT + DN_SPAN
                               not at all, (1 - t)^2 between; pure noise gives 1 on average.
                               Measured at 100/400 (doc/benchmarks.md §1): a wider span
                               takes edges below 0.1 EV and costs zone-plate peaks */
#define DN_TAB 4096         /* noise table entries from black to white */
#define DN_CLIPPED 1e12f    /* inverse variance of a clipped sample: no patch matches it */
#define DN_TERM_CAP 64.0f   /* a patch term this large already rules the pair out; the cap
                               keeps the sums small enough for add_neighbour's exact clamp */

static const int dn_off[DN_NOFF][2] = {{2, 0}, {0, 2}, {2, 2}, {-2, 2}};


int mp_dualiso_denoise_wanted(const dualiso_levels *lv)
{
    return lv->is_dual && lv->ratio > 1 && log2(lv->ratio) <= DN_MAX_GAP_EV;
}

typedef struct dn_ctx {
    const dualiso_levels *lv;
    mp_frame *out;
    uint32_t w, h, stride;  /* stride: w + 2 DN_PAD */
    float *s[DN_RING], *iv[DN_RING], *e[DN_NOFF][DN_RING], *dsum[DN_NOFF][DN_RING];
    float *tmp;                       /* one row of scratch (DN_PAD on each side) */
    float ivtab[2][DN_TAB];           /* per row type (bright = 1): 1 / (2 variance) */
    float tab_step;                   /* table entries per unit of the summed level */
    int32_t s_key[DN_RING];
    float ob, inv_scale, owhite_s;
    float var_d, var_b, gain, fade_lo, fade_span;
} dn_ctx;

/* 1 / (2 x the blended sample's variance) at level L in a row of the given type: the
 * native sample mixed with the mean of two samples of the other field, the bright one
 * faded out towards its clip as the blend does. */
static float inv_twice_var(const dn_ctx *d, float level, int bright)
{
    float photon = d->gain * (level > 0 ? level : 0);
    float vd = d->var_d + photon, vb = d->var_b + photon;
    float fade = dualiso_fade_of(level - d->fade_lo, d->fade_span);
    float wsum = bright ? fade / vb + 2 / vd : 1 / vd + 2 * fade / vb;
    return 0.5f * wsum;
}

/* Virtual row r (mirrored outside the frame) into its ring slot: signal in dark-field DN
 * above black and its inverse variance, both over the padded width. */
static void load_row(dn_ctx *d, int32_t r)
{
    const int32_t h = (int32_t)d->h, w = (int32_t)d->w;
    int slot = r & (DN_RING - 1);
    float *s = d->s[slot] + DN_PAD, *iv = d->iv[slot] + DN_PAD;
    d->s_key[slot] = r;
    int32_t m = r < 0 ? -r : (r >= h ? 2 * (h - 1) - r : r);
    if (m != r) { /* mirrored: that row is in the ring (maybe already overwritten in out) */
        int src = m & (DN_RING - 1);
        memcpy(d->s[slot], d->s[src], d->stride * sizeof(float));
        memcpy(d->iv[slot], d->iv[src], d->stride * sizeof(float));
        return;
    }
    const uint16_t *row = d->out->data + (size_t)r * d->w;
    for (int32_t x = 0; x < w; x++)
        s[x] = ((float)row[x] - d->ob) * d->inv_scale;
    for (int32_t x = 1; x <= DN_PAD; x++) {
        s[-x] = s[x];
        s[w - 1 + x] = s[w - 1 - x];
    }
    /* the level: mean of the same-colour samples 2 and 4 px away along the row, without
     * the sample itself: a level that followed the sample's own noise would weight its
     * positive errors more (lower inverse variance, smaller patch distances): a bias */
    const float *tab = d->ivtab[dualiso_row_is_bright((uint32_t)r, d->lv->phase)];
    const int32_t lo = -DN_PAD + 2 * DN_LEVEL_R, hi = w + DN_PAD - 2 * DN_LEVEL_R;
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

/* Patch terms of row r for every offset: e[x] = the 3-sum along the row of
 * (s(x) - s(x + o))^2 x the mean of both inverse variances (each term is 1 on average for
 * equal signal and pure noise), over x in [-2, w + 2). */
static void patch_row(dn_ctx *d, int32_t r)
{
    const int32_t w = (int32_t)d->w;
    const float *s0 = d->s[r & (DN_RING - 1)] + DN_PAD, *i0 = d->iv[r & (DN_RING - 1)] + DN_PAD;
    for (int k = 0; k < DN_NOFF; k++) {
        const int32_t ox = dn_off[k][0], oy = dn_off[k][1];
        const float *s1 = d->s[(r + oy) & (DN_RING - 1)] + DN_PAD + ox;
        const float *i1 = d->iv[(r + oy) & (DN_RING - 1)] + DN_PAD + ox;
        float *tmp = d->tmp;
        for (int32_t x = -3; x < w + 3; x++) {
            float diff = s0[x] - s1[x];
            float term = diff * diff * (0.5f * (i0[x] + i1[x]));
            tmp[x] = term < DN_TERM_CAP ? term : DN_TERM_CAP;
        }
        float *e = d->e[k][r & (DN_RING - 1)] + DN_PAD;
        for (int32_t x = -2; x < w + 2; x++)
            e[x] = tmp[x - 1] + tmp[x] + tmp[x + 1];
    }
}

/* dsum = the 3x3 sums of row r: e of rows r - 1 .. r + 1, over x in [-2, w + 2). */
static void patch_sum(dn_ctx *d, int32_t r)
{
    for (int k = 0; k < DN_NOFF; k++) {
        const float *restrict a = d->e[k][(r - 1) & (DN_RING - 1)];
        const float *restrict b = d->e[k][r & (DN_RING - 1)];
        const float *restrict c = d->e[k][(r + 1) & (DN_RING - 1)];
        float *restrict o = d->dsum[k][r & (DN_RING - 1)];
        for (uint32_t x = DN_PAD - 2; x < d->w + DN_PAD + 2; x++)
            o[x] = a[x] + b[x] + c[x];
    }
}

/* Adds a neighbour whose patch pair sums to dist: weight u^2, u = 1 - t clamped to [0, 1],
 * t = (dist - accept9) * inv_span9. The clamp is (|u| - |u - 1| + 1) / 2, without a
 * branch, so the row loop vectorises. */
static inline void add_neighbour(float dist, float s, float accept9, float inv_span9,
                                 float *num, float *den)
{
    float u = 1 - (dist - accept9) * inv_span9;
    u = 0.5f * (fabsf(u) - fabsf(u - 1) + 1);
    float q = u * u;
    *num += q * s;
    *den += q;
}

/* Output row y from the ring: each sample and its 8 same-colour neighbours, weighted. */
static void denoise_row(const dn_ctx *d, int32_t y)
{
    const int32_t w = (int32_t)d->w;
    const float accept9 = 9 * DN_ACCEPT, inv_span9 = 1 / (9 * DN_SPAN);
#define ROW(a, r) (d->a[(r) & (DN_RING - 1)] + DN_PAD)
    /* +o: the patch pair starting at (x, y); -o: the one starting at (x - o, y - o) */
    const float *restrict d0 = ROW(dsum[0], y), *restrict d1 = ROW(dsum[0], y) - 2;
    const float *restrict d2 = ROW(dsum[1], y), *restrict d3 = ROW(dsum[1], y - 2);
    const float *restrict d4 = ROW(dsum[2], y), *restrict d5 = ROW(dsum[2], y - 2) - 2;
    const float *restrict d6 = ROW(dsum[3], y), *restrict d7 = ROW(dsum[3], y - 2) + 2;
    const float *restrict s0 = ROW(s, y) + 2, *restrict s1 = ROW(s, y) - 2;
    const float *restrict s2 = ROW(s, y + 2), *restrict s3 = ROW(s, y - 2);
    const float *restrict s4 = ROW(s, y + 2) + 2, *restrict s5 = ROW(s, y - 2) - 2;
    const float *restrict s6 = ROW(s, y + 2) - 2, *restrict s7 = ROW(s, y - 2) + 2;
    const float *restrict sc = ROW(s, y);
#undef ROW
    uint16_t *restrict dst = d->out->data + (size_t)y * d->w;
    const float scale = 1 / d->inv_scale, ob = d->ob, top = d->owhite_s * scale + d->ob;
    for (int32_t x = 0; x < w; x++) {
        float num = sc[x], den = 1;
        add_neighbour(d0[x], s0[x], accept9, inv_span9, &num, &den);
        add_neighbour(d1[x], s1[x], accept9, inv_span9, &num, &den);
        add_neighbour(d2[x], s2[x], accept9, inv_span9, &num, &den);
        add_neighbour(d3[x], s3[x], accept9, inv_span9, &num, &den);
        add_neighbour(d4[x], s4[x], accept9, inv_span9, &num, &den);
        add_neighbour(d5[x], s5[x], accept9, inv_span9, &num, &den);
        add_neighbour(d6[x], s6[x], accept9, inv_span9, &num, &den);
        add_neighbour(d7[x], s7[x], accept9, inv_span9, &num, &den);
        float v = ob + scale * (num / den);
        v = v < 0 ? 0 : v;
        v = v > top ? top : v;
        dst[x] = (uint16_t)(v + 0.5f);
    }
}

mp_status mp_dualiso_denoise(const dualiso_levels *lv, mp_frame *out, float **mem,
                             size_t *mem_size, mp_error *err)
{
    if (out->width < 8 || out->height < 8)
        return MP_OK; /* too small for the patches; nothing to average */
    dn_ctx d = {.lv = lv, .out = out, .w = out->width, .h = out->height,
                .stride = out->width + 2 * DN_PAD};
    size_t need = (size_t)d.stride * (DN_RING * (2 + 2 * DN_NOFF) + 1);
    if (*mem_size < need) {
        float *p = realloc(*mem, need * sizeof(float));
        if (!p)
            return mp_error_set(err, MP_ERR_NOMEM, "dualiso: cannot allocate denoise rows");
        *mem = p;
        *mem_size = need;
    }
    float *p = *mem;
    for (int i = 0; i < DN_RING; i++) {
        d.s[i] = p;
        d.iv[i] = p + d.stride;
        p += 2 * d.stride;
        for (int k = 0; k < DN_NOFF; k++, p += 2 * d.stride) {
            d.e[k][i] = p;
            d.dsum[k][i] = p + d.stride;
        }
        d.s_key[i] = INT32_MIN;
    }
    d.tmp = p + DN_PAD;
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
            d.ivtab[b][i] = inv_twice_var(&d, (float)i * range / (DN_TAB - 1), b);
    const int32_t h = (int32_t)d.h;
    for (int32_t r = 0; r <= 3; r++)
        load_row(&d, r);
    for (int32_t r = -1; r >= -3; r--)
        load_row(&d, r);
    int32_t s_next = 4, e_next = -3;
    for (int32_t y = 0; y < h; y++) {
        for (; s_next <= y + 3; s_next++)
            load_row(&d, s_next);
        for (; e_next <= y + 1; e_next++) {
            patch_row(&d, e_next);
            if (e_next >= -2)
                patch_sum(&d, e_next - 1);
        }
        denoise_row(&d, y);
    }
    return MP_OK;
}
