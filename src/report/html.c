/* The report as one self-contained HTML page: inline CSS, pictures as data: PNGs and inline
 * SVG, no script, nothing fetched. Every clip is a section; a table at the top links them. */
#include "report_priv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "movie/png.h"
#include "rawfix/rawfix.h"
#include "svg.h"

#define PLOT_W 360u
#define PLOT_H 170u
#define MAP_W 240u

static const char *const STYLE =
    "body{font:14px/1.4 system-ui,sans-serif;margin:16px;background:#1d1d1f;color:#ddd}"
    "a{color:#8cf}h2{margin:4px 0}section{border-top:1px solid #444;padding:10px 0}"
    "table{border-collapse:collapse;margin:6px 0}td,th{padding:1px 8px;text-align:right;"
    "border-bottom:1px solid #333}th{color:#aaa;font-weight:normal}"
    ".l{text-align:left}.sheet img{margin:0 3px 3px 0;vertical-align:top}"
    ".plots{display:flex;flex-wrap:wrap;gap:10px}figure{margin:0}"
    "figcaption{font-size:12px;color:#aaa;max-width:360px}.bad{color:#f77}.ok{color:#8d8}"
    ".note{color:#aaa;font-size:12px}";

/* Text for HTML: markup characters escaped; bytes outside ASCII become '?' so a damaged
 * name can never break the page's UTF-8. */
static void esc(mp_text *t, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': mp_text_printf(t, "&amp;"); break;
        case '<': mp_text_printf(t, "&lt;"); break;
        case '>': mp_text_printf(t, "&gt;"); break;
        case '"': mp_text_printf(t, "&quot;"); break;
        default: mp_text_printf(t, "%c", c >= 0x20 && c < 0x7f ? c : '?');
        }
    }
}

static void base64(mp_text *t, const uint8_t *d, size_t n)
{
    static const char tab[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char quad[5] = {0};
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) |
                     (i + 2 < n ? d[i + 2] : 0);
        quad[0] = tab[v >> 18];
        quad[1] = tab[(v >> 12) & 63];
        quad[2] = i + 1 < n ? tab[(v >> 6) & 63] : '=';
        quad[3] = i + 2 < n ? tab[v & 63] : '=';
        mp_text_printf(t, "%s", quad);
    }
}

static void png_img(mp_text *t, const uint8_t *png, size_t size, uint32_t w, uint32_t h,
                    const char *alt)
{
    mp_text_printf(t, "<img width=\"%u\" height=\"%u\" alt=\"", w, h);
    esc(t, alt);
    mp_text_printf(t, "\" src=\"data:image/png;base64,");
    base64(t, png, size);
    mp_text_printf(t, "\">");
}

static const char *status_class(mp_status st)
{
    return st == MP_OK ? "ok" : "bad";
}

static const char *status_text(mp_status st)
{
    return st == MP_OK ? "ok" : st == MP_ERR_DAMAGED ? "damaged" : "not read";
}

/* The clip was opened (its header read), though it may be damaged. */
static int was_read(const mp_clip_report *r)
{
    return r->status == MP_OK || r->status == MP_ERR_DAMAGED;
}

static void overview(mp_text *t, const mp_clip_report *const *r, uint32_t n)
{
    mp_text_printf(t, "<table><tr><th class=l>clip</th><th>frames</th><th>size</th>"
                   "<th>dual ISO</th><th>clipped (mean)</th><th>crushed (mean)</th>"
                   "<th>status</th></tr>");
    for (uint32_t i = 0; i < n; i++) {
        report_clip_summary cs;
        mp_report_clip_summary_get(r[i], &cs);
        mp_text_printf(t, "<tr><td class=l><a href=\"#clip%u\">", i);
        esc(t, mp_report_base_name(r[i]->path));
        mp_text_printf(t, "</a></td>");
        if (!was_read(r[i]))   /* nothing known: a dash, not zeros that look measured */
            mp_text_printf(t, "<td>–</td><td>–</td><td>–</td>");
        else
            mp_text_printf(t, "<td>%u</td><td>%ux%u</td><td>%s</td>", r[i]->info.frame_count,
                           r[i]->info.raw.width, r[i]->info.raw.height,
                           r[i]->dual ? "yes" : "no");
        if (r[i]->frame_count)
            mp_text_printf(t, "<td>%.2f %%</td><td>%.2f %%</td>", 100 * cs.clipped_mean,
                           100 * cs.crushed_mean);
        else
            mp_text_printf(t, "<td>–</td><td>–</td>");
        mp_text_printf(t, "<td class=%s>%s</td></tr>", status_class(r[i]->status),
                       status_text(r[i]->status));
    }
    mp_text_printf(t, "</table>");
}

