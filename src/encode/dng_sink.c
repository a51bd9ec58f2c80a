/* The "dng" sink: PATH/<folder>/<frame name>.dng per frame (naming.h), each file complete
 * on its own, so frames may be written from several threads and in any order. */
#include <limits.h>
#include <stdatomic.h>

#include "encode/dng.h"
#include "encode/naming.h"

typedef struct dng_sink {
    mp_sink_params p;
    char folder[PATH_MAX];
    atomic_uint_fast64_t levels;     /* black << 32 | white of the first frame, + 1; 0: none */
    atomic_flag warned;
} dng_sink;

/* Levels that change within a clip make it flicker and break Resolve (doc/cinemadng.md 1.5);
 * producing constant levels is the caller's job, so this only warns, once. */
static void check_levels(dng_sink *s, const mp_frame *f)
{
    uint_fast64_t mine = ((uint_fast64_t)f->black << 32 | f->white) + 1, first = 0;
    if (atomic_compare_exchange_strong(&s->levels, &first, mine) || first == mine)
        return;
    if (!atomic_flag_test_and_set(&s->warned))
        mp_log(&s->p.log, MP_LOG_WARNING, "%s: frame %u has black/white %u/%u, unlike earlier "
               "frames (%u/%u): levels should stay constant over a clip", s->p.clip_name,
               f->number, f->black, f->white, (unsigned)((first - 1) >> 32),
               (unsigned)((first - 1) & 0xFFFFFFFFu));
}

static mp_status dng_open(void *priv, const char *path, const mp_sink_params *p, mp_error *err)
{
    dng_sink *s = priv;
    s->p = *p;
    return mp_sequence_folder_open(path, p, s->folder, err);
}

static mp_status dng_write_frame(void *priv, const mp_frame *f, const mp_frame_meta *m,
                                 mp_error *err)
{
    dng_sink *s = priv;
    char path[PATH_MAX];
    mp_status st = mp_sequence_frame_path(s->folder, &s->p, f->number, path, err);
    if (st == MP_OK)
        st = mp_dng_write_file(path, f, m, &s->p, err);
    if (st == MP_OK)
        check_levels(s, f);
    return st;
}

const mp_sink_ops mp_sink_dng = {
    .name = "dng",
    .priv_size = sizeof(dng_sink),
    .concurrent_frames = 1,
    .open = dng_open,
    .write_frame = dng_write_frame,
};   /* no finish or abort: each file is committed when written, or removed on failure */
