/* Per-frame statistics: matched field pairs and photon-transfer data per grid cell, plus
 * the top of each field's histogram. Plain sums (exact integers while collecting), so
 * frames merge by addition and the pooled fit sees every cell of every frame. */
#include <stdlib.h>
#include <string.h>

#include "stats_body.h"

DUALISO_STATS_DEFINE(c)

dualiso_stats_fn mp_dualiso_stats_frame_for(mp_cpu_level level)
{
    static const dualiso_stats_fn levels[MP_CPU_LEVELS] = {
        [MP_CPU_C] = mp_dualiso_stats_frame_c,
#if defined(__x86_64__)
        [MP_CPU_SSE2] = mp_dualiso_stats_frame_sse2,
        [MP_CPU_AVX2] = mp_dualiso_stats_frame_avx2,
#elif defined(__aarch64__)
        [MP_CPU_NEON] = mp_dualiso_stats_frame_neon,
#endif
    };
    int l = (int)level < MP_CPU_LEVELS ? (int)level : MP_CPU_LEVELS - 1;
    while (l > 0 && (!levels[l] || !mp_cpu_has((mp_cpu_level)l)))
        l--;
    return levels[l < 0 ? 0 : l];
}

mp_status mp_dualiso_stats_collect(const mp_frame *f, uint32_t phase, dualiso_stats *st,
                                mp_error *err)
{
    mp_status s = mp_dualiso_check_frame(f, err);
    if (s != MP_OK)
        return s;
    if (phase > 3)
        return mp_error_set(err, MP_ERR_ARG, "dualiso: row phase %u out of range", phase);
    dualiso_stats_acc *acc = calloc(1, sizeof *acc);
    if (!acc)
        return mp_error_set(err, MP_ERR_NOMEM, "dualiso: cannot allocate statistics");

    mp_dualiso_stats_frame_for(mp_cpu_level_get())(f, phase, acc);

    memset(st, 0, sizeof *st);
    st->frames = 1;
    st->bits = f->bits;
    st->black = f->black;
    st->white = f->white;
    st->phase = phase;
    st->phase_votes[phase] = 1;
    for (int i = 0; i < DUALISO_CELLS; i++) {
        for (int c = 0; c < 3; c++) {
            const dualiso_pair_acc *p = &acc->pairs[i][c];
            dualiso_pair_cell *o = &st->pairs[i][c];
            o->n = (double)p->n;
            o->sum_dark = p->sum_dark2 / 2.0;
            o->sum_bright = p->sum_bright2 / 2.0;
            o->sum_step = (double)p->sum_step;
            o->max_dark = p->max_dark;
            o->max_bright = p->max_bright;
        }
        for (int fld = 0; fld < 2; fld++) {
            const dualiso_noise_acc *p = &acc->noise[fld][i];
            dualiso_noise_cell *o = &st->noise[fld][i];
            o->n = (double)p->n;
            o->sum_level = p->sum_level2 / 2.0;
            o->sum_diff2 = (double)p->sum_diff2;
        }
    }
    for (int fld = 0; fld < 2; fld++) {
        st->field_max[fld] = acc->field_max[fld];
        st->field_max_count[fld] = acc->field_max_count[fld];
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
