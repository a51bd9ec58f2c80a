#include "common/out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static atomic_uint temp_counter;

/* The most one write() call takes. A write of 2 MiB or more lets the page cache take whole
 * 2 MiB folios (ext4's large folios), which a virtual machine that hands free memory back to
 * its host must fault in again from the host: 1.2-2.0 s of system time for 48 4-MB DNGs on
 * the development VM, against 0.05-0.07 s in writes of 1 MiB (doc/benchmarks.md 12). */
#define WRITE_MAX ((size_t)1 << 20)

typedef struct file_id {
    dev_t dev;
    ino_t ino;
} file_id;

static pthread_mutex_t protected_lock = PTHREAD_MUTEX_INITIALIZER;
static file_id *protected_ids;
static size_t protected_count, protected_cap;

mp_status mp_out_protect(const char *path, mp_error *err)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return mp_error_set(err, MP_ERR_IO, "%s: %s", path, strerror(errno));
    mp_status st = MP_OK;
    pthread_mutex_lock(&protected_lock);
    size_t i = 0;
    while (i < protected_count &&
           (protected_ids[i].dev != sb.st_dev || protected_ids[i].ino != sb.st_ino))
        i++;
    if (i == protected_count && protected_count == protected_cap) {
        size_t cap = protected_cap ? 2 * protected_cap : 16;
        file_id *p = realloc(protected_ids, cap * sizeof *p);
        if (p) {
            protected_ids = p;
            protected_cap = cap;
        } else {
            st = mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
        }
    }
    if (st == MP_OK && i == protected_count)
        protected_ids[protected_count++] = (file_id){sb.st_dev, sb.st_ino};
    pthread_mutex_unlock(&protected_lock);
    return st;
}

static int is_protected(const struct stat *sb)
{
    int found = 0;
    pthread_mutex_lock(&protected_lock);
    for (size_t i = 0; i < protected_count && !found; i++)
        found = protected_ids[i].dev == sb->st_dev && protected_ids[i].ino == sb->st_ino;
    pthread_mutex_unlock(&protected_lock);
    return found;
}

mp_status mp_out_check_target(const char *final_path, mp_error *err)
{
    struct stat sb;
    if (stat(final_path, &sb) != 0)
        return MP_OK;
    if (is_protected(&sb))
        return mp_error_set(err, MP_ERR_ARG, "%s: is an input of this run; not writing over it",
                            final_path);
    if (!S_ISREG(sb.st_mode))
        return mp_error_set(err, MP_ERR_ARG, "%s: exists and is not a regular file; not "
                            "replacing it", final_path);
    return MP_OK;
}

mp_status mp_out_open(mp_out_file *f, const char *final_path, int overwrite, mp_error *err)
{
    f->fd = -1;
    f->overwrite = overwrite;
    f->temp_path[0] = 0;
    if (snprintf(f->final_path, sizeof f->final_path, "%s", final_path) >=
        (int)sizeof f->final_path)
        return mp_error_set(err, MP_ERR_ARG, "%s: path too long", final_path);

    const char *slash = strrchr(final_path, '/');
    int dir_len = slash ? (int)(slash - final_path + 1) : 0;
    const char *name = final_path + dir_len;
    unsigned n = atomic_fetch_add(&temp_counter, 1);
    if (snprintf(f->temp_path, sizeof f->temp_path, "%.*s.%s.%ld-%u.part", dir_len,
                 final_path, name, (long)getpid(), n) >= (int)sizeof f->temp_path)
        return mp_error_set(err, MP_ERR_ARG, "%s: path too long", final_path);

    mp_status st = mp_out_check_target(final_path, err);
    if (st != MP_OK || (!overwrite && access(final_path, F_OK) == 0)) {
        f->temp_path[0] = 0;
        return st != MP_OK ? st : mp_error_set(err, MP_ERR_IO, "%s: exists (not overwriting)",
                                               final_path);
    }
    f->fd = open(f->temp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (f->fd < 0) {
        int e = errno;
        f->temp_path[0] = 0;
        return mp_error_set(err, MP_ERR_IO, "%s: cannot create: %s", final_path, strerror(e));
    }
    return MP_OK;
}

mp_status mp_out_write(mp_out_file *f, const void *buf, size_t len, mp_error *err)
{
    const uint8_t *p = buf;
    while (len) {
        ssize_t n = write(f->fd, p, len < WRITE_MAX ? len : WRITE_MAX);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            int e = n < 0 ? errno : ENOSPC;
            off_t at = lseek(f->fd, 0, SEEK_CUR);
            return mp_error_set(err, MP_ERR_IO, "%s: offset %lld: write failed: %s",
                                f->final_path, (long long)at, strerror(e));
        }
        p += n;
        len -= (size_t)n;
    }
    return MP_OK;
}

