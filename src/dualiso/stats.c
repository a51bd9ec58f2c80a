/* Per-frame statistics: matched field pairs and photon-transfer data per grid cell, plus
 * the top of each field's histogram. Plain sums (exact integers while collecting), so
 * frames merge by addition and the pooled fit sees every cell of every frame. */
#include <stdlib.h>
#include <string.h>

#include "dualiso_priv.h"

typedef struct pair_acc {
    int64_t n, sum_dark2, sum_bright2; /* sums of 2x the values, so the mean of two is exact */
    int64_t sum_step;
    uint16_t max_dark, max_bright;
} pair_acc;

typedef struct noise_acc {
    int64_t n, sum_level2;
    uint64_t sum_diff2;
} noise_acc;

typedef struct stats_acc {
    pair_acc pairs[DUALISO_CELLS][3];
    noise_acc noise[2][DUALISO_CELLS];
} stats_acc;

static void add_pair(pair_acc *p, int64_t dark2, int64_t bright2, int64_t step,
                     uint16_t raw_dark, uint16_t raw_bright)
{
    p->n++;
    p->sum_step += step;
    p->sum_dark2 += dark2;
    p->sum_bright2 += bright2;
    if (raw_dark > p->max_dark)
        p->max_dark = raw_dark;
    if (raw_bright > p->max_bright)
        p->max_bright = raw_bright;
}

mp_status mp_dualiso_stats_collect(const mp_frame *f, uint32_t phase, dualiso_stats *st,
                                mp_error *err)
{
    mp_status s = mp_dualiso_check_frame(f, err);
    if (s != MP_OK)
        return s;
    if (phase > 3)
        return mp_error_set(err, MP_ERR_ARG, "dualiso: row phase %u out of range", phase);
    stats_acc *acc = calloc(1, sizeof *acc);
    if (!acc)
        return mp_error_set(err, MP_ERR_NOMEM, "dualiso: cannot allocate statistics");

    const uint32_t w = f->width, h = f->height;
    const int64_t black = f->black;
    const uint16_t white = (uint16_t)f->white;
    uint16_t fmax[2] = {0, 0};
    uint64_t fcount[2] = {0, 0};

    for (uint32_t y = 0; y < h; y++) {
        const uint16_t *row = f->data + (size_t)y * w;
        int bright = dualiso_row_is_bright(y, phase);
        uint32_t cy = (uint32_t)((uint64_t)y * DUALISO_CELLS_Y / h);
        int have_pair = y >= 2 && y + 2 < h;
        const uint16_t *up = have_pair ? row - 2 * (size_t)w : NULL;
        const uint16_t *dn = have_pair ? row + 2 * (size_t)w : NULL;
        int color[2] = {dualiso_cfa_color(f->cfa, 0, y), dualiso_cfa_color(f->cfa, 1, y)};

        for (uint32_t x = 0; x < w; x++) {
            uint16_t v = row[x];
            if (v > fmax[bright]) {
                fmax[bright] = v;
                fcount[bright] = 0;
            }
            fcount[bright] += v == fmax[bright];
        }
        for (uint32_t cx = 0; cx < DUALISO_CELLS_X; cx++) {
            uint32_t x0 = (uint32_t)(((uint64_t)cx * w + DUALISO_CELLS_X - 1) / DUALISO_CELLS_X);
            uint32_t x1 = (uint32_t)(((uint64_t)(cx + 1) * w + DUALISO_CELLS_X - 1) /
                                     DUALISO_CELLS_X);
            uint32_t cell = cy * DUALISO_CELLS_X + cx;
            noise_acc *na = &acc->noise[bright][cell];
            for (uint32_t x = x0; x < x1; x++) {
                uint16_t v = row[x];
                if (x >= 2 && x + 2 < w && v < white && row[x - 2] < white &&
                    row[x + 2] < white) {
                    int64_t d = 2 * (int64_t)v - row[x - 2] - row[x + 2];
                    na->n++;
                    na->sum_level2 += 2 * ((int64_t)v - black);
                    na->sum_diff2 += (uint64_t)(d * d);
                }
                if (!have_pair || v >= white || up[x] >= white || dn[x] >= white)
                    continue;
                int64_t own2 = 2 * ((int64_t)v - black);
                int64_t other2 = (int64_t)up[x] + dn[x] - 2 * black;
                uint16_t other_max = up[x] > dn[x] ? up[x] : dn[x];
                pair_acc *pa = &acc->pairs[cell][color[x & 1]];
                if (bright)
                    add_pair(pa, other2, own2, 0, other_max, v);
                else
                    add_pair(pa, own2, other2, (int64_t)up[x] - dn[x], v, other_max);
            }
        }
    }

    memset(st, 0, sizeof *st);
    st->frames = 1;
    st->bits = f->bits;
    st->black = f->black;
    st->white = f->white;
    st->phase = phase;
    st->phase_votes[phase] = 1;
    for (int i = 0; i < DUALISO_CELLS; i++) {
        for (int c = 0; c < 3; c++) {
            const pair_acc *p = &acc->pairs[i][c];
            dualiso_pair_cell *o = &st->pairs[i][c];
            o->n = (double)p->n;
            o->sum_dark = p->sum_dark2 / 2.0;
            o->sum_bright = p->sum_bright2 / 2.0;
            o->sum_step = (double)p->sum_step;
            o->max_dark = p->max_dark;
            o->max_bright = p->max_bright;
        }
        for (int fld = 0; fld < 2; fld++) {
            const noise_acc *p = &acc->noise[fld][i];
            dualiso_noise_cell *o = &st->noise[fld][i];
            o->n = (double)p->n;
            o->sum_level = p->sum_level2 / 2.0;
            o->sum_diff2 = (double)p->sum_diff2;
        }
    }
    for (int fld = 0; fld < 2; fld++) {
        st->field_max[fld] = fmax[fld];
        st->field_max_count[fld] = fcount[fld];
    }
    free(acc);
    return MP_OK;
}