/* Deep in the shadows a quarter-EV bin holds one code value or none, so the curve would
 * jump between 0 and a full code's share from bin to bin: there the bins are merged, from
 * the clip down, into groups of at least HIST_GROUP_CODES code values, each bin of a group
 * drawn at the group's mean (the JSON keeps every bin as measured). */
#define HIST_GROUP_CODES 8u

static void histogram_groups(const mp_clip_report *r, int f, uint32_t group[MP_REPORT_HIST_BINS])
{
    const dualiso_levels *lv = r->levels.segment_count ? &r->levels.segments[0].levels : NULL;
    double black = r->info.raw.black, white = r->info.raw.white;
    if (lv && lv->is_dual) {
        black = f ? lv->black_bright : lv->black_dark;
        white = f ? lv->white_bright : lv->white_dark;
    }
    uint32_t codes[MP_REPORT_HIST_BINS];
    mp_report_hist_codes(black, white, codes);
    uint32_t first = 0, sum = 0;
    for (uint32_t b = 0; b < MP_REPORT_HIST_BINS; b++) {
        sum += codes[b];
        if (sum >= HIST_GROUP_CODES || b == MP_REPORT_HIST_BINS - 2 ||
            b == MP_REPORT_HIST_BINS - 1) {   /* the deepest bin takes all below: alone */
            for (uint32_t k = first; k <= b; k++)
                group[k] = first;
            first = b + 1;
            sum = 0;
        }
    }
}

static void histogram_plot(mp_text *t, const mp_clip_report *r, int f)
{
    static const char *const colour[3] = {"#f55", "#5d5", "#59f"};
    static const char *const name[3] = {"R", "G", "B"};
    double x[MP_REPORT_HIST_BINS], y[3][MP_REPORT_HIST_BINS], top = 0;
    uint64_t total = 0, crushed = 0, clipped = 0;
    uint32_t group[MP_REPORT_HIST_BINS];
    histogram_groups(r, f, group);
    for (int c = 0; c < 3; c++)
        for (uint32_t b = 0; b < MP_REPORT_HIST_BINS + 2; b++)
            total += r->hist[f][c][b];
    for (int c = 0; c < 3; c++) {
        crushed += r->hist[f][c][0];
        clipped += r->hist[f][c][MP_REPORT_HIST_BINS + 1];
        for (uint32_t b = 0; b < MP_REPORT_HIST_BINS; b++) {
            uint32_t end = b;
            while (end + 1 < MP_REPORT_HIST_BINS && group[end + 1] == group[b])
                end++;
            uint64_t in_group = 0;
            for (uint32_t k = group[b]; k <= end; k++)
                in_group += r->hist[f][c][1 + k];
            x[b] = -(b + 0.5) * MP_REPORT_HIST_STEP_EV;
            y[c][b] = total ? 100.0 * in_group / total / (end - group[b] + 1) : 0;
            top = fmax(top, y[c][b]);
        }
    }
    const char *field = r->dual ? (f ? "bright field" : "dark field") : "all photosites";
    char title[96];
    snprintf(title, sizeof title, "raw histogram, %s", field);
    svg_axes a = {PLOT_W, PLOT_H, -(double)MP_REPORT_HIST_BINS * MP_REPORT_HIST_STEP_EV, 0, 0,
                  top > 0 ? top * 1.05 : 1, "EV below the clip", "% of samples", title, 0, 0};
    mp_text_printf(t, "<figure>");
    mp_svg_begin(t, &a);
    for (int c = 0; c < 3; c++) {
        svg_series s = {x, y[c], MP_REPORT_HIST_BINS, colour[c], name[c], 0};
        mp_svg_series_add(t, &a, &s);
    }
    mp_svg_end(t);
    mp_text_printf(t, "<figcaption>%s (%s): %.3f %% at or above the clip, %.3f %% at or below "
                   "black; ¼-EV bins, merged where they hold fewer than %u code values"
                   "</figcaption></figure>", title,
                   r->dual ? "per field, its own black and clip" : "black and white of the clip",
                   total ? 100.0 * clipped / total : 0, total ? 100.0 * crushed / total : 0,
                   HIST_GROUP_CODES);
}

