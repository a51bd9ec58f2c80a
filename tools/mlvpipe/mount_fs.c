/* The mount's tree (mount.h): "/" lists the clips of SOURCE, "/FOLDER" a clip's files as
 * convert names them, "/FOLDER/NAME" one file. */
#include "mount.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "cli_batch.h"

/* SOURCE is listed again at most this often (seconds): often enough that a clip copied in
 * appears at the next `ls`, rarely enough that a busy reader does not rescan per lookup. */
#define RESCAN_S 1.0

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* "A001.MLV" -> "A001": a refused clip's folder (convert names plain folders so). */
static void base_name(const char *path, char *out)
{
    const char *base = strrchr(path, '/');
    snprintf(out, MLVPIPE_NAME_MAX, "%s", base ? base + 1 : path);
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = 0;
}

static void refuse(mount_clip *c, const char *why)
{
    size_t len = strlen(why) + 64;
    char *text = malloc(len);
    if (text)
        snprintf(text, len, "mlvpipe cannot show this clip:\n%s\n", why);
    c->why = text;
    char esc[512];
    cli_log(MLVPIPE_LOG_WARNING, "mount: %s refused: %s", cli_escaped(c->path, esc, sizeof esc),
            why);
}

/* Indexes the clip (its analysis waits for the first frame read). */
static mount_clip *clip_open(mount_fs *fs, char *path)
{
    mount_clip *c = calloc(1, sizeof *c);
    if (!c) {
        free(path);
        return NULL;
    }
    c->path = path;
    mlvpipe_convert_settings s = fs->settings;
    s.input = path;
    mlvpipe_error err;
    if (mlvpipe_frames_open(&c->frames, &s, fs->levels_cache, &err) == MLVPIPE_OK) {
        mlvpipe_frames_folder(c->frames, c->folder);
    } else {
        base_name(path, c->folder);
        refuse(c, err.message);
    }
    return c;
}

static mount_clip *clip_by_path(const mount_fs *fs, const char *path)
{
    for (uint32_t i = 0; i < fs->clip_count; i++)
        if (!strcmp(fs->clips[i]->path, path))
            return fs->clips[i];
    return NULL;
}

static mount_clip *clip_by_folder(const mount_fs *fs, const char *folder)
{
    for (uint32_t i = 0; i < fs->clip_count; i++)
        if (!fs->clips[i]->gone && !strcmp(fs->clips[i]->folder, folder))
            return fs->clips[i];
    return NULL;
}

static void clip_free(mount_clip *c)
{
    mlvpipe_frames_close(c->frames);
    free(c->why);
    free(c->path);
    free(c);
}

static int clip_add(mount_fs *fs, char *path)
{
    mount_clip *c = clip_open(fs, path);
    mount_clip **grown = c ? realloc(fs->clips, (fs->clip_count + 1) * sizeof *grown) : NULL;
    if (!grown) {
        if (c)
            clip_free(c);
        return -ENOMEM;
    }
    fs->clips = grown;
    if (clip_by_folder(fs, c->folder)) {
        char esc[512];
        cli_log(MLVPIPE_LOG_WARNING, "mount: %s left out: another clip has the folder %s",
                cli_escaped(c->path, esc, sizeof esc), c->folder);
        c->gone = 1;
    }
    fs->clips[fs->clip_count++] = c;
    return 0;
}

/* Lists SOURCE again (under fs->lock): clips that came are indexed, clips that went are
 * hidden, a clip that comes back shows again. */
static void rescan(mount_fs *fs)
{
    if (!fs->source_is_folder || now_s() - fs->scanned_at < RESCAN_S)
        return;
    cli_clips found = {0};
    if (cli_clips_add_folder(&found, fs->source) < 0) {
        cli_clips_free(&found);
        return;
    }
    for (uint32_t i = 0; i < fs->clip_count; i++) {
        int here = 0;
        for (int k = 0; k < found.count && !here; k++)
            here = !strcmp(found.path[k], fs->clips[i]->path);
        fs->clips[i]->gone = !here;
    }
    for (int k = 0; k < found.count; k++) {
        if (!clip_by_path(fs, found.path[k])) {
            clip_add(fs, found.path[k]);
            found.path[k] = NULL;   /* the clip owns it now */
        }
    }
    cli_clips_free(&found);
    fs->scanned_at = now_s();
}

