/* Numbers derived from a report for both the JSON and the page, so the two never disagree. */
#include "report_priv.h"

#include <math.h>
#include <string.h>

void mp_report_dynamic_range(const dualiso_levels *lv, double *dark, double *bright,
                             double *combined)
{
    *dark = *bright = *combined = 0;
    if (!lv->is_dual)   /* single-ISO levels carry no measured noise */
        return;
    double range_dark = lv->white_dark - lv->black_dark;
    double range_bright = lv->white_bright - lv->black_bright;
    if (lv->noise_dark > 0 && range_dark > 0)
        *dark = log2(range_dark / lv->noise_dark);
    if (lv->noise_bright > 0 && range_bright > 0)
        *bright = log2(range_bright / lv->noise_bright);
    /* the bright field's noise seen in dark-field units is its noise over the ratio */
    if (lv->noise_bright > 0 && lv->ratio > 0 && range_dark > 0)
        *combined = log2(range_dark * lv->ratio / lv->noise_bright);
}

void mp_report_band_summary_get(const mp_clip_report *r, uint32_t band, report_band_summary *s)
{
    double sum = 0, sum2 = 0, noise2 = 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->frame_count; i++) {
        const mp_report_frame *f = &r->frames[i];
        if (f->damaged || !f->band_tiles[band])
            continue;
        sum += f->band_mean[band];
        sum2 += f->band_mean[band] * f->band_mean[band];
        noise2 += f->band_noise[band] * f->band_noise[band];
        n++;
    }
    memset(s, 0, sizeof *s);
    s->frames = n;
    if (!n)
        return;
    s->mean = sum / n;
    double var = n > 1 ? fmax(0, (sum2 - sum * sum / n) / (n - 1)) : 0;
    s->flicker_pct = s->mean > 0 ? 100 * sqrt(var) / s->mean : 0;
    s->predicted_pct = s->mean > 0 ? 100 * sqrt(noise2 / n) / s->mean : 0;
}

void mp_report_clip_summary_get(const mp_clip_report *r, report_clip_summary *s)
{
    memset(s, 0, sizeof *s);
    for (uint32_t i = 0; i < r->frame_count; i++) {
        const mp_report_frame *f = &r->frames[i];
        if (f->damaged) {
            s->damaged++;
            continue;
        }
        s->frames++;
        s->clipped_mean += f->clipped;
        s->crushed_mean += f->crushed;
        s->clipped_max = fmax(s->clipped_max, f->clipped);
        s->crushed_max = fmax(s->crushed_max, f->crushed);
    }
    if (s->frames) {
        s->clipped_mean /= s->frames;
        s->crushed_mean /= s->frames;
    }
}

const char *mp_report_base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}
