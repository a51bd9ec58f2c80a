#include "pipeline/convert.h"
#include "job.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cache/frame_cache.h"
#include "common/mp_white.h"
#include "common/out_file.h"
#include "develop/resample.h"
#include "develop/stretch.h"
#include "dualiso/dualiso.h"
#include "pipeline/formats.h"
#include "encode/naming.h"
#include "encode/sink.h"
#include "encode/timecode.h"
#include "reader/mlv_reader.h"
#include "pipeline/cache_key.h"
#include "engine/frame_range.h"
#include "mlvpipe/convert.h"
#include "analysis/inputs.h"
#include "analysis/levels_io.h"
#include "analysis/dark_load.h"
#include "analysis/defects_from.h"
#include "analysis/prepass.h"
#include "engine/sampling.h"
#include "pipeline/stale.h"
#include "engine/workpool.h"
#include "mlvpipe/convert.h"

#define AUDIO_CHUNK (1u << 20)
/* Frames the grey-world white balance pools (spread over the whole clip): enough to average
 * out a scene's changes, few enough to cost about a second of an HD clip. */
#define WB_SAMPLES 16u

void mp_convert_options_default(mp_convert_options *o)
{
    memset(o, 0, sizeof *o);
    o->format = "dng";
    o->audio = -1;
    o->force_phase = -1;
    o->raw_fixes = RAWFIX_ALL;
    o->tool = "mlvpipe";
    mp_develop_params_default(&o->develop);
}




static int final_file_exists(const job *j, uint32_t number)
{
    char name[MP_NAME_MAX], path[PATH_MAX];
    struct stat sb;
    mp_name_frame(&j->params, number, name);
    if (mp_path_join(path, sizeof path, j->folder, name, NULL) != MP_OK)
        return 0;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}


static int cache_entry_exists(const job *j, const mp_cache_key *key)
{
    char path[PATH_MAX];
    struct stat sb;
    mp_error e;
    return mp_cache_entry_path(j->cache, key, path, sizeof path, &e) == MP_OK &&
           stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}


/* The pool's I/O stage: whether the frame is skipped or in the cache, else its payload. An
 * entry found here may still be unusable; the job then reads the payload itself. */
static mp_status read_one(void *user, uint32_t i, uint32_t slot_index, mp_error *err)
{
    job *j = user;
    slot *s = &j->slots[slot_index];
    uint32_t index = j->indices[i];
    s->number = j->numbers[index];
    s->outcome = FRAME_WRITTEN;
    s->payload_read = 0;
    s->read_error.code = MP_OK;
    if (j->o->skip_existing && final_file_exists(j, s->number)) {
        s->outcome = FRAME_SKIPPED;
        return MP_OK;
    }
    mp_cache_key key;
    if (mp_job_cache_key(j, index, s->number, &key) && cache_entry_exists(j, &key))
        return MP_OK;
    return mp_job_read_payload(j, index, s, err);
}



/* Whether developed pictures are resampled (into `wide`): stretched or scaled. */
static int resampled(const job *j)
{
    return j->stretch.out_width || j->resample.h.out;
}

static mp_rgb_frame slot_picture(const job *j, const slot *s)
{
    const develop_rgb *p = resampled(j) ? &s->wide : &s->rgb;
    return (mp_rgb_frame){{p->plane[0], p->plane[1], p->plane[2]}, p->width, p->height,
                          s->number};
}

/* Develops frame `out` into rgb and, for anamorphic modes or a new size, resamples it into
 * wide. */
static mp_status develop_picture(const job *j, worker *w, const mp_frame *out, develop_rgb *rgb,
                                 develop_rgb *wide, mp_error *err)
{
    mp_status st = mp_develop_frame(j->dev, out, &w->dev, rgb, err);
    if (st == MP_OK && (j->lut.size1d || j->lut.size3d))
        mp_lut_apply(&j->lut, rgb->plane, (size_t)rgb->width * rgb->height);
    if (st == MP_OK && j->resample.h.out)
        st = mp_develop_resample_apply(&j->resample, rgb, j->stretch_top, j->stretch_left, wide,
                                       err);
    else if (st == MP_OK && j->stretch.out_width)
        st = mp_develop_stretch_apply(&j->stretch, rgb, j->stretch_top, j->stretch_left, wide,
                                      err);
    return st;
}

