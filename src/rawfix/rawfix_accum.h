/* The accumulator's layout, shared by accum.c and the map builders. */
#ifndef MP_RAWFIX_ACCUM_H
#define MP_RAWFIX_ACCUM_H

#include "rawfix_priv.h"

enum { COUNT_USED, COUNT_POS, COUNT_NEG, COUNT_BIG };

struct rawfix_accum {
    uint32_t width, height;
    uint32_t frames;
    uint64_t added;                 /* bit per sample number */
    int32_t (*sum)[2];              /* per sample: sums of zh and zv */
    uint8_t (*counts)[4];           /* per sample: frames measured, zh and zv both > 0,
                                     * both < 0, both big with the same sign */
    int32_t (*stripe)[2];           /* per sample: sums of rawfix_measurement.stripe */
};

/* map_stripes.c: the map's stripe gains from the sums, leaving out samples whose stripe
 * window holds a defect (is_site, a width x height bitmap, or NULL). */
void mp_rawfix_build_stripes(const rawfix_accum *a, const uint8_t *is_site, rawfix_map *m);

#endif
