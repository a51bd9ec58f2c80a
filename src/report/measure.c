/* The numbers of one frame: the raw histogram per field and channel, clipping per field,
 * and on the linear frame clipped/crushed fractions and band means with their noise. */
#include "report_priv.h"

#include <math.h>
#include <stdlib.h>

void mp_report_lut_free(report_lut *l)
{
    free(l->bin[0]);
    free(l->bin[1]);
    *l = (report_lut){{NULL, NULL}, 0};
}

/* bin 0: at or below black; 1 + k: k quarter-EVs below the clip (the deepest bin takes
 * everything further down); MP_REPORT_HIST_BINS + 1: at or above the clip. */
static uint8_t bin_of(uint32_t v, double black, double white)
{
    if (v <= black)
        return 0;
    if (v >= white)
        return MP_REPORT_HIST_BINS + 1;
    double k = floor(log2((white - black) / (v - black)) / MP_REPORT_HIST_STEP_EV);
    return (uint8_t)(1 + (k < MP_REPORT_HIST_BINS - 1 ? k : MP_REPORT_HIST_BINS - 1));
}

static void lut_fill(uint8_t *bin, uint32_t size, double black, double white)
{
    for (uint32_t v = 0; v < size; v++)
        bin[v] = bin_of(v, black, white);
}

void mp_report_hist_codes(double black, double white, uint32_t codes[MP_REPORT_HIST_BINS])
{
    for (uint32_t b = 0; b < MP_REPORT_HIST_BINS; b++)
        codes[b] = 0;
    for (uint32_t v = black > 0 ? (uint32_t)black : 0; v < white && v < 65536; v++) {
        uint8_t b = bin_of(v, black, white);
        if (b >= 1 && b <= MP_REPORT_HIST_BINS)
            codes[b - 1]++;
    }
}

static inline unsigned cfa_colour(uint32_t cfa, uint32_t x, uint32_t y)
{
    unsigned c = (cfa >> (8 * (((y & 1) << 1) | (x & 1)))) & 0xff;
    return c < 3 ? c : 1;
}

mp_status mp_report_measure_raw(const mp_frame *raw, const dualiso_levels *lv, report_lut *lut,
                             uint64_t hist[2][3][MP_REPORT_HIST_BINS + 2],
                             mp_report_frame *fr, mp_error *err)
{
    if (raw->bits < 8 || raw->bits > 16)
        return mp_error_set(err, MP_ERR_ARG, "report: %u-bit frame", raw->bits);
    uint32_t size = 1u << raw->bits;
    if (lut->size != size) {
        mp_report_lut_free(lut);
        lut->bin[0] = malloc(size);
        lut->bin[1] = malloc(size);
        if (!lut->bin[0] || !lut->bin[1]) {
            mp_report_lut_free(lut);
            return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
        }
        lut->size = size;
    }
    /* The levels' per-field blacks and whites; single ISO has one field with the frame's. */
    lut_fill(lut->bin[0], size, lv->is_dual ? lv->black_dark : raw->black,
             lv->is_dual ? lv->white_dark : raw->white);
    if (lv->is_dual)
        lut_fill(lut->bin[1], size, lv->black_bright, lv->white_bright);
    uint64_t field_n[2] = {0, 0}, field_clip[2] = {0, 0};
    for (uint32_t y = 0; y < raw->height; y++) {
        int f = lv->is_dual && dualiso_row_is_bright(y, lv->phase);
        const uint16_t *row = raw->data + (size_t)y * raw->width;
        const uint8_t *bin = lut->bin[f];
        uint64_t *h[2] = {hist[f][cfa_colour(raw->cfa, 0, y)], hist[f][cfa_colour(raw->cfa, 1, y)]};
        uint64_t clipped = 0;
        for (uint32_t x = 0; x < raw->width; x++) {
            uint8_t b = bin[row[x] < size ? row[x] : size - 1];
            h[x & 1][b]++;
            clipped += b == MP_REPORT_HIST_BINS + 1;
        }
        field_n[f] += raw->width;
        field_clip[f] += clipped;
    }
    for (int f = 0; f < 2; f++)
        fr->field_clipped[f] = field_n[f] ? (double)field_clip[f] / (double)field_n[f] : 0;
    return MP_OK;
}

/* One tile: its mean and the variance of that mean its noise gives, estimated from the
 * horizontal same-colour second differences, var(2v(x) - v(x-2) - v(x+2)) = 6 sigma^2 for
 * white noise (fine texture adds to it: an upper estimate). Returns 0 when a sample of the
 * tile is clipped (its mean is then capped, not measured). */
