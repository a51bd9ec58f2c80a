#include "encode/dng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/bitpack.h"
#include "codec/lj92.h"
#include "common/mp_white.h"
#include "common/out_file.h"
#include "tiff_writer.h"
#include "encode/timecode.h"
#include "encode/wallclock.h"

enum {
    TAG_NEW_SUBFILE_TYPE = 254, TAG_IMAGE_WIDTH = 256, TAG_IMAGE_LENGTH = 257,
    TAG_BITS_PER_SAMPLE = 258, TAG_COMPRESSION = 259, TAG_PHOTOMETRIC = 262, TAG_MAKE = 271,
    TAG_MODEL = 272, TAG_STRIP_OFFSETS = 273, TAG_ORIENTATION = 274,
    TAG_SAMPLES_PER_PIXEL = 277, TAG_ROWS_PER_STRIP = 278, TAG_STRIP_BYTE_COUNTS = 279,
    TAG_PLANAR_CONFIGURATION = 284, TAG_SOFTWARE = 305, TAG_DATE_TIME = 306, TAG_ARTIST = 315,
    TAG_CFA_REPEAT_PATTERN_DIM = 33421, TAG_CFA_PATTERN = 33422, TAG_EXIF_IFD = 34665,
    TAG_DNG_VERSION = 50706, TAG_DNG_BACKWARD_VERSION = 50707, TAG_UNIQUE_CAMERA_MODEL = 50708,
    TAG_BLACK_LEVEL_REPEAT_DIM = 50713, TAG_BLACK_LEVEL = 50714, TAG_WHITE_LEVEL = 50717,
    TAG_DEFAULT_SCALE = 50718, TAG_DEFAULT_CROP_ORIGIN = 50719, TAG_DEFAULT_CROP_SIZE = 50720,
    TAG_COLOR_MATRIX1 = 50721, TAG_COLOR_MATRIX2 = 50722, TAG_AS_SHOT_NEUTRAL = 50728,
    TAG_BASELINE_EXPOSURE = 50730, TAG_CAMERA_SERIAL_NUMBER = 50735,
    TAG_CALIBRATION_ILLUMINANT1 = 50778,
    TAG_CALIBRATION_ILLUMINANT2 = 50779, TAG_ACTIVE_AREA = 50829, TAG_TIME_CODES = 51043,
    TAG_FRAME_RATE = 51044, TAG_REEL_NAME = 51081, TAG_BASELINE_EXPOSURE_OFFSET = 51109,
    /* Exif IFD */
    TAG_EXPOSURE_TIME = 33434, TAG_F_NUMBER = 33437, TAG_ISO_SPEED_RATINGS = 34855,
    TAG_SENSITIVITY_TYPE = 34864, TAG_EXIF_VERSION = 36864, TAG_DATE_TIME_ORIGINAL = 36867,
    TAG_SUBJECT_DISTANCE = 37382, TAG_FOCAL_LENGTH = 37386, TAG_SUB_SEC_TIME_ORIGINAL = 37521,
    TAG_CAMERA_OWNER_NAME = 42032, TAG_BODY_SERIAL_NUMBER = 42033, TAG_LENS_MODEL = 42036
};

enum { PHOTOMETRIC_CFA = 32803, COMPRESSION_NONE = 1, COMPRESSION_LJ92 = 7,
       SENSITIVITY_ISO_SPEED = 3, LENS_FOCUS_INFINITE = 65535 };

/* The storage of one frame: bits per sample, compression and payload size. */
typedef struct dng_layout {
    uint32_t bits;
    uint16_t compression;
    int packed;
    size_t row_bytes;               /* uncompressed only */
    int lj92_two_components;        /* MP_DNG_LJ92_2C instead of MP_DNG_LJ92 */
} dng_layout;

/* What the tags and the layout need of a frame: its size, depth, levels and pattern (not
 * its samples). */
