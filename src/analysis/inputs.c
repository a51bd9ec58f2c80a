#include "analysis/inputs.h"

#include "common/out_file.h"

/* A path that cannot be marked (missing chunk, absent sidecar) is reported by whoever reads
 * it; only running out of memory stops the run here. */
mp_status mp_protect_inputs(const mlv_clip *clip, const char *levels_path, mp_error *err)
{
    const char *path;
    mp_error e;
    for (uint32_t i = 0; (path = mp_mlv_clip_path(clip, i)); i++)
        if (mp_out_protect(path, &e) == MP_ERR_NOMEM)
            return mp_error_set(err, MP_ERR_NOMEM, "%s", e.msg);
    if (levels_path && mp_out_protect(levels_path, &e) == MP_ERR_NOMEM)
        return mp_error_set(err, MP_ERR_NOMEM, "%s", e.msg);
    return MP_OK;
}
