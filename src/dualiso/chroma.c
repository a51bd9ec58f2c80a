/* Optional chroma smoothing of the reconstructed mosaic (dualiso_options.chroma_smooth),
 * cr2hdr's --cs2x2 / --cs3x3 / --cs5x5 (doc/dualiso.md 3.10): in every 2x2 CFA cell the greens
 * stay and R, B become G * median(R / G), G * median(B / G) over the cell and its
 * neighbours (5-point cross, 3x3 or 5x5 cells), G being the mean of the cell's greens.
 * A median of ratios is the exponential of the median of log differences, cr2hdr's
 * log-space form, but needs no floor for samples at or below black.
 *
 * Where: only where it helps. Chroma smoothing assumes locally constant chroma, which
 * costs colour edges (on the benchmark it doubles cr2hdr's edge error, 6.4); it pays only
 * where noise swamps chroma, in the deep shadows that the half-resolution bright field
 * carries. So each cell is smoothed in proportion to the expected noise of its
 * neighbourhood: fully below a green SNR of CS_SNR_FULL, not at all above CS_SNR_NONE,
 * from the levels' noise model (bright-field read noise plus photon noise). Highlights and
 * mid-tones keep their bytes. Cells whose green is near black (its ratio is noise) or with
 * a clipped sample are neither smoothed nor used as neighbours (cr2hdr skips the first).
 *
 * Streaming: the blend writes output rows top to bottom; once a cell row is complete its
 * cells (green mean and both ratios, from the unsmoothed output) go into a ring of
 * CS_RING cell rows, and the cell row whose neighbourhood is now complete is smoothed in
 * place. Neighbours are always read from the ring, never from smoothed output, so the
 * result does not depend on the order. Memory: CS_RING x width/2 cells. */
#include <math.h>

#include "recon_priv.h"

#define CS_MIN_SIGMAS 3.0f   /* green mean below this many bright read-noise sigmas: skip */
#define CS_SNR_FULL 4.0f     /* full smoothing at or below this green SNR per sample */
#define CS_SNR_NONE 12.0f    /* none at or above */
#define CS_MAX_CELLS 25      /* 5x5 */

/* Positions (x + 2y in the cell) of R, the two greens and B; 0 if the CFA is not one R,
 * two greens and one B per 2x2 cell. */
static int cell_layout(uint32_t cfa, int pos[4])
{
    int n[3] = {0, 0, 0};
    for (int p = 0; p < 4; p++) {
        int col = dualiso_cfa_color(cfa, (uint32_t)(p & 1), (uint32_t)(p >> 1));
        if (col == 0)
            pos[0] = p;
        else if (col == 2)
            pos[3] = p;
        else
            pos[1 + (n[1] > 0)] = p;
        n[col]++;
    }
    return n[0] == 1 && n[1] == 2 && n[2] == 1;
}

/* Cell row cy of the output into the ring: green mean above black and the R/G, B/G ratios. */
static void load_cells(const frame_ctx *c, const mp_frame *out, const int pos[4], uint32_t cy)
{
    dualiso_workspace *ws = c->ws;
    const uint32_t w = out->width, ncx = w / 2;
    const float ob = (float)c->lv->out_black;
    const uint16_t white = (uint16_t)c->lv->out_white;
    const float gmin = CS_MIN_SIGMAS * (float)(c->lv->noise_bright / c->lv->ratio *
                                               c->lv->out_scale);
    float *cell = ws->cs_cells[cy & (CS_RING - 1)];
    uint8_t *ok = ws->cs_ok[cy & (CS_RING - 1)];
    const uint16_t *rows = out->data + (size_t)2 * cy * w;
    for (uint32_t cx = 0; cx < ncx; cx++) {
        const uint16_t *p = rows + 2 * cx;
        uint16_t v[4];
        for (int k = 0; k < 4; k++)
            v[k] = p[(pos[k] & 1) + (size_t)(pos[k] >> 1) * w];
        float g = 0.5f * ((float)v[1] + (float)v[2]) - ob;
        ok[cx] = g > gmin && v[0] < white && v[1] < white && v[2] < white && v[3] < white;
        cell[3 * cx] = g;
        cell[3 * cx + 1] = ok[cx] ? ((float)v[0] - ob) / g : 0;
        cell[3 * cx + 2] = ok[cx] ? ((float)v[3] - ob) / g : 0;
    }
}

