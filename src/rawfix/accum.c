/* rawfix_accum: per-sample sums over the measured frames (rawfix.h). Integer sums only, so
 * the map does not depend on the order the frames were added in. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/mp_big.h"
#include "common/mp_cpu.h"
#include "rawfix_accum.h"

/* Frames where a sample was only judged beyond clipping: few, so a row without any adds
 * nothing here (the scan reads, the adding writes). */
static void add_clipped(size_t n, const int16_t *restrict zh, uint8_t *restrict low_n,
                        uint8_t *restrict high_n)
{
    int any = 0;
    for (size_t i = 0; i < n; i++)
        any |= (zh[i] == RAWFIX_CLIPPED_LOW) | (zh[i] == RAWFIX_CLIPPED_HIGH);
    for (size_t i = 0; any && i < n; i++) {
        low_n[i] += zh[i] == RAWFIX_CLIPPED_LOW;
        high_n[i] += zh[i] == RAWFIX_CLIPPED_HIGH;
    }
}

/* The per-sample arrays, each made (and its pages faulted in, mp_big_calloc) by a part of
 * mp_rawfix_parallel: most of a new accumulator's time. */
enum { ARRAY_SUM_H, ARRAY_COUNT, ARRAY_STRIPE, ARRAY_ZH_SUM, ARRAY_ZH_SQ, ARRAY_LO,
       ARRAY_VALUE_SUM, ARRAY_VALUE_SQ, ARRAY_VALUE_LIGHT, ARRAYS };

typedef struct arrays_job {
    size_t n;
    void *array[ARRAYS];
} arrays_job;

static void array_part(void *ctx, uint32_t k)
{
    arrays_job *j = ctx;
    const size_t n = j->n;
    static const size_t bytes[ARRAYS] = {
        [ARRAY_SUM_H] = 2 * sizeof(int16_t), [ARRAY_COUNT] = COUNTS,
        [ARRAY_STRIPE] = sizeof(int32_t[2]), [ARRAY_ZH_SUM] = sizeof(int32_t),
        [ARRAY_ZH_SQ] = sizeof(uint32_t), [ARRAY_LO] = 2 * sizeof(uint16_t),
        [ARRAY_VALUE_SUM] = sizeof(uint32_t), [ARRAY_VALUE_SQ] = sizeof(uint64_t),
        [ARRAY_VALUE_LIGHT] = sizeof(uint64_t)};
    j->array[k] = mp_big_calloc(n * bytes[k]);
    uint16_t *lo = j->array[k];
    for (size_t i = 0; k == ARRAY_LO && lo && i < n; i++)
        lo[i] = UINT16_MAX;
}

rawfix_accum *mp_rawfix_accum_new(uint32_t width, uint32_t height)
{
    return mp_rawfix_accum_new_with(width, height, NULL);
}

rawfix_accum *mp_rawfix_accum_new_with(uint32_t width, uint32_t height,
                                       const rawfix_runner *runner)
{
    size_t n = (size_t)width * height;
    if (!n || width > MP_FRAME_MAX_DIM || height > MP_FRAME_MAX_DIM || n > MP_FRAME_MAX_PIXELS)
        return NULL;
    rawfix_accum *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->width = width;
    a->height = height;
    mp_rawfix_accum_runner(a, runner);
    arrays_job j = {.n = n};
    mp_rawfix_parallel(&a->runner, ARRAYS, array_part, &j);
    a->sum_h = j.array[ARRAY_SUM_H];
    a->count[0] = j.array[ARRAY_COUNT];
    a->stripe = j.array[ARRAY_STRIPE];
    a->zh_sum = j.array[ARRAY_ZH_SUM];
    a->zh_sq = j.array[ARRAY_ZH_SQ];
    a->lo = j.array[ARRAY_LO];
    a->value_sum = j.array[ARRAY_VALUE_SUM];
    a->value_sq = j.array[ARRAY_VALUE_SQ];
    a->value_light = j.array[ARRAY_VALUE_LIGHT];
    a->blocks_x = width / RAWFIX_BLOCK;
    a->blocks_y = height / RAWFIX_BLOCK;
    a->blocks = calloc((size_t)a->blocks_x * a->blocks_y * RAWFIX_BLOCK_SUMS * RAWFIX_MAX_FRAMES + 1,
                       sizeof *a->blocks);
    if (!a->sum_h || !a->count[0] || !a->stripe || !a->zh_sum || !a->zh_sq || !a->lo ||
        !a->value_sum || !a->value_sq || !a->value_light || !a->blocks) {
        mp_rawfix_accum_free(a);
        return NULL;
    }
    a->sum_v = a->sum_h + n;
    for (int k = 1; k < COUNTS; k++)
        a->count[k] = a->count[0] + k * n;
    a->hi = a->lo + n;
    for (int k = 0; k < 4 * RAWFIX_LEVEL_BINS; k++)
        a->sample_sigma[k] = INFINITY;
    a->white = INT32_MAX;
    a->black = INT32_MAX;
    return a;
}

