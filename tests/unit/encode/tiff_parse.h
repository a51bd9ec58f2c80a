/* A deliberately small, independent TIFF reader for the tests: it checks the structure
 * (little-endian header, ascending tags, known types, values inside the file) and gives
 * access to entries. It shares no code with src/encode/tiff_writer.c. */
#ifndef TEST_TIFF_PARSE_H
#define TEST_TIFF_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define TP_MAX 128

typedef struct tp_entry {
    uint16_t tag, type;
    uint32_t count;
    const uint8_t *value;   /* inside the file buffer */
    uint32_t value_offset;  /* file offset of the value (the entry's own field if inline) */
} tp_entry;

typedef struct tp_ifd {
    tp_entry e[TP_MAX];
    unsigned n;
    uint32_t offset, next;
} tp_ifd;

/* Parses the IFD at offset. Returns NULL on success or a message naming the problem. */
const char *tp_parse_ifd(const uint8_t *buf, size_t len, uint32_t offset, tp_ifd *out);
/* Header + IFD0. */
const char *tp_parse(const uint8_t *buf, size_t len, tp_ifd *ifd0);

const tp_entry *tp_find(const tp_ifd *ifd, uint16_t tag);
/* Value i of an entry of type BYTE/SHORT/LONG (zero-extended), or of the numerator (i*2) /
 * denominator (i*2+1) of a (S)RATIONAL. */
uint32_t tp_u32(const tp_entry *e, uint32_t i);
int32_t tp_i32(const tp_entry *e, uint32_t i);

#endif
