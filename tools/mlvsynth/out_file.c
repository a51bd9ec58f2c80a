#include "out_file.h"

#include <errno.h>
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
    f->size = 0;
    return mp_out_open(&f->file, path, overwrite, err);
}

mp_status out_file_write(out_file *f, const void *data, size_t len, mp_error *err)
{
    mp_status st = mp_out_write(&f->file, data, len, err);
    if (st == MP_OK)
        f->size += len;
    return st;
}

mp_status out_file_pwrite(out_file *f, uint64_t offset, const void *data, size_t len,
                          mp_error *err)
{
    if (offset + len > f->size)
        return mp_error_set(err, MP_ERR_ARG, "%s: patch at %llu past the written data",
                            f->file.final_path, (unsigned long long)offset);
    return mp_out_pwrite(&f->file, data, len, offset, err);
}

mp_status out_file_cut(out_file *f, uint64_t bytes, mp_error *err)
{
    if (bytes > f->size)
        return mp_error_set(err, MP_ERR_ARG, "%s: cannot cut %llu bytes from a %llu-byte file",
                            f->file.final_path, (unsigned long long)bytes,
                            (unsigned long long)f->size);
    uint64_t keep = f->size - bytes;
    if (ftruncate(f->file.fd, (off_t)keep) != 0 ||
        lseek(f->file.fd, (off_t)keep, SEEK_SET) != (off_t)keep)
        return mp_error_set(err, MP_ERR_IO, "%s: truncate failed: %s", f->file.temp_path,
                            strerror(errno));
    f->size = keep;
    return MP_OK;
}

mp_status out_file_finish(out_file *f, mp_error *err)
{
    return mp_out_commit(&f->file, 0, err);
}

void out_file_abort(out_file *f)
{
    mp_out_abort(&f->file);
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
