/* CPU feature detection and the user's level limit. */
#include "common/mp_cpu.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static const char *const level_names[MP_CPU_LEVELS] = {"c", "sse2", "avx2", "neon"};

const char *mp_cpu_level_name(int level)
{
    return level >= 0 && level < MP_CPU_LEVELS ? level_names[level] : "unknown";
}

int mp_cpu_level_from_name(const char *name)
{
    for (int i = 0; i < MP_CPU_LEVELS; i++)
        if (name && !strcmp(name, level_names[i]))
            return i;
    return -1;
}

int mp_cpu_has(mp_cpu_level level)
{
    switch (level) {
    case MP_CPU_C:
        return 1;
#if defined(__x86_64__)
    case MP_CPU_SSE2:
        return 1;
    case MP_CPU_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") != 0;
#elif defined(__aarch64__)
    case MP_CPU_NEON:
        return 1;
#endif
    default:
        return 0;
    }
}

static _Atomic int limit = -1; /* -1: not read yet */
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

static void read_env(void)
{
    const char *e = getenv("MLVPIPE_CPU_FLAGS");
    int l = e ? mp_cpu_level_from_name(e) : -1;
    int expected = -1;
    atomic_compare_exchange_strong(&limit, &expected, l >= 0 ? l : MP_CPU_LEVELS);
}

/* Best level at or below max that the CPU has (levels of the other architecture skipped). */
static mp_cpu_level best_up_to(int max)
{
    for (int l = max < MP_CPU_LEVELS ? max : MP_CPU_LEVELS - 1; l > 0; l--)
        if (mp_cpu_has((mp_cpu_level)l))
            return (mp_cpu_level)l;
    return MP_CPU_C;
}

mp_cpu_level mp_cpu_level_get(void)
{
    pthread_once(&env_once, read_env);
    return best_up_to(atomic_load(&limit));
}

int mp_cpu_set_level(mp_cpu_level level)
{
    if ((int)level < 0 || level >= MP_CPU_LEVELS || !mp_cpu_has(level))
        return -1;
    pthread_once(&env_once, read_env);
    atomic_store(&limit, (int)level);
    return 0;
}