static mp_status check_shape(const mp_frame *f, const mp_sink_params *p, dng_layout *lay,
                             mp_error *err)
{
    if (!f->width || !f->height || f->width > MP_FRAME_MAX_DIM ||
        f->height > MP_FRAME_MAX_DIM || (uint64_t)f->width * f->height > MP_FRAME_MAX_PIXELS)
        return mp_error_set(err, MP_ERR_ARG, "frame %u: size %ux%u cannot be written",
                            f->number, f->width, f->height);
    if (f->bits < 8 || f->bits > 16)
        return mp_error_set(err, MP_ERR_ARG, "frame %u: %u-bit samples are not supported",
                            f->number, f->bits);
    if (f->black >= f->white)
        return mp_error_set(err, MP_ERR_ARG, "frame %u: black level %u not below white %u",
                            f->number, f->black, f->white);
    for (int i = 0; i < 4; i++)
        if (((f->cfa >> (8 * i)) & 0xFF) > 2)
            return mp_error_set(err, MP_ERR_ARG, "frame %u: CFA pattern 0x%08x is not RGB",
                                f->number, f->cfa);
    lay->bits = p->storage == MP_DNG_16BIT ? 16 : f->bits;
    lay->compression = p->storage == MP_DNG_LJ92 || p->storage == MP_DNG_LJ92_2C
                           ? COMPRESSION_LJ92 : COMPRESSION_NONE;
    lay->lj92_two_components = p->storage == MP_DNG_LJ92_2C;
    lay->packed = lay->compression == COMPRESSION_NONE && lay->bits != 16;
    lay->row_bytes = lay->packed ? mp_packed_size_dng(f->width, lay->bits) : 2 * (size_t)f->width;
    if (lay->compression == COMPRESSION_LJ92 && (f->height % 2 || f->width % 2))
        return mp_error_set(err, MP_ERR_ARG, "frame %u: LJ92 needs an even size, not %ux%u",
                            f->number, f->width, f->height);
    return MP_OK;
}

static mp_status check_frame(const mp_frame *f, const mp_sink_params *p, dng_layout *lay,
                             mp_error *err)
{
    if (!f->data)
        return mp_error_set(err, MP_ERR_ARG, "frame %u: no samples", f->number);
    mp_status st = check_shape(f, p, lay, err);
    if (st != MP_OK)
        return st;
    if (lay->packed) {
        /* A sample above the depth would corrupt its neighbours once packed (the LJ92
         * encoder checks its input itself). */
        uint16_t all = 0;
        size_t n = (size_t)f->width * f->height;
        for (size_t i = 0; i < n; i++)
            all |= f->data[i];
        if (all >> lay->bits)
            return mp_error_set(err, MP_ERR_ARG, "frame %u: samples exceed %u bits",
                                f->number, lay->bits);
    }
    return MP_OK;
}

static void reduce(uint64_t *num, uint64_t *den)
{
    uint64_t a = *num, b = *den;
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    if (a > 1) {
        *num /= a;
        *den /= a;
    }
}

static void add_rational(tiff_ifd *ifd, uint16_t tag, uint64_t num, uint64_t den)
{
    reduce(&num, &den);
    if (num <= UINT32_MAX && den <= UINT32_MAX && den) {
        uint32_t v[2] = {(uint32_t)num, (uint32_t)den};
        mp_tiff_add_rationals(ifd, tag, v, 1);
    }
}

static void add_cfa(tiff_ifd *ifd, uint32_t cfa, const uint32_t area[4])
{
    /* DNG anchors the pattern at the ActiveArea's top-left corner, mp_frame at (0, 0). */
    uint8_t pattern[4];
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < 2; x++) {
            uint32_t cell = ((y + area[0]) % 2) * 2 + (x + area[1]) % 2;
            pattern[y * 2 + x] = (uint8_t)(cfa >> (8 * cell));
        }
    uint16_t dim[2] = {2, 2};
    mp_tiff_add_shorts(ifd, TAG_CFA_REPEAT_PATTERN_DIM, dim, 2);
    mp_tiff_add_bytes(ifd, TAG_CFA_PATTERN, TIFF_BYTE, pattern, 4);
}

/* "YYYY:MM:DD HH:MM:SS" of the frame from RTCI, and its milliseconds (RTCI itself counts
 * whole seconds; the frame's offset from it gives the rest). Returns 0 without a clock. */
