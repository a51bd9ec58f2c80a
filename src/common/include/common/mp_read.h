/* mp_read: reading a whole range of a file at an offset, as one call. */
#ifndef MP_READ_H
#define MP_READ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* pread until len bytes are read or the file ends, retrying short reads and EINTR; returns
 * the bytes read (fewer than len only at the end of the file), or -1 with errno set. */
ssize_t mp_pread_full(int fd, void *buf, size_t len, uint64_t offset);

#endif
