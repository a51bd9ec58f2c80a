/* Stills: one raw photo (CR2, DNG) as a one-frame clip, decoded by LibRaw when opened
 * (doc/stills.md). The frame is LibRaw's unprocessed mosaic of the whole sensor readout, the
 * masked optical-black borders included (the active area says where the picture is), so the
 * black of each field of a dual-ISO photo can be measured from the frame itself. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/mp_white.h"
#include "libraw_load.h"
#include "mlv_internal.h"

/* Larger than any raw photo of a sensor within MP_FRAME_MAX_PIXELS (an uncompressed 16-bit
 * 64 Mpx DNG is 128 MiB), so a hostile size cannot make us read without bound. */
#define STILL_MAX_BYTES (512ull << 20)
#define STILL_MAX_LIBRAW_MB 512u

typedef struct still_state {
    uint16_t *samples;          /* raw_width x raw_height, row-major */
    int data_error;             /* LibRaw met corrupt or missing image data */
    int data_error_offset;      /* where (-1: past the end of the file) */
} still_state;

static int still_probe(const mlv_clip *c, const uint8_t *head, size_t n)
{
    (void)c;
    return n >= 4 && (!memcmp(head, "II*\0", 4) || !memcmp(head, "MM\0*", 4));
}

/* LibRaw's data-error callback (its default one prints): remembers the first error. */
static void on_data_error(void *opaque, const char *file, const int offset)
{
    (void)file;
    still_state *s = opaque;
    if (!s->data_error) {
        s->data_error = 1;
        s->data_error_offset = offset;
    }
}

/* LibRaw's fixed-size strings into ours, cut to fit. */
static void copy_text(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size - 1);
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* The 2x2 pattern at frame (raw) coordinates: LibRaw's filters describe the visible area,
 * which starts at the margins; its fourth colour (a second green) is green. */
static uint32_t cfa_of(const libraw_data_t *lr)
{
    uint32_t cfa = 0;
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < 2; x++) {
            uint32_t row = y + 16 - lr->sizes.top_margin % 16;
            uint32_t col = x + 16 - lr->sizes.left_margin % 16;
            uint32_t c = lr->idata.filters >> ((((row << 1) & 14) | (col & 1)) << 1) & 3;
            cfa |= (c == 3 ? 1u : c) << (8 * (2 * y + x));
        }
    return cfa;
}

/* Black in LibRaw's terms is a common part plus one per colour channel: their mean. */
static int32_t black_of(const libraw_data_t *lr)
{
    const unsigned *cb = lr->color.cblack;
    return (int32_t)(lr->color.black + (cb[0] + cb[1] + cb[2] + cb[3] + 2) / 4);
}

/* Where the samples clip: the camera's own statement when the file makes one (Canon's colour
 * data: the specular white, LibRaw's linear_max), else LibRaw's maximum (a DNG's WhiteLevel,
 * or its table's value for the body, which for Canon is a round figure above the real clip
 * level: 15488 against 15283 for a 5D Mark III at ISO 100). */
static uint32_t white_of(const libraw_data_t *lr)
{
    long linear = lr->color.linear_max[0];
    return linear > 0 && linear < (long)lr->color.maximum ? (uint32_t)linear
                                                          : lr->color.maximum;
}

static uint32_t bits_for(uint32_t max)
{
    uint32_t bits = 10;
    while (bits < 16 && (1u << bits) - 1 < max)
        bits++;
    return bits;
}

static mp_status add_block(mlv_clip *c, mlv_block *b, mlv_block_type type, mp_error *err)
{
    b->type = type;
    return mp_mlv_add_metadata(c, b, 0, 0, err);
}

static mp_status add_raw_info(mlv_clip *c, const libraw_data_t *lr, uint32_t max_sample,
                              mp_error *err)
{
    mlv_block b = {0};
    mp_raw_info *r = &b.u.rawi;
    const libraw_image_sizes_t *sz = &lr->sizes;
    r->width = sz->raw_width;
    r->height = sz->raw_height;
    r->black = black_of(lr);
    r->white = (int32_t)white_of(lr);
    r->bits = bits_for(max_sample > lr->color.maximum ? max_sample : lr->color.maximum);
    r->active_area[0] = sz->top_margin;
    r->active_area[1] = sz->left_margin;
    r->active_area[2] = sz->top_margin + sz->height;
    r->active_area[3] = sz->left_margin + sz->width;
    r->crop_size[0] = sz->width;
    r->crop_size[1] = sz->height;
    r->cfa = cfa_of(lr);
    r->calibration_illuminant = 21;     /* LibRaw's cam_xyz is a D65 matrix */
    for (int i = 0; i < 9; i++)
        r->color_matrix1[i] = (mp_rational){(int32_t)lroundf(lr->color.cam_xyz[i / 3][i % 3] *
                                                             10000.0f), 10000};
    memcpy(b.tag, "RAWI", 5);
    return add_block(c, &b, MLV_BLOCK_RAWI, err);
}

