/* mlvpipe mount SOURCE MOUNTPOINT [options]: the clips of SOURCE as folders of the files
 * convert writes, made on read (mount.h, doc/mount.md). The mount's own options are taken
 * out of the command line here; the rest is convert's (cli_convert_parse). */
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
        "\n"
        "  -f, --foreground      stay in the foreground (else return once the mount is ready)\n"
        "      --prefetch N      frames rendered ahead of a sequential reader (default %d)\n"
        "      --cache-mb N      memory for rendered frames in MB (default %d)\n"
        "\n"
        "convert's options that shape the files apply: --frames, --naming, --dng-bits,\n"
        "--no-audio, --audio, --fps, --phase, --levels, --dark, --defects-from, --cache DIR\n"
        "(also keeps each clip's analysis; default $XDG_CACHE_HOME/mlvpipe), --threads\n"
        "(render threads). Uncompressed DNG only: an LJ92 file's size is known only once made;\n"
        "options for movies are refused as convert refuses them for DNG.\n",
        DEFAULT_PREFETCH, DEFAULT_CACHE_MB);
}

typedef struct mount_args {
    int foreground;
    uint32_t prefetch, cache_mb;
    cli_convert_args convert;
    char levels_cache[4096];
} mount_args;

/* Takes -f/--foreground, --prefetch N and --cache-mb N (also --opt=N) out of argv, leaving
 * the rest in order (argc updated). */
static int take_own_options(mount_args *m, int *argc, char **argv)
{
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i], *value = NULL;
        uint32_t *target = NULL, max = 0;
        if (!strcmp(a, "--")) {
            while (i < *argc)
                argv[kept++] = argv[i++];
            break;
        }
        if (!strcmp(a, "-f") || !strcmp(a, "--foreground")) {
            m->foreground = 1;
            continue;
        }
        if (!strncmp(a, "--prefetch", 10) && (a[10] == 0 || a[10] == '='))
            target = &m->prefetch, max = 1024, value = a[10] ? a + 11 : NULL;
        else if (!strncmp(a, "--cache-mb", 10) && (a[10] == 0 || a[10] == '='))
            target = &m->cache_mb, max = 1u << 20, value = a[10] ? a + 11 : NULL;
        if (!target) {
            argv[kept++] = argv[i];
            continue;
        }
        if (!value && ++i < *argc)
            value = argv[i];
        if (!value || !cli_parse_uint(value, target == &m->cache_mb, max, target))
            return cli_usage_error(command, "%.10s takes a whole number up to %u, not '%s'", a,
                                   max, value ? value : "");
    }
    *argc = kept;
    argv[kept] = NULL;
    return EXIT_OK;
}

/* The operands, and convert's options as a mount takes them. */
static int check(mount_args *m)
{
    cli_convert_args *a = &m->convert;
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
    cli_convert_args *a = &m->convert;
    mount_fs fs = {0};
    fs.source = a->operands[0];
    fs.settings = a->o;
    fs.levels_cache = m->levels_cache[0] ? m->levels_cache : NULL;
    fs.prefetch = m->prefetch;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t threads = a->o.threads ? a->o.threads : cpus > 0 ? (uint32_t)cpus : 1;
    int rc = mount_fs_init(&fs);
    if (rc)
        return rc;
    if (!(fs.cache = mount_cache_new(m->cache_mb, threads))) {
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
    mount_args m = {.prefetch = DEFAULT_PREFETCH, .cache_mb = DEFAULT_CACHE_MB};
    int rc = take_own_options(&m, &argc, argv);
    if (rc == EXIT_OK)
        rc = cli_convert_parse(command, argc, argv, &m.convert);
    if (rc == EXIT_OK && m.convert.help) {
        usage(stdout);
        return EXIT_OK;
    }
    if (rc || (rc = check(&m)))
        return rc;
    return m.foreground ? serve(&m) : background(&m);
}
