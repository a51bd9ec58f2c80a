#include "pipeline/frames.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "encode/dng.h"
#include "encode/naming.h"
#include "encode/wav.h"
#include "job.h"

/* What one rendering thread owns: a worker (decode scratch, dual-ISO workspace) and a
 * slot for the payload. Renderers are kept on a free list and reused. */
typedef struct renderer {
    worker *w;
    slot s;
    struct renderer *next;
} renderer;

struct mp_frames {
    job j;
    mlv_clip *clip;
    uint32_t selected;
    uint32_t frame_items;        /* items before the WAV */
    uint32_t *index;             /* clip index of each frame item */
    int wav;                     /* the last item is the WAV */
    atomic_uchar *damaged;       /* per frame item: found damaged when rendered */
    _Atomic uint64_t *sizes;     /* per frame item, 0: not known yet */
    pthread_mutex_t lock;        /* analysis and the free list */
    int analysed;
    mp_status analysis;          /* its outcome, and its error */
    mp_error analysis_err;
    renderer *idle;
};

static void params_audio(mp_frames *f)
{
    mp_sink_params *p = &f->j.params;
    p->audio_bytes = mp_mlv_clip_get_info(f->clip)->audio_bytes;
    p->read_audio = mp_job_read_audio;
    p->audio_opaque = f->clip;
}

static mp_status list_items(mp_frames *f, mp_error *err)
{
    f->index = malloc((f->selected ? f->selected : 1) * sizeof *f->index);
    f->damaged = calloc(f->selected ? f->selected : 1, sizeof *f->damaged);
    f->sizes = calloc(f->selected ? f->selected : 1, sizeof *f->sizes);
    if (!f->index || !f->damaged || !f->sizes)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", f->j.o->input);
    char why[160];
    for (uint32_t i = 0; i < f->selected; i++) {
        uint32_t index = f->j.indices[i];
        if (mp_mlv_frame_problem(f->clip, index, why, sizeof why))
            mp_log(&f->j.o->log, MP_LOG_WARNING, "%s: frame %u left out: %s", f->j.o->input,
                   f->j.numbers[index], why);
        else
            f->index[f->frame_items++] = index;
    }
    f->wav = mp_job_writes_wav(&f->j, f->selected);
    return MP_OK;
}

mp_status mp_frames_open(mp_frames **out, const mp_convert_options *o,
                         const char *levels_cache, mp_error *err)
{
    *out = NULL;
    if (o->format && strcmp(o->format, "dng"))
        return mp_error_set(err, MP_ERR_ARG, "frames on demand: DNG only, not %s", o->format);
    mp_status checked = mp_job_check_options(o, err);
    if (checked != MP_OK)
        return checked;
    if (o->dng_storage == MP_DNG_LJ92 || o->dng_storage == MP_DNG_LJ92_2C)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "frames on demand: uncompressed DNG only "
                            "(an LJ92 file's size is known only once it is encoded)");
    mp_frames *f = calloc(1, sizeof *f);
    if (!f)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", o->input);
    pthread_mutex_init(&f->lock, NULL);
    f->j.o = o;
    f->j.format = mp_format_find("dng");
    f->j.levels_cache = levels_cache;
    mlv_open_options oo = {o->log, 0};
    mp_status st = mp_mlv_clip_open(&f->clip, o->input, &oo, err);
    f->j.clip = f->clip;
    if (st == MP_OK)
        st = mp_job_index(&f->j, &f->selected, err);
    if (st == MP_OK)
        st = mp_naming_check(&f->j.params, err);
    if (st == MP_OK)
        st = list_items(f, err);
    if (st != MP_OK) {
        mp_frames_close(f);
        return st;
    }
    params_audio(f);
    *out = f;
    return MP_OK;
}

void mp_frames_close(mp_frames *f)
{
    if (!f)
        return;
    for (renderer *r = f->idle, *next; r; r = next) {
        next = r->next;
        mp_mlv_payload_free(&r->s.payload);
        mp_job_worker_destroy(&f->j, r->w);
        free(r);
    }
    mp_job_free(&f->j);
    mp_mlv_clip_close(f->clip);
    pthread_mutex_destroy(&f->lock);
    free(f->index);
    free(f->damaged);
    free(f->sizes);
    free(f);
}

uint32_t mp_frames_count(const mp_frames *f)
{
    return f->frame_items + (f->wav ? 1 : 0);
}

int mp_frames_is_audio(const mp_frames *f, uint32_t item)
{
    return f->wav && item == f->frame_items;
}

void mp_frames_folder(const mp_frames *f, char *out)
{
    mp_name_folder(&f->j.params, out);
}

void mp_frames_name(const mp_frames *f, uint32_t item, char *out)
{
    if (item < f->frame_items)
        mp_name_frame(&f->j.params, f->j.numbers[f->index[item]], out);
    else
        mp_name_audio(&f->j.params, out);
}

/* The analysis, once; later calls get its outcome. */
static mp_status analysed(mp_frames *f, mp_error *err)
{
    pthread_mutex_lock(&f->lock);
    if (!f->analysed) {
        f->analysis = mp_job_analyse(&f->j, &f->analysis_err);
        f->analysed = 1;
    }
    mp_status st = f->analysis;
    pthread_mutex_unlock(&f->lock);
    if (st != MP_OK)
        *err = f->analysis_err;
    return st;
}

