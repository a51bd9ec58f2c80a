#include "common/mp_read.h"

#include <errno.h>
#include <unistd.h>

ssize_t mp_pread_full(int fd, void *buf, size_t len, uint64_t offset)
{
    size_t done = 0;
    while (done < len) {
        ssize_t got = pread(fd, (uint8_t *)buf + done, len - done, (off_t)(offset + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        done += (size_t)got;
    }
    return (ssize_t)done;
}
