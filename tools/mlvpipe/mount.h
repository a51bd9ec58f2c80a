/* mlvpipe mount: a folder of clips (or one clip) as a read-only file system of the folders
 * `mlvpipe convert` would write, each file made when it is read (doc/mount.md).
 *
 * mount_fs.c   the tree: the clips of SOURCE (rescanned as they come and go), each a folder
 *              of its frames on demand (mlvpipe/frames.h), or of one text file saying why the
 *              clip was refused; paths to files, sizes, bytes.
 * mount_cache.c rendered frames: a bounded LRU shared by every reader, filled by the readers
 *              and by prefetch threads that render ahead of sequential readers.
 * mount_fuse.c libfuse3, loaded at run time: its operations over mount_fs, the mount, the
 *              loop, the signals.
 * cmd_mount.c  the command line. */
#ifndef MLVPIPE_MOUNT_H
#define MLVPIPE_MOUNT_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include <mlvpipe/mlvpipe.h>

#include "cli_convert.h"

#define MOUNT_REFUSED_NAME "mlvpipe-refused.txt"

/* mount's command line: convert's arguments first, so that the option table's convert rows
 * (offsets into cli_convert_args) write here too, then its own (rows of CLI_MOUNT). */
typedef struct cli_mount_args {
    cli_convert_args convert;
    int foreground;
    uint32_t prefetch, cache_mb;
} cli_mount_args;

typedef struct mount_cache mount_cache;

/* One clip of SOURCE. Never freed while mounted (a reader may hold it): a clip that leaves
 * SOURCE is marked gone and hidden. */
typedef struct mount_clip {
    char *path;
    char folder[MLVPIPE_NAME_MAX];
    mlvpipe_frames *frames;      /* NULL: refused */
    char *why;                   /* refused: the text of MOUNT_REFUSED_NAME */
    int gone;
} mount_clip;

typedef struct mount_fs {
    const char *source;
    int source_is_folder;
    mlvpipe_convert_settings settings;   /* with input set per clip */
    const char *levels_cache;
    pthread_mutex_t lock;        /* the clip list */
    mount_clip **clips;
    uint32_t clip_count;
    double scanned_at;           /* when SOURCE was last listed */
    mount_cache *cache;
    uint32_t prefetch;           /* frames rendered ahead of a sequential reader */
    time_t mounted_at;
} mount_fs;

/* What a path names. */
typedef enum mount_kind { MOUNT_NONE, MOUNT_ROOT, MOUNT_CLIP, MOUNT_ITEM, MOUNT_REFUSAL }
    mount_kind;

typedef struct mount_node {
    mount_kind kind;
    mount_clip *clip;
    uint32_t item;
    uint64_t size;               /* files */
} mount_node;

/* The first scan of SOURCE; 0 or an exit status (SOURCE unusable). */
int mount_fs_init(mount_fs *fs);
void mount_fs_free(mount_fs *fs);
/* Looks path up (rescanning SOURCE when it may have changed): 0 or -errno. */
int mount_fs_lookup(mount_fs *fs, const char *path, mount_node *out);
/* Calls add(ctx, name, node) for every entry of a folder node; 0 or -errno. */
int mount_fs_list(mount_fs *fs, const mount_node *dir, void *ctx,
                  int (*add)(void *ctx, const char *name, const mount_node *node));
/* Up to n bytes of a file from offset into buf: how many, or -errno (EIO when the file cannot
 * be made, logged). */
ssize_t mount_fs_read(mount_fs *fs, const mount_node *file, char *buf, size_t n, uint64_t offset);

/* The LRU of rendered frames, cache_mb megabytes at most (the frames being read may exceed
 * it for as long as they are read), and `threads` prefetch threads. */
mount_cache *mount_cache_new(uint32_t cache_mb, uint32_t threads);
void mount_cache_free(mount_cache *c);
/* Copies n bytes of frame item of clip from offset (within its size) into buf, rendering the
 * frame if no reader or prefetch did; 0 or -errno. */
int mount_cache_read(mount_cache *c, mount_clip *clip, uint32_t item, uint64_t size, char *buf,
                     size_t n, uint64_t offset);
/* Renders the item in the background unless it is cached or queued. */
void mount_cache_prefetch(mount_cache *c, mount_clip *clip, uint32_t item, uint64_t size);

/* Mounts fs at mountpoint and serves it until unmounted or signalled (SIGINT, SIGTERM,
 * SIGHUP): 0, or an exit status. ready(ctx) is called once the mount is in place (before
 * serving). */
int mount_fuse_run(mount_fs *fs, const char *mountpoint, void (*ready)(void *ctx), void *ctx);

#endif
