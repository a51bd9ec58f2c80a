#include "tiff_parse.h"

static uint32_t rd16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t rd32(const uint8_t *p)
{
    return rd16(p) | rd16(p + 2) << 16;
}

static uint32_t size_of(uint16_t type)
{
    switch (type) {
    case 1: case 2: case 6: case 7: return 1;
    case 3: case 8: return 2;
    case 4: case 9: case 11: return 4;
    case 5: case 10: case 12: return 8;
    default: return 0;
    }
}

const char *tp_parse_ifd(const uint8_t *buf, size_t len, uint32_t offset, tp_ifd *out)
{
    if (offset & 1)
        return "IFD at an odd offset";
    if ((uint64_t)offset + 2 > len)
        return "IFD offset past the end";
    unsigned n = rd16(buf + offset);
    if (n == 0 || n > TP_MAX)
        return "IFD entry count 0 or too large";
    if ((uint64_t)offset + 2 + 12ull * n + 4 > len)
        return "IFD entries past the end";
    out->n = n;
    out->offset = offset;
    for (unsigned i = 0; i < n; i++) {
        const uint8_t *p = buf + offset + 2 + 12 * i;
        tp_entry *e = &out->e[i];
        e->tag = (uint16_t)rd16(p);
        e->type = (uint16_t)rd16(p + 2);
        e->count = rd32(p + 4);
        uint32_t sz = size_of(e->type);
        if (!sz)
            return "unknown entry type";
        if (i && e->tag <= out->e[i - 1].tag)
            return "tags not in ascending order";
        uint64_t bytes = (uint64_t)sz * e->count;
        if (bytes <= 4) {
            e->value_offset = offset + 2 + 12 * i + 8;
        } else {
            e->value_offset = rd32(p + 8);
            if (e->value_offset & 1)
                return "value at an odd offset";
            if (e->value_offset + bytes > len)
                return "value past the end";
        }
        e->value = buf + e->value_offset;
    }
    out->next = rd32(buf + offset + 2 + 12 * n);
    return NULL;
}

const char *tp_parse(const uint8_t *buf, size_t len, tp_ifd *ifd0)
{
    if (len < 8 || buf[0] != 'I' || buf[1] != 'I' || rd16(buf + 2) != 42)
        return "not a little-endian TIFF";
    return tp_parse_ifd(buf, len, rd32(buf + 4), ifd0);
}

const tp_entry *tp_find(const tp_ifd *ifd, uint16_t tag)
{
    for (unsigned i = 0; i < ifd->n; i++)
        if (ifd->e[i].tag == tag)
            return &ifd->e[i];
    return NULL;
}

uint32_t tp_u32(const tp_entry *e, uint32_t i)
{
    switch (size_of(e->type)) {
    case 1: return e->value[i];
    case 2: return rd16(e->value + 2 * i);
    default: return rd32(e->value + 4 * i);
    }
}

int32_t tp_i32(const tp_entry *e, uint32_t i)
{
    return (int32_t)tp_u32(e, i);
}
