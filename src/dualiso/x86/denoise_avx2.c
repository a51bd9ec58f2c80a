/* The denoise kernels (plain C in dualiso/dsp.h) vectorised by the compiler with
 * AVX2 (built with -mavx2 only: no FMA). */
#include "dualiso/dsp.h"

DUALISO_DN_DEFINE(avx2)
