#include "movie/av_output.h"
#include "movie/av_load.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libavutil/error.h>
#include <libavutil/mem.h>

/* Large enough that a 1080p frame takes a few dozen writes, not thousands. */
#define IO_BUFFER 262144

const char *mp_av_output_name(const mp_av_output *o)
{
    return o->is_stdout ? "stdout" : o->file.final_path;
}

mp_status mp_av_output_fail(const mp_av_output *o, int averr, const char *name, const char *what,
                         mp_error *err)
{
    if (o && o->failed) {
        if (err)
            *err = o->error;
        return o->error.code;
    }
    char reason[AV_ERROR_MAX_STRING_SIZE];
    mp_libav.av_strerror(averr, reason, sizeof reason);
    return mp_error_set(err, averr == AVERROR(ENOMEM) ? MP_ERR_NOMEM : MP_ERR_IO, "%s: %s: %s",
                        name, what, reason);
}

static void fail(mp_av_output *o, int e)
{
    if (o->failed)
        return;
    o->failed = 1;
    if (e == EPIPE)
        mp_error_set(&o->error, MP_ERR_IO, "stdout: offset %llu: pipe closed by the reader",
                     (unsigned long long)o->position);
    else
        mp_error_set(&o->error, MP_ERR_IO, "stdout: offset %llu: write failed: %s",
                     (unsigned long long)o->position, strerror(e));
}

/* write() to stdout with SIGPIPE held back; returns 0 or an errno value. */
static int write_stdout(const uint8_t *p, size_t len, uint64_t *position)
{
    sigset_t pipe_only, old, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
    int e = 0;
    while (len) {
        ssize_t n = write(STDOUT_FILENO, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            e = n < 0 ? errno : EIO;
            break;
        }
        p += n;
        len -= (size_t)n;
        *position += (uint64_t)n;
    }
    if (e == EPIPE && !was_pending) {
        /* The SIGPIPE our write raised is pending on this thread: take it back. */
        const struct timespec now = {0, 0};
        while (sigtimedwait(&pipe_only, NULL, &now) < 0 && errno == EINTR)
            ;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return e;
}

static int write_packet(void *opaque, uint8_t *buf, int size)
{
    mp_av_output *o = opaque;
    if (o->failed)
        return AVERROR(EIO);
    if (o->is_stdout) {
        int e = write_stdout(buf, (size_t)size, &o->position);
        if (e) {
            fail(o, e);
            return AVERROR(e);
        }
        return size;
    }
    if (mp_out_write(&o->file, buf, (size_t)size, &o->error) != MP_OK) {
        o->failed = 1;
        return AVERROR(EIO);
    }
    return size;
}

static int64_t seek_file(void *opaque, int64_t offset, int whence)
{
    mp_av_output *o = opaque;
    if (whence & AVSEEK_SIZE) {
        struct stat sb;
        return fstat(o->file.fd, &sb) == 0 ? (int64_t)sb.st_size : AVERROR(errno);
    }
    off_t at = lseek(o->file.fd, (off_t)offset, whence & ~AVSEEK_FORCE);
    if (at < 0) {
        int e = errno;
        if (!o->failed) {
            o->failed = 1;
            mp_error_set(&o->error, MP_ERR_IO, "%s: offset %lld: seek failed: %s",
                         o->file.final_path, (long long)offset, strerror(e));
        }
        return AVERROR(e);
    }
    return (int64_t)at;
}

mp_status mp_av_output_open(mp_av_output *o, const char *path, int overwrite, mp_error *err)
{
    o->file.fd = -1;
    o->is_stdout = strcmp(path, "-") == 0;
    mp_status st;
    if (!o->is_stdout && (st = mp_out_open(&o->file, path, overwrite, err)) != MP_OK)
        return st;
    uint8_t *buffer = mp_libav.av_malloc(IO_BUFFER);
    if (buffer)
        o->pb = mp_libav.avio_alloc_context(buffer, IO_BUFFER, 1, o, NULL, write_packet,
                                            o->is_stdout ? NULL : seek_file);
    if (!o->pb) {
        mp_libav.av_free(buffer);
        mp_av_output_abort(o);
        return mp_error_set(err, MP_ERR_NOMEM, "%s: cannot allocate the output buffer", path);
    }
    return MP_OK;
}

static void free_context(mp_av_output *o)
{
    if (o->pb) {
        mp_libav.av_freep(&o->pb->buffer);
        mp_libav.avio_context_free(&o->pb);
    }
}

mp_status mp_av_output_commit(mp_av_output *o, mp_error *err)
{
    mp_libav.avio_flush(o->pb);
    free_context(o);
    if (o->failed) {
        mp_av_output_abort(o);
        if (err)
            *err = o->error;
        return o->error.code;
    }
    return o->is_stdout ? MP_OK : mp_out_commit(&o->file, 0, err);
}

void mp_av_output_abort(mp_av_output *o)
{
    free_context(o);
    if (!o->is_stdout && o->file.temp_path[0])
        mp_out_abort(&o->file);
}
