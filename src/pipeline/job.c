#include "job.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/prepass.h"
#include "analysis/fix_plan.h"
#include "common/out_file.h"
#include "engine/frame_range.h"
#include "engine/sampling.h"
#include "encode/timecode.h"
#include "mlvpipe/convert.h"

mp_status mp_job_worker_create(void *user, void **ctx, mp_error *err)
{
    job *j = user;
    worker *w = calloc(1, sizeof *w);
    if (w) {
        w->scratch.ref_index = -1;
        if (!j->native && !(w->ws = mp_dualiso_workspace_new())) {
            free(w);
            w = NULL;
        }
    }
    if (!w)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory for a worker", j->o->input);
    *ctx = w;
    return MP_OK;
}

void mp_job_worker_destroy(void *user, void *ctx)
{
    job *j = user;
    worker *w = ctx;
    mp_sink_encoder_free(j->sink, w->enc);
    mp_develop_rgb_free(&w->rgb);
    mp_develop_rgb_free(&w->wide);
    mp_mlv_scratch_free(&w->scratch);
    mp_frame_free(&w->raw);
    mp_frame_free(&w->out);
    mp_dualiso_workspace_free(w->ws);
    mp_develop_workspace_free(&w->dev);
    mp_cache_scratch_free(&w->cache_scratch);
    free(w);
}

/* The cache key of the frame at clip index `index`, when its frame is cached: only
 * reconstructed (dual-ISO) frames are. */
int mp_job_cache_key(const job *j, uint32_t index, uint32_t number, mp_cache_key *key)
{
    if (!j->cache)
        return 0;
    uint32_t k = mp_segment_of_index(j->segs, j->levels.segment_count, index);
    if (!j->levels.segments[k].levels.is_dual)
        return 0;
    *key = (mp_cache_key){j->clip_id.guid, number, j->seg_hash[k]};
    return 1;
}

/* The frame's payload into its slot. A damaged frame is left for its job to report (every
 * intact frame is still written); any other read error is this frame's failure and ends the
 * run. */
mp_status mp_job_read_payload(const job *j, uint32_t index, slot *s, mp_error *err)
{
    mp_status st = mp_mlv_read_payload(j->clip, index, &s->payload, &s->read_error);
    s->read_error.code = st;
    s->payload_read = 1;
    if (st == MP_OK || st == MP_ERR_DAMAGED)
        return MP_OK;
    *err = s->read_error;
    return st;
}

/* Decodes the slot's payload and reconstructs it into out (native clips: raw is the
 * output). A damaged frame is logged and marked, not an error. */
mp_status mp_job_decode(job *j, worker *w, slot *s, uint32_t index, mp_frame *raw,
                        mp_frame *out, mp_error *err)
{
    mp_error e = s->read_error;
    mp_status st = e.code;
    if (st == MP_OK)
        st = mp_mlv_decode_payload(j->clip, index, &s->payload, raw, &w->scratch, &e);
    if (st == MP_ERR_DAMAGED) {
        mp_log(&j->o->log, MP_LOG_WARNING, "frame %u not converted: %s", s->number, e.msg);
        s->outcome = FRAME_DAMAGED;
        return MP_OK;
    }
    if (st != MP_OK) {
        *err = e;
        return st;
    }
    uint32_t k = mp_segment_of_index(j->segs, j->levels.segment_count, index);
    if ((st = mp_rawfix_dark_apply(&j->dark, raw, err)) != MP_OK ||
        (st = mp_rawfix_apply(&j->fixes[k], raw, err)) != MP_OK || j->native)
        return st;
    const dualiso_levels *lv = &j->levels.segments[k].levels;
    st = lv->is_dual ? mp_dualiso_reconstruct(raw, lv, &j->dopt, w->ws, out, err)
                     : mp_dualiso_passthrough(raw, lv, out, err);
    out->number = raw->number;
    out->timestamp_us = raw->timestamp_us;
    return st;
}

