/* reader/libraw_load: LibRaw, loaded at run time (not a public header).
 *
 * The reader compiles against LibRaw's headers (the libraw_data_t layout, constants) and calls
 * its functions through one table filled by mp_libraw_load(): dlopen of the thread-safe
 * library of the major version the headers name (libraw_r.so.20 on Debian 12), every function
 * resolved once. Why at run time: doc/architecture.md 3 (LibRaw). */
#ifndef MP_LIBRAW_LOAD_H
#define MP_LIBRAW_LOAD_H

#include <libraw/libraw.h>

#include "common/mp_status.h"

#define MP_LIBRAW_FUNCTIONS(X) \
    X(libraw_init) X(libraw_open_buffer) X(libraw_unpack) \
    X(libraw_strerror) X(libraw_set_dataerror_handler) X(libraw_version)

typedef struct mp_libraw_table {
#define MP_LIBRAW_MEMBER(name) __typeof__(&name) name;
    MP_LIBRAW_FUNCTIONS(MP_LIBRAW_MEMBER)
#undef MP_LIBRAW_MEMBER
} mp_libraw_table;

/* Valid after mp_libraw_load() returned MP_OK. */
extern mp_libraw_table mp_libraw;

/* Loads LibRaw once (thread-safe). A missing library or function is MP_ERR_IO naming it and
 * the Debian package to install; MLVPIPE_LIBRAW_LIBDIR names a folder to load it from. */
mp_status mp_libraw_load(mp_error *err);

#endif
