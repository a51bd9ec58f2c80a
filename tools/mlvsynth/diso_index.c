#include "diso_index.h"

#include <math.h>

int32_t diso_index_for(uint32_t primary_iso, double ev_gap)
{
    long ev = lround(ev_gap);
    if (ev < 1)
        ev = 1;
    if (ev > 6)
        ev = 6;
    uint64_t high = (uint64_t)primary_iso << ev;
    for (int32_t v = 0; v <= 6; v++)
        if (high == 100u << v)
            return v;
    return (int32_t)ev - 7;
}

double diso_nominal_ev(uint32_t primary_iso, int32_t v)
{
    if (v >= 0 && v <= 6)
        return log2((100.0 * (1u << v)) / primary_iso);
    if (v >= -12 && v <= -7)
        return v + 6;
    if (v >= -6 && v <= -1)
        return v + 7;
    return 0;
}
