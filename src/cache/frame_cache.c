#include "cache/frame_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdatomic.h>
#include <lz4hc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/mp_read.h"
#include "common/out_file.h"
#include "cache/entry.h"

struct mp_cache {
    char *dir;
    mp_cache_options opt;
    atomic_uint_least64_t hits, misses, rejected, puts;
};

void mp_cache_options_default(mp_cache_options *o)
{
    memset(o, 0, sizeof *o);
    o->shuffle = MP_CACHE_SHUFFLE_BITS;
    o->hc_level = 0;
}

void mp_cache_scratch_free(mp_cache_scratch *s)
{
    free(s->plane);
    free(s->entry);
    free(s->hc_state);
    memset(s, 0, sizeof *s);
}

/* mkdir -p: each missing component in turn. */
static mp_status make_dirs(const char *dir, mp_error *err)
{
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return mp_error_set(err, MP_ERR_ARG, "%s: path too long", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        mp_status st = mp_make_dir(path, err);
        *p = '/';
        if (st != MP_OK)
            return st;
    }
    return mp_make_dir(path, err);
}

mp_status mp_cache_open(mp_cache **out, const char *dir, const mp_cache_options *opt,
                        mp_error *err)
{
    *out = NULL;
    mp_cache_options o;
    if (opt)
        o = *opt;
    else
        mp_cache_options_default(&o);
    if (!dir || !*dir)
        return mp_error_set(err, MP_ERR_ARG, "cache: no folder given");
    if ((unsigned)o.shuffle >= MP_CACHE_SHUFFLE_COUNT || o.hc_level < 0 ||
        o.hc_level > LZ4HC_CLEVEL_MAX)
        return mp_error_set(err, MP_ERR_ARG, "cache: shuffle %d / HC level %d unknown",
                            (int)o.shuffle, o.hc_level);
    mp_status st = make_dirs(dir, err);
    if (st != MP_OK)
        return st;
    mp_cache *c = calloc(1, sizeof *c);
    if (!c || !(c->dir = strdup(dir))) {
        free(c);
        return mp_error_set(err, MP_ERR_NOMEM, "cache: out of memory");
    }
    c->opt = o;
    atomic_init(&c->hits, 0);
    atomic_init(&c->misses, 0);
    atomic_init(&c->rejected, 0);
    atomic_init(&c->puts, 0);
    *out = c;
    return MP_OK;
}

void mp_cache_get_stats(mp_cache *c, mp_cache_stats *out)
{
    out->hits = atomic_load(&c->hits);
    out->misses = atomic_load(&c->misses);
    out->rejected = atomic_load(&c->rejected);
    out->puts = atomic_load(&c->puts);
}

void mp_cache_close(mp_cache *c)
{
    if (!c)
        return;
    free(c->dir);
    free(c);
}

/* The entry file of a key, or (with_file 0) the folder of its clip and settings. */
static mp_status format_path(const mp_cache *c, const mp_cache_key *key, int with_file,
                             char *buf, size_t size, mp_error *err)
{
    int n = with_file ? snprintf(buf, size, "%s/%016" PRIx64 "-%016" PRIx64 "/%08" PRIu32
                                 ".mpc", c->dir, key->clip_guid, key->settings_hash,
                                 key->frame)
                      : snprintf(buf, size, "%s/%016" PRIx64 "-%016" PRIx64, c->dir,
                                 key->clip_guid, key->settings_hash);
    if (n < 0 || (size_t)n >= size)
        return mp_error_set(err, MP_ERR_ARG, "cache: %s: entry path too long", c->dir);
    return MP_OK;
}

mp_status mp_cache_entry_path(const mp_cache *c, const mp_cache_key *key, char *buf,
                              size_t size, mp_error *err)
{
    return format_path(c, key, 1, buf, size, err);
}

static int key_equal(const mp_cache_key *a, const mp_cache_key *b)
{
    return a->clip_guid == b->clip_guid && a->frame == b->frame &&
           a->settings_hash == b->settings_hash;
}

