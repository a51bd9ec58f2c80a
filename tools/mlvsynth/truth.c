#include "truth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame_coder.h"
#include "out_file.h"
#include "common/json.h"

char *truth_path(const char *clip, const char *suffix)
{
    const char *slash = strrchr(clip, '/');
    const char *dot = strrchr(clip, '.');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - clip) : strlen(clip);
    char *p = malloc(stem + strlen(suffix) + 1);
    if (p) {
        memcpy(p, clip, stem);
        strcpy(p + stem, suffix);
    }
    return p;
}

static const char *const content_names[] = {"pattern", "gradient", "dualiso"};
static const char *const compression_names[] = {"none", "lj92", "lzma", "delta", "lzma-delta"};
static const char *const header_names[] = {"mlv-lite", "minimal", "all"};
static const char *const scene_names[] = {"benchmark", "flat", "ramp", "objects", "detail"};

static void list_u32(FILE *j, const char *key, const uint32_t *v, uint32_t n, int last)
{
    fprintf(j, "  \"%s\": [", key);
    for (uint32_t i = 0; i < n; i++)
        fprintf(j, "%s%u", i ? ", " : "", v[i]);
    fprintf(j, "]%s\n", last ? "" : ",");
}

/* What a reader must do with frame number f: the best fate among its VIDF blocks (a duplicate
 * can stand in for a lost original); dropped numbers are lost. *dup_only is set when only a
 * duplicate survives, so the reader can only return the duplicate's picture. */
static slot_fate number_fate(const clip_plan *plan, const slot_fate *fate, uint32_t f,
                             int *dup_only)
{
    slot_fate best = FATE_LOST, original = FATE_LOST;
    for (uint32_t i = 0; i < plan->count; i++) {
        if (plan->slots[i].number != f)
            continue;
        if (!plan->slots[i].duplicate)
            original = fate[i];
        if (best == FATE_LOST || fate[i] == FATE_INTACT)
            best = fate[i];
    }
    *dup_only = original == FATE_LOST && best != FATE_LOST;
    return best;
}

static void fate_lists(FILE *j, const synth_options *o, const clip_plan *plan,
                       const slot_fate *fate, uint32_t *buf)
{
    static const char *const keys[] = {"intact_frames", "lost_frames", "uncertain_frames"};
    int dup_only;
    for (int want = FATE_INTACT; want <= FATE_UNCERTAIN; want++) {
        uint32_t n = 0;
        for (uint32_t f = 0; f < o->frames; f++)
            if ((int)number_fate(plan, fate, f, &dup_only) == want)
                buf[n++] = f;
        list_u32(j, keys[want], buf, n, 0);
    }
    uint32_t n = 0;
    for (uint32_t f = 0; f < o->frames; f++)
        if (number_fate(plan, fate, f, &dup_only) != FATE_LOST && dup_only)
            buf[n++] = f;
    list_u32(j, "duplicate_only_frames", buf, n, 0);
}

static void sensor_json(FILE *j, const synth_sensor *s, const synth_scene *sc)
{
    fprintf(j, "\"sensor\": {\"bits\": %u, \"black\": %.17g, \"bright_black_offset\": %.17g, "
            "\"white\": %.17g, \"full_well_e\": %.17g, \"ev_gap\": %.17g, "
            "\"read_noise_dark\": %.17g, \"read_noise_bright\": %.17g, \"phase\": %u, "
            "\"ob_left\": %u, \"ob_top\": %u, \"photon_noise\": %d}, ",
            s->bits, s->black, s->bright_black_offset, s->white, s->full_well_e, s->ev_gap,
            s->read_noise_dark, s->read_noise_bright, s->phase, s->ob_left, s->ob_top,
            s->photon_noise);
    fprintf(j, "\"scene\": {\"kind\": \"%s\", \"exposure_ev\": %.17g, \"shift_px\": %.17g, "
            "\"illum_sigma_ev\": %.17g, \"seed\": %llu}",
            scene_names[sc->kind], sc->exposure_ev, sc->shift_px, sc->illum_sigma_ev,
            (unsigned long long)sc->seed);
}

/* The simulated sensor defects: parameters, stripe gains and every site but the lattice's
 * (which the lattice parameters give: member 1 at (ob_left + fp_x + i * period_x,
 * ob_top + fp_y + j * period_y), member 2 one row below, within the active area; or, for a
 * --focus-layout, its classes and box in recorded-frame coordinates). */