/* A failed put costs only speed: logged (the first one), counted, and the run goes on. */
static void cache_put(job *j, worker *w, const mp_cache_key *key, const mp_frame *f)
{
    mp_error e = {0};
    if (mp_cache_put(j->cache, key, f, &w->cache_scratch, &e) != MP_OK &&
        atomic_fetch_add(&j->put_failures, 1) == 0)
        mp_log(&j->o->log, MP_LOG_WARNING, "frame %u not cached (later failures are only "
               "counted): %s", key->frame, e.msg);
}

mp_status mp_job_frame(job *j, worker *w, slot *s, uint32_t index, mp_frame *raw,
                       mp_frame *out, mp_error *err)
{
    mp_cache_key key;
    int cached = mp_job_cache_key(j, index, s->number, &key), hit = 0;
    mp_status st = MP_OK;
    if (cached) {
        st = mp_cache_get(j->cache, &key, out, &hit, &w->cache_scratch, err);
        /* The entry the reader saw was unusable (logged) or gone: read the frame now. */
        if (st == MP_OK && !hit && !s->payload_read)
            st = mp_job_read_payload(j, index, s, err);
        if (st != MP_OK || hit)
            return st;
    }
    st = mp_job_decode(j, w, s, index, raw, out, err);
    if (st == MP_OK && s->outcome != FRAME_DAMAGED && cached)
        cache_put(j, w, &key, out);
    return st;
}

/* The clip file name without folder and extension: "A001C003.MLV" -> "A001C003". */
static void clip_name(const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(out, size, "%s", base);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = 0;
}

/* Reconstructed frames are 16-bit: "native" storage then writes 16-bit samples. */
static mp_dng_storage dng_storage(const job *j)
{
    return j->o->dng_storage == MP_DNG_NATIVE && !j->native ? MP_DNG_16BIT : j->o->dng_storage;
}

static void fill_params(job *j, const mlv_clip_info *info, uint32_t selected)
{
    mp_sink_params *p = &j->params;
    memset(p, 0, sizeof *p);
    clip_name(j->o->input, p->clip_name, sizeof p->clip_name);
    p->meta.raw = info->raw;
    p->meta.capture = info->capture;
    p->meta.camera = info->camera;
    p->meta.lens = info->lens;
    p->meta.exposure = info->exposure;
    p->meta.white_balance = info->white_balance;
    p->meta.wall_clock = info->wall_clock;
    p->meta.photo = info->photo;
    p->still = info->container == MLV_CONTAINER_STILL && !info->sequence;
    p->fps_num = info->fps_num;
    p->fps_den = info->fps_den;
    p->fps_override_num = j->o->fps_override_num;
    p->fps_override_den = j->o->fps_override_den;
    p->timecode_time_of_day = j->o->timecode_time_of_day;
    p->timecode_drop_frame = j->o->timecode_drop_frame;
    p->extension = j->format->sequence ? j->format->extension : NULL;
    p->storage = dng_storage(j);
    p->naming = j->o->naming;
    p->resolve_clip_index = j->o->resolve_clip_index;
    p->one_based = j->o->one_based;
    p->prores_aw = j->o->prores_aw;
    p->prores_slice_rc = j->o->prores_slice_rc;
    p->audio = info->audio;
    p->audio_start_us = info->audio_start_us;
    p->video_start_us = info->video_start_us;
    p->clip_first_frame = info->first_number;
    if (selected) {
        p->first_frame = j->numbers[j->indices[0]];
        p->frame_count = j->numbers[j->indices[selected - 1]] - p->first_frame + 1;
    }
    p->overwrite = j->o->overwrite;
    p->log = j->o->log;
}

/* The levels cache: the analysis of a clip kept as a sidecar in a folder of its own
 * (DIR/levels/GUID-HASH.json; frames on demand use it, convert does not), so a second open of the clip (a remount, a re-render) skips
 * the pre-pass. The hash covers what the pre-pass depends on: the program, the clip's files,
 * the forced phase, whether defects are looked for and the dark frame. Runs that borrow
 * defects (--defects-from) do not use it. */
