/* mp_big: allocations of many megabytes (frame-sized work buffers). On Linux they are
 * aligned to 2 MiB and marked for transparent huge pages, so touching them the first time
 * costs one page fault per 2 MiB instead of per 4 KiB (on virtual machines a fault is
 * expensive: a 40 MB accumulator took 165 ms of faults). Elsewhere plain calloc. */
#ifndef MP_BIG_H
#define MP_BIG_H

#include <stddef.h>

/* n zeroed bytes, or NULL; release with free(). */
void *mp_big_calloc(size_t n);

#endif
