/* reader/libraw_helper: the small processes that fork LibRaw's children (not a public header).
 *
 * Every call into LibRaw runs in a child process of its own (libraw_child.h, doc/stills.md 7).
 * Forking that child from the converting process itself cost a batch of stills most of its
 * system time and the second thread's share: a fork copies the page tables of a process that
 * holds the frames of every still in flight, write-protects all of its memory (each page it
 * writes afterwards faults once more) and flushes the TLB of the other core running it. So
 * the children are forked by a helper instead: a process forked from the converter once,
 * whose memory stays small and untouched, that waits on a socket for a call, forks a fresh
 * child for it, watches that child (CPU budget, stalls) and answers how it ended. The
 * photo's bytes go to the child, and its answer comes back, through two memory files the
 * helper and the converter share, reused from call to call. A helper serves one call at a
 * time; a call takes an idle helper or starts one, so there are as many as calls at once. */
#ifndef MP_LIBRAW_HELPER_H
#define MP_LIBRAW_HELPER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/mp_status.h"

/* The call's parameters, copied to the child as they are. */
#define MP_HELPER_REQUEST_MAX 64

/* Runs in the fresh child: the call's parameters, the input (mapped, read-only), the memory
 * file to answer in, and the helper's pid (the child's parent). Must end with _exit. */
typedef void (*mp_helper_job)(const void *request, const uint8_t *input, size_t input_size,
                              int answer_fd, pid_t helper);

/* How a call's child ended, as the helper saw it. */
typedef enum mp_helper_ending {
    MP_HELPER_ENDED,         /* by itself: *status is waitpid's */
    MP_HELPER_OVER_BUDGET,   /* stopped: more CPU time than the budget */
    MP_HELPER_STALLED,       /* stopped: no CPU time used for MP_HELPER_STALL_MS (the child),
                              * or no child forked in that time (the helper) */
    MP_HELPER_LOST,          /* the helper itself is gone, or no child could be forked */
} mp_helper_ending;

/* A child (or a helper) whose CPU time does not move for this long is blocked, not working. */
#define MP_HELPER_STALL_MS 5000

typedef struct mp_helper mp_helper;

/* An idle helper of this process, or a new one (forked now: the caller's process must be
 * ready to be forked, e.g. LibRaw loaded). NULL with MP_ERR_IO / MP_ERR_NOMEM in err. Every
 * call must pass the same job. */
mp_helper *mp_helper_take(mp_helper_job job, mp_error *err);

/* The memory files of the call's input (the caller writes it from offset 0) and of the
 * child's answer (the caller clears what it needs cleared before the call, since a file reused
 * from the last call keeps that call's bytes, and reads the answer after it). */
int mp_helper_input_fd(const mp_helper *h);
int mp_helper_answer_fd(const mp_helper *h);

/* One call: the input file's first input_size bytes (mapped) and request[0..request_size)
 * (<= MP_HELPER_REQUEST_MAX) handed to a fresh child, which is given `budget` CPU-seconds.
 * *status is waitpid's for MP_HELPER_ENDED and OVER_BUDGET (-1 when unknown). */
mp_helper_ending mp_helper_call(mp_helper *h, const void *request, size_t request_size,
                                size_t input_size, double budget, int *status);

/* Gives the helper back after a call: kept for the next call when `sound` (its child ended or
 * was stopped over its budget), else ended (a stall may come from a lock the helper itself
 * inherited; a lost helper is gone). */
void mp_helper_give(mp_helper *h, int sound);

#endif
