/* out_file: an output file of mlvsynth, written through common/out_file.h (under a hidden
 * temporary name, renamed to its final name only when complete, so a reader never sees a
 * half-written clip under a real clip name; without overwrite, an existing final name is
 * never replaced), plus what a synthetic clip needs besides: the bytes written so far, cutting
 * the end off (a truncated recording), and the names of a spanned clip's chunks. */
#ifndef MLVSYNTH_OUT_FILE_H
#define MLVSYNTH_OUT_FILE_H

#include <stdint.h>

#include "common/mp_status.h"
#include "common/out_file.h"

typedef struct out_file {
    mp_out_file file;
    uint64_t size;    /* bytes written so far */
} out_file;

/* Fails with MP_ERR_IO if path exists and overwrite is 0. */
mp_status out_file_open(out_file *f, const char *path, int overwrite, mp_error *err);
mp_status out_file_write(out_file *f, const void *data, size_t len, mp_error *err);
/* Overwrites bytes already written (header fields patched after the fact). */
mp_status out_file_pwrite(out_file *f, uint64_t offset, const void *data, size_t len,
                          mp_error *err);
/* Drops the last `bytes` bytes written (simulates a truncated recording). */
mp_status out_file_cut(out_file *f, uint64_t bytes, mp_error *err);
/* Flushes, closes and renames to the final name. */
mp_status out_file_finish(out_file *f, mp_error *err);
/* Closes and deletes the temporary file (after an error). Safe on a closed file. */
void out_file_abort(out_file *f);

/* Name of chunk `index` of a spanned clip whose first file is `first`: index 0 is `first`,
 * index k >= 1 replaces the last two characters by k - 1 in two digits (.MLV -> .M00,
 * .RAW -> .R00). malloc'ed; NULL when out of memory or the name is too short. */
char *out_file_chunk_name(const char *first, uint32_t index);

/* A spanned clip of `count` files starting at `first` must not be followed by an existing
 * chunk name (a reader would take it as part of the clip). With overwrite such leftovers of
 * an earlier, longer clip are deleted (up to the first missing name); without, it fails. */
mp_status out_file_check_series_end(const char *first, uint32_t count, int overwrite,
                                    mp_error *err);

#endif
