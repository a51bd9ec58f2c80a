/* src/api: the public API (include/mlvpipe/) over the modules; helpers its files share. */
#ifndef MP_API_INTERNAL_H
#define MP_API_INTERNAL_H

#include <stddef.h>

#include "mlvpipe/mlvpipe.h"

#include "common/json.h"
#include "common/mp_status.h"
#include "engine/progress.h"
#include "reader/mlv_reader.h"

struct mlvpipe_clip {
    mlv_clip *clip;
    mlvpipe_logger log;       /* the open's logger, kept for the clip's lifetime */
};

/* Copies the internal error into the public one (if any) and returns the public status. */
mlvpipe_status mp_api_status(mp_status st, const mp_error *in, mlvpipe_error *out);

/* An mp_logger that forwards to log (which must outlive it); silent when log or its fn is
 * NULL. */
mp_logger mp_api_logger(const mlvpipe_logger *log);

/* "RGGB", "GRBG", "GBRG", "BGGR" for MP_CFA_*, NULL for anything else. */
const char *mp_api_cfa_name(uint32_t cfa);

/* Hands t over to out (t is left empty): MLVPIPE_OK, or MLVPIPE_ERR_NOMEM naming `what` when
 * t could not grow. */
mlvpipe_status mp_api_text(mp_text *t, const char *what, mlvpipe_text *out, mlvpipe_error *err);

void mp_api_progress_event(const mp_progress_event *ev, mlvpipe_progress *out);

/* Settings of any API version (version.h). The end of a struct's last member: the size of
 * the struct in the API that member ended it (MP_API_END(mlvpipe_join_settings, log): 4.0). */
#define MP_API_END(type, member) (offsetof(type, member) + sizeof ((type *)0)->member)
/* Copies the caller's settings (given, size bytes as its header laid them out) over full,
 * which holds the defaults (full_size bytes: this library's struct), so members an older
 * header lacks keep their defaults. MLVPIPE_ERR_ARG, naming `what`: smaller than the oldest
 * layout (API 4.0, `oldest` bytes), or a newer header's member this library does not know
 * set to anything but zero. */
mlvpipe_status mp_api_settings_in(void *full, size_t full_size, const void *given, size_t size,
                                  size_t oldest, const char *what, mlvpipe_error *err);
/* MLVPIPE_ERR_ARG, naming `what`, when a reserved member (count of them) is set: a member of
 * a newer header than this library's, which took the reserved room (version.h). */
mlvpipe_status mp_api_reserved_zero(const int *reserved, size_t count, const char *what,
                                    mlvpipe_error *err);
/* The defaults (full) into the caller's struct of size bytes; members of a newer header this
 * library does not know get zero. */
void mp_api_settings_out(void *given, size_t size, const void *full, size_t full_size);

#endif