/* Values of the measured frames over the time line; damaged ones break the line. */
static void frame_series(const mp_clip_report *r, double *x, double *y, int what, uint32_t arg)
{
    for (uint32_t i = 0; i < r->frame_count; i++) {
        const mp_report_frame *f = &r->frames[i];
        x[i] = f->number;
        double v = what == 0 ? f->clipped : what == 1 ? f->crushed : f->field_clipped[arg];
        y[i] = f->damaged ? NAN : 100 * v;
    }
}

static void clipping_plot(mp_text *t, const mp_clip_report *r, double *x, double *y)
{
    double top = 1;
    for (uint32_t i = 0; i < r->frame_count; i++)
        if (!r->frames[i].damaged)
            top = fmax(top, 100 * fmax(fmax(r->frames[i].clipped, r->frames[i].crushed),
                                       r->frames[i].field_clipped[1]));
    svg_axes a = {PLOT_W, PLOT_H, r->info.first_number, fmax(r->info.last_number,
                  r->info.first_number + 1), 0, top * 1.05, "frame", "% of photosites",
                  "clipped and crushed over time", 0, 0};
    mp_text_printf(t, "<figure>");
    mp_svg_begin(t, &a);
    frame_series(r, x, y, 0, 0);
    mp_svg_series_add(t, &a, &(svg_series){x, y, r->frame_count, "#f66", "clipped", 0});
    frame_series(r, x, y, 1, 0);
    mp_svg_series_add(t, &a, &(svg_series){x, y, r->frame_count, "#69f", "crushed", 0});
    if (r->dual) {
        frame_series(r, x, y, 2, 1);
        mp_svg_series_add(t, &a, &(svg_series){x, y, r->frame_count, "#fa5",
                                            "bright field clipped", 1});
    }
    mp_svg_end(t);
    mp_text_printf(t, "<figcaption>Clipped: the linear frame (what convert writes) at its "
                   "white; crushed: at or below its black. %u measured frames.</figcaption>"
                   "</figure>", r->frame_count);
}

static void bands_plot(mp_text *t, const mp_clip_report *r, double *x, double *y)
{
    static const char *const colour[MP_REPORT_BANDS] = {"#eee", "#fd6", "#f96", "#e6e",
                                                         "#6cf", "#6e9"};
    report_band_summary s[MP_REPORT_BANDS];
    double top = 0.1;
    for (uint32_t b = 0; b < MP_REPORT_BANDS; b++) {
        mp_report_band_summary_get(r, b, &s[b]);
        for (uint32_t i = 0; i < r->frame_count && s[b].mean > 0; i++)
            if (!r->frames[i].damaged && r->frames[i].band_tiles[b])
                top = fmax(top, fabs(100 * (r->frames[i].band_mean[b] / s[b].mean - 1)));
        top = fmax(top, 2 * s[b].predicted_pct);
    }
    svg_axes a = {PLOT_W, PLOT_H, r->info.first_number, fmax(r->info.last_number,
                  r->info.first_number + 1), -top * 1.1, top * 1.1, "frame",
                  "% off the band's mean", "band means over time", 0, 0};
    mp_text_printf(t, "<figure>");
    mp_svg_begin(t, &a);
    for (uint32_t b = 0; b < MP_REPORT_BANDS; b++) {
        if (s[b].frames < 2)
            continue;
        for (uint32_t i = 0; i < r->frame_count; i++) {
            const mp_report_frame *f = &r->frames[i];
            x[i] = f->number;
            y[i] = f->damaged || !f->band_tiles[b] ? NAN : 100 * (f->band_mean[b] / s[b].mean - 1);
        }
        char label[48];
        snprintf(label, sizeof label, "%g-%g EV", b * MP_REPORT_BAND_EV,
                 (b + 1) * MP_REPORT_BAND_EV);
        mp_svg_series_add(t, &a, &(svg_series){x, y, r->frame_count, colour[b], label, 0});
    }
    mp_svg_end(t);
    mp_text_printf(t, "<figcaption>Mean of the 16x16 tiles in each 2-EV band below the clip, "
                   "per frame. Flicker (spread over frames) against what each frame's own "
                   "noise predicts:");
    for (uint32_t b = 0; b < MP_REPORT_BANDS; b++)
        if (s[b].frames >= 2)
            mp_text_printf(t, " %g-%g EV %.3f %% / %.3f %%;", b * MP_REPORT_BAND_EV,
                           (b + 1) * MP_REPORT_BAND_EV, s[b].flicker_pct, s[b].predicted_pct);
    mp_text_printf(t, " meaningful on static shots.</figcaption></figure>");
}

