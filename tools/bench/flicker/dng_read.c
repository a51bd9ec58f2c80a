#include "dng_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    T_SHORT = 3, T_LONG = 4, T_RATIONAL = 5,
    TAG_WIDTH = 256, TAG_HEIGHT = 257, TAG_BITS = 258, TAG_COMPRESSION = 259,
    TAG_PHOTOMETRIC = 262, TAG_STRIP_OFFSETS = 273, TAG_SAMPLES = 277,
    TAG_ROWS_PER_STRIP = 278, TAG_STRIP_BYTES = 279, TAG_PLANAR = 284,
    TAG_CFA_DIM = 33421, TAG_CFA_PATTERN = 33422, TAG_BLACK_DIM = 50713,
    TAG_BLACK = 50714, TAG_WHITE = 50717, TAG_CROP_ORIGIN = 50719, TAG_CROP_SIZE = 50720,
    TAG_ACTIVE_AREA = 50829,
    PHOTOMETRIC_CFA = 32803,
    MAX_ENTRIES = 512,
    MAX_STRIPS = 65536
};

/* Largest file worth reading: the biggest frame we accept plus room for tags. */
#define MAX_FILE_BYTES ((uint64_t)MP_FRAME_MAX_PIXELS * 2 + (1u << 20))

typedef struct tiff {
    const uint8_t *b;
    uint64_t len;
    int big_endian;
    const char *path;
} tiff;

static uint32_t rd16(const tiff *t, uint64_t o)
{
    const uint8_t *p = t->b + o;
    return t->big_endian ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
}

static uint32_t rd32(const tiff *t, uint64_t o)
{
    const uint8_t *p = t->b + o;
    return t->big_endian
               ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
               : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* One IFD entry: where its values are and how many. */
typedef struct entry {
    uint32_t type, count;
    uint64_t at;          /* file offset of the first value */
    uint64_t entry_at;    /* file offset of the entry, for messages */
} entry;

static uint32_t type_size(uint32_t type)
{
    return type == T_SHORT ? 2 : type == T_LONG ? 4 : type == T_RATIONAL ? 8 : 0;
}

static mp_status value_at(const tiff *t, const entry *e, uint32_t i, double *v, mp_error *err)
{
    if (i >= e->count)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: offset %llu: tag holds %u values, not %u",
                            t->path, (unsigned long long)e->entry_at, e->count, i + 1);
    uint64_t o = e->at + (uint64_t)i * type_size(e->type);
    if (e->type == T_SHORT)
        *v = rd16(t, o);
    else if (e->type == T_LONG)
        *v = rd32(t, o);
    else {
        uint32_t den = rd32(t, o + 4);
        if (den == 0)
            return mp_error_set(err, MP_ERR_FORMAT, "%s: offset %llu: rational with "
                                "denominator 0", t->path, (unsigned long long)o);
        *v = (double)rd32(t, o) / den;
    }
    return MP_OK;
}

/* A tag that must hold exactly n numbers (SHORT, LONG or, when allowed, RATIONAL). */
static mp_status numbers(const tiff *t, const entry *e, const char *name, uint32_t n,
                         int rational_ok, double *out, mp_error *err)
{
    if (e->type == 0)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: %s tag missing", t->path, name);
    if (!(e->type == T_SHORT || e->type == T_LONG || (rational_ok && e->type == T_RATIONAL)))
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: offset %llu: %s has TIFF type %u",
                            t->path, (unsigned long long)e->entry_at, name, e->type);
    if (e->count != n)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: offset %llu: %s holds %u values, "
                            "expected %u", t->path, (unsigned long long)e->entry_at, name,
                            e->count, n);
    for (uint32_t i = 0; i < n; i++) {
        mp_status st = value_at(t, e, i, &out[i], err);
        if (st != MP_OK)
            return st;
    }
    return MP_OK;
}

