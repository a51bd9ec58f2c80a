/* Whether a clip confirms a prior lattice (mp_rawfix_prior_pick, rawfix_priv.h), from the
 * accumulated deviations alone, so that it does not depend on which samples the map's own
 * tests take for defects.
 *
 * A focus pixel stands off its same-colour neighbours both along its row and along its
 * column, the same way in nearly every sampled frame, so its mean deviations both ways share
 * a sign, and for the members of one class mostly the same sign. A clean sample's mean
 * deviations share a sign less often (they share the sample's own noise, so more than half
 * the time), one way or the other, in noise and in a static scene's texture alike. So every
 * cell of the lattice's period (the samples with one residue of x mod period_x and y mod
 * period_y inside the lattice's box) gets its "fill": the share of its samples off both ways
 * with the cell's dominant sign. The cells that are not the lattice's classes say what a
 * clean cell fills in this clip: their median, and their spread (the median absolute
 * deviation, at least what sampling alone makes). A prior is confirmed when every class
 * fills at least CONFIRM_FILL of its samples and stands CONFIRM_SIGMAS spreads above that
 * median. Neighbours of focus pixels are off along one direction only, so a lattice moved by
 * a neighbour's step fills little more than a clean cell: CONFIRM_FILL keeps it out.
 * Measured (the clips of test rawfix-priors-table, 384x256, 16 static frames of the textured
 * benchmark scene): the weakest class of the true placement fills 0.83-0.97; clean cells
 * 0.38-0.41 (spread 0.02-0.05); the best wrong placement's weakest class 0.39-0.49. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rawfix_accum.h"

#define CONFIRM_FILL 0.6
#define CONFIRM_SIGMAS 5.0
#define CONFIRM_MIN_SITES 8        /* measured samples per class */
#define CONFIRM_MIN_NULL 8         /* other cells that say what a clean cell fills */

typedef struct cell {
    uint32_t sites, pos, neg;
} cell;

static double fill_of(const cell *c)
{
    return c->sites ? (double)(c->pos > c->neg ? c->pos : c->neg) / c->sites : 0;
}

static int by_value(const void *pa, const void *pb)
{
    const double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

static double median(double *v, uint32_t n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Per row of the frame, the cells of period px over columns [x0, x1), from the samples
 * measured in min_used frames: what every placement of a layout with this period and these
 * columns sums over its own rows (one pass over the frame for all of them). */
typedef struct row_cells {
    uint32_t px, x0, x1;            /* px 0: not made yet */
    cell *rows;                     /* height x px */
} row_cells;

static void count_rows(const rawfix_accum *a, uint32_t min_used, row_cells *r)
{
    memset(r->rows, 0, (size_t)a->height * r->px * sizeof *r->rows);
    for (uint32_t y = 0; y < a->height; y++) {
        cell *row = r->rows + (size_t)y * r->px;
        for (uint32_t x = r->x0; x < r->x1 && x < a->width; x++) {
            const size_t i = (size_t)y * a->width + x;
            if (a->count[COUNT_USED][i] < min_used)
                continue;
            cell *c = &row[x % r->px];
            c->sites++;
            c->pos += a->sum_h[i] > 0 && a->sum_v[i] > 0;
            c->neg += a->sum_h[i] < 0 && a->sum_v[i] < 0;
        }
    }
}

/* The cells of l's period over its box. */
static void count_cells(const rawfix_accum *a, uint32_t min_used, const rawfix_lattice *l,
                        row_cells *r, cell *cells)
{
    const uint32_t px = l->period_x, py = l->period_y;
    if (r->px != px || r->x0 != l->x0 || r->x1 != l->x1) {
        *r = (row_cells){px, l->x0, l->x1, r->rows};
        count_rows(a, min_used, r);
    }
    memset(cells, 0, (size_t)px * py * sizeof *cells);
    for (uint32_t y = l->y0; y < l->y1 && y < a->height; y++) {
        const cell *from = r->rows + (size_t)y * px;
        cell *to = cells + (size_t)(y % py) * px;
        for (uint32_t j = 0; j < px; j++) {
            to[j].sites += from[j].sites;
            to[j].pos += from[j].pos;
            to[j].neg += from[j].neg;
        }
    }
}

/* How far the weakest class of l stands above the other cells, in spreads; -1 when l is not
 * confirmed (or cannot be judged: too few samples). */
static double confirmation(const rawfix_accum *a, uint32_t min_used, const rawfix_lattice *l,
                           row_cells *rows, cell *cells, double *fills, uint8_t *is_class)
{
    const uint32_t px = l->period_x, py = l->period_y, nc = px * py;
    count_cells(a, min_used, l, rows, cells);
    memset(is_class, 0, nc);
    for (uint32_t k = 0; k < l->class_count; k++)
        is_class[l->class_y[k] * px + l->class_x[k]] = 1;
    uint32_t n = 0;
    for (uint32_t j = 0; j < nc; j++)
        if (!is_class[j] && cells[j].sites)
            fills[n++] = fill_of(&cells[j]);
    if (n < CONFIRM_MIN_NULL)
        return -1;
    const double mid = median(fills, n);
    for (uint32_t j = 0; j < n; j++)
        fills[j] = fabs(fills[j] - mid);
    const double mad = 1.4826 * median(fills, n);
    double weakest = INFINITY;
    for (uint32_t k = 0; k < l->class_count; k++) {
        const cell *c = &cells[l->class_y[k] * px + l->class_x[k]];
        if (c->sites < CONFIRM_MIN_SITES || fill_of(c) < CONFIRM_FILL)
            return -1;
        /* sampling alone spreads a clean cell of this class's size this much */
        const double spread = fmax(mad, sqrt(fmax(mid * (1 - mid), 0.01) / c->sites));
        weakest = fmin(weakest, (fill_of(c) - mid) / spread);
    }
    return weakest >= CONFIRM_SIGMAS ? weakest : -1;
}

static int usable(const rawfix_lattice *l)
{
    return l->period_x && l->period_y && l->class_count && l->period_x <= RAWFIX_MAX_PERIOD &&
           l->period_y <= RAWFIX_MAX_PERIOD;
}

mp_status mp_rawfix_prior_pick(const rawfix_accum *a, uint32_t min_used,
                               const rawfix_lattice *priors, uint32_t count, int *chosen,
                               mp_error *err)
{
    *chosen = -1;
    size_t most = 0, widest = 0;
    for (uint32_t k = 0; k < count; k++)
        if (usable(&priors[k])) {
            const size_t nc = (size_t)priors[k].period_x * priors[k].period_y;
            most = nc > most ? nc : most;
            widest = priors[k].period_x > widest ? priors[k].period_x : widest;
        }
    if (!most)
        return MP_OK;
    cell *cells = malloc(most * sizeof *cells);
    double *fills = malloc(most * sizeof *fills);
    uint8_t *is_class = malloc(most);
    row_cells rows = {0, 0, 0, malloc((size_t)a->height * widest * sizeof *rows.rows)};
    if (!cells || !fills || !is_class || !rows.rows) {
        free(cells);
        free(fills);
        free(is_class);
        free(rows.rows);
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory checking a prior lattice");
    }
    double best = -1;
    for (uint32_t k = 0; k < count; k++) {
        if (!usable(&priors[k]))
            continue;
        const double score = confirmation(a, min_used, &priors[k], &rows, cells, fills, is_class);
        if (score > best) {   /* ties keep the earlier, more likely one */
            *chosen = (int)k;
            best = score;
        }
    }
    free(cells);
    free(fills);
    free(is_class);
    free(rows.rows);
    return MP_OK;
}
