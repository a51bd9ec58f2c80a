#include "cr2_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/lj92.h"

enum { T_BYTE = 1, T_ASCII = 2, T_SHORT = 3, T_LONG = 4, T_RATIONAL = 5, T_UNDEFINED = 7 };

/* One IFD entry: count values of type, in host order (ASCII: with its NUL). */
typedef struct tag {
    uint16_t id, type;
    uint32_t count;
    const void *data;
} tag;

typedef struct blob {
    uint8_t *p;
    size_t len, cap;
    int failed;
} blob;

static void put(blob *b, const void *src, size_t n)
{
    if (b->failed || !n)
        return;
    if (b->len + n > b->cap) {
        size_t cap = (b->len + n) * 2;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            b->failed = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, src, n);
    b->len += n;
}

static void put16(blob *b, uint32_t v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(b, x, 2);
}

static void put32(blob *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, x, 4);
}

static void patch32(blob *b, size_t at, uint32_t v)
{
    if (b->failed)
        return;
    for (int i = 0; i < 4; i++)
        b->p[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

static size_t type_size(uint16_t type)
{
    return type == T_SHORT ? 2 : type == T_LONG ? 4 : type == T_RATIONAL ? 8 : 1;
}

/* Values of one entry in file order (little-endian). */
static void put_values(blob *b, const tag *t)
{
    for (uint32_t i = 0; i < t->count; i++) {
        if (t->type == T_SHORT)
            put16(b, ((const uint16_t *)t->data)[i]);
        else if (t->type == T_LONG)
            put32(b, ((const uint32_t *)t->data)[i]);
        else if (t->type == T_RATIONAL)
            put32(b, ((const uint32_t *)t->data)[2 * i]), put32(b, ((const uint32_t *)t->data)[2 * i + 1]);
        else
            put(b, (const uint8_t *)t->data + i, 1);
    }
}

/* Writes an IFD of n entries (sorted by id) at the end of b, its values that do not fit in
 * four bytes right after it. value_at[i] gets the file offset of entry i's value field (to
 * patch pointers), *next_at that of the next-IFD pointer. Returns the IFD's offset. */
static uint32_t put_ifd(blob *b, const tag *t, size_t n, size_t *value_at, size_t *next_at)
{
    uint32_t start = (uint32_t)b->len;
    uint32_t data = start + 2 + 12 * (uint32_t)n + 4;
    put16(b, (uint32_t)n);
    for (size_t i = 0; i < n; i++) {
        size_t bytes = type_size(t[i].type) * t[i].count;
        put16(b, t[i].id);
        put16(b, t[i].type);
        put32(b, t[i].count);
        if (value_at)
            value_at[i] = b->len;
        if (bytes <= 4) {
            size_t at = b->len;
            put_values(b, &t[i]);
            for (size_t k = b->len - at; k < 4; k++)
                put(b, "", 1);
        } else {
            put32(b, data);
            data += (uint32_t)((bytes + 1) & ~(size_t)1);   /* values start on a word */
        }
    }
    *next_at = b->len;
    put32(b, 0);
    for (size_t i = 0; i < n; i++) {
        size_t bytes = type_size(t[i].type) * t[i].count;
        if (bytes > 4) {
            put_values(b, &t[i]);
            if (bytes & 1)
                put(b, "", 1);
        }
    }
    return start;
}

#define COUNT(a) (uint32_t)(sizeof(a) / sizeof((a)[0]))
#define TEXT(id, s) {id, T_ASCII, (uint32_t)strlen(s) + 1, s}

/* Canon's ColorData, version 7 (1312 words, as the 5D Mark III, 6D, 100D, 650D, 700D and
 * EOS M write it): word 0 the sub-version, 0x3f..0x42 the as-shot RGGB multipliers,
 * 0x1f8..0x1fb the black of each channel, 0x1fc and 0x1fd the normal and specular white. */
#define COLOR_DATA_WORDS 1312
static void fill_color_data(uint16_t *cd, const cr2_meta *m)
{
    memset(cd, 0, COLOR_DATA_WORDS * sizeof *cd);
    cd[0] = 10;
    for (int c = 0; c < 4; c++) {
        cd[0x3f + c] = m->wb_rggb[c];
        cd[0x1f8 + c] = m->black;
    }
    cd[0x1fc] = m->white;
    cd[0x1fd] = m->white;
}

/* The maker note: a plain IFD (no header) whose offsets count from the file's start. */
static uint32_t put_maker_note(blob *b, const cr2_image *img, const cr2_meta *m,
                               const uint16_t *color_data)
{
    char owner[32] = {0};
    strncpy(owner, m->owner, sizeof owner - 1);
    uint32_t serial = m->serial, model_id = m->model_id;
    /* SensorInfo: words 1 and 2 the sensor size, 5..8 the picture's left, top, right and
     * bottom (inclusive), 9..12 the same for the black mask (here: the left border). */
    uint16_t sensor[17] = {34, (uint16_t)img->width, (uint16_t)img->height, 0, 0,
                           (uint16_t)img->left, (uint16_t)img->top,
                           (uint16_t)(img->width - 1), (uint16_t)(img->height - 1),
                           0, (uint16_t)img->top, (uint16_t)(img->left ? img->left - 1 : 0),
                           (uint16_t)(img->height - 1), 0, 0, 0, 0};
    const tag t[] = {
        TEXT(0x0006, m->model),
        {0x0009, T_ASCII, sizeof owner, owner},
        {0x000c, T_LONG, 1, &serial},
        {0x0010, T_LONG, 1, &model_id},
        TEXT(0x0095, m->lens),
        {0x00e0, T_SHORT, COUNT(sensor), sensor},
        {0x4001, T_SHORT, COLOR_DATA_WORDS, color_data},
    };
    size_t next_at;
    return put_ifd(b, t, COUNT(t), NULL, &next_at);
}

static uint32_t put_exif(blob *b, const cr2_meta *m, uint32_t note_at, uint32_t note_size)
{
    uint32_t exposure[2] = {m->shutter_num, m->shutter_den};
    uint32_t fnumber[2] = {m->aperture_x10, 10}, focal[2] = {m->focal_mm, 1};
    uint16_t iso = (uint16_t)m->iso;
    char serial[16];
    snprintf(serial, sizeof serial, "%u", m->serial);
    const tag t[] = {
        {0x829a, T_RATIONAL, 1, exposure},
        {0x829d, T_RATIONAL, 1, fnumber},
        {0x8827, T_SHORT, 1, &iso},
        {0x9000, T_UNDEFINED, 4, "0230"},
        TEXT(0x9003, m->when),
        {0x920a, T_RATIONAL, 1, focal},
        {0x927c, T_UNDEFINED, note_size, NULL},         /* the maker note, already written */
        TEXT(0xa430, m->owner),
        TEXT(0xa431, serial),
        TEXT(0xa434, m->lens),
    };
    size_t value_at[COUNT(t)], next_at;
    tag copy[COUNT(t)];
    memcpy(copy, t, sizeof t);
    copy[6].count = 4;                  /* a placeholder value, patched to the note below */
    copy[6].data = "\0\0\0\0";
    uint32_t at = put_ifd(b, copy, COUNT(copy), value_at, &next_at);
    patch32(b, value_at[6] - 4, note_size);  /* count: the note's bytes */
    patch32(b, value_at[6], note_at);
    return at;
}

/* The samples in the order the slices store them: slice after slice, each row by row. */
static void slice_order(const cr2_image *img, uint16_t *out)
{
    size_t k = 0;
    for (uint32_t s = 0; s < img->slices; s++) {
        uint32_t x0 = s * img->slice_width;
        uint32_t w = s + 1 < img->slices ? img->slice_width : img->width - x0;
        for (uint32_t y = 0; y < img->height; y++)
            for (uint32_t x = 0; x < w; x++)
                out[k++] = img->samples[(size_t)y * img->width + x0 + x];
    }
}

/* One lossless-JPEG stream of two interleaved components (Canon's layout for most bodies):
 * width/2 x height samples of each, holding the slices' samples in order. */
static mp_status encode_strip(const cr2_image *img, uint8_t **jpeg, size_t *len, mp_error *err)
{
    size_t count = (size_t)img->width * img->height;
    uint16_t *ordered = malloc(count * sizeof *ordered);
    if (!ordered)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory for a %ux%u image", img->width,
                            img->height);
    slice_order(img, ordered);
    lj92_header h = {img->width / 2, img->height, 2, img->bits, 1};
    mp_status st = mp_lj92_encode(ordered, &h, jpeg, len, err);
    free(ordered);
    return st;
}

static uint32_t put_raw_ifd(blob *b, const cr2_image *img, size_t *strip_at, size_t *bytes_at)
{
    uint16_t compression = 6;
    uint32_t zero = 0;
    uint32_t last = img->width - (img->slices - 1) * img->slice_width;
    uint16_t slices[3] = {(uint16_t)(img->slices - 1), (uint16_t)img->slice_width,
                          (uint16_t)(img->wrong_slices ? last + 64 : last)};
    const tag t[] = {
        {0x0103, T_SHORT, 1, &compression},
        {0x0111, T_LONG, 1, &zero},     /* StripOffsets, patched */
        {0x0117, T_LONG, 1, &zero},     /* StripByteCounts, patched */
        {0xc640, T_SHORT, 3, slices},
    };
    size_t value_at[COUNT(t)], next_at;
    uint32_t at = put_ifd(b, t, COUNT(t), value_at, &next_at);
    *strip_at = value_at[1];
    *bytes_at = value_at[2];
    return at;
}

mp_status cr2_write(const cr2_image *img, const cr2_meta *m, uint8_t **out, size_t *size,
                    mp_error *err)
{
    if (img->width % 2 || !img->slices || !img->slice_width ||
        (uint64_t)(img->slices - 1) * img->slice_width >= img->width)
        return mp_error_set(err, MP_ERR_ARG, "cr2: %u columns cannot be %u slices of %u",
                            img->width, img->slices, img->slice_width);
    uint8_t *jpeg = NULL;
    size_t jpeg_len = 0;
    mp_status st = encode_strip(img, &jpeg, &jpeg_len, err);
    if (st != MP_OK)
        return st;
    uint16_t *color_data = malloc(COLOR_DATA_WORDS * sizeof *color_data);
    if (!color_data) {
        free(jpeg);
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    }
    fill_color_data(color_data, m);

    blob b = {0};
    static const uint8_t header[12] = {'I', 'I', 42, 0, 16, 0, 0, 0, 'C', 'R', 2, 0};
    put(&b, header, sizeof header);
    put32(&b, 0);                                   /* the raw IFD's offset, patched */
    uint16_t orientation = m->orientation;
    uint32_t zero = 0;
    const tag ifd0[] = {
        TEXT(0x010f, "Canon"),
        TEXT(0x0110, m->model),
        {0x0112, T_SHORT, 1, &orientation},
        TEXT(0x0132, m->when),
        TEXT(0x013b, m->owner),
        {0x8769, T_LONG, 1, &zero},                 /* the Exif IFD, patched */
    };
    size_t ifd0_values[COUNT(ifd0)], ifd0_next;
    put_ifd(&b, ifd0, COUNT(ifd0), ifd0_values, &ifd0_next);
    uint32_t note_at = put_maker_note(&b, img, m, color_data);
    uint32_t note_size = (uint32_t)b.len - note_at;
    patch32(&b, ifd0_values[5], put_exif(&b, m, note_at, note_size));
    size_t strip_at, bytes_at;
    uint32_t raw_ifd = put_raw_ifd(&b, img, &strip_at, &bytes_at);
    patch32(&b, 12, raw_ifd);
    patch32(&b, ifd0_next, raw_ifd);                /* IFD0's next: the raw IFD */
    patch32(&b, strip_at, (uint32_t)b.len);
    patch32(&b, bytes_at, (uint32_t)jpeg_len);
    put(&b, jpeg, jpeg_len);
    free(jpeg);
    free(color_data);
    if (b.failed) {
        free(b.p);
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory for the CR2");
    }
    *out = b.p;
    *size = b.len;
    return MP_OK;
}
