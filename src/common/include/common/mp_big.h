/* mp_big: allocations of many megabytes (frame-sized work buffers, the raw-defect sums). On
 * Linux their pages are made at once (MADV_POPULATE_WRITE, one call) instead of by a fault at
 * the first touch of each page, and in 4 KiB pages, not huge ones: on the development VM
 * (free memory handed back to the host) a 2 MiB page costs 10-30 ms to fault in again, and
 * rows that are read before they are written fault twice per page (doc/benchmarks.md 12).
 * Elsewhere plain calloc. */
#ifndef MP_BIG_H
#define MP_BIG_H

#include <stddef.h>

/* n zeroed bytes, or NULL; release with free(). */
void *mp_big_calloc(size_t n);

#endif