static mp_status levels_cache_path(const job *j, const mp_prepass_options *po, char *path,
                                   size_t size, mp_error *err)
{
    mp_cache_clip_id id;
    mp_status st = mp_cache_clip_identify(j->clip, &id, err);
    if (st != MP_OK)
        return st;
    mp_cache_hash h;
    mp_cache_hash_init(&h, 0);
    mp_cache_hash_str(&h, j->o->tool);
    mp_cache_hash_u64(&h, id.fingerprint);
    mp_cache_hash_u32(&h, (uint32_t)po->force_phase);
    mp_cache_hash_u32(&h, (uint32_t)po->no_defects);
    mp_cache_hash_u64(&h, mp_dark_hash(&j->dark));
    int n = snprintf(path, size, "%s/levels/%016" PRIx64 "-%016" PRIx64 ".json",
                     j->levels_cache, id.guid, mp_cache_hash_final(&h));
    if (n < 0 || (size_t)n >= size)
        return mp_error_set(err, MP_ERR_ARG, "%s: cache path too long", j->levels_cache);
    return MP_OK;
}

/* dir and the folders above it that are missing (a first run makes ~/.cache/mlvpipe). */
static mp_status make_dirs(const char *dir, mp_error *err)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", dir);
    for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = 0;
        mp_status st = mp_make_dir(path, err);
        *slash = '/';
        if (st != MP_OK)
            return st;
    }
    return mp_make_dir(path, err);
}

/* Levels from the cache when an entry matches the clip, else the pre-pass, whose result is
 * then stored (a failed store costs only time: logged). */
static mp_status levels_cached(job *j, const mp_prepass_options *po, mp_error *err)
{
    char path[PATH_MAX], dir[PATH_MAX];
    mp_error e;
    mp_status st = levels_cache_path(j, po, path, sizeof path, err);
    if (st != MP_OK)
        return st;
    if (mp_clip_levels_read(path, &j->levels, &e) == MP_OK) {
        if (mp_clip_levels_match(&j->levels, j->clip, po, path, &e) == MP_OK) {
            mp_log(&j->o->log, MP_LOG_INFO, "%s: levels from the cache (%s)", j->o->input, path);
            return MP_OK;
        }
        mp_clip_levels_free(&j->levels);
    }
    st = mp_defects_from_prepass(j->clip, po, &j->borrowed, j->o->tool, &j->levels, err);
    if (st != MP_OK)
        return st;
    snprintf(dir, sizeof dir, "%s/levels", j->levels_cache);
    if (make_dirs(dir, &e) != MP_OK ||
        mp_clip_levels_write(path, &j->levels, 1, &e) != MP_OK)
        mp_log(&j->o->log, MP_LOG_WARNING, "levels not cached: %s", e.msg);
    return MP_OK;
}

static mp_status load_levels(job *j, const mp_prepass_options *po, mp_error *err)
{
    mp_status st;
    if (j->o->levels_path) {
        st = mp_clip_levels_read(j->o->levels_path, &j->levels, err);
        if (st == MP_OK)
            st = mp_clip_levels_match(&j->levels, j->clip, po, j->o->levels_path, err);
    } else if (j->levels_cache && !j->borrowed.count) {
        st = levels_cached(j, po, err);
    } else {
        st = mp_defects_from_prepass(j->clip, po, &j->borrowed, j->o->tool, &j->levels, err);
    }
    if (st != MP_OK)
        return st;
    j->segs = malloc(j->levels.segment_count * sizeof *j->segs);
    j->fixes = calloc(j->levels.segment_count, sizeof *j->fixes);
    if (!j->segs || !j->fixes)
        return mp_error_set(err, MP_ERR_NOMEM, "convert: out of memory");
    j->native = 1;
    for (uint32_t k = 0; k < j->levels.segment_count && st == MP_OK; k++) {
        const mp_levels_segment *ls = &j->levels.segments[k];
        j->segs[k] = (mp_segment){ls->first_index, ls->frame_count};
        if (ls->levels.is_dual)
            j->native = 0;
        st = mp_fix_plan_for_levels(&ls->fix, &ls->levels, j->o->raw_fixes, &j->fixes[k], err);
    }
    return st;
}

