/* Per-row alignment of the dark field: line-pair banding shifts whole dark rows against the
 * bright rows around them. Each dark row's offset is the median of (dark - bright estimate)
 * over pixels where both fields are well exposed and no edge runs between the bright pair.
 * A row keeps the clip-level alignment (offset 0, the pooled levels already matched the
 * fields) unless it has enough pairs and its median stands out of its own noise, so
 * sensor noise alone never turns into row noise (doc/dualiso.md 6.2). */
#include <math.h>
#include <string.h>

#include "dualiso_priv.h"

#define MIN_PAIRS 200        /* cr2hdr's stripe-fix minimum */
#define SIGNIFICANCE 4.0     /* standard errors a row offset must stand out by */
#define MIN_LEVEL_SIGMAS 8.0 /* bright estimate well above its read noise */
#define EDGE_SIGMAS 3.0      /* bright pair disagreement that marks an edge */
#define MAX_PAIRS 1024       /* about this many pairs per row (every k-th column) */

/* Order-preserving map of finite floats to unsigned keys (-0 sorts just below +0, which
 * only the sign of a zero result could tell apart; a zero offset is never applied). */
static uint32_t float_key(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u & 0x80000000u ? ~u : u | 0x80000000u;
}

static float key_float(uint32_t k)
{
    uint32_t u = k & 0x80000000u ? k & 0x7fffffffu : ~k;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* k-th smallest of v[0..n) (v unchanged; key holds n entries). A radix selection over the
 * float keys' range: each pass splits the candidates' key range into at most SELECT_BINS
 * digits, counts them and keeps the digit that holds the k-th, until few candidates are
 * left, which are sorted. No data-dependent branches in the passes, unlike a quickselect,
 * whose pivot comparisons the CPU mispredicts half the time on noise; and the digits cover
 * only the keys present, so a pass counts, clears and scans no more bins than it fills. */
#define SELECT_BINS 1024u
#define SELECT_SORT 24u      /* candidates sorted directly */

static float select_kth(const float *v, uint32_t n, uint32_t k, uint32_t *key)
{
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t kk = float_key(v[i]);
        key[i] = kk;
        lo = kk < lo ? kk : lo;
        hi = kk > hi ? kk : hi;
    }
    uint32_t count[SELECT_BINS];
    while (n > SELECT_SORT && lo < hi) {
        int shift = 0;
        while (((hi - lo) >> shift) >= SELECT_BINS)
            shift++;
        const uint32_t bins = ((hi - lo) >> shift) + 1;
        memset(count, 0, bins * sizeof count[0]);
        for (uint32_t i = 0; i < n; i++)
            count[(key[i] - lo) >> shift]++;
        uint32_t d = 0;
        while (k >= count[d])
            k -= count[d++];
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++) {
            key[m] = key[i];
            m += ((key[i] - lo) >> shift) == d;
        }
        n = m;
        /* the digit's keys: [lo + d << shift, lo + (d + 1) << shift), within [lo, hi] */
        uint32_t base = lo + (d << shift), top = base + ((1u << shift) - 1);
        lo = base;
        hi = top < hi && top >= base ? top : hi;
    }
    if (lo == hi)
        return key_float(lo);
    for (uint32_t i = 1; i < n; i++) /* insertion sort of the few left */
        for (uint32_t j = i; j > 0 && key[j - 1] > key[j]; j--) {
            uint32_t t = key[j];
            key[j] = key[j - 1];
            key[j - 1] = t;
        }
    return key_float(key[k]);
}

void mp_dualiso_row_offsets(const mp_frame *in, const dualiso_levels *lv, const float *lut_dark,
                         const float *lut_bright, uint16_t clip_dark, uint16_t clip_bright,
                         float level_max, float *scratch, uint32_t *keys, float *offsets)
{
    const uint32_t w = in->width, h = in->height;
    const double nb = lv->noise_bright / lv->ratio;
    const float var_b = (float)(nb * nb), gain = (float)lv->gain_dark;
    const float level_min = (float)(MIN_LEVEL_SIGMAS * nb);
    for (uint32_t y = 0; y < h; y++) {
        offsets[y] = 0;
        if (dualiso_row_is_bright(y, lv->phase) || y < 2 || y + 2 >= h)
            continue;
        const uint16_t *row = in->data + (size_t)y * w;
        const uint16_t *up = row - 2 * (size_t)w, *dn = row + 2 * (size_t)w;
        uint32_t n = 0, step = (w / MAX_PAIRS) | 1; /* odd: both colours */
        for (uint32_t x = 0; x < w; x += step) {
            if (row[x] >= clip_dark || up[x] >= clip_bright || dn[x] >= clip_bright)
                continue;
            float a = lut_bright[up[x]], b = lut_bright[dn[x]], level = 0.5f * (a + b);
            if (level < level_min || level > level_max)
                continue;
            float m = a - b, var = var_b + gain * level;
            if (m * m > EDGE_SIGMAS * EDGE_SIGMAS * 2 * var)
                continue;
            scratch[n++] = lut_dark[row[x]] - level;
        }
        if (n < MIN_PAIRS)
            continue;
        float med = select_kth(scratch, n, n / 2, keys);
        for (uint32_t i = 0; i < n; i++)
            scratch[i] = fabsf(scratch[i] - med);
        float mad = select_kth(scratch, n, n / 2, keys);
        /* standard error of a median of Gaussian data: 1.2533 sigma / sqrt(n) */
        double se = 1.2533 * 1.4826 * mad / sqrt((double)n);
        if (fabs(med) > SIGNIFICANCE * se)
            offsets[y] = med;
    }
}
