/* Reconstruction of one dual-ISO frame with clip levels: the blend.
 *
 * Every pixel has its native sample (its own field) and an estimate of the other field
 * (interp.c), both in dark-field DN above black. They are mixed by inverse variance: read +
 * photon noise per field from the levels, plus the estimate's error, seen as the
 * disagreement of its two samples and, over a few pixels, of estimate and native value.
 * So the clean bright field carries the shadows, the native rows keep full vertical
 * resolution wherever they are good enough, the dark rows alone carry what the bright
 * field clipped, and the bright field fades out smoothly before its clip. Where an edge
 * runs between the estimate's two samples and the native value can tell the sides apart,
 * the estimate takes the sample on the native value's side.
 *
 * Rows are processed top to bottom through a ring of converted rows (rows.c), so the
 * scratch memory is a few rows wide whatever the frame size. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "recon_priv.h"

#define ALIAS_WIN 8           /* disagreement window: 17 same-colour samples (fewer noise
                                 false alarms; measured better on edges and zone plate) */
#define ALIAS_SIGMAS 3.0f     /* disagreement counts beyond this many of its own sigmas */
#define SEARCH_LO 0.95        /* edge search where the bright sample is this near its clip */
#define SHADOW_LO 2.0f        /* shadow smoothing fades out between these multiples of */
#define SHADOW_HI 6.0f        /* the bright field's read noise (dark-field units) */
#define LEVEL_WIN 3           /* level averaging window: 7 same-colour samples */
#define CLIP_FLOOR 0.98f      /* a clipped bright sample bounds the estimate from below */
#define CROSS_COLOUR_GAP_EV 2.5 /* dark rows take the cross-colour estimate up to this gap */

void mp_dualiso_options_default(dualiso_options *o)
{
    o->row_align = 1;
    o->bad_pixels = 0;
    o->shadow_smooth = 0;
    o->chroma_smooth = 0;
    o->denoise = 0;
}

/* One step of a colour's running sum at its sample i (s: that colour's samples, stride 2,
 * len of them): sample i + r comes in, sample i - r - 1 goes out; returns the mean. */
static inline float box_step(const float *s, uint32_t len, uint32_t r, uint32_t i, float *acc,
                             uint32_t *n, float full)
{
    if (i + r < len) {
        *acc += s[2 * (i + r)];
        (*n)++;
    }
    if (i > r) {
        *acc -= s[2 * (i - r - 1)];
        (*n)--;
    }
    return *n == 2 * r + 1 ? *acc * full : *acc / (float)*n;
}

/* out[x] = mean of the same-colour samples in[x - 2r], in[x - 2r + 2] .. in[x + 2r] (clipped
 * at the row ends); out must not be in. */
typedef struct box_job {
    const float *in;
    float *out;
    uint32_t r;
    float acc[2], full;   /* per colour: the running sum */
    uint32_t n[2];        /* ... and how many samples it holds */
} box_job;

static void box_steps(box_job *b, int count, const uint32_t len[2], uint32_t i)
{
    for (int j = 0; j < count; j++)
        for (uint32_t p = 0; p < 2; p++)
            if (i < len[p])
                b[j].out[p + 2 * i] = box_step(b[j].in + p, len[p], b[j].r, i, &b[j].acc[p],
                                               &b[j].n[p], b[j].full);
}

/* The box means of one or two rows at once. Each colour of each row is one running sum, a
 * chain of dependent additions; the chains are stepped together so their latencies overlap
 * (four chains for two rows), and between the row ends, where every window is full, without
 * a branch: the same operations in the same order as box_step, so the same bits. */
