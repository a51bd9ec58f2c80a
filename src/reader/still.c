/* Stills: raw photos (CR2, DNG) through LibRaw (doc/stills.md). One photo is a one-frame
 * clip; a folder of them (a timelapse) is one clip of a frame per photo, in name order, at
 * MP_STILL_SEQUENCE_FPS. Opening identifies each photo (LibRaw reads its headers); reading a
 * frame reads the whole file (the I/O half) and has LibRaw unpack it (the decode half, on
 * whichever worker asks), so the photos of a sequence decode in parallel like a clip's frames.
 * The frame is LibRaw's unprocessed mosaic of the whole readout, the masked optical-black
 * borders included (the active area says where the picture is), so the black of each field of
 * a dual-ISO photo can be measured from the frame itself. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/mp_read.h"
#include "libraw_child.h"
#include "still_internal.h"

/* Larger than any raw photo of a sensor within MP_FRAME_MAX_PIXELS (an uncompressed 16-bit
 * 64 Mpx DNG is 128 MiB), so a hostile size cannot make us read without bound. */
#define STILL_MAX_BYTES (512ull << 20)

/* A one-photo clip keeps the photo's bytes, read once when it was opened, until it is
 * decoded, and then the mosaic: the pre-pass reads the frame and convert reads it again, and
 * LibRaw's decode is most of a still's reading (0.6 s of CPU for 22 Mpx). */
typedef struct still_cache {
    pthread_mutex_t lock;
    uint8_t *bytes;             /* the file's (NULL once decoded) */
    size_t size;
    uint16_t *samples;          /* the frame's, once decoded (NULL: not yet) */
} still_cache;

static int tiff_head(const uint8_t *head, size_t n)
{
    return n >= 4 && (!memcmp(head, "II*\0", 4) || !memcmp(head, "MM\0*", 4));
}

static int still_probe(const mlv_clip *c, const uint8_t *head, size_t n)
{
    return c->folder || tiff_head(head, n);
}

/* The MLV and legacy RAW sources come first (mlv_clip.c); neither takes a TIFF head. */
int mp_mlv_is_photo_file(const char *path)
{
    uint8_t head[4];
    struct stat sb;
    if (stat(path, &sb) || !S_ISREG(sb.st_mode) || mp_mlv_is_legacy_raw_name(path))
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    ssize_t got = mp_pread_full(fd, head, sizeof head, 0);
    close(fd);
    return got == (ssize_t)sizeof head && tiff_head(head, sizeof head);
}

/* LibRaw's verdict on a file it was given: one it cannot read is no still. */
static mp_status libraw_failed(const char *name, uint64_t size, int rc, const char *step,
                               mp_error *err)
{
    if (rc == LIBRAW_IO_ERROR)   /* LibRaw read past the end of the file */
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: the file ends inside the "
                            "image data (LibRaw cannot %s it)", name, (unsigned long long)size,
                            step);
    mp_status code = rc == LIBRAW_FILE_UNSUPPORTED ? MP_ERR_FORMAT
                     : rc == LIBRAW_UNSUFFICIENT_MEMORY ? MP_ERR_NOMEM : MP_ERR_DAMAGED;
    return mp_error_set(err, code, "%s: offset 0: LibRaw cannot %s it: %s", name, step,
                        mp_libraw.libraw_strerror(rc));
}

/* The whole photo of chunk ch into *bytes (grown as needed; capacity in *cap). */
static mp_status read_photo(const mlv_chunk *ch, uint8_t **bytes, size_t *cap, mp_error *err)
{
    size_t n = (size_t)ch->size;   /* bounded when it was opened */
    mp_status st = mp_mlv_reserve_bytes(bytes, cap, n ? n : 1, err);
    if (st != MP_OK)
        return st;
    ssize_t got = -1;
    if (mp_mlv_chunk_usable(ch)) {
        got = mp_mlv_chunk_pread(ch, *bytes, n, 0);
    } else {    /* a sequence keeps no file open: there may be thousands */
        int fd = open(ch->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd >= 0) {
            got = mp_pread_full(fd, *bytes, n, 0);
            close(fd);
        }
    }
    if (got != (ssize_t)n)
        return mp_error_set(err, got < 0 ? MP_ERR_IO : MP_ERR_DAMAGED, "%s: %s",
                            mp_mlv_base_name(ch->path),
                            got < 0 ? strerror(errno) : "shorter than when it was opened");
    return MP_OK;
}

/* LibRaw's identification of a photo's bytes, stated as frame k of the clip; first_w and
 * first_h hold the first photo's size (0: none yet). */
