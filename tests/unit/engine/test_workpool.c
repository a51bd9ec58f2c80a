/* Unit tests for the worker pool: ordered delivery under random delays, the bound on jobs in
 * flight, per-thread contexts, cancellation and error propagation; and its I/O stage (one
 * reader thread, reads in order, the ring of `window` inputs, cancellation while the reader
 * waits, read errors). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>

#include "engine/workpool.h"

#define MAX_JOBS 400

typedef struct harness {
    uint32_t window;
    uint64_t *slots;               /* one result per slot */
    uint32_t delivered[MAX_JOBS];  /* indices in delivery order */
    uint32_t delivered_count;
    atomic_int in_flight, max_in_flight, contexts_alive, contexts_made;
    atomic_int started;
    int delay_us;                  /* up to this many microseconds per job, pseudo-random */
    uint32_t fail_at[2];           /* jobs that fail (UINT32_MAX: none) */
    uint32_t deliver_fail_at;
    uint32_t cancel_at;            /* job that raises the cancel flag */
    atomic_int cancel;
    int ctx_fail;
    /* I/O stage */
    uint64_t *payload;             /* per slot: what read left for the job */
    uint32_t read_order[MAX_JOBS];
    atomic_int reads, bad_payloads, runs_past_block;
    atomic_int payloads_held, max_payloads_held;  /* read started, not yet delivered */
    pthread_t reader;
    atomic_int readers_seen;       /* reads from a thread other than the first reader */
    int read_delay_us;
    uint32_t read_fail_at;
    uint32_t read_block_at;        /* this read waits until the cancel flag is raised */
    atomic_int read_block_timed_out;
} harness;

typedef struct worker_ctx {
    pthread_t owner;
    uint64_t scratch;
} worker_ctx;

static uint64_t job_value(uint32_t index)
{
    uint64_t x = index * 0x9E3779B97F4A7C15ull;
    return x ^ (x >> 29);
}

static uint64_t payload_value(uint32_t index)
{
    return ~job_value(index);
}

static void raise_max(atomic_int *max, int now)
{
    int seen = atomic_load(max);
    while (now > seen && !atomic_compare_exchange_weak(max, &seen, now))
        ;
}

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

static mp_status ctx_create(void *user, void **ctx, mp_error *err)
{
    harness *h = user;
    if (h->ctx_fail)
        return mp_error_set(err, MP_ERR_NOMEM, "no room for a workspace");
    worker_ctx *c = calloc(1, sizeof *c);
    c->owner = pthread_self();
    *ctx = c;
    atomic_fetch_add(&h->contexts_alive, 1);
    atomic_fetch_add(&h->contexts_made, 1);
    return MP_OK;
}

static void ctx_destroy(void *user, void *ctx)
{
    harness *h = user;
    worker_ctx *c = ctx;
    assert_true(pthread_equal(c->owner, pthread_self()));
    atomic_fetch_sub(&h->contexts_alive, 1);
    free(c);
}

static mp_status run(void *user, void *ctx, uint32_t index, uint32_t slot, mp_error *err)
{
    harness *h = user;
    worker_ctx *c = ctx;
    assert_true(pthread_equal(c->owner, pthread_self()));
    atomic_fetch_add(&h->started, 1);
    raise_max(&h->max_in_flight, atomic_fetch_add(&h->in_flight, 1) + 1);
    if (h->payload && h->payload[slot] != payload_value(index))
        atomic_fetch_add(&h->bad_payloads, 1);   /* read late, or overwritten too early */
    if (index >= h->read_block_at)
        atomic_fetch_add(&h->runs_past_block, 1);
    if (index == h->cancel_at)
        atomic_store(&h->cancel, 1);
    if (h->delay_us) {
        unsigned seed = index * 2654435761u;
        struct timespec ts = {0, (long)(rand_r(&seed) % (unsigned)h->delay_us) * 1000};
        nanosleep(&ts, NULL);
    }
    if (index == h->fail_at[0] || index == h->fail_at[1])
        return mp_error_set(err, MP_ERR_DAMAGED, "frame %u: damaged", index);
    c->scratch = job_value(index);
    h->slots[slot] = c->scratch;
    return MP_OK;
}

