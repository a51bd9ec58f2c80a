#include "reader/dng_frame.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/mp_read.h"

/* The largest file worth reading: a 16-bit frame of the largest size, plus its tags. */
#define DNG_MAX_BYTES ((uint64_t)MP_FRAME_MAX_PIXELS * 2 + (1u << 20))

enum {
    TAG_NEW_SUBFILE_TYPE = 254, TAG_WIDTH = 256, TAG_LENGTH = 257, TAG_BITS = 258,
    TAG_COMPRESSION = 259, TAG_PHOTOMETRIC = 262, TAG_STRIP_OFFSETS = 273,
    TAG_SAMPLES = 277, TAG_STRIP_BYTES = 279, TAG_TILE_WIDTH = 322, TAG_SUB_IFDS = 330,
    TAG_CFA_PATTERN = 33422, TAG_EXIF_IFD = 34665, TAG_ISO = 34855, TAG_BLACK = 50714,
    TAG_WHITE = 50717
};
enum { TYPE_BYTE = 1, TYPE_SHORT = 3, TYPE_LONG = 4, TYPE_RATIONAL = 5 };
#define PHOTOMETRIC_CFA 32803

typedef struct tiff {
    const char *path;
    const uint8_t *b;
    uint64_t size;
    int big;                    /* "MM" */
} tiff;

static uint32_t get16(const tiff *t, uint64_t at)
{
    const uint8_t *p = t->b + at;
    return t->big ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
}

static uint32_t get32(const tiff *t, uint64_t at)
{
    return t->big ? get16(t, at) << 16 | get16(t, at + 2) : get16(t, at + 2) << 16 | get16(t, at);
}

/* Where entry `tag` of the IFD at `ifd` is (0: absent); the IFD was checked to fit. */
static uint64_t find(const tiff *t, uint64_t ifd, uint32_t tag)
{
    uint32_t n = get16(t, ifd);
    for (uint32_t i = 0; i < n; i++)
        if (get16(t, ifd + 2 + 12 * (uint64_t)i) == tag)
            return ifd + 2 + 12 * (uint64_t)i;
    return 0;
}

/* Value `index` of a SHORT, LONG or BYTE entry; def when absent, out of range or of another
 * type (then *ok is cleared when ok is given). */
static uint32_t value(const tiff *t, uint64_t ifd, uint32_t tag, uint32_t index, uint32_t def,
                      int *ok)
{
    uint64_t e = find(t, ifd, tag);
    if (!e)
        return def;
    uint32_t type = get16(t, e + 2), count = get32(t, e + 4);
    uint32_t size = type == TYPE_SHORT ? 2 : type == TYPE_LONG ? 4 : type == TYPE_BYTE ? 1 : 0;
    if (!size || index >= count) {
        if (ok)
            *ok = 0;
        return def;
    }
    uint64_t at = (uint64_t)count * size <= 4 ? e + 8 : get32(t, e + 8);
    at += (uint64_t)index * size;
    if (at + size > t->size) {
        if (ok)
            *ok = 0;
        return def;
    }
    return size == 2 ? get16(t, at) : size == 4 ? get32(t, at) : t->b[at];
}

static int ifd_fits(const tiff *t, uint64_t ifd)
{
    return ifd >= 8 && ifd + 2 <= t->size && ifd + 2 + 12 * (uint64_t)get16(t, ifd) <= t->size;
}

int mp_dng_is_tiff(const uint8_t h[4])
{
    return (h[0] == 'I' && h[1] == 'I' && h[2] == 42 && h[3] == 0) ||
           (h[0] == 'M' && h[1] == 'M' && h[2] == 0 && h[3] == 42);
}

static mp_status read_file(const char *path, uint8_t **out, uint64_t *size, mp_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        mp_status st = mp_error_set(err, MP_ERR_IO, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return st;
    }
    mp_status st = MP_OK;
    if (!S_ISREG(sb.st_mode) || (uint64_t)sb.st_size > DNG_MAX_BYTES || sb.st_size < 8)
        st = mp_error_set(err, MP_ERR_FORMAT, "%s: not a DNG of a size we read (%lld bytes)",
                          path, (long long)sb.st_size);
    else if (!(*out = malloc((size_t)sb.st_size)))
        st = mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
    else if (mp_pread_full(fd, *out, (size_t)sb.st_size, 0) != (ssize_t)sb.st_size)
        st = mp_error_set(err, MP_ERR_IO, "%s: read failed", path);
    close(fd);
    *size = (uint64_t)sb.st_size;
    return st;
}

/* The raw image's IFD: IFD0, or its first SubIFD when IFD0 is a preview. */
static mp_status raw_ifd(const tiff *t, uint64_t *out, mp_error *err)
{
    uint64_t ifd = get32(t, 4);
    if (!ifd_fits(t, ifd))
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: IFD0 at offset %llu lies outside the "
                            "file", t->path, (unsigned long long)ifd);
    if (value(t, ifd, TAG_PHOTOMETRIC, 0, 0, NULL) != PHOTOMETRIC_CFA &&
        find(t, ifd, TAG_SUB_IFDS)) {
        uint64_t sub = value(t, ifd, TAG_SUB_IFDS, 0, 0, NULL);
        if (!ifd_fits(t, sub))
            return mp_error_set(err, MP_ERR_DAMAGED, "%s: SubIFD at offset %llu lies outside "
                                "the file", t->path, (unsigned long long)sub);
        ifd = sub;
    }
    *out = ifd;
    return MP_OK;
}