mp_status mp_dualiso_stats_merge(dualiso_stats *acc, const dualiso_stats *add, mp_error *err)
{
    if (add->frames == 0)
        return MP_OK;
    if (acc->frames == 0) {
        *acc = *add;
        return MP_OK;
    }
    if (acc->bits != add->bits || acc->black != add->black || acc->white != add->white)
        return mp_error_set(err, MP_ERR_ARG,
                            "dualiso: statistics of different levels cannot merge "
                            "(%u bits %u/%u vs %u bits %u/%u)", acc->bits, acc->black,
                            acc->white, add->bits, add->black, add->white);
    if (acc->phase != add->phase)
        return mp_error_set(err, MP_ERR_ARG,
                            "dualiso: statistics of row phases %u and %u cannot merge",
                            acc->phase, add->phase);
    acc->frames += add->frames;
    for (int p = 0; p < 4; p++)
        acc->phase_votes[p] += add->phase_votes[p];
    for (int i = 0; i < DUALISO_CELLS; i++) {
        for (int c = 0; c < 3; c++) {
            dualiso_pair_cell *a = &acc->pairs[i][c];
            const dualiso_pair_cell *b = &add->pairs[i][c];
            a->n += b->n;
            a->sum_dark += b->sum_dark;
            a->sum_bright += b->sum_bright;
            a->sum_step += b->sum_step;
            if (b->max_dark > a->max_dark)
                a->max_dark = b->max_dark;
            if (b->max_bright > a->max_bright)
                a->max_bright = b->max_bright;
        }
        for (int fld = 0; fld < 2; fld++) {
            dualiso_noise_cell *a = &acc->noise[fld][i];
            const dualiso_noise_cell *b = &add->noise[fld][i];
            a->n += b->n;
            a->sum_level += b->sum_level;
            a->sum_diff2 += b->sum_diff2;
        }
    }
    for (int fld = 0; fld < 2; fld++) {
        if (add->field_max[fld] > acc->field_max[fld]) {
            acc->field_max[fld] = add->field_max[fld];
            acc->field_max_count[fld] = add->field_max_count[fld];
        } else if (add->field_max[fld] == acc->field_max[fld]) {
            acc->field_max_count[fld] += add->field_max_count[fld];
        }
    }
    return MP_OK;
}
