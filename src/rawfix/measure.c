/* rawfix_measure: one frame's deviations from the same-colour neighbours, in noise units, and
 * its stripe sums (rawfix.h). */
#include <stdlib.h>
#include <string.h>

#include "common/mp_big.h"
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

static void hist_add(uint32_t *h, int32_t d2)
{
    uint32_t a = (uint32_t)(d2 < 0 ? -d2 : d2);
    h[a < HIST_SIZE ? a : HIST_SIZE - 1]++;
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

/* Work arrays of one row (rawfix_dsp.h), one block. */
static int row_alloc(rawfix_row *r, uint32_t w)
{
    int32_t **arrays[] = {&r->dh2, &r->dv2, &r->bin_h, &r->bin_v, &r->ok, &r->act,
                          &r->left, &r->right, &r->win_max};
    enum { COUNT = sizeof arrays / sizeof *arrays };
    int32_t *block = malloc((size_t)w * COUNT * sizeof *block);
    if (!block)
        return -1;
    for (size_t k = 0; k < COUNT; k++)
        *arrays[k] = block + k * w;
    return 0;
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
    int near = r->c[x - 2] >= white || r->c[x + 2] >= white || r->u[x] >= white ||
               r->d[x] >= white;
    double act = TEXTURE_WEIGHT * (r->act[x] / 8.0);
    double sh = r->sigma[r->bin_h[x]], sv = r->sigma[r->bin_v[x]];
    double zh = Z_SCALE * r->dh2[x] / 2.0 / (sh > act ? sh : act);
    double zv = Z_SCALE * r->dv2[x] / 2.0 / (sv > act ? sv : act);
    if (!self)
        return zh <= -Z_BIG && zv <= -Z_BIG ? RAWFIX_CLIPPED_LOW : RAWFIX_NO_Z;
    if (near)
        return RAWFIX_NO_Z;
    return zh >= Z_BIG && zv >= Z_BIG ? RAWFIX_CLIPPED_HIGH : RAWFIX_NO_Z;
}

mp_status mp_rawfix_measure(const mp_frame *f, int dual, rawfix_measurement *m, mp_error *err)
{
    const uint32_t w = f->width, h = f->height, vs = mp_rawfix_vstep(dual);
    const size_t n = (size_t)w * h;
    if (!f->data || w == 0 || h == 0)
        return mp_error_set(err, MP_ERR_ARG, "rawfix: empty frame");
    if (m->capacity < n) {
        free(m->zh);
        free(m->zv);
        free(m->stripe);
        m->capacity = 0;
        m->zh = mp_big_calloc(n * sizeof *m->zh);
        m->zv = mp_big_calloc(n * sizeof *m->zv);
        m->stripe = mp_big_calloc(n * sizeof *m->stripe);
        if (!m->zh || !m->zv || !m->stripe)
            return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for %ux%u", w, h);
        m->capacity = n;
    }
    if (!m->hist && !(m->hist = malloc((size_t)(NOISE_BINS + 4) * HIST_SIZE * sizeof *m->hist)))
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory");
    m->width = w;
    m->height = h;
    m->vstep = vs;
    memset(m->hist, 0, (size_t)(NOISE_BINS + 4) * HIST_SIZE * sizeof *m->hist);
    if (w < 5 || h < 2 * vs + 1) {
        memset(m->stripe, 0, n * sizeof *m->stripe);
        for (size_t i = 0; i < n; i++)
            m->zh[i] = m->zv[i] = RAWFIX_NO_Z;
        return MP_OK;
    }
    rawfix_row row = {.w = w, .white = f->white > INT32_MAX ? INT32_MAX : (int32_t)f->white,
                      .black = (int32_t)f->black};
    if (row_alloc(&row, w))
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory");
    const rawfix_dsp *dsp = mp_rawfix_dsp_for(mp_cpu_level_get());

    /* Noise: the differences of each row class and brightness bin into its histogram; the
     * row class's overall histogram and the counts are sums of those. */
    for (uint32_t y = vs; y < h - vs; y++) {
        row_at(&row, f, y, vs);
        dsp->diffs(&row);
        uint32_t *hist = m->hist + (size_t)(y % 4) * LEVEL_BINS * HIST_SIZE;
        for (uint32_t x = 2; x < w - 2; x++)
            if (row.ok[x]) {
                hist_add(hist + (size_t)row.bin_h[x] * HIST_SIZE, row.dh2[x]);
                hist_add(hist + (size_t)row.bin_v[x] * HIST_SIZE, row.dv2[x]);
            }
    }
    double sigma[NOISE_BINS];
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
            sigma[r * LEVEL_BINS + b] = count[b] >= MIN_BIN_COUNT ?
                hist_sigma(m->hist + (size_t)(r * LEVEL_BINS + b) * HIST_SIZE, count[b]) :
                overall;
    }

    for (uint32_t y = 0; y < h; y++) {
        row.zh = m->zh + (size_t)y * w;
        row.zv = m->zv + (size_t)y * w;
        row.stripe = m->stripe + (size_t)y * w;
        if (y < vs || y >= h - vs) {
            for (uint32_t x = 0; x < w; x++)
                row.zh[x] = row.zv[x] = RAWFIX_NO_Z;
            memset(row.stripe, 0, w * sizeof *row.stripe);
            continue;
        }
        row_at(&row, f, y, vs);
        dsp->diffs(&row);
        dsp->texture(&row);
        row.sigma = sigma + (y % 4) * LEVEL_BINS;
        dsp->z(&row);
        for (uint32_t x = 2; x < w - 2; x++)
            if (!row.ok[x])
                row.zh[x] = row.zv[x] = beyond_clipping(&row, x);
    }
    free(row.dh2);
    return MP_OK;
}

void mp_rawfix_measurement_free(rawfix_measurement *m)
{
    free(m->zh);
    free(m->zv);
    free(m->stripe);
    free(m->hist);
    memset(m, 0, sizeof *m);
}