mp_status mp_out_pwrite(mp_out_file *f, const void *buf, size_t len, uint64_t offset,
                        mp_error *err)
{
    const uint8_t *p = buf;
    while (len) {
        ssize_t n = pwrite(f->fd, p, len, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return mp_error_set(err, MP_ERR_IO, "%s: offset %llu: write failed: %s",
                                f->final_path, (unsigned long long)offset,
                                strerror(n < 0 ? errno : ENOSPC));
        p += n;
        len -= (size_t)n;
        offset += (uint64_t)n;
    }
    return MP_OK;
}

static void fsync_parent(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    int fd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);  /* best effort: some file systems refuse fsync on folders */
        close(fd);
    }
}

/* rename() that refuses to replace an existing file. Falls back to check-then-rename on file
 * systems without RENAME_NOREPLACE. */
static int rename_noreplace(const char *from, const char *to)
{
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    if (access(to, F_OK) == 0) {
        errno = EEXIST;
        return -1;
    }
    return rename(from, to);
}

mp_status mp_out_commit(mp_out_file *f, int do_fsync, mp_error *err)
{
    const char *what = NULL;
    int e = 0;
    if (do_fsync && fsync(f->fd) != 0) {
        what = "fsync";
        e = errno;
    }
    /* close() reports delayed write errors (NFS, quotas): it must succeed too. */
    if (close(f->fd) != 0 && !what) {
        what = "close";
        e = errno;
    }
    f->fd = -1;
    mp_error refused = {0};
    if (!what && mp_out_check_target(f->final_path, &refused) != MP_OK) {
        mp_out_abort(f);
        if (err)
            *err = refused;
        return refused.code;
    }
    if (!what) {
        int r = f->overwrite ? rename(f->temp_path, f->final_path)
                             : rename_noreplace(f->temp_path, f->final_path);
        if (r != 0) {
            what = "rename";
            e = errno;
        }
    }
    if (what) {
        mp_out_abort(f);
        if (e == EEXIST)
            return mp_error_set(err, MP_ERR_IO, "%s: exists (not overwriting)", f->final_path);
        return mp_error_set(err, MP_ERR_IO, "%s: %s failed: %s", f->final_path, what,
                            strerror(e));
    }
    f->temp_path[0] = 0;
    if (do_fsync)
        fsync_parent(f->final_path);
    return MP_OK;
}

void mp_out_abort(mp_out_file *f)
{
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
    if (f->temp_path[0])
        unlink(f->temp_path);
    f->temp_path[0] = 0;
}

mp_status mp_out_write_file(const char *final_path, const void *buf, size_t len, int overwrite,
                            int do_fsync, mp_error *err)
{
    mp_out_file f;
    mp_status st = mp_out_open(&f, final_path, overwrite, err);
    if (st == MP_OK)
        st = mp_out_write(&f, buf, len, err);
    if (st == MP_OK)
        st = mp_out_commit(&f, do_fsync, err);
    else
        mp_out_abort(&f);
    return st;
}

mp_status mp_make_dir(const char *path, mp_error *err)
{
    if (mkdir(path, 0777) == 0)
        return MP_OK;
    int e = errno;
    struct stat st;
    if (e == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return MP_OK;
    if (e == EEXIST)
        return mp_error_set(err, MP_ERR_IO, "%s: exists and is not a folder", path);
    return mp_error_set(err, MP_ERR_IO, "%s: cannot create folder: %s", path, strerror(e));
}
