/* Chunk files of a spanned clip: NAME.MLV + NAME.M00..M99 (or NAME.RAW + NAME.R00..R99),
 * extensions in either case, and positioned reads that may cross from one chunk into the next. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/mp_read.h"
#include "mlv_internal.h"

static int is_digit(char ch) { return ch >= '0' && ch <= '9'; }

/* Extension kind: 'M' for .MLV/.Mnn, 'R' for .RAW/.Rnn, 0 otherwise; *numbered when .Mnn/.Rnn. */
static char extension_kind(const char *path, int *numbered)
{
    const char *base = mp_mlv_base_name(path);
    const char *dot = strrchr(base, '.');
    *numbered = 0;
    if (!dot || strlen(dot) != 4)
        return 0;
    char letter = (char)(dot[1] & ~0x20);
    if (letter != 'M' && letter != 'R')
        return 0;
    if (is_digit(dot[2]) && is_digit(dot[3])) {
        *numbered = 1;
        return letter;
    }
    if (letter == 'M' && !strcasecmp(dot + 1, "MLV"))
        return 'M';
    if (letter == 'R' && !strcasecmp(dot + 1, "RAW"))
        return 'R';
    return 0;
}

int mp_mlv_is_legacy_raw_name(const char *path)
{
    int numbered;
    return extension_kind(path, &numbered) == 'R';
}

int mp_mlv_chunk_usable(const mlv_chunk *ch)
{
    return ch->fd >= 0 || ch->mem;
}

void mp_mlv_chunk_drop(mlv_chunk *ch)
{
    if (ch->fd >= 0)
        close(ch->fd);
    ch->fd = -1;
    ch->mem = NULL;
}

ssize_t mp_mlv_chunk_pread(const mlv_chunk *ch, void *dst, size_t len, uint64_t offset)
{
    if (!ch->mem)
        return mp_pread_full(ch->fd, dst, len, offset);
    if (offset >= ch->size)
        return 0;
    size_t n = ch->size - offset < len ? (size_t)(ch->size - offset) : len;
    memcpy(dst, ch->mem + offset, n);
    return (ssize_t)n;
}

static const mlv_mem_file *mem_file(const mlv_clip *c, const char *path)
{
    for (uint32_t i = 0; i < c->mem_count; i++)
        if (c->mem_files[i].name && !strcmp(c->mem_files[i].name, path))
            return &c->mem_files[i];
    return NULL;
}

/* Whether the name is taken, by anything: a chunk name that is a folder, a FIFO, a device or
 * a dangling link is a chunk that cannot be read (damage), not the end of the clip. */
static int file_exists(const mlv_clip *c, const char *path)
{
    struct stat st;
    if (c->mem_files)
        return mem_file(c, path) != NULL;
    return lstat(path, &st) == 0;
}

/* name with its last three characters replaced by ext3; the letter's case follows `upper`. */
static char *with_extension(const char *path, const char *ext3, int upper)
{
    size_t n = strlen(path);
    char *s = malloc(n + 1);
    if (!s)
        return NULL;
    memcpy(s, path, n + 1);
    for (int i = 0; i < 3; i++) {
        char ch = ext3[i];
        if (ch >= 'A' && ch <= 'Z' && !upper)
            ch = (char)(ch | 0x20);
        s[n - 3 + i] = ch;
    }
    return s;
}

