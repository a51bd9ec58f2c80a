/* synth_rng: the deterministic random numbers behind src/synth.
 *
 * Generator: xoshiro256** (Blackman & Vigna), its 256-bit state filled by splitmix64 from a
 * 64-bit seed and a 64-bit stream number, so every (seed, frame, row) gets an independent
 * stream and rows can be generated in any order or in parallel with identical results.
 *
 * Every distribution below uses only integer arithmetic, IEEE-754 +, -, *, / and sqrt (all
 * correctly rounded) and the own det_log / det_exp of this module, never libm's log or exp
 * (whose last bits differ between C libraries). The project builds with -std=c11, which
 * keeps the compiler from contracting a*b+c into FMAs, so the same seed gives the same
 * numbers on every platform.
 *
 * - uniform: 53 random bits -> [0, 1).
 * - Gaussian: Marsaglia's polar method (pairs; the second value is kept for the next call).
 * - Poisson: exact inversion (sequential search) below mean 10; Hoermann's transformed
 *   rejection (PTRS, exact) from 10 to SYNTH_POISSON_NORMAL_ABOVE; above it the normal
 *   approximation round(mean + sqrt(mean) * N(0,1)) (rounding = continuity correction),
 *   clamped at 0. At mean 1000 the skewness of the Poisson law is 0.03, far below
 *   anything a benchmark on the result can see. */
#ifndef MP_SYNTH_RNG_H
#define MP_SYNTH_RNG_H

#include <stdint.h>

#define SYNTH_POISSON_NORMAL_ABOVE 1000.0

typedef struct synth_rng {
    uint64_t s[4];
    double spare;      /* second Gaussian of the last polar pair */
    int has_spare;
} synth_rng;

/* Independent streams: the same (seed, stream) always gives the same sequence. */
void mp_synth_rng_init(synth_rng *r, uint64_t seed, uint64_t stream);

uint64_t mp_synth_rng_next(synth_rng *r);
double mp_synth_rng_uniform(synth_rng *r);     /* [0, 1) */
double mp_synth_rng_gaussian(synth_rng *r);    /* N(0, 1) */
double mp_synth_rng_poisson(synth_rng *r, double mean);  /* mean <= 0 gives 0 */

/* Platform-identical natural log (x > 0) and exp (finite x), accurate to a few ulp. */
double mp_synth_det_log(double x);
double mp_synth_det_exp(double x);
double mp_synth_det_exp2(double x);

#endif
