#include "pipeline/stale.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/out_file.h"
#include "encode/naming.h"
#include "analysis/levels_io.h"

typedef struct name_set {
    uint64_t *hashes;       /* sorted */
    uint32_t count;
} name_set;

static uint64_t name_hash(const char *name)
{
    return mp_fnv1a64(name, strlen(name), MP_FNV1A64_SEED);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A 64-bit hash per name: a collision (a temporary of another run taken as ours) is out of
 * reach, and the set stays small for long sequences. */
static int in_set(void *opaque, const char *final_name)
{
    const name_set *s = opaque;
    uint64_t h = name_hash(final_name);
    return s->count && bsearch(&h, s->hashes, s->count, sizeof h, cmp_u64) != NULL;
}

mp_status mp_stale_sweep_sequence(const char *folder, const mp_sink_params *p,
                                  const uint32_t *indices, const uint32_t *numbers,
                                  uint32_t count, int with_audio, uint32_t *removed,
                                  mp_error *err)
{
    name_set s = {malloc(((size_t)count + 1) * sizeof *s.hashes), 0};
    if (!s.hashes)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", folder);
    char name[MP_NAME_MAX];
    for (uint32_t i = 0; i < count; i++) {
        mp_name_frame(p, numbers[indices[i]], name);
        s.hashes[s.count++] = name_hash(name);
    }
    if (with_audio) {
        mp_name_audio(p, name);
        s.hashes[s.count++] = name_hash(name);
    }
    qsort(s.hashes, s.count, sizeof *s.hashes, cmp_u64);
    *removed = mp_out_sweep(folder, in_set, &s);
    free(s.hashes);
    return MP_OK;
}

static int same_name(void *opaque, const char *final_name)
{
    return !strcmp(opaque, final_name);
}

uint32_t mp_stale_sweep_file(const char *path)
{
    char folder[PATH_MAX];
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (n >= sizeof folder)
        return 0;   /* too long to be written either */
    memcpy(folder, path, n);
    folder[n] = 0;
    return mp_out_sweep(slash ? (n ? folder : "/") : ".", same_name,
                        (void *)(slash ? slash + 1 : path));
}
