#include "pipeline/batch.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "engine/workpool.h"
#include "reader/mlv_reader.h"

/* A still's outcome, waiting in its slot for the in-order `finished` call. */
typedef struct outcome {
    mp_status st;
    mp_convert_result res;
    mp_error err;
} outcome;

typedef struct batch {
    const mp_convert_options *o;
    const char *const *inputs, *const *outputs;
    const mp_batch_callbacks *cb;
    uint32_t first;              /* the stills of this run: inputs[first ...] */
    outcome *slots;
} batch;

static mp_status run_still(void *user, void *ctx, uint32_t i, uint32_t slot, mp_error *err)
{
    (void)ctx;
    (void)err;
    const batch *b = user;
    const uint32_t index = b->first + i;
    if (b->cb->started)
        b->cb->started(b->cb->user, index);
    mp_convert_options o = *b->o;
    o.input = b->inputs[index];
    o.output = b->outputs[index];
    o.threads = 1;
    o.progress = NULL;
    outcome *out = &b->slots[slot];
    out->err = (mp_error){0};
    out->st = mp_convert(&o, &out->res, &out->err);
    return MP_OK;                /* a still that fails does not stop the others */
}

static mp_status deliver_still(void *user, uint32_t i, uint32_t slot, mp_error *err)
{
    (void)err;
    const batch *b = user;
    const outcome *out = &b->slots[slot];
    b->cb->finished(b->cb->user, b->first + i, out->st, &out->res, &out->err);
    return MP_OK;
}

/* The stills inputs[first .. first+count-1], side by side over the pool. */
static mp_status run_stills(batch *b, uint32_t first, uint32_t count, uint32_t *finished,
                            mp_error *err)
{
    mp_pool_options po = {b->o->threads, 0, b->o->cancel};
    uint32_t threads, window;
    mp_pool_resolve(&po, count, &threads, &window);
    b->first = first;
    b->slots = calloc(window, sizeof *b->slots);
    if (!b->slots)
        return mp_error_set(err, MP_ERR_NOMEM, "batch: out of memory");
    const mp_pool_callbacks cb = {b, NULL, NULL, run_still, deliver_still};
    mp_status st = mp_pool_run(count, &po, &cb, finished, err);
    free(b->slots);
    b->slots = NULL;
    return st;
}

/* What the --sequence hint learns of each photo: opened on the pool's workers, since each
 * opening has LibRaw identify the photo in a child process, and done one after another they
 * were the folder's one serial stage (doc/stills.md 6). */
typedef struct series {
    const char *const *photos;
    mlv_photo_session *sessions;
    atomic_int differs;
} series;

static mp_status open_photo(void *user, void *ctx, uint32_t i, uint32_t slot, mp_error *err)
{
    (void)ctx;
    (void)slot;
    (void)err;
    series *s = user;
    if (!atomic_load(&s->differs) && !mp_mlv_photo_session(s->photos[i], &s->sessions[i]))
        atomic_store(&s->differs, 1);
    return MP_OK;
}

static int photo_series(const mp_convert_options *o, const char *const *photos, uint32_t n)
{
    if (!mp_mlv_photos_in_a_row(photos, n))
        return 0;
    series s = {photos, calloc(n, sizeof *s.sessions), 0};
    if (!s.sessions)
        return 0;
    mp_pool_options po = {o->threads, 0, o->cancel};
    const mp_pool_callbacks cb = {&s, NULL, NULL, open_photo, NULL};
    mp_error err;
    int same = mp_pool_run(n, &po, &cb, NULL, &err) == MP_OK && !atomic_load(&s.differs);
    for (uint32_t i = 1; same && i < n; i++)
        same = mp_mlv_photo_same_session(&s.sessions[0], &s.sessions[i]);
    free(s.sessions);
    return same;
}

/* A timelapse converted photo by photo flickers (doc/stills.md 5): say so when the photos look
 * like one. */
static void hint_sequence(const mp_convert_options *o, const char *const *photos, uint32_t n)
{
    if (!photo_series(o, photos, n))
        return;
    const char *slash = strrchr(photos[0], '/');
    int folder = slash ? (int)(slash - photos[0]) : 0;
    mp_log(&o->log, MP_LOG_WARNING, "%u photos numbered in a row (%s .. %s), from one camera "
           "with the same settings, are converted one by one, each with its own levels; if "
           "they are a timelapse, --sequence %.*s converts them as one clip whose levels do "
           "not flicker", n, photos[0], photos[n - 1], slash ? (folder ? folder : 1) : 1,
           slash ? photos[0] : ".");
}

static int cancelled(const mp_convert_options *o)
{
    return o->cancel && atomic_load(o->cancel);
}

mp_status mp_convert_batch(const mp_convert_options *o, const char *const *inputs,
                           const char *const *outputs, uint32_t count,
                           const mp_batch_callbacks *cb, uint32_t *done, mp_error *err)
{
    batch b = {o, inputs, outputs, cb, 0, NULL};
    mp_status st = MP_OK;
    uint32_t i = 0;
    while (i < count && st == MP_OK) {
        uint32_t stills = 0;
        while (i + stills < count && mp_mlv_is_photo_file(inputs[i + stills]))
            stills++;
        if (stills) {
            hint_sequence(o, inputs + i, stills);
            uint32_t finished = 0;
            st = run_stills(&b, i, stills, &finished, err);
            i += finished;
            continue;
        }
        if (cancelled(o)) {
            st = MP_ERR_INTERRUPTED;
            break;
        }
        if (cb->started)
            cb->started(cb->user, i);
        mp_convert_options one = *o;
        one.input = inputs[i];
        one.output = outputs[i];
        mp_convert_result res;
        mp_error e = {0};
        mp_status clip = mp_convert(&one, &res, &e);
        cb->finished(cb->user, i++, clip, &res, &e);
        if (clip == MP_ERR_INTERRUPTED)
            st = clip;
    }
    if (st == MP_ERR_INTERRUPTED)
        mp_error_set(err, st, "interrupted: %u of %u clips finished", i, count);
    if (done)
        *done = i;
    return st;
}
