/* The clip's damage list, filled while the chunks are walked and the index is built, and the
 * file names its messages carry: what the indexing files (mlv_chunks.c, mlv_index.c,
 * mlv_build.c, mlv_plausible.c) all report through. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlv_internal.h"

const char *mp_mlv_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void mp_mlv_add_damage(mlv_clip *c, mlv_damage_kind kind, uint32_t chunk, uint64_t offset,
                    const char *fmt, ...)
{
    char raw[sizeof c->damage->message], line[sizeof c->damage->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    mp_escape_controls(raw, line, sizeof line);
    mp_log(&c->log, MP_LOG_WARNING, "%s", line);
    c->damage_seen++;

    if (c->info.damage_count >= MLV_DAMAGE_MAX) {
        c->info.damage_omitted++;
        return;
    }
    if (c->info.damage_count == c->damage_cap) {
        uint32_t cap = c->damage_cap ? 2 * c->damage_cap : 8;
        mlv_damage *d = realloc(c->damage, cap * sizeof *d);
        if (!d) {
            c->info.damage_omitted++;
            return;
        }
        c->damage = d;
        c->damage_cap = cap;
    }
    mlv_damage *d = &c->damage[c->info.damage_count++];
    d->kind = kind;
    d->chunk = chunk;
    d->offset = offset;
    memcpy(d->message, line, sizeof d->message);
}
