/* Workspace and row loading for the reconstruction: lookup tables from raw samples to
 * dark-field DN above black (and a log guide), and a small ring of converted rows, so the
 * memory is a few rows wide whatever the frame size. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "recon_priv.h"

dualiso_workspace *mp_dualiso_workspace_new(void)
{
    return calloc(1, sizeof(dualiso_workspace));
}

/* The blend's row buffers interpolation and the blend use now (in ws's own fields, where
 * interp.c reads them). */
static blend_set current_set(const dualiso_workspace *ws)
{
    blend_set s = {ws->est, ws->mis, ws->est_clip, ws->est_mid, {0}};
    memcpy(s.scratch, ws->scratch, sizeof s.scratch);
    return s;
}

static void use_set(dualiso_workspace *ws, const blend_set *s)
{
    ws->est = s->est;
    ws->mis = s->mis;
    ws->est_clip = s->est_clip;
    ws->est_mid = s->est_mid;
    memcpy(ws->scratch, s->scratch, sizeof ws->scratch);
}

void mp_dualiso_swap_sets(dualiso_workspace *ws)
{
    blend_set cur = current_set(ws);
    use_set(ws, &ws->other);
    ws->other = cur;
}

static void set_free(blend_set *s)
{
    free(s->est);
    free(s->mis);
    free(s->est_clip);
    free(s->est_mid);
    for (int i = 0; i < NSCRATCH; i++)
        free(s->scratch[i]);
    memset(s, 0, sizeof *s);
}

static int set_alloc(blend_set *s, uint32_t width)
{
    s->est = malloc(width * sizeof(float));
    s->mis = malloc(width * sizeof(float));
    s->est_clip = malloc(width);
    s->est_mid = malloc(width);
    int ok = s->est && s->mis && s->est_clip && s->est_mid;
    for (int i = 0; i < NSCRATCH; i++) {
        s->scratch[i] = malloc(width * sizeof(float));
        ok &= s->scratch[i] != NULL;
    }
    return ok;
}

static void free_rows(dualiso_workspace *ws)
{
    for (int i = 0; i < RING; i++) {
        free(ws->lin[i]);
        free(ws->guide[i]);
        free(ws->clip[i]);
        free(ws->pratio[i]);
        ws->lin[i] = ws->guide[i] = ws->pratio[i] = NULL;
        ws->clip[i] = NULL;
    }
    for (int d = 0; d < NDIR; d++) {
        free(ws->cost[d]);
        ws->cost[d] = NULL;
    }
    for (int j = 0; j < DIR_GROUP; j++) {
        free(ws->dir_raw[j]);
        ws->dir_raw[j] = NULL;
    }
    for (int i = 0; i < 4; i++) {
        free(ws->quarter[i]);
        ws->quarter[i] = NULL;
        free(ws->ccsum[i]);
        ws->ccsum[i] = NULL;
    }
    for (int i = 0; i < CS_RING; i++) {
        free(ws->cs_cells[i]);
        free(ws->cs_ok[i]);
        ws->cs_cells[i] = NULL;
        ws->cs_ok[i] = NULL;
    }
    free(ws->keys);
    ws->keys = NULL;
    blend_set cur = current_set(ws);
    set_free(&cur);
    set_free(&ws->other);
    use_set(ws, &cur);
    ws->width = 0;
}

void mp_dualiso_workspace_free(dualiso_workspace *ws)
{
    if (!ws)
        return;
    free_rows(ws);
    free(ws->row_off);
    free(ws->dn_mem);
    for (int f = 0; f < 2; f++) {
        free(ws->lut[f]);
        free(ws->glut[f]);
    }
    free(ws);
}

/* Largest sample of the frame, at most top. */
static uint16_t frame_max(const mp_frame *in, uint16_t top)
{
    const uint16_t *restrict d = in->data;
    const size_t n = (size_t)in->width * in->height;
    uint16_t m = 0;
    for (size_t i = 0; i < n; i++)
        m = d[i] > m ? d[i] : m;
    return m < top ? m : top;
}

/* The tables for lv, made as far as the frame's samples reach. Every entry costs two
 * logarithms and a table has 2^bits of them (65536 at 16 bits), more than a small frame
 * has pixels; entries above the frame's largest sample wait until a frame with the same
 * levels reaches them. Each entry depends only on its sample and lv: the same bytes. */
static mp_status prepare_tables(dualiso_workspace *ws, const dualiso_levels *lv,
                                const mp_frame *in, mp_error *err)
{
    uint32_t size = 1u << lv->bits;
    if (ws->lut_size != size || memcmp(&ws->lut_for, lv, sizeof *lv) != 0) {
        ws->lut_size = ws->lut_filled = 0;
        for (int f = 0; f < 2 && ws->lut_cap < size; f++) {
            float *a = realloc(ws->lut[f], size * sizeof(float));
            if (a)
                ws->lut[f] = a;
            float *b = realloc(ws->glut[f], size * sizeof(float));
            if (b)
                ws->glut[f] = b;
            if (!a || !b)
                return mp_error_set(err, MP_ERR_NOMEM, "dualiso: cannot allocate tables");
        }
        ws->lut_cap = ws->lut_cap > size ? ws->lut_cap : size;
        ws->lut_size = size;
        ws->lut_for = *lv;
    }
    /* a complete table (a frame reached the top of the range) needs no look at the frame */
    const uint32_t need = ws->lut_filled == size ? size
                                                 : frame_max(in, (uint16_t)(size - 1)) + 1u;
    /* guide floor about two read-noise sigmas, so shadow noise does not steer it */
    const double floor_d = 2 * lv->noise_dark, floor_b = 2 * lv->noise_bright / lv->ratio;
    for (uint32_t v = ws->lut_filled; v < need; v++) {
        double sd = v - lv->black_dark, sb = (v - lv->black_bright) / lv->ratio;
        ws->lut[0][v] = (float)sd;
        ws->lut[1][v] = (float)sb;
        ws->glut[0][v] = (float)log2((sd > 0 ? sd : 0) + floor_d);
        ws->glut[1][v] = (float)log2((sb > 0 ? sb : 0) + floor_b);
    }
    ws->lut_filled = need > ws->lut_filled ? need : ws->lut_filled;
    return MP_OK;
}

