/* Robust weighted straight-line fit, used for the ISO ratio / field offset (matched cell
 * means) and for the photon transfer curve (read noise, gain). Least squares on inverse-
 * variance weights is the most precise estimator for the well-behaved majority of points;
 * iterative rejection with a MAD scale keeps cells hit by edges or hot pixels out. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dualiso_priv.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Rounds of selection a set of up to 2^32 takes unless its pivots keep being bad ones. */
#define SELECT_ROUNDS 64

double mp_dualiso_median(double *v, uint32_t n)
{
    const int32_t k = (int32_t)(n / 2);
    /* Wirth's selection, linear on average (a 1080p clip's levels pool takes some 30 medians
     * of 10^4 values: sorting them was most of its time, 40-60 ms); a set whose pivots keep
     * being bad (its quadratic worst case) has the rest sorted instead. Either way v[k] is
     * the k-th smallest value, so the result is that of a sort. */
    int32_t lo = 0, hi = (int32_t)n - 1;
    for (int round = 0; lo < hi; round++) {
        if (round == SELECT_ROUNDS) {
            qsort(v + lo, (size_t)(hi - lo + 1), sizeof *v, cmp_double);
            break;
        }
        const double x = v[k];
        int32_t i = lo, j = hi;
        do {
            while (v[i] < x)
                i++;
            while (x < v[j])
                j--;
            if (i <= j) {
                double t = v[i];
                v[i++] = v[j];
                v[j--] = t;
            }
        } while (i <= j);
        if (j < k)
            lo = i;
        if (k < i)
            hi = j;
    }
    return v[k];
}

/* Weighted fit over the kept points: least squares, or with fix_b and ratio_of_means the
 * slope sum(w (y - b)) / sum(w x), which noise in x does not bias (dualiso_priv.h). */
static int weighted_ls(const double *x, const double *y, const double *w, const uint8_t *keep,
                       uint32_t n, const dualiso_fit_options *opt, dualiso_fit_result *res)
{
    const int fix_b = opt->fix_intercept;
    double sw = 0, sx = 0, sy = 0;
    for (uint32_t i = 0; i < n; i++)
        if (keep[i]) {
            sw += w[i];
            sx += w[i] * x[i];
            sy += w[i] * y[i];
        }
    if (sw <= 0)
        return 0;
    double mx = fix_b ? 0 : sx / sw, my = fix_b ? res->b : sy / sw, sxx = 0, sxy = 0;
    if (fix_b && opt->ratio_of_means) {
        if (!(sx > 0))
            return 0;
        res->a = (sy - sw * res->b) / sx;
    } else {
        for (uint32_t i = 0; i < n; i++)
            if (keep[i]) {
                double dx = x[i] - mx;
                sxx += w[i] * dx * dx;
                sxy += w[i] * dx * (y[i] - my);
            }
        if (!(sxx > 0))
            return 0;
        res->a = sxy / sxx;
        if (!fix_b)
            res->b = my - res->a * mx;
    }
    /* standard errors, noise scale taken from the residuals */
    double r2 = 0;
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (keep[i]) {
            double r = y[i] - (res->a * x[i] + res->b);
            r2 += w[i] * r * r;
            m++;
        }
    uint32_t dof = fix_b ? 1 : 2;
    double s2 = m > dof ? r2 / (m - dof) : 0;
    res->se_b = fix_b ? 0 : sqrt(s2 * (1 / sw + mx * mx / sxx));
    res->se_a = fix_b && opt->ratio_of_means ? sqrt(s2 * sw) / sx : sqrt(s2 / sxx);
    return 1;
}

int mp_dualiso_fit_line(const double *x, const double *y, const double *w, uint32_t n,
                     const dualiso_fit_options *opt, dualiso_fit_result *fr, uint8_t *keep_out)
{
    const double reject = opt->reject;
    memset(fr, 0, sizeof *fr);
    fr->b = opt->fix_intercept ? opt->intercept : 0;
    if (n < 3)
        return 0;
    uint8_t *keep = malloc(n);
    double *res = malloc(n * sizeof *res);
    double *tmp = malloc(n * sizeof *tmp);
    int ok = 0;
    if (!keep || !res || !tmp)
        goto done;
    for (uint32_t i = 0; i < n; i++)
        keep[i] = w[i] > 0 && isfinite(x[i]) && isfinite(y[i]);
    if (!weighted_ls(x, y, w, keep, n, opt, fr))
        goto done;

    /* Start wide and narrow down, so a start pulled by outliers cannot throw away the
     * good points. */
    double limit = 4 * reject;
    for (int round = 0; round < 12; round++) {
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++) {
            res[i] = (y[i] - (fr->a * x[i] + fr->b)) * sqrt(w[i] > 0 ? w[i] : 0);
            if (keep[i])
                tmp[m++] = fabs(res[i]);
        }
        if (m < 3)
            goto done;
        double scale = 1.4826 * mp_dualiso_median(tmp, m);
        if (!(scale > 0))
            break; /* exact fit */
        int changed = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (!(w[i] > 0) || !isfinite(x[i]) || !isfinite(y[i]))
                continue;
            uint8_t k = fabs(res[i]) <= limit * scale;
            changed |= k != keep[i];
            keep[i] = k;
        }
        if (!weighted_ls(x, y, w, keep, n, opt, fr))
            goto done;
        if (!changed && limit <= reject)
            break;
        limit = limit / 2 > reject ? limit / 2 : reject;
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        m += keep[i];
    fr->kept = m;
    ok = m >= 3;
    if (ok && keep_out)
        memcpy(keep_out, keep, n);
done:
    free(keep);
    free(res);
    free(tmp);
    return ok;
}