static void box_means(box_job *b, int count, uint32_t w)
{
    const uint32_t len[2] = {(w + 1) / 2, w / 2}; /* samples of each colour: in[p + 2i] */
    uint32_t rmax = 0;
    for (int j = 0; j < count; j++) {
        b[j].full = 1.0f / (float)(2 * b[j].r + 1);
        rmax = b[j].r > rmax ? b[j].r : rmax;
        for (int p = 0; p < 2; p++) {
            b[j].acc[p] = 0;
            b[j].n[p] = 0;
            for (uint32_t i = 0; i < len[p] && i < b[j].r; i++, b[j].n[p]++)
                b[j].acc[p] += b[j].in[p + 2 * i];
        }
    }
    /* full windows of every chain: i in [rmax + 1, len[1] - rmax) (len[1] <= len[0]) */
    const uint32_t mid_lo = rmax + 1 < len[0] ? rmax + 1 : len[0];
    const uint32_t mid_hi = len[1] > rmax && len[1] - rmax > mid_lo ? len[1] - rmax : mid_lo;
    uint32_t i = 0;
    for (; i < mid_lo; i++)
        box_steps(b, count, len, i);
    const float *ia = b[0].in, *ib = b[count - 1].in;
    float *oa = b[0].out, *ob = b[count - 1].out;
    const uint32_t ra = b[0].r, rb = b[count - 1].r;
    const float fa = b[0].full, fb = b[count - 1].full;
    float a0 = b[0].acc[0], a1 = b[0].acc[1], b0 = b[count - 1].acc[0], b1 = b[count - 1].acc[1];
    if (count == 2) {
        for (; i < mid_hi; i++) {
            a0 += ia[2 * (i + ra)];
            a1 += ia[1 + 2 * (i + ra)];
            b0 += ib[2 * (i + rb)];
            b1 += ib[1 + 2 * (i + rb)];
            a0 -= ia[2 * (i - ra - 1)];
            a1 -= ia[1 + 2 * (i - ra - 1)];
            b0 -= ib[2 * (i - rb - 1)];
            b1 -= ib[1 + 2 * (i - rb - 1)];
            oa[2 * i] = a0 * fa;
            oa[1 + 2 * i] = a1 * fa;
            ob[2 * i] = b0 * fb;
            ob[1 + 2 * i] = b1 * fb;
        }
        b[1].acc[0] = b0;
        b[1].acc[1] = b1;
    } else {
        for (; i < mid_hi; i++) {
            a0 += ia[2 * (i + ra)];
            a1 += ia[1 + 2 * (i + ra)];
            a0 -= ia[2 * (i - ra - 1)];
            a1 -= ia[1 + 2 * (i - ra - 1)];
            oa[2 * i] = a0 * fa;
            oa[1 + 2 * i] = a1 * fa;
        }
    }
    b[0].acc[0] = a0;
    b[0].acc[1] = a1;
    for (; i < len[0]; i++)
        box_steps(b, count, len, i);
}

/* out[x] = a[x] unless a_clip[x], else b[x]: a select of the floats' bits by a mask, the
 * form GCC 12 vectorises (a ?: of floats under a flag byte it leaves scalar). */
static void pick_unclipped(const float *restrict a, const uint8_t *restrict a_clip,
                           const float *restrict b, float *restrict out, uint32_t w)
{
    for (uint32_t x = 0; x < w; x++) {
        uint32_t ua, ub, m = 0u - (uint32_t)(a_clip[x] != 0);
        memcpy(&ua, a + x, sizeof ua);
        memcpy(&ub, b + x, sizeof ub);
        uint32_t r = (ua & ~m) | (ub & m);
        memcpy(out + x, &r, sizeof r);
    }
}

/* A row in the blend: its kernel arguments and the rows its box means read and fill. */
typedef struct blend_rows {
    dualiso_blend_row r;
    float *lev, *ex_mean;
} blend_rows;

/* Sets up the blend of row y (its estimate just interpolated) and picks the level source;
 * the level's box mean (into r.lev_mean) is left to the caller. */
