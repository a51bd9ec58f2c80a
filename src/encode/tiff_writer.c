#include "tiff_writer.h"

#include <stdlib.h>
#include <string.h>

#include "common/mp_bytes.h"

static uint32_t type_size(uint16_t type)
{
    switch (type) {
    case TIFF_SHORT: return 2;
    case TIFF_LONG: return 4;
    case TIFF_RATIONAL:
    case TIFF_SRATIONAL: return 8;
    default: return 1;
    }
}

/* Reserves room for a new entry's value and returns where to put it, or NULL. */
static uint8_t *add_entry(tiff_ifd *ifd, uint16_t tag, uint16_t type, uint32_t count)
{
    size_t bytes = (size_t)type_size(type) * count;
    size_t start = (ifd->pool_used + 1) & ~(size_t)1;
    if (ifd->bad || count == 0 || ifd->count == TIFF_MAX_ENTRIES ||
        bytes > TIFF_POOL_SIZE - start) {
        ifd->bad = 1;
        return NULL;
    }
    for (unsigned i = 0; i < ifd->count; i++)
        if (ifd->entries[i].tag == tag) {
            ifd->bad = 1;
            return NULL;
        }
    ifd->entries[ifd->count++] = (tiff_entry){tag, type, count, (uint32_t)start};
    ifd->pool_used = start + bytes;
    return ifd->pool + start;
}

void mp_tiff_ifd_init(tiff_ifd *ifd)
{
    ifd->count = 0;
    ifd->pool_used = 0;
    ifd->bad = 0;
}

void mp_tiff_add_bytes(tiff_ifd *ifd, uint16_t tag, uint16_t type, const uint8_t *v,
                    uint32_t count)
{
    uint8_t *p = add_entry(ifd, tag, type, count);
    if (p)
        memcpy(p, v, count);
}

void mp_tiff_add_ascii(tiff_ifd *ifd, uint16_t tag, const char *s)
{
    mp_tiff_add_bytes(ifd, tag, TIFF_ASCII, (const uint8_t *)s, (uint32_t)strlen(s) + 1);
}

void mp_tiff_add_shorts(tiff_ifd *ifd, uint16_t tag, const uint16_t *v, uint32_t count)
{
    uint8_t *p = add_entry(ifd, tag, TIFF_SHORT, count);
    for (uint32_t i = 0; p && i < count; i++)
        mp_put_le16(p + 2 * i, v[i]);
}

void mp_tiff_add_longs(tiff_ifd *ifd, uint16_t tag, const uint32_t *v, uint32_t count)
{
    uint8_t *p = add_entry(ifd, tag, TIFF_LONG, count);
    for (uint32_t i = 0; p && i < count; i++)
        mp_put_le32(p + 4 * i, v[i]);
}

void mp_tiff_add_long(tiff_ifd *ifd, uint16_t tag, uint32_t v)
{
    mp_tiff_add_longs(ifd, tag, &v, 1);
}

void mp_tiff_add_short(tiff_ifd *ifd, uint16_t tag, uint16_t v)
{
    mp_tiff_add_shorts(ifd, tag, &v, 1);
}

void mp_tiff_add_rationals(tiff_ifd *ifd, uint16_t tag, const uint32_t *v, uint32_t count)
{
    uint8_t *p = add_entry(ifd, tag, TIFF_RATIONAL, count);
    for (uint32_t i = 0; p && i < 2 * count; i++)
        mp_put_le32(p + 4 * i, v[i]);
}

void mp_tiff_add_srationals(tiff_ifd *ifd, uint16_t tag, const int32_t *v, uint32_t count)
{
    uint8_t *p = add_entry(ifd, tag, TIFF_SRATIONAL, count);
    for (uint32_t i = 0; p && i < 2 * count; i++)
        mp_put_le32(p + 4 * i, (uint32_t)v[i]);
}

int mp_tiff_set_long(tiff_ifd *ifd, uint16_t tag, uint32_t v)
{
    for (unsigned i = 0; i < ifd->count; i++) {
        tiff_entry *e = &ifd->entries[i];
        if (e->tag == tag && e->type == TIFF_LONG && e->count == 1) {
            mp_put_le32(ifd->pool + e->pool_offset, v);
            return 0;
        }
    }
    return -1;
}

static uint32_t value_bytes(const tiff_entry *e)
{
    return type_size(e->type) * e->count;
}

size_t mp_tiff_ifd_size(const tiff_ifd *ifd)
{
    if (ifd->bad)
        return 0;
    size_t size = 2 + 12 * (size_t)ifd->count + 4;
    for (unsigned i = 0; i < ifd->count; i++) {
        uint32_t b = value_bytes(&ifd->entries[i]);
        if (b > 4)
            size += (b + 1) & ~1u;
    }
    return size;
}

static int by_tag(const void *a, const void *b)
{
    const tiff_entry *x = a, *y = b;
    return (x->tag > y->tag) - (x->tag < y->tag);
}

size_t mp_tiff_ifd_write(tiff_ifd *ifd, uint8_t *out, uint32_t offset, uint32_t next_ifd)
{
    size_t size = mp_tiff_ifd_size(ifd);
    if (!size)
        return 0;
    qsort(ifd->entries, ifd->count, sizeof ifd->entries[0], by_tag);
    mp_put_le16(out, (uint16_t)ifd->count);
    uint8_t *entry = out + 2;
    uint32_t value_at = offset + 2 + 12 * ifd->count + 4;
    for (unsigned i = 0; i < ifd->count; i++, entry += 12) {
        const tiff_entry *e = &ifd->entries[i];
        uint32_t b = value_bytes(e);
        mp_put_le16(entry, e->tag);
        mp_put_le16(entry + 2, e->type);
        mp_put_le32(entry + 4, e->count);
        if (b <= 4) {
            memset(entry + 8, 0, 4);
            memcpy(entry + 8, ifd->pool + e->pool_offset, b);
        } else {
            uint8_t *dst = out + (value_at - offset);
            memcpy(dst, ifd->pool + e->pool_offset, b);
            if (b & 1)
                dst[b] = 0;
            mp_put_le32(entry + 8, value_at);
            value_at += (b + 1) & ~1u;
        }
    }
    mp_put_le32(entry, next_ifd);
    return size;
}

void mp_tiff_write_header(uint8_t out[8], uint32_t first_ifd)
{
    out[0] = out[1] = 'I';
    mp_put_le16(out + 2, 42);
    mp_put_le32(out + 4, first_ifd);
}
