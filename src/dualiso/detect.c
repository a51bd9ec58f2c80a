/* Dual-ISO detection: rows y and y+2 always have the same CFA colour and always belong to
 * different fields, so the log ratio of such pixel pairs shows the pattern directly, at any
 * bit depth, without histogram walks or assumptions about black. */
#include <math.h>
#include <string.h>

#include "dualiso_priv.h"

#define HIST_BINS 512     /* log2 ratio histogram, 1/32 EV per bin over 0..16 EV */
#define HIST_SCALE 32.0   /* = DUALISO_BINS_PER_EV */
#define MIN_PAIRS 64      /* below this a class pair says nothing */
#define MIN_EV 0.5        /* cr2hdr's threshold: fields at least 0.5 EV apart (16 bins) */
/* Pairs whose brighter sample is at most NEAR_NUM / NEAR_DEN = 1.4142 times the darker are
 * within MIN_EV without a log2 (a call per pair, and most pairs of a single-ISO frame are
 * there): log2(1.4142) is 0.499986, farther from 0.5 than the rounding of log2 reaches, so
 * the outcome is the one the log2 gives. */
#define NEAR_NUM 14142    /* just below 2^0.5 x NEAR_DEN */
#define NEAR_DEN 10000
#define MAX_SAMPLES (1u << 20)

mp_status mp_dualiso_check_frame(const mp_frame *f, mp_error *err)
{
    if (!f || !f->data)
        return mp_error_set(err, MP_ERR_ARG, "dualiso: frame has no data");
    if (f->width == 0 || f->height == 0 || f->width > MP_FRAME_MAX_DIM ||
        f->height > MP_FRAME_MAX_DIM)
        return mp_error_set(err, MP_ERR_ARG, "dualiso: frame size %ux%u out of range",
                            f->width, f->height);
    if (f->bits < 8 || f->bits > 16)
        return mp_error_set(err, MP_ERR_ARG, "dualiso: %u bits per sample unsupported", f->bits);
    if (f->white <= f->black || f->white > (1u << f->bits) - 1)
        return mp_error_set(err, MP_ERR_ARG, "dualiso: levels black %u white %u invalid at %u bits",
                            f->black, f->white, f->bits);
    return MP_OK;
}

typedef struct class_votes {
    uint64_t upper_brighter, lower_brighter, neutral; /* class k vs class k+2 */
} class_votes;

/* Ratios within this (absolute, on the mantissa in [1, 2)) of a bin's threshold take the
 * logarithm: far beyond the errors of the division and of log2 (about 1e-15), so elsewhere
 * the comparison with the threshold says what the logarithm would. */
#define BIN_NEAR 1e-9

void mp_dualiso_ratio_bins_init(dualiso_ratio_bins *t)
{
    double thr[DUALISO_BINS_PER_EV + 1];
    for (int k = 0; k <= DUALISO_BINS_PER_EV; k++)
        thr[k] = exp2((double)k / DUALISO_BINS_PER_EV);
    for (int i = 0; i < DUALISO_RATIO_BUCKETS; i++) {
        const double lo = 1 + (double)i / DUALISO_RATIO_BUCKETS;
        const double hi = 1 + (double)(i + 1) / DUALISO_RATIO_BUCKETS;
        t->below[i] = 0;
        t->thr[i] = 2;
        t->near[i] = 0;
        for (int k = 1; k < DUALISO_BINS_PER_EV; k++) {
            t->below[i] += thr[k] < lo;
            if (thr[k] >= lo && thr[k] < hi)
                t->thr[i] = thr[k];
            t->near[i] |= fabs(thr[k] - lo) < BIN_NEAR || fabs(thr[k] - hi) < BIN_NEAR;
        }
    }
}

/* Inlined into detection's loop: a call there made GCC keep the loop's state on the stack. */
static inline __attribute__((always_inline)) int ratio_bin(const dualiso_ratio_bins *t,
                                                           int32_t a, int32_t b)
{
    const int32_t mx = a > b ? a : b, mn = a > b ? b : a;
    /* mx / mn = m 2^e, m in [1, 2): bin = DUALISO_BINS_PER_EV e + the thresholds 2^(k / 32)
     * at or below m; m's top mantissa bits pick the bucket, which holds at most one */
    const double u = (double)mx / mn;
    uint64_t bits;
    memcpy(&bits, &u, sizeof bits);
    const int e = (int)(bits >> 52) - 1023;
    const int i = (int)(bits >> (52 - DUALISO_RATIO_BUCKET_BITS)) & (DUALISO_RATIO_BUCKETS - 1);
    const uint64_t mbits = (bits & ((1ull << 52) - 1)) | (1023ull << 52);
    double m;
    memcpy(&m, &mbits, sizeof m);
    int bin;
    if (t->near[i] || fabs(m - t->thr[i]) < BIN_NEAR) {
        double al = fabs(log2((double)a / b));
        if (al <= MIN_EV)
            return -1;
        bin = (int)(al * HIST_SCALE);
    } else {
        bin = DUALISO_BINS_PER_EV * e + t->below[i] + (m >= t->thr[i]);
        /* al <= MIN_EV: below its threshold (never on it, away from it) */
        if (bin < (int)(MIN_EV * HIST_SCALE))
            return -1;
    }
    return bin;
}

int mp_dualiso_ratio_bin(const dualiso_ratio_bins *t, int32_t a, int32_t b)
{
    return ratio_bin(t, a, b);
}