static mp_status expect(const tiff *t, const entry *e, const char *name, double want,
                        mp_error *err)
{
    double v = 0;
    mp_status st = numbers(t, e, name, 1, 0, &v, err);
    if (st == MP_OK && v != want)
        st = mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: offset %llu: %s is %g, only %g is read",
                          t->path, (unsigned long long)e->entry_at, name, v, want);
    return st;
}

static mp_status read_file(const char *path, uint8_t **buf, uint64_t *len, mp_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return mp_error_set(err, MP_ERR_IO, "%s: %s", path, strerror(errno));
    mp_status st = MP_OK;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0)
        st = mp_error_set(err, MP_ERR_IO, "%s: cannot find the file size", path);
    else if ((uint64_t)size > MAX_FILE_BYTES || size < 8)
        st = mp_error_set(err, MP_ERR_FORMAT, "%s: %ld bytes is no DNG we write", path, size);
    else if (!(*buf = malloc((size_t)size)))
        st = mp_error_set(err, MP_ERR_NOMEM, "%s: cannot allocate %ld bytes", path, size);
    else if (fread(*buf, 1, (size_t)size, f) != (size_t)size) {
        st = mp_error_set(err, MP_ERR_IO, "%s: short read", path);
        free(*buf);
        *buf = NULL;
    }
    *len = st == MP_OK ? (uint64_t)size : 0;
    fclose(f);
    return st;
}

static mp_status parse_ifd(const tiff *t, entry tags[], const uint32_t ids[], int nids,
                           mp_error *err)
{
    if (t->len < 8 || !((t->b[0] == 'I' && t->b[1] == 'I') || (t->b[0] == 'M' && t->b[1] == 'M'))
        || rd16(t, 2) != 42)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: offset 0: not a TIFF header", t->path);
    uint64_t ifd = rd32(t, 4);
    if (ifd < 8 || ifd + 2 > t->len)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset 4: IFD0 offset %llu outside the "
                            "file", t->path, (unsigned long long)ifd);
    uint32_t n = rd16(t, ifd);
    if (n == 0 || n > MAX_ENTRIES || ifd + 2 + 12ull * n + 4 > t->len)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: IFD0 with %u entries does "
                            "not fit the file", t->path, (unsigned long long)ifd, n);
    uint32_t prev = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t o = ifd + 2 + 12ull * i;
        uint32_t tag = rd16(t, o);
        if (i && tag <= prev)
            return mp_error_set(err, MP_ERR_FORMAT, "%s: offset %llu: tag %u out of order",
                                t->path, (unsigned long long)o, tag);
        prev = tag;
        for (int k = 0; k < nids; k++) {
            if (ids[k] != tag)
                continue;
            entry *e = &tags[k];
            e->type = rd16(t, o + 2);
            e->count = rd32(t, o + 4);
            e->entry_at = o;
            uint64_t bytes = (uint64_t)type_size(e->type) * e->count;
            if (type_size(e->type) == 0) /* a type we never read: numbers() names it */
                e->at = o + 8;
            else
                e->at = bytes <= 4 ? o + 8 : rd32(t, o + 8);
            if (e->at + bytes > t->len)
                return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: values of tag %u "
                                    "outside the file", t->path, (unsigned long long)o, tag);
        }
    }
    return MP_OK;
}

enum { I_WIDTH, I_HEIGHT, I_BITS, I_COMPRESSION, I_PHOTOMETRIC, I_OFFSETS, I_SAMPLES,
       I_ROWS, I_BYTES, I_PLANAR, I_CFA_DIM, I_CFA, I_BLACK_DIM, I_BLACK, I_WHITE,
       I_CROP_ORIGIN, I_CROP_SIZE, I_ACTIVE, I_COUNT };
static const uint32_t tag_ids[I_COUNT] = {
    TAG_WIDTH, TAG_HEIGHT, TAG_BITS, TAG_COMPRESSION, TAG_PHOTOMETRIC, TAG_STRIP_OFFSETS,
    TAG_SAMPLES, TAG_ROWS_PER_STRIP, TAG_STRIP_BYTES, TAG_PLANAR, TAG_CFA_DIM,
    TAG_CFA_PATTERN, TAG_BLACK_DIM, TAG_BLACK, TAG_WHITE, TAG_CROP_ORIGIN, TAG_CROP_SIZE,
    TAG_ACTIVE_AREA};

