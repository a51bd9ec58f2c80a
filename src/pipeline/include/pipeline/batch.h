/* batch: several clips, each converted to its own output with the options of one run.
 *
 * A still (one raw photo: one frame) leaves a worker pool nothing to share out, so the
 * stills that stand next to each other in the list are converted side by side instead, each
 * whole conversion one job of a pool of o->threads workers (each conversion with one
 * thread of its own); any other clip is converted alone, with every worker, as mp_convert
 * does. Each output's bytes are those of converting its clip alone, whatever the thread
 * count (a conversion depends on nothing but its clip and the options). Stills converted
 * side by side send no progress events (each is one frame; `finished` says when it is
 * done); the other clips send o->progress's as mp_convert does. */
#ifndef MP_BATCH_H
#define MP_BATCH_H

#include <stdint.h>

#include "pipeline/convert.h"

typedef struct mp_batch_callbacks {
    void *user;
    /* Optional: clip `index` starts (stills: from whichever worker takes it). */
    void (*started)(void *user, uint32_t index);
    /* Clip `index` is done, with mp_convert's outcome: in index order, one call at a time. */
    void (*finished)(void *user, uint32_t index, mp_status st, const mp_convert_result *res,
                     const mp_error *err);
} mp_batch_callbacks;

/* Converts inputs[i] to outputs[i] for i in 0..count-1 with the options o (o->input and
 * o->output are not used), past the clips that fail. Returns MP_OK when every clip was
 * converted or failed; MP_ERR_INTERRUPTED when o->cancel stopped the batch (*done, optional:
 * how many clips were finished, always the first ones); MP_ERR_NOMEM (err) when the batch
 * itself cannot run. */
mp_status mp_convert_batch(const mp_convert_options *o, const char *const *inputs,
                           const char *const *outputs, uint32_t count,
                           const mp_batch_callbacks *cb, uint32_t *done, mp_error *err);

#endif
