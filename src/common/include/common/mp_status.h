/* mp_status: error codes and messages shared by every mlvpipe library module.
 * A library function that can fail returns an mp_status and, when given an mp_error,
 * fills it with one line naming the file, the byte offset (where one applies) and the
 * cause, e.g. "clip.MLV: offset 123456: VIDF frameSpace 9999 past block end".
 * The library never prints and never exits; it logs through an mp_log callback. */
#ifndef MP_STATUS_H
#define MP_STATUS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef enum mp_status {
    MP_OK = 0,
    MP_ERR_ARG,          /* caller passed something impossible */
    MP_ERR_IO,           /* open/read/write/rename failed */
    MP_ERR_FORMAT,       /* not a file of the expected kind */
    MP_ERR_UNSUPPORTED,  /* a valid file using a feature we do not decode */
    MP_ERR_DAMAGED,      /* truncated or corrupt data */
    MP_ERR_NOMEM,        /* allocation failed or a size exceeded our bounds */
    MP_ERR_INTERRUPTED,  /* cancelled by the caller (signal, closed pipe) */
    MP_ERR_RANGE         /* index or frame number out of range */
} mp_status;

#define MP_ERROR_MAX 512

typedef struct mp_error {
    mp_status code;
    char msg[MP_ERROR_MAX];
} mp_error;

/* Sets err (if non-NULL) and returns code, so callers can write
 * `return mp_error_set(err, MP_ERR_IO, "%s: %s", path, strerror(errno));` */
mp_status mp_error_set(mp_error *err, mp_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
mp_status mp_error_setv(mp_error *err, mp_status code, const char *fmt, va_list ap);

const char *mp_status_name(mp_status code);

/* Copies src into dst (size bytes, NUL-terminated, cut short if need be) with every control
 * character and DEL written as \xNN, so that what a file says (a camera name with escape
 * sequences, a file name with a newline) can neither drive a terminal nor forge a line.
 * mp_error_set and mp_log apply it to every message. */
void mp_escape_controls(const char *src, char *dst, size_t size);

typedef enum mp_log_level { MP_LOG_ERROR, MP_LOG_WARNING, MP_LOG_INFO, MP_LOG_DEBUG } mp_log_level;

/* The one way the library talks to the user. opaque is the caller's pointer. */
typedef void (*mp_log_fn)(void *opaque, mp_log_level level, const char *msg);

typedef struct mp_logger {
    mp_log_fn fn;   /* NULL: messages are dropped */
    void *opaque;
} mp_logger;

void mp_log(const mp_logger *log, mp_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
