#include "cli_run.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

atomic_int cli_cancel;
static atomic_int honoured, pending;

static void on_signal(int sig)
{
    /* lock-free atomics are async-signal-safe; SA_RESETHAND restored the default action, so
     * a second signal kills */
    if (!atomic_load(&honoured))
        atomic_store(&pending, sig);   /* before main chose its command: decided there */
    else
        atomic_store(&cli_cancel, 1);
}

/* Run by the dynamic loader once it has mapped and relocated the libraries, before any of
 * their initialisers (libav's and the ~130 libraries it pulls in) and before main: a SIGTERM
 * from a farm in that time is kept for main instead of killing a task that would have
 * stopped cleanly (exit 6, requeued). Only the mapping itself (~20 ms) comes before. */
static void install_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}
__attribute__((section(".preinit_array"), used)) static void (*const install_first)(void) =
    install_handlers;

void cli_honour_signals(void)
{
    atomic_store(&honoured, 1);
    if (atomic_exchange(&pending, 0))
        atomic_store(&cli_cancel, 1);
}

void cli_default_signals(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    int sig = atomic_exchange(&pending, 0);
    if (sig)
        raise(sig);
}

void cli_progress_init(cli_progress *p, cli_progress_mode mode, int to_stdout, double every_s)
{
    memset(p, 0, sizeof *p);
    if (mode == CLI_PROGRESS_AUTO && (!isatty(STDERR_FILENO) || cli_verbosity == 0))
        mode = CLI_PROGRESS_NONE;
    p->mode = mode;
    p->whole_lines = to_stdout;
    p->every_s = every_s;
    p->last_line_s = -1e300;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* At most one line per interval_s, and always the one that completes the count. */
static int line_due(cli_progress *p, const mlvpipe_progress *ev, double interval_s)
{
    double now = now_s();
    if (ev->done != ev->total && now - p->last_line_s < interval_s)
        return 0;
    p->last_line_s = now;
    return 1;
}

static void close_line(cli_progress *p)
{
    if (p->line_open)
        fputc('\n', stderr);
    p->line_open = 0;
    atomic_store(&cli_progress_line_open, 0);
}

void cli_progress_close(cli_progress *p)
{
    close_line(p);
    fflush(stderr);
}

static void print_terminal(cli_progress *p, const mlvpipe_progress *ev)
{
    char line[256];
    if (ev->kind == MLVPIPE_PROGRESS_FRAME || ev->kind == MLVPIPE_PROGRESS_LEVELS) {
        /* The pre-pass line stays on screen above the frames' one. */
        if (p->line_open && p->line_kind != ev->kind)
            close_line(p);
        if (!line_due(p, ev, p->whole_lines ? 5.0 : 0.25))
            return;
        mlvpipe_progress_line(ev, line, sizeof line);
        if (p->whole_lines) {
            fprintf(stderr, "\r%s\033[K\n", line);
            return;
        }
        fprintf(stderr, "\r%s\033[K", line);
        p->line_open = 1;
        p->line_kind = ev->kind;
        atomic_store(&cli_progress_line_open, 1);
    } else if (ev->kind == MLVPIPE_PROGRESS_DONE || ev->kind == MLVPIPE_PROGRESS_ERROR) {
        close_line(p);
        if (ev->kind == MLVPIPE_PROGRESS_DONE)
            fprintf(stderr, "%s%u frames (%u written, %u skipped) in %.1f s, %.1f fps\n",
                    p->whole_lines ? "\r\033[K" : "", ev->done, ev->written, ev->skipped,
                    ev->elapsed_s, ev->fps);
    }
}

void cli_progress_print(void *opaque, const mlvpipe_progress *ev)
{
    cli_progress *p = opaque;
    char line[2 * sizeof ((mlvpipe_error *)0)->message + 256];
    if (p->mode == CLI_PROGRESS_JSON) {
        if (ev->kind == MLVPIPE_PROGRESS_LEVELS)
            return;
        if (ev->kind == MLVPIPE_PROGRESS_FRAME && p->every_s > 0 && !line_due(p, ev, p->every_s))
            return;
        mlvpipe_progress_json(ev, line, sizeof line);
        fprintf(stderr, "%s\n", line);
    } else if (p->mode == CLI_PROGRESS_AUTO) {
        print_terminal(p, ev);
    }
    fflush(stderr);
}

int cli_parse_seconds(const char *s, double *out)
{
    char *end;
    if (!s || !*s)
        return 0;
    double v = strtod(s, &end);
    if (*end || !(v >= 0 && v <= 86400))
        return 0;
    *out = v;
    return 1;
}

void cli_verbosity_option(int c)
{
    if (c == 'v')
        cli_verbosity++;
    else
        cli_verbosity = 0;
}

int cli_option_error(const char *command, int c, char **argv)
{
    const char *opt = argv[optind - 1];
    if (c == ':')
        return cli_usage_error(command, "option '%s' needs a value", opt);
    return cli_usage_error(command, "unknown option '%s'", opt);
}

int cli_parse_uint(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
    char *end;
    if (!s || *s < '0' || *s > '9')
        return 0;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return 0;
    *out = (uint32_t)v;
    return 1;
}

int cli_one_clip(const char *command, char *const *operands, int count, const char **clip)
{
    if (count == 0)
        return cli_usage_error(command, "no clip given");
    if (count > 1)
        return cli_usage_error(command, "one clip at a time ('%s' is extra)", operands[1]);
    *clip = operands[0];
    return EXIT_OK;
}
