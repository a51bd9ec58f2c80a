/* synth_roundtrip: opens a clip written by mlvsynth with the mlvpipe reader and checks that
 * everything comes back exactly: every frame's samples (regenerated from the same options
 * through tools/mlvsynth/content.c), frame numbers and timestamps, levels and metadata,
 * audio PCM, and, for damaged clips, the documented damage with every intact frame readable.
 *
 * usage: synth_roundtrip MLVSYNTH-OPTIONS...   (the very options the clip was written with;
 * the frames a reader must / must not return are read from CLIP.truth.json) */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clip_meta.h"
#include "content.h"
#include "options.h"
#include "plan.h"
#include "reader/mlv_reader.h"
#include "truth.h"

static const char *clip_name;

static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "synth_roundtrip: %s: ", clip_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

/* The frame-number lists of CLIP.truth.json ("intact_frames": [0, 1, 2], ...). */
typedef struct truth_lists {
    char *text;
} truth_lists;

static int list_has(const truth_lists *t, const char *key, uint32_t number)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\": [", key);
    const char *p = strstr(t->text, pattern);
    if (!p)
        return 0;
    p += strlen(pattern);
    while (*p && *p != ']') {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p)
            break;
        if (v == number)
            return 1;
        p = end;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return 0;
}

/* A top-level number of CLIP.truth.json ("files": 2), -1 if absent. */
static long long json_number(const truth_lists *t, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\": ", key);
    const char *p = strstr(t->text, pattern);
    return p ? strtoll(p + strlen(pattern), NULL, 10) : -1;
}

static int load_truth(truth_lists *t, const char *clip)
{
    char *path = truth_path(clip, ".truth.json");
    FILE *f = path ? fopen(path, "rb") : NULL;
    free(path);
    if (!f)
        return -1;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    t->text = buf;
    return 0;
}

/* Whether the blocks of --change-at reached the reader: they precede one frame's VIDF. */
static int change_known(const truth_lists *t)
{
    return list_has(t, "intact_frames", (uint32_t)json_number(t, "written_before_frame"));
}

static int has_damage(const mlv_clip *clip, mlv_damage_kind kind)
{
    const mlv_clip_info *in = mp_mlv_clip_get_info(clip);
    for (uint32_t i = 0; i < in->damage_count; i++)
        if (mp_mlv_clip_damage(clip, i)->kind == kind)
            return 1;
    return 0;
}

/* A --video-class the reader must refuse. LJ92 tagged 0x01 (the 2017-03-30 mlv_lite builds)
 * is a known case it must recognise by the FF D8 at the payload start. */
static int unsupported_class(const synth_options *o)
{
    return o->video_class != OPT_NONE &&
           !(o->video_class == 0x01 && o->compression == COMPRESS_LJ92);
}

/* Damage that costs data. (An interrupted recording only lacks its MLVI frame counts.) */
static int lossy_damage(const synth_options *o)
{
    return o->zero_tail || o->truncate || o->garbage_block != OPT_NONE ||
           o->bad_frame_space != OPT_NONE || o->guid_mismatch != OPT_NONE ||
           o->duplicate.count;
}