static mp_status check_item(const mp_frames *f, uint32_t item, mp_error *err)
{
    if (item >= mp_frames_count(f))
        return mp_error_set(err, MP_ERR_RANGE, "%s: no item %u (%u)", f->j.o->input, item,
                            mp_frames_count(f));
    if (item < f->frame_items && atomic_load(&f->damaged[item]))
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: frame %u is damaged", f->j.o->input,
                            f->j.numbers[f->index[item]]);
    return MP_OK;
}

/* A frame's DNG size from its index entry: the shape of the frame convert would write (the
 * recorded size; 16-bit after reconstruction, else the recorded depth). */
static mp_status frame_size(mp_frames *f, uint32_t item, uint64_t *size, mp_error *err)
{
    if ((*size = atomic_load(&f->sizes[item])))
        return MP_OK;
    mlv_frame_info fi;
    mp_status st = mp_mlv_frame_info_get(f->clip, f->index[item], &fi);
    if (st != MP_OK)
        return mp_error_set(err, st, "%s: frame %u: no index entry", f->j.o->input,
                            f->j.numbers[f->index[item]]);
    const mp_frame shape = {.width = fi.raw->width, .height = fi.raw->height,
                            .bits = f->j.native ? fi.raw->bits : 16, .black = 0, .white = 1,
                            .cfa = fi.raw->cfa, .number = fi.number,
                            .timestamp_us = fi.timestamp_us};
    const mp_frame_meta m = {fi.exposure, fi.white_balance};
    st = mp_dng_size(&shape, &m, &f->j.params, size, err);
    if (st == MP_OK)
        atomic_store(&f->sizes[item], *size);
    return st;
}

mp_status mp_frames_size(mp_frames *f, uint32_t item, uint64_t *size, mp_error *err)
{
    mp_status st = check_item(f, item, err);
    if (st != MP_OK)
        return st;
    if (item == f->frame_items)
        return mp_wav_file_size(&f->j.params, size, err);
    if ((st = analysed(f, err)) != MP_OK)
        return st;
    return frame_size(f, item, size, err);
}

static mp_status renderer_take(mp_frames *f, renderer **out, mp_error *err)
{
    pthread_mutex_lock(&f->lock);
    renderer *r = f->idle;
    if (r)
        f->idle = r->next;
    pthread_mutex_unlock(&f->lock);
    if (!r) {
        void *w = NULL;
        if (!(r = calloc(1, sizeof *r)))
            return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", f->j.o->input);
        mp_status st = mp_job_worker_create(&f->j, &w, err);
        if (st != MP_OK) {
            free(r);
            return st;
        }
        r->w = w;
    }
    *out = r;
    return MP_OK;
}

static void renderer_give(mp_frames *f, renderer *r)
{
    pthread_mutex_lock(&f->lock);
    r->next = f->idle;
    f->idle = r;
    pthread_mutex_unlock(&f->lock);
}

/* The frame of item i made as convert makes it, then its DNG into buf (size bytes). */
static mp_status render_frame(mp_frames *f, uint32_t item, uint8_t *buf, uint64_t size,
                              mp_error *err)
{
    job *j = &f->j;
    uint32_t index = f->index[item];
    mlv_frame_info fi;
    mp_status st = mp_mlv_frame_info_get(f->clip, index, &fi);
    if (st != MP_OK)
        return mp_error_set(err, st, "%s: frame %u: no index entry", j->o->input,
                            j->numbers[index]);
    renderer *r = NULL;
    if ((st = renderer_take(f, &r, err)) != MP_OK)
        return st;
    slot *s = &r->s;
    s->number = j->numbers[index];
    s->outcome = FRAME_WRITTEN;
    s->payload_read = 0;
    s->read_error.code = MP_OK;
    mp_cache_key key;
    /* as convert's reader: the payload unless the frame cache may hold the frame */
    if (!mp_job_cache_key(j, index, s->number, &key))
        st = mp_job_read_payload(j, index, s, err);
    mp_frame *raw = &r->w->raw, *out = j->native ? raw : &r->w->out;
    if (st == MP_OK)
        st = mp_job_frame(j, r->w, s, index, raw, out, err);
    if (st == MP_OK && s->outcome == FRAME_DAMAGED) {
        atomic_store(&f->damaged[item], 1);
        st = mp_error_set(err, MP_ERR_DAMAGED, "%s: frame %u is damaged (see the warning)",
                          j->o->input, s->number);
    }
    const mp_frame_meta m = {fi.exposure, fi.white_balance};
    if (st == MP_OK)
        st = mp_dng_encode_into(out, &m, &j->params, buf, (size_t)size, err);
    renderer_give(f, r);
    return st;
}

mp_status mp_frames_read(mp_frames *f, uint32_t item, uint64_t offset, void *buf, size_t n,
                         mp_error *err)
{
    uint64_t size;
    mp_status st = mp_frames_size(f, item, &size, err);
    if (st != MP_OK)
        return st;
    if (offset > size || n > size - offset)
        return mp_error_set(err, MP_ERR_RANGE, "%s: item %u: bytes %llu+%zu beyond its %llu",
                            f->j.o->input, item, (unsigned long long)offset, n,
                            (unsigned long long)size);
    if (item == f->frame_items)
        return mp_wav_file_read(&f->j.params, offset, buf, n, err);
    if (offset == 0 && n == size)
        return render_frame(f, item, buf, size, err);
    uint8_t *whole = malloc(size);
    if (!whole)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", f->j.o->input);
    st = render_frame(f, item, whole, size, err);
    if (st == MP_OK)
        memcpy(buf, whole + offset, n);
    free(whole);
    return st;
}