static mp_status describe_photo(mlv_clip *c, uint32_t k, const uint8_t *bytes,
                                uint32_t *first_w, uint32_t *first_h, mp_error *err)
{
    const mlv_chunk *ch = &c->chunks[k];
    const char *name = mp_mlv_base_name(ch->path);
    mp_libraw_run *run;
    mp_status st = mp_libraw_child_run(name, bytes, (size_t)ch->size, NULL, 0, 0, &run, err);
    if (st != MP_OK)
        return st;
    const libraw_image_sizes_t *sz = &run->lr.sizes;
    if (run->open_rc != LIBRAW_SUCCESS)
        st = libraw_failed(name, ch->size, run->open_rc, "identify", err);
    else
        st = mp_still_check_shape(name, &run->lr, err);
    if (st == MP_OK && *first_w && (sz->raw_width != *first_w || sz->raw_height != *first_h))
        st = mp_error_set(err, MP_ERR_FORMAT, "%s: a %ux%u photo among %ux%u ones: left out "
                          "of the sequence", name, sz->raw_width, sz->raw_height, *first_w,
                          *first_h);
    mlv_entry e = {0};
    e.chunk = (uint16_t)k;
    e.number = k;
    e.timestamp = c->folder ? (uint64_t)k * 1000000u / MP_STILL_SEQUENCE_FPS : 0;
    e.length = ch->size < UINT32_MAX ? (uint32_t)ch->size : UINT32_MAX;
    if (st == MP_OK) {
        *first_w = sz->raw_width;
        *first_h = sz->raw_height;
        st = mp_still_describe(c, &run->lr, run->has_taken ? &run->taken : NULL, k,
                               e.timestamp, err);
    }
    free(run);
    return st == MP_OK ? mp_mlv_add_frame(c, &e, err) : st;
}

/* Reads photo k into *bytes and describes it. */
static mp_status add_photo(mlv_clip *c, uint32_t k, uint32_t *first_w, uint32_t *first_h,
                           uint8_t **bytes, size_t *cap, mp_error *err)
{
    const mlv_chunk *ch = &c->chunks[k];
    if (ch->size > STILL_MAX_BYTES)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: %llu bytes, larger than any raw photo we "
                            "read (%llu)", mp_mlv_base_name(ch->path),
                            (unsigned long long)ch->size, STILL_MAX_BYTES);
    mp_status st = read_photo(ch, bytes, cap, err);
    return st == MP_OK ? describe_photo(c, k, *bytes, first_w, first_h, err) : st;
}

static mp_status still_index(mlv_clip *c, mp_error *err)
{
    const char *name = mp_mlv_base_name(c->chunks[0].path);
    mp_error sub = {0};
    if (mp_libraw_load(&sub) != MP_OK)
        return mp_error_set(err, sub.code, "%s: %s", name, sub.msg);
    mp_status st = MP_OK;
    uint32_t first_w = 0, first_h = 0;
    uint8_t *bytes = NULL;
    size_t cap = 0;
    for (uint32_t k = 0; k < c->info.chunk_count && st == MP_OK; k++) {
        mp_status one = add_photo(c, k, &first_w, &first_h, &bytes, &cap, &sub);
        if (one != MP_OK && (!c->folder || one == MP_ERR_NOMEM))
            st = mp_error_set(err, one, "%s", sub.msg);
        else if (one != MP_OK)   /* one photo of a sequence: the others go on */
            mp_mlv_add_damage(c, MLV_DAMAGE_BAD_FIELD, k, 0, "%s", sub.msg);
    }
    if (st == MP_OK && !c->info.frame_count)
        st = mp_error_set(err, MP_ERR_FORMAT, "%s: no photo in it LibRaw can read", name);
    still_cache *cache = NULL;
    if (st == MP_OK && c->info.chunk_count == 1 && (cache = calloc(1, sizeof *cache))) {
        pthread_mutex_init(&cache->lock, NULL);
        cache->bytes = bytes;   /* the one photo, just read */
        cache->size = (size_t)c->chunks[0].size;
        bytes = NULL;
    }
    free(bytes);
    c->source_state = cache;    /* without one (out of memory) a photo is read each time */
    c->info.container = MLV_CONTAINER_STILL;
    c->info.sequence = c->folder;
    c->info.video_class = 1;
    c->info.fps_num = c->folder ? MP_STILL_SEQUENCE_FPS : 0;
    c->info.fps_den = c->folder ? 1 : 0;
    return st;
}

/* The whole file of frame index: its bytes are LibRaw's input. A one-photo clip holds them
 * already (still_cache): its payload stays empty. */
static mp_status still_read_payload(const mlv_clip *c, uint32_t index, mlv_payload *buf,
                                    mp_error *err)
{
    if (index >= c->info.frame_count)
        return mp_error_set(err, MP_ERR_RANGE, "%s: frame index %u out of range (%u photos)",
                            mp_mlv_base_name(c->chunks[0].path), index, c->info.frame_count);
    const mlv_chunk *ch = &c->chunks[c->frames[index].chunk];
    mp_status st = c->source_state ? MP_OK : read_photo(ch, &buf->data, &buf->capacity, err);
    if (st != MP_OK)
        return st;
    buf->size = c->source_state ? 0 : (size_t)ch->size;
    buf->clip = c;
    buf->index = index;
    return MP_OK;
}

/* The file of frame index, for messages. */
static const char *photo_name(const mlv_clip *c, uint32_t index)
{
    return mp_mlv_base_name(c->chunks[c->frames[index].chunk].path);
}

