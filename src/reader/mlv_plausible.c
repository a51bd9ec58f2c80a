/* Frame numbers, timestamps and the frame rate checked against each other before the index
 * is sorted, so that one flipped bit cannot make a clip billions of frames long (and its
 * outputs fill a disk with repeated frames or silence), nor put a frame under another's
 * number. A frame number is plausible when it agrees with the numbers of the frames around
 * it in file order (their median offset from the file position), or when the timestamps say
 * the frames in between were really dropped or written out of order; others are damage and
 * the frame is left out. A timestamp far from what its number and the
 * neighbours' timestamps say is damage and replaced by that estimate. */
#include <math.h>
#include <stdlib.h>

#include "mlv_internal.h"

#define NEIGHBOURS 4        /* frames on each side (file order) that vote */
#define NUMBER_SLACK 64     /* out-of-order writing and short drops need no timestamp */
#define TIME_SLACK 8.0      /* frame periods a timestamp may stray from its estimate */
#define TIME_MAX (1ull << 62)

int mp_mlv_rate_valid(uint32_t num, uint32_t den)
{
    return num && den && num <= 1000ull * den && 1000ull * num >= den;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Lower median of the values of frames lo..hi (inclusive) given by value(); scratch holds
 * 2 * NEIGHBOURS + 1 values. */
static int64_t window_median(const int64_t *values, uint32_t lo, uint32_t hi, int64_t *scratch)
{
    uint32_t n = hi - lo + 1;
    for (uint32_t k = 0; k < n; k++)
        scratch[k] = values[lo + k];
    qsort(scratch, n, sizeof *scratch, cmp_i64);
    return scratch[(n - 1) / 2];
}

static const char *entry_file(const mlv_clip *c, const mlv_entry *e)
{
    return mp_mlv_base_name(c->chunks[e->chunk].path);
}

/* Microseconds per frame from the median timestamp step between frames one number apart in
 * file order; 0 when there is none. */
static double period_from_timestamps(const mlv_clip *c)
{
    uint32_t n = c->info.frame_count, count = 0;
    int64_t *steps = n > 1 ? malloc((n - 1) * sizeof *steps) : NULL;
    if (!steps)
        return 0;
    for (uint32_t i = 1; i < n; i++)
        if (c->frames[i].number == c->frames[i - 1].number + 1 &&
            c->frames[i].timestamp > c->frames[i - 1].timestamp)
            steps[count++] = (int64_t)(c->frames[i].timestamp - c->frames[i - 1].timestamp);
    double period = 0;
    if (count) {
        qsort(steps, count, sizeof *steps, cmp_i64);
        period = (double)steps[(count - 1) / 2];
    }
    free(steps);
    return period;
}

/* A frame rate that is no rate is damage: taken from the timestamps, else assumed (then
 * *timed is 0: the timestamps cannot judge frame numbers). */
static double check_rate(mlv_clip *c, int *timed)
{
    mlv_clip_info *in = &c->info;
    *timed = 1;
    if (mp_mlv_rate_valid(in->fps_num, in->fps_den))
        return 1e6 * in->fps_den / in->fps_num;
    double period = period_from_timestamps(c);
    uint32_t num = MLV_FALLBACK_FPS * 1000, den = 1000;
    if (period >= 1000.0 && period <= 1e9)
        num = (uint32_t)lround(1e9 / period);
    else
        *timed = 0;
    mp_mlv_add_damage(c, MLV_DAMAGE_BAD_NUMBER, 0, 44, "%s: offset 44: MLVI frame rate %u/%u is not "
                   "a rate; using %u/%u%s", mp_mlv_base_name(c->chunks[0].path), in->fps_num,
                   in->fps_den, num, den,
                   num == MLV_FALLBACK_FPS * 1000 ? " (assumed)" : " from the frame timestamps");
    in->fps_num = num;
    in->fps_den = den;
    return 1e6 * den / num;
}

/* 1 when frame a's number is supported by its timestamp against frame b's. */
static int time_supports(const mlv_entry *a, const mlv_entry *b, double period)
{
    double dn = (double)a->number - (double)b->number;
    double dt = (double)a->timestamp - (double)b->timestamp;
    return fabs(dt - dn * period) <= period * (0.5 + fabs(dn) / 16.0);
}

/* 1 when frame i's number agrees with the timestamps of most other frames of lo..hi. */
static int time_agrees(const mlv_clip *c, uint32_t i, uint32_t lo, uint32_t hi, double period)
{
    uint32_t agree = 0;
    for (uint32_t j = lo; j <= hi; j++)
        agree += j != i && time_supports(&c->frames[i], &c->frames[j], period);
    return 2 * agree >= hi - lo;
}

/* A frame whose offset (number minus file position) differs from its neighbours' median is
 * kept when the timestamps agree with its number (dropped or out-of-order frames), or, with
 * no timestamps to ask (assumed rate), when it differs by at most NUMBER_SLACK. */
static void drop_bad_numbers(mlv_clip *c, double period, int timed, int64_t *values)
{
    uint32_t n = c->info.frame_count, kept = 0, dropped = 0;
    int64_t scratch[2 * NEIGHBOURS + 1];
    for (uint32_t i = 0; i < n; i++)
        values[i] = (int64_t)c->frames[i].number - i;
    for (uint32_t i = 0; i < n; i++) {
        mlv_entry e = c->frames[i];
        uint32_t lo = i > NEIGHBOURS ? i - NEIGHBOURS : 0;
        uint32_t hi = i + NEIGHBOURS < n ? i + NEIGHBOURS : n - 1;
        int64_t med = window_median(values, lo, hi, scratch);
        int64_t off = values[i] - med;
        int bad = timed ? off && !time_agrees(c, i, lo, hi, period)
                        : off > NUMBER_SLACK || off < -NUMBER_SLACK;
        if (bad) {
            mp_mlv_add_damage(c, MLV_DAMAGE_BAD_NUMBER, e.chunk, e.offset, "%s: offset %llu: frame "
                           "number %u implausible (its neighbours are near %lld); frame left "
                           "out", entry_file(c, &e), (unsigned long long)e.offset, e.number,
                           (long long)(med + i));
            dropped++;
            continue;
        }
        e.damage_seen += dropped;   /* a DELTA frame after a dropped one lost its reference */
        c->frames[kept++] = e;
    }
    c->info.frame_count = kept;
}

static void fix_bad_timestamps(mlv_clip *c, double period, int64_t *values)
{
    uint32_t n = c->info.frame_count;
    int64_t scratch[2 * NEIGHBOURS + 1];
    /* Timestamps clamped to 2^62 (146,000 years) keep every difference below in range:
     * number * period stays under 2^32 * 1e9 us. */
    for (uint32_t i = 0; i < n; i++)
        values[i] = (int64_t)(c->frames[i].timestamp < TIME_MAX ? c->frames[i].timestamp
                                                                : TIME_MAX) -
                    (int64_t)llround(c->frames[i].number * period);
    for (uint32_t i = 0; i < n; i++) {
        mlv_entry *e = &c->frames[i];
        uint32_t lo = i > NEIGHBOURS ? i - NEIGHBOURS : 0;
        uint32_t hi = i + NEIGHBOURS < n ? i + NEIGHBOURS : n - 1;
        int64_t med = window_median(values, lo, hi, scratch);
        if (fabs((double)(values[i] - med)) <= TIME_SLACK * period)
            continue;
        int64_t estimate = med + (int64_t)llround(e->number * period);
        uint64_t fixed = estimate > 0 ? (uint64_t)estimate : 0;
        mp_mlv_add_damage(c, MLV_DAMAGE_BAD_NUMBER, e->chunk, e->offset, "%s: offset %llu: frame %u: "
                       "timestamp %llu us implausible; taken as %llu us", entry_file(c, e),
                       (unsigned long long)e->offset, e->number,
                       (unsigned long long)e->timestamp, (unsigned long long)fixed);
        e->timestamp = fixed;
    }
}

mp_status mp_mlv_check_plausible(mlv_clip *c, mp_error *err)
{
    if (c->info.container != MLV_CONTAINER_MLV)
        return MP_OK;   /* legacy RAW frames are numbered by position */
    int timed;
    double period = check_rate(c, &timed);
    uint32_t n = c->info.frame_count;
    if (n < 2)
        return MP_OK;
    int64_t *values = malloc(n * sizeof *values);
    if (!values)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory",
                            mp_mlv_base_name(c->chunks[0].path));
    drop_bad_numbers(c, period, timed, values);
    if (timed)
        fix_bad_timestamps(c, period, values);
    free(values);
    return MP_OK;
}
