/* writers: the two clip containers. Both write every file under a temporary name first and
 * report, per plan slot, whether a reader must, must not, or may find that frame. */
#ifndef MLVSYNTH_WRITERS_H
#define MLVSYNTH_WRITERS_H

#include "clip_meta.h"
#include "content.h"
#include "options.h"
#include "plan.h"

typedef enum slot_fate {
    FATE_INTACT,      /* a reader must return this frame, exactly */
    FATE_LOST,        /* damaged on purpose: a reader must not return it */
    FATE_UNCERTAIN    /* after a garbage block: readable only by re-synchronising */
} slot_fate;

/* MLV (.MLV + .M00 ...): fate has plan->count entries; *files gets the number of files. */
mp_status write_mlv(const synth_options *opt, const clip_plan *plan, const clip_meta *meta,
                    content_ctx *content, slot_fate *fate, uint32_t *files, mp_error *err);

/* Legacy .RAW + .R00 ...: frames back to back, RAWM footer. */
mp_status write_raw(const synth_options *opt, const clip_plan *plan, const clip_meta *meta,
                    content_ctx *content, slot_fate *fate, uint32_t *files, mp_error *err);

#endif
