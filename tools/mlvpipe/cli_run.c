#include "cli_run.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

atomic_int cli_cancel;

static void on_signal(int sig)
{
    (void)sig;
    atomic_store(&cli_cancel, 1);   /* lock-free, so async-signal-safe */
}

void cli_install_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* One signal asks for a clean stop; the handler then resets, so a second one kills. */
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int cli_parse_progress(const char *s, cli_progress_mode *out)
{
    static const char *const names[] = {"auto", "json", "none"};
    for (int i = 0; i < 3; i++) {
        if (!strcmp(s, names[i])) {
            *out = (cli_progress_mode)i;
            return 1;
        }
    }
    return 0;
}

void cli_progress_init(cli_progress *p, cli_progress_mode mode)
{
    memset(p, 0, sizeof *p);
    if (mode == CLI_PROGRESS_AUTO && (!isatty(STDERR_FILENO) || cli_verbosity == 0))
        mode = CLI_PROGRESS_NONE;
    p->mode = mode;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void cli_progress_print(void *opaque, const mlvpipe_progress *ev)
{
    cli_progress *p = opaque;
    char line[2 * sizeof ((mlvpipe_error *)0)->message + 256];
    if (p->mode == CLI_PROGRESS_JSON) {
        mlvpipe_progress_json(ev, line, sizeof line);
        fprintf(stderr, "%s\n", line);
        fflush(stderr);
        return;
    }
    if (p->mode != CLI_PROGRESS_AUTO)
        return;
    if (ev->kind == MLVPIPE_PROGRESS_FRAME) {
        /* at most four lines a second, and always the last frame's */
        double now = now_s();
        if (ev->done != ev->total && now - p->last_line_s < 0.25)
            return;
        p->last_line_s = now;
        mlvpipe_progress_line(ev, line, sizeof line);
        fprintf(stderr, "\r%s\033[K", line);
        p->line_shown = 1;
    } else if (ev->kind == MLVPIPE_PROGRESS_DONE || ev->kind == MLVPIPE_PROGRESS_ERROR) {
        if (p->line_shown)
            fputc('\n', stderr);
        p->line_shown = 0;
        if (ev->kind == MLVPIPE_PROGRESS_DONE)
            fprintf(stderr, "%u frames (%u written, %u skipped) in %.1f s, %.1f fps\n",
                    ev->done, ev->written, ev->skipped, ev->elapsed_s, ev->fps);
    }
    fflush(stderr);
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

int cli_option_threads(const char *command, const char *arg, uint32_t *out)
{
    if (!cli_parse_uint(arg, 1, 256, out))
        return cli_usage_error(command, "--threads needs a number from 1 to 256, not '%s'", arg);
    return EXIT_OK;
}

int cli_option_phase(const char *command, const char *arg, int *out)
{
    uint32_t phase;
    if (!cli_parse_uint(arg, 0, 3, &phase))
        return cli_usage_error(command, "--phase takes 0, 1, 2 or 3, not '%s'", arg);
    *out = (int)phase;
    return EXIT_OK;
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
