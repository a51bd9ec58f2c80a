#include "engine/progress.h"

#include <stdio.h>
#include <time.h>

#include "common/json.h"

double mp_progress_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void mp_progress_begin(mp_progress *p, uint32_t total, double now_s)
{
    *p = (mp_progress){.total = total, .start_s = now_s, .run_start_s = now_s,
                       .last_line_s = -1e300};
}

void mp_progress_frames_begin(mp_progress *p, uint32_t total, double now_s)
{
    const double run = p->run_start_s;
    mp_progress_begin(p, total, now_s);
    p->run_start_s = run;
}

static void fill_rates(const mp_progress *p, double now_s, mp_progress_event *ev)
{
    uint32_t processed = p->written + p->damaged;
    ev->total = p->total;
    ev->done = p->done;
    ev->written = p->written;
    ev->skipped = p->skipped;
    ev->damaged = p->damaged;
    ev->elapsed_s = now_s - p->start_s;
    ev->fps = processed && ev->elapsed_s > 0 ? processed / ev->elapsed_s : 0;
    ev->eta_s = ev->fps > 0 ? (p->total - p->done) / ev->fps : p->done == p->total ? 0 : -1;
}

void mp_progress_frame(mp_progress *p, uint32_t number, int skipped, int damaged, double now_s,
                       mp_progress_event *ev)
{
    p->done++;
    if (skipped)
        p->skipped++;
    else if (damaged)
        p->damaged++;
    else
        p->written++;
    *ev = (mp_progress_event){.kind = MP_PROGRESS_FRAME, .frame = number,
                              .frame_skipped = skipped, .frame_damaged = !skipped && damaged};
    fill_rates(p, now_s, ev);
}

void mp_progress_end(const mp_progress *p, mp_status status, const char *message, double now_s,
                     mp_progress_event *ev)
{
    *ev = (mp_progress_event){.kind = status == MP_OK ? MP_PROGRESS_DONE : MP_PROGRESS_ERROR,
                              .status = status, .message = message};
    fill_rates(p, now_s, ev);
    ev->elapsed_s = now_s - p->run_start_s;
    ev->fps = p->written + p->damaged && ev->elapsed_s > 0
                  ? (p->written + p->damaged) / ev->elapsed_s : 0;
}

int mp_progress_line_due(mp_progress *p, const mp_progress_event *ev, double now_s,
                         double interval_s)
{
    if (ev->done != ev->total && now_s - p->last_line_s < interval_s)
        return 0;
    p->last_line_s = now_s;
    return 1;
}

static const char *status_key(mp_status st)
{
    switch (st) {
    case MP_OK: return "ok";
    case MP_ERR_ARG: return "usage";
    case MP_ERR_IO: return "io";
    case MP_ERR_FORMAT: return "format";
    case MP_ERR_UNSUPPORTED: return "unsupported";
    case MP_ERR_DAMAGED: return "damaged";
    case MP_ERR_NOMEM: return "nomem";
    case MP_ERR_INTERRUPTED: return "interrupted";
    case MP_ERR_RANGE: return "range";
    }
    return "internal";
}

/* M:SS, or H:MM:SS from an hour; "--:--" for a negative (unknown) time. */
static void format_time(double seconds, char out[32])
{
    if (seconds < 0) {
        snprintf(out, 32, "--:--");
        return;
    }
    unsigned long s = (unsigned long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(out, 32, "%lu:%02lu:%02lu", s / 3600, s / 60 % 60, s % 60);
    else
        snprintf(out, 32, "%lu:%02lu", s / 60, s % 60);
}

#define BAR_WIDTH 24

int mp_progress_format_line(const mp_progress_event *ev, char *buf, size_t size)
{
    if (ev->kind != MP_PROGRESS_FRAME && ev->kind != MP_PROGRESS_LEVELS)
        return snprintf(buf, size, "%s", "");
    /* Whole percent and bar cells, rounded down: 100 % only when everything is done. */
    uint64_t done = ev->done < ev->total ? ev->done : ev->total;
    unsigned percent = ev->total ? (unsigned)(done * 100 / ev->total) : 100;
    unsigned cells = ev->total ? (unsigned)(done * BAR_WIDTH / ev->total) : BAR_WIDTH;
    char bar[BAR_WIDTH + 1], elapsed[32], eta[32];
    for (unsigned i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < cells ? '#' : '.';
    bar[BAR_WIDTH] = 0;
    format_time(ev->elapsed_s, elapsed);
    format_time(ev->eta_s, eta);
    if (ev->kind == MP_PROGRESS_LEVELS)
        return snprintf(buf, size, "levels [%s] %3u%%  %u/%u sampled frames  %s elapsed  ETA %s",
                        bar, percent, ev->done, ev->total, elapsed, eta);
    return snprintf(buf, size, "frames [%s] %3u%%  %u/%u  %.1f fps  %s elapsed  ETA %s", bar,
                    percent, ev->done, ev->total, ev->fps, elapsed, eta);
}

int mp_progress_format_json(const mp_progress_event *ev, char *buf, size_t size)
{
    switch (ev->kind) {
    case MP_PROGRESS_START:
        return snprintf(buf, size, "{\"event\":\"start\",\"total\":%u,\"first_frame\":%u,"
                        "\"last_frame\":%u,\"threads\":%u}", ev->total, ev->first_frame,
                        ev->last_frame, ev->threads);
    case MP_PROGRESS_FRAME:
        return snprintf(buf, size, "{\"event\":\"frame\",\"frame\":%u,\"done\":%u,\"total\":%u,"
                        "\"skipped\":%s,\"damaged\":%s,\"fps\":%.2f,\"eta_s\":%.1f}",
                        ev->frame, ev->done, ev->total, ev->frame_skipped ? "true" : "false",
                        ev->frame_damaged ? "true" : "false", ev->fps, ev->eta_s);
    case MP_PROGRESS_DONE:
        return snprintf(buf, size, "{\"event\":\"done\",\"done\":%u,\"total\":%u,\"written\":%u,"
                        "\"skipped\":%u,\"damaged\":%u,\"elapsed_s\":%.2f,\"fps\":%.2f,"
                        "\"status\":\"%s\"}", ev->done, ev->total, ev->written, ev->skipped,
                        ev->damaged, ev->elapsed_s, ev->fps, status_key(ev->status));
    case MP_PROGRESS_LEVELS:
        break;
    case MP_PROGRESS_ERROR: {
        char cut[MP_ERROR_MAX];   /* bounds the line: see MP_PROGRESS_JSON_MAX */
        snprintf(cut, sizeof cut, "%s", ev->message ? ev->message : "");
        mp_text msg = {0};
        mp_text_json_string(&msg, cut);
        int n = snprintf(buf, size, "{\"event\":\"error\",\"done\":%u,\"total\":%u,"
                         "\"written\":%u,\"skipped\":%u,\"damaged\":%u,\"status\":\"%s\","
                         "\"message\":%s}", ev->done, ev->total, ev->written, ev->skipped,
                         ev->damaged, status_key(ev->status), msg.failed ? "null" : msg.data);
        mp_text_free(&msg);
        return n;
    }
    }
    return snprintf(buf, size, "{}");
}