static void defects_json(FILE *j, const content_ctx *c)
{
    const synth_defects *d = &c->defects;
    static const char *const kinds[] = {"focus", "hot_stuck", "hot_warm", "cold_dead",
                                        "cold_weak"};
    fprintf(j, ",\n    \"defects\": {\"seed\": %llu, \"focus\": ", (unsigned long long)d->seed);
    if (d->fp_classes) {
        fprintf(j, "{\"period_x\": %u, \"period_y\": %u, \"offset_dn14\": %.17g, "
                "\"slope\": %.17g, \"box\": [%u, %u, %u, %u], \"classes\": [",
                d->fp_period_x, d->fp_period_y, d->fp_offset_dn, d->fp_slope,
                c->ob_left + d->fp_x0, c->ob_top + d->fp_y0, c->ob_left + c->active_w,
                c->ob_top + (d->fp_y1 < c->active_h ? d->fp_y1 : c->active_h));
        for (uint32_t k = 0; k < d->fp_classes; k++)
            fprintf(j, "%s[%u, %u]", k ? ", " : "", (c->ob_left + d->fp_class_x[k]) %
                    d->fp_period_x, (c->ob_top + d->fp_class_y[k]) % d->fp_period_y);
        fprintf(j, "], \"members\": \"in the box [x0, y0, x1, y1), x %% period_x, y %% "
                "period_y = a class; class k + offset when k is even, - when odd\"}");
    } else if (d->fp_period_x)
        fprintf(j, "{\"period_x\": %u, \"period_y\": %u, \"x\": %u, \"y\": %u, "
                "\"offset_dn14\": %.17g, \"slope\": %.17g, \"members\": \"(x, y) + (-, +): "
                "first + offset, second - offset\"}", d->fp_period_x, d->fp_period_y, d->fp_x,
                d->fp_y, d->fp_offset_dn, d->fp_slope);
    else
        fprintf(j, "null");
    fprintf(j, ",\n      \"stripe_amp\": %.17g, \"stripe_gain\": [", d->stripe_amp);
    for (int k = 0; k < 8; k++)
        fprintf(j, "%s%.17g", k ? ", " : "", 1 + c->stripe_gain[k]);
    fprintf(j, "], \"dark_pattern_dn14\": %.17g,\n      \"pixels\": [", d->dark_pattern_dn);
    uint32_t n = 0;
    for (uint32_t k = 0; k < c->site_count; k++) {
        const synth_defect *s = &c->sites[k];
        if (s->kind == SYNTH_DEFECT_FOCUS)
            continue;
        fprintf(j, "%s[%u, %u, \"%s\"]", n++ ? ", " : "", s->x, s->y, kinds[s->kind]);
    }
    fprintf(j, "]}");
}

static void dualiso_json(FILE *j, const synth_options *o, const clip_meta *m,
                         const content_ctx *c)
{
    fprintf(j, "  \"dual_iso\": {\n");
    fprintf(j, "    \"iso_low\": %u, \"iso_high_nominal\": %u, \"ev_gap\": %.17g,\n", o->iso,
            o->iso_high, o->ev_gap);
    if (m->dual_iso.present)
        fprintf(j, "    \"diso\": {\"dual_mode\": %u, \"iso_value\": %d},\n", m->dual_iso.mode,
                m->dual_iso.iso_value);
    else
        fprintf(j, "    \"diso\": null,\n");
    fprintf(j, "    \"phase\": %u, \"phase_pattern\": \"%s\",\n", o->phase,
            (const char *const[]){"ddBB", "dBBd", "BBdd", "BddB"}[o->phase]);
    fprintf(j, "    \"active_width\": %u, \"active_height\": %u, \"ob_left\": %u, "
            "\"ob_top\": %u,\n", c->active_w, c->active_h, c->ob_left, c->ob_top);
    fprintf(j, "    \"noise_seed\": %llu,\n", (unsigned long long)o->seed);
    fprintf(j, "    \"single_iso\": %s, \"lens_cap\": %s,\n", o->single_iso ? "true" : "false",
            o->lens_cap ? "true" : "false");
    fprintf(j, "    \"render\": \"truth(frame f) = mp_synth_render_truth(scene, active_width, "
            "active_height, f); raw = mp_synth_expose(sensor, truth, active_width, active_height, "
            "noise_seed, f)\",\n");
    fprintf(j, "    \"segments\": [\n");
    uint32_t firsts[2] = {0, 0};
    int segments = 1;
    if (o->change_at != OPT_NONE && o->change_at > 0)
        firsts[segments++] = (uint32_t)o->change_at;
    for (int k = 0; k < segments; k++) {
        synth_sensor s;
        synth_scene sc;
        content_dualiso_model(o, firsts[k], &s, &sc);
        fprintf(j, "      {\"first_frame\": %u, ", firsts[k]);
        sensor_json(j, &s, &sc);
        fprintf(j, "}%s\n", k + 1 < segments ? "," : "");
    }
    fprintf(j, "    ]");
    if (o->truth_raw) {
        char *f32 = truth_path(o->output, ".truth.f32");
        const char *base = f32 ? strrchr(f32, '/') : NULL;
        fprintf(j, ",\n    \"truth_raw\": {\"file\": ");
        mp_json_write_string(j, base ? base + 1 : f32 ? f32 : "");
        fprintf(j, ", \"type\": \"float32le\", \"unit\": \"electrons\", \"layout\": "
                "\"frame-major (frame numbers 0..%u), row-major active_width x "
                "active_height\"}", o->frames - 1);
        free(f32);
    }
    defects_json(j, c);
    fprintf(j, "\n  },\n");
}