int mount_fs_init(mount_fs *fs)
{
    struct stat sb;
    if (stat(fs->source, &sb)) {
        char esc[512];
        cli_log(MLVPIPE_LOG_ERROR, "mount: %s: %s", cli_escaped(fs->source, esc, sizeof esc),
                strerror(errno));
        return EXIT_INPUT;
    }
    pthread_mutex_init(&fs->lock, NULL);
    fs->mounted_at = time(NULL);
    fs->source_is_folder = S_ISDIR(sb.st_mode);
    if (!fs->source_is_folder) {
        char *path = strdup(fs->source);
        return path && clip_add(fs, path) == 0 ? EXIT_OK : EXIT_INTERNAL;
    }
    fs->scanned_at = -RESCAN_S;
    rescan(fs);
    return EXIT_OK;
}

void mount_fs_free(mount_fs *fs)
{
    for (uint32_t i = 0; i < fs->clip_count; i++)
        clip_free(fs->clips[i]);
    free(fs->clips);
    pthread_mutex_destroy(&fs->lock);
}

/* A clip's analysis failed: from now on the clip shows why, as a refused one. */
static void refuse_late(mount_fs *fs, mount_clip *c, const char *why)
{
    pthread_mutex_lock(&fs->lock);
    if (!c->why)
        refuse(c, why);
    pthread_mutex_unlock(&fs->lock);
}

/* Item i as a node: its size, or -ENOENT for a frame found damaged, -EIO when the clip
 * cannot be analysed (it is refused from then on). */
static int item_node(mount_fs *fs, mount_clip *c, uint32_t i, mount_node *out)
{
    mlvpipe_error err;
    mlvpipe_status st = mlvpipe_frames_size(c->frames, i, &out->size, &err);
    if (st == MLVPIPE_ERR_DAMAGED)
        return -ENOENT;
    if (st != MLVPIPE_OK) {
        refuse_late(fs, c, err.message);
        return -EIO;
    }
    out->kind = MOUNT_ITEM;
    out->clip = c;
    out->item = i;
    return 0;
}

