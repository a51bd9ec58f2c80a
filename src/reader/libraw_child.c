/* LibRaw in a child process: a crash or a hang of LibRaw's costs one photo (doc/stills.md 7).
 *
 * The child is forked by a helper (libraw_helper.h) from a process that may have run other
 * threads when it forked the helper. It does only what is safe after such a fork: LibRaw is
 * loaded before (no dlopen in the child); glibc's fork resets the locks of malloc, stdio and
 * the dynamic loader in the child, C++ exceptions find their frames through _dl_find_object
 * without a lock (libgcc 12, glibc 2.35), and the converter never calls LibRaw itself, so no
 * thread of ours is inside LibRaw when a helper is forked. The one lock LibRaw takes that fork
 * does not reset is the C library's time-zone lock (mktime, for the EXIF date): the calendar
 * fields of the photo's time are made in the child too, so no thread of ours takes that lock
 * either. A child that still blocks (a lock held by a thread we do not know, e.g. an
 * allocator without fork handlers) makes no progress: it is stopped and the photo tried once
 * more in a new helper's child. */
#include "libraw_child.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/mp_read.h"
#include "libraw_helper.h"

/* LibRaw's own bound on what a file may make it allocate (2 GiB by default), brought near
 * ours: a photo within MP_FRAME_MAX_PIXELS needs at most 128 MiB of samples. */
#define LIBRAW_MAX_MB 512u
#define DEFAULT_CPU_SECONDS 30.0
#define DONE_MARK 0x4C524157u          /* "LRAW" */
/* Where the mosaic starts in the memory file: after the answer, page-aligned. */
#define MOSAIC_AT (((sizeof(mp_libraw_run) + 4095) / 4096) * 4096)

enum { CHILD_ORPHANED = 2, CHILD_NO_MEMORY = 3, CHILD_NO_ANSWER = 4 };

/* What the child is asked to do (through the helper, libraw_helper.h). */
typedef struct request {
    int32_t unpack;
    uint32_t width, height;
    double budget;
} request;

_Static_assert(sizeof(request) <= MP_HELPER_REQUEST_MAX, "a request the helper can pass on");

/* What the child works with, and where it answers. */
typedef struct job {
    const uint8_t *bytes;
    size_t size;
    request q;
    int fd;                            /* the memory file of the answer */
    mp_libraw_run *run;                /* its head filled, then written to fd */
} job;

static double cpu_budget = DEFAULT_CPU_SECONDS;
static pthread_once_t budget_once = PTHREAD_ONCE_INIT;

static void read_budget(void)
{
    const char *s = getenv("MLVPIPE_LIBRAW_CPU_SECONDS");
    char *end;
    double v = s ? strtod(s, &end) : 0;
    if (s && end != s && !*end && v > 0 && v < 1e6)
        cpu_budget = v;
}

static int write_all(int fd, const void *buf, size_t n, uint64_t at)
{
    const uint8_t *p = buf;
    while (n) {
        ssize_t put = pwrite(fd, p, n, (off_t)at);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return -1;
        p += put;
        n -= (size_t)put;
        at += (uint64_t)put;
    }
    return 0;
}

/* LibRaw's data errors (its default callback prints): the first one, written at once, so the
 * parent knows where LibRaw was if it crashes afterwards. */
static void on_data_error(void *opaque, const char *file, const int offset)
{
    (void)file;
    const job *j = opaque;
    mp_libraw_run *r = j->run;
    if (r->data_error)
        return;
    r->data_error = 1;
    r->data_error_offset = offset;
    size_t at = offsetof(mp_libraw_run, data_error);
    write_all(j->fd, &r->data_error, offsetof(mp_libraw_run, raw_mosaic) - at, at);
}

static int copy_mosaic(const job *j, const libraw_data_t *lr)
{
    size_t row = (size_t)j->q.width * sizeof(uint16_t), pitch = lr->sizes.raw_pitch;
    const uint8_t *src = (const uint8_t *)lr->rawdata.raw_image;
    if (pitch == row)
        return write_all(j->fd, src, row * j->q.height, MOSAIC_AT);
    for (size_t y = 0; y < j->q.height; y++)
        if (write_all(j->fd, src + y * pitch, row, MOSAIC_AT + y * row))
            return -1;
    return 0;
}