static mp_status deliver(void *user, uint32_t index, uint32_t slot, mp_error *err)
{
    harness *h = user;
    assert_int_equal(h->slots[slot], job_value(index));
    h->slots[slot] = 0; /* a slot reused before delivery would trip the check above */
    if (index == h->deliver_fail_at)
        return mp_error_set(err, MP_ERR_IO, "out.wav: write failed at frame %u", index);
    h->delivered[h->delivered_count++] = index;
    atomic_fetch_sub(&h->in_flight, 1);
    if (h->payload) {
        h->payload[slot] = 0;
        atomic_fetch_sub(&h->payloads_held, 1);
    }
    return MP_OK;
}

static mp_status read_input(void *user, uint32_t index, uint32_t slot, mp_error *err)
{
    harness *h = user;
    int n = atomic_fetch_add(&h->reads, 1);
    if (n == 0)
        h->reader = pthread_self();
    else if (!pthread_equal(h->reader, pthread_self()))
        atomic_fetch_add(&h->readers_seen, 1);
    h->read_order[n] = index;
    raise_max(&h->max_payloads_held, atomic_fetch_add(&h->payloads_held, 1) + 1);
    if (index == h->read_block_at) {
        /* a read stuck on slow storage until the user interrupts */
        int waited = 0;
        while (!atomic_load(&h->cancel) && waited++ < 5000)
            sleep_us(1000);
        if (!atomic_load(&h->cancel))
            atomic_store(&h->read_block_timed_out, 1);
    }
    if (h->read_delay_us) {
        unsigned seed = index * 40503u;
        sleep_us(rand_r(&seed) % (unsigned)h->read_delay_us);
    }
    if (index == h->read_fail_at)
        return mp_error_set(err, MP_ERR_IO, "clip.MLV: offset %u: read failed", index * 100);
    h->payload[slot] = payload_value(index);
    return MP_OK;
}

static harness *harness_new(uint32_t threads, uint32_t window, uint32_t jobs)
{
    harness *h = calloc(1, sizeof *h);
    mp_pool_options opt = {threads, window, NULL};
    uint32_t t;
    mp_pool_resolve(&opt, jobs, &t, &h->window);
    h->slots = calloc(h->window, sizeof *h->slots);
    h->payload = calloc(h->window, sizeof *h->payload);
    h->fail_at[0] = h->fail_at[1] = h->deliver_fail_at = h->cancel_at = UINT32_MAX;
    h->read_fail_at = h->read_block_at = UINT32_MAX;
    return h;
}

static void harness_free(harness *h)
{
    free(h->slots);
    free(h->payload);
    free(h);
}

static mp_status run_pool(harness *h, uint32_t threads, uint32_t window, uint32_t jobs,
                          uint32_t *finished, mp_error *err)
{
    mp_pool_options opt = {threads, window, &h->cancel};
    mp_pool_callbacks cb = {h, ctx_create, ctx_destroy, run, deliver};
    return mp_pool_run(jobs, &opt, &cb, finished, err);
}

static mp_status run_reading_pool(harness *h, uint32_t threads, uint32_t window,
                                  uint32_t jobs, uint32_t *finished, mp_error *err)
{
    mp_pool_options opt = {threads, window, &h->cancel};
    mp_pool_callbacks cb = {h, ctx_create, ctx_destroy, run, deliver};
    return mp_pool_run_with_reader(jobs, &opt, &cb, read_input, finished, err);
}

static void delivers_in_order_within_window(void **state)
{
    (void)state;
    static const uint32_t threads[] = {1, 2, 4, 8};
    static const uint32_t windows[] = {0, 3, 16};
    for (size_t t = 0; t < 4; t++) {
        for (size_t w = 0; w < 3; w++) {
            uint32_t jobs = 120;
            harness *h = harness_new(threads[t], windows[w], jobs);
            h->delay_us = 300;
            uint32_t finished = 0;
            mp_error err = {0};
            assert_int_equal(run_pool(h, threads[t], windows[w], jobs, &finished, &err), MP_OK);
            assert_int_equal(finished, jobs);
            assert_int_equal(h->delivered_count, jobs);
            for (uint32_t i = 0; i < jobs; i++)
                assert_int_equal(h->delivered[i], i);
            assert_true(atomic_load(&h->max_in_flight) <= (int)h->window);
            assert_int_equal(atomic_load(&h->contexts_alive), 0);
            assert_true(atomic_load(&h->contexts_made) <= (int)threads[t]);
            harness_free(h);
        }
    }
}

