/* rawfix_accum: per-sample sums over the measured frames (rawfix.h). Integer sums only, so
 * the map does not depend on the order the frames were added in. */
#include <stdlib.h>
#include <string.h>

#include "rawfix_accum.h"

/* The means sum deviations of at most Z_SUM_CLAMP: a sample next to a moving edge is far
 * off in a few frames, which must not outweigh the others; a defect that is far off in
 * most frames is found by its count of big deviations. */
static int clamp_z(int z)
{
    return z > Z_SUM_CLAMP ? Z_SUM_CLAMP : z < -Z_SUM_CLAMP ? -Z_SUM_CLAMP : z;
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
    a->sum = calloc(n, sizeof *a->sum);
    a->counts = calloc(n, sizeof *a->counts);
    a->stripe = calloc(n, sizeof *a->stripe);
    a->zh_sum = calloc(n, sizeof *a->zh_sum);
    a->zh_sq = calloc(n, sizeof *a->zh_sq);
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
    if (sample >= RAWFIX_MAX_FRAMES || a->added & (1ull << sample))
        return mp_error_set(err, MP_ERR_ARG, "rawfix: sample %u out of range or repeated",
                            sample);
    a->added |= 1ull << sample;
    a->frames++;
    const size_t n = (size_t)a->width * a->height;
    for (size_t i = 0; i < n; i++) {
        a->stripe[i][0] += m->stripe[i][0];
        a->stripe[i][1] += m->stripe[i][1];
        int zh = m->zh[i], zv = m->zv[i];
        if (zh == RAWFIX_NO_Z)
            continue;
        if (zh == RAWFIX_CLIPPED_LOW || zh == RAWFIX_CLIPPED_HIGH) {
            a->counts[i][zh == RAWFIX_CLIPPED_LOW ? COUNT_CLIPPED_LOW : COUNT_CLIPPED_HIGH]++;
            continue;
        }
        a->sum[i][0] += clamp_z(zh);
        a->zh_sum[i] += zh;
        a->zh_sq[i] += (uint32_t)(zh * zh);
        a->sum[i][1] += clamp_z(zv);
        uint8_t *c = a->counts[i];
        c[COUNT_USED]++;
        c[COUNT_POS] += zh > 0 && zv > 0;
        c[COUNT_NEG] += zh < 0 && zv < 0;
        c[COUNT_BIG] += (zh >= Z_BIG && zv >= Z_BIG) || (zh <= -Z_BIG && zv <= -Z_BIG);
    }
    return MP_OK;
}
