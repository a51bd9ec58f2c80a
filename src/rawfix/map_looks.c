/* How many independent looks at each part of the frame the sampled frames give, per tile
 * (rawfix_accum.h).
 *
 * The detection thresholds in noise units assume that every sampled frame is a new look at
 * the sample: pooled over N frames, a clean sample's mean deviation spreads by 1 / sqrt(N),
 * and one that is off in three quarters of them is off for a reason. That holds on a real
 * sensor, where read and shot noise make every frame's deviation differ, but not where
 * nothing varies between frames: a noiseless clip (synthetic, or frames that are copies up to
 * an offset) shows the same deviations in every frame, so N frames are one look, and a sample
 * off its neighbours in each of them is just the scene. What the frames prove is read from
 * the clip itself: per sample, how much its deviation varies between the frames (in noise
 * units, about 0.5 on a sensor, 0 on a noiseless clip), the median over a tile of 32 x 32
 * samples (defects and moving edges do not move a median), mapped to looks between one (a
 * variance of LOOKS_FROZEN or less) and the number of frames (LOOKS_FREE or more). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rawfix_accum.h"

#define LOOKS_FROZEN 0.1
#define LOOKS_FREE 0.3
#define VAR_BINS_PER_UNIT 100
#define VAR_BINS (VAR_BINS_PER_UNIT + 1)   /* 0 .. 1, the last bin open */
#define MIN_TILE_SAMPLES 256               /* fewer measured: the frame's median is used */

/* The variance of zh between the frames, in bins of 1 / VAR_BINS_PER_UNIT noise sigma^2,
 * from integer sums (Z_SCALE^2 units): n sq - s^2 over n^2 Z_SCALE^2. */
static uint32_t var_bin(int32_t sum, uint32_t sq, uint32_t used)
{
    int64_t num = (int64_t)used * sq - (int64_t)sum * sum;
    int64_t den = (int64_t)used * used * Z_SCALE * Z_SCALE;
    int64_t b = num <= 0 ? 0 : num * VAR_BINS_PER_UNIT / den;
    return b < VAR_BINS ? (uint32_t)b : VAR_BINS - 1;
}

static double looks_of(const uint32_t *h, uint64_t count, uint32_t frames)
{
    uint64_t acc = 0;
    uint32_t b = 0;
    while (b + 1 < VAR_BINS && (acc += h[b]) * 2 < count)
        b++;
    double v = (b + 0.5) / VAR_BINS_PER_UNIT;
    double free = (v - LOOKS_FROZEN) / (LOOKS_FREE - LOOKS_FROZEN);
    return 1 + (frames - 1) * (free < 0 ? 0 : free > 1 ? 1 : free);
}

/* The histograms of one part's rows (mp_rawfix_parallel): its own tiles' (a part is a row of
 * tiles) and its own share of the frame's. */
typedef struct looks_job {
    const rawfix_accum *a;
    uint32_t min_used, tx;
    uint32_t *hist, *all;           /* per tile, per part: VAR_BINS each */
    uint64_t *count;                /* per tile */
} looks_job;

_Static_assert(RAWFIX_PART_ROWS % RAWFIX_LOOKS_TILE == 0, "a tile in two parts");

static void looks_part(void *ctx, uint32_t part)
{
    const looks_job *j = ctx;
    const rawfix_accum *a = j->a;
    const uint32_t min_used = j->min_used, tx = j->tx, y1 = mp_rawfix_part_end(part, a->height);
    uint32_t *hist = j->hist, *all = j->all + (size_t)part * VAR_BINS;
    uint64_t *count = j->count;
    for (uint32_t y = part * RAWFIX_PART_ROWS; y < y1; y++)
        for (uint32_t x = 0; x < a->width; x++) {
            const size_t i = (size_t)y * a->width + x;
            const uint32_t used = a->count[COUNT_USED][i];
            if (!used || used < min_used)
                continue;
            const size_t t = (size_t)(y / RAWFIX_LOOKS_TILE) * tx + x / RAWFIX_LOOKS_TILE;
            const uint32_t b = var_bin(a->zh_sum[i], a->zh_sq[i], used);
            hist[t * VAR_BINS + b]++;
            count[t]++;
            all[b]++;
        }
}

mp_status mp_rawfix_looks(const rawfix_accum *a, uint32_t min_used, rawfix_looks *out,
                          mp_error *err)
{
    memset(out, 0, sizeof *out);
    const uint32_t tx = (a->width + RAWFIX_LOOKS_TILE - 1) / RAWFIX_LOOKS_TILE;
    const uint32_t ty = (a->height + RAWFIX_LOOKS_TILE - 1) / RAWFIX_LOOKS_TILE;
    const size_t tiles = (size_t)tx * ty;
    const uint32_t parts = mp_rawfix_parts(a->height);
    uint32_t *hist = calloc(tiles * VAR_BINS, sizeof *hist);
    uint32_t *part_all = calloc((size_t)parts * VAR_BINS, sizeof *part_all);
    uint64_t *count = calloc(tiles, sizeof *count);
    uint32_t all[VAR_BINS] = {0};
    out->looks = malloc(tiles * sizeof *out->looks);
    if (!hist || !part_all || !count || !out->looks) {
        free(hist);
        free(part_all);
        free(count);
        free(out->looks);
        out->looks = NULL;
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory");
    }
    out->tiles_x = tx;
    looks_job job = {a, min_used, tx, hist, part_all, count};
    mp_rawfix_parallel(&a->runner, parts, looks_part, &job);
    uint64_t total = 0;
    for (size_t k = 0; k < (size_t)parts * VAR_BINS; k++) {
        all[k % VAR_BINS] += part_all[k];
        total += part_all[k];
    }
    free(part_all);
    out->frame_looks = total ? looks_of(all, total, a->frames) : 1;
    for (size_t t = 0; t < tiles; t++)
        out->looks[t] = count[t] >= MIN_TILE_SAMPLES ? looks_of(hist + t * VAR_BINS, count[t],
                                                                a->frames)
                                                     : out->frame_looks;
    free(hist);
    free(count);
    return MP_OK;
}

void mp_rawfix_looks_free(rawfix_looks *l)
{
    free(l->looks);
    memset(l, 0, sizeof *l);
}
