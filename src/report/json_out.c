/* The report as JSON (doc/json.md section 5): one document, a "clips" array, the same keys
 * for every clip whether it was read, damaged or not readable at all. */
#include "report_priv.h"

#include <math.h>
#include <stdlib.h>

#include "rawfix/rawfix.h"

static void num(mp_text *t, const char *key, double v, const char *sep)
{
    if (isfinite(v))
        mp_text_printf(t, "\"%s\": %.9g%s", key, v, sep);
    else
        mp_text_printf(t, "\"%s\": null%s", key, sep);
}

/* "key": [v0, v1, ...] followed by sep; %.9g keeps what the numbers measure. */
static void array(mp_text *t, const char *key, const double *v, uint32_t n, const char *sep)
{
    mp_text_printf(t, "\"%s\": [", key);
    for (uint32_t i = 0; i < n; i++)
        mp_text_printf(t, "%s%.9g", i ? ", " : "", isfinite(v[i]) ? v[i] : 0);
    mp_text_printf(t, "]%s", sep);
}

static const char *status_name(mp_status st)
{
    return st == MP_OK ? "ok" : st == MP_ERR_DAMAGED ? "damaged" : "error";
}

static void clip_info(mp_text *t, const mp_clip_report *r)
{
    const mlv_clip_info *in = &r->info;
    double fps = in->fps_den ? (double)in->fps_num / in->fps_den : 0;
    mp_text_printf(t, "\"clip\": {\"camera\": ");
    mp_text_json_string(t, in->camera.present ? in->camera.name : "");
    mp_text_printf(t, ", \"width\": %u, \"height\": %u, \"bits\": %u, \"black\": %d, "
                   "\"white\": %d, \"compression\": \"%s\", \"chunks\": %u, ", in->raw.width,
                   in->raw.height, in->raw.bits, (int)in->raw.black, (int)in->raw.white,
                   mp_mlv_compression_name(in->compression), in->chunk_count);
    num(t, "fps", fps, ", ");
    mp_text_printf(t, "\"frame_count\": %u, \"first_frame\": %u, \"last_frame\": %u, "
                   "\"missing_frames\": %u, ", in->frame_count, in->first_number,
                   in->last_number, in->missing_frames);
    num(t, "duration_s", fps > 0 && in->frame_count ? (in->last_number - in->first_number + 1) / fps
                                                    : 0, "}");
}

static void defects(mp_text *t, const rawfix_map *m)
{
    const rawfix_lattice *l = &m->lattice;
    mp_text_printf(t, "\"defects\": {\"frames\": %u, \"lattice\": ", m->frames);
    if (l->period_x)
        mp_text_printf(t, "{\"period_x\": %u, \"period_y\": %u, \"x0\": %u, \"y0\": %u, "
                       "\"x1\": %u, \"y1\": %u, \"classes\": %u, \"sites\": %llu}",
                       l->period_x, l->period_y, l->x0, l->y0, l->x1, l->y1, l->class_count,
                       (unsigned long long)mp_rawfix_lattice_sites(l));
    else
        mp_text_printf(t, "null");
    mp_text_printf(t, ", \"pixels\": %u, \"candidates_left_alone\": %u, "
                   "\"lattice_left_alone\": %s, \"stripes\": %s, ", m->pixel_count, m->left_alone,
                   m->lattice_left_alone ? "true" : "false", m->stripes ? "true" : "false");
    num(t, "stripe_amplitude", m->stripe_amplitude, "}");
}

static void segments(mp_text *t, const mp_clip_report *r)
{
    mp_text_printf(t, "\"segments\": [");
    for (uint32_t k = 0; k < r->levels.segment_count; k++) {
        const mp_levels_segment *s = &r->levels.segments[k];
        const dualiso_levels *lv = &s->levels;
        double dr[3];
        mp_report_dynamic_range(lv, &dr[0], &dr[1], &dr[2]);
        mp_text_printf(t, "%s\n    {\"first_index\": %u, \"frame_count\": %u, "
                       "\"first_frame\": %u, \"last_frame\": %u, \"dual_iso\": %s, "
                       "\"phase\": %u, \"ratio_source\": \"%s\", \"frames_used\": %u, ",
                       k ? "," : "", s->first_index, s->frame_count, s->first_frame,
                       s->last_frame, lv->is_dual ? "true" : "false", lv->phase,
                       mp_dualiso_ratio_source_name(lv->ratio_source), lv->frames_used);
        num(t, "ratio", lv->ratio, ", ");
        num(t, "ratio_ev", lv->ratio_ev, ", ");
        num(t, "black_dark", lv->black_dark, ", ");
        num(t, "black_bright", lv->black_bright, ", ");
        num(t, "white_dark", lv->white_dark, ", ");
        num(t, "white_bright", lv->white_bright, ", ");
        num(t, "noise_dark", lv->noise_dark, ", ");
        num(t, "noise_bright", lv->noise_bright, ", ");
        num(t, "gain_dark", lv->gain_dark, ", ");
        mp_text_printf(t, "\"dynamic_range_ev\": {");
        num(t, "dark", dr[0], ", ");
        num(t, "bright", dr[1], ", ");
        num(t, "combined", dr[2], "}, ");
        defects(t, &s->fix);
        mp_text_printf(t, "}");
    }
    mp_text_printf(t, "%s]", r->levels.segment_count ? "\n  " : "");
}

