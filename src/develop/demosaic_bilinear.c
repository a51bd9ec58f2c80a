#include "demosaic.h"

/* Average of the same-colour samples around (x, r), clipped to the window: exactly bilinear
 * demosaicing inside, and still defined on the first and last rows and columns. */
static void bilinear_clipped(const demosaic_window *w, uint32_t x, uint32_t r)
{
    size_t i = (size_t)r * w->width + x;
    uint32_t own = w->colour[r & 1][x & 1];
    float sum[3] = {0, 0, 0};
    int count[3] = {0, 0, 0};
    uint32_t ylo = r > 0 ? r - 1 : 0, yhi = r + 1 < w->rows ? r + 1 : r;
    uint32_t xlo = x > 0 ? x - 1 : 0, xhi = x + 1 < w->width ? x + 1 : x;
    for (uint32_t y = ylo; y <= yhi; y++)
        for (uint32_t xx = xlo; xx <= xhi; xx++) {
            uint32_t c = w->colour[y & 1][xx & 1];
            sum[c] += w->cfa[(size_t)y * w->width + xx];
            count[c]++;
        }
    for (uint32_t c = 0; c < 3; c++)
        w->rgb[c][i] = c == own ? w->cfa[i] : sum[c] / (float)count[c];
}

void mp_demosaic_bilinear(const demosaic_window *w, uint32_t x0, uint32_t x1, uint32_t r0,
                       uint32_t r1)
{
    const float *cfa = w->cfa;
    const size_t s = w->width;
    for (uint32_t r = r0; r < r1; r++) {
        int inner_row = r > 0 && r + 1 < w->rows;
        for (uint32_t x = x0; x < x1; x++) {
            if (!inner_row || x == 0 || x + 1 >= w->width) {
                bilinear_clipped(w, x, r);
                continue;
            }
            size_t i = r * s + x;
            uint32_t own = w->colour[r & 1][x & 1];
            float c = cfa[i];
            if (own == 1) {
                uint32_t across = w->colour[r & 1][(x + 1) & 1];
                w->rgb[1][i] = c;
                w->rgb[across][i] = 0.5f * (cfa[i - 1] + cfa[i + 1]);
                w->rgb[2 - across][i] = 0.5f * (cfa[i - s] + cfa[i + s]);
            } else {
                w->rgb[own][i] = c;
                w->rgb[1][i] = 0.25f * (cfa[i - 1] + cfa[i + 1] + cfa[i - s] + cfa[i + s]);
                w->rgb[2 - own][i] =
                    0.25f * (cfa[i - s - 1] + cfa[i - s + 1] + cfa[i + s - 1] + cfa[i + s + 1]);
            }
        }
    }
}