static void audio_plot(mp_text *t, const mp_clip_report *r, double *x, double *y)
{
    const mp_audio_format *a = &r->info.audio;
    if (!a->present)
        return;
    mp_text_printf(t, "<figure>");
    if (!r->audio_count) {
        mp_text_printf(t, "<p class=note>Audio: %u channels, %u Hz, %u bits: not measured "
                       "(only 16-bit PCM is).</p></figure>", a->channels, a->sample_rate,
                       a->bits_per_sample);
        return;
    }
    double t0 = r->audio[0].time_s, t1 = r->audio[r->audio_count - 1].time_s;
    svg_axes ax = {PLOT_W, PLOT_H, fmin(t0, 0), fmax(t1, t0 + 0.1), -60, 0, "seconds",
                   "dBFS", "audio level over time", 0, 0};
    mp_svg_begin(t, &ax);
    static const char *const colour[2] = {"#6d6", "#d6d"};
    static const char *const label[2] = {"left RMS", "right RMS"};
    uint32_t channels = a->channels < 2 ? a->channels : 2;
    for (uint32_t c = 0; c < channels; c++) {
        for (uint32_t i = 0; i < r->audio_count; i++) {
            x[i] = r->audio[i].time_s;
            y[i] = r->audio[i].rms_dbfs[c];
        }
        mp_svg_series_add(t, &ax, &(svg_series){x, y, r->audio_count, colour[c],
                                             channels > 1 ? label[c] : "RMS", 0});
    }
    mp_svg_end(t);
    mp_text_printf(t, "<figcaption>RMS level of %u windows of 0.1 s, %u channels, %u Hz; time "
                   "0 is the first frame.</figcaption></figure>", r->audio_count, a->channels,
                   a->sample_rate);
}

static void timeline_plot(mp_text *t, const mp_clip_report *r)
{
    svg_axes a = {2 * PLOT_W, 84, r->info.first_number, fmax(r->info.last_number + 1.0,
                  r->info.first_number + 1), 0, 1, "frame", "", "time line", 1, 0};
    mp_text_printf(t, "<figure>");
    mp_svg_begin(t, &a);
    char tip[96];
    for (uint32_t i = 0; i < r->frame_count; i++) {
        const mp_report_frame *f = &r->frames[i];
        snprintf(tip, sizeof tip, "frame %u%s", f->number, f->damaged ? " unreadable" : "");
        mp_svg_span(t, &a, f->number, f->number + 0.01, f->damaged ? "#f80" : "#4a4", tip);
    }
    for (uint32_t i = 0; i < r->gap_count; i++) {
        snprintf(tip, sizeof tip, "frames %u-%u missing", r->gaps[i].first,
                 r->gaps[i].first + r->gaps[i].count - 1);
        mp_svg_span(t, &a, r->gaps[i].first, r->gaps[i].first + r->gaps[i].count, "#f33", tip);
    }
    for (uint32_t k = 0; r->damage && k < r->info.damage_count; k++) {
        snprintf(tip, sizeof tip, "damage before frame %u: %s", r->damage_before[k],
                 mp_mlv_damage_kind_name(r->damage[k].kind));
        mp_svg_span(t, &a, r->damage_before[k] - 0.5, r->damage_before[k] - 0.2, "#a0f", tip);
    }
    mp_svg_end(t);
    mp_text_printf(t, "<figcaption>Green: measured frames, orange: unreadable, red: missing "
                   "frame numbers (%u gaps, %u frames), violet: damage in the files (%u), "
                   "before the frame that follows it.</figcaption></figure>", r->gap_count,
                   r->info.missing_frames, r->info.damage_count);
}

