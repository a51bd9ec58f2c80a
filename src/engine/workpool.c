#include "engine/workpool.h"

#include "engine/cpus.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Hard bounds so a silly --threads cannot exhaust the process. */
#define POOL_MAX_THREADS 256u
#define POOL_MAX_WINDOW 4096u

typedef struct pool {
    const mp_pool_callbacks *cb;
    mp_pool_read_fn read;        /* NULL: no I/O stage */
    const atomic_int *cancel;
    uint32_t count, window;

    pthread_mutex_t lock;
    pthread_cond_t changed;      /* a slot was freed or filled, or the pool stopped */
    uint32_t next_job;           /* jobs [0, next_job) have been started */
    uint32_t delivered;          /* jobs [0, delivered) have been delivered */
    uint32_t read_next;          /* I/O stage: jobs [0, read_next) have been read */
    int read_failed;             /* the read of job read_next - 1 failed ... */
    mp_status read_status;       /* ... with this status and message, for its job to report */
    mp_error read_error;
    unsigned char *ready;        /* per slot: its job finished and awaits delivery */
    int delivering;              /* one worker at a time runs the in-order delivery */
    int stopping;                /* no more jobs start */
    int failed;                  /* a callback failed: no more deliveries either */
    int interrupted;
    uint32_t error_index;        /* lowest failing job, UINT32_MAX for a context failure */
    mp_status error_status;
    mp_error error;
} pool;

uint32_t mp_pool_cpu_count(void)
{
    uint32_t n = mp_cpu_count();
    return n > POOL_MAX_THREADS ? POOL_MAX_THREADS : n;
}

void mp_pool_resolve(const mp_pool_options *opt, uint32_t job_count, uint32_t *threads,
                     uint32_t *window)
{
    uint32_t t = opt && opt->threads ? opt->threads : mp_pool_cpu_count();
    if (t > POOL_MAX_THREADS)
        t = POOL_MAX_THREADS;
    if (t > job_count)
        t = job_count ? job_count : 1;
    uint32_t w = opt && opt->window ? opt->window : 2 * t;
    if (w < t)
        w = t;
    if (w > POOL_MAX_WINDOW)
        w = POOL_MAX_WINDOW;
    *threads = t;
    *window = w;
}

/* Keeps the failure of the lowest job index, so the reported error does not depend on
 * which thread happened to fail first. Called with the lock held. */
static void record_failure(pool *p, uint32_t index, mp_status st, const mp_error *e)
{
    if (!p->failed || index < p->error_index) {
        p->error_index = index;
        p->error_status = st;
        if (e && e->msg[0])
            p->error = *e;
        else
            mp_error_set(&p->error, st, "job %u failed: %s", index, mp_status_name(st));
        p->error.code = st;
    }
    p->failed = 1;
    p->stopping = 1;
    pthread_cond_broadcast(&p->changed);
}

/* Delivers every finished job at the head of the window, in order. Called with the lock
 * held by the one worker that set p->delivering. */
static void deliver_ready(pool *p)
{
    while (!p->failed && p->delivered < p->next_job && p->ready[p->delivered % p->window]) {
        uint32_t index = p->delivered, slot = index % p->window;
        if (p->cb->deliver) {
            mp_error e = {0};
            pthread_mutex_unlock(&p->lock);
            mp_status st = p->cb->deliver(p->cb->user, index, slot, &e);
            pthread_mutex_lock(&p->lock);
            if (st != MP_OK) {
                record_failure(p, index, st, &e);
                break;
            }
        }
        p->ready[slot] = 0;
        p->delivered++;
        pthread_cond_broadcast(&p->changed);
    }
}

/* Stops the pool as interrupted once *cancel is set; returns whether it did. Called with the
 * lock held, before starting a read or a job. */
static int cancelled(pool *p)
{
    if (!p->cancel || !atomic_load(p->cancel))
        return 0;
    p->stopping = 1;
    p->interrupted = 1;
    pthread_cond_broadcast(&p->changed);
    return 1;
}

/* Whether job next_job may start: its slot is free and, with an I/O stage, its input read. */
static int next_job_ready(const pool *p)
{
    return p->next_job - p->delivered < p->window &&
           (!p->read || p->next_job < p->read_next);
}

/* The I/O stage: reads inputs in index order into the slots, at most `window` jobs ahead of
 * delivery (job i's slot is free once job i - window has been delivered). */
