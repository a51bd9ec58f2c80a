/* One clip's report: the reader's index, the pre-pass's levels and defect map, then the
 * sampled frames on the work pool, decoded, repaired and reconstructed exactly as `convert`
 * does, measured raw and linear, a few of them developed into thumbnails. */
#include "report_priv.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/mp_camera_color.h"
#include "common/mp_white.h"
#include "analysis/dark_load.h"
#include "analysis/inputs.h"
#include "analysis/prepass.h"
#include "analysis/fix_plan.h"
#include "engine/sampling.h"
#include "engine/workpool.h"
#include "rawfix/rawfix.h"

#define MAX_GAPS 4096u

void mp_report_options_default(mp_report_options *o)
{
    memset(o, 0, sizeof *o);
    o->samples = 48;
    o->thumbs = 8;
    o->thumb_width = 192;
    o->tool = "mlvpipe";
}

typedef struct job {
    const mp_report_options *o;
    const mlv_clip *clip;
    mp_clip_report *r;
    uint32_t *offsets;            /* clip index of each measured frame */
    int32_t *thumb_of;            /* per measured frame: its contact-sheet slot or -1 */
    mp_segment *segs;
    rawfix_plan *fixes;
    rawfix_dark dark;             /* width 0: none */
    dualiso_options dopt;
    develop_context *dev;
    pthread_mutex_t hist_lock;
} job;

typedef struct worker {
    mlv_scratch scratch;
    mp_frame raw, lin, small;
    dualiso_workspace *ws;
    develop_workspace dev_ws;
    develop_rgb rgb;
    report_lut lut;
    uint64_t hist[2][3][MP_REPORT_HIST_BINS + 2];
} worker;

static mp_status worker_create(void *user, void **ctx, mp_error *err)
{
    (void)user;
    worker *w = calloc(1, sizeof *w);
    if (w && !(w->ws = mp_dualiso_workspace_new())) {
        free(w);
        w = NULL;
    }
    if (!w)
        return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory for a worker");
    w->scratch.ref_index = -1;
    *ctx = w;
    return MP_OK;
}

/* Each worker's histogram joins the clip's when it ends: integer sums, so the total does not
 * depend on which worker measured which frame. */
static void worker_destroy(void *user, void *ctx)
{
    job *j = user;
    worker *w = ctx;
    pthread_mutex_lock(&j->hist_lock);
    for (int f = 0; f < 2; f++)
        for (int c = 0; c < 3; c++)
            for (uint32_t b = 0; b < MP_REPORT_HIST_BINS + 2; b++)
                j->r->hist[f][c][b] += w->hist[f][c][b];
    pthread_mutex_unlock(&j->hist_lock);
    mp_mlv_scratch_free(&w->scratch);
    mp_frame_free(&w->raw);
    mp_frame_free(&w->lin);
    mp_frame_free(&w->small);
    mp_dualiso_workspace_free(w->ws);
    mp_develop_workspace_free(&w->dev_ws);
    mp_develop_rgb_free(&w->rgb);
    mp_report_lut_free(&w->lut);
    free(w);
}

static mp_status measure_one(void *user, void *ctx, uint32_t i, uint32_t slot, mp_error *err)
{
    (void)slot;
    job *j = user;
    worker *w = ctx;
    mp_report_frame *fr = &j->r->frames[i];
    uint32_t index = j->offsets[i];
    mlv_frame_info fi;
    mp_status st = mp_mlv_frame_info_get(j->clip, index, &fi);
    if (st != MP_OK)
        return mp_error_set(err, st, "%s: frame index %u: no index entry", j->r->path, index);
    fr->index = index;
    fr->number = fi.number;
    fr->time_s = ((double)fi.timestamp_us - (double)j->r->info.video_start_us) / 1e6;
    mp_error e = {0};
    st = mp_mlv_read_frame(j->clip, index, &w->raw, &w->scratch, &e);
    if (st == MP_ERR_DAMAGED) {
        mp_log(&j->o->log, MP_LOG_WARNING, "frame %u not measured: %s", fi.number, e.msg);
        fr->damaged = 1;
        return MP_OK;
    }
    if (st != MP_OK) {
        *err = e;
        return st;
    }
    uint32_t k = mp_segment_of_index(j->segs, j->r->levels.segment_count, index);
    const dualiso_levels *lv = &j->r->levels.segments[k].levels;
    if ((st = mp_rawfix_dark_apply(&j->dark, &w->raw, err)) != MP_OK ||
        (st = mp_rawfix_apply(&j->fixes[k], &w->raw, err)) != MP_OK ||
        (st = mp_report_measure_raw(&w->raw, lv, &w->lut, w->hist, fr, err)) != MP_OK)
        return st;
    st = lv->is_dual ? mp_dualiso_reconstruct(&w->raw, lv, &j->dopt, w->ws, &w->lin, err)
                     : mp_dualiso_passthrough(&w->raw, lv, &w->lin, err);
    if (st != MP_OK)
        return st;
    w->lin.number = w->raw.number;
    if ((st = mp_report_measure_linear(&w->lin, fr, err)) != MP_OK ||
        j->thumb_of[i] < 0 || !j->dev)
        return st;
    mp_report_thumb *t = &j->r->thumbs[j->thumb_of[i]];
    t->number = fi.number;
    return mp_report_make_thumb(&w->lin, j->dev, j->o->thumb_width, &w->small, &w->dev_ws,
                                &w->rgb, t, err);
}