mp_status mp_dualiso_detect(const mp_frame *f, dualiso_detection *out, mp_error *err)
{
    mp_status st = mp_dualiso_check_frame(f, err);
    if (st != MP_OK)
        return st;
    memset(out, 0, sizeof *out);

    const double range = (double)f->white - f->black;
    /* Pairs count only where both samples are well above black and the brighter one is
     * below 0.707 of the range (cr2hdr's window); a clipped partner still votes. */
    const double lo = range / 512.0 > 4.0 ? range / 512.0 : 4.0;
    const double hi = 0.707 * range;
    const double clip = 0.98 * range;
    /* The same bounds for the samples above black, which are integers: n >= t and n < t for a
     * real t are n >= ceil(t) and n < ceil(t). */
    const int32_t lo_n = (int32_t)ceil(lo), hi_n = (int32_t)ceil(hi);
    const int32_t clip_n = (int32_t)ceil(clip);
    const int32_t black = (int32_t)f->black;

    uint64_t pairs_total = (uint64_t)f->width * (f->height > 2 ? f->height - 2 : 0);
    uint32_t step_x = 1;
    while (pairs_total / step_x > MAX_SAMPLES)
        step_x += 2; /* odd steps visit both CFA columns */

    class_votes votes[2] = {{0, 0, 0}, {0, 0, 0}};
    uint32_t hist[HIST_BINS] = {0};
    uint64_t hist_n = 0;
    dualiso_ratio_bins bins;
    mp_dualiso_ratio_bins_init(&bins);

    for (uint32_t y = 0; y + 2 < f->height; y++) {
        const uint16_t *r0 = f->data + (size_t)y * f->width;
        const uint16_t *r2 = r0 + 2 * (size_t)f->width;
        uint32_t k = y & 1u;           /* class pair {k, k+2} */
        int upper_is_k = (y & 3u) < 2; /* row y is class k (else class k+2) */
        /* The tests are counted, not branched on: in a noisy frame every pair takes its own
         * way, and mispredicted branches cost more than the arithmetic (a division for every
         * pair instead of the branch to ratio_bin: 1.4 times the time, session 17). The
         * row's counts are locals: counted in votes[k], each pair loaded and stored them. */
        uint32_t upper_n = 0, lower_n = 0, neutral_n = 0, hist_row = 0;
        for (uint32_t x = 0; x < f->width; x += step_x) {
            int32_t a = r0[x] - black, b = r2[x] - black;
            int32_t mx = a > b ? a : b, mn = a > b ? b : a;
            /* a partner in the non-linear shoulder (hi .. clip) gives no vote */
            int valid = (mn >= lo_n) & (mn < hi_n) & ((mx < hi_n) | (mx >= clip_n));
            int window = mx < hi_n;
            int neutral = window & ((int64_t)NEAR_DEN * mx <= (int64_t)NEAR_NUM * mn);
            if (valid & window & !neutral) {
                int bin = ratio_bin(&bins, a, b);
                neutral = bin < 0;
                if (!neutral) {
                    hist[bin < HIST_BINS ? bin : HIST_BINS - 1]++;
                    hist_row++;
                }
            }
            /* a brighter means the upper row's class is brighter */
            int upper = (a > b) == (upper_is_k != 0), vote = valid & !neutral;
            neutral_n += (uint32_t)(valid & neutral);
            upper_n += (uint32_t)(vote & upper);
            lower_n += (uint32_t)(vote & !upper);
        }
        votes[k].upper_brighter += upper_n;
        votes[k].lower_brighter += lower_n;
        votes[k].neutral += neutral_n;
        hist_n += hist_row;
    }

    int bright_class[2];
    double confidence = 1.0;
    uint64_t pairs = UINT64_MAX;
    for (int k = 0; k < 2; k++) {
        const class_votes *cv = &votes[k];
        uint64_t total = cv->upper_brighter + cv->lower_brighter + cv->neutral;
        if (total < MIN_PAIRS)
            return MP_OK; /* not enough evidence: reported as not dual */
        uint64_t major = cv->upper_brighter > cv->lower_brighter ? cv->upper_brighter
                                                                  : cv->lower_brighter;
        uint64_t minor = cv->upper_brighter + cv->lower_brighter - major;
        double c = ((double)major - (double)minor - (double)cv->neutral) / (double)total;
        if (c < confidence)
            confidence = c;
        if (total < pairs)
            pairs = total;
        bright_class[k] = cv->upper_brighter >= cv->lower_brighter ? k : k + 2;
    }
    if (confidence < 0)
        confidence = 0;

    double ev = 0;
    if (hist_n > 0) {
        uint64_t acc = 0;
        for (int i = 0; i < HIST_BINS; i++) {
            acc += hist[i];
            if (2 * acc >= hist_n) {
                ev = (i + 0.5) / HIST_SCALE;
                break;
            }
        }
    }
    out->ev_estimate = ev;
    out->confidence = confidence;
    out->pairs = pairs;
    out->is_dual = confidence >= 0.5 && ev > MIN_EV;
    for (uint32_t p = 0; p < 4; p++)
        if (dualiso_row_is_bright((uint32_t)bright_class[0], p) &&
            dualiso_row_is_bright((uint32_t)bright_class[1], p))
            out->phase = p;
    return MP_OK;
}
