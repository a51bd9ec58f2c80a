#include "out_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Nonzero if path exists (any kind of file, even a dangling link). */
static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

mp_status out_file_open(out_file *f, const char *path, int overwrite, mp_error *err)
{
    memset(f, 0, sizeof *f);
    if (!overwrite && exists(path))
        return mp_error_set(err, MP_ERR_IO, "%s: exists (use --overwrite to replace it)", path);
    size_t n = strlen(path);
    f->path = malloc(n + 1);
    f->tmp_path = malloc(n + sizeof ".partial");
    if (!f->path || !f->tmp_path) {
        out_file_abort(f);
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
    }
    memcpy(f->path, path, n + 1);
    memcpy(f->tmp_path, path, n);
    memcpy(f->tmp_path + n, ".partial", sizeof ".partial");
    /* O_EXCL: a leftover .partial from a crashed run is replaced, but only by us. */
    unlink(f->tmp_path);
    int fd = open(f->tmp_path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0 || !(f->fp = fdopen(fd, "wb"))) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        mp_status st = mp_error_set(err, MP_ERR_IO, "%s: %s", f->tmp_path, strerror(e));
        free(f->path);
        free(f->tmp_path);
        memset(f, 0, sizeof *f);
        return st;
    }
    f->overwrite = overwrite;
    return MP_OK;
}

mp_status out_file_write(out_file *f, const void *data, size_t len, mp_error *err)
{
    if (len && fwrite(data, 1, len, f->fp) != len)
        return mp_error_set(err, MP_ERR_IO, "%s: offset %llu: write failed: %s", f->tmp_path,
                            (unsigned long long)f->size, strerror(errno));
    f->size += len;
    return MP_OK;
}

mp_status out_file_pwrite(out_file *f, uint64_t offset, const void *data, size_t len,
                          mp_error *err)
{
    if (offset + len > f->size)
        return mp_error_set(err, MP_ERR_ARG, "%s: patch at %llu past the written data",
                            f->tmp_path, (unsigned long long)offset);
    if (fflush(f->fp) != 0 || pwrite(fileno(f->fp), data, len, (off_t)offset) != (ssize_t)len)
        return mp_error_set(err, MP_ERR_IO, "%s: offset %llu: write failed: %s", f->tmp_path,
                            (unsigned long long)offset, strerror(errno));
    return MP_OK;
}

mp_status out_file_cut(out_file *f, uint64_t bytes, mp_error *err)
{
    if (bytes > f->size)
        return mp_error_set(err, MP_ERR_ARG, "%s: cannot cut %llu bytes from a %llu-byte file",
                            f->path, (unsigned long long)bytes, (unsigned long long)f->size);
    uint64_t keep = f->size - bytes;
    if (fflush(f->fp) != 0 || ftruncate(fileno(f->fp), (off_t)keep) != 0 ||
        fseeko(f->fp, (off_t)keep, SEEK_SET) != 0)
        return mp_error_set(err, MP_ERR_IO, "%s: truncate failed: %s", f->tmp_path,
                            strerror(errno));
    f->size = keep;
    return MP_OK;
}

mp_status out_file_finish(out_file *f, mp_error *err)
{
    FILE *fp = f->fp;
    f->fp = NULL;
    if (fclose(fp) != 0) {
        mp_status st = mp_error_set(err, MP_ERR_IO, "%s: write failed: %s", f->tmp_path,
                                    strerror(errno));
        out_file_abort(f);
        return st;
    }
    /* RENAME_NOREPLACE closes the window between the existence check in open and now. */
    if (renameat2(AT_FDCWD, f->tmp_path, AT_FDCWD, f->path,
                  f->overwrite ? 0 : RENAME_NOREPLACE) != 0) {
        mp_status st = mp_error_set(err, MP_ERR_IO, "%s: rename from %s failed: %s", f->path,
                                    f->tmp_path, strerror(errno));
        out_file_abort(f);
        return st;
    }
    free(f->path);
    free(f->tmp_path);
    memset(f, 0, sizeof *f);
    return MP_OK;
}

void out_file_abort(out_file *f)
{
    if (f->fp)
        fclose(f->fp);
    if (f->tmp_path)
        unlink(f->tmp_path);
    free(f->path);
    free(f->tmp_path);
    memset(f, 0, sizeof *f);
}

char *out_file_chunk_name(const char *first, uint32_t index)
{
    size_t n = strlen(first);
    if (n < 2 || index > 100)
        return NULL;
    char *s = malloc(n + 1);
    if (!s)
        return NULL;
    memcpy(s, first, n + 1);
    if (index > 0) {
        s[n - 2] = (char)('0' + (index - 1) / 10);
        s[n - 1] = (char)('0' + (index - 1) % 10);
    }
    return s;
}

mp_status out_file_check_series_end(const char *first, uint32_t count, int overwrite,
                                    mp_error *err)
{
    for (uint32_t i = count; i <= 100; i++) {
        char *name = out_file_chunk_name(first, i);
        if (!name)
            return mp_error_set(err, MP_ERR_NOMEM, "out of memory");
        int found = exists(name);
        mp_status st = MP_OK;
        if (found && !overwrite)
            st = mp_error_set(err, MP_ERR_IO, "%s: exists and would become part of the clip "
                              "(use --overwrite to delete it)", name);
        else if (found && unlink(name) != 0)
            st = mp_error_set(err, MP_ERR_IO, "%s: cannot delete: %s", name, strerror(errno));
        free(name);
        if (st || !found)
            return st;
    }
    return MP_OK;
}