/* Drop-frame codes exist only at 29.97 and 59.94: refused before any file is written rather
 * than on every frame. */
static mp_status check_drop_frame(const job *j, mp_error *err)
{
    mp_rational fps;
    if (!j->params.timecode_drop_frame)
        return MP_OK;
    mp_status st = mp_sink_fps(&j->params, &fps, err);
    if (st != MP_OK)
        return st;
    if (fps.den != 1001 || (fps.num != 30000 && fps.num != 60000))
        return mp_error_set(err, MP_ERR_ARG, "%s: drop-frame time code needs 30000/1001 or "
                            "60000/1001 fps, not %d/%d", j->o->input, (int)fps.num,
                            (int)fps.den);
    return MP_OK;
}

mp_status mp_job_read_audio(void *opaque, uint64_t offset, void *buf, size_t bytes,
                                 mp_error *err)
{
    const mlv_clip *clip = opaque;
    return mp_mlv_read_audio(clip, offset, buf, bytes, err);
}

/* Opens the cache and hashes each segment's settings, when the clip has frames to cache. */
static mp_status open_cache(job *j, mp_error *err)
{
    if (!j->o->cache_dir || j->native)
        return MP_OK;
    mp_status st = mp_cache_clip_identify(j->clip, &j->clip_id, err);
    if (st != MP_OK)
        return st;
    j->seg_hash = malloc(j->levels.segment_count * sizeof *j->seg_hash);
    if (!j->seg_hash)
        return mp_error_set(err, MP_ERR_NOMEM, "convert: out of memory");
    for (uint32_t k = 0; k < j->levels.segment_count; k++)
        j->seg_hash[k] = mp_cache_segment_hash(j->o->tool, &j->clip_id,
                                               &j->levels.segments[k].levels, &j->dopt,
                                               &j->fixes[k], mp_dark_hash(&j->dark));
    mp_cache_options co;
    mp_cache_options_default(&co);
    co.log = j->o->log;
    if ((st = mp_cache_open(&j->cache, j->o->cache_dir, &co, err)) != MP_OK)
        atomic_store(&j->output_failed, 1);   /* a folder we cannot write, like -o's */
    return st;
}

mp_status mp_job_check_options(const mp_convert_options *o, mp_error *err)
{
    if (o->defects_from && o->levels_path)
        return mp_error_set(err, MP_ERR_ARG, "--defects-from with --levels: the sidecar holds "
                            "the defect map (give --defects-from to analyze)");
    const mlvpipe_convert_settings *s = o->settings;
    if (s && s->scale != 0 && (s->size_width || s->size_height))
        return mp_error_set(err, MP_ERR_ARG, "--scale with --size: give one of them");
    if (s && s->scale != 0 && !(s->scale >= 1.0f / 64 && s->scale <= 4))
        return mp_error_set(err, MP_ERR_ARG, "--scale takes a factor from 1/64 to 4, not %g",
                            (double)s->scale);
    if (s && !s->size_width != !s->size_height)
        return mp_error_set(err, MP_ERR_ARG, "--size takes a width and a height, not %ux%u",
                            s->size_width, s->size_height);
    const mp_format *f = mp_format_find(o->format);
    if (s && (s->scale != 0 || s->size_width) && f && f->input != MP_INPUT_RGB)
        return mp_error_set(err, MP_ERR_ARG, "--scale and --size resize developed pictures; "
                            "%s keeps the recorded raw samples", f->name);
    const float denoise = o->settings ? o->settings->denoise : 0;
    if (!(denoise >= 0 && denoise <= DUALISO_DENOISE_MAX))
        return mp_error_set(err, MP_ERR_ARG, "--denoise takes a strength from 0 to %g, not %g",
                            (double)DUALISO_DENOISE_MAX, (double)denoise);
    if (s && s->lut && f && f->input != MP_INPUT_RGB)
        return mp_error_set(err, MP_ERR_ARG, "--lut grades developed pictures: %s takes the "
                            "raw mosaic", o->format);
    return MP_OK;
}

