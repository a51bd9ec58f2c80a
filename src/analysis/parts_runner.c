/* parts_runner: rawfix's passes over a segment's sums on the pre-pass's threads (see
 * parts_runner.h). */
#include "parts_runner.h"

#include <pthread.h>
#include <stdatomic.h>

enum { MAX_HELPERS = 63 };

typedef struct parts_run {
    void (*fn)(void *ctx, uint32_t part);
    void *ctx;
    uint32_t parts;
    atomic_uint next;
} parts_run;

static void *take_parts(void *user)
{
    parts_run *r = user;
    for (uint32_t p; (p = atomic_fetch_add(&r->next, 1)) < r->parts;)
        r->fn(r->ctx, p);
    return NULL;
}

/* The calling thread takes parts too; a helper that cannot be started leaves its parts to
 * the others, so every part runs once whatever happens. */
static void run_parts(void *opaque, uint32_t parts, void (*fn)(void *ctx, uint32_t part),
                      void *ctx)
{
    const uint32_t *threads = opaque;
    parts_run r = {fn, ctx, parts, 0};
    pthread_t helper[MAX_HELPERS];
    uint32_t started = 0, want = *threads < parts ? *threads : parts;
    want = want > MAX_HELPERS + 1 ? MAX_HELPERS + 1 : want;
    while (started + 1 < want && pthread_create(&helper[started], NULL, take_parts, &r) == 0)
        started++;
    take_parts(&r);
    for (uint32_t k = 0; k < started; k++)
        pthread_join(helper[k], NULL);
}

rawfix_runner mp_parts_runner(uint32_t *threads)
{
    return (rawfix_runner){run_parts, threads};
}