static int frame_time(const mp_wall_clock *wc, uint64_t timestamp_us, char when[20],
                      char millis[4])
{
    mp_civil_time t;
    if (!mp_wall_clock_at(wc, timestamp_us, &t))
        return 0;
    snprintf(when, 20, "%04d:%02d:%02d %02d:%02d:%02d", (int)t.year, (int)t.month,
             (int)t.day, (int)t.hour, (int)t.minute, (int)t.second);
    int64_t us = ((int64_t)(timestamp_us - wc->timestamp_us) % 1000000 + 1000000) % 1000000;
    snprintf(millis, 4, "%03d", (int)(us / 1000));
    return 1;
}

/* Anamorphic / line-skipping modes: stretch the short axis back (doc/mlv-format.md 4.2). */
static void add_default_scale(tiff_ifd *ifd, const mp_raw_capture *c)
{
    uint64_t h = 1, v = 1;
    if (c->present && c->binning_x + c->skipping_x && c->binning_y + c->skipping_y) {
        h = (uint64_t)c->binning_x + c->skipping_x;
        v = (uint64_t)c->binning_y + c->skipping_y;
    }
    reduce(&h, &v);
    uint32_t scale[4] = {1, 1, 1, 1};
    if (v > h) {            /* rows cover more sensor height than columns cover width */
        scale[2] = (uint32_t)v;
        scale[3] = (uint32_t)h;
    } else if (h > v) {
        scale[0] = (uint32_t)h;
        scale[1] = (uint32_t)v;
    }
    mp_tiff_add_rationals(ifd, TAG_DEFAULT_SCALE, scale, 2);
}

/* ColorMatrix1/2 with their illuminants from the camera table (RAWI's matrix for bodies
 * not in it), and AsShotNeutral from WBAL as Magic Lantern means it (mp_white.h). */
static void add_color(tiff_ifd *ifd, const mp_clip_meta *meta, const mp_white_balance *wb)
{
    static const uint16_t matrix_tag[2] = {TAG_COLOR_MATRIX1, TAG_COLOR_MATRIX2};
    static const uint16_t illuminant_tag[2] = {TAG_CALIBRATION_ILLUMINANT1,
                                               TAG_CALIBRATION_ILLUMINANT2};
    mp_color_calib cal;
    mp_color_calib_resolve(&meta->camera, &meta->raw, &cal);
    for (uint32_t i = 0; i < cal.count; i++) {
        int32_t m[18];
        for (int k = 0; k < 9; k++) {
            m[2 * k] = cal.matrix[i][k].num;
            m[2 * k + 1] = cal.matrix[i][k].den;
        }
        mp_tiff_add_srationals(ifd, matrix_tag[i], m, 9);
        mp_tiff_add_short(ifd, illuminant_tag[i], (uint16_t)cal.illuminant[i]);
    }
    double neutral[3];
    if (mp_wb_as_shot_neutral(wb, &cal, neutral)) {
        /* 9 decimals (6 for an implausibly large component, to stay in 32 bits) */
        uint32_t n[6];
        for (int c = 0; c < 3; c++) {
            double v = neutral[c] < 4000 ? neutral[c] : 4000;
            uint32_t den = v < 4 ? 1000000000u : 1000000u;
            n[2 * c] = (uint32_t)lround(v * den);
            n[2 * c + 1] = den;
        }
        mp_tiff_add_rationals(ifd, TAG_AS_SHOT_NEUTRAL, n, 3);
    }
}