void mp_rawfix_accum_runner(rawfix_accum *a, const rawfix_runner *runner)
{
    a->runner = runner ? *runner : (rawfix_runner){0};
}

void mp_rawfix_accum_free(rawfix_accum *a)
{
    if (!a)
        return;
    free(a->sum_h);
    free(a->count[0]);
    free(a->stripe);
    free(a->zh_sum);
    free(a->zh_sq);
    free(a->lo);
    free(a->value_sum);
    free(a->value_sq);
    free(a->value_light);
    free(a->blocks);
    free(a);
}

mp_status mp_rawfix_accum_claim(rawfix_accum *a, const rawfix_measurement *m, uint32_t sample,
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
    a->signature[sample] = m->signature;
    /* a measurement without block sums (none of this size) shows no motion */
    const size_t blocks = (size_t)a->blocks_x * a->blocks_y * RAWFIX_BLOCK_SUMS;
    uint32_t *dst = a->blocks + sample * blocks;
    if (m->blocks && m->block_count >= blocks)
        memcpy(dst, m->blocks, blocks * sizeof *dst);
    else
        for (size_t i = 0; i < blocks; i++)
            dst[i] = RAWFIX_BLOCK_CLIPPED;
    if (!m->measurable)
        return MP_OK;
    /* d2 / 2 of a sample and its two neighbours has sqrt(1.5) times a sample's sigma */
    for (int k = 0; k < 4 * RAWFIX_LEVEL_BINS; k++) {
        double s = m->sigma[k] / sqrt(1.5);
        a->sample_sigma[k] = s < a->sample_sigma[k] ? s : a->sample_sigma[k];
    }
    a->white = m->white < a->white ? m->white : a->white;
    a->black = m->black < a->black ? m->black : a->black;
    return MP_OK;
}

/* The means sum deviations of at most Z_SUM_CLAMP (the kernel's): a sample next to a moving
 * edge is far off in a few frames, which must not outweigh the others; a defect that is far
 * off in most frames is found by its count of big deviations. */
void mp_rawfix_accum_add_row(rawfix_accum *a, uint32_t y, const uint16_t *values,
                             const int16_t *zh, const int16_t *zv, const int32_t (*stripe)[2],
                             const uint32_t *light)
{
    const size_t i = (size_t)y * a->width, n = a->width;
    uint8_t *const *c = a->count;
    const rawfix_sums s = {
        .n = n, .values = values, .zh = zh, .zv = zv, .stripe = stripe, .lo = a->lo + i,
        .hi = a->hi + i, .stripe_sum = a->stripe + i, .sum_h = a->sum_h + i,
        .sum_v = a->sum_v + i, .zh_sum = a->zh_sum + i, .zh_sq = a->zh_sq + i,
        .value_sum = a->value_sum + i, .value_sq = a->value_sq + i,
        .used = c[COUNT_USED] + i, .pos = c[COUNT_POS] + i, .neg = c[COUNT_NEG] + i,
        .big = c[COUNT_BIG] + i, .light = light, .value_light = a->value_light + i};
    mp_rawfix_dsp_for(mp_cpu_level_get())->sums(&s);
    add_clipped(n, zh, c[COUNT_CLIPPED_LOW] + i, c[COUNT_CLIPPED_HIGH] + i);
}

/* The light around each sample of row y in this frame (mp_rawfix_light; 0 where that is
 * clipped: map_quiet.c tests no sample there), for the sums' value_light (the row kernel
 * multiplies, 4 or 8 lanes, where a loop per block of 16 did not vectorise). Columns right of
 * the last whole block take its light, rows below the last whole block row that of the last
 * row. */
