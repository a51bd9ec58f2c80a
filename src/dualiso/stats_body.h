/* The statistics' pixel loops (stats.c says what they sum, dualiso/dsp.h declares them),
 * plain C that each SIMD level's build vectorises with its own instructions
 * (x86/stats_*.c, arm/stats_neon.c; the C level is stats.c's): integer sums, exact whatever the lanes, so every level gives the same
 * sums, which tests/checkasm holds them to. With AVX2 the frame takes half the
 * instructions of SSE2 (session 17: 331 M -> 159 M on four 1080p frames, wider lanes and
 * the unsigned 16-bit and signed 32-bit min/max SSE2 lacks). */
#ifndef MP_DUALISO_STATS_BODY_H
#define MP_DUALISO_STATS_BODY_H

#include "dualiso/dsp.h"
#include "dualiso_priv.h"

/* One row's samples [x0, x1) of one cell, in branch-free loops over local sums (exact
 * integers, so the order of the additions does not matter) that the compiler vectorises. */
typedef struct cell_row {
    const uint16_t *row, *up, *dn;      /* up, dn: NULL where the row has no pair rows */
    uint32_t w;
    int32_t black, white;
    int bright;
} cell_row;

static inline void noise_row(const cell_row *c, uint32_t x0, uint32_t x1,
                             dualiso_noise_acc *na)
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
pair_sums(const cell_row *c, const int bright, size_t x0, size_t x1,
          dualiso_pair_acc *pa)
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

static inline void pair_row(const cell_row *c, size_t x0, size_t x1,
                            dualiso_pair_acc *pa)
{
    if (c->bright)
        pair_sums(c, 1, x0, x1, pa);
    else
        pair_sums(c, 0, x0, x1, pa);
}

/* The row's largest sample and how often it occurs. */
static inline void row_max(const uint16_t *restrict row, uint32_t w, uint16_t *max, uint64_t *count)
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

static inline void dualiso_stats_frame(const mp_frame *f, uint32_t phase,
                                       dualiso_stats_acc *acc)
{
    const uint32_t w = f->width, h = f->height;
    const int64_t black = f->black;
    const int32_t white = (uint16_t)f->white;
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
        if (m > acc->field_max[bright]) {
            acc->field_max[bright] = m;
            acc->field_max_count[bright] = 0;
        }
        acc->field_max_count[bright] += m == acc->field_max[bright] ? k : 0;
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
}

/* The definitions, one line in each level's file. */
#define DUALISO_STATS_DEFINE(level)                                                      \
    void mp_dualiso_stats_frame_##level(const mp_frame *f, uint32_t phase,               \
                                        dualiso_stats_acc *acc)                          \
    {                                                                                    \
        dualiso_stats_frame(f, phase, acc);                                              \
    }

#endif