static mp_status read_cfa(const tiff *t, const entry tags[], uint32_t *cfa, mp_error *err)
{
    double dim[2];
    mp_status st = numbers(t, &tags[I_CFA_DIM], "CFARepeatPatternDim", 2, 0, dim, err);
    if (st != MP_OK)
        return st;
    const entry *e = &tags[I_CFA];
    if (dim[0] != 2 || dim[1] != 2 || e->type != 1 || e->count != 4)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: offset %llu: CFA pattern is not "
                            "2x2 BYTE", t->path, (unsigned long long)e->entry_at);
    *cfa = 0;
    for (int i = 0; i < 4; i++) {
        uint8_t c = t->b[e->at + i];
        if (c > 2)
            return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: offset %llu: CFA colour %u",
                                t->path, (unsigned long long)(e->at + i), c);
        *cfa |= (uint32_t)c << (8 * i);
    }
    return MP_OK;
}

static mp_status read_samples(const tiff *t, const entry tags[], mp_frame *f, mp_error *err)
{
    double rows = f->height;
    mp_status st = MP_OK;
    if (tags[I_ROWS].type)
        st = numbers(t, &tags[I_ROWS], "RowsPerStrip", 1, 0, &rows, err);
    if (st != MP_OK)
        return st;
    if (rows < 1)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: RowsPerStrip 0", t->path);
    uint32_t strips = (uint32_t)((f->height + rows - 1) / rows);
    const entry *eo = &tags[I_OFFSETS], *eb = &tags[I_BYTES];
    if (strips > MAX_STRIPS || eo->count != strips || eb->count != strips ||
        !(eo->type == T_SHORT || eo->type == T_LONG) ||
        !(eb->type == T_SHORT || eb->type == T_LONG))
        return mp_error_set(err, MP_ERR_FORMAT, "%s: offset %llu: %u strips expected in "
                            "StripOffsets/StripByteCounts", t->path,
                            (unsigned long long)eo->entry_at, strips);
    const uint64_t row_bytes = 2ull * f->width;
    uint64_t y = 0;
    for (uint32_t s = 0; s < strips; s++) {
        double off, bytes;
        if ((st = value_at(t, eo, s, &off, err)) != MP_OK ||
            (st = value_at(t, eb, s, &bytes, err)) != MP_OK)
            return st;
        uint64_t nrows = f->height - y < rows ? f->height - y : (uint64_t)rows;
        if ((uint64_t)bytes != nrows * row_bytes || (uint64_t)off + (uint64_t)bytes > t->len)
            return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: strip %u (%.0f bytes "
                                "at %.0f) is not %llu rows of 16-bit samples inside the file",
                                t->path, (unsigned long long)eo->entry_at, s, bytes, off,
                                (unsigned long long)nrows);
        for (uint64_t i = 0; i < nrows * f->width; i++)
            f->data[y * f->width + i] = (uint16_t)rd16(t, (uint64_t)off + 2 * i);
        y += nrows;
    }
    return MP_OK;
}