/* What LibRaw unpacked, checked: no data error, the size indexed, a mosaic handed back. */
static mp_status check_unpacked(const mlv_clip *c, uint32_t index, size_t size,
                                const mp_libraw_run *run, mp_error *err)
{
    const mp_raw_info *r = &c->states[c->frames[index].state].raw;
    const libraw_data_t *lr = &run->lr;
    const char *name = photo_name(c, index);
    if (run->data_error && run->data_error_offset < 0)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %zu: the image data runs past "
                            "the end of the file", name, size);
    if (run->data_error)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %d: the image data is corrupt",
                            name, run->data_error_offset);
    if (lr->sizes.raw_width != r->width || lr->sizes.raw_height != r->height)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: %ux%u now, %ux%u when it was opened",
                            name, lr->sizes.raw_width, lr->sizes.raw_height, r->width,
                            r->height);
    if (!run->raw_mosaic)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: LibRaw gives %s %s's image as "
                            "colour pixels, not a mosaic (not supported)", name,
                            lr->idata.make, lr->idata.model);
    if (!run->mosaic_copied)   /* LibRaw's raw_pitch below the width */
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: LibRaw's rows are shorter than the "
                            "image", name);
    return MP_OK;
}

/* Every sample of the decoded frame within the indexed depth. */
static mp_status check_depth(const mlv_clip *c, uint32_t index, const mp_frame *out,
                             mp_error *err)
{
    uint16_t all = 0;
    for (size_t k = 0; k < (size_t)out->width * out->height; k++)
        all |= out->data[k];
    if (out->bits >= 16 || !(all >> out->bits))
        return MP_OK;
    return mp_error_set(err, MP_ERR_DAMAGED, "%s: samples above the photo's %u bits (white "
                        "%u)", photo_name(c, index), out->bits, out->white);
}

/* A sound slice tag, checked before LibRaw decodes: it divides by the tag's widths. */
static mp_status check_slices(const mlv_clip *c, uint32_t index, const uint8_t *bytes,
                              size_t size, mp_error *err)
{
    char why[200];
    uint64_t at = 0;
    if (!mp_still_cr2_slices_problem(bytes, size, c->states[c->frames[index].state].raw.width,
                                     &at, why, sizeof why))
        return MP_OK;
    return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: %s", photo_name(c, index),
                        (unsigned long long)at, why);
}

/* The photo's bytes decoded by LibRaw (in a child process) into out. */
static mp_status decode_photo(const mlv_clip *c, uint32_t index, const uint8_t *bytes,
                              size_t size, mp_frame *out, mp_error *err)
{
    const char *name = photo_name(c, index);
    mp_status st = check_slices(c, index, bytes, size, err);
    if (st == MP_OK)
        st = mp_mlv_frame_shell(c, index, out, err);
    mp_libraw_run *run = NULL;
    if (st == MP_OK)
        st = mp_libraw_child_run(name, bytes, size, out->data, out->width, out->height, &run,
                                 err);
    if (st == MP_OK && run->open_rc != LIBRAW_SUCCESS)
        st = libraw_failed(name, size, run->open_rc, "identify", err);
    else if (st == MP_OK && run->unpack_rc != LIBRAW_SUCCESS)
        st = libraw_failed(name, size, run->unpack_rc, "decode", err);
    if (st == MP_OK)
        st = check_unpacked(c, index, size, run, err);
    if (st == MP_OK)
        st = check_depth(c, index, out, err);
    free(run);
    return st;
}

static mp_status still_decode_payload(const mlv_clip *c, uint32_t index, const mlv_payload *buf,
                                      mp_frame *out, mlv_scratch *scratch, mp_error *err)
{
    (void)scratch;
    still_cache *cache = c->source_state;
    if (!cache)
        return decode_photo(c, index, buf->data, buf->size, out, err);
    pthread_mutex_lock(&cache->lock);   /* one decode: a second reader waits for its mosaic */
    mp_status st;
    if (cache->samples) {
        st = mp_mlv_frame_shell(c, index, out, err);
        if (st == MP_OK)
            memcpy(out->data, cache->samples, (size_t)out->width * out->height * sizeof *out->data);
    } else if ((st = decode_photo(c, index, cache->bytes, cache->size, out, err)) == MP_OK) {
        size_t bytes = (size_t)out->width * out->height * sizeof *out->data;
        if ((cache->samples = malloc(bytes)) != NULL) {
            memcpy(cache->samples, out->data, bytes);
            free(cache->bytes);
            cache->bytes = NULL;
        }
    }
    pthread_mutex_unlock(&cache->lock);
    return st;
}

static void still_close(mlv_clip *c)
{
    still_cache *cache = c->source_state;
    if (cache) {
        pthread_mutex_destroy(&cache->lock);
        free(cache->bytes);
        free(cache->samples);
        free(cache);
    }
    c->source_state = NULL;
}

const mp_source_ops mp_source_still = {
    .name = "still",
    .probe = still_probe,
    .index = still_index,
    .read_payload = still_read_payload,
    .decode_payload = still_decode_payload,
    .close = still_close,
};
