/* plan: which VIDF blocks a clip holds and in what order (file order, chunk by chunk):
 * frames minus --drop, permuted by --shuffle, each --duplicate right after its original. */
#ifndef MLVSYNTH_PLAN_H
#define MLVSYNTH_PLAN_H

#include <stdint.h>

#include "options.h"

typedef struct plan_slot {
    uint32_t number;        /* VIDF frameNumber */
    uint32_t source;        /* frame whose picture it carries (differs for duplicates) */
    uint64_t timestamp;
    uint32_t chunk;         /* file index: 0 = .MLV, 1 = .M00 ... */
    int duplicate;
} plan_slot;

typedef struct clip_plan {
    plan_slot *slots;       /* file order */
    uint32_t count;
    uint32_t chunk_count;
    int64_t change_slot;    /* --change-at: the slot whose VIDF the new EXPO/DISO precede (the
                             * first frame >= K written), OPT_NONE without a change */
} clip_plan;

mp_status plan_build(clip_plan *p, const synth_options *o, mp_error *err);

/* Timestamp of the duplicate VIDF of frame `number`: half a frame period later. */
uint64_t plan_duplicate_time_us(const synth_options *o, uint32_t number);
void plan_free(clip_plan *p);

#endif
