/* mp_job_lut_load: --lut's file read whole and parsed by develop (lut.h), which knows no files. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/mp_read.h"
#include "job.h"

mp_status mp_job_lut_load(const char *path, mp_lut *lut, mp_error *err)
{
    /* a 256-point cube, the largest, is 16.8M rows of three numbers */
    const off_t max = (off_t)1 << 30;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        mp_status st = mp_error_set(err, MP_ERR_IO, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return st;
    }
    char *text = S_ISREG(sb.st_mode) && sb.st_size <= max ? malloc((size_t)sb.st_size + 1)
                                                           : NULL;
    ssize_t got = text ? mp_pread_full(fd, text, (size_t)sb.st_size, 0) : -1;
    int read_errno = errno;
    close(fd);
    mp_status st;
    if (!S_ISREG(sb.st_mode) || sb.st_size > max)
        st = mp_error_set(err, MP_ERR_FORMAT, "%s: not a .cube file (%s)", path,
                          S_ISREG(sb.st_mode) ? "over 1 GiB" : "not a regular file");
    else if (!text)
        st = mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
    else if (got != sb.st_size)
        st = mp_error_set(err, MP_ERR_IO, "%s: %s", path,
                          got < 0 ? strerror(read_errno) : "changed while read");
    else
        st = mp_lut_parse(path, text, (size_t)got, lut, err);
    free(text);
    return st;
}