static void add_exif(tiff_ifd *exif, const mp_exposure *e, const mp_clip_meta *meta,
                     uint64_t timestamp_us)
{
    const mp_lens *lens = &meta->lens;
    char when[20], millis[4];
    if (e->present && e->shutter_us)
        add_rational(exif, TAG_EXPOSURE_TIME, e->shutter_us, 1000000);
    if (lens->present && lens->aperture_x100)
        add_rational(exif, TAG_F_NUMBER, lens->aperture_x100, 100);
    if (e->present && e->iso) {
        mp_tiff_add_short(exif, TAG_ISO_SPEED_RATINGS, (uint16_t)(e->iso < 65535 ? e->iso : 65535));
        mp_tiff_add_short(exif, TAG_SENSITIVITY_TYPE, SENSITIVITY_ISO_SPEED);
    }
    if (frame_time(&meta->wall_clock, timestamp_us, when, millis)) {
        mp_tiff_add_ascii(exif, TAG_DATE_TIME_ORIGINAL, when);
        mp_tiff_add_ascii(exif, TAG_SUB_SEC_TIME_ORIGINAL, millis);
    }
    /* LENS focalDist is in mm (65535: infinity, which Exif writes as 0xFFFFFFFF/1) */
    if (lens->present && lens->focus_dist == LENS_FOCUS_INFINITE)
        add_rational(exif, TAG_SUBJECT_DISTANCE, UINT32_MAX, 1);
    else if (lens->present && lens->focus_dist)
        add_rational(exif, TAG_SUBJECT_DISTANCE, lens->focus_dist, 1000);
    if (lens->present && lens->focal_mm)
        add_rational(exif, TAG_FOCAL_LENGTH, lens->focal_mm, 1);
    if (meta->camera.present && meta->camera.serial[0])
        mp_tiff_add_ascii(exif, TAG_BODY_SERIAL_NUMBER, meta->camera.serial);
    if (meta->photo.present && meta->photo.owner[0])
        mp_tiff_add_ascii(exif, TAG_CAMERA_OWNER_NAME, meta->photo.owner);
    if (lens->present && lens->name[0])
        mp_tiff_add_ascii(exif, TAG_LENS_MODEL, lens->name);
    if (exif->count)
        mp_tiff_add_bytes(exif, TAG_EXIF_VERSION, TIFF_UNDEFINED, (const uint8_t *)"0230", 4);
}