static mp_status write_json(const synth_options *o, const clip_plan *plan, const clip_meta *m,
                            const content_ctx *c, const slot_fate *fate, uint32_t files,
                            char **text, size_t *len, mp_error *err)
{
    uint32_t *buf = malloc(((size_t)o->frames + plan->count + 1) * sizeof *buf);
    FILE *j = buf ? open_memstream(text, len) : NULL;
    if (!j) {
        free(buf);
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    }
    const char *base = strrchr(o->output, '/');
    fprintf(j, "{\n  \"generator\": \"mlvsynth\",\n  \"truth_version\": 1,\n");
    fprintf(j, "  \"clip\": ");
    mp_json_write_string(j, base ? base + 1 : o->output);
    fprintf(j, ",\n");
    fprintf(j, "  \"container\": \"%s\",\n", o->legacy_raw ? "raw" : "mlv");
    fprintf(j, "  \"files\": %u,\n", files);
    fprintf(j, "  \"header\": \"%s\",\n", header_names[o->header]);
    fprintf(j, "  \"width\": %u, \"height\": %u, \"bits\": %u, \"frames\": %u,\n", o->width,
            o->height, o->bits, o->frames);
    fprintf(j, "  \"fps\": [%u, %u],\n", o->fps_num, o->fps_den);
    fprintf(j, "  \"black\": %d, \"white\": %d, \"cfa\": \"RGGB\",\n", m->raw.black,
            m->raw.white);
    fprintf(j, "  \"active_area\": [%d, %d, %d, %d],\n", m->raw.active_area[0],
            m->raw.active_area[1], m->raw.active_area[2], m->raw.active_area[3]);
    fprintf(j, "  \"camera\": {\"name\": \"%s\", \"model\": %u, \"buffer\": [%d, %d], "
            "\"crop\": [%u, %u], \"pan\": [%u, %u], \"pan_error\": [%d, %d]},\n",
            m->camera.name, m->camera.model, m->raw.buffer_width, m->raw.buffer_height,
            m->window.crop_x, m->window.crop_y, m->window.pan_x, m->window.pan_y,
            o->pan_error_x, o->pan_error_y);
    fprintf(j, "  \"content\": \"%s\",\n", content_names[o->content]);
    if (o->content == CONTENT_PATTERN)
        fprintf(j, "  \"formula\": \"(37*x + 101*y + 7919*f + ((x*y) mod 13)) mod 2^%u\",\n",
                o->bits);
    else if (o->content == CONTENT_GRADIENT)
        fprintf(j, "  \"formula\": \"%d + (%d * ((x + f) mod %u)) div %u\",\n", m->raw.black,
                m->raw.white - m->raw.black, o->width, o->width - 1);
    fprintf(j, "  \"duplicate_content\": \"a duplicate VIDF of frame f carries frame f + %u\",\n",
            o->frames);
    fprintf(j, "  \"compression\": \"%s\", \"video_class\": %u,\n",
            compression_names[o->compression], frame_coder_video_class(o));
    if (o->compression == COMPRESS_LJ92) {
        lj92_header h = frame_coder_lj92_header(o, o->width, o->height);
        fprintf(j, "  \"lj92\": {\"layout\": \"%s\", \"components\": %u, \"width\": %u, "
                "\"height\": %u, \"precision\": %u, \"predictor\": %u},\n",
                o->layout == LJ92_LAYOUT_CAMERA ? "camera" : "mlvdump", h.components, h.width,
                h.height, h.precision, h.predictor);
    }
    fprintf(j, "  \"frame_space\": %u, \"rtci_every\": %u,\n", o->frame_space, o->rtci_every);
    fprintf(j, "  \"first_frame_us\": %llu, \"timestamp_rule\": \"first_frame_us + "
            "round(f * 1e6 * %u / %u)\",\n",
            (unsigned long long)options_first_frame_time_us(o), o->fps_den, o->fps_num);
    for (uint32_t i = 0; i < plan->count; i++)
        buf[i] = plan->slots[i].number;
    list_u32(j, "vidf_order", buf, plan->count, 0);
    list_u32(j, "dropped", o->drop.v, o->drop.count, 0);
    list_u32(j, "duplicated", o->duplicate.v, o->duplicate.count, 0);
    fate_lists(j, o, plan, fate, buf);
    if (o->audio) {
        uint64_t samples = content_audio_block_start(o, o->frames);
        fprintf(j, "  \"audio\": {\"rate\": %u, \"channels\": %u, \"bits\": 16, \"blocks\": %u, "
                "\"sample_frames\": %llu, \"tone_left_hz\": %.17g, \"tone_right_hz\": %.17g, "
                "\"amplitude\": %g, \"first_audf_us\": %lld},\n",
                CONTENT_AUDIO_RATE, CONTENT_AUDIO_CHANNELS, o->frames,
                (unsigned long long)samples, o->tone_hz, 1.5 * o->tone_hz,
                CONTENT_AUDIO_AMPLITUDE,
                (long long)options_first_frame_time_us(o) + (long long)o->audio_offset_us);
    }
    if (o->change_at != OPT_NONE)
        fprintf(j, "  \"change\": {\"at_frame\": %lld, \"written_before_frame\": %u, "
                "\"iso\": %u, \"shutter_us\": %llu, \"diso_changed\": %s, \"in_filler\": "
                "%s, \"width\": %u, \"height\": %u},\n", (long long)o->change_at,
                plan->slots[plan->change_slot].number, m->exposure_changed.iso,
                (unsigned long long)m->exposure_changed.shutter_us,
                o->change_diso ? "true" : "false", o->change_in_filler ? "true" : "false",
                m->raw_changed.width, m->raw_changed.height);
    fprintf(j, "  \"damage\": {\"interrupted\": %s, \"zero_tail\": %llu, \"truncate\": %llu, "
            "\"garbage_block\": %lld, \"bad_frame_space\": %lld, \"no_rawi\": %s, "
            "\"guid_mismatch_chunk\": %lld, \"video_class_override\": %lld},\n",
            o->interrupted ? "true" : "false", (unsigned long long)o->zero_tail,
            (unsigned long long)o->truncate, (long long)o->garbage_block,
            (long long)o->bad_frame_space, o->no_rawi ? "true" : "false",
            (long long)o->guid_mismatch, (long long)o->video_class);
    if (o->content == CONTENT_DUALISO)
        dualiso_json(j, o, m, c);
    fprintf(j, "  \"end\": true\n}\n");
    free(buf);
    if (fclose(j) != 0)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    return MP_OK;
}