/* EXIF orientation of LibRaw's flip code (0 none, 3 half turn, 5 and 6 quarter turns). */
static uint16_t orientation_of(int flip)
{
    switch (flip) {
    case 3: return 3;
    case 5: return 8;
    case 6: return 6;
    default: return 1;
    }
}

static mp_status add_camera(mlv_clip *c, const libraw_data_t *lr, mp_error *err)
{
    mlv_block b = {0};
    mp_camera *cam = &b.u.idnt;
    const char *make = lr->idata.make, *model = lr->idata.model;
    cam->present = 1;
    char name[sizeof lr->idata.make + sizeof lr->idata.model + 1];
    snprintf(name, sizeof name, "%s%s%s", strncmp(model, make, strlen(make)) ? make : "",
             strncmp(model, make, strlen(make)) ? " " : "", model);
    copy_text(cam->name, sizeof cam->name, name);
    /* Canon's model id, the number MLV's IDNT carries, names the body in mp_camera_color */
    cam->model = (uint32_t)lr->lens.makernotes.CamID;
    copy_text(cam->serial, sizeof cam->serial, lr->shootinginfo.BodySerial);
    memcpy(b.tag, "IDNT", 5);
    mp_status st = add_block(c, &b, MLV_BLOCK_IDNT, err);

    memset(&b, 0, sizeof b);
    mp_lens *lens = &b.u.lens;
    lens->present = 1;
    lens->focal_mm = (uint16_t)lroundf(lr->other.focal_len);
    lens->aperture_x100 = (uint16_t)lroundf(lr->other.aperture * 100.0f);
    copy_text(lens->name, sizeof lens->name,
              lr->lens.Lens[0] ? lr->lens.Lens : lr->lens.makernotes.Lens);
    memcpy(b.tag, "LENS", 5);
    if (st == MP_OK)
        st = add_block(c, &b, MLV_BLOCK_LENS, err);

    memset(&b, 0, sizeof b);
    b.u.expo.present = 1;
    b.u.expo.iso = (uint32_t)lroundf(lr->other.iso_speed);
    b.u.expo.shutter_us = (uint64_t)llroundf(lr->other.shutter * 1e6f);
    memcpy(b.tag, "EXPO", 5);
    if (st == MP_OK)
        st = add_block(c, &b, MLV_BLOCK_EXPO, err);
    return st;
}

/* As-shot white balance: LibRaw's multipliers (R, G, B, G2) as Magic Lantern's custom gains,
 * 1024 / multiplier relative to green, which mp_white turns back into the neutral. */
static mp_status add_white_balance(mlv_clip *c, const libraw_data_t *lr, mp_error *err)
{
    const float *m = lr->color.cam_mul;
    if (!(m[0] > 0 && m[1] > 0 && m[2] > 0))
        return MP_OK;
    mlv_block b = {0};
    mp_white_balance *wb = &b.u.wbal;
    wb->present = 1;
    wb->mode = MP_WB_MODE_CUSTOM;
    wb->gain_r = (uint32_t)lroundf(1024.0f * m[1] / m[0]);
    wb->gain_g = 1024;
    wb->gain_b = (uint32_t)lroundf(1024.0f * m[1] / m[2]);
    memcpy(b.tag, "WBAL", 5);
    return add_block(c, &b, MLV_BLOCK_WBAL, err);
}

/* LibRaw turns EXIF's DateTimeOriginal into a time_t with mktime (local time); localtime in
 * the same process gives the calendar fields back. */
static mp_status add_wall_clock(mlv_clip *c, const libraw_data_t *lr, mp_error *err)
{
    struct tm tm;
    time_t t = lr->other.timestamp;
    if (!t || !localtime_r(&t, &tm))
        return MP_OK;
    mlv_block b = {0};
    mp_wall_clock *w = &b.u.rtci;
    w->present = 1;
    w->year = tm.tm_year + 1900;
    w->month = tm.tm_mon + 1;
    w->day = tm.tm_mday;
    w->hour = tm.tm_hour;
    w->minute = tm.tm_min;
    w->second = tm.tm_sec;
    memcpy(b.tag, "RTCI", 5);
    return add_block(c, &b, MLV_BLOCK_RTCI, err);
}

/* The shape LibRaw found, before it allocates for the image: a Bayer mosaic of a size we
 * accept. */