static mp_status build_ifds(const mp_frame *f, const mp_frame_meta *m, const mp_sink_params *p,
                            const dng_layout *lay, tiff_ifd *ifd0, tiff_ifd *exif,
                            mp_error *err)
{
    const mp_clip_meta *meta = &p->meta;
    const mp_exposure *expo = m->exposure ? m->exposure : &meta->exposure;
    const mp_white_balance *wb = m->white_balance ? m->white_balance : &meta->white_balance;
    mp_rational fps = {0, 1};
    mp_timecode tc;
    mp_status st = p->still ? MP_OK : mp_sink_fps(p, &fps, err);
    if (st == MP_OK && !p->still)
        st = mp_sink_timecode(p, f->number, &tc, err);
    if (st != MP_OK)
        return st;

    mp_tiff_ifd_init(ifd0);
    mp_tiff_ifd_init(exif);
    mp_tiff_add_long(ifd0, TAG_NEW_SUBFILE_TYPE, 0);
    mp_tiff_add_long(ifd0, TAG_IMAGE_WIDTH, f->width);
    mp_tiff_add_long(ifd0, TAG_IMAGE_LENGTH, f->height);
    mp_tiff_add_short(ifd0, TAG_BITS_PER_SAMPLE, (uint16_t)lay->bits);
    mp_tiff_add_short(ifd0, TAG_COMPRESSION, lay->compression);
    mp_tiff_add_short(ifd0, TAG_PHOTOMETRIC, PHOTOMETRIC_CFA);
    const char *model = meta->camera.present && meta->camera.name[0] ? meta->camera.name
                                                                      : "Canon EOS";
    mp_tiff_add_ascii(ifd0, TAG_MAKE, "Canon");
    mp_tiff_add_ascii(ifd0, TAG_MODEL, model);
    mp_tiff_add_long(ifd0, TAG_STRIP_OFFSETS, 0);          /* set after layout */
    mp_tiff_add_short(ifd0, TAG_ORIENTATION, meta->photo.present && meta->photo.orientation
                                                 ? meta->photo.orientation : 1);
    mp_tiff_add_short(ifd0, TAG_SAMPLES_PER_PIXEL, 1);
    mp_tiff_add_long(ifd0, TAG_ROWS_PER_STRIP, f->height);
    mp_tiff_add_long(ifd0, TAG_STRIP_BYTE_COUNTS, 0);      /* set after layout */
    mp_tiff_add_short(ifd0, TAG_PLANAR_CONFIGURATION, 1);
    mp_tiff_add_ascii(ifd0, TAG_SOFTWARE, MP_DNG_SOFTWARE);
    char when[20], millis[4];
    if (frame_time(&meta->wall_clock, f->timestamp_us, when, millis))
        mp_tiff_add_ascii(ifd0, TAG_DATE_TIME, when);
    if (meta->photo.present && meta->photo.owner[0])
        mp_tiff_add_ascii(ifd0, TAG_ARTIST, meta->photo.owner);

    uint32_t area[4];
    mp_raw_active_area(&meta->raw, f->width, f->height, area);
    add_cfa(ifd0, f->cfa, area);
    static const uint8_t version[4] = {1, 4, 0, 0}, backward[4] = {1, 1, 0, 0};
    mp_tiff_add_bytes(ifd0, TAG_DNG_VERSION, TIFF_BYTE, version, 4);
    mp_tiff_add_bytes(ifd0, TAG_DNG_BACKWARD_VERSION, TIFF_BYTE, backward, 4);
    mp_tiff_add_ascii(ifd0, TAG_UNIQUE_CAMERA_MODEL, model);
    uint16_t repeat[2] = {1, 1};
    mp_tiff_add_shorts(ifd0, TAG_BLACK_LEVEL_REPEAT_DIM, repeat, 2);
    mp_tiff_add_long(ifd0, TAG_BLACK_LEVEL, f->black);
    mp_tiff_add_long(ifd0, TAG_WHITE_LEVEL, f->white);
    add_default_scale(ifd0, &meta->capture);
    uint32_t crop_origin[2] = {0, 0}, crop_size[2] = {area[3] - area[1], area[2] - area[0]};
    mp_tiff_add_longs(ifd0, TAG_DEFAULT_CROP_ORIGIN, crop_origin, 2);
    mp_tiff_add_longs(ifd0, TAG_DEFAULT_CROP_SIZE, crop_size, 2);
    add_color(ifd0, meta, wb);
    if (meta->camera.present && meta->camera.serial[0])
        mp_tiff_add_ascii(ifd0, TAG_CAMERA_SERIAL_NUMBER, meta->camera.serial);
    /* Clip-constant by construction: it comes from the params, never from the frame. */
    mp_rational be = p->baseline_exposure.den ? p->baseline_exposure
                     : meta->raw.exposure_bias.den ? meta->raw.exposure_bias
                                                   : (mp_rational){0, 1};
    int32_t be_v[2] = {be.num, be.den}, zero[2] = {0, 1};
    mp_tiff_add_srationals(ifd0, TAG_BASELINE_EXPOSURE, be_v, 1);
    mp_tiff_add_longs(ifd0, TAG_ACTIVE_AREA, area, 4);
    if (!p->still) {
        uint8_t tc_bytes[8];
        mp_timecode_pack(&tc, tc_bytes);
        mp_tiff_add_bytes(ifd0, TAG_TIME_CODES, TIFF_BYTE, tc_bytes, 8);
        int32_t rate[2] = {fps.num, fps.den};
        mp_tiff_add_srationals(ifd0, TAG_FRAME_RATE, rate, 1);
        mp_tiff_add_ascii(ifd0, TAG_REEL_NAME, p->clip_name);
    }
    mp_tiff_add_srationals(ifd0, TAG_BASELINE_EXPOSURE_OFFSET, zero, 1);

    add_exif(exif, expo, meta, f->timestamp_us);
    if (exif->count)
        mp_tiff_add_long(ifd0, TAG_EXIF_IFD, 0);           /* set after layout */
    if (!mp_tiff_ifd_size(ifd0) || (exif->count && !mp_tiff_ifd_size(exif)))
        return mp_error_set(err, MP_ERR_ARG, "frame %u: DNG tags exceed the IFD builder",
                            f->number);
    return MP_OK;
}