/* Thumbnails are developed like a movie with the clip's as-shot white balance; a camera
 * without a colour matrix is shown in camera RGB. */
static void develop_create(job *j)
{
    const mlv_clip_info *info = &j->r->info;
    develop_params p;
    mp_develop_params_default(&p);
    p.demosaic = DEVELOP_DEMOSAIC_BILINEAR;
    mp_color_calib cal;
    double neutral[3];
    mp_color_calib_resolve(&info->camera, &info->raw, &cal);
    int as_shot = mp_wb_as_shot_neutral(&info->white_balance, &cal, neutral);
    mp_error e;
    if (mp_develop_context_create(&p, &info->raw, as_shot ? neutral : NULL, &j->dev, &e) ==
        MP_OK)
        return;
    p.matrix = DEVELOP_MATRIX_IDENTITY;
    if (!as_shot) {
        p.wb = DEVELOP_WB_CUSTOM;
        p.wb_gains[0] = p.wb_gains[1] = p.wb_gains[2] = 1;
    }
    if (mp_develop_context_create(&p, &info->raw, as_shot ? neutral : NULL, &j->dev, &e) !=
        MP_OK) {
        mp_log(&j->o->log, MP_LOG_WARNING, "%s: no contact sheet: %s", j->r->path, e.msg);
        j->dev = NULL;
    }
}

static mp_status find_gaps(const mlv_clip *clip, mp_clip_report *r, mp_error *err)
{
    uint32_t prev = 0;
    for (uint32_t i = 0; i < r->info.frame_count; i++) {
        mlv_frame_info fi;
        if (mp_mlv_frame_info_get(clip, i, &fi) != MP_OK)
            return mp_error_set(err, MP_ERR_FORMAT, "%s: frame index unreadable", r->path);
        if (i && fi.number > prev + 1 && r->gap_count < MAX_GAPS) {
            if (!r->gaps && !(r->gaps = malloc(MAX_GAPS * sizeof *r->gaps)))
                return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
            r->gaps[r->gap_count++] = (mp_report_gap){prev + 1, fi.number - prev - 1};
        }
        prev = fi.number;
    }
    return MP_OK;
}

/* Damage is found at a byte position; the time line shows it before the frame that follows
 * it in the files (frames are ordered by number, which spanned or reordered clips need not
 * follow in the files). */
static mp_status place_damage(const mlv_clip *clip, mp_clip_report *r, mp_error *err)
{
    const uint32_t n = r->info.damage_count;
    if (!(r->damage_before = malloc(n * sizeof *r->damage_before)))
        return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
    uint64_t *best = malloc(n * sizeof *best);
    if (!best)
        return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
    for (uint32_t k = 0; k < n; k++) {
        r->damage_before[k] = r->info.last_number + 1;
        best[k] = UINT64_MAX;
    }
    for (uint32_t i = 0; i < r->info.frame_count; i++) {
        mlv_frame_info fi;
        if (mp_mlv_frame_info_get(clip, i, &fi) != MP_OK)
            continue;
        uint64_t at = ((uint64_t)fi.chunk << 48) | fi.offset;
        for (uint32_t k = 0; k < n; k++) {
            uint64_t d = ((uint64_t)r->damage[k].chunk << 48) | r->damage[k].offset;
            if (at > d && at < best[k]) {
                best[k] = at;
                r->damage_before[k] = fi.number;
            }
        }
    }
    free(best);
    return MP_OK;
}

static mp_status copy_index(const mlv_clip *clip, mp_clip_report *r, mp_error *err)
{
    r->info = *mp_mlv_clip_get_info(clip);
    if (r->info.damage_count) {
        if (!(r->damage = malloc(r->info.damage_count * sizeof *r->damage)))
            return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
        for (uint32_t i = 0; i < r->info.damage_count; i++)
            r->damage[i] = *mp_mlv_clip_damage(clip, i);
        mp_status st = place_damage(clip, r, err);
        if (st != MP_OK)
            return st;
    }
    if (!r->info.frame_count)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: no frame in the clip", r->path);
    return find_gaps(clip, r, err);
}

static mp_status load_levels(job *j, mp_error *err)
{
    mp_prepass_options po;
    mp_prepass_options_default(&po);
    po.threads = j->o->threads;
    po.cancel = j->o->cancel;
    po.log = j->o->log;
    po.no_defects = j->o->no_defects;
    po.dark = j->o->dark ? &j->dark : NULL;
    mp_status st = mp_prepass_run(j->clip, &po, j->o->tool, &j->r->levels, err);
    uint32_t n = j->r->levels.segment_count;
    if (st == MP_OK && (!(j->segs = malloc(n * sizeof *j->segs)) ||
                        !(j->fixes = calloc(n, sizeof *j->fixes))))
        st = mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
    for (uint32_t k = 0; k < n && st == MP_OK; k++) {
        const mp_levels_segment *ls = &j->r->levels.segments[k];
        j->segs[k] = (mp_segment){ls->first_index, ls->frame_count};
        j->r->dual |= ls->levels.is_dual;
        st = mp_fix_plan_for_levels(&ls->fix, &ls->levels, RAWFIX_ALL, &j->fixes[k], err);
    }
    return st;
}