/* The helper's child: LibRaw on the photo, the answer written to the memory file. */
static void child(const void *request_bytes, const uint8_t *bytes, size_t size, int answer_fd,
                  pid_t helper)
{
    static const int crashes[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++)
        signal(crashes[i], SIG_DFL);   /* a crash ends the child, whatever handler we inherit */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != helper)
        _exit(CHILD_ORPHANED);
    static mp_libraw_run head;   /* its head only: LibRaw's state goes out from LibRaw's */
    job jb = {bytes, size, {0}, answer_fd, &head}, *j = &jb;
    memcpy(&jb.q, request_bytes, sizeof jb.q);
    rlim_t cap = (rlim_t)j->q.budget + 2;   /* in case the helper cannot watch: SIGXCPU (a
                                             * hard limit reached at once would be SIGKILL) */
    struct rlimit rl = {cap, cap + 1};
    setrlimit(RLIMIT_CPU, &rl);

    mp_libraw_run *r = j->run;
    libraw_data_t *lr = mp_libraw.libraw_init(0);
    if (!lr)
        _exit(CHILD_NO_MEMORY);
    mp_libraw.libraw_set_dataerror_handler(lr, on_data_error, (void *)j);
    lr->params.max_raw_memory_mb = LIBRAW_MAX_MB;
    r->open_rc = mp_libraw.libraw_open_buffer(lr, (void *)j->bytes, j->size);
    r->unpack_rc = LIBRAW_SUCCESS;
    if (r->open_rc == LIBRAW_SUCCESS && j->q.unpack)
        r->unpack_rc = mp_libraw.libraw_unpack(lr);
    r->raw_mosaic = lr->rawdata.raw_image != NULL;
    if (j->q.unpack && r->unpack_rc == LIBRAW_SUCCESS && r->raw_mosaic &&
        lr->sizes.raw_width == j->q.width && lr->sizes.raw_height == j->q.height &&
        lr->sizes.raw_pitch >= j->q.width * sizeof(uint16_t)) {
        if (copy_mosaic(j, lr))
            _exit(CHILD_NO_ANSWER);
        r->mosaic_copied = 1;
    }
    time_t t = lr->other.timestamp;
    r->has_taken = t && localtime_r(&t, &r->taken);
    r->done = DONE_MARK;
    int failed = write_all(j->fd, lr, sizeof *lr, offsetof(mp_libraw_run, lr)) ||
                 write_all(j->fd, r, offsetof(mp_libraw_run, lr), 0);   /* the mark last */
    _exit(failed ? CHILD_NO_ANSWER : 0);
}

/* The answer's strings the parent reads, terminated; the child's pointers cleared. */
static void sanitize(mp_libraw_run *r)
{
    libraw_data_t *lr = &r->lr;
    char *const texts[] = {lr->idata.make, lr->idata.model, lr->lens.Lens,
                           lr->lens.makernotes.Lens, lr->shootinginfo.BodySerial,
                           lr->other.artist};
    const size_t sizes[] = {sizeof lr->idata.make, sizeof lr->idata.model,
                            sizeof lr->lens.Lens, sizeof lr->lens.makernotes.Lens,
                            sizeof lr->shootinginfo.BodySerial, sizeof lr->other.artist};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        texts[i][sizes[i] - 1] = 0;
    lr->image = NULL;
    lr->parent_class = NULL;
    memset(&lr->rawdata, 0, sizeof lr->rawdata);
}

