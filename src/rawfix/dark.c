#include "rawfix/dark.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The class medians are found to 1/16 DN: fine enough that their rounding leaves no offset
 * worth a thought, coarse enough for one 4 MiB histogram. */
#define HIST_SHIFT 4
#define HIST_BINS ((65536u * RAWFIX_DARK_FRAC) >> HIST_SHIFT)

mp_status mp_rawfix_dark_add(rawfix_dark_sum *s, const mp_frame *f, mp_error *err)
{
    if (!s->sum) {
        s->sum = calloc((size_t)f->width * f->height, sizeof *s->sum);
        if (!s->sum)
            return mp_error_set(err, MP_ERR_NOMEM, "dark frame: out of memory for %ux%u sums",
                                f->width, f->height);
        s->width = f->width;
        s->height = f->height;
        s->bits = f->bits;
    }
    if (f->width != s->width || f->height != s->height || f->bits != s->bits)
        return mp_error_set(err, MP_ERR_ARG, "dark frame: frame %u is %ux%u %u-bit, the first "
                            "was %ux%u %u-bit", f->number, f->width, f->height, f->bits,
                            s->width, s->height, s->bits);
    if (s->frames >= RAWFIX_DARK_MAX_FRAMES)
        return mp_error_set(err, MP_ERR_RANGE, "dark frame: more than %u frames to average",
                            RAWFIX_DARK_MAX_FRAMES);
    const size_t n = (size_t)s->width * s->height;
    for (size_t i = 0; i < n; i++)
        s->sum[i] += f->data[i];
    s->frames++;
    return MP_OK;
}

void mp_rawfix_dark_sum_free(rawfix_dark_sum *s)
{
    free(s->sum);
    memset(s, 0, sizeof *s);
}

void mp_rawfix_dark_free(rawfix_dark *d)
{
    free(d->pattern);
    memset(d, 0, sizeof *d);
}

/* Average of a sample in 1/RAWFIX_DARK_FRAC DN, rounded. */
static int32_t average(uint32_t sum, uint32_t frames)
{
    return (int32_t)(((uint64_t)sum * RAWFIX_DARK_FRAC + frames / 2) / frames);
}

/* Median of the averages of class (cx, cy) (column x mod 2, row y mod 4), in 1/FRAC DN. */
static int32_t class_median(const rawfix_dark_sum *s, uint32_t cx, uint32_t cy, uint32_t *hist)
{
    memset(hist, 0, HIST_BINS * sizeof *hist);
    uint64_t n = 0;
    for (uint32_t y = cy; y < s->height; y += 4)
        for (uint32_t x = cx; x < s->width; x += 2, n++)
            hist[average(s->sum[(size_t)y * s->width + x], s->frames) >> HIST_SHIFT]++;
    uint64_t seen = 0;
    uint32_t b = 0;
    while (b < HIST_BINS - 1 && (seen += hist[b]) * 2 < n)
        b++;
    return (int32_t)(b << HIST_SHIFT) + (1 << (HIST_SHIFT - 1));   /* the bin's centre */
}

mp_status mp_rawfix_dark_finish(const rawfix_dark_sum *s, rawfix_dark *d, mp_error *err)
{
    memset(d, 0, sizeof *d);
    if (!s->frames)
        return mp_error_set(err, MP_ERR_ARG, "dark frame: no frame to average");
    const size_t n = (size_t)s->width * s->height;
    uint32_t *hist = malloc(HIST_BINS * sizeof *hist);
    d->pattern = malloc(n * sizeof *d->pattern);
    if (!hist || !d->pattern) {
        free(hist);
        free(d->pattern);
        d->pattern = NULL;
        return mp_error_set(err, MP_ERR_NOMEM, "dark frame: out of memory");
    }
    double sq = 0;
    for (uint32_t cy = 0; cy < 4 && cy < s->height; cy++)
        for (uint32_t cx = 0; cx < 2 && cx < s->width; cx++) {
            const int32_t median = class_median(s, cx, cy, hist);
            for (uint32_t y = cy; y < s->height; y += 4)
                for (uint32_t x = cx; x < s->width; x += 2) {
                    size_t i = (size_t)y * s->width + x;
                    d->pattern[i] = average(s->sum[i], s->frames) - median;
                    sq += (double)d->pattern[i] * d->pattern[i];
                }
        }
    free(hist);
    d->width = s->width;
    d->height = s->height;
    d->bits = s->bits;
    d->frames = s->frames;
    d->rms = sqrt(sq / (double)n) / RAWFIX_DARK_FRAC;
    return MP_OK;
}

mp_status mp_rawfix_dark_from_frame(const mp_frame *f, uint32_t frames_averaged,
                                    rawfix_dark *d, mp_error *err)
{
    rawfix_dark_sum s = {0};
    mp_status st = mp_rawfix_dark_add(&s, f, err);
    if (st == MP_OK)
        st = mp_rawfix_dark_finish(&s, d, err);
    mp_rawfix_dark_sum_free(&s);
    d->frames = frames_averaged;
    return st;
}

/* Whole DN of a pattern value, rounded half up (a floor division, for either sign). */
static int32_t whole_dn(int32_t p)
{
    int32_t q = p + RAWFIX_DARK_FRAC / 2;
    return q >= 0 ? q / RAWFIX_DARK_FRAC : -((-q + RAWFIX_DARK_FRAC - 1) / RAWFIX_DARK_FRAC);
}

mp_status mp_rawfix_dark_apply(const rawfix_dark *d, mp_frame *f, mp_error *err)
{
    if (!d->width)
        return MP_OK;
    if (f->width != d->width || f->height != d->height || f->bits != d->bits)
        return mp_error_set(err, MP_ERR_ARG, "dark frame is %ux%u %u-bit, frame %u is %ux%u "
                            "%u-bit", d->width, d->height, d->bits, f->number, f->width,
                            f->height, f->bits);
    const int32_t white = f->white ? (int32_t)f->white : (1 << f->bits) - 1;
    const size_t n = (size_t)f->width * f->height;
    for (size_t i = 0; i < n; i++) {
        int32_t v = f->data[i];
        if (v >= white)
            continue;
        v -= whole_dn(d->pattern[i]);
        f->data[i] = (uint16_t)(v < 0 ? 0 : v > white ? white : v);
    }
    return MP_OK;
}
