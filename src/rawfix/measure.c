/* rawfix_measure: one frame's noise (rawfix.h), then row by row its deviations from the
 * same-colour neighbours in noise units and its stripe sums (rawfix_accum adds them). */
#include <stdlib.h>
#include <string.h>

#include "common/mp_cpu.h"
#include "rawfix/rawfix_dsp.h"
#include "rawfix_priv.h"

/* Noise is estimated per row class (y mod 4: colour row and dual-ISO field) and brightness
 * (half-EV bins of the neighbours' mean above black), from the median absolute second
 * difference along rows and columns, which a few defects do not move. */
#define LEVEL_BINS RAWFIX_LEVEL_BINS
#define NOISE_BINS (4 * LEVEL_BINS)
#define HIST_SIZE 2048          /* |second difference| in half DN, the last bucket open */
#define MIN_BIN_COUNT 64        /* fewer samples: the row class's overall noise is used */
#define NOISE_ROWS 256          /* rows a frame's noise is measured from, at least */

/* Counts d2 when ok (1; 0 counts nothing): no branch, which clipped samples here and there
 * would mispredict. */
static void hist_add(uint32_t *h, int32_t d2, uint32_t ok)
{
    uint32_t a = (uint32_t)(d2 < 0 ? -d2 : d2);
    h[a < HIST_SIZE ? a : HIST_SIZE - 1] += ok;
}

/* Median of a histogram in half DN, as a Gaussian sigma of the second difference in DN. */
static double hist_sigma(const uint32_t *h, uint64_t count)
{
    uint64_t acc = 0;
    for (uint32_t a = 0; a < HIST_SIZE; a++)
        if ((acc += h[a]) * 2 >= count)
            return 1.4826 * (a + 0.5) / 2;
    return 1.4826 * HIST_SIZE / 2;
}

/* One row's work arrays (rawfix_dsp.h) and outputs in one block, kept between frames. */
enum { INT_ARRAYS = 9, WORK_ARRAYS = INT_ARRAYS + 1 + RAWFIX_BLOCK_SUMS };   /* sigma_h, light */
#define WORK_BYTES_PER_SAMPLE                                                                 \
    (WORK_ARRAYS * sizeof(int32_t) + 2 * sizeof(int16_t) + sizeof(int32_t[2]))

static int work_alloc(rawfix_measurement *m, uint32_t w)
{
    if (m->work_width >= w)
        return 0;
    free(m->work);
    m->work_width = 0;
    if (!(m->work = malloc((size_t)w * WORK_BYTES_PER_SAMPLE)))
        return -1;
    m->work_width = w;
    return 0;
}

void mp_rawfix_row_begin(const rawfix_measurement *m, rawfix_row *r)
{
    const size_t w = m->width;
    int32_t *work = m->work;
    int32_t **arrays[INT_ARRAYS] = {&r->dh2, &r->dv2, &r->bin_h, &r->bin_v, &r->ok,
                                    &r->act, &r->left, &r->right, &r->win_max};
    *r = (rawfix_row){.w = m->width, .white = m->white, .black = m->black};
    for (size_t k = 0; k < INT_ARRAYS; k++)
        *arrays[k] = work + k * w;
    r->sigma_h = (float *)(work + INT_ARRAYS * w);
    r->light = (uint32_t *)(work + (INT_ARRAYS + 1) * w);
    r->stripe = (int32_t(*)[2])(work + WORK_ARRAYS * w);
    r->zh = (int16_t *)(r->stripe + w);
    r->zv = r->zh + w;
}

static void row_at(rawfix_row *r, const mp_frame *f, uint32_t y, uint32_t vs)
{
    r->c = f->data + (size_t)y * f->width;
    r->u = r->c - (size_t)vs * f->width;
    r->d = r->c + (size_t)vs * f->width;
}

/* What a sample that cannot be measured (row.ok 0: it or a neighbour clipped) still shows,
 * where clipping only hides more of the same: far below its neighbours while one of them is
 * clipped (their true values are higher still: a dead pixel in the highlights), or clipped
 * itself while far above its four unclipped neighbours (its true value is higher still: a
 * pixel stuck at white). "Far" is Z_BIG both ways, as for a measured sample. Scalar and the
 * same at every CPU level: clipped samples are few. */