static void histogram(mp_text *t, const mp_clip_report *r)
{
    static const char *const chan[3] = {"R", "G", "B"};
    static const char *const field[2] = {"dark", "bright"};
    mp_text_printf(t, "\"histogram\": {\"step_ev\": %g, \"bins\": %u, \"fields\": [",
                   MP_REPORT_HIST_STEP_EV, MP_REPORT_HIST_BINS);
    int fields = r->dual ? 2 : 1;
    for (int f = 0; f < fields; f++) {
        mp_text_printf(t, "%s\n    {\"field\": \"%s\", \"channels\": {", f ? "," : "",
                       r->dual ? field[f] : "all");
        for (int c = 0; c < 3; c++) {
            const uint64_t *h = r->hist[f][c];
            mp_text_printf(t, "%s\"%s\": {\"crushed\": %llu, \"clipped\": %llu, \"counts\": [",
                           c ? ", " : "", chan[c], (unsigned long long)h[0],
                           (unsigned long long)h[MP_REPORT_HIST_BINS + 1]);
            for (uint32_t b = 0; b < MP_REPORT_HIST_BINS; b++)
                mp_text_printf(t, "%s%llu", b ? ", " : "", (unsigned long long)h[1 + b]);
            mp_text_printf(t, "]}");
        }
        mp_text_printf(t, "}}");
    }
    mp_text_printf(t, "]}");
}

static void frames(mp_text *t, const mp_clip_report *r)
{
    report_clip_summary cs;
    mp_report_clip_summary_get(r, &cs);
    mp_text_printf(t, "\"clipping\": {\"frames\": %u, \"damaged_frames\": %u, ", cs.frames,
                   cs.damaged);
    num(t, "clipped_mean", cs.clipped_mean, ", ");
    num(t, "clipped_max", cs.clipped_max, ", ");
    num(t, "crushed_mean", cs.crushed_mean, ", ");
    num(t, "crushed_max", cs.crushed_max, "},\n  ");
    mp_text_printf(t, "\"frames\": [");
    for (uint32_t i = 0; i < r->frame_count; i++) {
        const mp_report_frame *f = &r->frames[i];
        mp_text_printf(t, "%s\n    {\"number\": %u, ", i ? "," : "", f->number);
        num(t, "time_s", f->time_s, ", ");
        mp_text_printf(t, "\"damaged\": %s", f->damaged ? "true" : "false");
        if (f->damaged) {
            mp_text_printf(t, "}");
            continue;
        }
        mp_text_printf(t, ", ");
        num(t, "clipped", f->clipped, ", ");
        num(t, "crushed", f->crushed, ", ");
        array(t, "field_clipped", f->field_clipped, r->dual ? 2 : 1, ", ");
        array(t, "band_mean", f->band_mean, MP_REPORT_BANDS, ", ");
        array(t, "band_noise", f->band_noise, MP_REPORT_BANDS, "}");
    }
    mp_text_printf(t, "%s],\n  \"bands\": [", r->frame_count ? "\n  " : "");
    for (uint32_t b = 0; b < MP_REPORT_BANDS; b++) {
        report_band_summary s;
        mp_report_band_summary_get(r, b, &s);
        mp_text_printf(t, "%s\n    {\"ev_below_clip\": [%g, %g], \"frames\": %u, ", b ? "," : "",
                       b * MP_REPORT_BAND_EV, (b + 1) * MP_REPORT_BAND_EV, s.frames);
        num(t, "mean", s.mean, ", ");
        num(t, "flicker_pct", s.flicker_pct, ", ");
        num(t, "predicted_pct", s.predicted_pct, "}");
    }
    mp_text_printf(t, "\n  ]");
}