static mp_status plan_samples(job *j, mp_error *err)
{
    mp_clip_report *r = j->r;
    uint32_t want = j->o->samples ? j->o->samples : 1;
    want = want < MP_REPORT_MAX_SAMPLES ? want : MP_REPORT_MAX_SAMPLES;
    j->offsets = malloc(want * sizeof *j->offsets);
    j->thumb_of = malloc(want * sizeof *j->thumb_of);
    if (!j->offsets || !j->thumb_of)
        return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
    uint32_t n = mp_sample_offsets(r->info.frame_count, want, j->offsets);
    uint32_t t = j->o->thumbs < n ? j->o->thumbs : n;
    t = t < MP_REPORT_MAX_THUMBS ? t : MP_REPORT_MAX_THUMBS;
    r->frames = calloc(n, sizeof *r->frames);
    r->thumbs = calloc(t ? t : 1, sizeof *r->thumbs);
    if (!r->frames || !r->thumbs)
        return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
    r->frame_count = n;
    r->thumb_count = t;
    /* the contact sheet: the measured frames nearest the centres of t equal parts */
    for (uint32_t i = 0; i < n; i++)
        j->thumb_of[i] = -1;
    for (uint32_t k = 0; k < t; k++)
        j->thumb_of[(uint64_t)(2 * k + 1) * n / (2 * t)] = (int32_t)k;
    return MP_OK;
}

static mp_status analyse(job *j, mp_error *err)
{
    mp_status st;
    if (j->o->dark) {
        if ((st = mp_dark_load(j->o->dark, j->clip, j->o->cancel, &j->o->log, &j->dark, err)))
            return st;
        j->r->dark_frames = j->dark.frames;
        j->r->dark_rms = j->dark.rms;
    }
    if ((st = copy_index(j->clip, j->r, err)) != MP_OK || (st = load_levels(j, err)) != MP_OK ||
        (st = plan_samples(j, err)) != MP_OK)
        return st;
    mp_dualiso_options_default(&j->dopt);
    if (j->r->thumb_count)
        develop_create(j);
    mp_pool_options po = {j->o->threads, 0, j->o->cancel};
    mp_pool_callbacks cb = {j, worker_create, worker_destroy, measure_one, NULL};
    st = mp_pool_run(j->r->frame_count, &po, &cb, NULL, err);
    mp_report_bands(j->r);
    if (st != MP_OK || (st = mp_report_audio(j->clip, j->r, err)) != MP_OK)
        return st;
    uint32_t damaged = 0;
    for (uint32_t i = 0; i < j->r->frame_count; i++)
        damaged += j->r->frames[i].damaged;
    if (damaged || j->r->info.damage_count)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: damaged input: %u damage reports, %u of "
                            "%u measured frames unreadable", j->r->path,
                            j->r->info.damage_count, damaged, j->r->frame_count);
    return MP_OK;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

mp_status mp_report_clip(const char *path, const mp_report_options *o, mp_clip_report *r,
                         mp_error *err)
{
    mp_error local = {0};
    err = err ? err : &local;
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    double start = now_s();
    job j;
    memset(&j, 0, sizeof j);
    j.o = o;
    j.r = r;
    pthread_mutex_init(&j.hist_lock, NULL);
    mlv_clip *clip = NULL;
    mlv_open_options oo = {o->log, 0};
    mp_status st = mp_mlv_clip_open(&clip, path, &oo, err);
    if (st == MP_OK)
        st = mp_protect_inputs(clip, NULL, err);   /* no report may replace a chunk */
    if (st == MP_OK) {
        j.clip = clip;
        st = analyse(&j, err);
    }
    r->status = st;
    if (st != MP_OK)
        snprintf(r->error, sizeof r->error, "%s", err->msg);
    for (uint32_t k = 0; j.fixes && k < r->levels.segment_count; k++)
        mp_rawfix_plan_free(&j.fixes[k]);
    free(j.fixes);
    mp_rawfix_dark_free(&j.dark);
    free(j.segs);
    free(j.offsets);
    free(j.thumb_of);
    mp_develop_context_free(j.dev);
    pthread_mutex_destroy(&j.hist_lock);
    mp_mlv_clip_close(clip);
    r->seconds = now_s() - start;
    return st;
}

void mp_report_free(mp_clip_report *r)
{
    for (uint32_t i = 0; r->thumbs && i < r->thumb_count; i++)
        free(r->thumbs[i].png);
    free(r->thumbs);
    free(r->frames);
    free(r->audio);
    free(r->gaps);
    free(r->damage);
    free(r->damage_before);
    mp_clip_levels_free(&r->levels);
    memset(r, 0, sizeof *r);
}
