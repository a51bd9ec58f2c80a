/* checkasm's shared pieces: the random numbers (xorshift, seeded by --seed) and the clock
 * its --bench timings read, and the checks that live in their own files. */
#ifndef CHECKASM_H
#define CHECKASM_H

#include <stdint.h>

#include "common/mp_cpu.h"

extern uint64_t rng_state;
uint32_t rnd(void);
double cpu_now(void);   /* CPU time of this thread, seconds */

/* check_rawfix.c: the rawfix row kernels of one level against C; failures, rows checked. */
int checkasm_rawfix(mp_cpu_level level, int rounds, int *checked);
void checkasm_rawfix_bench(void);

/* check_develop.c: the develop row kernels of one level against C. */
int checkasm_develop(mp_cpu_level level, int rounds, int *checked);
void checkasm_develop_bench(void);

#endif
