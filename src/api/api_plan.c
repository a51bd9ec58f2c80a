/* mlvpipe_plan: the public face of farm/plan.h, with the clip's facts read through the
 * reader and the format's container from pipeline/formats.h. */
#include "api_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/formats.h"
#include "farm/plan.h"

_Static_assert((int)MLVPIPE_PLAN_SLURM == (int)FARM_SLURM &&
               (int)MLVPIPE_PLAN_PARALLEL == (int)FARM_PARALLEL &&
               (int)MLVPIPE_PLAN_JSON == (int)FARM_JSON, "engines mirror farm/plan.h");
_Static_assert(MLVPIPE_PLAN_MAX_EXTRA == FARM_MAX_EXTRA, "same option lists");

/* The size of the plan settings in API 4.0, whose entries took no size. */
#define PLAN_4_0 MP_API_END(mlvpipe_plan_settings, defects_from)
_Static_assert(sizeof(mlvpipe_plan_settings) == PLAN_4_0, "no tail padding (version.h)");

void mlvpipe_default_plan_settings_sized(mlvpipe_plan_settings *given, size_t size)
{
    const mlvpipe_plan_settings s = {.chunk_size = 1000, .phase = -1, .requeues = 3};
    mp_api_settings_out(given, size, &s, sizeof s);
}

void (mlvpipe_default_plan_settings)(mlvpipe_plan_settings *s)
{
    mlvpipe_default_plan_settings_sized(s, PLAN_4_0);
}

/* The clip's GUID, frame numbers (*numbers, malloc'd) and audio into p. */
static mp_status read_clip(const mlv_clip *clip, farm_plan *p, uint32_t **numbers, mp_error *err)
{
    const mlv_clip_info *info = mp_mlv_clip_get_info(clip);
    p->guid = info->guid;
    p->frame_count = info->frame_count;
    p->first_frame = info->first_number;
    p->last_frame = info->last_number;
    p->width = info->raw.width;
    p->height = info->raw.height;
    p->has_audio = info->audio.present && info->audio_bytes > 0;
    *numbers = malloc((info->frame_count ? info->frame_count : 1) * sizeof **numbers);
    if (!*numbers)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", p->clip);
    for (uint32_t i = 0; i < info->frame_count; i++) {
        mlv_frame_info fi;
        mp_status st = mp_mlv_frame_info_get(clip, i, &fi);
        if (st != MP_OK)
            return mp_error_set(err, st, "%s: frame index %" PRIu32 ": %s", p->clip, i,
                                mp_status_name(st));
        (*numbers)[i] = fi.number;
    }
    if (!info->frame_count)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: the clip has no frames", p->clip);
    return MP_OK;
}

/* The farm plan of clip from s, chunks cut, into *p (*numbers and *chunks malloc'd, also on
 * failure: free both). */
static mp_status prepare(const mlvpipe_clip *clip, const mlvpipe_plan_settings *s, farm_plan *p,
                         uint32_t **numbers, farm_chunk **chunks, mp_error *e)
{
    *p = (farm_plan){
        .tool = s->tool ? s->tool : "mlvpipe " MLVPIPE_VERSION,
        .program = s->program,
        .clip = s->clip,
        .output = s->output,
        .name = s->name,
        .levels = s->levels,
        .format = s->format,
        .threads = s->threads,
        .phase = s->phase,
        .no_audio = s->no_audio,
        .dark = s->dark,
        .defects_from = s->defects_from,
        .extra_count = s->extra_count,
        .chunk_size = s->chunk_size,
        .sbatch_count = s->sbatch_count,
        .sbatch_work_count = s->sbatch_work_count,
        .mem = s->mem,
        .throttle = s->throttle,
        .requeues = s->requeues,
        .sshlogin = s->sshlogin,
        .jobs = s->jobs,
    };
    *numbers = NULL;
    *chunks = NULL;
    const mp_format *f = mp_format_find(s->format ? s->format : "dng");
    if (!f || !f->joinable)
        return mp_error_set(e, MP_ERR_ARG, "plan: format '%s' cannot be converted in chunks "
                            "and joined", s->format);
    if ((unsigned)s->engine > MLVPIPE_PLAN_JSON)
        return mp_error_set(e, MP_ERR_ARG, "plan: no engine %d", (int)s->engine);
    if (s->extra_count > FARM_MAX_EXTRA || s->sbatch_count > FARM_MAX_EXTRA ||
        s->sbatch_work_count > FARM_MAX_EXTRA)
        return mp_error_set(e, MP_ERR_ARG, "plan: more than %d options in a list",
                            FARM_MAX_EXTRA);
    p->movie_ext = f->sequence ? NULL : f->extension;
    p->developed = f->input == MP_INPUT_RGB;
    memcpy(p->extra, s->extra, sizeof p->extra);
    memcpy(p->sbatch, s->sbatch, sizeof p->sbatch);
    memcpy(p->sbatch_work, s->sbatch_work, sizeof p->sbatch_work);
    mp_status st = read_clip(clip->clip, p, numbers, e);
    if (st == MP_OK)
        st = mp_farm_chunks(*numbers, p->frame_count, p->chunk_size, chunks, &p->chunk_count, e);
    p->chunks = *chunks;
    return st;
}

