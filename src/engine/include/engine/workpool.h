/* workpool: runs jobs 0..count-1 (frame indices, usually) on a pool of worker threads.
 *
 * Each worker owns a context made by ctx_create on its own thread (decode scratch, frames,
 * dual-ISO workspace), so a job never shares buffers with another. Jobs start in index order
 * and at most `window` of them are between "started" and "delivered" at any time: memory is
 * O(threads + window), never O(count). The optional deliver callback sees finished jobs in
 * index order, one call at a time (for single-stream outputs and ordered progress); job i's
 * result lives in slot i % window until it has been delivered.
 *
 * mp_pool_run_with_reader adds an I/O stage: one more thread reads each job's input
 * (a frame's payload) into the job's slot, in index order, before a worker runs the job. It
 * reads at most `window` jobs ahead of delivery, so the slots are the ring of input buffers:
 * never more than `window` inputs are held, however long the clip. A job runs only once its
 * input is in; the slot is the job's until it has been delivered. The reader looks at the
 * cancel flag before each read (a read under way is not interrupted).
 *
 * The pool stops starting jobs when *cancel becomes non-zero (a signal handler may set it; the
 * pool installs no handler) or when a callback fails. Jobs already running finish; finished
 * jobs are still delivered after a cancel but not after a failure. Results do not depend on
 * the thread count: what a job computes must depend only on its index. */
#ifndef MP_WORKPOOL_H
#define MP_WORKPOOL_H

#include <stdatomic.h>
#include <stdint.h>

#include "common/mp_status.h"

typedef struct mp_pool_callbacks {
    void *user;
    /* Optional: makes one worker's context; called on that worker's thread. */
    mp_status (*ctx_create)(void *user, void **ctx, mp_error *err);
    void (*ctx_destroy)(void *user, void *ctx);
    /* Does job `index`, leaving any result for deliver in slot `slot` (0..window-1). */
    mp_status (*run)(void *user, void *ctx, uint32_t index, uint32_t slot, mp_error *err);
    /* Optional: receives finished jobs in index order, never two at once. */
    mp_status (*deliver)(void *user, uint32_t index, uint32_t slot, mp_error *err);
} mp_pool_callbacks;

/* The I/O stage: fills slot `slot` with job `index`'s input (cb->user is passed as user). */
typedef mp_status (*mp_pool_read_fn)(void *user, uint32_t index, uint32_t slot, mp_error *err);

typedef struct mp_pool_options {
    uint32_t threads;                      /* 0: mp_pool_cpu_count() */
    uint32_t window;                       /* 0: 2 * threads; raised to at least threads */
    const atomic_int *cancel;              /* NULL: not cancellable; lock-free, so a signal
                                            * handler may set it */
} mp_pool_options;

/* The thread count and window mp_pool_run will use for job_count jobs (callers size their
 * per-slot buffers with *window). Never more threads than jobs, never zero. */
void mp_pool_resolve(const mp_pool_options *opt, uint32_t job_count, uint32_t *threads,
                     uint32_t *window);

/* Runs every job. Returns MP_OK when all were run and delivered; otherwise the failure of the
 * lowest-numbered failing job (its message in err), or MP_ERR_INTERRUPTED when cancelled.
 * *finished (optional) gets the number of jobs delivered, always a prefix 0..finished-1. */
mp_status mp_pool_run(uint32_t job_count, const mp_pool_options *opt,
                      const mp_pool_callbacks *cb, uint32_t *finished, mp_error *err);

/* mp_pool_run with an I/O stage: one reader thread (besides the workers) calls read for every
 * job, in index order, before a worker runs it. A failed read is that job's failure, reported
 * as if run had failed at that job (the jobs before it still run). */
mp_status mp_pool_run_with_reader(uint32_t job_count, const mp_pool_options *opt,
                                  const mp_pool_callbacks *cb, mp_pool_read_fn read,
                                  uint32_t *finished, mp_error *err);

/* The CPUs this process may use (cpus.h: affinity mask and cgroup quota), at most 256. */
uint32_t mp_pool_cpu_count(void);

#endif
