/* mlvpipe_format_at, mlvpipe_format_find: the public face of pipeline/formats.h, made once. */
#include "api_internal.h"

#include <pthread.h>
#include <string.h>

#include "pipeline/formats.h"

_Static_assert((int)MLVPIPE_FORMAT_AUDIO_BESIDE == (int)MP_AUDIO_BESIDE &&
               (int)MLVPIPE_FORMAT_AUDIO_MUXED == (int)MP_AUDIO_MUXED &&
               (int)MLVPIPE_FORMAT_AUDIO_NONE == (int)MP_AUDIO_NONE, "audio mirrors formats.h");

static mlvpipe_format table[MP_FORMAT_MAX];
static size_t table_size;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void make_table(void)
{
    const mp_format *f;
    for (; (f = mp_format_at(table_size)); table_size++)
        table[table_size] = (mlvpipe_format){
            .name = f->name,
            .summary = f->summary,
            .container = f->container,
            .extension = f->extension,
            .developed = f->input == MP_INPUT_RGB,
            .sequence = f->sequence,
            .to_stdout = f->to_stdout,
            .joinable = f->joinable,
            .audio = (mlvpipe_format_audio)f->audio,
            .prores = f->prores,
        };
}

const mlvpipe_format *mlvpipe_format_at(size_t i)
{
    pthread_once(&table_once, make_table);
    return i < table_size ? &table[i] : NULL;
}

const mlvpipe_format *mlvpipe_format_find(const char *name)
{
    const mlvpipe_format *f;
    for (size_t i = 0; name && (f = mlvpipe_format_at(i)); i++)
        if (!strcmp(f->name, name))
            return f;
    return NULL;
}