static mp_status add_chunk(mlv_clip *c, char *path, mp_error *err)
{
    mlv_chunk *ch = &c->chunks[c->info.chunk_count];
    ch->path = path;
    ch->fd = -1;
    if (c->mem_files) {
        const mlv_mem_file *f = mem_file(c, path);
        if (f) {
            ch->mem = f->data ? f->data : (const uint8_t *)"";
            ch->size = ch->data_end = f->size;
            c->info.chunk_count++;
            return MP_OK;
        }
        errno = ENOENT;
    } else {
        /* Non-blocking: a FIFO must be refused below, not waited on (regular files ignore
         * it). */
        ch->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    }
    if (ch->fd < 0) {
        int e = errno;
        if (c->info.chunk_count == 0) {
            c->info.chunk_count++;   /* so close frees the path */
            return mp_error_set(err, MP_ERR_IO, "%s: %s", path, strerror(e));
        }
        mp_mlv_add_damage(c, MLV_DAMAGE_MISSING_CHUNK, c->info.chunk_count, 0,
                       "%s: offset 0: cannot open chunk: %s", mp_mlv_base_name(path), strerror(e));
    } else {
        struct stat st;
        if (fstat(ch->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            if (c->info.chunk_count == 0) {
                c->info.chunk_count++;
                return mp_error_set(err, MP_ERR_IO, "%s: not a regular file", path);
            }
            mp_mlv_chunk_drop(ch);
            mp_mlv_add_damage(c, MLV_DAMAGE_MISSING_CHUNK, c->info.chunk_count, 0,
                              "%s: offset 0: cannot read chunk: not a regular file",
                              mp_mlv_base_name(path));
        } else {
            ch->size = ch->data_end = (uint64_t)st.st_size;
        }
    }
    c->info.chunk_count++;
    return MP_OK;
}

mp_status mp_mlv_find_chunks(mlv_clip *c, const char *path, int no_spanning, mp_error *err)
{
    c->chunks = calloc(MLV_CHUNKS_MAX, sizeof *c->chunks);
    if (!c->chunks)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
    int numbered;
    char kind = extension_kind(path, &numbered);
    const char *base = mp_mlv_base_name(path);
    int upper = kind && !(base[strlen(base) - 3] & 0x20);

    char *first;
    if (kind && numbered && !no_spanning) {
        first = with_extension(path, kind == 'M' ? "MLV" : "RAW", upper);
        if (first && !file_exists(c, first)) {
            char *other = with_extension(path, kind == 'M' ? "MLV" : "RAW", !upper);
            if (other && file_exists(c, other)) {
                free(first);
                first = other;
            } else {
                free(other);
                mp_error_set(err, MP_ERR_IO, "%s: first chunk of %s is missing",
                             mp_mlv_base_name(first), base);
                free(first);
                return MP_ERR_IO;
            }
        }
    } else {
        first = strdup(path);
    }
    if (!first)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
    mp_status st = add_chunk(c, first, err);
    if (st != MP_OK || !kind || no_spanning)
        return st;

    char ext[4] = {kind, 0, 0, 0};
    int missing_from = -1;   /* first index of a run of missing names */
    for (int i = 0; i < 100; i++) {
        snprintf(ext + 1, 3, "%02d", i);
        char *name = with_extension(path, ext, upper);
        if (name && !file_exists(c, name)) {
            char *other = with_extension(path, ext, !upper);
            if (other && file_exists(c, other)) {
                free(name);
                name = other;
            } else {
                free(other);
                free(name);
                if (missing_from < 0)
                    missing_from = i;
                continue;
            }
        }
        if (!name)
            return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
        if (missing_from >= 0 || !mp_mlv_chunk_usable(&c->chunks[c->info.chunk_count - 1]))
            c->chunks[c->info.chunk_count].after_gap = 1;
        for (; missing_from >= 0 && missing_from < i; missing_from++) {
            char gap[4] = {kind, 0, 0, 0};
            snprintf(gap + 1, 3, "%02d", missing_from);
            char *gap_name = with_extension(base, gap, upper);
            mp_mlv_add_damage(c, MLV_DAMAGE_MISSING_CHUNK, c->info.chunk_count, 0,
                           "%s: offset 0: chunk missing, later chunks follow",
                           gap_name ? gap_name : base);
            free(gap_name);
        }
        missing_from = -1;
        st = add_chunk(c, name, err);
        if (st != MP_OK)
            return st;
    }
    return MP_OK;
}

mp_status mp_mlv_read_span(const mlv_clip *c, uint32_t chunk, uint64_t offset, void *dst,
                        size_t len, mp_error *err)
{
    uint8_t *out = dst;
    while (len > 0) {
        if (chunk >= c->info.chunk_count || !mp_mlv_chunk_usable(&c->chunks[chunk]))
            return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: data runs past the last "
                                "chunk", mp_mlv_base_name(c->chunks[c->info.chunk_count - 1].path),
                                (unsigned long long)offset);
        const mlv_chunk *ch = &c->chunks[chunk];
        if (offset >= ch->data_end) {
            offset -= ch->data_end;
            chunk++;
            continue;
        }
        uint64_t avail = ch->data_end - offset;
        size_t want = len < avail ? len : (size_t)avail;
        ssize_t got = mp_mlv_chunk_pread(ch, out, want, offset);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return mp_error_set(err, MP_ERR_IO, "%s: offset %llu: %s", mp_mlv_base_name(ch->path),
                                (unsigned long long)offset, strerror(errno));
        if (got == 0)
            return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: file shorter than indexed",
                                mp_mlv_base_name(ch->path), (unsigned long long)offset);
        out += got;
        len -= (size_t)got;
        offset += (uint64_t)got;
    }
    return MP_OK;
}
