/* svg: small line plots as inline SVG (no script, fixed size, text in the page's font). */
#ifndef MP_REPORT_SVG_H
#define MP_REPORT_SVG_H

#include <stdint.h>

#include "common/json.h"

typedef struct svg_series {
    const double *x, *y;         /* n points; y NAN: a break in the line */
    uint32_t n;
    const char *colour;          /* CSS colour */
    const char *label;           /* legend text, NULL: none */
    int dashed;
} svg_series;

typedef struct svg_axes {
    uint32_t width, height;      /* pixels of the whole picture */
    double x0, x1, y0, y1;       /* data range shown */
    const char *x_label, *y_label;
    const char *title;           /* the accessible name (role="img" aria-label) */
    int no_y_ticks;              /* a time line: y means nothing */
    double legend_x;             /* where the next legend entry goes (0 at the start) */
} svg_axes;

/* Opens the picture: frame, axis labels and tick values. Then mp_svg_series_add, svg_rect and
 * mp_svg_end. Legends go in a row above the plot, never over a curve. */
void mp_svg_begin(mp_text *t, const svg_axes *a);
void mp_svg_series_add(mp_text *t, svg_axes *a, const svg_series *s);
/* A rectangle in data coordinates spanning the plot's height (gaps, damage, markers). */
void mp_svg_span(mp_text *t, const svg_axes *a, double x0, double x1, const char *colour,
              const char *tip);
void mp_svg_end(mp_text *t);

#endif
