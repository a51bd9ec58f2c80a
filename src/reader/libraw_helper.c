/* The helpers that fork LibRaw's children (libraw_helper.h, doc/stills.md 7).
 *
 * A helper is forked from the converter, which may run other threads: it does only what is
 * safe after such a fork (as LibRaw's children, libraw_child.c): it waits on its socket, forks,
 * polls, reads clocks and answers, with no lock and no allocation. A helper that blocks all the
 * same (a lock it inherited held) is seen: it forks no child and uses no CPU time; it is then
 * ended and the call tried in a new one. The helpers end when the converter's end of their
 * socket closes (the converter exits or dies) and are reaped by the converter as it exits,
 * so that their CPU time and their children's counts in the converter's. */
#include "libraw_helper.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Memory files that grew beyond this for a photo are emptied after it, not kept. */
#define KEEP_BYTES ((off_t)64 << 20)

struct mp_helper {
    pid_t pid;
    int sock;                 /* the converter's end */
    int input_fd, answer_fd;  /* memory files shared with the helper and its children */
    mp_helper *next;          /* among the idle ones */
};

typedef struct request {
    uint64_t input_size;
    double budget;
    uint8_t job[MP_HELPER_REQUEST_MAX];
} request;

enum { FORKED = 1, DONE = 2 };

typedef struct reply {
    int32_t kind;             /* FORKED, then DONE */
    int32_t ending;           /* mp_helper_ending */
    int32_t status;
} reply;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static mp_helper *idle;
static pid_t pool_owner;      /* the process whose helpers these are */