static void blend_begin(frame_ctx *c, int32_t y, uint16_t *dst, blend_rows *b)
{
    dualiso_workspace *ws = c->ws;
    const dualiso_levels *lv = c->lv;
    const uint32_t w = c->in->width;
    int bright = dualiso_row_is_bright((uint32_t)y, lv->phase);
    int slot = mp_dualiso_load_row(c, y);
    const float *nat = ws->lin[slot];
    const uint8_t *nclip = ws->clip[slot];

    const float var_d = (float)(lv->noise_dark * lv->noise_dark);
    const float nb = (float)(lv->noise_bright / lv->ratio);
    const float var_b = nb * nb;
    const float gain = (float)lv->gain_dark;
    const float clip_b = (float)((lv->white_bright - lv->black_bright) / lv->ratio);
    const float fade_lo = DUALISO_FADE_LO * clip_b;
    const float fade_span = (DUALISO_FADE_HI - DUALISO_FADE_LO) * clip_b;
    const float ob = (float)lv->out_black, oscale = (float)lv->out_scale;
    const float owhite = (float)lv->out_white;

    b->lev = ws->scratch[0];
    b->ex_mean = ws->scratch[5];
    b->r = (dualiso_blend_row){
        .w = w, .bright = bright, .shadow = c->denoise ? 2 : c->opt->shadow_smooth ? 1 : 0,
        .nat = nat, .mis = ws->mis, .lev_mean = ws->scratch[1],
        .est = ws->est, .vn = ws->scratch[2], .vo = ws->scratch[3], .ex = ws->scratch[4],
        .nclip = nclip, .est_clip = ws->est_clip, .est_mid = ws->est_mid, .dst = dst,
        .var_d = var_d, .var_b = var_b, .gain = gain, .clip_floor = CLIP_FLOOR * clip_b,
        .fade_lo = fade_lo, .fade_span = fade_span,
        .shadow_lo = SHADOW_LO * nb, .shadow_span = (SHADOW_HI - SHADOW_LO) * nb,
        .alias_k = ALIAS_SIGMAS * sqrtf(2.0f / (2 * ALIAS_WIN + 1)),
        .ob = ob, .oscale = oscale, .owhite = owhite};
    /* The level that sets photon noise and the fade: the cleanest value at hand, averaged
     * along the row so the weights hardly depend on the noise of the values they mix
     * (a weight that follows a value's own noise biases the mix). */
    if (bright)
        pick_unclipped(nat, nclip, ws->est, b->lev, w);
    else
        pick_unclipped(ws->est, ws->est_clip, nat, b->lev, w);
}

/* Interpolation and blend of every row. Row y + 1 is interpolated (into the other set of
 * row buffers) before row y is mixed, so that row y's disagreement mean and row y + 1's
 * level mean are computed together (box_means). Each row's values are those of a plain
 * row-by-row pass: the same bytes. */
static void blend_rows_all(frame_ctx *c, mp_frame *out)
{
    const int32_t h = (int32_t)c->in->height;
    const uint32_t w = c->in->width;
    blend_rows cur, next;
    mp_dualiso_interpolate_row(c, 0);
    blend_begin(c, 0, out->data, &cur);
    box_job first = {.in = cur.lev, .out = (float *)cur.r.lev_mean, .r = LEVEL_WIN};
    box_means(&first, 1, w);
    /* noise of both values, and how much native and estimate disagree beyond it */
    c->dsp->blend_noise(&cur.r, 0, w);
    for (int32_t y = 0; y < h; y++) {
        /* a local mean of the disagreement is the estimate's error variance (an even
         * function of the native noise, so the mix stays unbiased where the estimate is
         * right) */
        box_job jobs[2] = {{.in = cur.r.ex, .out = cur.ex_mean, .r = ALIAS_WIN}};
        int more = y + 1 < h;
        if (more) {
            mp_dualiso_swap_sets(c->ws);
            mp_dualiso_interpolate_row(c, y + 1);
            blend_begin(c, y + 1, out->data + (size_t)(y + 1) * w, &next);
            jobs[1] = (box_job){.in = next.lev, .out = (float *)next.r.lev_mean, .r = LEVEL_WIN};
        }
        box_means(jobs, more ? 2 : 1, w);
        cur.r.ex = cur.ex_mean;
        c->dsp->blend_mix(&cur.r, 0, w);
        if (!c->denoise)
            mp_dualiso_chroma_row(c, out, (uint32_t)y);
        if (more) {
            c->dsp->blend_noise(&next.r, 0, w);
            cur = next;
        }
    }
}

