/* rawfix_accum: per-sample sums over the measured frames (rawfix.h). Integer sums only, so
 * the map does not depend on the order the frames were added in. */
#include <stdlib.h>
#include <string.h>

#include "common/mp_big.h"
#include "rawfix_accum.h"

/* The means sum deviations of at most Z_SUM_CLAMP: a sample next to a moving edge is far
 * off in a few frames, which must not outweigh the others; a defect that is far off in
 * most frames is found by its count of big deviations. */
static int clamp_z(int z)
{
    z = z < Z_SUM_CLAMP ? z : Z_SUM_CLAMP;
    return z > -Z_SUM_CLAMP ? z : -Z_SUM_CLAMP;
}

rawfix_accum *mp_rawfix_accum_new(uint32_t width, uint32_t height)
{
    size_t n = (size_t)width * height;
    if (!n || width > MP_FRAME_MAX_DIM || height > MP_FRAME_MAX_DIM || n > MP_FRAME_MAX_PIXELS)
        return NULL;
    rawfix_accum *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->width = width;
    a->height = height;
    a->sum = mp_big_calloc(n * sizeof *a->sum);
    a->counts = mp_big_calloc(n * sizeof *a->counts);
    a->stripe = mp_big_calloc(n * sizeof *a->stripe);
    a->zh_sum = mp_big_calloc(n * sizeof *a->zh_sum);
    a->zh_sq = mp_big_calloc(n * sizeof *a->zh_sq);
    if (!a->sum || !a->counts || !a->stripe || !a->zh_sum || !a->zh_sq) {
        mp_rawfix_accum_free(a);
        return NULL;
    }
    return a;
}

void mp_rawfix_accum_free(rawfix_accum *a)
{
    if (!a)
        return;
    free(a->sum);
    free(a->counts);
    free(a->stripe);
    free(a->zh_sum);
    free(a->zh_sq);
    free(a);
}

mp_status mp_rawfix_accum_add(rawfix_accum *a, const rawfix_measurement *m, uint32_t sample,
                           mp_error *err)
{
    if (m->width != a->width || m->height != a->height)
        return mp_error_set(err, MP_ERR_ARG, "rawfix: a %ux%u frame among %ux%u ones",
                            m->width, m->height, a->width, a->height);
    if (a->vstep && m->vstep != a->vstep)
        return mp_error_set(err, MP_ERR_ARG, "rawfix: dual-ISO and single-ISO measurements mixed");
    if (sample >= RAWFIX_MAX_FRAMES || a->added & (1ull << sample))
        return mp_error_set(err, MP_ERR_ARG, "rawfix: sample %u out of range or repeated",
                            sample);
    a->added |= 1ull << sample;
    a->vstep = m->vstep;
    a->frames++;
    const size_t n = (size_t)a->width * a->height;
    /* Branch-free over restrict pointers, so the compiler vectorises it: a sample without a
     * measurement adds zeros. */
    int32_t (*restrict sum)[2] = a->sum, (*restrict stripe)[2] = a->stripe;
    uint8_t (*restrict counts)[COUNTS] = a->counts;
    int32_t *restrict zh_sum = a->zh_sum;
    uint32_t *restrict zh_sq = a->zh_sq;
    const int16_t *restrict zhs = m->zh, *restrict zvs = m->zv;
    const int32_t (*restrict ms)[2] = (const int32_t (*)[2])m->stripe;
    for (size_t i = 0; i < n; i++) {
        stripe[i][0] += ms[i][0];
        stripe[i][1] += ms[i][1];
        int zh = zhs[i], zv = zvs[i];
        int low = zh == RAWFIX_CLIPPED_LOW, high = zh == RAWFIX_CLIPPED_HIGH;
        int used = (zh != RAWFIX_NO_Z) & !low & !high;
        sum[i][0] += clamp_z(zh) & -used;
        sum[i][1] += clamp_z(zv) & -used;
        zh_sum[i] += zh & -used;
        zh_sq[i] += (uint32_t)(zh * zh) & (uint32_t)-used;
        counts[i][COUNT_USED] += used;
        counts[i][COUNT_POS] += used & (zh > 0) & (zv > 0);
        counts[i][COUNT_NEG] += used & (zh < 0) & (zv < 0);
        counts[i][COUNT_BIG] += used & (((zh >= Z_BIG) & (zv >= Z_BIG)) |
                                        ((zh <= -Z_BIG) & (zv <= -Z_BIG)));
        counts[i][COUNT_CLIPPED_LOW] += low;
        counts[i][COUNT_CLIPPED_HIGH] += high;
    }
    return MP_OK;
}
