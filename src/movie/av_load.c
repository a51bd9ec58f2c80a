#include "movie/av_load.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/macros.h>

mp_libav_table mp_libav;

enum { AVUTIL, AVCODEC, AVFORMAT, LIB_COUNT };

/* The major versions this build was compiled against: only those sonames share its ABI. */
static const struct {
    const char *soname;
    const char *package;   /* Debian's name for the package holding it */
} libs[LIB_COUNT] = {
    [AVUTIL] = {"libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
                "libavutil" AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR)},
    [AVCODEC] = {"libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
                 "libavcodec" AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR)},
    [AVFORMAT] = {"libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
                  "libavformat" AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR)},
};

static const struct {
    int lib;
    const char *name;
    size_t offset;
} functions[] = {
#define MP_LIBAV_ENTRY(lib, name) {lib, #name, offsetof(mp_libav_table, name)},
    MP_LIBAV_FUNCTIONS(MP_LIBAV_ENTRY)
#undef MP_LIBAV_ENTRY
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static mp_error load_error;   /* code stays MP_OK when loading worked */

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int loaded;            /* under log_lock: the table may be called */
static mp_libav_log_fn log_fn;

static void *open_lib(int lib)
{
    const char *dir = getenv("MLVPIPE_AV_LIBDIR");
    if (!dir || !*dir)
        return dlopen(libs[lib].soname, RTLD_NOW | RTLD_LOCAL);
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, libs[lib].soname) >= (int)sizeof path)
        return NULL;
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

static void install_log(void)
{
    mp_libav.av_log_set_callback(log_fn ? log_fn : mp_libav.av_log_default_callback);
}

/* The libraries stay loaded until exit: libav keeps process-wide state (the log callback,
 * codec tables) that outlives any one movie. */
static void load(void)
{
    void *handle[LIB_COUNT];
    for (int i = 0; i < LIB_COUNT; i++) {
        if (!(handle[i] = open_lib(i))) {
            const char *why = dlerror();
            mp_error_set(&load_error, MP_ERR_IO,
                         "%s (install %s: movies, join, EXR and report pictures need it)",
                         why ? why : libs[i].soname, libs[i].package);
            return;
        }
    }
    mp_libav_table table;
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
        void *fn = dlsym(handle[functions[i].lib], functions[i].name);
        if (!fn) {
            mp_error_set(&load_error, MP_ERR_IO, "%s has no function %s: it is not the %s "
                         "this build needs", libs[functions[i].lib].soname, functions[i].name,
                         libs[functions[i].lib].package);
            return;
        }
        memcpy((char *)&table + functions[i].offset, &fn, sizeof fn);
    }
    pthread_mutex_lock(&log_lock);
    mp_libav = table;
    loaded = 1;
    install_log();
    pthread_mutex_unlock(&log_lock);
}

mp_status mp_libav_load(mp_error *err)
{
    pthread_once(&load_once, load);
    if (load_error.code == MP_OK)
        return MP_OK;
    return mp_error_set(err, load_error.code, "%s", load_error.msg);
}

void mp_libav_set_log_callback(mp_libav_log_fn fn)
{
    pthread_mutex_lock(&log_lock);
    log_fn = fn;
    if (loaded)
        install_log();
    pthread_mutex_unlock(&log_lock);
}
