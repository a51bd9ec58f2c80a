#include "common/mp_status.h"

#include <stdio.h>

void mp_escape_controls(const char *src, char *dst, size_t size)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (; *src && n + 1 < size; src++) {
        unsigned char ch = (unsigned char)*src;
        if (ch >= 0x20 && ch != 0x7f) {
            dst[n++] = (char)ch;
            continue;
        }
        if (n + 5 > size)
            break;
        dst[n++] = '\\';
        dst[n++] = 'x';
        dst[n++] = hex[ch >> 4];
        dst[n++] = hex[ch & 15];
    }
    if (size)
        dst[n] = 0;
}

mp_status mp_error_setv(mp_error *err, mp_status code, const char *fmt, va_list ap)
{
    if (err) {
        char line[MP_ERROR_MAX];
        err->code = code;
        vsnprintf(line, sizeof line, fmt, ap);
        mp_escape_controls(line, err->msg, sizeof err->msg);
    }
    return code;
}

mp_status mp_error_set(mp_error *err, mp_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mp_error_setv(err, code, fmt, ap);
    va_end(ap);
    return code;
}

const char *mp_status_name(mp_status code)
{
    switch (code) {
    case MP_OK: return "ok";
    case MP_ERR_ARG: return "invalid argument";
    case MP_ERR_IO: return "I/O error";
    case MP_ERR_FORMAT: return "unrecognised format";
    case MP_ERR_UNSUPPORTED: return "unsupported";
    case MP_ERR_DAMAGED: return "damaged data";
    case MP_ERR_NOMEM: return "out of memory";
    case MP_ERR_INTERRUPTED: return "interrupted";
    case MP_ERR_RANGE: return "out of range";
    }
    return "unknown error";
}

void mp_log(const mp_logger *log, mp_log_level level, const char *fmt, ...)
{
    if (!log || !log->fn)
        return;
    char line[MP_ERROR_MAX], escaped[MP_ERROR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    mp_escape_controls(line, escaped, sizeof escaped);
    log->fn(log->opaque, level, escaped);
}
