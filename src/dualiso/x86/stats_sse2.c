/* The statistics' pixel loops (plain C in stats_body.h) vectorised by the compiler with
 * SSE2. */
#include "stats_body.h"

DUALISO_STATS_DEFINE(sse2)