static int check_frames(const synth_options *o, const mlv_clip *clip,
                        const truth_lists *t, const clip_meta *meta, content_ctx *content)
{
    const mlv_clip_info *in = mp_mlv_clip_get_info(clip);
    uint16_t *want = malloc(options_max_pixels(o) * sizeof *want);
    mp_frame got = {0};
    mlv_scratch scratch = {0};
    mp_error err = {0};
    int bad = 0;
    for (uint32_t i = 0; !bad && i < in->frame_count; i++) {
        mlv_frame_info fi;
        if (mp_mlv_frame_info_get(clip, i, &fi) != MP_OK) {
            bad = fail("frame info %u failed", i);
            break;
        }
        uint32_t num = fi.number;
        if (num >= o->frames || list_has(t, "lost_frames", num)) {
            bad = fail("reader returned frame %u, which was lost or never written", num);
            break;
        }
        /* the change's blocks sit before one frame's VIDF; lost with it (or skipped by a
         * re-synchronising reader), the change is unknown from there on, and without its new
         * RAWI those frames cannot even be sized */
        int change_lost = o->change_at != OPT_NONE && num >= (uint64_t)o->change_at &&
                          !change_known(t);
        if (change_lost && o->change_width)
            continue;
        mp_status st = mp_mlv_read_frame(clip, i, &got, &scratch, &err);
        if (unsupported_class(o)) {
            /* an unsupported class must be refused, never decoded to garbage */
            if (st != MP_ERR_UNSUPPORTED)
                bad = fail("videoClass 0x%llx: read gave %s, expected unsupported",
                           (long long)o->video_class, mp_status_name(st));
            continue;
        }
        if (st != MP_OK) {
            bad = fail("frame %u: read failed", num);
            fprintf(stderr, "  reader: %s\n", err.msg);
            break;
        }
        /* a duplicate's picture only where its original was lost */
        uint32_t source = list_has(t, "duplicate_only_frames", num) ? num + o->frames : num;
        if (content_frame(content, num, source, want, &err) != MP_OK) {
            bad = fail("content %u: cannot regenerate: %s", num, err.msg);
            break;
        }
        uint32_t w, h;
        options_frame_geometry(o, num, &w, &h);
        if (got.width != w || got.height != h || got.bits != o->bits ||
            (fi.raw && (fi.raw->width != w || fi.raw->height != h))) {
            bad = fail("frame %u: geometry %ux%u/%u bits, expected %ux%u", num, got.width,
                       got.height, got.bits, w, h);
            break;
        }
        for (size_t k = 0; k < (size_t)w * h; k++)
            if (got.data[k] != want[k]) {
                fprintf(stderr, "synth_roundtrip: %s: frame %u sample (%zu, %zu): got %u, "
                        "expected %u\n", clip_name, num, k % w, k / w, got.data[k], want[k]);
                bad = 1;
                break;
            }
        if (!bad && (got.black != (uint32_t)meta->raw.black ||
                     got.white != (uint32_t)meta->raw.white))
            bad = fail("frame %u: levels %u/%u differ", num, got.black, got.white);
        /* where the frame lies in the LiveView buffer (--camera-geometry; else all 0) */
        const clip_window *win = w != o->width || h != o->height ? &meta->window_changed
                                                                 : &meta->window;
        if (!bad && !o->legacy_raw &&
            (fi.crop_x != win->crop_x || fi.crop_y != win->crop_y || fi.pan_x != win->pan_x ||
             fi.pan_y != win->pan_y))
            bad = fail("frame %u: VIDF crop %u,%u pan %u,%u, expected %u,%u %u,%u", num,
                       fi.crop_x, fi.crop_y, fi.pan_x, fi.pan_y, win->crop_x, win->crop_y,
                       win->pan_x, win->pan_y);
        uint64_t ts = source == num ? options_frame_time_us(o, num)
                                    : plan_duplicate_time_us(o, num);
        if (!bad && !o->legacy_raw && fi.timestamp_us != ts)
            bad = fail("frame %u: timestamp %llu, expected %llu", num,
                       (unsigned long long)fi.timestamp_us, (unsigned long long)ts);
        if (!bad && !o->legacy_raw && !change_lost) {
            int changed = o->change_at != OPT_NONE && num >= (uint64_t)o->change_at;
            const mp_exposure *e = changed ? &meta->exposure_changed : &meta->exposure;
            if (!fi.exposure || fi.exposure->iso != e->iso ||
                fi.exposure->shutter_us != e->shutter_us)
                bad = fail("frame %u: EXPO in force is not ISO %u", num, e->iso);
            const mp_dual_iso_tag *d = changed ? &meta->dual_iso_changed : &meta->dual_iso;
            if (!bad && d->present && (!fi.dual_iso || !fi.dual_iso->present ||
                                       fi.dual_iso->iso_value != d->iso_value))
                bad = fail("frame %u: DISO in force is not %d", num, d->iso_value);
        }
    }
    for (uint32_t f = 0; !bad && f < o->frames; f++)
        if (list_has(t, "intact_frames", f) && mp_mlv_frame_index_of(clip, f) < 0)
            bad = fail("intact frame %u missing from the index", f);
    free(want);
    mp_frame_free(&got);
    mp_mlv_scratch_free(&scratch);
    return bad;
}

