/* The "dng" sink: PATH/<folder>/<frame name>.dng per frame (naming.h), each file complete
 * on its own, so frames may be written from several threads and in any order. */
#include <limits.h>

#include "dng.h"
#include "naming.h"
#include "out_file.h"
#include "timecode.h"

typedef struct dng_sink {
    mp_sink_params p;
    char folder[PATH_MAX];
} dng_sink;

static mp_status dng_open(void *priv, const char *path, const mp_sink_params *p, mp_error *err)
{
    dng_sink *s = priv;
    s->p = *p;
    char name[MP_NAME_MAX];
    mp_rational fps;
    mp_status st = mp_naming_check(p, err);
    if (st == MP_OK)  /* a bad rate should fail here, not at every frame */
        st = mp_sink_fps(p, &fps, err);
    if (st != MP_OK)
        return st;
    mp_name_folder(p, name);
    if (path && *path && (st = mp_make_dir(path, err)) != MP_OK)
        return st;
    st = mp_path_join(s->folder, sizeof s->folder, path, name, err);
    if (st == MP_OK)
        st = mp_make_dir(s->folder, err);
    return st;
}

static mp_status dng_write_frame(void *priv, const mp_frame *f, const mp_frame_meta *m,
                                 mp_error *err)
{
    const dng_sink *s = priv;
    char name[MP_NAME_MAX], path[PATH_MAX];
    mp_name_frame(&s->p, f->number, name);
    mp_status st = mp_path_join(path, sizeof path, s->folder, name, err);
    if (st == MP_OK)
        st = mp_dng_write_file(path, f, m, &s->p, err);
    return st;
}

static mp_status dng_finish(void *priv, mp_error *err)
{
    (void)priv;
    (void)err;
    return MP_OK;   /* every frame was committed when it was written */
}

static void dng_abort(void *priv)
{
    (void)priv;     /* a failed frame removes its own temporary file */
}

const mp_sink_ops mp_sink_dng = {
    .name = "dng",
    .priv_size = sizeof(dng_sink),
    .concurrent_frames = 1,
    .open = dng_open,
    .write_frame = dng_write_frame,
    .finish = dng_finish,
    .abort = dng_abort,
};