static mp_status defect_map(mp_text *t, const rawfix_map *m, mp_error *err)
{
    if (!m->width || !m->height)
        return MP_OK;
    uint32_t w = m->width < MAP_W ? m->width : MAP_W;
    uint32_t h = (uint32_t)((uint64_t)m->height * w / m->width);
    h = h ? h : 1;
    uint8_t *px = malloc((size_t)w * h * 3);
    if (!px)
        return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
    for (size_t i = 0; i < (size_t)w * h; i++)
        px[3 * i] = px[3 * i + 1] = px[3 * i + 2] = 40;
    const rawfix_lattice *l = &m->lattice;
    if (l->period_x) /* the lattice's box, dim blue */
        for (uint32_t y = l->y0 * h / m->height; y < l->y1 * h / m->height && y < h; y++)
            for (uint32_t x = l->x0 * w / m->width; x < l->x1 * w / m->width && x < w; x++)
                px[3 * ((size_t)y * w + x) + 2] = 110;
    for (uint32_t i = 0; i < m->pixel_count; i++) {
        size_t x = (size_t)m->pixels[2 * i] * w / m->width;
        size_t y = (size_t)m->pixels[2 * i + 1] * h / m->height;
        if (x < w && y < h) {
            uint8_t *p = px + 3 * (y * w + x);
            p[0] = 255, p[1] = 60, p[2] = 60;
        }
    }
    uint8_t *png = NULL;
    size_t size = 0;
    mp_status st = mp_png_encode_rgb24(px, w, h, (size_t)w * 3, &png, &size, err);
    free(px);
    if (st == MP_OK)
        png_img(t, png, size, w, h, "defect map");
    free(png);
    return st;
}

static mp_status segments_table(mp_text *t, const mp_clip_report *r, mp_error *err)
{
    mp_text_printf(t, "<table><tr><th class=l>segment</th><th>dual ISO</th><th>ratio (EV)</th>"
                   "<th>black dark/bright</th><th>white dark/bright</th>"
                   "<th>noise dark/bright</th><th>DR dark/combined</th><th>focus pixels</th>"
                   "<th>hot/cold</th><th>stripes</th></tr>");
    for (uint32_t k = 0; k < r->levels.segment_count; k++) {
        const mp_levels_segment *s = &r->levels.segments[k];
        const dualiso_levels *lv = &s->levels;
        const rawfix_map *m = &s->fix;
        double dr[3];
        mp_report_dynamic_range(lv, &dr[0], &dr[1], &dr[2]);
        mp_text_printf(t, "<tr><td class=l>frames %u-%u</td>", s->first_frame, s->last_frame);
        if (lv->is_dual)
            mp_text_printf(t, "<td>yes, phase %u</td><td>%.2f (%.2f, %s)</td><td>%.1f / %.1f</td>"
                           "<td>%.0f / %.0f</td><td>%.2f / %.2f</td><td>%.1f / %.1f EV</td>",
                           lv->phase, lv->ratio, lv->ratio_ev,
                           mp_dualiso_ratio_source_name(lv->ratio_source), lv->black_dark,
                           lv->black_bright, lv->white_dark, lv->white_bright, lv->noise_dark,
                           lv->noise_bright, dr[0], dr[2]);
        else
            mp_text_printf(t, "<td>no</td><td>-</td><td>%.0f</td><td>%.0f</td><td>-</td>"
                           "<td>-</td>", lv->in_black, lv->in_white);
        if (m->lattice.period_x)
            mp_text_printf(t, "<td>%ux%u lattice, %llu sites</td>", m->lattice.period_x,
                           m->lattice.period_y,
                           (unsigned long long)mp_rawfix_lattice_sites(&m->lattice));
        else
            mp_text_printf(t, "<td>none%s</td>",
                           m->lattice_left_alone ? " (a pattern left alone)" : "");
        mp_text_printf(t, "<td>%u", m->pixel_count);
        if (m->left_alone)
            mp_text_printf(t, " (%u left alone)", m->left_alone);
        mp_text_printf(t, "</td><td>%s, %.2f %%</td></tr>",
                       m->stripes ? "fixed" : "not significant", 100 * m->stripe_amplitude);
    }
    mp_text_printf(t, "</table><p class=note>Levels and defects as the pre-pass found them "
                   "from frames spread over each segment (the ones convert uses). DR: the "
                   "dark field's clip over its read noise, and over the bright field's noise "
                   "brought to dark-field units. Left alone: samples off their neighbours in "
                   "every frame where the scene does not move through them and with the noise "
                   "their level makes, as a still scene's own detail is (a hot pixel's steady "
                   "dark current looks like a point of light); convert --defects-from a moving or lens-cap "
                   "clip of the same body and mode repairs them if they are defects.</p>");
    if (r->dark_frames)
        mp_text_printf(t, "<p class=note>A dark frame (%u frames averaged, pattern %.2f DN RMS) "
                       "was subtracted from every frame first.</p>", r->dark_frames, r->dark_rms);
    for (uint32_t k = 0; k < r->levels.segment_count; k++) {
        const rawfix_map *m = &r->levels.segments[k].fix;
        if (!m->pixel_count && !m->lattice.period_x)
            continue;
        mp_text_printf(t, "<figure>");
        mp_status st = defect_map(t, m, err);
        if (st != MP_OK)
            return st;
        mp_text_printf(t, "<figcaption>Defect map, segment %u: red single defects, blue the "
                       "focus-pixel lattice's area.</figcaption></figure>", k);
    }
    return MP_OK;
}