mp_status mp_dualiso_ws_prepare(dualiso_workspace *ws, const dualiso_levels *lv,
                                const mp_frame *in, mp_error *err)
{
    const uint32_t width = in->width, height = in->height;
    if (ws->row_off_size < height) {
        float *p = realloc(ws->row_off, height * sizeof *p);
        if (!p)
            return mp_error_set(err, MP_ERR_NOMEM, "dualiso: cannot allocate row offsets");
        ws->row_off = p;
        ws->row_off_size = height;
    }
    for (uint32_t y = 0; y < height; y++)
        ws->row_off[y] = 0;
    mp_status st = prepare_tables(ws, lv, in, err);
    if (st != MP_OK)
        return st;
    if (ws->width != width) {
        free_rows(ws);
        int ok = 1;
        for (int i = 0; i < RING; i++) {
            ws->lin[i] = malloc(width * sizeof(float));
            ws->guide[i] = malloc(width * sizeof(float));
            ws->clip[i] = malloc(width);
            ws->pratio[i] = malloc(width * sizeof(float));
            ok &= ws->lin[i] && ws->guide[i] && ws->clip[i] && ws->pratio[i];
        }
        for (int d = 0; d < NDIR; d++) {
            ws->cost[d] = malloc((width + 1) * sizeof(float));
            ok &= ws->cost[d] != NULL;
        }
        for (int j = 0; j < DIR_GROUP; j++) {
            ws->dir_raw[j] = malloc((width + DIR_RAW_PAD) * sizeof(float));
            ok &= ws->dir_raw[j] != NULL;
        }
        for (int i = 0; i < 4; i++) {
            ws->quarter[i] = malloc((4 * (size_t)width + 2 * QPAD) * sizeof(float));
            ws->ccsum[i] = malloc(((size_t)width + 2 * CC_PAD) * sizeof(float));
            ok &= ws->quarter[i] && ws->ccsum[i];
        }
        for (int i = 0; i < CS_RING; i++) {
            ws->cs_cells[i] = malloc((width / 2 + 1) * 3 * sizeof(float));
            ws->cs_ok[i] = malloc(width / 2 + 1);
            ok &= ws->cs_cells[i] && ws->cs_ok[i];
        }
        ws->keys = malloc(width * sizeof *ws->keys);
        ok &= ws->keys != NULL;
        blend_set cur;
        ok &= set_alloc(&cur, width);
        use_set(ws, &cur);
        ok &= set_alloc(&ws->other, width);
        if (!ok) {
            free_rows(ws);
            return mp_error_set(err, MP_ERR_NOMEM, "dualiso: cannot allocate row buffers");
        }
        ws->width = width;
    }
    for (int i = 0; i < RING; i++)
        ws->ring_row[i] = ws->pratio_row[i] = -1;
    return MP_OK;
}

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
        nb[n++] = in->data[(size_t)(y - 4) * in->width + x];
    if (y + 4 < in->height)
        nb[n++] = in->data[(size_t)(y + 4) * in->width + x];
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

/* The row's samples to linear values, clip flags and the guide. Two neighbouring columns
 * hold both colours of the row: the guide is the mean of a column's log value and its right
 * neighbour's (the last column keeps its own), made in the same pass. Inlined with repair a
 * constant, so each caller gets a loop without the test (one loop with it runs slower). */
static inline __attribute__((always_inline)) void
convert_row(const frame_ctx *c, uint32_t y, int repair, const uint16_t *restrict src,
            const float *restrict lut, const float *restrict glut, uint16_t clip, uint16_t top,
            float shift, float *restrict lin, float *restrict g, uint8_t *restrict cl)
{
    const uint32_t w = c->in->width;
    float g_prev = 0;
    for (uint32_t x = 0; x < w; x++) {
        uint16_t v = src[x] > top ? top : src[x];
        if (repair)
            v = repair_sample(c, x, y, v);
        lin[x] = lut[v] - shift;
        cl[x] = v >= clip;
        float gx = glut[v];
        if (x)
            g[x - 1] = 0.5f * (g_prev + gx);
        g_prev = gx;
    }
    g[w - 1] = g_prev;
}

/* Converts input row y into the ring (linear, guide, clip flags). */
int mp_dualiso_load_row(frame_ctx *c, int32_t y)
{
    dualiso_workspace *ws = c->ws;
    int slot = y & (RING - 1);
    if (ws->ring_row[slot] == y)
        return slot;
    const uint16_t *src = c->in->data + (size_t)y * c->in->width;
    int bright = dualiso_row_is_bright((uint32_t)y, c->lv->phase);
    const float *lut = ws->lut[bright], *glut = ws->glut[bright];
    const uint16_t clip = c->clip_raw[bright], top = (uint16_t)(ws->lut_size - 1);
    const float shift = c->opt->row_align ? ws->row_off[y] : 0;
    if (c->opt->bad_pixels)
        convert_row(c, (uint32_t)y, 1, src, lut, glut, clip, top, shift, ws->lin[slot],
                    ws->guide[slot], ws->clip[slot]);
    else
        convert_row(c, (uint32_t)y, 0, src, lut, glut, clip, top, shift, ws->lin[slot],
                    ws->guide[slot], ws->clip[slot]);
    ws->ring_row[slot] = y;
    return slot;
}
