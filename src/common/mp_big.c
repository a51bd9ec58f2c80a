/* mp_big: see mp_big.h. */
#include "common/mp_big.h"

#include <stdint.h>
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define PAGE ((uintptr_t)4096)

void *mp_big_calloc(size_t n)
{
    /* calloc clears only what is not zero already: a block mapped fresh from the kernel is
     * not written again; one reused from the heap (the CLI keeps freed blocks up to 32 MiB,
     * tools/mlvpipe/main.c) is cleared, and its pages are resident then */
    void *p = calloc(1, n ? n : 1);
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    /* advice only: kernels before 5.14 refuse it, and the pages are made on first touch */
    const uintptr_t start = ((uintptr_t)p + PAGE - 1) & ~(PAGE - 1);
    const uintptr_t end = ((uintptr_t)p + n) & ~(PAGE - 1);
    if (p && end > start)
        madvise((void *)start, end - start, MADV_POPULATE_WRITE);
#endif
    return p;
}
