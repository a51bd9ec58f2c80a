/* checkasm's shared pieces: the random numbers (xorshift, seeded by --seed), the hash of
 * outputs (FNV-1a, 64 bits) that builds for different architectures compare, the clock its
 * --bench timings read, and the checks that live in their own files. */
#ifndef CHECKASM_H
#define CHECKASM_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_cpu.h"

extern uint64_t rng_state;
uint32_t rnd(void);
double cpu_now(void);   /* CPU time of this thread, seconds */

#define CHECKASM_HASH_START 0xcbf29ce484222325ull
uint64_t checkasm_hash(uint64_t h, const void *p, size_t n);

/* check_rawfix.c: the rawfix row kernels of one level against C; failures, rows checked,
 * and the hash of the level's outputs folded into *hash. */
int checkasm_rawfix(mp_cpu_level level, int rounds, int *checked, uint64_t *hash);
void checkasm_rawfix_bench(void);
void checkasm_rawfix_once(mp_cpu_level level);  /* the --bench row through one level once */

/* check_frames.c: a clip through rawfix, dual ISO and develop at every level; failures
 * (hashes printed). */
int checkasm_frames(void);

/* check_develop.c: the develop row kernels and RCD of one level against C; failures, rows
 * checked, and the hash of the level's outputs folded into *hash. */
int checkasm_develop(mp_cpu_level level, int rounds, int *checked, uint64_t *hash);
/* One develop kernel (develop_load, _near, _grade, _encode on the --bench row; rcd on a
 * 203 x 40 window; develop_none: only the set-up, to subtract) once at a level; -1 for an
 * unknown name. */
int checkasm_develop_once(mp_cpu_level level, const char *kernel);
void checkasm_develop_bench(void);

#endif
