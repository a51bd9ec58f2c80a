/* What the CLI tells its user besides the output: log lines (-v/-q, over an open progress
 * line), usage errors, and the exit code an input error maps to. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_run.h"

atomic_int cli_progress_line_open;
int cli_verbosity = 1;

/* -q holds back the last warnings instead of dropping them: an error that follows often
 * points at them ("see warnings"), so they are printed just before it. */
#define HELD_WARNINGS 16
static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static char held[HELD_WARNINGS][4 * 512];
static unsigned held_count;      /* warnings held so far; the ring keeps the last 16 */

const char *cli_escaped(const char *s, char *buf, size_t size)
{
    size_t n = 0;
    for (; *s && n + 1 < size; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch >= 0x20 && ch != 0x7f)
            buf[n++] = (char)ch;
        else if (n + 5 <= size)
            n += (size_t)snprintf(buf + n, size - n, "\\x%02x", ch);
        else
            break;
    }
    buf[n] = 0;
    return buf;
}

static void cli_print(mlvpipe_log_level level, const char *raw)
{
    char msg[4 * 512];
    cli_escaped(raw, msg, sizeof msg);
    static const char *const names[] = {"error", "warning", "info", "debug"};
    pthread_mutex_lock(&held_lock);
    if (level == MLVPIPE_LOG_WARNING && cli_verbosity == 0) {
        snprintf(held[held_count++ % HELD_WARNINGS], sizeof held[0], "%s", msg);
    } else if (level == MLVPIPE_LOG_ERROR && held_count) {
        if (held_count > HELD_WARNINGS)
            fprintf(stderr, "mlvpipe: (%u earlier warnings not shown)\n",
                    held_count - HELD_WARNINGS);
        for (unsigned i = held_count > HELD_WARNINGS ? held_count - HELD_WARNINGS : 0;
             i < held_count; i++)
            fprintf(stderr, "mlvpipe: warning: %s\n", held[i % HELD_WARNINGS]);
        held_count = 0;
    }
    pthread_mutex_unlock(&held_lock);
    if ((int)level > cli_verbosity && level != MLVPIPE_LOG_ERROR)
        return;
    /* Over an open progress line, which the next update redraws below the message. */
    fprintf(stderr, "%smlvpipe: %s: %s\n",
            atomic_load(&cli_progress_line_open) ? "\r\033[K" : "", names[level], msg);
}

static void cli_api_log_fn(void *opaque, mlvpipe_log_level level, const char *msg)
{
    (void)opaque;
    cli_print(level, msg);
}

const mlvpipe_logger cli_api_logger = {cli_api_log_fn, NULL};

void cli_log(mlvpipe_log_level level, const char *fmt, ...)
{
    char msg[2 * sizeof ((mlvpipe_error *)0)->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_print(level, msg);
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
    char raw[1024], msg[4 * sizeof raw];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    fprintf(stderr, "mlvpipe %s: %s\n(see 'mlvpipe %s --help')\n", command,
            cli_escaped(raw, msg, sizeof msg), command);
    return EXIT_USAGE;
}

int cli_check_new_output(const char *command, const char *path, int overwrite)
{
    struct stat sb;
    if (!path || !strcmp(path, "-") || stat(path, &sb) != 0)
        return EXIT_OK;
    if (S_ISDIR(sb.st_mode))
        return cli_usage_error(command, "%s is a folder; give the file's name", path);
    if (!overwrite && S_ISREG(sb.st_mode))
        return cli_usage_error(command, "%s: exists; --overwrite replaces it", path);
    return EXIT_OK;
}

int cli_exit_for_input(mlvpipe_status st)
{
    switch (st) {
    case MLVPIPE_OK: return EXIT_OK;
    case MLVPIPE_ERR_DAMAGED: return EXIT_DAMAGED;
    case MLVPIPE_ERR_INTERRUPTED: return EXIT_INTERRUPTED;
    case MLVPIPE_ERR_ARG: return EXIT_USAGE;
    case MLVPIPE_ERR_IO:
    case MLVPIPE_ERR_FORMAT:
    case MLVPIPE_ERR_UNSUPPORTED:
    case MLVPIPE_ERR_RANGE: return EXIT_INPUT;
    case MLVPIPE_ERR_NOMEM: return EXIT_INTERNAL;
    }
    return EXIT_INTERNAL;
}
