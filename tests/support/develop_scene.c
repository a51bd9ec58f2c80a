#include "develop_scene.h"

#include <math.h>
#include <stddef.h>

static const float patches[24][3] = {
    {0.17f, 0.08f, 0.05f}, {0.55f, 0.30f, 0.22f}, {0.11f, 0.19f, 0.33f}, {0.09f, 0.15f, 0.05f},
    {0.23f, 0.22f, 0.43f}, {0.13f, 0.52f, 0.41f}, {0.68f, 0.20f, 0.03f}, {0.06f, 0.10f, 0.38f},
    {0.55f, 0.08f, 0.12f}, {0.09f, 0.04f, 0.14f}, {0.34f, 0.50f, 0.05f}, {0.70f, 0.37f, 0.03f},
    {0.03f, 0.05f, 0.28f}, {0.07f, 0.30f, 0.07f}, {0.45f, 0.03f, 0.04f}, {0.70f, 0.58f, 0.03f},
    {0.50f, 0.08f, 0.30f}, {0.03f, 0.23f, 0.37f}, {0.72f, 0.72f, 0.70f}, {0.45f, 0.45f, 0.45f},
    {0.28f, 0.28f, 0.28f}, {0.15f, 0.15f, 0.15f}, {0.07f, 0.07f, 0.07f}, {0.03f, 0.03f, 0.03f},
};

static void scene_pixel(uint32_t x, uint32_t y, uint32_t width, uint32_t height, float rgb[3])
{
    const double pi = 3.14159265358979323846;
    uint32_t hw = width / 2, hh = height / 2;
    double q = fmin(hw, hh); /* quadrant size for the round features */
    if (x < hw && y < hh) {
        uint32_t col = x * 6 / (hw ? hw : 1), row = y * 4 / (hh ? hh : 1);
        const float *c = patches[row * 6 + col];
        for (int k = 0; k < 3; k++)
            rgb[k] = c[k];
    } else if (y < hh) {
        double dx = x + 0.5 - (hw + hw / 2.0), dy = y + 0.5 - hh / 2.0;
        double r = sqrt(dx * dx + dy * dy), a = atan2(dy, dx);
        int sector = (int)floor((a + pi) / (2 * pi) * 24) & 1;
        static const float grey[2][3] = {{0.70f, 0.70f, 0.70f}, {0.04f, 0.04f, 0.04f}};
        static const float colour[2][3] = {{0.65f, 0.15f, 0.10f}, {0.08f, 0.30f, 0.60f}};
        const float *c = r > 0.46 * q ? (const float[3]){0.18f, 0.18f, 0.18f}
                         : dy < 0      ? grey[sector]
                                       : colour[sector];
        for (int k = 0; k < 3; k++)
            rgb[k] = c[k];
    } else if (x < hw) {
        double dx = x + 0.5 - hw / 2.0, dy = y + 0.5 - (hh + hh / 2.0);
        double radius = 0.48 * q, r2 = dx * dx + dy * dy;
        /* local frequency r / radius * 0.35 cycles per pixel */
        double v = r2 < radius * radius ? 0.35 + 0.3 * cos(pi * 0.35 * r2 / radius) : 0.35;
        for (int k = 0; k < 3; k++)
            rgb[k] = (float)v;
    } else {
        double s = (x - hw + 0.5) / (width - hw), t = (y - hh + 0.5) / (height - hh);
        rgb[0] = (float)(0.05 + 0.65 * s);
        rgb[1] = (float)(0.05 + 0.65 * t);
        rgb[2] = (float)(0.05 + 0.6 * (1 - s) * (1 - t) + 0.05 * s);
    }
}

void scene_render(float *truth[3], uint32_t width, uint32_t height)
{
    for (uint32_t y = 0; y < height; y++)
        for (uint32_t x = 0; x < width; x++) {
            float rgb[3];
            scene_pixel(x, y, width, height, rgb);
            for (int k = 0; k < 3; k++)
                truth[k][(size_t)y * width + x] = rgb[k];
        }
}

void scene_mosaic(float *const truth[3], uint32_t cfa, mp_frame *f)
{
    f->bits = 16;
    f->black = 1024;
    f->white = 61024;
    f->cfa = cfa;
    for (uint32_t y = 0; y < f->height; y++)
        for (uint32_t x = 0; x < f->width; x++) {
            uint32_t c = (cfa >> (8 * (2 * (y & 1) + (x & 1)))) & 0xff;
            size_t i = (size_t)y * f->width + x;
            f->data[i] = (uint16_t)lrint(f->black + truth[c][i] * (f->white - f->black));
        }
}

void scene_params(develop_params *p, develop_demosaic method)
{
    mp_develop_params_default(p);
    p->demosaic = method;
    p->wb = DEVELOP_WB_CUSTOM;
    p->wb_gains[0] = p->wb_gains[1] = p->wb_gains[2] = 1;
    p->matrix = DEVELOP_MATRIX_IDENTITY;
    p->curve = MP_CURVE_LINEAR;
}

double scene_psnr(const develop_rgb *out, float *const truth[3], uint32_t margin)
{
    double sum = 0;
    uint64_t n = 0;
    for (uint32_t y = margin; y + margin < out->height; y++)
        for (uint32_t x = margin; x + margin < out->width; x++) {
            size_t i = (size_t)y * out->width + x;
            for (int k = 0; k < 3; k++) {
                double d = out->plane[k][i] / 65535.0 - truth[k][i];
                sum += d * d;
            }
            n += 3;
        }
    return n && sum > 0 ? 10 * log10(n / sum) : INFINITY;
}

double scene_edge_chroma_error(const develop_rgb *out, float *const truth[3], uint32_t margin)
{
    if (margin < 1)
        margin = 1;
    const uint32_t w = out->width;
    double sum = 0;
    uint64_t n = 0;
    for (uint32_t y = margin; y + margin < out->height; y++)
        for (uint32_t x = margin; x + margin < w; x++) {
            size_t i = (size_t)y * w + x;
            int edge = 0;
            for (int k = 0; k < 3 && !edge; k++) {
                const float *t = truth[k] + i;
                edge = fabsf(t[0] - t[-1]) > 0.1f || fabsf(t[0] - t[1]) > 0.1f ||
                       fabsf(t[0] - t[-(ptrdiff_t)w]) > 0.1f || fabsf(t[0] - t[w]) > 0.1f;
            }
            if (!edge)
                continue;
            double r = out->plane[0][i] / 65535.0, g = out->plane[1][i] / 65535.0,
                   b = out->plane[2][i] / 65535.0;
            sum += 0.5 * (fabs((r - g) - (truth[0][i] - truth[1][i])) +
                          fabs((b - g) - (truth[2][i] - truth[1][i])));
            n++;
        }
    return n ? sum / (double)n : 0;
}