static int check_audio(const synth_options *o, const mlv_clip *clip)
{
    const mlv_clip_info *in = mp_mlv_clip_get_info(clip);
    if (!in->audio.present || in->audio.sample_rate != CONTENT_AUDIO_RATE ||
        in->audio.channels != CONTENT_AUDIO_CHANNELS || in->audio.bits_per_sample != 16)
        return fail("WAVI missing or wrong (%u Hz)", in->audio.sample_rate);
    uint64_t samples = content_audio_block_start(o, o->frames);
    if (in->audio_bytes != samples * 4)
        return fail("audio: %llu bytes, expected %llu", (unsigned long long)in->audio_bytes,
                    (unsigned long long)(samples * 4));
    uint64_t first_audf = options_first_frame_time_us(o) + (uint64_t)o->audio_offset_us;
    if (in->audio_start_us != first_audf)
        return fail("audio starts at %llu us, expected %llu",
                    (unsigned long long)in->audio_start_us, (unsigned long long)first_audf);
    int16_t *got = malloc(samples * 4), *want = malloc(samples * 4);
    mp_error err = {0};
    int bad = !got || !want;
    if (!bad && mp_mlv_read_audio(clip, 0, got, samples * 4, &err) != MP_OK) {
        fprintf(stderr, "  reader: %s\n", err.msg);
        bad = fail("audio read failed");
    }
    if (!bad) {
        content_tone(o, 0, (uint32_t)samples, want);
        for (uint64_t i = 0; !bad && i < samples * 2; i++) {
            const uint8_t *b = (const uint8_t *)&got[i];
            int16_t v = (int16_t)(b[0] | b[1] << 8);
            if (v != want[i])
                bad = fail("audio sample %llu: got %d, expected %d", (unsigned long long)i, v,
                           want[i]);
        }
    }
    free(got);
    free(want);
    return bad;
}

/* Runs of frames under one RAWI/EXPO/DISO: two when --change-at really changed something. */
static uint32_t expected_segments(const synth_options *o, const clip_meta *m)
{
    if (o->change_at == OPT_NONE || o->legacy_raw)
        return 1;
    int changed = o->change_width || m->exposure_changed.iso != m->exposure.iso ||
                  m->exposure_changed.iso_analog != m->exposure.iso_analog ||
                  m->exposure_changed.shutter_us != m->exposure.shutter_us ||
                  (m->dual_iso.present &&
                   m->dual_iso_changed.iso_value != m->dual_iso.iso_value);
    return changed ? 2 : 1;
}

