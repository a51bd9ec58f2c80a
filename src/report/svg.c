#include "svg.h"

#include <math.h>
#include <string.h>

#define MARGIN_L 46.0
#define MARGIN_R 8.0
#define MARGIN_T 22.0   /* the legend's row above the plot, where no curve goes */
#define LEGEND_CHAR 6.0 /* width of a legend character at font-size 10, a little generous */
#define LEGEND_GAP 12.0
#define MARGIN_B 30.0

static double px(const svg_axes *a, double x)
{
    double w = a->width - MARGIN_L - MARGIN_R;
    double u = a->x1 > a->x0 ? (x - a->x0) / (a->x1 - a->x0) : 0.5;
    return MARGIN_L + w * fmin(fmax(u, 0), 1);
}

static double py(const svg_axes *a, double y)
{
    double h = a->height - MARGIN_T - MARGIN_B;
    double u = a->y1 > a->y0 ? (y - a->y0) / (a->y1 - a->y0) : 0.5;
    return MARGIN_T + h * (1 - fmin(fmax(u, 0), 1));
}

/* A round step giving about four ticks over span. */
static double tick_step(double span)
{
    double raw = span / 4, p = pow(10, floor(log10(raw)));
    return raw / p < 2 ? p : raw / p < 5 ? 2 * p : 5 * p;
}

void mp_svg_begin(mp_text *t, const svg_axes *a)
{
    mp_text_printf(t, "<svg width=\"%u\" height=\"%u\" "
                   "viewBox=\"0 0 %u %u\" role=\"img\" aria-label=\"", a->width, a->height,
                   a->width, a->height);
    mp_text_printf(t, "%s\" font-size=\"10\" fill=\"#bbb\">", a->title);
    mp_text_printf(t, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#111\" "
                   "stroke=\"#555\"/>", MARGIN_L, MARGIN_T, a->width - MARGIN_L - MARGIN_R,
                   a->height - MARGIN_T - MARGIN_B);
    for (int axis = 0; axis < 2; axis++) {
        double lo = axis ? a->y0 : a->x0, hi = axis ? a->y1 : a->x1;
        if (!(hi > lo) || (axis && a->no_y_ticks))
            continue;
        double step = tick_step(hi - lo);
        for (double v = ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
            double vv = fabs(v) < step * 1e-9 ? 0 : v;
            if (axis)
                mp_text_printf(t, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>",
                               MARGIN_L - 3, py(a, vv) + 3, vv);
            else
                mp_text_printf(t, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>",
                               px(a, vv), a->height - MARGIN_B + 11, vv);
        }
    }
    mp_text_printf(t, "<text x=\"%.1f\" y=\"%u\" text-anchor=\"middle\">%s</text>",
                   MARGIN_L + (a->width - MARGIN_L - MARGIN_R) / 2, a->height - 4, a->x_label);
    mp_text_printf(t, "<text transform=\"translate(10 %.1f) rotate(-90)\" "
                   "text-anchor=\"middle\">%s</text>",
                   MARGIN_T + (a->height - MARGIN_T - MARGIN_B) / 2, a->y_label);
}

void mp_svg_series_add(mp_text *t, svg_axes *a, const svg_series *s)
{
    int open = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        if (!isfinite(s->y[i]) || !isfinite(s->x[i])) {
            if (open)
                mp_text_printf(t, "\"/>");
            open = 0;
            continue;
        }
        if (!open)
            mp_text_printf(t, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.3\"%s "
                           "points=\"", s->colour, s->dashed ? " stroke-dasharray=\"4 3\"" : "");
        mp_text_printf(t, "%s%.1f,%.1f", open ? " " : "", px(a, s->x[i]), py(a, s->y[i]));
        open = 1;
    }
    if (open)
        mp_text_printf(t, "\"/>");
    if (s->label) {   /* left to right above the plot, each after the one before */
        mp_text_printf(t, "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s</text>",
                       MARGIN_L + a->legend_x, MARGIN_T - 7, s->colour, s->label);
        a->legend_x += LEGEND_CHAR * (double)strlen(s->label) + LEGEND_GAP;
    }
}

void mp_svg_span(mp_text *t, const svg_axes *a, double x0, double x1, const char *colour,
              const char *tip)
{
    double l = px(a, x0), r = px(a, x1);
    mp_text_printf(t, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                   "fill=\"%s\"><title>%s</title></rect>", l, MARGIN_T, fmax(r - l, 1.5),
                   a->height - MARGIN_T - MARGIN_B, colour, tip);
}

void mp_svg_end(mp_text *t)
{
    mp_text_printf(t, "</svg>");
}