static void window_is_reached_but_not_exceeded(void **state)
{
    (void)state;
    /* With one slow head job, the others pile up until the window is full. */
    harness *h = harness_new(4, 6, 200);
    h->delay_us = 2000;
    assert_int_equal(h->window, 6);
    assert_int_equal(run_pool(h, 4, 6, 200, NULL, NULL), MP_OK);
    assert_true(atomic_load(&h->max_in_flight) <= 6);
    assert_true(atomic_load(&h->max_in_flight) >= 2);
    harness_free(h);
}

static void resolve_bounds_threads_and_window(void **state)
{
    (void)state;
    uint32_t t, w;
    mp_pool_options opt = {8, 0, NULL};
    mp_pool_resolve(&opt, 3, &t, &w);
    assert_int_equal(t, 3);
    assert_int_equal(w, 6);
    opt.window = 1;
    mp_pool_resolve(&opt, 100, &t, &w);
    assert_int_equal(t, 8);
    assert_int_equal(w, 8);
    opt.threads = 100000;
    mp_pool_resolve(&opt, 1000000, &t, &w);
    assert_true(t <= 256 && w <= 4096 && w >= t);
    opt.threads = 0;
    mp_pool_resolve(&opt, 1000, &t, &w);
    assert_int_equal(t, mp_pool_cpu_count());
    mp_pool_resolve(&opt, 0, &t, &w);
    assert_int_equal(t, 1);
}

static void cancel_stops_starting_and_delivers_a_prefix(void **state)
{
    (void)state;
    for (uint32_t threads = 1; threads <= 4; threads *= 2) {
        harness *h = harness_new(threads, 0, 300);
        h->cancel_at = 10;
        h->delay_us = 200;
        uint32_t finished = 0;
        mp_error err = {0};
        assert_int_equal(run_pool(h, threads, 0, 300, &finished, &err), MP_ERR_INTERRUPTED);
        assert_int_equal(err.code, MP_ERR_INTERRUPTED);
        /* Every started job finished and was delivered, in order; nothing after the flag
         * except jobs already claimed by other threads. */
        assert_int_equal(finished, (uint32_t)atomic_load(&h->started));
        assert_int_equal(h->delivered_count, finished);
        assert_true(finished >= 11 && finished <= 10 + h->window);
        for (uint32_t i = 0; i < finished; i++)
            assert_int_equal(h->delivered[i], i);
        assert_int_equal(atomic_load(&h->contexts_alive), 0);
        harness_free(h);
    }
}

static void cancel_before_start_runs_nothing(void **state)
{
    (void)state;
    harness *h = harness_new(2, 0, 50);
    atomic_store(&h->cancel, 1);
    uint32_t finished = 99;
    assert_int_equal(run_pool(h, 2, 0, 50, &finished, NULL), MP_ERR_INTERRUPTED);
    assert_int_equal(finished, 0);
    assert_int_equal(atomic_load(&h->started), 0);
    harness_free(h);
}

static void lowest_failing_job_is_reported(void **state)
{
    (void)state;
    for (uint32_t threads = 1; threads <= 8; threads *= 2) {
        harness *h = harness_new(threads, 0, 200);
        h->fail_at[0] = 41;
        h->fail_at[1] = 40;
        h->delay_us = 100;
        uint32_t finished = 0;
        mp_error err = {0};
        assert_int_equal(run_pool(h, threads, 0, 200, &finished, &err), MP_ERR_DAMAGED);
        assert_string_equal(err.msg, "frame 40: damaged");
        assert_true(finished <= 40);
        assert_true(atomic_load(&h->started) <= 40 + (int)h->window);
        assert_int_equal(atomic_load(&h->contexts_alive), 0);
        harness_free(h);
    }
}