/* The one line of a child that gave no answer. */
static mp_status no_answer(const char *name, int fd, mp_helper_ending how, int status,
                           double budget, mp_error *err)
{
    mp_libraw_run head = {0};
    char at[48] = "";
    if (mp_pread_full(fd, &head, offsetof(mp_libraw_run, raw_mosaic), 0) > 0 && head.data_error)
        snprintf(at, sizeof at, "offset %d: ", head.data_error_offset);
    if (how == MP_HELPER_LOST)
        return mp_error_set(err, MP_ERR_IO, "%s: the process that runs LibRaw ended (twice)",
                            name);
    if (how == MP_HELPER_STALLED)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: %sLibRaw made no progress for %d s, "
                            "twice (stopped)", name, at, MP_HELPER_STALL_MS / 1000);
    if (how == MP_HELPER_OVER_BUDGET || (status != -1 && WIFSIGNALED(status) &&
                                         WTERMSIG(status) == SIGXCPU))   /* RLIMIT_CPU's */
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: %sLibRaw spent more than %.3g CPU-s on "
                            "it (stopped; MLVPIPE_LIBRAW_CPU_SECONDS sets the limit)", name, at,
                            budget);
    if (status != -1 && WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        const char *abbrev = sigabbrev_np(sig);
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: %sLibRaw crashed: signal %d (SIG%s)",
                            name, at, sig, abbrev ? abbrev : "?");
    }
    int code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code == CHILD_NO_MEMORY || code == CHILD_NO_ANSWER)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: LibRaw's process %s (out of memory)", name,
                            code == CHILD_NO_MEMORY ? "cannot start LibRaw"
                                                    : "cannot write its answer");
    return mp_error_set(err, MP_ERR_DAMAGED, "%s: %sLibRaw's process ended without an answer "
                        "(status %d)", name, at, code);
}

/* One call: a helper's child runs LibRaw, its answer is read into r (and mosaic). */
static mp_status run_once(const char *name, const uint8_t *bytes, size_t size,
                          const request *q, uint16_t *mosaic, mp_libraw_run *r,
                          mp_helper_ending *how, mp_error *err)
{
    mp_helper *h = mp_helper_take(child, err);
    if (!h) {
        *how = MP_HELPER_ENDED;
        return err->code;
    }
    int fd = mp_helper_answer_fd(h);
    static const mp_libraw_run cleared;   /* the last call's answer must not pass for this one */
    mp_status st = MP_OK;
    int status = -1;
    if (write_all(fd, &cleared, offsetof(mp_libraw_run, lr), 0) ||
        write_all(mp_helper_input_fd(h), bytes, size, 0))
        *how = MP_HELPER_LOST;
    else
        *how = mp_helper_call(h, q, sizeof *q, size, q->budget, &status);
    if (*how == MP_HELPER_LOST || *how == MP_HELPER_STALLED ||
        mp_pread_full(fd, r, sizeof *r, 0) != (ssize_t)sizeof *r || r->done != DONE_MARK)
        st = no_answer(name, fd, *how, status, q->budget, err);
    size_t bytes_out = (size_t)q->width * q->height * sizeof *mosaic;
    if (st == MP_OK && r->mosaic_copied &&
        mp_pread_full(fd, mosaic, bytes_out, MOSAIC_AT) != (ssize_t)bytes_out)
        st = mp_error_set(err, MP_ERR_IO, "%s: LibRaw's process handed back a short mosaic",
                          name);
    mp_helper_give(h, *how == MP_HELPER_ENDED || *how == MP_HELPER_OVER_BUDGET);
    return st;
}

mp_status mp_libraw_child_run(const char *name, const uint8_t *bytes, size_t size,
                              uint16_t *mosaic, uint32_t width, uint32_t height,
                              mp_libraw_run **run, mp_error *err)
{
    pthread_once(&budget_once, read_budget);
    *run = NULL;
    mp_libraw_run *r = malloc(sizeof *r);
    if (!r)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", name);
    const request q = {mosaic != NULL, width, height, cpu_budget};
    mp_helper_ending how = MP_HELPER_ENDED;
    mp_status st = run_once(name, bytes, size, &q, mosaic, r, &how, err);
    if (st != MP_OK && (how == MP_HELPER_STALLED || how == MP_HELPER_LOST))
        st = run_once(name, bytes, size, &q, mosaic, r, &how, err);   /* in a new helper */
    if (st != MP_OK) {
        free(r);
        return st;
    }
    sanitize(r);
    *run = r;
    return MP_OK;
}