static void audio(mp_text *t, const mp_clip_report *r)
{
    const mp_audio_format *a = &r->info.audio;
    if (!a->present) {
        mp_text_printf(t, "\"audio\": null");
        return;
    }
    mp_text_printf(t, "\"audio\": {\"channels\": %u, \"sample_rate\": %u, \"bits\": %u, "
                   "\"measured\": %s, \"points\": [", a->channels, a->sample_rate,
                   a->bits_per_sample, r->audio_count ? "true" : "false");
    uint32_t channels = a->channels < 2 ? a->channels : 2;
    for (uint32_t i = 0; i < r->audio_count; i++) {
        const mp_report_audio_point *p = &r->audio[i];
        mp_text_printf(t, "%s\n    {", i ? "," : "");
        num(t, "time_s", p->time_s, ", ");
        array(t, "rms_dbfs", p->rms_dbfs, channels, ", ");
        array(t, "peak_dbfs", p->peak_dbfs, channels, "}");
    }
    mp_text_printf(t, "%s]}", r->audio_count ? "\n  " : "");
}

static void timeline(mp_text *t, const mp_clip_report *r)
{
    mp_text_printf(t, "\"gaps\": [");
    for (uint32_t i = 0; i < r->gap_count; i++)
        mp_text_printf(t, "%s{\"first\": %u, \"count\": %u}", i ? ", " : "", r->gaps[i].first,
                       r->gaps[i].count);
    mp_text_printf(t, "],\n  \"damage\": [");
    for (uint32_t i = 0; r->damage && i < r->info.damage_count; i++) {
        const mlv_damage *d = &r->damage[i];
        mp_text_printf(t, "%s\n    {\"kind\": \"%s\", \"chunk\": %u, \"offset\": %llu, "
                       "\"before_frame\": %u, \"message\": ", i ? "," : "",
                       mp_mlv_damage_kind_name(d->kind), d->chunk,
                       (unsigned long long)d->offset, r->damage_before[i]);
        mp_text_json_string(t, d->message);
        mp_text_printf(t, "}");
    }
    mp_text_printf(t, "%s],\n  \"contact_sheet\": [", r->info.damage_count ? "\n  " : "");
    for (uint32_t i = 0; i < r->thumb_count; i++)
        mp_text_printf(t, "%s{\"frame\": %u, \"width\": %u, \"height\": %u, \"png_bytes\": %zu}",
                       i ? ", " : "", r->thumbs[i].number, r->thumbs[i].width,
                       r->thumbs[i].height, r->thumbs[i].png_size);
    mp_text_printf(t, "]");
}

static void clip(mp_text *t, const mp_clip_report *r)
{
    mp_text_printf(t, "{\n  \"path\": ");
    mp_text_json_string(t, r->path);
    mp_text_printf(t, ", \"name\": ");
    mp_text_json_string(t, mp_report_base_name(r->path));
    mp_text_printf(t, ",\n  \"status\": \"%s\", \"error\": ", status_name(r->status));
    if (r->status == MP_OK)
        mp_text_printf(t, "null");
    else
        mp_text_json_string(t, r->error);
    mp_text_printf(t, ",\n  ");
    clip_info(t, r);
    mp_text_printf(t, ",\n  \"dual_iso\": %s,\n  \"dark_frame\": ", r->dual ? "true" : "false");
    if (r->dark_frames) {
        mp_text_printf(t, "{\"frames\": %u, ", r->dark_frames);
        num(t, "pattern_rms", r->dark_rms, "},\n  ");
    } else {
        mp_text_printf(t, "null,\n  ");
    }
    segments(t, r);
    mp_text_printf(t, ",\n  ");
    histogram(t, r);
    mp_text_printf(t, ",\n  ");
    frames(t, r);
    mp_text_printf(t, ",\n  ");
    audio(t, r);
    mp_text_printf(t, ",\n  ");
    timeline(t, r);
    mp_text_printf(t, "\n}");
}

mp_status mp_report_json(const mp_clip_report *const *r, uint32_t n, const char *tool,
                         char **text, size_t *len, mp_error *err)
{
    mp_text t = {0};
    mp_text_printf(&t, "{\"format\": \"%s\", \"format_version\": %d, \"tool\": ",
                   MP_REPORT_FORMAT, MP_REPORT_FORMAT_VERSION);
    mp_text_json_string(&t, tool);
    mp_text_printf(&t, ",\n\"clips\": [");
    for (uint32_t i = 0; i < n; i++) {
        mp_text_printf(&t, "%s\n", i ? "," : "");
        clip(&t, r[i]);
    }
    mp_text_printf(&t, "\n]}\n");
    if (t.failed) {
        mp_text_free(&t);
        return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
    }
    *text = t.data;
    *len = t.len;
    return MP_OK;
}
