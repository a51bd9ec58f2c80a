/* mlvpipe info CLIP [--json]: what is in a clip, including every damage entry.
 * The facts are gathered once (info_report) and printed as text or as JSON; the JSON keys
 * are a stable interface documented in doc/json.md (section 1). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_run.h"
#include "dualiso/dualiso.h"
#include "common/json.h"
#include "pipeline/prepass.h"
#include "pipeline/sampling.h"
#include "reader/mlv_reader.h"

#define DUAL_CHECK_FRAMES 5

typedef struct segment_summary {
    uint32_t first, last;           /* frame numbers */
    uint32_t frames;
    const mp_raw_info *raw;
    const mp_exposure *exposure;
    const mp_dual_iso_tag *dual_iso;
} segment_summary;

typedef struct info_report {
    const mlv_clip *clip;
    const mlv_clip_info *in;
    mp_error video_err;             /* code MP_OK when frames decode */
    /* pixel-based dual-ISO check */
    uint32_t dual_checked, dual_found;
    uint32_t phase_votes[4];
    double ev_sum;
    mp_error dual_err;              /* first failure, code MP_OK if none */
    /* frames of that check that did not decode because they are damaged: damage entries */
    uint32_t bad_frames;
    uint32_t bad_number[DUAL_CHECK_FRAMES];
    mp_error bad_err[DUAL_CHECK_FRAMES];
    segment_summary *segments;
    uint32_t segment_count;
    /* --defects: what the pre-pass finds (levels.segment_count 0 when not asked or failed) */
    mp_clip_levels levels;
    mp_error defects_err;
} info_report;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mlvpipe info CLIP [--json] [--defects]\n"
            "\n"
            "Describes a Magic Lantern clip (.MLV with its .M00..M99 chunks, or a legacy .RAW\n"
            "with .R00..): camera, lens, resolution, bit depth, black/white levels, frame rate,\n"
            "frame count and numbers, dropped frames (gaps), duration, compression, audio\n"
            "(format, duration, offset to the video), dual ISO (the DISO block and a check of\n"
            "the pixels of up to %d frames spread over the clip), metadata segments, and one\n"
            "line per damage found (\"FILE: offset N: cause\"; frames of the dual-ISO check\n"
            "that are damaged count too).\n"
            "\n"
            "options:\n"
            "  --json      print one JSON object instead of text (keys: doc/json.md)\n"
            "  --defects   also run the pre-pass of 'convert' and report the raw defects it\n"
            "              finds per segment: focus-pixel lattice (period, sites), single hot\n"
            "              and cold pixels, vertical stripe amplitude (reads up to 32 frames\n"
            "              per segment)\n"
            "  -h, --help  show this help\n"
            "\n"
            "exit status: 0 clip intact, 3 clip missing, unreadable or its video unsupported,\n"
            "4 clip damaged: exactly when the damage list has entries (everything readable is\n"
            "still described).\n",
            DUAL_CHECK_FRAMES);
}

static void print_defects_text(const info_report *r)
{
    if (r->defects_err.code != MP_OK)
        printf("raw defects:   %s\n", r->defects_err.msg);
    for (uint32_t i = 0; i < r->levels.segment_count; i++) {
        const mp_levels_segment *s = &r->levels.segments[i];
        const rawfix_map *m = &s->fix;
        printf("raw defects:   frames %u..%u (%u sampled): ", s->first_frame, s->last_frame,
               m->frames);
        if (m->lattice.period_x)
            printf("focus pixels %ux%u lattice, %u classes, %" PRIu64 " sites; ",
                   m->lattice.period_x, m->lattice.period_y, m->lattice.class_count,
                   mp_rawfix_lattice_sites(&m->lattice));
        else
            printf("no focus-pixel lattice; ");
        printf("%u hot/cold pixels; stripes %.3f %% (%s)\n", m->pixel_count,
               100 * m->stripe_amplitude, m->stripes ? "corrected" : "not significant");
    }
}