static mp_status parse(const tiff *t, fc_dng *d, mp_error *err)
{
    entry tags[I_COUNT];
    memset(tags, 0, sizeof tags);
    mp_status st = parse_ifd(t, tags, tag_ids, I_COUNT, err);
    double w, h, v[4];
    if (st == MP_OK)
        st = numbers(t, &tags[I_WIDTH], "ImageWidth", 1, 0, &w, err);
    if (st == MP_OK)
        st = numbers(t, &tags[I_HEIGHT], "ImageLength", 1, 0, &h, err);
    if (st == MP_OK)
        st = expect(t, &tags[I_BITS], "BitsPerSample", 16, err);
    if (st == MP_OK)
        st = expect(t, &tags[I_COMPRESSION], "Compression", 1, err);
    if (st == MP_OK)
        st = expect(t, &tags[I_PHOTOMETRIC], "PhotometricInterpretation", PHOTOMETRIC_CFA, err);
    if (st == MP_OK)
        st = expect(t, &tags[I_SAMPLES], "SamplesPerPixel", 1, err);
    if (st == MP_OK && tags[I_PLANAR].type)
        st = expect(t, &tags[I_PLANAR], "PlanarConfiguration", 1, err);
    if (st == MP_OK && tags[I_BLACK_DIM].type) {
        st = numbers(t, &tags[I_BLACK_DIM], "BlackLevelRepeatDim", 2, 0, v, err);
        if (st == MP_OK && (v[0] != 1 || v[1] != 1))
            st = mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: BlackLevelRepeatDim %gx%g, only "
                              "one black level is read", t->path, v[0], v[1]);
    }
    if (st == MP_OK)
        st = numbers(t, &tags[I_BLACK], "BlackLevel", 1, 1, &d->black, err);
    if (st == MP_OK)
        st = numbers(t, &tags[I_WHITE], "WhiteLevel", 1, 0, &d->white, err);
    if (st == MP_OK)
        st = numbers(t, &tags[I_ACTIVE], "ActiveArea", 4, 0, v, err);
    if (st == MP_OK)
        st = numbers(t, &tags[I_CROP_ORIGIN], "DefaultCropOrigin", 2, 1, d->crop_origin, err);
    if (st == MP_OK)
        st = numbers(t, &tags[I_CROP_SIZE], "DefaultCropSize", 2, 1, d->crop_size, err);
    if (st == MP_OK)
        st = read_cfa(t, tags, &d->frame.cfa, err);
    if (st != MP_OK)
        return st;
    for (int i = 0; i < 4; i++)
        d->active[i] = (uint32_t)v[i];
    if (!(d->white > d->black) || d->white > 65535)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: BlackLevel %g / WhiteLevel %g", t->path,
                            d->black, d->white);
    if (w < 1 || h < 1 || w > MP_FRAME_MAX_DIM || h > MP_FRAME_MAX_DIM)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: image %gx%g", t->path, w, h);
    if (!(d->active[0] < d->active[2] && d->active[1] < d->active[3] && d->active[2] <= h &&
          d->active[3] <= w))
        return mp_error_set(err, MP_ERR_FORMAT, "%s: ActiveArea %u %u %u %u outside the %gx%g "
                            "image", t->path, d->active[0], d->active[1], d->active[2],
                            d->active[3], w, h);
    if (d->crop_origin[0] < 0 || d->crop_origin[1] < 0 || d->crop_size[0] <= 0 ||
        d->crop_size[1] <= 0 ||
        d->crop_origin[0] + d->crop_size[0] > d->active[3] - d->active[1] ||
        d->crop_origin[1] + d->crop_size[1] > d->active[2] - d->active[0])
        return mp_error_set(err, MP_ERR_FORMAT, "%s: DefaultCrop %g,%g %gx%g outside the "
                            "active area", t->path, d->crop_origin[0], d->crop_origin[1],
                            d->crop_size[0], d->crop_size[1]);
    st = mp_frame_reserve(&d->frame, (uint32_t)w, (uint32_t)h, err);
    if (st != MP_OK)
        return st;
    d->frame.bits = 16;
    d->frame.black = (uint32_t)d->black;
    d->frame.white = (uint32_t)d->white;
    return read_samples(t, tags, &d->frame, err);
}

mp_status fc_dng_read(const char *path, fc_dng *d, mp_error *err)
{
    uint8_t *buf = NULL;
    uint64_t len = 0;
    mp_status st = read_file(path, &buf, &len, err);
    if (st != MP_OK)
        return st;
    tiff t = {buf, len, buf[0] == 'M', path};
    st = parse(&t, d, err);
    free(buf);
    return st;
}

void fc_dng_free(fc_dng *d)
{
    mp_frame_free(&d->frame);
}