/* A frame developed row by row into an encoder (mp_rgb_rows): no LUT, no resampling. */
typedef struct develop_rows {
    const job *j;
    worker *w;
    const mp_frame *frame;
    int failed;                  /* the develop failed, not the encoder */
} develop_rows;

static mp_status produce_rows(void *user, uint32_t first, uint32_t last, mp_rgb_row_fn row,
                              void *row_user, mp_error *err)
{
    develop_rows *d = user;
    mp_status st = mp_develop_frame_rows(d->j->dev, d->frame, &d->w->dev, first, last, row,
                                         row_user, err);
    d->failed = st != MP_OK;   /* the rows (movie_encode_rows' area_row) never fail */
    return st;
}

/* The developed picture into the worker's encoder: row by row where nothing between the
 * develop and the encoder needs the whole picture (doc/benchmarks.md §10, session 17).
 * *developed 0: the develop failed (an input error, not the output's). */
static mp_status encode_picture(const job *j, worker *w, const mp_frame *out, slot *s,
                                int *developed, mp_error *err)
{
    *developed = 1;
    if (!j->lut.size1d && !j->lut.size3d && !resampled(j) &&
        mp_sink_takes_rows(j->sink, w->enc)) {
        develop_rows d = {j, w, out, 0};
        const mp_rgb_rows src = {produce_rows, &d, out->width, out->height, s->number};
        mp_status st = mp_sink_encode_rows(j->sink, w->enc, &src, &s->unit, err);
        *developed = !d.failed;
        return st;
    }
    mp_status st = develop_picture(j, w, out, &w->rgb, &w->wide, err);
    if (st != MP_OK) {
        *developed = 0;
        return st;
    }
    const develop_rgb *p = resampled(j) ? &w->wide : &w->rgb;
    const mp_rgb_frame pic = {{p->plane[0], p->plane[1], p->plane[2]}, p->width, p->height,
                              s->number};
    return mp_sink_encode_rgb(j->sink, w->enc, &pic, &s->unit, err);
}

static mp_status convert_one(void *user, void *ctx, uint32_t i, uint32_t slot_index,
                             mp_error *err)
{
    job *j = user;
    worker *w = ctx;
    slot *s = &j->slots[slot_index];
    uint32_t index = j->indices[i];
    if (s->outcome == FRAME_SKIPPED)
        return MP_OK;
    /* Frames for an in-order sink wait in their slot (developed ones: their RGB); others go
     * out from the worker. */
    int rgb = j->format->input == MP_INPUT_RGB;
    int frame_in_slot = j->ordered && !rgb;
    mp_frame *raw = frame_in_slot && j->native ? &s->frame : &w->raw;
    mp_frame *out = j->native ? raw : frame_in_slot ? &s->frame : &w->out;
    mlv_frame_info fi;
    mp_status st = mp_mlv_frame_info_get(j->clip, index, &fi);
    if (st != MP_OK)
        return mp_error_set(err, st, "%s: frame %u: no index entry", j->o->input, s->number);
    s->meta = (mp_frame_meta){fi.exposure, fi.white_balance};

    st = mp_job_frame(j, w, s, index, raw, out, err);
    if (st != MP_OK || s->outcome == FRAME_DAMAGED)
        return st;
    if (rgb && j->ordered && !w->enc_made) {
        w->enc_made = 1;
        if ((st = mp_sink_encoder_new(j->sink, &w->enc, err)) != MP_OK) {
            atomic_store(&j->output_failed, 1);
            return st;
        }
    }
    if (rgb && w->enc) {   /* only the packet waits in the slot */
        int developed;
        st = encode_picture(j, w, out, s, &developed, err);
        if (!developed)
            return st;
    } else if (rgb) {
        st = develop_picture(j, w, out, &s->rgb, &s->wide, err);
        if (st != MP_OK || j->ordered)
            return st;
        const mp_rgb_frame pic = slot_picture(j, s);
        st = mp_sink_write_rgb(j->sink, &pic, err);
    } else if (j->ordered) {
        return MP_OK;
    } else {
        st = mp_sink_write_frame(j->sink, out, &s->meta, err);
    }
    if (st != MP_OK)
        atomic_store(&j->output_failed, 1);
    return st;
}