mp_status mp_job_index(job *j, uint32_t *selected, mp_error *err)
{
    const mp_convert_options *o = j->o;
    const mlv_clip_info *info = mp_mlv_clip_get_info(j->clip);
    /* The reader has logged each damage entry while indexing. */
    if (!info->frame_count)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: no frame in the clip", o->input);
    uint32_t *numbers = malloc(info->frame_count * sizeof *numbers);
    if (!numbers)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", o->input);
    j->numbers = numbers;
    mp_status st = MP_OK;
    for (uint32_t i = 0; i < info->frame_count && st == MP_OK; i++) {
        mlv_frame_info fi;
        st = mp_mlv_frame_info_get(j->clip, i, &fi);
        numbers[i] = fi.number;
    }
    if (st != MP_OK)
        return mp_error_set(err, st, "%s: frame index unreadable", o->input);
    mp_frame_spec spec;
    if ((st = mp_frame_spec_parse(o->frames, &spec, err)) != MP_OK ||
        (st = mp_frame_spec_select(&spec, numbers, info->frame_count, &o->log, &j->indices,
                                   selected, err)) != MP_OK)
        return st;
    if (j->format->input == MP_INPUT_RGB && !j->format->sequence &&
        (spec.count > 1 || (spec.count && spec.terms[0].step > 1)))
        return mp_error_set(err, MP_ERR_ARG, "--frames: a movie takes one range without step "
                            "(A-B, A-, -B or N)");
    if (!*selected)
        mp_log(&o->log, MP_LOG_WARNING, "%s: --frames %s selects no recorded frame", o->input,
               o->frames ? o->frames : "");
    fill_params(j, info, *selected);   /* the names; analysis fills them again */
    return MP_OK;
}

int mp_job_writes_wav(const job *j, uint32_t selected)
{
    const mlv_clip_info *info = mp_mlv_clip_get_info(j->clip);
    int whole = selected == info->frame_count;
    return info->audio.present && info->audio_bytes && j->format->audio == MP_AUDIO_BESIDE &&
           j->o->audio != 0 && (j->o->audio > 0 || whole) && selected;
}

mp_status mp_job_analyse(job *j, mp_error *err)
{
    const mp_convert_options *o = j->o;
    mp_prepass_options po;
    mp_prepass_options_default(&po);
    po.threads = o->threads;
    po.cancel = o->cancel;
    po.log = o->log;
    po.force_phase = o->force_phase;
    po.progress = o->progress;
    po.progress_opaque = o->progress_opaque;
    po.no_defects = !o->raw_fixes;
    mp_status st;
    if (o->dark_path) {
        if ((st = mp_dark_load(o->dark_path, j->clip, o->cancel, &o->log, &j->dark, err)))
            return st;
        po.dark = &j->dark;
    }
    if (o->defects_from && (o->raw_fixes & (RAWFIX_FOCUS | RAWFIX_BAD))) {
        if ((st = mp_defects_from_load(o->defects_from, &po, &j->borrowed, err)))
            return st;
    }
    mp_dualiso_options_default(&j->dopt);
    j->dopt.chroma_smooth = o->chroma_smooth;
    j->dopt.denoise = o->settings ? o->settings->denoise : 0;
    if ((st = load_levels(j, &po, err)) != MP_OK || (st = open_cache(j, err)) != MP_OK)
        return st;
    j->params.storage = dng_storage(j);   /* the rest of the params came with the index */
    return check_drop_frame(j, err);
}

void mp_job_free(job *j)
{
    for (uint32_t k = 0; j->fixes && k < j->levels.segment_count; k++)
        mp_rawfix_plan_free(&j->fixes[k]);
    free(j->fixes);
    mp_rawfix_dark_free(&j->dark);
    mp_defects_from_free(&j->borrowed);
    mp_clip_levels_free(&j->levels);
    mp_cache_close(j->cache);
    free(j->seg_hash);
    free(j->segs);
    free(j->indices);
    free(j->numbers);
}
