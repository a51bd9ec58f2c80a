/* diso_index: the DISO isoValue (dual_iso's recovery-ISO menu index, doc/mlv-format.md 15.2). */
#ifndef MLVSYNTH_DISO_INDEX_H
#define MLVSYNTH_DISO_INDEX_H

#include <stdint.h>

/* The index a camera would store for a bright field ev_gap EV above primary_iso: the nearest
 * whole EV (1..6), as an absolute index 0..6 when that ISO is 100 * 2^v, else relative. */
int32_t diso_index_for(uint32_t primary_iso, double ev_gap);

/* Nominal EV of the recovery ISO over primary_iso for index v (negative: darker). */
double diso_nominal_ev(uint32_t primary_iso, int32_t v);

#endif