/* The item named name: the frames' names ascend with their numbers, the WAV is last. */
static int item_by_name(const mount_clip *c, const char *name, uint32_t *item)
{
    char probe[MLVPIPE_NAME_MAX];
    uint32_t n = mlvpipe_frames_count(c->frames);
    if (!n)
        return 0;
    mlvpipe_frames_name(c->frames, n - 1, probe);
    if (!strcmp(probe, name)) {
        *item = n - 1;
        return 1;
    }
    uint32_t lo = 0, hi = n - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        mlvpipe_frames_name(c->frames, mid, probe);
        int cmp = strcmp(probe, name);
        if (!cmp) {
            *item = mid;
            return 1;
        }
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

int mount_fs_lookup(mount_fs *fs, const char *path, mount_node *out)
{
    memset(out, 0, sizeof *out);
    if (!strcmp(path, "/")) {
        out->kind = MOUNT_ROOT;
        return 0;
    }
    char folder[MLVPIPE_NAME_MAX];
    const char *name = strchr(path + 1, '/');
    size_t len = name ? (size_t)(name - path - 1) : strlen(path + 1);
    if (len >= sizeof folder || (name && strchr(name + 1, '/')))
        return -ENOENT;
    memcpy(folder, path + 1, len);
    folder[len] = 0;
    pthread_mutex_lock(&fs->lock);
    mount_clip *c = clip_by_folder(fs, folder);
    if (!c) {
        rescan(fs);
        c = clip_by_folder(fs, folder);
    }
    const char *why = c ? c->why : NULL;
    pthread_mutex_unlock(&fs->lock);
    if (!c)
        return -ENOENT;
    out->clip = c;
    if (!name) {
        out->kind = MOUNT_CLIP;
        return 0;
    }
    name++;
    if (why) {
        out->kind = MOUNT_REFUSAL;
        out->size = strlen(why);
        return strcmp(name, MOUNT_REFUSED_NAME) ? -ENOENT : 0;
    }
    uint32_t item;
    if (!item_by_name(c, name, &item))
        return -ENOENT;
    int rc = item_node(fs, c, item, out);
    if (rc == -EIO)   /* refused now: its folder holds the reason */
        rc = -ENOENT;
    return rc;
}

/* The clip's refusal text, NULL while it is not refused (set once, under the lock). */
static const char *why_of(mount_fs *fs, const mount_clip *c)
{
    pthread_mutex_lock(&fs->lock);
    const char *why = c->why;
    pthread_mutex_unlock(&fs->lock);
    return why;
}

static int list_clip(mount_fs *fs, mount_clip *c, void *ctx,
                     int (*add)(void *ctx, const char *name, const mount_node *node))
{
    char name[MLVPIPE_NAME_MAX];
    mount_node node;
    uint32_t n = why_of(fs, c) ? 0 : mlvpipe_frames_count(c->frames);
    for (uint32_t i = 0; i < n; i++) {
        int rc = item_node(fs, c, i, &node);
        if (rc == -EIO)
            break;   /* refused now: listed below */
        /* a listed clip is about to be read: its first frame is made meanwhile */
        if (rc == 0 && i == 0 && fs->prefetch && !mlvpipe_frames_is_audio(c->frames, 0))
            mount_cache_prefetch(fs->cache, c, 0, node.size);
        mlvpipe_frames_name(c->frames, i, name);
        if (rc == 0 && add(ctx, name, &node))
            return 0;
    }
    const char *why = why_of(fs, c);
    if (why) {
        node = (mount_node){MOUNT_REFUSAL, c, 0, strlen(why)};
        add(ctx, MOUNT_REFUSED_NAME, &node);
    }
    return 0;
}

int mount_fs_list(mount_fs *fs, const mount_node *dir, void *ctx,
                  int (*add)(void *ctx, const char *name, const mount_node *node))
{
    if (dir->kind == MOUNT_CLIP)
        return list_clip(fs, dir->clip, ctx, add);
    if (dir->kind != MOUNT_ROOT)
        return -ENOTDIR;
    pthread_mutex_lock(&fs->lock);
    rescan(fs);
    int rc = 0;
    for (uint32_t i = 0; i < fs->clip_count && !rc; i++) {
        mount_node node = {MOUNT_CLIP, fs->clips[i], 0, 0};
        if (!fs->clips[i]->gone)
            rc = add(ctx, fs->clips[i]->folder, &node);
    }
    pthread_mutex_unlock(&fs->lock);
    return 0;
}

/* A frame read from its start has the next ones rendered ahead. */
static void prefetch_after(mount_fs *fs, mount_clip *c, uint32_t item)
{
    uint32_t n = mlvpipe_frames_count(c->frames);
    for (uint32_t k = item + 1; k < n && k <= item + fs->prefetch; k++) {
        mount_node node;
        if (item_node(fs, c, k, &node) == 0 && !mlvpipe_frames_is_audio(c->frames, k))
            mount_cache_prefetch(fs->cache, c, k, node.size);
    }
}

ssize_t mount_fs_read(mount_fs *fs, const mount_node *file, char *buf, size_t n, uint64_t offset)
{
    if (offset >= file->size)
        return 0;
    if (n > file->size - offset)
        n = (size_t)(file->size - offset);
    mount_clip *c = file->clip;
    if (file->kind == MOUNT_REFUSAL) {
        memcpy(buf, why_of(fs, c) + offset, n);
        return (ssize_t)n;
    }
    if (mlvpipe_frames_is_audio(c->frames, file->item)) {
        mlvpipe_error err;
        if (mlvpipe_frames_read(c->frames, file->item, offset, buf, n, &err) != MLVPIPE_OK) {
            cli_log(MLVPIPE_LOG_ERROR, "mount: %s", err.message);
            return -EIO;
        }
        return (ssize_t)n;
    }
    int rc = mount_cache_read(fs->cache, c, file->item, file->size, buf, n, offset);
    /* after the frame asked for, so that its render has the CPUs to itself */
    if (offset == 0)
        prefetch_after(fs, c, file->item);
    return rc ? rc : (ssize_t)n;
}
