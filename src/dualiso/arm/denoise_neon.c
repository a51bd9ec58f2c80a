/* The denoise kernels (plain C in dualiso/dsp.h) vectorised by the compiler with
 * NEON (FMA contraction off, as everywhere). */
#include "dualiso/dsp.h"

DUALISO_DN_DEFINE(neon)