static void store_uncompressed(const mp_frame *f, const dng_layout *lay, uint8_t *dst)
{
    for (uint32_t y = 0; y < f->height; y++) {
        const uint16_t *row = f->data + (size_t)y * f->width;
        uint8_t *out = dst + (size_t)y * lay->row_bytes;
        if (lay->packed) {
            mp_pack_dng(row, out, f->width, lay->bits);
        } else {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            memcpy(out, row, lay->row_bytes);          /* the file is little-endian too */
#else
            for (uint32_t x = 0; x < f->width; x++) {
                out[2 * x] = (uint8_t)row[x];
                out[2 * x + 1] = (uint8_t)(row[x] >> 8);
            }
#endif
        }
    }
}

/* A frame's DNG up to its samples: the TIFF header and IFDs (header bytes long, in *head),
 * the sample layout, and for LJ92 the compressed samples (*jpeg, payload bytes). */
typedef struct dng_parts {
    dng_layout lay;
    uint8_t *head, *jpeg;
    size_t header, payload;
} dng_parts;

static void parts_free(dng_parts *d)
{
    free(d->head);
    free(d->jpeg);
}

static mp_status parts_make(const mp_frame *f, const mp_frame_meta *m, const mp_sink_params *p,
                            dng_parts *d, mp_error *err)
{
    static const mp_frame_meta no_meta;
    memset(d, 0, sizeof *d);
    if (!m)
        m = &no_meta;
    mp_status st = check_frame(f, p, &d->lay, err);
    if (st != MP_OK)
        return st;
    /* Two IFDs are ~1 KiB each: keep them off small thread stacks. */
    tiff_ifd *ifd = malloc(2 * sizeof *ifd);
    if (!ifd)
        return mp_error_set(err, MP_ERR_NOMEM, "frame %u: out of memory", f->number);
    tiff_ifd *ifd0 = &ifd[0], *exif = &ifd[1];
    d->payload = d->lay.row_bytes * f->height;
    st = build_ifds(f, m, p, &d->lay, ifd0, exif, err);
    if (st == MP_OK && d->lay.compression == COMPRESSION_LJ92) {
        /* Both layouts read the samples in raster order. One component: two Bayer rows
         * per JPEG line, predictor 6 reaches the same colour two rows up (doc/cinemadng.md 1.3).
         * Two components: a JPEG pixel is a pair of neighbours, so predictor 1 (left)
         * reaches the same colour two columns left. */
        lj92_header h = {.width = 2 * f->width, .height = f->height / 2, .components = 1,
                         .precision = d->lay.bits, .predictor = 6};
        if (d->lay.lj92_two_components)
            h = (lj92_header){.width = f->width / 2, .height = f->height, .components = 2,
                              .precision = d->lay.bits, .predictor = 1};
        st = mp_lj92_encode(f->data, &h, &d->jpeg, &d->payload, err);
    }
    size_t ifd0_size = st == MP_OK ? mp_tiff_ifd_size(ifd0) : 0;
    size_t exif_size = st == MP_OK && exif->count ? mp_tiff_ifd_size(exif) : 0;
    d->header = 8 + ifd0_size + exif_size;
    if (st == MP_OK && d->header + d->payload > UINT32_MAX)
        st = mp_error_set(err, MP_ERR_ARG, "frame %u: %zu bytes exceed a TIFF file",
                          f->number, d->header + d->payload);
    if (st == MP_OK && !(d->head = malloc(d->header)))
        st = mp_error_set(err, MP_ERR_NOMEM, "frame %u: out of memory", f->number);
    if (st == MP_OK) {
        mp_tiff_set_long(ifd0, TAG_STRIP_OFFSETS, (uint32_t)d->header);
        mp_tiff_set_long(ifd0, TAG_STRIP_BYTE_COUNTS, (uint32_t)d->payload);
        mp_tiff_set_long(ifd0, TAG_EXIF_IFD, (uint32_t)(8 + ifd0_size));
        mp_tiff_write_header(d->head, 8);
        mp_tiff_ifd_write(ifd0, d->head + 8, 8, 0);
        if (exif_size)
            mp_tiff_ifd_write(exif, d->head + 8 + ifd0_size, (uint32_t)(8 + ifd0_size), 0);
    }
    free(ifd);
    if (st != MP_OK)
        parts_free(d);
    return st;
}