static void print_defects_json(const info_report *r)
{
    printf("  \"raw_defects\": ");
    if (!r->levels.segment_count) {
        printf("null,\n");
        return;
    }
    printf("[");
    for (uint32_t i = 0; i < r->levels.segment_count; i++) {
        const mp_levels_segment *s = &r->levels.segments[i];
        const rawfix_map *m = &s->fix;
        printf("%s\n    {\"first_frame\": %u, \"last_frame\": %u, \"frames_sampled\": %u, "
               "\"lattice\": ", i ? "," : "", s->first_frame, s->last_frame, m->frames);
        if (m->lattice.period_x)
            printf("{\"period_x\": %u, \"period_y\": %u, \"classes\": %u, \"sites\": %" PRIu64
                   "}", m->lattice.period_x, m->lattice.period_y, m->lattice.class_count,
                   mp_rawfix_lattice_sites(&m->lattice));
        else
            printf("null");
        printf(", \"single_pixels\": %u, \"stripe_amplitude_pct\": %.4f, \"stripes\": %s}",
               m->pixel_count, 100 * m->stripe_amplitude, m->stripes ? "true" : "false");
    }
    printf("\n  ],\n");
}

static const char *cfa_name(uint32_t cfa)
{
    switch (cfa) {
    case MP_CFA_RGGB: return "RGGB";
    case MP_CFA_GRBG: return "GRBG";
    case MP_CFA_GBRG: return "GBRG";
    case MP_CFA_BGGR: return "BGGR";
    }
    return "unknown";
}

static const char *damage_kind_name(mlv_damage_kind k)
{
    switch (k) {
    case MLV_DAMAGE_TRUNCATED: return "truncated";
    case MLV_DAMAGE_ZERO_TAIL: return "zero_tail";
    case MLV_DAMAGE_BAD_BLOCK: return "bad_block";
    case MLV_DAMAGE_GUID_MISMATCH: return "guid_mismatch";
    case MLV_DAMAGE_MISSING_CHUNK: return "missing_chunk";
    case MLV_DAMAGE_DUPLICATE_FRAME: return "duplicate_frame";
    case MLV_DAMAGE_RESYNC: return "resync";
    case MLV_DAMAGE_LOST_FRAMES: return "lost_frames";
    case MLV_DAMAGE_BAD_NUMBER: return "bad_number";
    case MLV_DAMAGE_OVERSTATED: return "overstated_size";
    case MLV_DAMAGE_BAD_FIELD: return "bad_field";
    }
    return "unknown";
}

static double fps_of(const mlv_clip_info *in)
{
    return in->fps_den ? (double)in->fps_num / in->fps_den : 0.0;
}

static double duration_s(const mlv_clip_info *in)
{
    double fps = fps_of(in);
    if (!in->frame_count || fps <= 0)
        return 0.0;
    return (double)(in->last_number - in->first_number + 1) / fps;
}

static double audio_duration_s(const mlv_clip_info *in)
{
    return in->audio.bytes_per_second ? (double)in->audio_bytes / in->audio.bytes_per_second
                                      : 0.0;
}

/* Audio start relative to the first video frame, in milliseconds (negative: audio first). */
static double audio_offset_ms(const mlv_clip_info *in)
{
    return ((double)in->audio_start_us - (double)in->video_start_us) / 1000.0;
}

static void check_dual_iso_pixels(info_report *r)
{
    uint32_t offsets[DUAL_CHECK_FRAMES];
    uint32_t want = mp_sample_offsets(r->in->frame_count, DUAL_CHECK_FRAMES, offsets);
    mlv_scratch scratch = {0};
    mp_frame frame = {0};
    for (uint32_t k = 0; k < want; k++) {
        uint32_t index = offsets[k];
        mp_error err = {0};
        dualiso_detection d;
        mp_status st = mp_mlv_read_frame(r->clip, index, &frame, &scratch, &err);
        if (st == MP_OK)
            st = mp_dualiso_detect(&frame, &d, &err);
        if (st != MP_OK) {
            if (r->dual_err.code == MP_OK)
                r->dual_err = err;
            mlv_frame_info fi;
            if (err.code == MP_ERR_DAMAGED && mp_mlv_frame_info_get(r->clip, index, &fi) == MP_OK) {
                r->bad_number[r->bad_frames] = fi.number;
                r->bad_err[r->bad_frames++] = err;
            }
            continue;
        }
        r->dual_checked++;
        if (d.is_dual) {
            r->dual_found++;
            r->phase_votes[d.phase & 3]++;
            r->ev_sum += d.ev_estimate;
        }
    }
    mp_frame_free(&frame);
    mp_mlv_scratch_free(&scratch);
}