/* Reads and checks the entry in fd; MP_ERR_NOMEM is the only status that is not "unusable". */
static mp_status read_entry(int fd, const char *path, const mp_cache_key *key, mp_frame *out,
                            mp_cache_scratch *s, mp_error *err)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0)
        return mp_error_set(err, MP_ERR_IO, "%s: stat failed: %s", path, strerror(errno));
    uint8_t header[MP_CACHE_HEADER_SIZE];
    ssize_t got = mp_pread_full(fd, header, sizeof header, 0);
    if (got < 0)
        return mp_error_set(err, MP_ERR_IO, "%s: offset 0: read failed: %s", path,
                            strerror(errno));
    /* A short read means the file shrank under us: judge it by what was read. */
    uint64_t size = (uint64_t)got < sizeof header ? (uint64_t)got : (uint64_t)sb.st_size;
    mp_cache_entry_info info;
    mp_status st = mp_cache_entry_parse_header(header, size, path, &info, err);
    if (st != MP_OK)
        return st;
    if (!key_equal(&info.key, key))
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset 8: entry holds another key "
                            "(stale)", path);
    if ((st = mp_cache_reserve(&s->entry, &s->entry_cap, info.packed_size, err)) != MP_OK)
        return st;
    got = mp_pread_full(fd, s->entry, info.packed_size, MP_CACHE_HEADER_SIZE);
    if (got < 0)
        return mp_error_set(err, MP_ERR_IO, "%s: offset %u: read failed: %s", path,
                            MP_CACHE_HEADER_SIZE, strerror(errno));
    if ((uint64_t)got != info.packed_size)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: truncated", path,
                            (unsigned long long)(MP_CACHE_HEADER_SIZE + (uint64_t)got));
    return mp_cache_entry_decode(&info, s->entry, path, s, out, err);
}

mp_status mp_cache_get(mp_cache *c, const mp_cache_key *key, mp_frame *out, int *hit,
                       mp_cache_scratch *s, mp_error *err)
{
    *hit = 0;
    char path[PATH_MAX];
    mp_status st = format_path(c, key, 1, path, sizeof path, err);
    if (st != MP_OK)
        return st;
    /* Non-blocking, so that a FIFO in place of an entry is rejected, not waited on. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    int open_errno = fd < 0 ? errno : 0;
    struct stat sb;
    if (fd >= 0 && (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))) {
        close(fd);
        fd = -1;
        open_errno = EINVAL;
    }
    if (fd < 0) {
        if (open_errno != ENOENT)
            mp_log(&c->opt.log, MP_LOG_WARNING, "%s: cannot open: %s (recomputing)", path,
                   open_errno == EINVAL ? "not a regular file" : strerror(open_errno));
        atomic_fetch_add(&c->misses, 1);
        return MP_OK;
    }
    mp_error why = {0};
    st = read_entry(fd, path, key, out, s, &why);
    close(fd);
    if (st == MP_ERR_NOMEM)
        return mp_error_set(err, st, "%s", why.msg);
    if (st != MP_OK) {
        mp_log(&c->opt.log, MP_LOG_WARNING, "%s (recomputing)", why.msg);
        atomic_fetch_add(&c->misses, 1);
        atomic_fetch_add(&c->rejected, 1);
        return MP_OK;
    }
    atomic_fetch_add(&c->hits, 1);
    *hit = 1;
    return MP_OK;
}

mp_status mp_cache_put(mp_cache *c, const mp_cache_key *key, const mp_frame *f,
                       mp_cache_scratch *s, mp_error *err)
{
    char path[PATH_MAX];
    size_t size = 0;
    mp_status st = mp_cache_entry_encode(key, f, c->opt.shuffle, c->opt.hc_level, s, &size,
                                         err);
    if (st == MP_OK)
        st = format_path(c, key, 0, path, sizeof path, err);
    if (st == MP_OK)
        st = mp_make_dir(path, err);
    if (st == MP_OK)
        st = format_path(c, key, 1, path, sizeof path, err);
    if (st != MP_OK)
        return st;
    mp_out_file file;
    if ((st = mp_out_open(&file, path, 1, err)) != MP_OK)
        return st;
    if ((st = mp_out_write(&file, s->entry, size, err)) != MP_OK) {
        mp_out_abort(&file);
        return st;
    }
    if ((st = mp_out_commit(&file, 0, err)) == MP_OK)
        atomic_fetch_add(&c->puts, 1);
    return st;
}