static void delivery_failure_stops_the_pool(void **state)
{
    (void)state;
    harness *h = harness_new(3, 0, 200);
    h->deliver_fail_at = 25;
    uint32_t finished = 0;
    mp_error err = {0};
    assert_int_equal(run_pool(h, 3, 0, 200, &finished, &err), MP_ERR_IO);
    assert_string_equal(err.msg, "out.wav: write failed at frame 25");
    assert_int_equal(finished, 25);
    assert_int_equal(h->delivered_count, 25);
    assert_true(atomic_load(&h->started) <= 25 + (int)h->window);
    harness_free(h);
}

static void context_failure_is_returned(void **state)
{
    (void)state;
    harness *h = harness_new(2, 0, 10);
    h->ctx_fail = 1;
    mp_error err = {0};
    assert_int_equal(run_pool(h, 2, 0, 10, NULL, &err), MP_ERR_NOMEM);
    assert_string_equal(err.msg, "no room for a workspace");
    assert_int_equal(atomic_load(&h->started), 0);
    harness_free(h);
}

static mp_status run_plain(void *user, void *ctx, uint32_t index, uint32_t slot, mp_error *err)
{
    (void)slot;
    (void)err;
    assert_null(ctx);
    atomic_fetch_add((atomic_int *)user, (int)index);
    return MP_OK;
}

static void pool_without_contexts_or_delivery(void **state)
{
    (void)state;
    atomic_int sum;
    atomic_init(&sum, 0);
    mp_pool_callbacks cb = {&sum, NULL, NULL, NULL, NULL};
    assert_int_equal(mp_pool_run(5, NULL, &cb, NULL, NULL), MP_ERR_ARG);
    cb.run = run_plain;
    uint32_t finished = 7;
    assert_int_equal(mp_pool_run(0, NULL, &cb, &finished, NULL), MP_OK);
    assert_int_equal(finished, 0);
    mp_pool_options opt = {3, 0, NULL};
    assert_int_equal(mp_pool_run(100, &opt, &cb, &finished, NULL), MP_OK);
    assert_int_equal(finished, 100);
    assert_int_equal(atomic_load(&sum), 99 * 100 / 2);
}

/* ---- the I/O stage ---- */

static void reader_feeds_jobs_in_order_through_the_ring(void **state)
{
    (void)state;
    static const uint32_t threads[] = {1, 2, 4};
    static const uint32_t windows[] = {0, 3, 9};
    for (size_t t = 0; t < 3; t++)
        for (size_t w = 0; w < 3; w++) {
            uint32_t jobs = 150;
            harness *h = harness_new(threads[t], windows[w], jobs);
            h->delay_us = 300;
            h->read_delay_us = 150;
            uint32_t finished = 0;
            mp_error err = {0};
            assert_int_equal(run_reading_pool(h, threads[t], windows[w], jobs, &finished, &err),
                             MP_OK);
            assert_int_equal(finished, jobs);
            assert_int_equal(atomic_load(&h->reads), (int)jobs);
            for (uint32_t i = 0; i < jobs; i++) {
                assert_int_equal(h->read_order[i], i);   /* one reader, in index order */
                assert_int_equal(h->delivered[i], i);
            }
            assert_int_equal(atomic_load(&h->readers_seen), 0);
            assert_int_equal(atomic_load(&h->bad_payloads), 0);
            assert_true(atomic_load(&h->max_payloads_held) <= (int)h->window);
            assert_int_equal(atomic_load(&h->payloads_held), 0);
            assert_int_equal(atomic_load(&h->contexts_alive), 0);
            harness_free(h);
        }
}

static void ring_fills_to_the_window_and_no_further(void **state)
{
    (void)state;
    /* Fast reads, slow jobs: the reader runs ahead until every slot holds an input. */
    harness *h = harness_new(2, 5, 120);
    h->delay_us = 3000;
    assert_int_equal(run_reading_pool(h, 2, 5, 120, NULL, NULL), MP_OK);
    assert_int_equal(atomic_load(&h->max_payloads_held), 5);
    assert_int_equal(atomic_load(&h->bad_payloads), 0);
    harness_free(h);
}