/* Bit `bits`-wide samples, MSB first, from p: count of them. */
static void unpack_msb(const uint8_t *p, uint16_t *dst, size_t count, unsigned bits)
{
    uint64_t acc = 0;
    unsigned have = 0;
    for (size_t i = 0; i < count; i++) {
        while (have < bits) {
            acc = acc << 8 | *p++;
            have += 8;
        }
        have -= bits;
        dst[i] = (uint16_t)((acc >> have) & ((1u << bits) - 1));
    }
}

static mp_status samples(const tiff *t, uint64_t ifd, mp_frame *out, mp_error *err)
{
    const uint32_t w = out->width, h = out->height, bits = out->bits;
    uint64_t off = value(t, ifd, TAG_STRIP_OFFSETS, 0, 0, NULL);
    uint64_t len = value(t, ifd, TAG_STRIP_BYTES, 0, 0, NULL);
    uint64_t row_bytes = ((uint64_t)w * bits + 7) / 8;
    uint64_t aligned = row_bytes * h, stream = ((uint64_t)w * h * bits + 7) / 8;
    if (off + len > t->size || len < stream)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: the strip (%llu bytes at offset %llu) "
                            "does not hold %ux%u %u-bit samples inside the file", t->path,
                            (unsigned long long)len, (unsigned long long)off, w, h, bits);
    const uint8_t *p = t->b + off;
    if (bits == 16) {
        for (size_t i = 0; i < (size_t)w * h; i++)
            out->data[i] = (uint16_t)get16(t, off + 2 * i);
    } else if (len >= aligned && aligned != stream) {
        for (uint32_t y = 0; y < h; y++)
            unpack_msb(p + y * row_bytes, out->data + (size_t)y * w, w, bits);
    } else {
        unpack_msb(p, out->data, (size_t)w * h, bits);
    }
    return MP_OK;
}

mp_status mp_dng_read_frame(const char *path, mp_frame *out, uint32_t *iso, mp_error *err)
{
    uint8_t *bytes = NULL;
    uint64_t size = 0;
    mp_status st = read_file(path, &bytes, &size, err);
    tiff t = {path, bytes, size, bytes && bytes[0] == 'M'};
    uint64_t ifd = 0;
    if (st == MP_OK && !mp_dng_is_tiff(bytes))
        st = mp_error_set(err, MP_ERR_FORMAT, "%s: not a TIFF/DNG file", path);
    if (st == MP_OK)
        st = raw_ifd(&t, &ifd, err);
    if (st != MP_OK) {
        free(bytes);
        return st;
    }
    int ok = 1;
    uint32_t w = value(&t, ifd, TAG_WIDTH, 0, 0, &ok), h = value(&t, ifd, TAG_LENGTH, 0, 0, &ok);
    uint32_t bits = value(&t, ifd, TAG_BITS, 0, 0, &ok);
    uint32_t compression = value(&t, ifd, TAG_COMPRESSION, 0, 1, &ok);
    uint32_t photometric = value(&t, ifd, TAG_PHOTOMETRIC, 0, 0, &ok);
    uint32_t spp = value(&t, ifd, TAG_SAMPLES, 0, 1, &ok);
    uint64_t strip_entry = find(&t, ifd, TAG_STRIP_OFFSETS);
    uint64_t strips = strip_entry ? get32(&t, strip_entry + 4) : 0;
    if (!ok)
        st = mp_error_set(err, MP_ERR_DAMAGED, "%s: a size, depth or layout tag of an "
                          "unexpected type", path);
    else if (photometric != PHOTOMETRIC_CFA || spp != 1)
        st = mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: not a raw CFA image (photometric %u, "
                          "%u samples per pixel)", path, photometric, spp);
    else if (compression != 1)
        st = mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: compressed DNG (compression %u); a dark "
                          "frame must be uncompressed (convert --dng-compression none)", path,
                          compression);
    else if (find(&t, ifd, TAG_TILE_WIDTH) || strips != 1)
        st = mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: raw image in %s; a dark frame must be "
                          "one strip", path, strips ? "several strips" : "tiles");
    else if (bits < 10 || bits > 16)
        st = mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: %u bits per sample (10 to 16 taken)",
                          path, bits);
    if (st == MP_OK)
        st = mp_frame_reserve(out, w, h, err);
    if (st == MP_OK) {
        out->bits = bits;
        out->black = value(&t, ifd, TAG_BLACK, 0, 0, NULL);
        out->white = value(&t, ifd, TAG_WHITE, 0, (1u << bits) - 1, NULL);
        uint32_t cfa = 0;
        for (uint32_t i = 0; i < 4; i++)
            cfa |= (value(&t, ifd, TAG_CFA_PATTERN, i, 0, NULL) & 0xff) << (8 * i);
        out->cfa = mp_cfa_is_bayer(cfa) ? cfa : MP_CFA_RGGB;
        out->number = 0;
        out->timestamp_us = 0;
        st = samples(&t, ifd, out, err);
    }
    uint64_t exif = st == MP_OK ? value(&t, get32(&t, 4), TAG_EXIF_IFD, 0, 0, NULL) : 0;
    *iso = exif && ifd_fits(&t, exif) ? value(&t, exif, TAG_ISO, 0, 0, NULL) : 0;
    free(bytes);
    return st;
}
