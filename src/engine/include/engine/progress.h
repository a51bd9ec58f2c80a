/* progress: what a conversion reports while it runs. The library computes the figures and
 * formats them; the CLI decides where they go (a terminal line on stderr, JSON lines for
 * farms, or nothing) and calls the formatters.
 *
 * JSON lines (--progress json), one object per line, keys in this order:
 *   {"event":"start","total":120,"first_frame":0,"last_frame":119,"threads":2}
 *   {"event":"frame","frame":37,"done":38,"total":120,"skipped":false,"damaged":false,
 *    "fps":24.10,"eta_s":3.4}
 *   {"event":"done","done":120,"total":120,"written":118,"skipped":2,"damaged":0,
 *    "elapsed_s":5.01,"fps":23.55,"status":"ok"}
 *   {"event":"error","done":40,"total":120,"written":40,"skipped":0,"damaged":0,
 *    "status":"interrupted","message":"..."}
 * The last line is "done" when every selected frame was written or skipped, else "error".
 * "status": ok, usage, io, format, unsupported, damaged, nomem, interrupted, range.
 * "eta_s" is -1 until a rate is known. */
#ifndef MP_PROGRESS_H
#define MP_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_status.h"

typedef enum mp_progress_kind {
    MP_PROGRESS_START, MP_PROGRESS_FRAME, MP_PROGRESS_DONE, MP_PROGRESS_ERROR,
    MP_PROGRESS_LEVELS          /* the levels pre-pass: done of total sampled frames read;
                                 * terminal only (no JSON line: the stream's first line stays
                                 * "start") */
} mp_progress_kind;

typedef struct mp_progress_event {
    mp_progress_kind kind;
    uint32_t total;             /* frames selected */
    uint32_t done;              /* frames finished so far (written, skipped or damaged) */
    uint32_t written, skipped, damaged;
    uint32_t frame;             /* FRAME: its absolute number */
    int frame_skipped;          /* FRAME: it existed already (--skip-existing) */
    int frame_damaged;          /* FRAME: unreadable input, not written */
    uint32_t first_frame, last_frame, threads;   /* START */
    double elapsed_s;
    double fps;                 /* frames actually processed per second; 0 until known */
    double eta_s;               /* seconds left; negative until known */
    mp_status status;           /* DONE, ERROR */
    const char *message;        /* ERROR */
} mp_progress_event;

typedef void (*mp_progress_fn)(void *opaque, const mp_progress_event *ev);

/* Running totals; the caller serialises updates (the pool's ordered delivery does). */
typedef struct mp_progress {
    uint32_t total, done, written, skipped, damaged;
    double start_s;             /* of the frames: their rate and ETA */
    double run_start_s;         /* of the whole run (pre-pass too): the DONE event's time */
    double last_line_s;         /* when the terminal line was last due */
} mp_progress;

void mp_progress_begin(mp_progress *p, uint32_t total, double now_s);
/* The frames of a run begun with mp_progress_begin (after its pre-pass): the rate and ETA
 * count from now, the DONE and ERROR events' time from the run's beginning. */
void mp_progress_frames_begin(mp_progress *p, uint32_t total, double now_s);

/* Counts one finished frame and fills *ev (a FRAME event with fps and ETA). Skipped frames
 * count towards done but not towards the rate, so a resumed run's ETA stays honest. */
void mp_progress_frame(mp_progress *p, uint32_t number, int skipped, int damaged, double now_s,
                       mp_progress_event *ev);

/* Fills a DONE event (status MP_OK) or an ERROR event with the totals so far; its time and
 * rate are the whole run's (the pre-pass included). */
void mp_progress_end(const mp_progress *p, mp_status status, const char *message, double now_s,
                     mp_progress_event *ev);

/* Whether a terminal line is due: at most one per interval_s, and always the last frame. */
int mp_progress_line_due(mp_progress *p, const mp_progress_event *ev, double now_s,
                         double interval_s);

/* A terminal line, no newline; returns the length (snprintf rules). FRAME:
 *   "frames [#########...............]  38%  38/100  24.1 fps  0:02 elapsed  ETA 0:03"
 * LEVELS:
 *   "levels [#########...............]  38%  6/16 sampled frames  0:02 elapsed  ETA 0:03"
 * other kinds give "". ETA is "--:--" until known; times are M:SS, H:MM:SS from an hour. */
int mp_progress_format_line(const mp_progress_event *ev, char *buf, size_t size);
/* One JSON object as documented above, no newline. The message is cut to MP_ERROR_MAX - 1
 * bytes before escaping, so a buffer of MP_PROGRESS_JSON_MAX bytes always holds the whole
 * line (every byte escaped to 6 at worst). */
#define MP_PROGRESS_JSON_MAX (6 * MP_ERROR_MAX + 256)
int mp_progress_format_json(const mp_progress_event *ev, char *buf, size_t size);

/* Monotonic clock in seconds, for now_s. */
double mp_progress_now(void);

#endif