/* Smoothing weight for a neighbourhood green mean level (output DN above black). */
static float cell_weight(const frame_ctx *c, float level)
{
    const dualiso_levels *lv = c->lv;
    float s = level / (float)lv->out_scale; /* dark-field DN above black */
    float nb = (float)(lv->noise_bright / lv->ratio);
    float var = nb * nb + (float)lv->gain_dark * (s > 0 ? s : 0);
    float snr = s / sqrtf(var);
    return dualiso_smooth_fade((snr - CS_SNR_FULL) / (CS_SNR_NONE - CS_SNR_FULL));
}

static uint16_t to_sample(float v, float white)
{
    v = v < 0 ? 0 : (v > white ? white : v);
    return (uint16_t)(v + 0.5f);
}

/* Smooths cell row cy in place; its neighbours' cell rows are in the ring. */
static void smooth_cells(const frame_ctx *c, mp_frame *out, const int pos[4], uint32_t cy)
{
    dualiso_workspace *ws = c->ws;
    const int mode = c->opt->chroma_smooth, r = mode == 5 ? 2 : 1;
    const uint32_t w = out->width, ncx = w / 2, ncy = out->height / 2;
    const float ob = (float)c->lv->out_black, white = (float)c->lv->out_white;
    const float *cells = ws->cs_cells[cy & (CS_RING - 1)];
    const uint8_t *oks = ws->cs_ok[cy & (CS_RING - 1)];
    uint16_t *rows = out->data + (size_t)2 * cy * w;
    double rg[CS_MAX_CELLS], bg[CS_MAX_CELLS];
    for (uint32_t cx = 0; cx < ncx; cx++) {
        if (!oks[cx])
            continue;
        float gsum = 0;
        uint32_t n = 0;
        for (int dy = -r; dy <= r; dy++) {
            int64_t ny = (int64_t)cy + dy;
            if (ny < 0 || ny >= ncy)
                continue;
            const float *nc = ws->cs_cells[ny & (CS_RING - 1)];
            const uint8_t *nok = ws->cs_ok[ny & (CS_RING - 1)];
            for (int dx = -r; dx <= r; dx++) {
                int64_t nx = (int64_t)cx + dx;
                if (nx < 0 || nx >= ncx || !nok[nx] || (mode == 2 && dx && dy))
                    continue; /* mode 2: the cell and its four edge neighbours */
                gsum += nc[3 * nx];
                rg[n] = nc[3 * nx + 1];
                bg[n] = nc[3 * nx + 2];
                n++;
            }
        }
        float k = cell_weight(c, gsum / (float)n);
        if (k <= 0)
            continue;
        const float g = cells[3 * cx];
        const float want[2] = {g * (float)mp_dualiso_median(rg, n),
                               g * (float)mp_dualiso_median(bg, n)};
        for (int i = 0; i < 2; i++) {
            int p = pos[i ? 3 : 0];
            uint16_t *s = rows + 2 * cx + (p & 1) + (size_t)(p >> 1) * w;
            float v = (float)*s - ob;
            *s = to_sample(ob + v + k * (want[i] - v), white);
        }
    }
}

void mp_dualiso_chroma_row(const frame_ctx *c, mp_frame *out, uint32_t y)
{
    int pos[4];
    if (!c->opt->chroma_smooth || !cell_layout(out->cfa, pos))
        return;
    const uint32_t r = c->opt->chroma_smooth == 5 ? 2 : 1, ncy = out->height / 2;
    if (y % 2 == 1) {
        load_cells(c, out, pos, y / 2);
        if (y / 2 >= r)
            smooth_cells(c, out, pos, y / 2 - r);
    }
    /* last row: the cell rows still waiting for neighbours below have all there are */
    if (y + 1 == out->height)
        for (uint32_t cy = ncy > r ? ncy - r : 0; cy < ncy; cy++)
            smooth_cells(c, out, pos, cy);
}