static void *reader_main(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->read_failed) {
        while (!p->stopping && p->read_next < p->count &&
               p->read_next - p->delivered >= p->window)
            pthread_cond_wait(&p->changed, &p->lock);
        if (p->stopping || p->read_next >= p->count || cancelled(p))
            break;
        uint32_t index = p->read_next;
        pthread_mutex_unlock(&p->lock);

        mp_error e = {0};
        mp_status st = p->read(p->cb->user, index, index % p->window, &e);

        pthread_mutex_lock(&p->lock);
        if (st != MP_OK) {
            p->read_failed = 1;
            p->read_status = st;
            p->read_error = e;
        }
        p->read_next++;
        pthread_cond_broadcast(&p->changed);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

static void *worker_main(void *arg)
{
    pool *p = arg;
    void *ctx = NULL;
    if (p->cb->ctx_create) {
        mp_error e = {0};
        mp_status st = p->cb->ctx_create(p->cb->user, &ctx, &e);
        if (st != MP_OK) {
            pthread_mutex_lock(&p->lock);
            record_failure(p, UINT32_MAX, st, &e);
            pthread_mutex_unlock(&p->lock);
            return NULL;
        }
    }
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stopping && p->next_job < p->count && !next_job_ready(p))
            pthread_cond_wait(&p->changed, &p->lock);
        if (p->stopping || p->next_job >= p->count || cancelled(p))
            break;
        uint32_t index = p->next_job++;
        if (p->read_failed && index == p->read_next - 1) {
            /* reported now, when every earlier job has started, so that the lowest failing
             * job wins whatever the timing */
            record_failure(p, index, p->read_status, &p->read_error);
            continue;
        }
        pthread_mutex_unlock(&p->lock);

        mp_error e = {0};
        mp_status st = p->cb->run(p->cb->user, ctx, index, index % p->window, &e);

        pthread_mutex_lock(&p->lock);
        if (st != MP_OK) {
            record_failure(p, index, st, &e);
            continue;
        }
        p->ready[index % p->window] = 1;
        if (!p->delivering) {
            p->delivering = 1;
            deliver_ready(p);
            p->delivering = 0;
        }
    }
    pthread_mutex_unlock(&p->lock);
    if (p->cb->ctx_destroy && ctx)
        p->cb->ctx_destroy(p->cb->user, ctx);
    return NULL;
}

mp_status mp_pool_run(uint32_t job_count, const mp_pool_options *opt,
                      const mp_pool_callbacks *cb, uint32_t *finished, mp_error *err)
{
    return mp_pool_run_with_reader(job_count, opt, cb, NULL, finished, err);
}

mp_status mp_pool_run_with_reader(uint32_t job_count, const mp_pool_options *opt,
                                  const mp_pool_callbacks *cb, mp_pool_read_fn read,
                                  uint32_t *finished, mp_error *err)
{
    if (finished)
        *finished = 0;
    if (!cb || !cb->run)
        return mp_error_set(err, MP_ERR_ARG, "worker pool: no job callback");
    if (job_count == 0)
        return MP_OK;

    uint32_t threads, window;
    mp_pool_resolve(opt, job_count, &threads, &window);

    pool p;
    memset(&p, 0, sizeof p);
    p.cb = cb;
    p.read = read;
    p.cancel = opt ? opt->cancel : NULL;
    p.count = job_count;
    p.window = window;
    p.ready = calloc(window, 1);
    pthread_t *tids = calloc(threads + 1, sizeof *tids);   /* + the reader */
    if (!p.ready || !tids) {
        free(p.ready);
        free(tids);
        return mp_error_set(err, MP_ERR_NOMEM, "worker pool: out of memory");
    }
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.changed, NULL);

    uint32_t started = 0;
    for (; started < threads + (read != NULL); started++) {
        int reader = started == threads;
        if (pthread_create(&tids[started], NULL, reader ? reader_main : worker_main, &p)) {
            pthread_mutex_lock(&p.lock);
            record_failure(&p, UINT32_MAX, MP_ERR_NOMEM, NULL);
            if (reader)
                mp_error_set(&p.error, MP_ERR_NOMEM, "worker pool: cannot start the reader");
            else
                mp_error_set(&p.error, MP_ERR_NOMEM, "worker pool: cannot start thread %u of "
                             "%u", started + 1, threads);
            pthread_mutex_unlock(&p.lock);
            break;
        }
    }
    for (uint32_t i = 0; i < started; i++)
        pthread_join(tids[i], NULL);

    mp_status st = MP_OK;
    if (p.failed) {
        st = p.error_status;
        if (err)
            *err = p.error;
    } else if (p.interrupted || p.delivered < job_count) {
        st = mp_error_set(err, MP_ERR_INTERRUPTED, "interrupted after %u of %u frames",
                          p.delivered, job_count);
    }
    if (finished)
        *finished = p.delivered;
    pthread_cond_destroy(&p.changed);
    pthread_mutex_destroy(&p.lock);
    free(p.ready);
    free(tids);
    return st;
}