static mp_status check_match(const mp_frame *in, const dualiso_levels *lv, mp_error *err)
{
    mp_status st = mp_dualiso_check_frame(in, err);
    if (st != MP_OK)
        return st;
    /* compared as doubles: levels from a damaged sidecar may be negative or huge, and
     * converting those to unsigned is undefined (fuzz_levels_match, session 6) */
    if (in->bits != lv->bits || in->black != lv->in_black || in->white != lv->in_white)
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

mp_status mp_dualiso_passthrough(const mp_frame *in, const dualiso_levels *lv, mp_frame *out,
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

mp_status mp_dualiso_reconstruct(const mp_frame *in, const dualiso_levels *lv,
                              const dualiso_options *opt, dualiso_workspace *ws, mp_frame *out,
                              mp_error *err)
{
    if (!lv || !ws || !out)
        return mp_error_set(err, MP_ERR_ARG, "dualiso: reconstruct needs levels, workspace "
                                             "and an output frame");
    if (!lv->is_dual)
        return mp_dualiso_passthrough(in, lv, out, err);
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
        mp_dualiso_options_default(&defaults);
        opt = &defaults;
    }
    if (opt->chroma_smooth != 0 && opt->chroma_smooth != 2 && opt->chroma_smooth != 3 &&
        opt->chroma_smooth != 5)
        return mp_error_set(err, MP_ERR_ARG, "dualiso: chroma_smooth is %d, not 0, 2, 3 or 5",
                            opt->chroma_smooth);
    if (!(opt->denoise >= 0 && opt->denoise <= DUALISO_DENOISE_MAX))
        return mp_error_set(err, MP_ERR_ARG, "dualiso: denoise strength %g is not within 0..%g",
                            (double)opt->denoise, (double)DUALISO_DENOISE_MAX);
    st = mp_dualiso_ws_prepare(ws, lv, in, err);
    if (st == MP_OK)
        st = begin_output(in, lv, out, err);
    if (st != MP_OK)
        return st;

    const double clip_b = (lv->white_bright - lv->black_bright) / lv->ratio;
    frame_ctx c = {.in = in, .lv = lv, .opt = opt, .ws = ws,
                   .dsp = mp_dualiso_dsp_for(mp_cpu_level_get()),
                   .search_level = (float)(SEARCH_LO * clip_b),
                   .clip_floor = (float)(CLIP_FLOOR * clip_b),
                   .var_dark = (float)(lv->noise_dark * lv->noise_dark),
                   .gain = (float)lv->gain_dark,
                   .denoise = opt->denoise > 0,
                   .cross_colour = log2(lv->ratio) <= CROSS_COLOUR_GAP_EV};
    double top = (1u << lv->bits) - 1;
    c.clip_raw[0] = (uint16_t)fmin(ceil(lv->white_dark), top);
    c.clip_raw[1] = (uint16_t)fmin(ceil(lv->white_bright), top);
    if (opt->row_align)
        mp_dualiso_row_offsets(in, lv, ws->lut[0], ws->lut[1], c.clip_raw[0], c.clip_raw[1],
                            (float)(DUALISO_FADE_LO * (lv->white_bright - lv->black_bright) / lv->ratio),
                            ws->scratch[0], ws->keys, ws->row_off);
    blend_rows_all(&c, out);
    if (c.denoise) {
        st = mp_dualiso_denoise(lv, opt->denoise, out, &ws->dn_mem, &ws->dn_size, err);
        for (uint32_t y = 0; st == MP_OK && y < in->height; y++)
            mp_dualiso_chroma_row(&c, out, y);
    }
    return st;
}
