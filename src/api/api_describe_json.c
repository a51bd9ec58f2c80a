/* The clip report as one JSON object (mlvpipe info --json); the keys are a stable interface
 * documented in doc/json.md (section 1). */
#include "api_describe.h"

#include <inttypes.h>
#include <stdarg.h>

static void print_defects_json(const info_report *r, mp_text *t)
{
    mp_text_printf(t, "  \"raw_defects\": ");
    if (!r->levels.segment_count) {
        mp_text_printf(t, "null,\n");
        return;
    }
    mp_text_printf(t, "[");
    for (uint32_t i = 0; i < r->levels.segment_count; i++) {
        const mp_levels_segment *s = &r->levels.segments[i];
        const rawfix_map *m = &s->fix;
        mp_text_printf(
            t,
            "%s\n    {\"first_frame\": %u, \"last_frame\": %u, \"frames_sampled\": %u, "
            "\"lattice\": ",
            i ? "," : "", s->first_frame, s->last_frame, m->frames);
        if (m->lattice.period_x)
            mp_text_printf(
                t,
                "{\"period_x\": %u, \"period_y\": %u, \"classes\": %u, \"sites\": %" PRIu64 "}",
                m->lattice.period_x, m->lattice.period_y, m->lattice.class_count,
                mp_rawfix_lattice_sites(&m->lattice));
        else
            mp_text_printf(t, "null");
        static const char *const prior[] = {"null", "\"not confirmed\"", "\"confirmed\""};
        mp_text_printf(
            t, ", \"known_lattice\": %s, \"single_pixels\": %u, \"candidates_left_alone\": %u, "
            "\"lattice_left_alone\": %s, \"stripe_amplitude_pct\": %.4f, \"stripes\": %s}",
            prior[s->prior], m->pixel_count, m->left_alone,
            m->lattice_left_alone ? "true" : "false", 100 * m->stripe_amplitude,
            m->stripes ? "true" : "false");
    }
    mp_text_printf(t, "\n  ],\n");
}

static void json_key_str(mp_text *t, const char *key, const char *value, const char *after)
{
    mp_text_printf(t, "\"%s\": ", key);
    mp_text_json_string(t, value);
    mp_text_printf(t, "%s", after);
}

