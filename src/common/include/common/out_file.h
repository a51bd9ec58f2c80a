/* out_file: a file written under a temporary name in its final folder and renamed
 * when complete, so a reader (or a resumed farm job) never sees a partial final file.
 * The temporary name is ".<final name>.<pid>-<n>.part", hidden from sequence globs.
 * Errors name the path and the cause (ENOSPC, EACCES, ...). Thread-safe per object. */
#ifndef MP_OUT_FILE_H
#define MP_OUT_FILE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "common/mp_status.h"

typedef struct mp_out_file {
    int fd;                          /* -1 when closed */
    int overwrite;
    char final_path[PATH_MAX];
    char temp_path[PATH_MAX];
} mp_out_file;

/* Creates the temporary file. Fails early (MP_ERR_IO, "exists") when the final file exists
 * and overwrite is 0; the final rename re-checks without a race. Refuses (MP_ERR_ARG) a final
 * path that mp_out_check_target refuses. */
mp_status mp_out_open(mp_out_file *f, const char *final_path, int overwrite, mp_error *err);
/* Appends len bytes (retrying short writes and EINTR). */
mp_status mp_out_write(mp_out_file *f, const void *buf, size_t len, mp_error *err);
/* Writes len bytes at offset (to patch headers). */
mp_status mp_out_pwrite(mp_out_file *f, const void *buf, size_t len, uint64_t offset,
                        mp_error *err);
/* Closes (optionally after fsync) and renames to the final name; fsyncs the folder too when
 * asked. On failure the temporary file is removed. */
mp_status mp_out_commit(mp_out_file *f, int do_fsync, mp_error *err);
/* Closes and removes the temporary file. Safe to call twice. */
void mp_out_abort(mp_out_file *f);

/* A whole file from one buffer: open, write and commit as above, nothing left on failure. */
mp_status mp_out_write_file(const char *final_path, const void *buf, size_t len, int overwrite,
                            int do_fsync, mp_error *err);

/* Marks path (which must exist) as an input of this process: mp_out_open, mp_out_commit and
 * mp_out_check_target then refuse to replace it, comparing device and inode (not names), so
 * no output spelled like an input, or a link to it, can destroy it. Process-wide and
 * thread-safe; marks last until the process ends. */
mp_status mp_out_protect(const char *path, mp_error *err);
/* MP_ERR_ARG when final_path (links followed) is a protected input, or exists and is not a
 * regular file (a device, FIFO or folder that a rename would replace); MP_OK otherwise. */
mp_status mp_out_check_target(const char *final_path, mp_error *err);

/* Removes the temporaries that killed processes left in folder for the final names that
 * ours() accepts (1): those whose pid is not a running process, or is one that started after
 * the file last changed (a reused pid). Returns how many. A folder that cannot be listed
 * (missing, not a folder) holds none. */
uint32_t mp_out_sweep(const char *folder, int (*ours)(void *opaque, const char *final_name),
                      void *opaque);

/* Creates a folder (one level) unless it exists as a folder. */
mp_status mp_make_dir(const char *path, mp_error *err);

#endif
