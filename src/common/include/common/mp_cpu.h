/* mp_cpu: which SIMD instruction sets the kernels may use. Detected once from the CPU,
 * lowered by the environment variable MLVPIPE_CPU_FLAGS or mp_cpu_set_level (a forced
 * level can only lower the detected one). Every level gives the same output bytes; forcing
 * one is for testing and timing, as dav1d's --cpumask. */
#ifndef MP_CPU_H
#define MP_CPU_H

typedef enum mp_cpu_level {
    MP_CPU_C = 0,      /* plain C, the reference */
    MP_CPU_SSE2 = 1,   /* x86-64 baseline */
    MP_CPU_AVX2 = 2,
    MP_CPU_NEON = 3,   /* aarch64 baseline */
    MP_CPU_LEVELS = 4
} mp_cpu_level;

/* Name of a level ("c", "sse2", "avx2", "neon"), "unknown" outside the enum. */
const char *mp_cpu_level_name(int level);

/* Level for a name as above (case-sensitive); -1 when the name is unknown. */
int mp_cpu_level_from_name(const char *name);

/* 1 when this CPU (and this build) can run level's kernels. MP_CPU_C always can. */
int mp_cpu_has(mp_cpu_level level);

/* Highest level kernels may use: the best this CPU has, limited by MLVPIPE_CPU_FLAGS (read
 * on the first call) and by mp_cpu_set_level. Thread-safe. */
mp_cpu_level mp_cpu_level_get(void);

/* Limits the level (e.g. from --cpu-flags); takes effect for kernels chosen afterwards, so
 * call it before any work starts. Returns 0, or -1 when this CPU lacks that level (the
 * limit is then unchanged). */
int mp_cpu_set_level(mp_cpu_level level);

#endif