static int collect_segments(info_report *r)
{
    uint32_t n = r->in->segment_count;
    if (!n)
        return 0;
    r->segments = calloc(n, sizeof *r->segments);
    if (!r->segments)
        return -1;
    for (uint32_t i = 0; i < r->in->frame_count; i++) {
        mlv_frame_info fi;
        if (mp_mlv_frame_info_get(r->clip, i, &fi) != MP_OK || fi.segment >= n)
            continue;
        segment_summary *s = &r->segments[fi.segment];
        if (!s->frames++) {
            s->first = fi.number;
            s->raw = fi.raw;
            s->exposure = fi.exposure;
            s->dual_iso = fi.dual_iso;
        }
        s->last = fi.number;
    }
    r->segment_count = n;
    return 0;
}

/* 1 when every segment's raw_info is impossible (damage listed): no frame can be used. */
static int no_usable_frame(const info_report *r)
{
    char why[160];
    for (uint32_t i = 0; i < r->segment_count; i++)
        if (!r->segments[i].raw || !mp_mlv_raw_problem(r->segments[i].raw, why, sizeof why))
            return 0;
    return r->segment_count > 0;
}

/* ---- text ---- */

static void print_text(const info_report *r)
{
    const mlv_clip_info *in = r->in;
    const mlv_clip *c = r->clip;
    printf("file:          %s\n", mp_mlv_clip_path(c, 0));
    for (uint32_t i = 1; i < in->chunk_count; i++)
        printf("chunk %-7u  %s\n", i, mp_mlv_clip_path(c, i));
    if (in->container == MLV_CONTAINER_MLV)
        printf("container:     MLV, %u chunk file%s, GUID %016" PRIx64 ", videoClass 0x%x, "
               "audioClass 0x%x\n", in->chunk_count, in->chunk_count == 1 ? "" : "s", in->guid,
               in->video_class, in->audio_class);
    else
        printf("container:     legacy RAW, %u chunk file%s\n", in->chunk_count,
               in->chunk_count == 1 ? "" : "s");
    if (in->camera.present)
        printf("camera:        %s (model 0x%08x%s%s)\n", in->camera.name, in->camera.model,
               in->camera.serial[0] ? ", serial " : "", in->camera.serial);
    else
        printf("camera:        unknown (no IDNT block)\n");
    if (in->lens.present)
        printf("lens:          %s, %u mm, f/%.1f\n", in->lens.name[0] ? in->lens.name : "unnamed",
               in->lens.focal_mm, in->lens.aperture_x100 / 100.0);
    printf("resolution:    %ux%u\n", in->raw.width, in->raw.height);
    printf("bit depth:     %u\n", in->raw.bits);
    printf("levels:        black %d, white %d\n", in->raw.black, in->raw.white);
    printf("CFA:           %s\n", cfa_name(in->raw.cfa));
    printf("fps:           %.3f (%u/%u)\n", fps_of(in), in->fps_num, in->fps_den);
    printf("frames:        %u", in->frame_count);
    if (in->frame_count)
        printf(" (numbers %u..%u)", in->first_number, in->last_number);
    printf("\n");
    printf("gaps:          %u (%u missing frame%s)\n", in->gap_count, in->missing_frames,
           in->missing_frames == 1 ? "" : "s");
    printf("duration:      %.3f s\n", duration_s(in));
    printf("compression:   %s%s%s\n", mp_mlv_compression_name(in->compression),
           in->lj92_tagged_raw ? " (LJ92 payloads in a videoClass 0x01 clip)" : "",
           in->lzma_tagged_raw ? " (LZMA payloads in a videoClass 0x01 clip: mislabelled by "
                                 "mlv_dump builds of 2015-2017)" : "");
    if (r->video_err.code != MP_OK)
        printf("video:         UNSUPPORTED: %s\n", r->video_err.msg);
    if (in->exposure.present)
        printf("exposure:      ISO %u, shutter %" PRIu64 " us\n", in->exposure.iso,
               in->exposure.shutter_us);
    if (in->white_balance.present)
        printf("white balance: mode %u, %u K, gains %u/%u/%u\n", in->white_balance.mode,
               in->white_balance.kelvin, in->white_balance.gain_r, in->white_balance.gain_g,
               in->white_balance.gain_b);
    if (in->wall_clock.present)
        printf("recorded:      %04d-%02d-%02d %02d:%02d:%02d\n", in->wall_clock.year,
               in->wall_clock.month, in->wall_clock.day, in->wall_clock.hour,
               in->wall_clock.minute, in->wall_clock.second);
    if (in->audio_bytes)
        printf("audio:         PCM format %u, %u ch, %u Hz, %u-bit, %.3f s, starts %+.3f ms "
               "from the first frame\n", in->audio.format, in->audio.channels,
               in->audio.sample_rate, in->audio.bits_per_sample, audio_duration_s(in),
               audio_offset_ms(in));
    else
        printf("audio:         none\n");
    if (in->dual_iso.present)
        printf("dual ISO tag:  DISO mode %u, recovery setting %d -> ISO %u (primary ISO %u)\n",
               in->dual_iso.mode, in->dual_iso.iso_value, in->dual_iso.recovery_iso,
               in->exposure.iso);
    else
        printf("dual ISO tag:  none (no DISO block)\n");
    if (r->dual_found)
        printf("dual ISO pixels: yes in %u of %u frames checked, row phase %d, ~%.1f EV\n",
               r->dual_found, r->dual_checked, mp_dualiso_phase_majority(r->phase_votes), r->ev_sum / r->dual_found);
    else
        printf("dual ISO pixels: no (%u frame%s checked)\n", r->dual_checked,
               r->dual_checked == 1 ? "" : "s");
    if (r->dual_err.code != MP_OK)
        printf("dual ISO check: %s\n", r->dual_err.msg);
    if (in->info_text[0])
        printf("info text:     %s\n", in->info_text);
    printf("segments:      %u\n", r->segment_count);
    for (uint32_t i = 0; r->segment_count > 1 && i < r->segment_count; i++) {
        const segment_summary *s = &r->segments[i];
        printf("  frames %u..%u: %ux%u %u-bit, black %d, white %d, ISO %u, dual ISO %s\n",
               s->first, s->last, s->raw->width, s->raw->height, s->raw->bits, s->raw->black,
               s->raw->white, s->exposure->iso, s->dual_iso->present && s->dual_iso->mode ? "on"
                                                                                       : "off");
    }
    print_defects_text(r);
    uint32_t entries = in->damage_count + in->damage_omitted + r->bad_frames;
    if (!entries)
        printf("damage:        none\n");
    else
        printf("damage:        %u entr%s\n", entries, entries == 1 ? "y" : "ies");
    for (uint32_t i = 0; i < in->damage_count; i++)
        printf("  %s\n", mp_mlv_clip_damage(c, i)->message);
    for (uint32_t i = 0; i < r->bad_frames; i++)
        printf("  %s\n", r->bad_err[i].msg);
    if (in->damage_omitted)
        printf("  ... %u more not listed\n", in->damage_omitted);
}

