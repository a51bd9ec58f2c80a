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

/* One row's samples [x0, x1) of one cell, in branch-free loops over local sums (exact
 * integers, so the order of the additions does not matter) that the compiler vectorises. */
typedef struct cell_row {
    const uint16_t *row, *up, *dn;      /* up, dn: NULL where the row has no pair rows */
    uint32_t w;
    int32_t black, white;
    int bright;
} cell_row;

static void noise_row(const cell_row *c, uint32_t x0, uint32_t x1, noise_acc *na)
{
    const uint16_t *restrict row = c->row;
    const int32_t black = c->black, white = c->white;
    size_t lo = x0 > 2 ? x0 : 2, hi = x1 + 2 < c->w ? x1 : (c->w > 2 ? c->w - 2 : 0);
    /* int32 sums as in pair_row; the squares (< 2^35) in a uint64 sum of 32 x 32-bit
     * products. The tests are masks (ok: all ones or 0), not selects: GCC 12 vectorises
     * the loop only so. */
    int32_t n = 0, level2 = 0;
    uint64_t diff2 = 0;
    for (size_t x = lo; x < hi; x++) {
        int32_t v = row[x], l = row[x - 2], r = row[x + 2];
        int32_t ok = -((v < white) & (l < white) & (r < white));
        int32_t d = (2 * v - l - r) & ok;
        uint32_t ad = (uint32_t)(d < 0 ? -d : d);
        n -= ok;
        level2 += (2 * (v - black)) & ok;
        diff2 += (uint64_t)ad * ad;
    }
    na->n += n;
    na->sum_level2 += level2;
    na->sum_diff2 += diff2;
}

/* The matched pairs of the samples x0, x0 + 2, ... < x1 (one colour): each sample with the
 * mean of the other field's samples two rows above and below. The loop sums the row's own
 * samples and the pairs' (and their largest values) as they are; which field each is and
 * the black offsets are applied to the sums after it (exact integers: the same sums). bright
 * is a constant where this is inlined, so each field gets a loop without the choice. */
static inline __attribute__((always_inline)) void
pair_sums(const cell_row *c, const int bright, size_t x0, size_t x1, pair_acc *pa)
{
    const uint16_t *restrict row = c->row, *restrict up = c->up, *restrict dn = c->dn;
    const int32_t white = c->white;
    /* int32 sums: a cell row holds at most MP_FRAME_MAX_DIM / DUALISO_CELLS_X + 1 = 684
     * samples, each term below 2^17; ok is a mask, all ones or 0 (GCC 12 vectorises the
     * loop so) */
    int32_t n = 0, own = 0, other = 0, step = 0, max_own = 0, max_other = 0;
    for (size_t x = x0; x < x1; x += 2) {
        int32_t v = row[x], a = up[x], b = dn[x];
        int32_t ok = -((v < white) & (a < white) & (b < white));
        int32_t mo = ok & v, mt = ok & (a > b ? a : b);
        n -= ok;
        own += mo;
        other += ok & (a + b);
        if (!bright)
            step += ok & (a - b);
        max_own = mo > max_own ? mo : max_own;
        max_other = mt > max_other ? mt : max_other;
    }
    /* twice the values above black: 2 (v - black) and a + b - 2 black per pair */
    const int32_t own2 = 2 * own - 2 * c->black * n, other2 = other - 2 * c->black * n;
    const int32_t max_dark = bright ? max_other : max_own;
    const int32_t max_bright = bright ? max_own : max_other;
    pa->n += n;
    pa->sum_dark2 += bright ? other2 : own2;
    pa->sum_bright2 += bright ? own2 : other2;
    pa->sum_step += step;
    pa->max_dark = (uint16_t)(max_dark > pa->max_dark ? max_dark : pa->max_dark);
    pa->max_bright = (uint16_t)(max_bright > pa->max_bright ? max_bright : pa->max_bright);
}

static void pair_row(const cell_row *c, size_t x0, size_t x1, pair_acc *pa)
{
    if (c->bright)
        pair_sums(c, 1, x0, x1, pa);
    else
        pair_sums(c, 0, x0, x1, pa);
}

/* The row's largest sample and how often it occurs. */
static void row_max(const uint16_t *restrict row, uint32_t w, uint16_t *max, uint64_t *count)
{
    uint16_t m = 0;
    for (uint32_t x = 0; x < w; x++)
        m = row[x] > m ? row[x] : m;
    uint32_t k = 0;
    for (uint32_t x = 0; x < w; x++)
        k += row[x] == m;
    *max = m;
    *count = k;
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
    const int32_t white = (uint16_t)f->white;
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

        uint16_t m;
        uint64_t k;
        row_max(row, w, &m, &k);
        if (m > fmax[bright]) {
            fmax[bright] = m;
            fcount[bright] = 0;
        }
        fcount[bright] += m == fmax[bright] ? k : 0;
        const cell_row cr = {row, up, dn, w, (int32_t)black, white, bright};
        for (uint32_t cx = 0; cx < DUALISO_CELLS_X; cx++) {
            uint32_t x0 = (uint32_t)(((uint64_t)cx * w + DUALISO_CELLS_X - 1) / DUALISO_CELLS_X);
            uint32_t x1 = (uint32_t)(((uint64_t)(cx + 1) * w + DUALISO_CELLS_X - 1) /
                                     DUALISO_CELLS_X);
            uint32_t cell = cy * DUALISO_CELLS_X + cx;
            noise_row(&cr, x0, x1, &acc->noise[bright][cell]);
            if (have_pair)
                for (uint32_t par = 0; par < 2; par++)
                    pair_row(&cr, x0 + ((x0 & 1) != par), x1,
                             &acc->pairs[cell][color[par]]);
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