static int tile_stats(const mp_frame *f, uint32_t x0, uint32_t y0, double *mean,
                      double *mean_var)
{
    const uint32_t n = MP_REPORT_TILE;
    double sum = 0, d2 = 0;
    uint32_t nd = 0;
    for (uint32_t y = y0; y < y0 + n; y++) {
        const uint16_t *row = f->data + (size_t)y * f->width;
        for (uint32_t x = x0; x < x0 + n; x++) {
            if (row[x] >= f->white)
                return 0;
            sum += row[x];
            if (x >= x0 + 2 && x + 2 < x0 + n) {
                double d = 2.0 * row[x] - row[x - 2] - row[x + 2];
                d2 += d * d;
                nd++;
            }
        }
    }
    *mean = sum / (n * n);
    *mean_var = d2 / (6.0 * nd) / (n * n);
    return 1;
}

mp_status mp_report_measure_linear(const mp_frame *lin, mp_report_frame *fr, mp_error *err)
{
    uint64_t clipped = 0, crushed = 0;
    const size_t count = (size_t)lin->width * lin->height;
    for (size_t i = 0; i < count; i++) {
        clipped += lin->data[i] >= lin->white;
        crushed += lin->data[i] <= lin->black;
    }
    fr->clipped = (double)clipped / (double)count;
    fr->crushed = (double)crushed / (double)count;

    fr->tiles_x = lin->width / MP_REPORT_TILE;
    fr->tiles_y = lin->height / MP_REPORT_TILE;
    size_t tiles = (size_t)fr->tiles_x * fr->tiles_y;
    fr->tile_rel = malloc((tiles ? tiles : 1) * sizeof *fr->tile_rel);
    fr->tile_var = malloc((tiles ? tiles : 1) * sizeof *fr->tile_var);
    if (!fr->tile_rel || !fr->tile_var)
        return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
    const double range = (double)lin->white - lin->black;
    for (uint32_t ty = 0; ty < fr->tiles_y; ty++)
        for (uint32_t tx = 0; tx < fr->tiles_x; tx++) {
            double mean, mean_var;
            size_t k = (size_t)ty * fr->tiles_x + tx;
            if (tile_stats(lin, tx * MP_REPORT_TILE, ty * MP_REPORT_TILE, &mean, &mean_var)) {
                fr->tile_rel[k] = (float)((mean - lin->black) / range);
                fr->tile_var[k] = (float)(mean_var / (range * range));
            } else {
                fr->tile_rel[k] = fr->tile_var[k] = NAN;
            }
        }
    return MP_OK;
}

/* The band of each tile from its mean over the frames measured with the first readable
 * frame's tile grid (a tile clipped in any of them has none); -1: no band. */
static int8_t *tile_bands(const mp_clip_report *r, const mp_report_frame *first)
{
    size_t tiles = (size_t)first->tiles_x * first->tiles_y;
    int8_t *band = malloc(tiles ? tiles : 1);
    if (!band)
        return NULL;
    for (size_t k = 0; k < tiles; k++) {
        double sum = 0;
        uint32_t n = 0;
        for (uint32_t i = 0; i < r->frame_count; i++) {
            const mp_report_frame *f = &r->frames[i];
            if (f->tile_rel && f->tiles_x == first->tiles_x && f->tiles_y == first->tiles_y) {
                sum += f->tile_rel[k];
                n++;
            }
        }
        double b = n && sum > 0 ? floor(-log2(sum / n) / MP_REPORT_BAND_EV) : -1;
        band[k] = b >= 0 && b < MP_REPORT_BANDS ? (int8_t)b : -1;   /* NAN sums: -1 */
    }
    return band;
}

void mp_report_bands(mp_clip_report *r)
{
    const mp_report_frame *first = NULL;
    for (uint32_t i = 0; i < r->frame_count && !first; i++)
        if (r->frames[i].tile_rel)
            first = &r->frames[i];
    int8_t *band = first ? tile_bands(r, first) : NULL;
    for (uint32_t i = 0; band && i < r->frame_count; i++) {
        mp_report_frame *f = &r->frames[i];
        if (!f->tile_rel || f->tiles_x != first->tiles_x || f->tiles_y != first->tiles_y)
            continue;
        double sum[MP_REPORT_BANDS] = {0}, var[MP_REPORT_BANDS] = {0};
        for (size_t k = 0; k < (size_t)f->tiles_x * f->tiles_y; k++) {
            if (band[k] < 0)
                continue;
            sum[band[k]] += f->tile_rel[k];
            var[band[k]] += f->tile_var[k];
            f->band_tiles[band[k]]++;
        }
        for (uint32_t b = 0; b < MP_REPORT_BANDS; b++) {
            uint32_t n = f->band_tiles[b];
            f->band_mean[b] = n ? sum[b] / n : 0;
            f->band_noise[b] = n ? sqrt(var[b]) / n : 0;
        }
    }
    free(band);
    for (uint32_t i = 0; i < r->frame_count; i++) {
        free(r->frames[i].tile_rel);
        free(r->frames[i].tile_var);
        r->frames[i].tile_rel = r->frames[i].tile_var = NULL;
    }
}