static int check_metadata(const synth_options *o, const truth_lists *t, const mlv_clip *clip,
                          const clip_meta *m)
{
    const mlv_clip_info *in = mp_mlv_clip_get_info(clip);
    if (!lossy_damage(o) && !o->drop.count &&
        in->segment_count != expected_segments(o, m))
        return fail("%u segments, expected %u", in->segment_count, expected_segments(o, m));
    if (o->guid_mismatch == OPT_NONE && in->chunk_count != json_number(t, "files"))
        return fail("%u chunk files found, %lld written", in->chunk_count,
                    json_number(t, "files"));
    const mp_raw_info *r = &in->raw;
    /* metadata in force at the first frame: the changed set when the clip starts after K (and
     * unknown when the change was lost); from K on, check_frames judges it frame by frame */
    int after_change = o->change_at != OPT_NONE && in->first_number >= o->change_at;
    if (after_change && !change_known(t))
        return 0;
    const mp_raw_info *want = after_change ? &m->raw_changed : &m->raw;
    if (r->width != want->width || r->height != want->height || r->bits != want->bits ||
        r->black != want->black || r->white != want->white || r->cfa != want->cfa ||
        memcmp(r->active_area, want->active_area, sizeof r->active_area) ||
        r->buffer_width != want->buffer_width || r->buffer_height != want->buffer_height ||
        r->pitch != want->pitch || r->frame_size != want->frame_size ||
        memcmp(r->crop_origin, want->crop_origin, sizeof r->crop_origin) ||
        memcmp(r->crop_size, want->crop_size, sizeof r->crop_size) ||
        memcmp(r->color_matrix1, want->color_matrix1, sizeof r->color_matrix1))
        return fail("raw_info differs (%ux%u, %u bits, levels %d/%d)", r->width, r->height,
                    r->bits, r->black, r->white);
    if (o->legacy_raw)
        return in->container == MLV_CONTAINER_RAW ? 0 : fail("not a legacy RAW clip");
    static const mlv_compression kinds[] = {MLV_COMPRESSION_NONE, MLV_COMPRESSION_LJ92,
                                            MLV_COMPRESSION_LZMA, MLV_COMPRESSION_DELTA,
                                            MLV_COMPRESSION_LZMA_DELTA};
    if (o->video_class == OPT_NONE && in->compression != kinds[o->compression])
        return fail("compression %s, expected %s", mp_mlv_compression_name(in->compression),
                    mp_mlv_compression_name(kinds[o->compression]));
    if (in->guid != o->guid || in->fps_num != o->fps_num || in->fps_den != o->fps_den)
        return fail("MLVI GUID or fps differ");
    if (!after_change && (!in->exposure.present || in->exposure.iso != m->exposure.iso ||
                                in->exposure.iso_analog != m->exposure.iso_analog))
        return fail("EXPO differs (ISO %u, analog %u)", in->exposure.iso,
                    in->exposure.iso_analog);
    if (!after_change && (m->dual_iso.present != in->dual_iso.present ||
        (m->dual_iso.present && (in->dual_iso.mode != 1 ||
                                 in->dual_iso.iso_value != m->dual_iso.iso_value))))
        return fail("DISO differs (present %d, value %d)", in->dual_iso.present,
                    in->dual_iso.iso_value);
    if (o->header != HEADER_MINIMAL) {
        if (!in->camera.present || strcmp(in->camera.name, m->camera.name) ||
            in->camera.model != m->camera.model || strcmp(in->lens.name, m->lens.name) ||
            in->lens.aperture_x100 != m->lens.aperture_x100 ||
            in->white_balance.kelvin != m->white_balance.kelvin ||
            !in->wall_clock.present || in->wall_clock.year != m->wall_clock.year ||
            in->wall_clock.month != m->wall_clock.month ||
            in->wall_clock.day != m->wall_clock.day ||
            in->wall_clock.second != m->wall_clock.second ||
            !in->capture.present || in->capture.binning_y != m->capture.binning_y ||
            in->capture.offset_x != m->capture.offset_x ||
            in->capture.offset_y != m->capture.offset_y ||
            in->white_balance.mode != m->white_balance.mode ||
            in->white_balance.gain_r != m->white_balance.gain_r ||
            in->white_balance.gain_b != m->white_balance.gain_b)
            return fail("IDNT/LENS/WBAL/RTCI/RAWC differ (camera '%s')", in->camera.name);
    }
    if (o->header == HEADER_ALL &&
        (!in->style.present || strcmp(in->style.name, m->style.name) ||
         !in->level.present || in->level.pitch_x100 != m->level.pitch_x100 ||
         strcmp(in->info_text, m->info_text)))
        return fail("STYL/ELVL/INFO differ (info '%s')", in->info_text);
    return 0;
}