/* The caller's settings of any API version (version.h) into s. */
static mlvpipe_status take(mlvpipe_plan_settings *s, const mlvpipe_plan_settings *given,
                           size_t size, mlvpipe_error *err)
{
    mlvpipe_default_plan_settings_sized(s, sizeof *s);
    return mp_api_settings_in(s, sizeof *s, given, size, PLAN_4_0, "plan", err);
}

mlvpipe_status mlvpipe_plan_sized(const mlvpipe_clip *clip, const mlvpipe_plan_settings *given,
                                  size_t size, mlvpipe_text *out, mlvpipe_error *err)
{
    *out = (mlvpipe_text){0};
    mlvpipe_plan_settings full;
    mlvpipe_status taken = take(&full, given, size, err);
    if (taken != MLVPIPE_OK)
        return taken;
    const mlvpipe_plan_settings *s = &full;
    farm_plan p;
    uint32_t *numbers;
    farm_chunk *chunks;
    mp_text text = {0};
    mp_error e = {0};
    mp_status st = prepare(clip, s, &p, &numbers, &chunks, &e);
    if (st == MP_OK)
        st = mp_farm_plan_render(&p, (farm_engine)s->engine, &text, &e);
    free(chunks);
    free(numbers);
    if (st != MP_OK) {
        mp_text_free(&text);
        return mp_api_status(st, &e, err);
    }
    return mp_api_text(&text, "plan", out, err);
}

mlvpipe_status (mlvpipe_plan)(const mlvpipe_clip *clip, const mlvpipe_plan_settings *s,
                              mlvpipe_text *out, mlvpipe_error *err)
{
    return mlvpipe_plan_sized(clip, s, PLAN_4_0, out, err);
}

mlvpipe_status mlvpipe_plan_task_argv_sized(const mlvpipe_clip *clip,
                                            const mlvpipe_plan_settings *given, size_t size,
                                            char ***argv, uint32_t *argc, mlvpipe_error *err)
{
    *argv = NULL;
    *argc = 0;
    mlvpipe_plan_settings full;
    mlvpipe_status taken = take(&full, given, size, err);
    if (taken != MLVPIPE_OK)
        return taken;
    const mlvpipe_plan_settings *s = &full;
    farm_plan p;
    uint32_t *numbers;
    farm_chunk *chunks;
    mp_error e = {0};
    mp_status st = prepare(clip, s, &p, &numbers, &chunks, &e);
    if (st == MP_OK)
        st = mp_farm_chunk_argv(&p, 0, argv, argc, &e);
    free(chunks);
    free(numbers);
    return st == MP_OK ? MLVPIPE_OK : mp_api_status(st, &e, err);
}

mlvpipe_status (mlvpipe_plan_task_argv)(const mlvpipe_clip *clip, const mlvpipe_plan_settings *s,
                                        char ***argv, uint32_t *argc, mlvpipe_error *err)
{
    return mlvpipe_plan_task_argv_sized(clip, s, PLAN_4_0, argv, argc, err);
}

void mlvpipe_argv_free(char **argv)
{
    mp_farm_argv_free(argv);
}
