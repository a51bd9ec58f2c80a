/* mlvpipe: Magic Lantern raw video (MLV, RAW, dual ISO) to CinemaDNG and movies. */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_run.h"

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
    {"mount", cmd_mount, "a folder of clips as folders of DNG frames made on read (FUSE)", 0},
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

/* A usage error before the command: one line and the hint, like the commands' own. */
static int usage_error(const char *what, const char *arg, const char *why)
{
    char escaped[1024];
    fprintf(stderr, "mlvpipe: %s '%s'%s\n(see 'mlvpipe --help')\n", what,
            cli_escaped(arg, escaped, sizeof escaped), why);
    return EXIT_USAGE;
}

/* --cpu-flags: the highest instruction-set level the kernels may use. */
static int set_cpu_level(const char *name)
{
    mlvpipe_status st = mlvpipe_cpu_limit(name, NULL);
    if (st != MLVPIPE_OK)
        return usage_error("--cpu-flags", name,
                           st == MLVPIPE_ERR_ARG ? ": unknown level (c, sse2, avx2 or neon)"
                                                 : ": not available on this CPU or build");
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
        } else if (!strcmp(argv[i], "--cpu-flags")) {
            return usage_error("option", argv[i], " needs a value");
        } else {
            return usage_error("unknown option", argv[i], "");
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
    return usage_error("unknown command", argv[i], "");
}

/* The heap keeps what a frame or a still frees for the next one to reuse. glibc's defaults
 * hand a large buffer back to the kernel as soon as it is freed (munmap; a thread's arena
 * with MADV_DONTNEED), and the next one then faults in a fresh zeroed page every 4 KiB, on
 * two threads with the other core's TLB flushed too: a folder of 16 1080p stills faulted
 * 101,000 times, 37,000 with these (doc/stills.md 6). Buffers above 32 MiB are still mapped
 * apart and given back, and at most 64 MiB is kept free at the top of a heap. */
static void keep_freed_memory(void)
{
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

int main(int argc, char **argv)
{
    keep_freed_memory();
    int rc = run(argc, argv);
    cli_default_signals();   /* a signal kept for a command that never ran ends us now */
    return rc;
}