static mp_status check_shape(const mlv_clip *c, const libraw_data_t *lr, mp_error *err)
{
    const char *name = mp_mlv_base_name(c->chunks[0].path);
    const libraw_image_sizes_t *sz = &lr->sizes;
    if (!sz->raw_width || !sz->raw_height || sz->raw_width > MP_FRAME_MAX_DIM ||
        sz->raw_height > MP_FRAME_MAX_DIM ||
        (uint64_t)sz->raw_width * sz->raw_height > MP_FRAME_MAX_PIXELS ||
        sz->left_margin + sz->width > sz->raw_width || sz->top_margin + sz->height > sz->raw_height)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset 0: a %ux%u raw image with a "
                            "%ux%u picture at %u,%u is impossible", name, sz->raw_width,
                            sz->raw_height, sz->width, sz->height, sz->left_margin,
                            sz->top_margin);
    uint32_t cfa = cfa_of(lr);
    if (lr->idata.colors != 3 || lr->idata.filters < 1000 || !mp_cfa_is_bayer(cfa))
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: %s %s is not a Bayer mosaic of red, "
                            "green and blue (not supported)", name, lr->idata.make,
                            lr->idata.model);
    return MP_OK;
}

/* The unpacked mosaic into the state; the largest sample (a depth check) into *max. */
static mp_status keep_samples(mlv_clip *c, const libraw_data_t *lr, uint32_t *max,
                              mp_error *err)
{
    const char *name = mp_mlv_base_name(c->chunks[0].path);
    const libraw_image_sizes_t *sz = &lr->sizes;
    const uint16_t *raw = lr->rawdata.raw_image;
    if (!raw)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: LibRaw gives %s %s's image as "
                            "colour pixels, not a mosaic (not supported)", name,
                            lr->idata.make, lr->idata.model);
    still_state *s = c->source_state;
    size_t w = sz->raw_width, h = sz->raw_height, pitch = sz->raw_pitch / 2;
    if (pitch < w)
        pitch = w;
    if (!(s->samples = malloc(w * h * sizeof *s->samples)))
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory for a %zux%zu image", name, w,
                            h);
    uint16_t all = 0;
    for (size_t y = 0; y < h; y++) {
        memcpy(s->samples + y * w, raw + y * pitch, w * sizeof *raw);
        for (size_t x = 0; x < w; x++)
            all = s->samples[y * w + x] > all ? s->samples[y * w + x] : all;
    }
    *max = all;
    return MP_OK;
}

static mp_status describe(mlv_clip *c, const libraw_data_t *lr, uint32_t max, mp_error *err)
{
    mlv_clip_info *in = &c->info;
    in->container = MLV_CONTAINER_STILL;
    in->video_class = 1;
    copy_text(in->still_format, sizeof in->still_format, lr->idata.dng_version ? "DNG" : "CR2");
    in->photo.present = 1;
    copy_text(in->photo.owner, sizeof in->photo.owner, lr->other.artist);
    in->photo.orientation = orientation_of(lr->sizes.flip);
    still_state *s = c->source_state;
    if (s->data_error) {
        const char *name = mp_mlv_base_name(c->chunks[0].path);
        if (s->data_error_offset < 0)
            mp_mlv_add_damage(c, MLV_DAMAGE_TRUNCATED, 0, c->chunks[0].size, "%s: offset %llu: "
                              "the image data runs past the end of the file", name,
                              (unsigned long long)c->chunks[0].size);
        else
            mp_mlv_add_damage(c, MLV_DAMAGE_BAD_BLOCK, 0, (uint64_t)s->data_error_offset,
                              "%s: offset %d: the image data is corrupt", name,
                              s->data_error_offset);
    }
    mp_status st = add_raw_info(c, lr, max, err);
    if (st == MP_OK)
        st = add_camera(c, lr, err);
    if (st == MP_OK)
        st = add_white_balance(c, lr, err);
    if (st == MP_OK)
        st = add_wall_clock(c, lr, err);
    mlv_entry e = {0};
    e.length = c->chunks[0].size < UINT32_MAX ? (uint32_t)c->chunks[0].size : UINT32_MAX;
    return st == MP_OK ? mp_mlv_add_frame(c, &e, err) : st;
}

/* LibRaw's verdict on a file it was given: one we cannot read is no still. */
static mp_status libraw_failed(const mlv_clip *c, int rc, const char *step, mp_error *err)
{
    const char *name = mp_mlv_base_name(c->chunks[0].path);
    if (rc == LIBRAW_IO_ERROR)   /* LibRaw read past the end of the buffer */
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: the file ends inside the "
                            "image data (LibRaw cannot %s it)", name,
                            (unsigned long long)c->chunks[0].size, step);
    mp_status code = rc == LIBRAW_FILE_UNSUPPORTED ? MP_ERR_FORMAT
                     : rc == LIBRAW_UNSUFFICIENT_MEMORY ? MP_ERR_NOMEM : MP_ERR_DAMAGED;
    return mp_error_set(err, code, "%s: offset 0: LibRaw cannot %s it: %s", name, step,
                        mp_libraw.libraw_strerror(rc));
}

