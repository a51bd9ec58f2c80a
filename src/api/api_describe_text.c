/* The clip report as text (mlvpipe info). */
#include "api_describe.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* mp_text_printf for the report's lines: what the clip says (names, paths, text) is printed
 * with its control characters escaped (mp_escape_controls), so that it cannot drive the
 * terminal or forge a line; the format's own closing newline stays. */
static void line(mp_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(mp_text *t, const char *fmt, ...)
{
    size_t start = t->len;
    va_list ap;
    va_start(ap, fmt);
    mp_text_vprintf(t, fmt, ap);
    va_end(ap);
    if (t->failed || t->len == start)
        return;
    size_t n = t->len - start - (t->data[t->len - 1] == '\n');
    size_t k = 0;
    while (k < n && (unsigned char)t->data[start + k] >= 0x20 && t->data[start + k] != 0x7f)
        k++;
    if (k == n)
        return;
    char *raw = malloc(n + 1), *escaped = malloc(4 * n + 1);
    if (raw && escaped) {
        memcpy(raw, t->data + start, n);
        raw[n] = 0;
        mp_escape_controls(raw, escaped, 4 * n + 1);
        int newline = t->len - start > n;
        t->len = start;
        mp_text_printf(t, "%s%s", escaped, newline ? "\n" : "");
    } else {
        t->failed = 1;
    }
    free(raw);
    free(escaped);
}

static void print_defects_text(const info_report *r, mp_text *t)
{
    if (r->defects_err.code != MP_OK)
        line(t, "raw defects:   %s\n", r->defects_err.msg);
    for (uint32_t i = 0; i < r->levels.segment_count; i++) {
        const mp_levels_segment *s = &r->levels.segments[i];
        const rawfix_map *m = &s->fix;
        line(t, "raw defects:   frames %u..%u (%u sampled): ", s->first_frame,
             s->last_frame, m->frames);
        if (m->frames < RAWFIX_MIN_FRAMES) {   /* an empty map that says nothing */
            line(t, "too few for the search (%u needed; convert --defects-from "
                 "CLIP borrows another clip's map)\n", RAWFIX_MIN_FRAMES);
            continue;
        }
        static const char *const prior[] = {"", " (the camera's known map not confirmed)",
                                            " (the camera's known map, confirmed)"};
        if (m->lattice.period_x)
            line(t, "focus pixels %ux%u lattice%s, %u classes, %" PRIu64 " sites; ",
                 m->lattice.period_x, m->lattice.period_y, prior[s->prior],
                 m->lattice.class_count, mp_rawfix_lattice_sites(&m->lattice));
        else
            line(t, "no focus-pixel lattice%s; ", prior[s->prior]);
        line(t, "%u hot/cold pixels; stripes %.3f %% (%s)\n", m->pixel_count,
             100 * m->stripe_amplitude, m->stripes ? "corrected" : "not significant");
        if (m->left_alone || m->lattice_left_alone)
            line(t, "               left alone: %u candidate hot/cold pixels%s (the scene does "
                 "not move through them and their noise is what their level makes, so they may "
                 "be its own still detail: a hot pixel's steady dark current looks like a point "
                 "of light; --defects-from a moving or lens-cap clip of the same body and mode "
                 "repairs them if they are defects)\n", m->left_alone,
                 m->lattice_left_alone ? " and a periodic pattern like a focus-pixel lattice" : "");
    }
}

void mp_api_describe_text(const info_report *r, mp_text *t)
{
    const mlv_clip_info *in = r->in;
    const mlv_clip *c = r->clip;
    const int still = in->container == MLV_CONTAINER_STILL;
    /* a photo has no frame rate, timing or gaps: those lines are a clip's, or a sequence's */
    const int one_photo = still && !in->sequence;
    line(t, "file:          %s\n", mp_mlv_clip_path(c, 0));
    for (uint32_t i = 1; i < in->chunk_count; i++)
        line(t, "%s %-7u  %s\n", still ? "photo" : "chunk", i, mp_mlv_clip_path(c, i));
    if (in->container == MLV_CONTAINER_MLV)
        line(t,
             "container:     MLV, %u chunk file%s, GUID %016" PRIx64
             ", videoClass 0x%x, "
             "audioClass 0x%x\n",
             in->chunk_count, in->chunk_count == 1 ? "" : "s", in->guid,
             in->video_class, in->audio_class);
    else if (in->container == MLV_CONTAINER_RAW)
        line(t, "container:     legacy RAW, %u chunk file%s\n", in->chunk_count,
             in->chunk_count == 1 ? "" : "s");
    else
        line(t, "container:     %s %s, decoded by LibRaw, picture %dx%d at %d,%d, orientation "
             "%u%s%s\n", in->still_format,
             in->sequence ? "stills (a sequence, a frame each)" : "still (one frame)",
             in->raw.active_area[3] - in->raw.active_area[1],
             in->raw.active_area[2] - in->raw.active_area[0], in->raw.active_area[1],
             in->raw.active_area[0], in->photo.orientation, in->photo.owner[0] ? ", owner " : "",
             in->photo.owner);
    if (in->camera.present)
        line(t, "camera:        %s (model 0x%08x%s%s)\n", in->camera.name,
             in->camera.model, in->camera.serial[0] ? ", serial " : "",
             in->camera.serial);
    else
        line(t, "camera:        unknown (no IDNT block)\n");
    if (in->lens.present)
        line(t, "lens:          %s, %u mm, f/%.1f\n",
             in->lens.name[0] ? in->lens.name : "unnamed", in->lens.focal_mm,
             in->lens.aperture_x100 / 100.0);
    line(t, "resolution:    %ux%u\n", in->raw.width, in->raw.height);
    line(t, "bit depth:     %u\n", in->raw.bits);
    line(t, "levels:        black %d, white %d\n", in->raw.black, in->raw.white);
    line(t, "CFA:           %s\n", cfa_name(in->raw.cfa));
    if (!one_photo)
        line(t, "fps:           %.3f (%u/%u)\n", fps_of(in), in->fps_num, in->fps_den);
    line(t, "frames:        %u", in->frame_count);
    if (in->frame_count)
        line(t, " (numbers %u..%u)", in->first_number, in->last_number);
    if (in->lost_frames)   /* the index shows more: the damage lines say which */
        line(t, "; %u more recorded but lost to damage (below)", in->lost_frames);
    line(t, "\n");
    if (!one_photo) {
        line(t, "gaps:          %u (%u missing frame%s)\n", in->gap_count,
             in->missing_frames, in->missing_frames == 1 ? "" : "s");
        line(t, "duration:      %.3f s\n", duration_s(in));
    }
    line(t, "compression:   %s%s%s\n", mp_mlv_compression_name(in->compression),
         in->lj92_tagged_raw ? " (LJ92 payloads in a videoClass 0x01 clip)" : "",
         in->lzma_tagged_raw
             ? " (LZMA payloads in a videoClass 0x01 clip: mislabelled by "
               "mlv_dump builds of 2015-2017)"
             : "");
    if (r->video_err.code != MP_OK)
        line(t, "video:         UNSUPPORTED: %s\n", r->video_err.msg);
    if (in->exposure.present)
        line(t, "exposure:      ISO %u, shutter %" PRIu64 " us\n", in->exposure.iso,
             in->exposure.shutter_us);
    if (in->white_balance.present) {
        char kelvin[16] = "";   /* a still states its balance by gains alone */
        if (in->white_balance.kelvin)
            snprintf(kelvin, sizeof kelvin, "%u K, ", in->white_balance.kelvin);
        line(t, "white balance: mode %u, %sgains %u/%u/%u\n", in->white_balance.mode, kelvin,
             in->white_balance.gain_r, in->white_balance.gain_g, in->white_balance.gain_b);
    }
    if (in->wall_clock.present)
        line(t, "recorded:      %04d-%02d-%02d %02d:%02d:%02d\n", in->wall_clock.year,
             in->wall_clock.month, in->wall_clock.day, in->wall_clock.hour,
             in->wall_clock.minute, in->wall_clock.second);
    if (in->audio_bytes)
        mp_text_printf(
            t,
            "audio:         PCM format %u, %u ch, %u Hz, %u-bit, %.3f s, starts %+.3f ms "
            "from the first frame\n",
            in->audio.format, in->audio.channels, in->audio.sample_rate,
            in->audio.bits_per_sample, audio_duration_s(in), audio_offset_ms(in));
    else
        line(t, "audio:         none\n");
    if (in->dual_iso.present)
        mp_text_printf(
            t, "dual ISO tag:  DISO mode %u, recovery setting %d -> ISO %u (primary ISO %u)\n",
            in->dual_iso.mode, in->dual_iso.iso_value, in->dual_iso.recovery_iso,
            in->exposure.iso);
    else
        line(t, "dual ISO tag:  none (no DISO block)\n");
    if (in->dark.present)
        line(t, "dark frame:    MLV-App DARK block, %u frames averaged, %ux%u %u-bit, "
             "ISO %u (convert --dark with this clip subtracts it)\n",
             in->dark.frames_averaged, in->dark.width, in->dark.height,
             in->dark.bits, in->dark.iso);
    if (r->dual_found)
        mp_text_printf(
            t, "dual ISO pixels: yes in %u of %u frames checked, row phase %d, ~%.1f EV\n",
            r->dual_found, r->dual_checked, mp_dualiso_phase_majority(r->phase_votes),
            r->ev_sum / r->dual_found);
    else
        line(t, "dual ISO pixels: no (%u frame%s checked)\n", r->dual_checked,
             r->dual_checked == 1 ? "" : "s");
    if (r->dual_err.code != MP_OK)
        line(t, "dual ISO check: %s\n", r->dual_err.msg);
    if (in->info_text[0])
        line(t, "info text:     %s\n", in->info_text);
    line(t, "segments:      %u\n", r->segment_count);
    for (uint32_t i = 0; r->segment_count > 1 && i < r->segment_count; i++) {
        const segment_summary *s = &r->segments[i];
        mp_text_printf(
            t, "  frames %u..%u: %ux%u %u-bit, black %d, white %d, ISO %u, dual ISO %s\n",
            s->first, s->last, s->raw->width, s->raw->height, s->raw->bits, s->raw->black,
            s->raw->white, s->exposure->iso,
            s->dual_iso->present && s->dual_iso->mode ? "on" : "off");
    }
    print_defects_text(r, t);
    uint32_t entries = in->damage_count + in->damage_omitted + r->bad_frames;
    if (!entries)
        line(t, "damage:        none\n");
    else
        line(t, "damage:        %u entr%s\n", entries, entries == 1 ? "y" : "ies");
    for (uint32_t i = 0; i < in->damage_count; i++)
        line(t, "  %s\n", mp_mlv_clip_damage(c, i)->message);
    for (uint32_t i = 0; i < r->bad_frames; i++)
        line(t, "  %s\n", r->bad_err[i].msg);
    if (in->damage_omitted)
        line(t, "  ... %u more not listed\n", in->damage_omitted);
}