/* ---- JSON ---- */

static void json_key_str(const char *key, const char *value, const char *after)
{
    printf("\"%s\": ", key);
    mp_json_write_string(stdout, value);
    fputs(after, stdout);
}

static void print_json(const info_report *r)
{
    const mlv_clip_info *in = r->in;
    const mlv_clip *c = r->clip;
    printf("{\n  ");
    json_key_str("file", mp_mlv_clip_path(c, 0), ",\n  ");
    printf("\"chunks\": [");
    for (uint32_t i = 0; i < in->chunk_count; i++) {
        mp_json_write_string(stdout, mp_mlv_clip_path(c, i));
        printf(i + 1 < in->chunk_count ? ", " : "");
    }
    printf("],\n  \"container\": \"%s\",\n", in->container == MLV_CONTAINER_MLV ? "mlv" : "raw");
    printf("  \"guid\": \"%016" PRIx64 "\",\n  \"video_class\": %u,\n  \"audio_class\": %u,\n",
           in->guid, in->video_class, in->audio_class);
    printf("  \"compression\": \"%s\",\n  \"lj92_tagged_raw\": %s,\n  \"lzma_tagged_raw\": %s,\n",
           mp_mlv_compression_name(in->compression), in->lj92_tagged_raw ? "true" : "false",
           in->lzma_tagged_raw ? "true" : "false");
    printf("  \"video_supported\": %s,\n  \"video_error\": ",
           r->video_err.code == MP_OK ? "true" : "false");
    if (r->video_err.code == MP_OK)
        printf("null,\n");
    else
        mp_json_write_string(stdout, r->video_err.msg), printf(",\n");
    printf("  \"camera\": ");
    if (in->camera.present) {
        printf("{");
        json_key_str("name", in->camera.name, ", ");
        printf("\"model\": %u, ", in->camera.model);
        json_key_str("serial", in->camera.serial, "},\n");
    } else {
        printf("null,\n");
    }
    printf("  \"lens\": ");
    if (in->lens.present) {
        printf("{");
        json_key_str("name", in->lens.name, ", ");
        printf("\"focal_mm\": %u, \"aperture\": %.2f, ", in->lens.focal_mm,
               in->lens.aperture_x100 / 100.0);
        json_key_str("serial", in->lens.serial, "},\n");
    } else {
        printf("null,\n");
    }
    printf("  \"width\": %u,\n  \"height\": %u,\n  \"bits\": %u,\n  \"black\": %d,\n"
           "  \"white\": %d,\n  \"cfa\": \"%s\",\n", in->raw.width, in->raw.height, in->raw.bits,
           in->raw.black, in->raw.white, cfa_name(in->raw.cfa));
    printf("  \"fps\": %.6g,\n  \"fps_num\": %u,\n  \"fps_den\": %u,\n", fps_of(in), in->fps_num,
           in->fps_den);
    printf("  \"frame_count\": %u,\n  \"first_frame\": %u,\n  \"last_frame\": %u,\n"
           "  \"gap_count\": %u,\n  \"missing_frames\": %u,\n  \"duration_s\": %.6f,\n",
           in->frame_count, in->first_number, in->last_number, in->gap_count,
           in->missing_frames, duration_s(in));
    printf("  \"exposure\": ");
    if (in->exposure.present)
        printf("{\"iso\": %u, \"shutter_us\": %" PRIu64 "},\n", in->exposure.iso,
               in->exposure.shutter_us);
    else
        printf("null,\n");
    printf("  \"white_balance\": ");
    if (in->white_balance.present)
        printf("{\"mode\": %u, \"kelvin\": %u, \"gain_r\": %u, \"gain_g\": %u, \"gain_b\": %u},\n",
               in->white_balance.mode, in->white_balance.kelvin, in->white_balance.gain_r,
               in->white_balance.gain_g, in->white_balance.gain_b);
    else
        printf("null,\n");
    printf("  \"recorded\": ");
    if (in->wall_clock.present)
        printf("\"%04d-%02d-%02dT%02d:%02d:%02d\",\n", in->wall_clock.year, in->wall_clock.month,
               in->wall_clock.day, in->wall_clock.hour, in->wall_clock.minute,
               in->wall_clock.second);
    else
        printf("null,\n");
    printf("  \"audio\": ");
    if (in->audio_bytes)
        printf("{\"format\": %u, \"channels\": %u, \"sample_rate\": %u, \"bits\": %u, "
               "\"bytes\": %" PRIu64 ", \"duration_s\": %.6f, \"offset_to_video_ms\": %.3f},\n",
               in->audio.format, in->audio.channels, in->audio.sample_rate,
               in->audio.bits_per_sample, in->audio_bytes, audio_duration_s(in),
               audio_offset_ms(in));
    else
        printf("null,\n");
    printf("  \"dual_iso\": {\n    \"tag\": ");
    if (in->dual_iso.present)
        printf("{\"mode\": %u, \"iso_value\": %d, \"recovery_iso\": %u, \"primary_iso\": %u},\n",
               in->dual_iso.mode, in->dual_iso.iso_value, in->dual_iso.recovery_iso,
               in->exposure.iso);
    else
        printf("null,\n");
    printf("    \"pixels\": {\"frames_checked\": %u, \"dual_frames\": %u, \"phase\": ",
           r->dual_checked, r->dual_found);
    if (r->dual_found)
        printf("%d, \"ev\": %.3f, ", mp_dualiso_phase_majority(r->phase_votes), r->ev_sum / r->dual_found);
    else
        printf("null, \"ev\": null, ");
    printf("\"error\": ");
    if (r->dual_err.code == MP_OK)
        printf("null}\n  },\n");
    else
        mp_json_write_string(stdout, r->dual_err.msg), printf("}\n  },\n");
    printf("  ");
    json_key_str("info_text", in->info_text, ",\n  ");
    json_key_str("versions", in->versions, ",\n");
    print_defects_json(r);
    printf("  \"segment_count\": %u,\n  \"segments\": [", r->segment_count);
    for (uint32_t i = 0; i < r->segment_count; i++) {
        const segment_summary *s = &r->segments[i];
        printf("%s\n    {\"first_frame\": %u, \"last_frame\": %u, \"frames\": %u, \"width\": %u, "
               "\"height\": %u, \"bits\": %u, \"black\": %d, \"white\": %d, \"iso\": %u, "
               "\"dual_iso\": %s}", i ? "," : "", s->first, s->last, s->frames, s->raw->width,
               s->raw->height, s->raw->bits, s->raw->black, s->raw->white, s->exposure->iso,
               s->dual_iso->present && s->dual_iso->mode ? "true" : "false");
    }
    printf("%s],\n  \"damage\": [", r->segment_count ? "\n  " : "");
    for (uint32_t i = 0; i < in->damage_count; i++) {
        const mlv_damage *d = mp_mlv_clip_damage(c, i);
        printf("%s\n    {\"kind\": \"%s\", \"chunk\": %u, \"offset\": %" PRIu64 ", ",
               i ? "," : "", damage_kind_name(d->kind), d->chunk, d->offset);
        json_key_str("message", d->message, "}");
    }
    for (uint32_t i = 0; i < r->bad_frames; i++) {
        printf("%s\n    {\"kind\": \"frame\", \"chunk\": null, \"offset\": null, "
               "\"frame\": %u, ", i || in->damage_count ? "," : "", r->bad_number[i]);
        json_key_str("message", r->bad_err[i].msg, "}");
    }
    printf("%s],\n  \"damage_omitted\": %u\n}\n",
           in->damage_count || r->bad_frames ? "\n  " : "", in->damage_omitted);
}

