/* mlvpipe_frames_*: the public face of pipeline/frames.h. The handle keeps its own copy of
 * the settings and of their strings, since the options point into them. */
#include "api_internal.h"

#include <stdlib.h>
#include <string.h>

#include "encode/naming.h"
#include "pipeline/frames.h"

_Static_assert(MLVPIPE_NAME_MAX == MP_NAME_MAX, "names fit MP_NAME_MAX");

/* The settings' strings, copied (NULL stays NULL). */
enum { S_INPUT, S_FRAMES, S_LEVELS, S_CACHE, S_TOOL, S_DARK, S_DEFECTS, S_LEVELS_CACHE, S_COUNT };

struct mlvpipe_frames {
    mlvpipe_convert_settings s;
    char *text[S_COUNT];
    mp_convert_options o;
    mp_frames *frames;
};

static int keep(mlvpipe_frames *h, int k, const char **field)
{
    if (!*field)
        return 1;
    if (!(h->text[k] = strdup(*field)))
        return 0;
    *field = h->text[k];
    return 1;
}

mlvpipe_status mlvpipe_frames_open_sized(mlvpipe_frames **out, const mlvpipe_convert_settings *given,
                                         size_t size, const char *levels_cache,
                                         mlvpipe_error *err)
{
    *out = NULL;
    mlvpipe_frames *h = calloc(1, sizeof *h);
    mp_error e;
    if (!h)
        return mp_api_status(mp_error_set(&e, MP_ERR_NOMEM, "frames: out of memory"), &e, err);
    mlvpipe_default_convert_settings_sized(&h->s, sizeof h->s);
    mlvpipe_status st = mp_api_settings_in(&h->s, sizeof h->s, given, size,
                                           MP_API_END(mlvpipe_convert_settings, defects_from),
                                           "frames", err);
    if (st != MLVPIPE_OK) {
        free(h);
        return st;
    }
    mlvpipe_convert_settings *s = &h->s;
    const char *lc = levels_cache ? levels_cache : s->cache_dir;
    s->progress = NULL;
    if (!keep(h, S_INPUT, &s->input) || !keep(h, S_FRAMES, &s->frames) ||
        !keep(h, S_LEVELS, &s->levels_path) || !keep(h, S_CACHE, &s->cache_dir) ||
        !keep(h, S_TOOL, &s->tool) || !keep(h, S_DARK, &s->dark) ||
        !keep(h, S_DEFECTS, &s->defects_from) || !keep(h, S_LEVELS_CACHE, &lc)) {
        mlvpipe_frames_close(h);
        return mp_api_status(mp_error_set(&e, MP_ERR_NOMEM, "frames: out of memory"), &e, err);
    }
    mp_convert_options_default(&h->o);
    mp_api_convert_options(s, &h->o);
    if (!s->input) {
        mlvpipe_frames_close(h);
        return mp_api_status(mp_error_set(&e, MP_ERR_ARG, "frames: no input"), &e, err);
    }
    mp_status ms = mp_frames_open(&h->frames, &h->o, lc, &e);
    if (ms != MP_OK) {
        mlvpipe_frames_close(h);
        return mp_api_status(ms, &e, err);
    }
    *out = h;
    return MLVPIPE_OK;
}

void mlvpipe_frames_close(mlvpipe_frames *h)
{
    if (!h)
        return;
    mp_frames_close(h->frames);
    for (int k = 0; k < S_COUNT; k++)
        free(h->text[k]);
    free(h);
}

uint32_t mlvpipe_frames_count(const mlvpipe_frames *h)
{
    return mp_frames_count(h->frames);
}

int mlvpipe_frames_is_audio(const mlvpipe_frames *h, uint32_t i)
{
    return mp_frames_is_audio(h->frames, i);
}

void mlvpipe_frames_folder(const mlvpipe_frames *h, char *name)
{
    mp_frames_folder(h->frames, name);
}

void mlvpipe_frames_name(const mlvpipe_frames *h, uint32_t i, char *name)
{
    mp_frames_name(h->frames, i, name);
}

mlvpipe_status mlvpipe_frames_size(mlvpipe_frames *h, uint32_t i, uint64_t *size,
                                   mlvpipe_error *err)
{
    mp_error e;
    return mp_api_status(mp_frames_size(h->frames, i, size, &e), &e, err);
}

mlvpipe_status mlvpipe_frames_read(mlvpipe_frames *h, uint32_t i, uint64_t offset, void *buf,
                                   size_t n, mlvpipe_error *err)
{
    mp_error e;
    return mp_api_status(mp_frames_read(h->frames, i, offset, buf, n, &e), &e, err);
}
