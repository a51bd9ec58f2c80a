#include "engine/sampling.h"

#include <stdlib.h>

mp_status mp_segments_find(const uint32_t *segment_of, uint32_t n, mp_segment **out,
                           uint32_t *count, mp_error *err)
{
    *out = NULL;
    *count = 0;
    uint32_t runs = 0;
    for (uint32_t i = 0; i < n; i++)
        runs += i == 0 || segment_of[i] != segment_of[i - 1];
    mp_segment *segs = malloc((runs ? runs : 1) * sizeof *segs);
    if (!segs)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory for %u segments", runs);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i == 0 || segment_of[i] != segment_of[i - 1])
            segs[k++] = (mp_segment){i, 0};
        segs[k - 1].count++;
    }
    *out = segs;
    *count = runs;
    return MP_OK;
}

uint32_t mp_sample_offsets(uint32_t count, uint32_t max, uint32_t *out)
{
    if (count <= max) {
        for (uint32_t i = 0; i < count; i++)
            out[i] = i;
        return count;
    }
    /* Bin k covers [k*count/max, (k+1)*count/max); its centre is (2k+1)*count/(2*max). */
    for (uint32_t k = 0; k < max; k++)
        out[k] = (uint32_t)(((2 * (uint64_t)k + 1) * count) / (2 * (uint64_t)max));
    return max;
}

uint32_t mp_segment_of_index(const mp_segment *segs, uint32_t n, uint32_t index)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (index < segs[mid].first)
            hi = mid;
        else if (index - segs[mid].first >= segs[mid].count)
            lo = mid + 1;
        else
            return mid;
    }
    return n;
}