static mp_status decode_with(mlv_clip *c, libraw_data_t *lr, const uint8_t *bytes, size_t size,
                             mp_error *err)
{
    mp_libraw.libraw_set_dataerror_handler(lr, on_data_error, c->source_state);
    /* LibRaw's own bound on what a file may make it allocate (2 GiB by default), brought
     * near ours: the largest frame we take is 128 MiB of samples */
    lr->params.max_raw_memory_mb = STILL_MAX_LIBRAW_MB;
    int rc = mp_libraw.libraw_open_buffer(lr, (void *)bytes, size);
    if (rc != LIBRAW_SUCCESS)
        return libraw_failed(c, rc, "identify", err);
    mp_status st = check_shape(c, lr, err);
    if (st != MP_OK)
        return st;
    if ((rc = mp_libraw.libraw_unpack(lr)) != LIBRAW_SUCCESS)
        return libraw_failed(c, rc, "decode", err);
    uint32_t max = 0;
    if ((st = keep_samples(c, lr, &max, err)) != MP_OK)
        return st;
    char why[200];
    uint64_t at = 0;
    if (mp_still_cr2_slices_problem(bytes, size, lr->sizes.raw_width, &at, why, sizeof why))
        mp_mlv_add_damage(c, MLV_DAMAGE_BAD_FIELD, 0, at, "%s: offset %llu: %s",
                          mp_mlv_base_name(c->chunks[0].path), (unsigned long long)at, why);
    return describe(c, lr, max, err);
}

static mp_status still_index(mlv_clip *c, mp_error *err)
{
    const mlv_chunk *ch = &c->chunks[0];
    const char *name = mp_mlv_base_name(ch->path);
    if (ch->size > STILL_MAX_BYTES)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: %llu bytes, larger than any raw photo we "
                            "read (%llu)", name, (unsigned long long)ch->size, STILL_MAX_BYTES);
    mp_error sub = {0};
    if (mp_libraw_load(&sub) != MP_OK)
        return mp_error_set(err, sub.code, "%s: %s", name, sub.msg);
    if (!(c->source_state = calloc(1, sizeof(still_state))))
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", name);
    uint8_t *bytes = malloc(ch->size ? ch->size : 1);
    if (!bytes)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory for %llu bytes", name,
                            (unsigned long long)ch->size);
    mp_status st = MP_OK;
    if (mp_mlv_chunk_pread(ch, bytes, ch->size, 0) != (ssize_t)ch->size)
        st = mp_error_set(err, MP_ERR_IO, "%s: cannot read it", name);
    libraw_data_t *lr = st == MP_OK ? mp_libraw.libraw_init(0) : NULL;
    if (st == MP_OK && !lr)
        st = mp_error_set(err, MP_ERR_NOMEM, "%s: LibRaw cannot start", name);
    if (st == MP_OK)
        st = decode_with(c, lr, bytes, ch->size, err);
    if (lr)
        mp_libraw.libraw_close(lr);
    free(bytes);
    return st;
}

static mp_status still_read_payload(const mlv_clip *c, uint32_t index, mlv_payload *buf,
                                    mp_error *err)
{
    if (index >= c->info.frame_count)
        return mp_error_set(err, MP_ERR_RANGE, "%s: frame index %u out of range (a still has "
                            "one frame)", mp_mlv_base_name(c->chunks[0].path), index);
    buf->clip = c;      /* decoded when the still was opened: nothing to read */
    buf->index = index;
    return MP_OK;
}

static mp_status still_decode_payload(const mlv_clip *c, uint32_t index, const mlv_payload *buf,
                                      mp_frame *out, mlv_scratch *scratch, mp_error *err)
{
    (void)buf;
    (void)scratch;
    const still_state *s = c->source_state;
    if (c->info.damage_count)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s", c->damage[0].message);
    const mlv_entry *e = &c->frames[index];
    const mp_raw_info *r = &c->states[e->state].raw;
    char why[160];
    if (mp_mlv_raw_problem(r, why, sizeof why))
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: %s; not decoded",
                            mp_mlv_base_name(c->chunks[0].path), why);
    mp_status st = mp_mlv_frame_shell(c, index, out, err);
    if (st == MP_OK)
        memcpy(out->data, s->samples, (size_t)r->width * r->height * sizeof *out->data);
    return st;
}

static void still_close(mlv_clip *c)
{
    still_state *s = c->source_state;
    if (s)
        free(s->samples);
    free(s);
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
