/* The edge line of a bright-row pixel above the clip (interp.c): the rows of the other
 * field around it that the line crosses, the step the line's samples may show, and the
 * refinement of the line's direction by those samples (edge_refine.c, doc/dualiso.md
 * 8.15); with the two branch-free helpers both use. */
#ifndef MP_DUALISO_EDGE_LINE_H
#define MP_DUALISO_EDGE_LINE_H

#include <math.h>
#include <stdint.h>

/* One row of the other field near the target row, for the edge-directed estimate. */
typedef struct line_row {
    const float *v;
    const uint8_t *clip;
    int32_t dy;         /* row offset from the target row */
    int gpar;           /* parity of its green columns */
    int own_field;      /* a row of the target's own field: only its unclipped samples count */
} line_row;

#define LINE_ROWS 10        /* rows of the line: dark rows 1 to 7 away, bright rows 1 and 3 */
#define STEP_MIN_EV 0.15f   /* the line samples show a step: two levels this far apart (EV) */
#define STEP_FIT 0.1f       /* ... that leave at most this share of one level's spread
                               (measured in session 14 on the second scene's stars: 0.1 /
                               0.25 / 0.5 give edges 11-15 EV 0.0645 / 0.0651 / 0.0679,
                               4-frame mean) */

/* order[r] = the index of the sample of rank r by key, equal keys by tie (distinct):
 * a counting sort, every comparison made, so no branch depends on the data (the insertion
 * sorts it replaces, of samples gathered row by row, mispredicted most of their moves:
 * a quarter of directed_span's time in perf). */
static inline void rank_order(const float *restrict key, const int *restrict tie, int n,
                              int *restrict rank, int *restrict order)
{
    for (int i = 0; i < n; i++) {
        const float k = key[i];
        const int t = tie[i];
        int r = 0;
        for (int j = 0; j < n; j++)
            r += (key[j] < k) | ((key[j] == k) & (tie[j] < t));
        rank[i] = r;
    }
    for (int i = 0; i < n; i++)
        order[rank[i]] = i;
}

/* The direction t0 (px per row) of the edge line through column x of the target row,
 * refined by the line's own samples in the rows (nrows of them; w: the row width): t0
 * itself where they show no step that another direction near it places clearly better. */
float mp_dualiso_refine_direction(const line_row *rows, int nrows, uint32_t w, int32_t x,
                                  float t0);

#endif