int cmd_info(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0, defects = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--defects")) {
            defects = 1;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "-q")) {
            cli_verbosity_option(argv[i][1]);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("info", "unknown option '%s'", argv[i]);
        } else if (path) {
            return cli_usage_error("info", "one clip at a time ('%s' and '%s')", path, argv[i]);
        } else {
            path = argv[i];
        }
    }
    if (!path)
        return cli_usage_error("info", "no clip given");

    mlv_clip *clip;
    mp_error err = {0};
    /* damage is listed in the output itself, so the reader's warnings are only wanted at -v */
    mlv_open_options opt = {0};
    if (cli_verbosity >= 2)
        opt.log = cli_logger;
    mp_status st = mp_mlv_clip_open(&clip, path, &opt, &err);
    if (st != MP_OK) {
        cli_log(MLVPIPE_LOG_ERROR, "%s", err.msg);
        return cli_exit_for_input((mlvpipe_status)st);
    }
    info_report r = {0};
    r.clip = clip;
    r.in = mp_mlv_clip_get_info(clip);
    mp_mlv_clip_check_video(clip, &r.video_err);
    if (r.video_err.code == MP_OK)
        check_dual_iso_pixels(&r);
    if (collect_segments(&r) != 0) {
        mp_mlv_clip_close(clip);
        cli_log(MLVPIPE_LOG_ERROR, "out of memory");
        return EXIT_INTERNAL;
    }
    if (defects && r.video_err.code == MP_OK) {
        mp_prepass_options po;
        mp_prepass_options_default(&po);
        if (cli_verbosity >= 2)
            po.log = cli_logger;
        if (mp_prepass_run(clip, &po, "mlvpipe", &r.levels, &r.defects_err) != MP_OK)
            mp_clip_levels_free(&r.levels);
    }
    if (json)
        print_json(&r);
    else
        print_text(&r);

    int rc = EXIT_OK;
    if (r.video_err.code != MP_OK) {
        rc = EXIT_INPUT;
    } else if (!r.in->frame_count) {
        fprintf(stderr, "mlvpipe: error: %s: no frame in the clip\n", path);
        rc = EXIT_INPUT;
    } else if (no_usable_frame(&r)) {
        fprintf(stderr, "mlvpipe: error: %s: no usable frame (see the damage list)\n", path);
        rc = EXIT_INPUT;
    } else if (r.in->damage_count || r.bad_frames ||   /* exactly when the damage list has entries */
               r.defects_err.code == MP_ERR_DAMAGED) {
        rc = EXIT_DAMAGED;
    }
    mp_clip_levels_free(&r.levels);
    free(r.segments);
    mp_mlv_clip_close(clip);
    return rc;
}
