/* The statistics' pixel loops (plain C in stats_body.h) vectorised by the compiler with
 * AVX2 (built with -mavx2 only). */
#include "stats_body.h"

DUALISO_STATS_DEFINE(avx2)
