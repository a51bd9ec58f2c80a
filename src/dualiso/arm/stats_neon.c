/* The statistics' pixel loops (plain C in stats_body.h) vectorised by the compiler with
 * NEON. */
#include "stats_body.h"

DUALISO_STATS_DEFINE(neon)
