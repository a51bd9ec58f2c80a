/* Shared by the fuzz targets: how a broken promise stops the run, and the harness's own
 * judging code kept out of libFuzzer's coverage. */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#define CHECK(cond) do { if (!(cond)) __builtin_trap(); } while (0)

/* The code that judges an answer is not what is fuzzed. Without coverage hooks its branches
 * neither steer libFuzzer nor cost it CPU (with them, a seventh of fuzz_info_json's). */
#ifdef __clang__
#define JUDGE __attribute__((no_sanitize("coverage")))
#else
#define JUDGE
#endif

/* 1 when a message holds a control character or DEL, which every message escapes. */
JUDGE static inline int fuzz_has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 1;
    return 0;
}

#endif