static int16_t beyond_clipping(const rawfix_row *r, size_t x)
{
    const int32_t white = r->white;
    int self = r->c[x] >= white;
    /* far below needs both differences negative, far above both positive (the sigmas are
     * positive): most clipped neighbourhoods end here, before any division */
    if (self ? r->dh2[x] <= 0 || r->dv2[x] <= 0 : r->dh2[x] >= 0 || r->dv2[x] >= 0)
        return RAWFIX_NO_Z;
    int near = r->c[x - 2] >= white || r->c[x + 2] >= white || r->u[x] >= white ||
               r->d[x] >= white;
    double act = TEXTURE_WEIGHT * (r->act[x] / 8.0);
    double sh = r->sigma[r->bin_h[x]], sv = r->sigma[r->bin_v[x]];
    double zh = Z_SCALE * r->dh2[x] / 2.0 / (sh > act ? sh : act);
    double zv = Z_SCALE * r->dv2[x] / 2.0 / (sv > act ? sv : act);
    if (!self) {
        if (zh <= -Z_BIG && zv <= -Z_BIG)
            return RAWFIX_CLIPPED_LOW;
        /* A clipped neighbour swells the texture yardstick (its differences) and hides a weak
         * or dead pixel in clipped highlights, which dual ISO would take as a valid bright
         * sample. Under half the signal of each of its four neighbours, the sample is no edge
         * or corner of a highlight (those keep a neighbour near it): the noise alone judges. */
        const int32_t s = r->c[x] - r->black;
        int under = 2 * s < r->c[x - 2] - r->black && 2 * s < r->c[x + 2] - r->black &&
                    2 * s < r->u[x] - r->black && 2 * s < r->d[x] - r->black;
        return under && Z_SCALE * r->dh2[x] / 2.0 / sh <= -Z_BIG &&
                       Z_SCALE * r->dv2[x] / 2.0 / sv <= -Z_BIG
                   ? RAWFIX_CLIPPED_LOW
                   : RAWFIX_NO_Z;
    }
    if (near)
        return RAWFIX_NO_Z;
    return zh >= Z_BIG && zv >= Z_BIG ? RAWFIX_CLIPPED_HIGH : RAWFIX_NO_Z;
}

/* FNV-1a over every 16th sample of each row: frames that are copies of one another (a
 * camera that wrote one buffer twice) share it, noisy distinct frames never do. */
static uint64_t frame_signature(const mp_frame *f)
{
    uint64_t h = 14695981039346656037u;
    for (uint32_t y = 0; y < f->height; y++) {
        const uint16_t *row = f->data + (size_t)y * f->width;
        for (uint32_t x = y % 16; x < f->width; x += 16)
            h = (h ^ row[x]) * 1099511628211u;
    }
    return h;
}

/* The sums of each row class (y mod 4: in dual ISO each field has two) of the frame's
 * RAWFIX_BLOCK-square blocks less black (whole blocks only; RAWFIX_BLOCK_SUMS per block),
 * RAWFIX_BLOCK_CLIPPED for one holding a sample at white. */
static void block_sums(const mp_frame *f, int32_t white, int32_t black, uint32_t *out)
{
    const uint32_t bx = f->width / RAWFIX_BLOCK, by = f->height / RAWFIX_BLOCK;
    memset(out, 0, (size_t)bx * by * RAWFIX_BLOCK_SUMS * sizeof *out);
    for (uint32_t y = 0; y < by * RAWFIX_BLOCK; y++) {
        const uint16_t *row = f->data + (size_t)y * f->width;
        uint32_t *sum = out + (size_t)(y / RAWFIX_BLOCK) * bx * RAWFIX_BLOCK_SUMS + y % 4;
        for (uint32_t j = 0; j < bx; j++, sum += RAWFIX_BLOCK_SUMS) {
            uint32_t s = 0;
            int clipped = 0;
            for (uint32_t x = j * RAWFIX_BLOCK; x < (j + 1) * RAWFIX_BLOCK; x++) {
                const int32_t v = row[x] - black;
                s += v > 0 ? (uint32_t)v : 0;
                clipped |= row[x] >= white;
            }
            *sum = clipped || *sum == RAWFIX_BLOCK_CLIPPED ? RAWFIX_BLOCK_CLIPPED : *sum + s;
        }
    }
}

