/* mlvpipe: Magic Lantern raw video (MLV, RAW, dual ISO) to CinemaDNG and movies. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_run.h"

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

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    int stops_cleanly;      /* watches cli_cancel: SIGINT/SIGTERM stop it with exit 6 */
} commands[] = {
    {"info", cmd_info, "describe a clip: camera, frames, levels, audio, dual ISO, damage", 0},
    {"analyze", cmd_analyze, "estimate clip-level dual-ISO levels and write them as a sidecar",
     1},
    {"convert", cmd_convert, "convert a clip to CinemaDNG, a movie, or a stream on stdout", 1},
    {"plan", cmd_plan, "print a render-farm job (Slurm, GNU parallel, JSON) for a clip", 0},
    {"join", cmd_join, "join movie segments of farm chunks without re-encoding", 1},
    {"report", cmd_report, "an HTML page (and JSON) showing clips at a glance before grading",
     1},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: mlvpipe [-v|-q] [--cpu-flags LEVEL] COMMAND [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'mlvpipe COMMAND --help' describes each command's options.\n"
                 "Exit status: 0 ok, 1 internal error, 2 usage, 3 input unreadable or unsupported,\n"
                 "4 input damaged (intact frames done), 5 output failed, 6 interrupted.\n"
                 "--cpu-flags c|sse2|avx2|neon (or MLVPIPE_CPU_FLAGS) limits the SIMD kernels to\n"
                 "that level (the output is the same at every level; for tests and timing).\n");
}

/* --cpu-flags: the highest instruction-set level the kernels may use. */
static int set_cpu_level(const char *name)
{
    mlvpipe_status st = mlvpipe_cpu_limit(name, NULL);
    if (st != MLVPIPE_OK) {
        fprintf(stderr, "mlvpipe: --cpu-flags %s: %s\n", name,
                st == MLVPIPE_ERR_ARG ? "unknown level (c, sse2, avx2 or neon)"
                                      : "not available on this CPU or build");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

static int run(int argc, char **argv)
{
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-v"))
            cli_verbosity++;
        else if (!strcmp(argv[i], "-q"))
            cli_verbosity = 0;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(argv[i], "--cpu-flags") && i + 1 < argc) {
            if (set_cpu_level(argv[++i]) != EXIT_OK)
                return EXIT_USAGE;
        } else if (!strcmp(argv[i], "--version")) {
            printf("mlvpipe %s\n", MLVPIPE_VERSION);
            return EXIT_OK;
        } else {
            fprintf(stderr, "mlvpipe: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (cli_verbosity >= 2)
        fprintf(stderr, "mlvpipe: info: SIMD kernels: %s\n", mlvpipe_cpu_level());
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++)
        if (!strcmp(argv[i], commands[c].name)) {
            if (commands[c].stops_cleanly)
                cli_honour_signals();
            else
                cli_default_signals();
            return commands[c].run(argc - i, argv + i);
        }
    fprintf(stderr, "mlvpipe: unknown command '%s'\n", argv[i]);
    usage(stderr);
    return EXIT_USAGE;
}

int main(int argc, char **argv)
{
    int rc = run(argc, argv);
    cli_default_signals();   /* a signal kept for a command that never ran ends us now */
    return rc;
}