static mp_status write_truth_raw(const synth_options *o, content_ctx *c, const char *path,
                                 mp_error *err)
{
    size_t n = (size_t)c->active_w * c->active_h;
    uint8_t *bytes = malloc(n * 4);
    if (!bytes)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    out_file f;
    mp_status st = out_file_open(&f, path, o->overwrite, err);
    for (uint32_t frame = 0; !st && frame < o->frames; frame++) {
        synth_sensor s;
        synth_scene sc;
        content_dualiso_model(o, frame, &s, &sc);
        st = mp_synth_render_truth(&sc, c->active_w, c->active_h, frame, c->truth, err);
        for (size_t i = 0; !st && i < n; i++) {
            uint32_t v;
            memcpy(&v, &c->truth[i], 4);
            bytes[4 * i] = (uint8_t)v;
            bytes[4 * i + 1] = (uint8_t)(v >> 8);
            bytes[4 * i + 2] = (uint8_t)(v >> 16);
            bytes[4 * i + 3] = (uint8_t)(v >> 24);
        }
        if (!st)
            st = out_file_write(&f, bytes, n * 4, err);
    }
    free(bytes);
    if (!st)
        return out_file_finish(&f, err);
    out_file_abort(&f);
    return st;
}

static mp_status write_text(const char *path, int overwrite, const char *text, size_t len,
                            mp_error *err)
{
    out_file f;
    mp_status st = out_file_open(&f, path, overwrite, err);
    if (st)
        return st;
    st = out_file_write(&f, text, len, err);
    if (!st)
        return out_file_finish(&f, err);
    out_file_abort(&f);
    return st;
}

mp_status truth_write(const synth_options *o, const clip_plan *plan, const clip_meta *m,
                      content_ctx *c, const slot_fate *fate, uint32_t files, mp_error *err)
{
    char *text = NULL;
    size_t len = 0;
    char *json_path = truth_path(o->output, ".truth.json");
    char *raw_path = truth_path(o->output, ".truth.f32");
    mp_status st = json_path && raw_path ? MP_OK
                                         : mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    if (!st)
        st = write_json(o, plan, m, c, fate, files, &text, &len, err);
    if (!st)
        st = write_text(json_path, o->overwrite, text, len, err);
    if (!st && o->truth_raw)
        st = write_truth_raw(o, c, raw_path, err);
    free(text);
    free(json_path);
    free(raw_path);
    return st;
}
