/* libfuse3 for the mount (mount.h), loaded at run time as LibRaw and libav are
 * (doc/architecture.md 3): every other command, and a machine without fuse3, never needs it.
 * This file compiles against fuse3's headers (the operations struct, FUSE_USE_VERSION 31)
 * and calls the library through one table filled by dlopen/dlsym. One mount per process, so
 * the operations reach the tree through a static pointer. */
#include "mount.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifdef MLVPIPE_NO_FUSE

int mount_fuse_run(mount_fs *fs, const char *mountpoint, void (*ready)(void *ctx), void *ctx)
{
    (void)fs, (void)mountpoint, (void)ready, (void)ctx;
    cli_log(MLVPIPE_LOG_ERROR, "mount: this mlvpipe was built without libfuse3's headers "
            "(libfuse3-dev)");
    return EXIT_INTERNAL;
}

#else

#define FUSE_USE_VERSION 31
#include <dlfcn.h>
#include <fuse3/fuse.h>

#define FUSE_SONAME "libfuse3.so.3"

/* The functions used, under the names of the versions FUSE_USE_VERSION 31 picks. */
static struct {
    struct fuse *(*new_31)(struct fuse_args *, const struct fuse_operations *, size_t, void *);
    int (*mount)(struct fuse *, const char *);
    void (*unmount)(struct fuse *);
    void (*destroy)(struct fuse *);
    int (*loop_mt_31)(struct fuse *, int);
    struct fuse_session *(*get_session)(struct fuse *);
    int (*set_signal_handlers)(struct fuse_session *);
    void (*remove_signal_handlers)(struct fuse_session *);
    void (*opt_free_args)(struct fuse_args *);
} lib;

static int load(void)
{
    static const char *const names[] = {"fuse_new_31", "fuse_mount", "fuse_unmount",
                                        "fuse_destroy", "fuse_loop_mt_31", "fuse_get_session",
                                        "fuse_set_signal_handlers",
                                        "fuse_remove_signal_handlers", "fuse_opt_free_args"};
    void **slots[] = {(void **)&lib.new_31, (void **)&lib.mount, (void **)&lib.unmount,
                      (void **)&lib.destroy, (void **)&lib.loop_mt_31,
                      (void **)&lib.get_session, (void **)&lib.set_signal_handlers,
                      (void **)&lib.remove_signal_handlers, (void **)&lib.opt_free_args};
    void *handle = dlopen(FUSE_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        cli_log(MLVPIPE_LOG_ERROR, "mount: %s (install fuse3: mount needs it)",
                why ? why : FUSE_SONAME);
        return 0;
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!(*slots[i] = dlsym(handle, names[i]))) {
            cli_log(MLVPIPE_LOG_ERROR, "mount: %s has no %s: not the libfuse3 this build "
                    "needs", FUSE_SONAME, names[i]);
            return 0;
        }
    return 1;
}

static mount_fs *tree;

static void fill_stat(const mount_node *n, struct stat *st)
{
    memset(st, 0, sizeof *st);
    int dir = n->kind == MOUNT_ROOT || n->kind == MOUNT_CLIP;
    st->st_mode = dir ? S_IFDIR | 0555 : S_IFREG | 0444;
    st->st_nlink = dir ? 2 : 1;
    st->st_size = dir ? 0 : (off_t)n->size;
    st->st_uid = getuid();
    st->st_gid = getgid();
    st->st_atime = st->st_mtime = st->st_ctime = tree->mounted_at;
}

static int op_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
    (void)fi;
    mount_node n;
    int rc = mount_fs_lookup(tree, path, &n);
    if (!rc)
        fill_stat(&n, st);
    return rc;
}

typedef struct listing {
    void *buf;
    fuse_fill_dir_t fill;
} listing;

static int add_entry(void *ctx, const char *name, const mount_node *node)
{
    listing *l = ctx;
    struct stat st;
    fill_stat(node, &st);
    return l->fill(l->buf, name, &st, 0, 0);
}

static int op_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t offset,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
    (void)offset, (void)fi, (void)flags;
    mount_node n;
    int rc = mount_fs_lookup(tree, path, &n);
    if (rc)
        return rc;
    fill(buf, ".", NULL, 0, 0);
    fill(buf, "..", NULL, 0, 0);
    listing l = {buf, fill};
    return mount_fs_list(tree, &n, &l, add_entry);
}

static int op_open(const char *path, struct fuse_file_info *fi)
{
    if ((fi->flags & O_ACCMODE) != O_RDONLY)
        return -EROFS;
    mount_node n;
    int rc = mount_fs_lookup(tree, path, &n);
    if (!rc && (n.kind == MOUNT_ROOT || n.kind == MOUNT_CLIP))
        rc = -EISDIR;
    return rc;
}

static int op_read(const char *path, char *buf, size_t size, off_t offset,
                   struct fuse_file_info *fi)
{
    (void)fi;
    mount_node n;
    int rc = mount_fs_lookup(tree, path, &n);
    if (rc)   /* an open file that went (a frame found damaged, a clip refused late) */
        return -EIO;
    if (offset < 0)
        return -EINVAL;
    ssize_t got = mount_fs_read(tree, &n, buf, size, (uint64_t)offset);
    return (int)got;
}

/* Entries and sizes are kept a second by the kernel, so that clips that come and go show
 * soon; pages are dropped at each open (a clip that came back may be another). */
static void *op_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
    (void)conn;
    cfg->entry_timeout = 1;
    cfg->attr_timeout = 1;
    cfg->negative_timeout = 1;
    return NULL;
}

int mount_fuse_run(mount_fs *fs, const char *mountpoint, void (*ready)(void *ctx), void *ctx)
{
    if (!load())
        return EXIT_INTERNAL;
    static const struct fuse_operations ops = {
        .getattr = op_getattr,
        .readdir = op_readdir,
        .open = op_open,
        .read = op_read,
        .init = op_init,
    };
    char *argv[] = {"mlvpipe", "-o", "ro,fsname=mlvpipe,subtype=mlvpipe", NULL};
    struct fuse_args args = FUSE_ARGS_INIT(3, argv);
    tree = fs;
    struct fuse *f = lib.new_31(&args, &ops, sizeof ops, NULL);
    lib.opt_free_args(&args);   /* fuse_new copies what it keeps, and may have grown args */
    if (!f) {
        cli_log(MLVPIPE_LOG_ERROR, "mount: libfuse3 refused to start");
        return EXIT_INTERNAL;
    }
    if (lib.mount(f, mountpoint)) {
        lib.destroy(f);
        return EXIT_OUTPUT;   /* libfuse3 has said why */
    }
    struct fuse_session *se = lib.get_session(f);
    lib.set_signal_handlers(se);
    ready(ctx);
    /* 0 when unmounted from outside, the signal's number when signalled: both a clean end */
    int rc = lib.loop_mt_31(f, 0);
    lib.remove_signal_handlers(se);
    lib.unmount(f);
    lib.destroy(f);
    if (rc < 0)
        cli_log(MLVPIPE_LOG_ERROR, "mount: %s", strerror(-rc));
    return rc < 0 ? EXIT_INTERNAL : EXIT_OK;
}

#endif