static void row_light(const rawfix_accum *a, const rawfix_measurement *m, uint32_t y,
                      uint32_t *restrict out)
{
    const uint32_t bx = a->blocks_x, by = a->blocks_y;
    const uint32_t k = y / RAWFIX_BLOCK < by ? y / RAWFIX_BLOCK : by - 1;
    const uint32_t *lights = m->light + (size_t)k * bx * RAWFIX_BLOCK_SUMS + y % RAWFIX_BLOCK_SUMS;
    for (uint32_t j = 0; j < bx; j++) {
        uint32_t light = lights[(size_t)j * RAWFIX_BLOCK_SUMS];
        light = light == RAWFIX_BLOCK_CLIPPED ? 0 : light;
        const uint32_t end = j + 1 < bx ? (j + 1) * RAWFIX_BLOCK : a->width;
        for (uint32_t x = j * RAWFIX_BLOCK; x < end; x++)
            out[x] = light;
    }
}

/* The light around each block of block rows [k0, k1] per row class (mp_rawfix_light), made
 * once for the rows of those blocks instead of once per row. */
static void block_lights(rawfix_measurement *m, uint32_t bx, uint32_t by, uint32_t k0,
                         uint32_t k1)
{
    for (uint32_t k = k0; k <= k1 && k < by; k++)
        for (uint32_t j = 0; j < bx; j++)
            for (uint32_t r = 0; r < RAWFIX_BLOCK_SUMS; r++)
                m->light[((size_t)k * bx + j) * RAWFIX_BLOCK_SUMS + r] =
                    mp_rawfix_light(m->blocks, bx, by, j, k, r);
}

/* Each row is measured and added at once, so its deviations stay in the cache. Rows outside
 * [vstep, height - vstep) have no measurement (RAWFIX_NO_Z, no stripe sums), which adds only
 * zeros: they are skipped. */
void mp_rawfix_accum_rows(rawfix_accum *a, rawfix_measurement *m, const mp_frame *f,
                          uint32_t y0, uint32_t y1)
{
    if (!m->measurable)
        return;
    const uint32_t vs = m->vstep;
    y0 = y0 > vs ? y0 : vs;
    y1 = y1 < a->height - vs ? y1 : a->height - vs;
    const uint32_t bx = a->blocks_x, by = a->blocks_y;
    const int lit = bx && by && m->blocks && m->light &&
                    m->block_count >= (size_t)bx * by * RAWFIX_BLOCK_SUMS;
    if (lit && y0 < y1)   /* rows below the last whole block row take its light */
        block_lights(m, bx, by, y0 / RAWFIX_BLOCK < by ? y0 / RAWFIX_BLOCK : by - 1,
                     (y1 - 1) / RAWFIX_BLOCK < by ? (y1 - 1) / RAWFIX_BLOCK : by - 1);
    rawfix_row r;
    mp_rawfix_row_begin(m, &r);
    uint32_t light_of[RAWFIX_BLOCK_SUMS];   /* the block row each row class's light row is of */
    memset(light_of, 0xff, sizeof light_of);
    for (uint32_t y = y0; y < y1; y++) {
        mp_rawfix_measure_row(m, f, y, &r);
        uint32_t *light = r.light + (size_t)(y % RAWFIX_BLOCK_SUMS) * a->width;
        if (lit && light_of[y % RAWFIX_BLOCK_SUMS] != y / RAWFIX_BLOCK) {
            row_light(a, m, y, light);
            light_of[y % RAWFIX_BLOCK_SUMS] = y / RAWFIX_BLOCK;
        }
        mp_rawfix_accum_add_row(a, y, f->data + (size_t)y * f->width, r.zh, r.zv, r.stripe,
                                lit ? light : NULL);
    }
}

mp_status mp_rawfix_accum_add(rawfix_accum *a, rawfix_measurement *m, const mp_frame *f,
                              uint32_t sample, mp_error *err)
{
    if (f->width != m->width || f->height != m->height)
        return mp_error_set(err, MP_ERR_ARG, "rawfix: a %ux%u frame, measured as %ux%u",
                            f->width, f->height, m->width, m->height);
    mp_status st = mp_rawfix_accum_claim(a, m, sample, err);
    if (st == MP_OK)
        mp_rawfix_accum_rows(a, m, f, 0, a->height);
    return st;
}
