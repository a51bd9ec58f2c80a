/* mlvpipe mount SOURCE MOUNTPOINT [options]: the clips of SOURCE as folders of the files
 * convert writes, made on read (mount.h, doc/mount.md). Its options are convert's and its
 * own (rows of CLI_MOUNT in the option table, cli_options.c). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "cli_convert.h"
#include "mount.h"

#define DEFAULT_PREFETCH 8
#define DEFAULT_CACHE_MB 128

static const char command[] = "mount";

static void usage(FILE *out)
{
    fprintf(out,
        "usage: mlvpipe mount SOURCE MOUNTPOINT [options]\n"
        "\n"
        "SOURCE (a folder of clips, or one clip) appears read-only at MOUNTPOINT as one folder\n"
        "per clip holding exactly the files `mlvpipe convert CLIP -o DIR` writes with the same\n"
        "options (DNG frames, WAV), each made when it is read. A clip that cannot be read\n"
        "shows as a folder with " MOUNT_REFUSED_NAME " saying why. Unmount with\n"
        "`fusermount3 -u MOUNTPOINT`, SIGINT or SIGTERM (exit 0). See doc/mount.md.\n"
        "Convert's options shape the files as in convert (--cache DIR also keeps each clip's\n"
        "analysis, by default in $XDG_CACHE_HOME/mlvpipe; --threads: render threads);\n"
        "uncompressed DNG only (an LJ92 file's size is known only once it is made), and\n"
        "options of developed outputs are refused as convert refuses them for DNG.\n"
        "\n"
        "options:\n");
    cli_options_print(out, CLI_CONVERT | CLI_MOUNT, 24);
}

typedef struct mount_args {
    cli_mount_args cli;
    char levels_cache[4096];
} mount_args;

/* convert's options and mount's own, with convert's defaults (as cli_convert_parse sets
 * them). */
static int parse(mount_args *m, int argc, char **argv)
{
    cli_convert_args *a = &m->cli.convert;
    mlvpipe_default_convert_settings(&a->o);
    a->o.tool = "mlvpipe " MLVPIPE_VERSION;
    a->o.log = cli_api_logger;
    a->mode = CLI_PROGRESS_AUTO;
    m->cli.prefetch = DEFAULT_PREFETCH;
    m->cli.cache_mb = DEFAULT_CACHE_MB;
    cli_parsed parsed;
    int rc = cli_options_parse(CLI_CONVERT | CLI_MOUNT, command, argc, argv, &m->cli, &parsed,
                               usage);
    a->help = parsed.help;
    memcpy(a->given, parsed.given, sizeof a->given);
    a->operands = parsed.operands;
    a->operand_count = parsed.operand_count;
    return rc;
}

/* The operands, and convert's options as a mount takes them. */
static int check(mount_args *m)
{
    cli_convert_args *a = &m->cli.convert;
    mlvpipe_convert_settings *o = &a->o;
    if (a->operand_count != 2)
        return cli_usage_error(command, "takes SOURCE and MOUNTPOINT, not %d operands",
                               a->operand_count);
    if (o->output)
        return cli_usage_error(command, "-o: MOUNTPOINT is where the files appear");
    if (a->to && strcmp(a->to, "dng"))
        return cli_usage_error(command, "--to %s: the mount shows DNG sequences only", a->to);
    if (o->skip_existing || o->overwrite)
        return cli_usage_error(command, "--skip-existing and --overwrite write files; the "
                               "mount writes none");
    /* convert's own checks, as for a batch into MOUNTPOINT: options DNG does not take
     * (movie development) are usage errors here too */
    cli_clips source = {&a->operands[0], 1, 1};
    o->output = a->operands[1];
    int rc = cli_convert_check(command, a, &source);
    o->output = NULL;
    if (rc)
        return rc;
    if (o->dng_storage == MLVPIPE_DNG_LJ92 || o->dng_storage == MLVPIPE_DNG_LJ92_2C)
        return cli_usage_error(command, "--dng-compression: uncompressed DNG only (an LJ92 "
                               "file's size is known only once it is encoded)");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (o->cache_dir)
        snprintf(m->levels_cache, sizeof m->levels_cache, "%s", o->cache_dir);
    else if (xdg && *xdg)
        snprintf(m->levels_cache, sizeof m->levels_cache, "%s/mlvpipe", xdg);
    else if (home && *home)
        snprintf(m->levels_cache, sizeof m->levels_cache, "%s/.cache/mlvpipe", home);
    return EXIT_OK;
}

/* Without --foreground: the parent returns when the child says the mount is ready (a byte
 * through a pipe: 0, or the exit status it failed with). */
static int ready_fd = -1;

static void tell_parent(int status)
{
    if (ready_fd < 0)
        return;
    unsigned char b = (unsigned char)status;
    if (write(ready_fd, &b, 1) != 1) {
        /* the parent is gone: nobody to tell */
    }
    close(ready_fd);
    ready_fd = -1;
}

/* The mount is in place: a background mount lets its parent return and leaves the terminal. */
static void mounted(void *ctx)
{
    (void)ctx;
    if (ready_fd < 0)
        return;
    tell_parent(EXIT_OK);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        if (null > 2)
            close(null);
    }
}

static int serve(mount_args *m)
{
    cli_convert_args *a = &m->cli.convert;
    mount_fs fs = {0};
    fs.source = a->operands[0];
    fs.settings = a->o;
    fs.levels_cache = m->levels_cache[0] ? m->levels_cache : NULL;
    fs.prefetch = m->cli.prefetch;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t threads = a->o.threads ? a->o.threads : cpus > 0 ? (uint32_t)cpus : 1;
    int rc = mount_fs_init(&fs);
    if (rc)
        return rc;
    if (!(fs.cache = mount_cache_new(m->cli.cache_mb, threads))) {
        mount_fs_free(&fs);
        return EXIT_INTERNAL;
    }
    rc = mount_fuse_run(&fs, a->operands[1], mounted, NULL);
    mount_cache_free(fs.cache);
    mount_fs_free(&fs);
    return rc;
}

static int background(mount_args *m)
{
    int fds[2];
    if (pipe(fds)) {
        perror("mlvpipe mount: pipe");
        return EXIT_INTERNAL;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("mlvpipe mount: fork");
        return EXIT_INTERNAL;
    }
    if (pid == 0) {
        close(fds[0]);
        ready_fd = fds[1];
        setsid();
        int rc = serve(m);
        tell_parent(rc ? rc : EXIT_INTERNAL);   /* not ready: it failed */
        exit(rc);
    }
    close(fds[1]);
    unsigned char b = EXIT_INTERNAL;
    ssize_t got = read(fds[0], &b, 1);
    close(fds[0]);
    if (got != 1 || b != EXIT_OK) {
        int status;
        waitpid(pid, &status, 0);
    }
    return got == 1 ? b : EXIT_INTERNAL;
}

int cmd_mount(int argc, char **argv)
{
    static mount_args m;   /* zero; large (the option table's flags, the cache path) */
    int rc = parse(&m, argc, argv);
    if (rc || m.cli.convert.help)
        return rc;
    if ((rc = check(&m)))
        return rc;
    return m.cli.foreground ? serve(&m) : background(&m);
}