/* An in-order sink's frame from its slot; lost ones are announced (a movie repeats the
 * previous picture). Concurrent sinks were written by the workers. */
static mp_status write_in_order(job *j, slot *s, mp_error *err)
{
    if (s->outcome != FRAME_WRITTEN)
        return mp_sink_skip_frame(j->sink, s->number, err);
    if (j->format->input == MP_INPUT_RAW)
        return mp_sink_write_frame(j->sink, &s->frame, &s->meta, err);
    if (s->unit) {
        mp_sink_unit *u = s->unit;
        s->unit = NULL;
        return mp_sink_write_unit(j->sink, u, err);
    }
    const mp_rgb_frame rgb = slot_picture(j, s);
    return mp_sink_write_rgb(j->sink, &rgb, err);
}

static mp_status deliver_one(void *user, uint32_t i, uint32_t slot_index, mp_error *err)
{
    (void)i;
    job *j = user;
    slot *s = &j->slots[slot_index];
    mp_status st = j->ordered ? write_in_order(j, s, err) : MP_OK;
    if (st != MP_OK) {
        atomic_store(&j->output_failed, 1);
        return st;
    }
    mp_progress_event ev;
    mp_progress_frame(&j->progress, s->number, s->outcome == FRAME_SKIPPED,
                      s->outcome == FRAME_DAMAGED, mp_progress_now(), &ev);
    if (j->o->progress)
        j->o->progress(j->o->progress_opaque, &ev);
    return MP_OK;
}




/* Writes the clip's audio (trimmed to the exported frames by the sink) as a WAV. */
static mp_status write_audio(job *j, const mlv_clip_info *info, const char *wav_name,
                             mp_error *err)
{
    mp_sink *wav = NULL;
    mp_status st = mp_sink_open(&wav, mp_sink_find("wav"), j->o->output, &j->params, err);
    if (st != MP_OK) {
        atomic_store(&j->output_failed, 1);
        return st;
    }
    uint8_t *buf = malloc(AUDIO_CHUNK);
    if (!buf)
        st = mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", wav_name);
    for (uint64_t off = 0; st == MP_OK && off < info->audio_bytes; off += AUDIO_CHUNK) {
        if (j->o->cancel && atomic_load(j->o->cancel)) {
            st = mp_error_set(err, MP_ERR_INTERRUPTED, "%s: interrupted", wav_name);
            break;
        }
        size_t n = info->audio_bytes - off < AUDIO_CHUNK ? (size_t)(info->audio_bytes - off)
                                                         : AUDIO_CHUNK;
        st = mp_mlv_read_audio(j->clip, off, buf, n, err);
        if (st == MP_OK && (st = mp_sink_write_audio(wav, buf, n, err)) != MP_OK)
            atomic_store(&j->output_failed, 1);
    }
    free(buf);
    if (st != MP_OK) {
        mp_sink_abort(wav);
        return st;
    }
    if ((st = mp_sink_finish(wav, err)) != MP_OK)
        atomic_store(&j->output_failed, 1);
    return st;
}