/* The whole file in d->head: the samples as stored appended to the header. */
static mp_status parts_join(const mp_frame *f, dng_parts *d, mp_error *err)
{
    uint8_t *buf = realloc(d->head, d->header + d->payload);
    if (!buf)
        return mp_error_set(err, MP_ERR_NOMEM, "frame %u: out of memory", f->number);
    d->head = buf;
    if (d->jpeg)
        memcpy(d->head + d->header, d->jpeg, d->payload);
    else
        store_uncompressed(f, &d->lay, d->head + d->header);
    return MP_OK;
}

/* 16-bit samples are stored as the frame holds them (little-endian hosts): written from the
 * frame itself, without a copy. */
static int samples_as_in_memory(const dng_parts *d)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return !d->jpeg && !d->lay.packed;
#else
    (void)d;
    return 0;
#endif
}

mp_status mp_dng_encode(const mp_frame *f, const mp_frame_meta *m, const mp_sink_params *p,
                        uint8_t **out, size_t *len, mp_error *err)
{
    *out = NULL;
    *len = 0;
    dng_parts d;
    mp_status st = parts_make(f, m, p, &d, err);
    if (st == MP_OK)
        st = parts_join(f, &d, err);
    if (st != MP_OK) {
        parts_free(&d);
        return st;
    }
    *out = d.head;
    *len = d.header + d.payload;
    free(d.jpeg);
    return MP_OK;
}

mp_status mp_dng_size(const mp_frame *shape, const mp_frame_meta *m, const mp_sink_params *p,
                      uint64_t *len, mp_error *err)
{
    static const mp_frame_meta no_meta;
    dng_layout lay = {0};
    mp_status st = check_shape(shape, p, &lay, err);
    if (st != MP_OK)
        return st;
    if (lay.compression != COMPRESSION_NONE)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "frame %u: the size of a compressed DNG "
                            "is known only once it is made", shape->number);
    tiff_ifd *ifd = malloc(2 * sizeof *ifd);
    if (!ifd)
        return mp_error_set(err, MP_ERR_NOMEM, "frame %u: out of memory", shape->number);
    st = build_ifds(shape, m ? m : &no_meta, p, &lay, &ifd[0], &ifd[1], err);
    if (st == MP_OK)
        *len = 8 + mp_tiff_ifd_size(&ifd[0]) + (ifd[1].count ? mp_tiff_ifd_size(&ifd[1]) : 0) +
               lay.row_bytes * shape->height;
    free(ifd);
    return st;
}

mp_status mp_dng_encode_into(const mp_frame *f, const mp_frame_meta *m,
                             const mp_sink_params *p, uint8_t *buf, size_t size, mp_error *err)
{
    dng_parts d;
    mp_status st = parts_make(f, m, p, &d, err);
    if (st != MP_OK)
        return st;
    if (d.header + d.payload != size)
        st = mp_error_set(err, MP_ERR_RANGE, "frame %u: its DNG has %zu bytes, not the %zu "
                          "expected", f->number, d.header + d.payload, size);
    if (st == MP_OK) {
        memcpy(buf, d.head, d.header);
        if (d.jpeg)
            memcpy(buf + d.header, d.jpeg, d.payload);
        else
            store_uncompressed(f, &d.lay, buf + d.header);
    }
    parts_free(&d);
    return st;
}

mp_status mp_dng_write_file(const char *path, const mp_frame *f, const mp_frame_meta *m,
                            const mp_sink_params *p, mp_error *err)
{
    dng_parts d;
    mp_status st = parts_make(f, m, p, &d, err);
    if (st != MP_OK)
        return st;
    const int direct = samples_as_in_memory(&d);
    if (!direct)
        st = parts_join(f, &d, err);
    mp_out_file o;
    if (st == MP_OK)
        st = mp_out_open(&o, path, p->overwrite, err);
    if (st == MP_OK) {
        st = mp_out_write(&o, d.head, direct ? d.header : d.header + d.payload, err);
        if (st == MP_OK && direct)
            st = mp_out_write(&o, f->data, d.payload, err);
        if (st == MP_OK)
            st = mp_out_commit(&o, p->fsync, err);
        else
            mp_out_abort(&o);
    }
    parts_free(&d);
    return st;
}