/* The value fmt makes when present, else null; then ",\n". */
static void json_or_null(mp_text *t, int present, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void json_or_null(mp_text *t, int present, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (present)
        mp_text_vprintf(t, fmt, ap);
    else
        mp_text_printf(t, "null");
    va_end(ap);
    mp_text_printf(t, ",\n");
}

void mp_api_describe_json(const info_report *r, mp_text *t)
{
    const mlv_clip_info *in = r->in;
    const mlv_clip *c = r->clip;
    mp_text_printf(t, "{\n  ");
    json_key_str(t, "file", mp_mlv_clip_path(c, 0), ",\n  ");
    mp_text_printf(t, "\"chunks\": [");
    for (uint32_t i = 0; i < in->chunk_count; i++) {
        mp_text_json_string(t, mp_mlv_clip_path(c, i));
        mp_text_printf(t, "%s", i + 1 < in->chunk_count ? ", " : "");
    }
    static const char *const container[] = {[MLV_CONTAINER_MLV] = "mlv",
                                            [MLV_CONTAINER_RAW] = "raw",
                                            [MLV_CONTAINER_STILL] = "still"};
    mp_text_printf(t, "],\n  \"container\": \"%s\",\n", container[in->container]);
    const mp_photo *ph = &in->photo;
    const int32_t *area = in->raw.active_area;
    mp_text_printf(t, "  \"still\": ");
    if (in->container == MLV_CONTAINER_STILL) {
        mp_text_printf(t, "{");
        json_key_str(t, "format", in->still_format, ", ");
        mp_text_printf(t, "\"sequence\": %s, ", in->sequence ? "true" : "false");
        json_key_str(t, "owner", ph->owner, ", ");
        mp_text_printf(t, "\"orientation\": %u, \"active_area\": [%d, %d, %d, %d]},\n",
                       ph->orientation, area[0], area[1], area[2], area[3]);
    } else {
        mp_text_printf(t, "null,\n");
    }
    mp_text_printf(
        t, "  \"guid\": \"%016" PRIx64 "\",\n  \"video_class\": %u,\n  \"audio_class\": %u,\n",
        in->guid, in->video_class, in->audio_class);
    mp_text_printf(
        t,
        "  \"compression\": \"%s\",\n  \"lj92_tagged_raw\": %s,\n  \"lzma_tagged_raw\": %s,\n",
        mp_mlv_compression_name(in->compression), in->lj92_tagged_raw ? "true" : "false",
        in->lzma_tagged_raw ? "true" : "false");
    mp_text_printf(t, "  \"video_supported\": %s,\n  \"video_error\": ",
                   r->video_err.code == MP_OK ? "true" : "false");
    if (r->video_err.code == MP_OK)
        mp_text_printf(t, "null,\n");
    else
        mp_text_json_string(t, r->video_err.msg), mp_text_printf(t, ",\n");
    mp_text_printf(t, "  \"camera\": ");
    if (in->camera.present) {
        mp_text_printf(t, "{");
        json_key_str(t, "name", in->camera.name, ", ");
        mp_text_printf(t, "\"model\": %u, ", in->camera.model);
        json_key_str(t, "serial", in->camera.serial, "},\n");
    } else {
        mp_text_printf(t, "null,\n");
    }
    mp_text_printf(t, "  \"lens\": ");
    if (in->lens.present) {
        mp_text_printf(t, "{");
        json_key_str(t, "name", in->lens.name, ", ");
        mp_text_printf(t, "\"focal_mm\": %u, \"aperture\": %.2f, ", in->lens.focal_mm,
                       in->lens.aperture_x100 / 100.0);
        json_key_str(t, "serial", in->lens.serial, "},\n");
    } else {
        mp_text_printf(t, "null,\n");
    }
    mp_text_printf(t,
                   "  \"width\": %u,\n  \"height\": %u,\n  \"bits\": %u,\n  \"black\": %d,\n"
                   "  \"white\": %d,\n  \"cfa\": \"%s\",\n",
                   in->raw.width, in->raw.height, in->raw.bits, in->raw.black, in->raw.white,
                   cfa_name(in->raw.cfa));
    mp_text_printf(t, "  \"fps\": %.6g,\n  \"fps_num\": %u,\n  \"fps_den\": %u,\n", fps_of(in),
                   in->fps_num, in->fps_den);
    mp_text_printf(t,
                   "  \"frame_count\": %u,\n  \"first_frame\": %u,\n  \"last_frame\": %u,\n"
                   "  \"gap_count\": %u,\n  \"missing_frames\": %u,\n  \"lost_frames\": %u,\n"
                   "  \"duration_s\": %.6f,\n",
                   in->frame_count, in->first_number, in->last_number, in->gap_count,
                   in->missing_frames, in->lost_frames, duration_s(in));
    mp_text_printf(t, "  \"exposure\": ");
    json_or_null(t, in->exposure.present, "{\"iso\": %u, \"shutter_us\": %" PRIu64 "}",
                 in->exposure.iso, in->exposure.shutter_us);
    mp_text_printf(t, "  \"white_balance\": ");
    json_or_null(t, in->white_balance.present,
                 "{\"mode\": %u, \"kelvin\": %u, \"gain_r\": %u, \"gain_g\": %u, \"gain_b\": %u}",
                 in->white_balance.mode, in->white_balance.kelvin, in->white_balance.gain_r,
                 in->white_balance.gain_g, in->white_balance.gain_b);
    mp_text_printf(t, "  \"recorded\": ");
    json_or_null(t, in->wall_clock.present, "\"%04d-%02d-%02dT%02d:%02d:%02d\"",
                 in->wall_clock.year, in->wall_clock.month, in->wall_clock.day,
                 in->wall_clock.hour, in->wall_clock.minute, in->wall_clock.second);
    mp_text_printf(t, "  \"audio\": ");
    json_or_null(t, in->audio_bytes > 0,
                 "{\"format\": %u, \"channels\": %u, \"sample_rate\": %u, \"bits\": %u, "
                 "\"bytes\": %" PRIu64 ", \"duration_s\": %.6f, \"offset_to_video_ms\": %.3f}",
                 in->audio.format, in->audio.channels, in->audio.sample_rate,
                 in->audio.bits_per_sample, in->audio_bytes, audio_duration_s(in),
                 audio_offset_ms(in));
    const mlv_dark_info *dk = &in->dark;
    mp_text_printf(t, "  \"dark_block\": ");
    json_or_null(t, dk->present,
                 "{\"frames_averaged\": %u, \"width\": %u, \"height\": %u, \"bits\": %u, "
                 "\"black\": %u, \"white\": %u, \"iso\": %u}",
                 dk->frames_averaged, dk->width, dk->height, dk->bits, dk->black, dk->white,
                 dk->iso);
    mp_text_printf(t, "  \"dual_iso\": {\n    \"tag\": ");
    json_or_null(t, in->dual_iso.present,
                 "{\"mode\": %u, \"iso_value\": %d, \"recovery_iso\": %u, \"primary_iso\": %u}",
                 in->dual_iso.mode, in->dual_iso.iso_value, in->dual_iso.recovery_iso,
                 in->exposure.iso);
    mp_text_printf(t,
                   "    \"pixels\": {\"frames_checked\": %u, \"dual_frames\": %u, \"phase\": ",
                   r->dual_checked, r->dual_found);
    if (r->dual_found)
        mp_text_printf(t, "%d, \"ev\": %.3f, ", mp_dualiso_phase_majority(r->phase_votes),
                       r->ev_sum / r->dual_found);
    else
        mp_text_printf(t, "null, \"ev\": null, ");
    mp_text_printf(t, "\"error\": ");
    if (r->dual_err.code == MP_OK)
        mp_text_printf(t, "null}\n  },\n");
    else
        mp_text_json_string(t, r->dual_err.msg), mp_text_printf(t, "}\n  },\n");
    mp_text_printf(t, "  ");
    json_key_str(t, "info_text", in->info_text, ",\n  ");
    json_key_str(t, "versions", in->versions, ",\n");
    print_defects_json(r, t);
    mp_text_printf(t, "  \"segment_count\": %u,\n  \"segments\": [", r->segment_count);
    for (uint32_t i = 0; i < r->segment_count; i++) {
        const segment_summary *s = &r->segments[i];
        mp_text_printf(
            t,
            "%s\n    {\"first_frame\": %u, \"last_frame\": %u, \"frames\": %u, \"width\": %u, "
            "\"height\": %u, \"bits\": %u, \"black\": %d, \"white\": %d, \"iso\": %u, "
            "\"dual_iso\": %s}",
            i ? "," : "", s->first, s->last, s->frames, s->raw->width, s->raw->height,
            s->raw->bits, s->raw->black, s->raw->white, s->exposure->iso,
            s->dual_iso->present && s->dual_iso->mode ? "true" : "false");
    }
    mp_text_printf(t, "%s],\n  \"damage\": [", r->segment_count ? "\n  " : "");
    for (uint32_t i = 0; i < in->damage_count; i++) {
        const mlv_damage *d = mp_mlv_clip_damage(c, i);
        mp_text_printf(t, "%s\n    {\"kind\": \"%s\", \"chunk\": %u, \"offset\": %" PRIu64 ", ",
                       i ? "," : "", mp_mlv_damage_kind_name(d->kind), d->chunk, d->offset);
        json_key_str(t, "message", d->message, "}");
    }
    for (uint32_t i = 0; i < r->bad_frames; i++) {
        mp_text_printf(t,
                       "%s\n    {\"kind\": \"frame\", \"chunk\": null, \"offset\": null, "
                       "\"frame\": %u, ",
                       i || in->damage_count ? "," : "", r->bad_number[i]);
        json_key_str(t, "message", r->bad_err[i].msg, "}");
    }
    mp_text_printf(t, "%s],\n  \"damage_omitted\": %u\n}\n",
                   in->damage_count || r->bad_frames ? "\n  " : "", in->damage_omitted);
}
