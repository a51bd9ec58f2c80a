/* Rendered frames of the mount (mount.h): one LRU list of whole DNG files, shared by the
 * readers (who copy the part they asked for) and the prefetch threads (who render what a
 * sequential reader will ask for next). A frame is rendered once however many readers want
 * it at the same time: the others wait for it, at most MOUNT_WAIT_S. At most `threads`
 * renders for readers and `threads` for prefetch run at once, which bounds the library's
 * per-render memory as the LRU bounds the frames', and a reader never waits for the
 * prefetch of frames it did not ask for. */
#include "mount.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

/* A read gives EIO rather than wait longer than this for its frame (seconds). */
#define MOUNT_WAIT_S 30
/* Prefetch requests waiting at most; later ones are dropped (a reader that moved on). */
#define QUEUE_MAX 256

typedef enum entry_state { ENTRY_RENDERING, ENTRY_READY, ENTRY_FAILED } entry_state;

typedef struct entry {
    mount_clip *clip;
    uint32_t item;
    uint64_t size;
    uint8_t *data;
    entry_state state;
    int refs;                    /* readers copying from it, or waiting for it */
    struct entry *prev, *next;   /* most recently used first */
} entry;

typedef struct request {
    mount_clip *clip;
    uint32_t item;
    uint64_t size;
} request;

struct mount_cache {
    pthread_mutex_t lock;
    pthread_cond_t changed;      /* an entry was rendered, a render slot freed */
    pthread_cond_t work;         /* a prefetch request came, or stop */
    entry *head, *tail;
    uint64_t bytes, limit;
    uint32_t rendering[2], max_rendering;   /* renders under way: [0] readers, [1] prefetch */
    request queue[QUEUE_MAX];
    uint32_t queue_first, queue_count;
    pthread_t *threads;
    uint32_t thread_count;
    int stop;
};

static void deadline_in(struct timespec *t, int seconds)
{
    clock_gettime(CLOCK_REALTIME, t);
    t->tv_sec += seconds;
}

static entry *find(const mount_cache *c, const mount_clip *clip, uint32_t item)
{
    for (entry *e = c->head; e; e = e->next)
        if (e->clip == clip && e->item == item)
            return e;
    return NULL;
}

static void unlink_entry(mount_cache *c, entry *e)
{
    *(e->prev ? &e->prev->next : &c->head) = e->next;
    *(e->next ? &e->next->prev : &c->tail) = e->prev;
    e->prev = e->next = NULL;
}

static void push_front(mount_cache *c, entry *e)
{
    e->next = c->head;
    e->prev = NULL;
    *(c->head ? &c->head->prev : &c->tail) = e;
    c->head = e;
}

static void drop(mount_cache *c, entry *e)
{
    unlink_entry(c, e);
    c->bytes -= e->size;
    free(e->data);
    free(e);
}

/* Least recently used frames nobody reads go until the cache is within its limit. */
static void evict(mount_cache *c)
{
    for (entry *e = c->tail, *prev; e && c->bytes > c->limit; e = prev) {
        prev = e->prev;
        if (!e->refs && e->state != ENTRY_RENDERING)
            drop(c, e);
    }
}

/* Renders e (lock held on entry and on return, released while rendering); prefetch: for a
 * prefetch thread, not a reader. */
static int render(mount_cache *c, entry *e, int prefetch)
{
    struct timespec until;
    deadline_in(&until, MOUNT_WAIT_S);
    int waited = 0;
    while (c->rendering[prefetch] >= c->max_rendering && waited != ETIMEDOUT)
        waited = pthread_cond_timedwait(&c->changed, &c->lock, &until);
    int rc = 0;
    mlvpipe_error err;
    if (waited == ETIMEDOUT) {
        snprintf(err.message, sizeof err.message, "no render slot within %d s", MOUNT_WAIT_S);
        rc = -EIO;
    }
    if (!rc) {
        c->rendering[prefetch]++;
        pthread_mutex_unlock(&c->lock);
        uint8_t *data = malloc(e->size ? e->size : 1);
        mlvpipe_status st = data ? mlvpipe_frames_read(e->clip->frames, e->item, 0, data,
                                                       e->size, &err)
                                 : MLVPIPE_ERR_NOMEM;
        if (!data)
            snprintf(err.message, sizeof err.message, "out of memory");
        if (st != MLVPIPE_OK) {
            free(data);
            data = NULL;
            rc = -EIO;
        }
        pthread_mutex_lock(&c->lock);
        c->rendering[prefetch]--;
        e->data = data;
    }
    if (rc)
        cli_log(MLVPIPE_LOG_ERROR, "mount: %s/item %u: %s", e->clip->folder, e->item,
                err.message);
    e->state = rc ? ENTRY_FAILED : ENTRY_READY;
    pthread_cond_broadcast(&c->changed);
    return rc;
}

