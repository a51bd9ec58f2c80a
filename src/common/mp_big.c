/* mp_big: see mp_big.h. */
#include "common/mp_big.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define HUGE_PAGE ((size_t)2 << 20)

void *mp_big_calloc(size_t n)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (n >= HUGE_PAGE) {
        void *p = NULL;
        size_t rounded = (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        if (posix_memalign(&p, HUGE_PAGE, rounded))
            return NULL;
        madvise(p, rounded, MADV_HUGEPAGE);     /* advice only: failure changes nothing */
        memset(p, 0, n);
        return p;
    }
#endif
    return calloc(1, n ? n : 1);
}