static int check_damage(const synth_options *o, const mlv_clip *clip)
{
    const mlv_clip_info *in = mp_mlv_clip_get_info(clip);
    /* One kind of damage must be reported as that kind. Several can hide each other (a
     * truncation cuts a bad block, a re-synchronising reader skips a zero tail...): then some
     * report is enough, the frame checks still hold. */
    int kinds = !!o->zero_tail + !!o->truncate + (o->garbage_block != OPT_NONE) +
                (o->bad_frame_space != OPT_NONE) + (o->guid_mismatch != OPT_NONE) +
                !!o->duplicate.count;
    if (kinds > 1 && in->damage_count == 0)
        return fail("damaged clip reported no damage");
    if (kinds == 1 && o->zero_tail && !has_damage(clip, MLV_DAMAGE_ZERO_TAIL))
        return fail("zero tail not reported");
    if (kinds == 1 && o->truncate && !has_damage(clip, MLV_DAMAGE_TRUNCATED))
        return fail("truncation not reported");
    if (kinds == 1 && (o->garbage_block != OPT_NONE || o->bad_frame_space != OPT_NONE) &&
        !has_damage(clip, MLV_DAMAGE_BAD_BLOCK) && !has_damage(clip, MLV_DAMAGE_RESYNC))
        return fail("bad block not reported");
    if (kinds == 1 && o->guid_mismatch != OPT_NONE &&
        !has_damage(clip, MLV_DAMAGE_GUID_MISMATCH))
        return fail("GUID mismatch not reported");
    if (kinds == 1 && o->duplicate.count && !has_damage(clip, MLV_DAMAGE_DUPLICATE_FRAME))
        return fail("duplicate frame numbers not reported");
    if (!lossy_damage(o) && !o->interrupted && in->damage_count)
        return fail("clean clip reported damage: %s", mp_mlv_clip_damage(clip, 0)->message);
    if (!lossy_damage(o)) {
        /* gaps: runs of dropped numbers between the first and last frame written */
        uint32_t first = 0, last = o->frames - 1, gaps = 0, missing = 0;
        while (frame_list_has(&o->drop, first))
            first++;
        while (frame_list_has(&o->drop, last))
            last--;
        for (uint32_t f = first + 1; f < last; f++)
            if (frame_list_has(&o->drop, f)) {
                missing++;
                gaps += !frame_list_has(&o->drop, f - 1);
            }
        if (in->gap_count != gaps || in->missing_frames != missing)
            return fail("%u gaps / %u missing frames reported, %u / %u dropped", in->gap_count,
                        in->missing_frames, gaps, missing);
    }
    return 0;
}

int main(int argc, char **argv)
{
    synth_options o;
    mp_error err = {0};
    int help;
    clip_name = argc > 0 ? argv[0] : "synth_roundtrip";
    if (options_parse(&o, argc, argv, 1, &help, &err) != MP_OK || help) {
        fprintf(stderr, "synth_roundtrip: %s\nusage: synth_roundtrip MLVSYNTH-OPTIONS...\n",
                err.msg);
        return 2;
    }
    clip_name = o.output;
    truth_lists t;
    if (load_truth(&t, o.output) != 0)
        return fail("no truth file beside the clip");
    clip_meta meta;
    content_ctx content;
    if (clip_meta_build(&meta, &o, &err) ||
        content_init(&content, &o, &err))
        return fail("cannot rebuild the clip description: %s", err.msg);

    mlv_clip *clip = NULL;
    mp_status st = mp_mlv_clip_open(&clip, o.output, NULL, &err);
    int bad = 0;
    if (o.no_rawi) {
        /* no frame geometry anywhere: the reader must refuse the clip, with a reason */
        if (st == MP_OK)
            bad = fail("opened a clip without RAWI");
        else
            printf("%s: refused as expected: %s\n", o.output, err.msg);
    } else if (st != MP_OK) {
        if (unsupported_class(&o) && st == MP_ERR_UNSUPPORTED)
            printf("%s: refused as expected: %s\n", o.output, err.msg);
        else
            bad = fail("open failed: %s", err.msg);
    } else {
        bad = check_metadata(&o, &t, clip, &meta);
        if (!bad)
            bad = check_frames(&o, clip, &t, &meta, &content);
        if (!bad)
            bad = check_damage(&o, clip);
        if (!bad && o.audio && !lossy_damage(&o))
            bad = check_audio(&o, clip);
        if (!bad) {
            const mlv_clip_info *in = mp_mlv_clip_get_info(clip);
            printf("%s: %u frames, %llu audio bytes, %u damage reports: ok\n", o.output,
                   in->frame_count, (unsigned long long)in->audio_bytes, in->damage_count);
            for (uint32_t i = 0; i < in->damage_count; i++)
                printf("  damage: %s\n", mp_mlv_clip_damage(clip, i)->message);
        }
        mp_mlv_clip_close(clip);
    }
    content_free(&content);
    options_free(&o);
    return bad;
}
