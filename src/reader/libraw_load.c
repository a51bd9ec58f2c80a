#include "libraw_load.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MP_STR_(x) #x
#define MP_STR(x) MP_STR_(x)
/* the thread-safe build of the major version this build was compiled against */
#define LIBRAW_SONAME "libraw_r.so." MP_STR(LIBRAW_SHLIB_CURRENT)
#define LIBRAW_PACKAGE "libraw" MP_STR(LIBRAW_SHLIB_CURRENT)

mp_libraw_table mp_libraw;

static const struct {
    const char *name;
    size_t offset;
} functions[] = {
#define MP_LIBRAW_ENTRY(name) {#name, offsetof(mp_libraw_table, name)},
    MP_LIBRAW_FUNCTIONS(MP_LIBRAW_ENTRY)
#undef MP_LIBRAW_ENTRY
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static mp_error load_error;   /* code stays MP_OK when loading worked */

static void *open_lib(void)
{
    const char *dir = getenv("MLVPIPE_LIBRAW_LIBDIR");
    if (!dir || !*dir)
        return dlopen(LIBRAW_SONAME, RTLD_NOW | RTLD_LOCAL);
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, LIBRAW_SONAME) >= (int)sizeof path)
        return NULL;
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

/* The library stays loaded until exit (it holds no state between files, but unloading it
 * under a thread still decoding would be a crash for no gain). */
static void load(void)
{
    void *handle = open_lib();
    if (!handle) {
        const char *why = dlerror();
        mp_error_set(&load_error, MP_ERR_IO, "%s (install %s: raw photos need it)",
                     why ? why : LIBRAW_SONAME, LIBRAW_PACKAGE);
        return;
    }
    mp_libraw_table table;
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
        void *fn = dlsym(handle, functions[i].name);
        if (!fn) {
            mp_error_set(&load_error, MP_ERR_IO, "%s has no function %s: it is not the %s this "
                         "build needs", LIBRAW_SONAME, functions[i].name, LIBRAW_PACKAGE);
            return;
        }
        memcpy((char *)&table + functions[i].offset, &fn, sizeof fn);
    }
    mp_libraw = table;
}

mp_status mp_libraw_load(mp_error *err)
{
    pthread_once(&load_once, load);
    if (load_error.code == MP_OK)
        return MP_OK;
    return mp_error_set(err, load_error.code, "%s", load_error.msg);
}