static mp_status maybe_audio(job *j, const mlv_clip_info *info, uint32_t selected, mp_error *err)
{
    if (!mp_job_writes_wav(j, selected))
        return MP_OK;
    char name[MP_NAME_MAX], path[PATH_MAX];
    struct stat sb;
    mp_name_audio(&j->params, name);
    mp_status st = mp_path_join(path, sizeof path, j->folder, name, err);
    if (st != MP_OK)
        return st;
    if (j->o->skip_existing && stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
        return MP_OK;
    return write_audio(j, info, path, err);
}


/* Grey-world gains from WB_SAMPLES frames spread over the whole clip, decoded and
 * reconstructed as the run does, pooled in clip order on one thread: the same gains for any
 * --frames and --threads. Damaged sample frames are left out. */
/* --wb K: multipliers = 1 / the camera neutral of a K kelvin daylight white (mp_white.h). */
static mp_status kelvin_gains(const mp_convert_options *o, const mlv_clip_info *info,
                              float gains[3], mp_error *err)
{
    mp_color_calib cal;
    double n[3];
    if (o->wb_kelvin < MP_WB_KELVIN_MIN || o->wb_kelvin > MP_WB_KELVIN_MAX)
        return mp_error_set(err, MP_ERR_ARG, "white balance %u K outside %d..%d K", o->wb_kelvin,
                            MP_WB_KELVIN_MIN, MP_WB_KELVIN_MAX);
    if (!mp_color_calib_resolve(&info->camera, &info->raw, &cal) ||
        !mp_wb_kelvin_neutral(&cal, o->wb_kelvin, 0, 0, n))
        return mp_error_set(err, MP_ERR_ARG, "%s: --wb %u needs a colour matrix: the camera "
                            "is not in the table and RAWI has none usable", o->input,
                            o->wb_kelvin);
    for (int c = 0; c < 3; c++)
        gains[c] = (float)(1.0 / n[c]);
    mp_log(&o->log, MP_LOG_INFO, "%s: %u K white balance R %.4f G %.4f B %.4f (%s)", o->input,
           o->wb_kelvin, gains[0], gains[1], gains[2],
           cal.table_name ? cal.table_name : "RAWI matrix");
    return MP_OK;
}

static mp_status grey_world_gains(job *j, const mlv_clip_info *info, float gains[3],
                                  mp_error *err)
{
    uint32_t offsets[WB_SAMPLES];
    uint32_t n = mp_sample_offsets(info->frame_count, WB_SAMPLES, offsets);
    develop_grey_world acc = {{0, 0, 0}, 0};
    void *ctx = NULL;
    mp_status st = mp_job_worker_create(j, &ctx, err);
    if (st != MP_OK)
        return st;
    worker *w = ctx;
    slot s;
    memset(&s, 0, sizeof s);
    for (uint32_t i = 0; i < n && st == MP_OK; i++) {
        s.number = j->numbers[offsets[i]];
        s.outcome = FRAME_WRITTEN;
        st = mp_job_read_payload(j, offsets[i], &s, err);
        if (st == MP_OK)
            st = mp_job_decode(j, w, &s, offsets[i], &w->raw, j->native ? &w->raw : &w->out, err);
        if (st == MP_OK && s.outcome == FRAME_WRITTEN)
            st = mp_develop_grey_world_add(&acc, j->native ? &w->raw : &w->out, err);
    }
    mp_mlv_payload_free(&s.payload);
    mp_job_worker_destroy(j, w);
    if (st == MP_OK && (st = mp_develop_grey_world_gains(&acc, gains, err)) != MP_OK)
        mp_error_set(err, st, "%s: --wb auto: no unclipped light in %u sampled frames",
                     j->o->input, n);
    return st;
}


/* Temporaries of killed runs for the files this run writes go first (logged). */
static mp_status sweep_stale(job *j, uint32_t selected, mp_error *err)
{
    const mp_convert_options *o = j->o;
    uint32_t removed = 0;
    mp_status st = MP_OK;
    if (j->format->sequence)
        st = mp_stale_sweep_sequence(j->folder, &j->params, j->indices, j->numbers, selected,
                                     mp_job_writes_wav(j, selected), &removed, err);
    else if (j->format->extension && o->output && o->output[0] && strcmp(o->output, "-"))
        removed = mp_stale_sweep_file(o->output);
    if (removed)
        mp_log(&o->log, MP_LOG_INFO, "removed %u temporary files that killed runs left for "
               "this run's outputs", removed);
    return st;
}

/* Opens the sink the format names (and the WAV beside a sequence); a sink that takes RGB gets
 * the develop context its frames are developed with and the clip's audio on demand. */
/* Anamorphic and line-skipping modes (RAWC): developed pictures are resampled to square
 * pixels, and the sinks see a picture of that size with no border; with no_stretch they keep
 * the recorded pixels and the container says their aspect. */
/* The sinks see a picture of w x h with no border. */
static void whole_picture(mp_sink_params *p, uint32_t w, uint32_t h)
{
    p->meta.raw.width = w;
    p->meta.raw.height = h;
    const int32_t whole[4] = {0, 0, (int32_t)h, (int32_t)w};
    memcpy(p->meta.raw.active_area, whole, sizeof whole);
}

/* --scale / --size: the active area resampled in one pass to the new size, square pixels
 * (anamorphic modes stretched on the way) or, with no_stretch, pixels of the recorded shape,
 * whose exact aspect at the rounded size the container then says. */
static mp_status scale_picture(job *j, const uint32_t area[4], uint32_t w, uint32_t h,
                               uint32_t num, uint32_t den, mp_error *err)
{
    const mlvpipe_convert_settings *s = j->o->settings;
    mp_sink_params *p = &j->params;
    const uint32_t w0 = area[3] - area[1], h0 = area[2] - area[0];
    const int keep = j->o->no_stretch && num != den;
    uint32_t ow, oh;
    if (keep)
        mp_develop_scaled_size(w0, h0, num, den, s->scale, s->size_width, s->size_height, &ow,
                               &oh);
    else
        mp_develop_scaled_size(w, h, 1, 1, s->scale, s->size_width, s->size_height, &ow, &oh);
    mp_error why;
    if (mp_develop_resample_make(&j->resample, w0, h0, ow, oh, &why) != MP_OK)
        return mp_error_set(err, why.code, "%s: %s", j->o->input, why.msg);
    j->stretch_top = area[0];
    j->stretch_left = area[1];
    whole_picture(p, ow, oh);
    if (keep) {   /* displayed w0 * num / den by h0, shown at ow by oh */
        uint64_t an = (uint64_t)w0 * num * oh, ad = (uint64_t)h0 * den * ow;
        while (an > INT32_MAX || ad > INT32_MAX) {
            an = (an + 1) / 2;
            ad = (ad + 1) / 2;
        }
        p->pixel_aspect = (mp_rational){(int32_t)an, (int32_t)ad};
    }
    mp_log(&j->o->log, MP_LOG_INFO, "%s: %ux%u resampled to %ux%u%s", j->o->input, w0, h0, ow,
           oh, keep ? " (pixels of the recorded aspect)" : "");
    return MP_OK;
}

static mp_status stretch_or_tag(job *j, const mlv_clip_info *info, mp_error *err)
{
    mp_sink_params *p = &j->params;
    uint32_t area[4], w, h, num, den;
    mp_raw_active_area(&info->raw, info->raw.width, info->raw.height, area);
    int anamorphic = mp_develop_stretch_size(&info->capture, area[3] - area[1],
                                             area[2] - area[0], &w, &h, &num, &den);
    const mlvpipe_convert_settings *s = j->o->settings;
    if (s && (s->scale > 0 || s->size_width))
        return scale_picture(j, area, w, h, num, den, err);
    if (!anamorphic)
        return MP_OK;
    if (j->o->no_stretch) {
        p->pixel_aspect = (mp_rational){(int32_t)num, (int32_t)den};
        mp_log(&j->o->log, MP_LOG_INFO, "%s: pixels kept as recorded, aspect %u:%u",
               j->o->input, num, den);
        return MP_OK;
    }
    mp_status st = mp_develop_stretch_make(&j->stretch, area[3] - area[1], area[2] - area[0], w,
                                           h, err);
    if (st != MP_OK)
        return st;
    j->stretch_top = area[0];
    j->stretch_left = area[1];
    whole_picture(p, w, h);
    mp_log(&j->o->log, MP_LOG_INFO, "%s: %ux%u recorded with %u:%u pixels, resampled to %ux%u",
           j->o->input, area[3] - area[1], area[2] - area[0], num, den, w, h);
    return MP_OK;
}

static mp_status open_output(job *j, const mlv_clip_info *info, uint32_t selected,
                             mp_error *err)
{
    const mp_convert_options *o = j->o;
    const mp_format *f = j->format;
    mp_status st;
    if (f->input == MP_INPUT_RGB) {
        if (!selected && !f->sequence)
            return mp_error_set(err, MP_ERR_RANGE, "%s: no frame to put in a movie", o->input);
        /* a usage error, not an output failure: another host would fail the same way */
        if (f->audio == MP_AUDIO_NONE && o->audio != 0 && info->audio.present &&
            info->audio_bytes)
            return mp_error_set(err, MP_ERR_ARG, "%s: %s output carries no audio and the clip "
                                "has some; add --no-audio", o->input, f->name);
        mp_sink_params *p = &j->params;
        p->gamut = j->develop.gamut;
        p->curve = j->develop.curve;
        const char *lut = o->settings ? o->settings->lut : NULL;
        if (lut && (st = mp_job_lut_load(lut, &j->lut, err)) != MP_OK)
            return st;
        p->graded = lut != NULL;
        p->threads = o->threads ? o->threads : mp_pool_cpu_count();
        p->audio_bytes = o->audio != 0 ? info->audio_bytes : 0;
        p->read_audio = mp_job_read_audio;
        p->audio_opaque = (void *)j->clip;
        /* as-shot = the neutral the DNGs carry (Magic Lantern's WBAL convention) */
        mp_color_calib cal;
        double neutral[3];
        mp_color_calib_resolve(&info->camera, &info->raw, &cal);
        int as_shot = mp_wb_as_shot_neutral(&info->white_balance, &cal, neutral);
        st = mp_develop_context_create(&j->develop, &info->raw, as_shot ? neutral : NULL,
                                       &j->dev, err);
        if (st != MP_OK || (st = sweep_stale(j, selected, err)) != MP_OK ||
            (st = stretch_or_tag(j, info, err)) != MP_OK)
            return st;
    }
    if (f->sequence) {
        char name[MP_NAME_MAX];
        mp_name_folder(&j->params, name);
        if ((st = mp_naming_check(&j->params, err)) != MP_OK ||
            (st = mp_path_join(j->folder, sizeof j->folder, o->output, name, err)) != MP_OK ||
            (st = sweep_stale(j, selected, err)) != MP_OK ||
            (st = maybe_audio(j, info, selected, err)) != MP_OK)
            return st;
    }
    j->ordered = !f->ops->concurrent_frames;
    /* Unsupported: the format cannot take this clip (a picture below DNxHR's minimum, ...),
     * which no retry of the output fixes. */
    st = mp_sink_open(&j->sink, f->ops, o->output, &j->params, err);
    if (st != MP_OK && st != MP_ERR_UNSUPPORTED)
        atomic_store(&j->output_failed, 1);
    return st;
}

static mp_status run_frames(job *j, uint32_t selected, mp_convert_result *res, mp_error *err)
{
    mp_pool_options po = {j->o->threads, 0, j->o->cancel};
    uint32_t threads, window;
    mp_pool_resolve(&po, selected, &threads, &window);
    res->threads = threads;
    j->slots = calloc(window, sizeof *j->slots);
    if (!j->slots)
        return mp_error_set(err, MP_ERR_NOMEM, "convert: out of memory");
    if (j->o->progress) {
        mp_progress_event ev = {.kind = MP_PROGRESS_START, .total = selected,
                                .threads = threads, .eta_s = -1};
        if (selected) {
            ev.first_frame = j->numbers[j->indices[0]];
            ev.last_frame = j->numbers[j->indices[selected - 1]];
        }
        j->o->progress(j->o->progress_opaque, &ev);
    }
    mp_pool_callbacks cb = {j, mp_job_worker_create, mp_job_worker_destroy, convert_one, deliver_one};
    uint32_t finished = 0;
    mp_status st = mp_pool_run_with_reader(selected, &po, &cb, read_one, &finished, err);
    if (st == MP_ERR_INTERRUPTED && j->format->sequence)
        mp_error_set(err, st, "interrupted: %u of %u frames finished; run again with "
                     "--skip-existing to complete", finished, selected);
    else if (st == MP_ERR_INTERRUPTED)   /* one file: kept only when complete */
        mp_error_set(err, st, "interrupted after %u of %u frames; %s not written (run "
                     "again to make it)", finished, selected, j->o->output);
    for (uint32_t k = 0; k < window; k++) {
        mp_mlv_payload_free(&j->slots[k].payload);
        mp_frame_free(&j->slots[k].frame);
        mp_develop_rgb_free(&j->slots[k].rgb);
        mp_develop_rgb_free(&j->slots[k].wide);
        mp_sink_unit_free(j->sink, j->slots[k].unit);
    }
    free(j->slots);
    j->slots = NULL;
    res->written = j->progress.written;
    res->skipped = j->progress.skipped;
    res->damaged = j->progress.damaged;
    return st;
}


static void cache_summary(job *j, mp_convert_result *res)
{
    if (!j->cache)
        return;
    mp_cache_stats cs;
    mp_cache_get_stats(j->cache, &cs);
    res->cache_hits = cs.hits;
    res->cache_misses = cs.misses;
    res->cache_rejected = cs.rejected;
    res->cache_puts = cs.puts;
    mp_log(&j->o->log, MP_LOG_INFO, "cache %s: %llu hits, %llu misses (%llu rejected), %llu "
           "written, %d failed writes", j->o->cache_dir, (unsigned long long)cs.hits,
           (unsigned long long)cs.misses, (unsigned long long)cs.rejected,
           (unsigned long long)cs.puts, atomic_load(&j->put_failures));
}

static mp_status convert_clip(job *j, mp_convert_result *res, mp_error *err)
{
    const mp_convert_options *o = j->o;
    const mlv_clip_info *info = mp_mlv_clip_get_info(j->clip);
    uint32_t selected = 0;
    mp_status st = mp_job_index(j, &selected, err);
    res->selected = selected;
    if (st != MP_OK || (st = mp_job_analyse(j, err)) != MP_OK)
        return st;
    j->develop = o->develop;
    if (o->wb_grey_world && j->format->input == MP_INPUT_RGB && selected) {
        if ((st = grey_world_gains(j, info, j->develop.wb_gains, err)) != MP_OK)
            return st;
        j->develop.wb = DEVELOP_WB_CUSTOM;
        mp_log(&o->log, MP_LOG_INFO, "%s: grey-world white balance R %.4f G %.4f B %.4f",
               o->input, j->develop.wb_gains[0], j->develop.wb_gains[1],
               j->develop.wb_gains[2]);
    }
    if (o->wb_kelvin && j->format->input == MP_INPUT_RGB) {
        if ((st = kelvin_gains(o, info, j->develop.wb_gains, err)) != MP_OK)
            return st;
        j->develop.wb = DEVELOP_WB_CUSTOM;
    }
    if ((st = open_output(j, info, selected, err)) != MP_OK)
        return st;

    mp_progress_frames_begin(&j->progress, selected, mp_progress_now());
    st = run_frames(j, selected, res, err);
    cache_summary(j, res);
    if (st == MP_OK) {
        if ((st = mp_sink_finish(j->sink, err)) != MP_OK)
            atomic_store(&j->output_failed, 1);
    } else {
        mp_sink_abort(j->sink);
    }
    j->sink = NULL;
    if (st == MP_OK && (res->damaged || info->damage_count))
        st = mp_error_set(err, MP_ERR_DAMAGED, "%s: damaged input: %u frames unreadable, %u "
                          "damage reports (see warnings); %u frames written", o->input,
                          res->damaged, info->damage_count, res->written);
    return st;
}

/* 1 when path (or, for a file that does not exist yet, its folder) lies inside folder. */
static int inside_folder(const char *path, const char *folder)
{
    char real_folder[PATH_MAX], real[PATH_MAX], parent[PATH_MAX];
    if (!realpath(folder, real_folder))
        return 0;
    if (!realpath(path, real)) {
        snprintf(parent, sizeof parent, "%s", path);
        char *slash = strrchr(parent, '/');
        if (slash)
            *slash = 0;
        if (!realpath(slash ? (parent[0] ? parent : "/") : ".", real))
            return 0;
    }
    size_t n = strlen(real_folder);
    return !strncmp(real, real_folder, n) && (real[n] == '/' || real[n] == 0 || n == 1);
}

/* Outputs that would replace an input (the clip, a chunk, the sidecar, the dark frame, the
 * --defects-from clip), a
 * device or FIFO, or land among the cache's entries are refused before any work (per file
 * again when written). */
static mp_status check_output(const mp_convert_options *o, const mp_format *format,
                              const mlv_clip *clip, mp_error *err)
{
    mp_error e;
    mp_status st = mp_protect_inputs(clip, o->levels_path, err);
    if (st == MP_OK && o->dark_path && mp_out_protect(o->dark_path, &e) == MP_ERR_NOMEM)
        st = mp_error_set(err, MP_ERR_NOMEM, "%s", e.msg);
    if (st == MP_OK && o->defects_from && mp_out_protect(o->defects_from, &e) == MP_ERR_NOMEM)
        st = mp_error_set(err, MP_ERR_NOMEM, "%s", e.msg);
    if (st != MP_OK || !strcmp(o->output, "-") || !strcmp(o->format, "null"))
        return st;
    if (o->cache_dir && inside_folder(o->output, o->cache_dir))
        return mp_error_set(err, MP_ERR_ARG, "%s: inside the cache folder %s; not writing "
                            "there", o->output, o->cache_dir);
    return format->sequence ? MP_OK : mp_out_check_target(o->output, err);
}

mp_status mp_convert(const mp_convert_options *o, mp_convert_result *res, mp_error *err)
{
    mp_convert_result local;
    mp_error local_err = {0};
    res = res ? res : &local;
    err = err ? err : &local_err;
    memset(res, 0, sizeof *res);
    if (!o->input || !o->output || !o->format)
        return mp_error_set(err, MP_ERR_ARG, "convert: input, output and format are required");
    if (o->skip_existing && o->overwrite)
        return mp_error_set(err, MP_ERR_ARG, "--skip-existing and --overwrite exclude each "
                            "other");
    const mp_format *format = mp_format_find(o->format);
    if (!format)
        return mp_error_set(err, MP_ERR_ARG, "unknown output format '%s'", o->format);
    mp_status checked = mp_job_check_options(o, err);
    if (checked != MP_OK)
        return checked;
    if (o->skip_existing && !format->sequence)
        return mp_error_set(err, MP_ERR_ARG, "--skip-existing needs an image sequence output "
                            "(--to %s writes one file)", o->format);
    job j;
    memset(&j, 0, sizeof j);
    j.o = o;
    j.format = format;
    mlv_clip *clip = NULL;
    mlv_open_options oo = {o->log, 0};
    mp_status st = mp_mlv_clip_open(&clip, o->input, &oo, err);
    if (st != MP_OK)
        return st;
    j.clip = clip;
    if ((st = check_output(o, format, clip, err)) != MP_OK) {
        mp_mlv_clip_close(clip);
        return st;
    }
    double start = mp_progress_now();
    mp_progress_begin(&j.progress, 0, start);
    st = convert_clip(&j, res, err);
    res->output_failed = atomic_load(&j.output_failed);
    if (o->progress) {
        mp_progress_event ev;
        mp_progress_end(&j.progress, st, st == MP_OK ? NULL : err->msg,
                        mp_progress_now(), &ev);
        o->progress(o->progress_opaque, &ev);
    }
    mp_sink_abort(j.sink);
    mp_develop_stretch_free(&j.stretch);
    mp_lut_free(&j.lut);
    mp_develop_resample_free(&j.resample);
    mp_develop_context_free(j.dev);
    mp_job_free(&j);
    mp_mlv_clip_close(clip);
    return st;
}
