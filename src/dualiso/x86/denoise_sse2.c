/* The denoise kernels (plain C in dualiso/dsp.h) vectorised by the compiler with
 * SSE2 (the x86-64 baseline). */
#include "dualiso/dsp.h"

DUALISO_DN_DEFINE(sse2)
