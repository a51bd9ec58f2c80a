/* The public API's status, logging and progress, over common/mp_status.h and
 * engine/progress.h. The public enums carry the internal values, so they convert by cast. */
#include "api_internal.h"

#include <stdlib.h>
#include <string.h>

#include "common/mp_cpu.h"
#include "common/mp_frame.h"
#include "engine/progress.h"

_Static_assert((int)MLVPIPE_ERR_RANGE == (int)MP_ERR_RANGE &&
               (int)MLVPIPE_ERR_INTERRUPTED == (int)MP_ERR_INTERRUPTED &&
               (int)MLVPIPE_ERR_NOMEM == (int)MP_ERR_NOMEM &&
               (int)MLVPIPE_ERR_DAMAGED == (int)MP_ERR_DAMAGED &&
               (int)MLVPIPE_ERR_UNSUPPORTED == (int)MP_ERR_UNSUPPORTED &&
               (int)MLVPIPE_ERR_FORMAT == (int)MP_ERR_FORMAT && (int)MLVPIPE_ERR_IO == (int)MP_ERR_IO &&
               (int)MLVPIPE_ERR_ARG == (int)MP_ERR_ARG && (int)MLVPIPE_OK == (int)MP_OK,
               "mlvpipe_status mirrors mp_status");
_Static_assert((int)MLVPIPE_LOG_DEBUG == (int)MP_LOG_DEBUG &&
               (int)MLVPIPE_LOG_INFO == (int)MP_LOG_INFO &&
               (int)MLVPIPE_LOG_WARNING == (int)MP_LOG_WARNING &&
               (int)MLVPIPE_LOG_ERROR == (int)MP_LOG_ERROR,
               "mlvpipe_log_level mirrors mp_log_level");
_Static_assert(sizeof(((mlvpipe_error *)0)->message) == MP_ERROR_MAX, "same message size");

const char *mlvpipe_version(void)
{
    return MLVPIPE_VERSION;
}

unsigned mlvpipe_version_api(void)
{
    return MLVPIPE_API_VERSION;
}

const char *mlvpipe_cpu_level(void)
{
    return mp_cpu_level_name(mp_cpu_level_get());
}

mlvpipe_status mlvpipe_cpu_limit(const char *level, mlvpipe_error *err)
{
    mp_error e = {0};
    int l = mp_cpu_level_from_name(level);
    if (l < 0)
        mp_error_set(&e, MP_ERR_ARG, "'%s' is not a CPU level (c, sse2, avx2 or neon)", level);
    else if (mp_cpu_set_level((mp_cpu_level)l) != 0)
        mp_error_set(&e, MP_ERR_UNSUPPORTED, "CPU level %s: not available on this CPU or build",
                     level);
    return mp_api_status(e.code, &e, err);
}

const char *mlvpipe_status_name(mlvpipe_status status)
{
    return mp_status_name((mp_status)status);
}

mlvpipe_status mp_api_status(mp_status st, const mp_error *in, mlvpipe_error *out)
{
    if (out) {
        out->code = (mlvpipe_status)st;
        memcpy(out->message, in->msg, sizeof out->message);
        out->message[sizeof out->message - 1] = 0;
    }
    return (mlvpipe_status)st;
}

const char *mp_api_cfa_name(uint32_t cfa)
{
    switch (cfa) {
    case MP_CFA_RGGB: return "RGGB";
    case MP_CFA_GRBG: return "GRBG";
    case MP_CFA_GBRG: return "GBRG";
    case MP_CFA_BGGR: return "BGGR";
    }
    return NULL;
}

mlvpipe_status mp_api_text(mp_text *t, const char *what, mlvpipe_text *out, mlvpipe_error *err)
{
    *out = (mlvpipe_text){0};
    if (t->failed || !t->data) {
        mp_text_free(t);
        mp_error e = {0};
        return mp_api_status(mp_error_set(&e, MP_ERR_NOMEM, "%s: out of memory", what), &e, err);
    }
    *out = (mlvpipe_text){t->data, t->len};
    *t = (mp_text){0};
    return MLVPIPE_OK;
}

void mlvpipe_text_free(mlvpipe_text *t)
{
    if (t) {
        free(t->data);
        *t = (mlvpipe_text){0};
    }
}

static void forward_log(void *opaque, mp_log_level level, const char *msg)
{
    const mlvpipe_logger *log = opaque;
    log->fn(log->opaque, (mlvpipe_log_level)level, msg);
}

mp_logger mp_api_logger(const mlvpipe_logger *log)
{
    mp_logger l = {NULL, NULL};
    if (log && log->fn) {
        l.fn = forward_log;
        l.opaque = (void *)log;
    }
    return l;
}

void mp_api_progress_event(const mp_progress_event *ev, mlvpipe_progress *out)
{
    *out = (mlvpipe_progress){
        .kind = (mlvpipe_progress_kind)ev->kind,
        .total = ev->total,
        .done = ev->done,
        .written = ev->written,
        .skipped = ev->skipped,
        .damaged = ev->damaged,
        .frame = ev->frame,
        .frame_skipped = ev->frame_skipped,
        .frame_damaged = ev->frame_damaged,
        .first_frame = ev->first_frame,
        .last_frame = ev->last_frame,
        .threads = ev->threads,
        .elapsed_s = ev->elapsed_s,
        .fps = ev->fps,
        .eta_s = ev->eta_s,
        .status = (mlvpipe_status)ev->status,
        .message = ev->message,
    };
}

static void internal_event(const mlvpipe_progress *p, mp_progress_event *ev)
{
    *ev = (mp_progress_event){
        .kind = (mp_progress_kind)p->kind,
        .total = p->total,
        .done = p->done,
        .written = p->written,
        .skipped = p->skipped,
        .damaged = p->damaged,
        .frame = p->frame,
        .frame_skipped = p->frame_skipped,
        .frame_damaged = p->frame_damaged,
        .first_frame = p->first_frame,
        .last_frame = p->last_frame,
        .threads = p->threads,
        .elapsed_s = p->elapsed_s,
        .fps = p->fps,
        .eta_s = p->eta_s,
        .status = (mp_status)p->status,
        .message = p->message,
    };
}

int mlvpipe_progress_line(const mlvpipe_progress *p, char *buf, size_t size)
{
    mp_progress_event ev;
    internal_event(p, &ev);
    return mp_progress_format_line(&ev, buf, size);
}

int mlvpipe_progress_json(const mlvpipe_progress *p, char *buf, size_t size)
{
    mp_progress_event ev;
    internal_event(p, &ev);
    return mp_progress_format_json(&ev, buf, size);
}