static void clip_header(mp_text *t, const mp_clip_report *r, uint32_t i)
{
    const mlv_clip_info *in = &r->info;
    double fps = in->fps_den ? (double)in->fps_num / in->fps_den : 0;
    mp_text_printf(t, "<section id=\"clip%u\"><h2>", i);
    esc(t, mp_report_base_name(r->path));
    mp_text_printf(t, " <span class=%s>%s</span></h2><p>", status_class(r->status),
                   status_text(r->status));
    if (was_read(r) && in->camera.present) {
        esc(t, in->camera.name);
        mp_text_printf(t, ", ");
    }
    if (was_read(r))
        mp_text_printf(t, "%ux%u %u-bit, %.3f fps, %u frames (%u-%u), compression %s, %u "
                       "chunk%s", in->raw.width, in->raw.height, in->raw.bits, fps,
                       in->frame_count, in->first_number, in->last_number,
                       mp_mlv_compression_name(in->compression), in->chunk_count,
                       in->chunk_count == 1 ? "" : "s");
    mp_text_printf(t, "</p>");
    if (r->status != MP_OK) {
        mp_text_printf(t, "<p class=bad>");
        esc(t, r->error);
        mp_text_printf(t, "</p>");
    }
}

static mp_status clip_section(mp_text *t, const mp_clip_report *r, uint32_t i, mp_error *err)
{
    clip_header(t, r, i);
    if (r->thumb_count) {
        mp_text_printf(t, "<div class=sheet>");
        for (uint32_t k = 0; k < r->thumb_count; k++) {
            const mp_report_thumb *th = &r->thumbs[k];
            char alt[32];
            snprintf(alt, sizeof alt, "frame %u", th->number);
            if (th->png)
                png_img(t, th->png, th->png_size, th->width, th->height, alt);
        }
        mp_text_printf(t, "</div>");
    }
    uint32_t n = r->frame_count > r->audio_count ? r->frame_count : r->audio_count;
    double *x = malloc((n ? n : 1) * sizeof *x), *y = malloc((n ? n : 1) * sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
    }
    mp_text_printf(t, "<div class=plots>");
    if (r->frame_count) {
        for (int f = 0; f < (r->dual ? 2 : 1); f++)
            histogram_plot(t, r, f);
        clipping_plot(t, r, x, y);
        bands_plot(t, r, x, y);
    }
    audio_plot(t, r, x, y);
    if (r->info.frame_count)
        timeline_plot(t, r);
    mp_text_printf(t, "</div>");
    free(x);
    free(y);
    mp_status st = r->levels.segment_count ? segments_table(t, r, err) : MP_OK;
    if (st != MP_OK)
        return st;
    if (r->info.damage_count) {
        mp_text_printf(t, "<p>Damage:</p><ul>");
        for (uint32_t k = 0; r->damage && k < r->info.damage_count; k++) {
            mp_text_printf(t, "<li>");
            esc(t, r->damage[k].message);
            mp_text_printf(t, "</li>");
        }
        mp_text_printf(t, "</ul>");
    }
    mp_text_printf(t, "</section>\n");
    return MP_OK;
}

mp_status mp_report_html(const mp_clip_report *const *r, uint32_t n, const char *tool,
                         char **text, size_t *len, mp_error *err)
{
    mp_text t = {0};
    mp_text_printf(&t, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                   "<meta name=\"viewport\" content=\"width=device-width\">"
                   "<title>mlvpipe report</title><style>%s</style></head><body>\n"
                   "<h1>mlvpipe report</h1><p class=note>%u clip%s, ", STYLE, n,
                   n == 1 ? "" : "s");
    esc(&t, tool);
    mp_text_printf(&t, ". Frames sampled over each clip and read as convert reads them.</p>");
    overview(&t, r, n);
    mp_status st = MP_OK;
    for (uint32_t i = 0; i < n && st == MP_OK; i++)
        st = clip_section(&t, r[i], i, err);
    mp_text_printf(&t, "</body></html>\n");
    if (st == MP_OK && t.failed)
        st = mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
    if (st != MP_OK) {
        mp_text_free(&t);
        return st;
    }
    *text = t.data;
    *len = t.len;
    return MP_OK;
}
