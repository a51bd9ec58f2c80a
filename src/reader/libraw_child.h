/* reader/libraw_child: LibRaw run in a child process (not a public header).
 *
 * LibRaw parses and decodes files we do not trust, and a bug of LibRaw's (a crash, a loop
 * without end) must cost the photo it reads, never the process that converts others beside it
 * (doc/stills.md 7). So every call into LibRaw that reads a photo happens in a child forked
 * for that one call: the child identifies the photo (and unpacks it when asked), writes what
 * LibRaw found into a memory file and exits; the parent reads the answer back, or reports
 * how the child ended. Why fork is safe here though the caller may be one of many threads,
 * and what it costs: doc/stills.md 7. */
#ifndef MP_LIBRAW_CHILD_H
#define MP_LIBRAW_CHILD_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "libraw_load.h"

/* What one run of LibRaw found. */
typedef struct mp_libraw_run {
    uint32_t done;              /* the child's mark that it finished (internal) */
    int open_rc;                /* libraw_open_buffer's return (LIBRAW_SUCCESS, ...) */
    int unpack_rc;              /* libraw_unpack's (LIBRAW_SUCCESS when not asked) */
    int data_error;             /* 1: LibRaw's data-error callback was called */
    int data_error_offset;      /* its first offset (-1: reading past the end of the file) */
    int raw_mosaic;             /* 1: LibRaw unpacked a mosaic (rawdata.raw_image) */
    int mosaic_copied;          /* 1: the mosaic was handed back (its size as asked, rows
                                 * of at least its width) */
    int has_taken;              /* 1: `taken` holds other.timestamp as local calendar time */
    struct tm taken;
    /* LibRaw's state after the last step, for its values: the pointers in it are the child's
     * (image and rawdata are cleared), and strings the parent reads are terminated. */
    libraw_data_t lr;
} mp_libraw_run;

/* Runs LibRaw on the photo `name` held in bytes[0..size): libraw_open_buffer, and when mosaic
 * is not NULL libraw_unpack and the raw_width x raw_height samples into mosaic (only when
 * they are width x height, else mosaic_copied stays 0). *run gets a new mp_libraw_run (free()
 * it) when the child answered: MP_OK, LibRaw's own verdicts in its fields. A child that
 * crashed, hung or spent more than its CPU budget (MLVPIPE_LIBRAW_CPU_SECONDS, default 30) is
 * MP_ERR_DAMAGED with one line naming the file (and the offset of LibRaw's first data error
 * when it had one); MP_ERR_IO / MP_ERR_NOMEM when no child could be started. LibRaw must be
 * loaded (mp_libraw_load) first. */
mp_status mp_libraw_child_run(const char *name, const uint8_t *bytes, size_t size,
                              uint16_t *mosaic, uint32_t width, uint32_t height,
                              mp_libraw_run **run, mp_error *err);

#endif