static void cancel_while_the_reader_waits_for_a_slot(void **state)
{
    (void)state;
    for (uint32_t threads = 1; threads <= 2; threads++) {
        harness *h = harness_new(threads, 4, 300);
        h->delay_us = 2000;            /* the ring is full most of the time */
        h->cancel_at = 12;
        uint32_t finished = 0;
        mp_error err = {0};
        assert_int_equal(run_reading_pool(h, threads, 4, 300, &finished, &err),
                         MP_ERR_INTERRUPTED);
        assert_int_equal(finished, (uint32_t)atomic_load(&h->started));
        assert_true(finished >= 13 && finished <= 12 + h->window);
        /* the reader stopped too: never more than a ring ahead of what was delivered */
        assert_true((uint32_t)atomic_load(&h->reads) <= finished + h->window);
        assert_int_equal(atomic_load(&h->bad_payloads), 0);
        assert_int_equal(atomic_load(&h->contexts_alive), 0);
        harness_free(h);
    }
}

static void *raise_cancel_later(void *arg)
{
    harness *h = arg;
    sleep_us(30000);
    atomic_store(&h->cancel, 1);       /* as a signal handler would: no wake-up call */
    return NULL;
}

static void cancel_while_the_reader_blocks_in_a_read(void **state)
{
    (void)state;
    harness *h = harness_new(2, 0, 100);
    h->read_block_at = 20;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, raise_cancel_later, h), 0);
    uint32_t finished = 0;
    mp_error err = {0};
    assert_int_equal(run_reading_pool(h, 2, 0, 100, &finished, &err), MP_ERR_INTERRUPTED);
    pthread_join(t, NULL);
    assert_int_equal(atomic_load(&h->read_block_timed_out), 0);
    /* the blocked read was the last one; no job at or after it ran */
    assert_int_equal(atomic_load(&h->reads), 21);
    assert_int_equal(atomic_load(&h->runs_past_block), 0);
    assert_true(finished <= 20);
    assert_int_equal(h->delivered_count, finished);
    assert_int_equal(atomic_load(&h->contexts_alive), 0);
    harness_free(h);
}

static void read_error_is_that_jobs_failure(void **state)
{
    (void)state;
    for (uint32_t threads = 1; threads <= 4; threads *= 2) {
        harness *h = harness_new(threads, 0, 200);
        h->read_fail_at = 30;
        h->fail_at[0] = 31;            /* later than the read failure: not reported */
        h->delay_us = 200;
        uint32_t finished = 0;
        mp_error err = {0};
        assert_int_equal(run_reading_pool(h, threads, 0, 200, &finished, &err), MP_ERR_IO);
        assert_string_equal(err.msg, "clip.MLV: offset 3000: read failed");
        assert_int_equal(atomic_load(&h->reads), 31);   /* nothing read after the failure */
        assert_int_equal(atomic_load(&h->started), 30); /* every job before it ran, none after */
        assert_true(finished <= 30);
        assert_int_equal(atomic_load(&h->bad_payloads), 0);
        assert_int_equal(atomic_load(&h->contexts_alive), 0);
        harness_free(h);

        /* an earlier job's own failure wins over a later read failure, whatever the timing */
        h = harness_new(threads, 0, 200);
        h->read_fail_at = 30;
        h->fail_at[0] = 29;
        h->delay_us = 200;
        assert_int_equal(run_reading_pool(h, threads, 0, 200, &finished, &err), MP_ERR_DAMAGED);
        assert_string_equal(err.msg, "frame 29: damaged");
        harness_free(h);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(delivers_in_order_within_window),
        cmocka_unit_test(window_is_reached_but_not_exceeded),
        cmocka_unit_test(resolve_bounds_threads_and_window),
        cmocka_unit_test(cancel_stops_starting_and_delivers_a_prefix),
        cmocka_unit_test(cancel_before_start_runs_nothing),
        cmocka_unit_test(lowest_failing_job_is_reported),
        cmocka_unit_test(delivery_failure_stops_the_pool),
        cmocka_unit_test(context_failure_is_returned),
        cmocka_unit_test(pool_without_contexts_or_delivery),
        cmocka_unit_test(reader_feeds_jobs_in_order_through_the_ring),
        cmocka_unit_test(ring_fills_to_the_window_and_no_further),
        cmocka_unit_test(cancel_while_the_reader_waits_for_a_slot),
        cmocka_unit_test(cancel_while_the_reader_blocks_in_a_read),
        cmocka_unit_test(read_error_is_that_jobs_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
