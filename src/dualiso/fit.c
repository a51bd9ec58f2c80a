/* Robust weighted straight-line fit, used for the ISO ratio / field offset (matched cell
 * means) and for the photon transfer curve (read noise, gain). Least squares on inverse-
 * variance weights is the most precise estimator for the well-behaved majority of points;
 * iterative rejection with a MAD scale keeps cells hit by edges or hot pixels out. */
#include <math.h>
#include <stdlib.h>

#include "dualiso_priv.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Weighted least squares over the kept points; with fix_b the intercept stays *b. */
static int weighted_ls(const double *x, const double *y, const double *w, const uint8_t *keep,
                       uint32_t n, int fix_b, double *a, double *b, double *se_b)
{
    double sw = 0, sx = 0, sy = 0;
    for (uint32_t i = 0; i < n; i++)
        if (keep[i]) {
            sw += w[i];
            sx += w[i] * x[i];
            sy += w[i] * y[i];
        }
    if (sw <= 0)
        return 0;
    double mx = fix_b ? 0 : sx / sw, my = fix_b ? *b : sy / sw, sxx = 0, sxy = 0;
    for (uint32_t i = 0; i < n; i++)
        if (keep[i]) {
            double dx = x[i] - mx;
            sxx += w[i] * dx * dx;
            sxy += w[i] * dx * (y[i] - my);
        }
    if (!(sxx > 0))
        return 0;
    *a = sxy / sxx;
    if (!fix_b)
        *b = my - *a * mx;
    /* standard error of the intercept, noise scale taken from the residuals */
    double r2 = 0;
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (keep[i]) {
            double r = y[i] - (*a * x[i] + *b);
            r2 += w[i] * r * r;
            m++;
        }
    *se_b = fix_b || m < 3 ? 0 : sqrt(r2 / (m - 2) * (1 / sw + mx * mx / sxx));
    return 1;
}

int dualiso_fit_line(const double *x, const double *y, const double *w, uint32_t n,
                     const dualiso_fit_options *opt, double *a, double *b, double *se_b,
                     uint32_t *kept)
{
    const double reject = opt->reject;
    const int fix_b = opt->fix_intercept;
    double se_dummy;
    if (!se_b)
        se_b = &se_dummy;
    if (fix_b)
        *b = opt->intercept;
    *kept = 0;
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
    if (!weighted_ls(x, y, w, keep, n, fix_b, a, b, se_b))
        goto done;

    /* Start wide and narrow down, so a start pulled by outliers cannot throw away the
     * good points. */
    double limit = 4 * reject;
    for (int round = 0; round < 12; round++) {
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++) {
            res[i] = (y[i] - (*a * x[i] + *b)) * sqrt(w[i] > 0 ? w[i] : 0);
            if (keep[i])
                tmp[m++] = fabs(res[i]);
        }
        if (m < 3)
            goto done;
        qsort(tmp, m, sizeof *tmp, cmp_double);
        double scale = 1.4826 * tmp[m / 2];
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
        if (!weighted_ls(x, y, w, keep, n, fix_b, a, b, se_b))
            goto done;
        if (!changed && limit <= reject)
            break;
        limit = limit / 2 > reject ? limit / 2 : reject;
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        m += keep[i];
    *kept = m;
    ok = m >= 3;
done:
    free(keep);
    free(res);
    free(tmp);
    return ok;
}
