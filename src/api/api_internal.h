/* src/api: the public API (include/mlvpipe/) over the modules; helpers its files share. */
#ifndef MP_API_INTERNAL_H
#define MP_API_INTERNAL_H

#include "mlvpipe/mlvpipe.h"

#include "common/mp_status.h"
#include "pipeline/progress.h"

/* Copies the internal error into the public one (if any) and returns the public status. */
mlvpipe_status mp_api_status(mp_status st, const mp_error *in, mlvpipe_error *out);

/* An mp_logger that forwards to log (which must outlive it); silent when log or its fn is
 * NULL. */
mp_logger mp_api_logger(const mlvpipe_logger *log);

void mp_api_progress_event(const mp_progress_event *ev, mlvpipe_progress *out);

#endif