static double cpu_seconds(clockid_t clock)
{
    struct timespec ts;
    return clock_gettime(clock, &ts) ? -1 : (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void close_all_but(int keep1, int keep2, int keep3)
{
#ifdef SYS_close_range
    int keep[3] = {keep1, keep2, keep3}, from = 3;
    for (int i = 0; i < 3; i++)   /* sort: three at most */
        for (int k = i + 1; k < 3; k++)
            if (keep[k] < keep[i]) {
                int t = keep[i];
                keep[i] = keep[k];
                keep[k] = t;
            }
    for (int i = 0; i < 3; i++) {
        if (keep[i] < from)
            continue;
        if (keep[i] > from)
            syscall(SYS_close_range, (unsigned)from, (unsigned)keep[i] - 1, 0u);
        from = keep[i] + 1;
    }
    syscall(SYS_close_range, (unsigned)from, ~0u, 0u);
#else
    (void)keep1, (void)keep2, (void)keep3;
#endif
}

/* Waits for the helper's child pid; stops it when it spends more than the budget or makes no
 * progress. *status is waitpid's (-1: the child was reaped elsewhere). */
static mp_helper_ending watch(pid_t pid, double budget, int *status)
{
    int pidfd = -1;
#ifdef SYS_pidfd_open
    pidfd = (int)syscall(SYS_pidfd_open, pid, 0u);
#endif
    clockid_t clock;
    int clocked = !clock_getcpuclockid(pid, &clock);
    int tick_ms = (int)(budget * 1000 / 8);
    tick_ms = tick_ms < 5 ? 5 : tick_ms > 500 ? 500 : tick_ms;
    if (pidfd < 0)   /* no pidfd (Linux before 5.3): look more often */
        tick_ms = tick_ms < 10 ? tick_ms : 10;
    double last = 0;
    int still_ms = 0;
    mp_helper_ending how = MP_HELPER_ENDED;
    for (;;) {
        struct pollfd p = {pidfd, POLLIN, 0};
        int ready = poll(&p, pidfd >= 0, tick_ms);
        pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid || (w < 0 && errno == ECHILD)) {
            if (w < 0)
                *status = -1;
            break;
        }
        double used = clocked ? cpu_seconds(clock) : -1;
        if (used < 0)
            continue;
        still_ms = ready == 0 && used == last ? still_ms + tick_ms : 0;
        last = used;
        if (used > budget || still_ms >= MP_HELPER_STALL_MS) {
            how = used > budget ? MP_HELPER_OVER_BUDGET : MP_HELPER_STALLED;
            kill(pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR)
                ;
            break;
        }
    }
    if (pidfd >= 0)
        close(pidfd);
    return how;
}

static void answer(int sock, int kind, mp_helper_ending how, int status)
{
    reply r = {kind, (int32_t)how, status};
    while (send(sock, &r, sizeof r, MSG_NOSIGNAL) < 0 && errno == EINTR)
        ;
}

/* The helper: a call at a time, each in a fresh child, until the converter's end closes. */
static _Noreturn void helper_main(mp_helper_job job, int sock, int input_fd, int answer_fd)
{
    close_all_but(sock, input_fd, answer_fd);
    pid_t self = getpid();
    for (;;) {
        request q;
        ssize_t n = recv(sock, &q, sizeof q, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n != (ssize_t)sizeof q)
            _exit(0);
        pid_t child = fork();
        if (child == 0) {
            const uint8_t *input = NULL;
            if (q.input_size) {
                void *m = mmap(NULL, q.input_size, PROT_READ, MAP_PRIVATE, input_fd, 0);
                input = m == MAP_FAILED ? NULL : m;
            }
            close_all_but(answer_fd, -1, -1);
            if (q.input_size && !input)
                _exit(127);
            job(q.job, input, q.input_size, answer_fd, self);
            _exit(127);
        }
        if (child < 0) {
            answer(sock, DONE, MP_HELPER_LOST, -1);
            continue;
        }
        answer(sock, FORKED, MP_HELPER_ENDED, 0);
        int status = -1;
        mp_helper_ending how = watch(child, q.budget, &status);
        answer(sock, DONE, how, status);
    }
}

static void end_helper(mp_helper *h, int kill_it)
{
    close(h->sock);
    close(h->input_fd);
    close(h->answer_fd);
    if (kill_it)
        kill(h->pid, SIGKILL);
    while (waitpid(h->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    free(h);
}

static mp_helper *start_helper(mp_helper_job job, mp_error *err)
{
    mp_helper *h = malloc(sizeof *h);
    int sv[2] = {-1, -1};
    if (!h)
        goto fail;
    *h = (mp_helper){.input_fd = -1, .answer_fd = -1};
    h->input_fd = memfd_create("mlvpipe-photo", MFD_CLOEXEC);
    h->answer_fd = memfd_create("mlvpipe-libraw", MFD_CLOEXEC);
    if (h->input_fd < 0 || h->answer_fd < 0 ||
        socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
        goto fail;
    h->pid = fork();
    if (h->pid == 0)
        helper_main(job, sv[1], h->input_fd, h->answer_fd);
    if (h->pid < 0)
        goto fail;
    close(sv[1]);
    h->sock = sv[0];
    return h;
fail:;
    int e = errno;
    mp_status code = h ? MP_ERR_IO : MP_ERR_NOMEM;
    if (h) {
        for (int i = 0; i < 2; i++)
            if (sv[i] >= 0)
                close(sv[i]);
        if (h->input_fd >= 0)
            close(h->input_fd);
        if (h->answer_fd >= 0)
            close(h->answer_fd);
        free(h);
    }
    mp_error_set(err, code, "cannot start a process for LibRaw: %s", strerror(e));
    return NULL;
}

mp_helper *mp_helper_take(mp_helper_job job, mp_error *err)
{
    pthread_mutex_lock(&pool_lock);
    if (pool_owner != getpid()) {   /* a fork of the process whose helpers those are */
        for (mp_helper *h = idle, *next; h; h = next) {
            next = h->next;
            close(h->sock);
            close(h->input_fd);
            close(h->answer_fd);
            free(h);
        }
        idle = NULL;
        pool_owner = getpid();
    }
    mp_helper *h = idle;
    if (h)
        idle = h->next;
    pthread_mutex_unlock(&pool_lock);
    return h ? h : start_helper(job, err);
}

int mp_helper_input_fd(const mp_helper *h)
{
    return h->input_fd;
}

int mp_helper_answer_fd(const mp_helper *h)
{
    return h->answer_fd;
}

/* The helper's next reply of this kind. A helper that uses no CPU time for MP_HELPER_STALL_MS
 * is stalled: it forks within moments of a call, and then watches its child, looking at
 * least every half second. */
static mp_helper_ending receive(mp_helper *h, int kind, reply *r)
{
    clockid_t clock;
    int clocked = !clock_getcpuclockid(h->pid, &clock);
    double last = -1;
    int still_ms = 0;
    for (;;) {
        struct pollfd p = {h->sock, POLLIN, 0};
        int ready = poll(&p, 1, 500);
        if (ready < 0 && errno != EINTR)
            return MP_HELPER_LOST;
        if (ready > 0) {
            ssize_t n = recv(h->sock, r, sizeof *r, 0);
            if (n < 0 && errno == EINTR)
                continue;
            if (n != (ssize_t)sizeof *r)
                return MP_HELPER_LOST;
            if (r->kind == kind)
                return MP_HELPER_ENDED;
            if (r->kind == DONE)   /* no child forked */
                return (mp_helper_ending)r->ending;
            continue;
        }
        double used = clocked ? cpu_seconds(clock) : -1;
        if (used < 0)
            continue;
        still_ms = ready == 0 && used == last ? still_ms + 500 : 0;
        last = used;
        if (still_ms >= MP_HELPER_STALL_MS)
            return MP_HELPER_STALLED;
    }
}

mp_helper_ending mp_helper_call(mp_helper *h, const void *job, size_t job_size,
                                size_t input_size, double budget, int *status)
{
    *status = -1;
    request q = {input_size, budget, {0}};
    memcpy(q.job, job, job_size < sizeof q.job ? job_size : sizeof q.job);
    ssize_t sent;
    while ((sent = send(h->sock, &q, sizeof q, MSG_NOSIGNAL)) < 0 && errno == EINTR)
        ;
    if (sent != (ssize_t)sizeof q)
        return MP_HELPER_LOST;
    reply r;
    mp_helper_ending how = receive(h, FORKED, &r);
    if (how == MP_HELPER_ENDED)
        how = receive(h, DONE, &r);
    if (how == MP_HELPER_ENDED)
        how = (mp_helper_ending)r.ending;
    if (how == MP_HELPER_ENDED || how == MP_HELPER_OVER_BUDGET)
        *status = r.status;
    return how;
}

/* A memory file that a large photo grew is emptied. */
static void empty_if_large(int fd)
{
    int failed = lseek(fd, 0, SEEK_END) > KEEP_BYTES && ftruncate(fd, 0);
    (void)failed;   /* a file left as it is only keeps its memory */
}

void mp_helper_give(mp_helper *h, int sound)
{
    if (!sound || getpid() != pool_owner) {
        end_helper(h, 1);
        return;
    }
    empty_if_large(h->input_fd);
    empty_if_large(h->answer_fd);
    pthread_mutex_lock(&pool_lock);
    h->next = idle;
    idle = h;
    pthread_mutex_unlock(&pool_lock);
}

/* The converter exits: its idle helpers are told (their socket closes) and reaped, so that the
 * CPU time of the children they forked counts in the converter's. */
__attribute__((destructor)) static void end_helpers(void)
{
    pthread_mutex_lock(&pool_lock);
    mp_helper *h = pool_owner == getpid() ? idle : NULL;
    idle = NULL;
    pthread_mutex_unlock(&pool_lock);
    while (h) {
        mp_helper *next = h->next;
        end_helper(h, 0);
        h = next;
    }
}