mp_status mp_rawfix_measure(const mp_frame *f, int dual, rawfix_measurement *m, mp_error *err)
{
    const uint32_t w = f->width, h = f->height, vs = mp_rawfix_vstep(dual);
    if (!f->data || w == 0 || h == 0)
        return mp_error_set(err, MP_ERR_ARG, "rawfix: empty frame");
    const size_t hist_size = (size_t)(NOISE_BINS + 4) * HIST_SIZE * sizeof *m->hist;
    const size_t blocks = (size_t)(w / RAWFIX_BLOCK) * (h / RAWFIX_BLOCK) * RAWFIX_BLOCK_SUMS;
    if (m->block_count < blocks) {
        free(m->blocks);
        free(m->light);
        m->block_count = 0;
        m->blocks = malloc(blocks * sizeof *m->blocks);
        m->light = malloc(blocks * sizeof *m->light);
        if (!m->blocks || !m->light)
            return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for a %ux%u frame", w, h);
        m->block_count = blocks;
    }
    if ((!m->hist && !(m->hist = malloc(hist_size))) ||
        (!m->sigma && !(m->sigma = malloc(NOISE_BINS * sizeof *m->sigma))) ||
        (!m->sigma_float && !(m->sigma_float = malloc(NOISE_BINS * sizeof *m->sigma_float))) ||
        work_alloc(m, w))
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for a %u-wide frame", w);
    m->width = w;
    m->height = h;
    m->vstep = vs;
    m->white = f->white > INT32_MAX ? INT32_MAX : (int32_t)f->white;
    m->black = (int32_t)f->black;
    m->dsp = mp_rawfix_dsp_for(mp_cpu_level_get());
    m->measurable = w >= 5 && h >= 2 * vs + 1;
    m->signature = frame_signature(f);
    if (blocks)
        block_sums(f, m->white, m->black, m->blocks);
    if (!m->measurable)
        return MP_OK;
    memset(m->hist, 0, hist_size);
    rawfix_row row;
    mp_rawfix_row_begin(m, &row);

    /* Noise: the differences of each row class and brightness bin into its histogram; the
     * row class's overall histogram and the counts are sums of those. Taller frames than
     * NOISE_ROWS give every `every`-th group of 4 rows (each row class in each): the noise
     * of a bin is a median, which a quarter of a 1080-row frame's million differences per
     * row class fixes as well, and the histograms were three quarters of the measurement. */
    const uint32_t every = h / NOISE_ROWS > 1 ? h / NOISE_ROWS : 1;
    for (uint32_t y = vs; y < h - vs; y++) {
        if (y / 4 % every)
            continue;
        row_at(&row, f, y, vs);
        m->dsp->diffs(&row);
        uint32_t *hist = m->hist + (size_t)(y % 4) * LEVEL_BINS * HIST_SIZE;
        for (uint32_t x = 2; x < w - 2; x++) {
            const uint32_t ok = (uint32_t)row.ok[x];
            hist_add(hist + (size_t)row.bin_h[x] * HIST_SIZE, row.dh2[x], ok);
            hist_add(hist + (size_t)row.bin_v[x] * HIST_SIZE, row.dv2[x], ok);
        }
    }
    for (int r = 0; r < 4; r++) {
        uint32_t *all = m->hist + (size_t)(NOISE_BINS + r) * HIST_SIZE;
        uint64_t count[LEVEL_BINS] = {0}, cr = 0;
        for (int b = 0; b < LEVEL_BINS; b++) {
            const uint32_t *hb = m->hist + (size_t)(r * LEVEL_BINS + b) * HIST_SIZE;
            for (uint32_t a = 0; a < HIST_SIZE; a++) {
                count[b] += hb[a];
                all[a] += hb[a];
            }
            cr += count[b];
        }
        double overall = cr ? hist_sigma(all, cr) : 1;
        for (int b = 0; b < LEVEL_BINS; b++)
            m->sigma[r * LEVEL_BINS + b] = count[b] >= MIN_BIN_COUNT ?
                hist_sigma(m->hist + (size_t)(r * LEVEL_BINS + b) * HIST_SIZE, count[b]) :
                overall;
        mp_rawfix_float_sigmas(m->sigma + r * LEVEL_BINS, m->sigma_float + r * LEVEL_BINS);
    }
    return MP_OK;
}

void mp_rawfix_measure_row(const rawfix_measurement *m, const mp_frame *f, uint32_t y,
                           rawfix_row *r)
{
    row_at(r, f, y, m->vstep);
    m->dsp->diffs(r);
    m->dsp->texture(r);
    r->sigma = m->sigma + (y % 4) * LEVEL_BINS;
    r->sigma_float = m->sigma_float + (y % 4) * LEVEL_BINS;
    m->dsp->z(r);
    /* most rows have nothing clipped, and most runs of a row that has some neither: passes
     * over OK_RUN samples at a time that vectorise say so */
    enum { OK_RUN = 16 };
    const uint32_t end = m->width - 2;
    int32_t all_ok = 1;
    for (uint32_t x = 2; x < end; x++)
        all_ok &= r->ok[x];
    for (uint32_t x0 = 2; !all_ok && x0 < end; x0 += OK_RUN) {
        const uint32_t x1 = x0 + OK_RUN < end ? x0 + OK_RUN : end;
        int32_t run_ok = 1;
        for (uint32_t x = x0; x < x1; x++)
            run_ok &= r->ok[x];
        for (uint32_t x = x0; !run_ok && x < x1; x++)
            if (!r->ok[x])
                r->zh[x] = r->zv[x] = beyond_clipping(r, x);
    }
}

void mp_rawfix_measure_at(rawfix_measurement *m, const mp_frame *f, uint32_t x, uint32_t y,
                          int16_t *zh, int16_t *zv)
{
    *zh = *zv = RAWFIX_NO_Z;
    if (!m->measurable || x >= m->width || y < m->vstep || y >= m->height - m->vstep)
        return;
    rawfix_row r;
    mp_rawfix_row_begin(m, &r);
    mp_rawfix_measure_row(m, f, y, &r);
    *zh = r.zh[x];
    *zv = r.zv[x];
}

void mp_rawfix_measurement_free(rawfix_measurement *m)
{
    free(m->hist);
    free(m->sigma);
    free(m->sigma_float);
    free(m->blocks);
    free(m->light);
    free(m->work);
    memset(m, 0, sizeof *m);
}
