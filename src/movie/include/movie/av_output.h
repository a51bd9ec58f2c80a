/* movie/av_output: the byte sink under libavformat, an AVIOContext of our own.
 *
 * A path is written through common/out_file (a temporary name in the final folder, renamed by
 * mp_av_output_commit; an existing final file is an error unless overwrite), seekable so MOV can
 * write its index at the end. "-" is standard output, not seekable. Writes to a pipe whose
 * reader has gone fail with EPIPE instead of killing the process: SIGPIPE is blocked in the
 * writing thread for the duration of the write and a SIGPIPE raised by it is consumed, so the
 * process's signal dispositions are left alone. The first failure is kept as an mp_error with
 * the cause (e.g. "stdout: offset 1048576: pipe closed by the reader"). */
#ifndef MP_AV_OUTPUT_H
#define MP_AV_OUTPUT_H

#include <stdint.h>

#include <libavformat/avio.h>

#include "common/mp_status.h"
#include "common/out_file.h"

typedef struct mp_av_output {
    AVIOContext *pb;
    int is_stdout;
    mp_out_file file;        /* when !is_stdout */
    uint64_t position;       /* bytes written to stdout (for messages) */
    int failed;
    mp_error error;          /* the first write/seek failure */
} mp_av_output;

/* Zero-initialise o first. */
mp_status mp_av_output_open(mp_av_output *o, const char *path, int overwrite, mp_error *err);
/* Flushes the buffer; for a file closes and renames it into place. */
mp_status mp_av_output_commit(mp_av_output *o, mp_error *err);
/* Frees the context and removes a temporary file. Safe on a zeroed or closed output. */
void mp_av_output_abort(mp_av_output *o);
/* The name to use in messages: the final path or "stdout". */
const char *mp_av_output_name(const mp_av_output *o);

/* A libav failure as one line "NAME: WHAT: libav's reason" (MP_ERR_NOMEM for ENOMEM, else
 * MP_ERR_IO). When o (may be NULL) recorded a write failure, that error is returned instead:
 * it says more than libav's EIO. */
mp_status mp_av_output_fail(const mp_av_output *o, int averr, const char *name, const char *what,
                         mp_error *err);

#endif
