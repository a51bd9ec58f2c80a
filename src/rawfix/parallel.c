/* mp_rawfix_parallel: the map's per-sample passes split over threads (rawfix_priv.h). */
#include <pthread.h>
#include <stdatomic.h>

#include "rawfix_priv.h"

typedef struct parallel_run {
    void (*fn)(void *ctx, uint32_t part);
    void *ctx;
    uint32_t parts;
    atomic_uint next;
} parallel_run;

static void *take_parts(void *user)
{
    parallel_run *r = user;
    for (uint32_t p; (p = atomic_fetch_add(&r->next, 1)) < r->parts;)
        r->fn(r->ctx, p);
    return NULL;
}

void mp_rawfix_parallel(uint32_t threads, uint32_t parts, void (*fn)(void *ctx, uint32_t part),
                        void *ctx)
{
    enum { MAX_HELPERS = 63 };
    parallel_run r = {fn, ctx, parts, 0};
    pthread_t helper[MAX_HELPERS];
    uint32_t started = 0, want = threads < parts ? threads : parts;
    want = want > MAX_HELPERS + 1 ? MAX_HELPERS + 1 : want;
    /* a helper that cannot be started leaves its parts to the others */
    while (started + 1 < want && pthread_create(&helper[started], NULL, take_parts, &r) == 0)
        started++;
    take_parts(&r);
    for (uint32_t k = 0; k < started; k++)
        pthread_join(helper[k], NULL);
}