/* The entry of the frame, rendered (a reference held), under the lock: 0 or -EIO. */
static int acquire(mount_cache *c, mount_clip *clip, uint32_t item, uint64_t size, int prefetch,
                   entry **out)
{
    entry *e = find(c, clip, item);
    if (e) {
        e->refs++;
        unlink_entry(c, e);
        push_front(c, e);
        struct timespec until;
        deadline_in(&until, MOUNT_WAIT_S);
        int waited = 0;
        while (e->state == ENTRY_RENDERING && waited != ETIMEDOUT)
            waited = pthread_cond_timedwait(&c->changed, &c->lock, &until);
        *out = e;
        return e->state == ENTRY_READY ? 0 : -EIO;
    }
    if (!(e = calloc(1, sizeof *e)))
        return -ENOMEM;
    *e = (entry){.clip = clip, .item = item, .size = size, .refs = 1};
    push_front(c, e);
    c->bytes += size;
    *out = e;
    return render(c, e, prefetch);
}

static void release(mount_cache *c, entry *e)
{
    if (--e->refs == 0 && e->state == ENTRY_FAILED)
        drop(c, e);   /* the next read tries again */
    evict(c);
}

int mount_cache_read(mount_cache *c, mount_clip *clip, uint32_t item, uint64_t size, char *buf,
                     size_t n, uint64_t offset)
{
    entry *e = NULL;
    pthread_mutex_lock(&c->lock);
    int rc = acquire(c, clip, item, size, 0, &e);
    if (!rc) {
        pthread_mutex_unlock(&c->lock);   /* the reference keeps the data */
        memcpy(buf, e->data + offset, n);
        pthread_mutex_lock(&c->lock);
    }
    if (e)
        release(c, e);
    pthread_mutex_unlock(&c->lock);
    return rc;
}

void mount_cache_prefetch(mount_cache *c, mount_clip *clip, uint32_t item, uint64_t size)
{
    pthread_mutex_lock(&c->lock);
    int known = find(c, clip, item) != NULL;
    for (uint32_t k = 0; k < c->queue_count && !known; k++) {
        const request *r = &c->queue[(c->queue_first + k) % QUEUE_MAX];
        known = r->clip == clip && r->item == item;
    }
    if (!known && c->queue_count < QUEUE_MAX) {
        c->queue[(c->queue_first + c->queue_count++) % QUEUE_MAX] = (request){clip, item, size};
        pthread_cond_signal(&c->work);
    }
    pthread_mutex_unlock(&c->lock);
}

static void *prefetcher(void *arg)
{
    mount_cache *c = arg;
    pthread_mutex_lock(&c->lock);
    for (;;) {
        while (!c->stop && !c->queue_count)
            pthread_cond_wait(&c->work, &c->lock);
        if (c->stop)
            break;
        request r = c->queue[c->queue_first];
        c->queue_first = (c->queue_first + 1) % QUEUE_MAX;
        c->queue_count--;
        entry *e = NULL;
        if (find(c, r.clip, r.item))
            continue;
        acquire(c, r.clip, r.item, r.size, 1, &e);
        if (e)
            release(c, e);
    }
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

mount_cache *mount_cache_new(uint32_t cache_mb, uint32_t threads)
{
    mount_cache *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->changed, NULL);
    pthread_cond_init(&c->work, NULL);
    c->limit = (uint64_t)cache_mb << 20;
    c->max_rendering = threads ? threads : 1;
    c->threads = calloc(c->max_rendering, sizeof *c->threads);
    for (uint32_t i = 0; c->threads && i < c->max_rendering; i++)
        if (!pthread_create(&c->threads[i], NULL, prefetcher, c))
            c->thread_count++;
    return c;
}

void mount_cache_free(mount_cache *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->lock);
    c->stop = 1;
    pthread_cond_broadcast(&c->work);
    pthread_mutex_unlock(&c->lock);
    for (uint32_t i = 0; i < c->thread_count; i++)
        pthread_join(c->threads[i], NULL);
    while (c->head)
        drop(c, c->head);
    free(c->threads);
    pthread_cond_destroy(&c->work);
    pthread_cond_destroy(&c->changed);
    pthread_mutex_destroy(&c->lock);
    free(c);
}
