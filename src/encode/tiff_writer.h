/* encode/tiff_writer: builds little-endian ("II") TIFF image file directories in memory.
 * Entries may be added in any order; they are written sorted by tag (readers such as ffmpeg
 * reject unsorted IFDs). Values longer than 4 bytes go right after the IFD, each at an even
 * offset. No allocation: an IFD holds up to TIFF_MAX_ENTRIES entries and TIFF_POOL_SIZE bytes
 * of values; overflowing either (or adding a tag twice) is reported by mp_tiff_ifd_size(). */
#ifndef MP_TIFF_WRITER_H
#define MP_TIFF_WRITER_H

#include <stddef.h>
#include <stdint.h>

enum tiff_type {
    TIFF_BYTE = 1, TIFF_ASCII = 2, TIFF_SHORT = 3, TIFF_LONG = 4, TIFF_RATIONAL = 5,
    TIFF_UNDEFINED = 7, TIFF_SRATIONAL = 10
};

#define TIFF_MAX_ENTRIES 64
#define TIFF_POOL_SIZE 2048

typedef struct tiff_entry {
    uint16_t tag, type;
    uint32_t count;
    uint32_t pool_offset;   /* where the value bytes (little-endian) start in the pool */
} tiff_entry;

typedef struct tiff_ifd {
    tiff_entry entries[TIFF_MAX_ENTRIES];
    unsigned count;
    uint8_t pool[TIFF_POOL_SIZE];
    size_t pool_used;
    int bad;                /* an entry did not fit or repeated a tag */
} tiff_ifd;

void mp_tiff_ifd_init(tiff_ifd *ifd);

void mp_tiff_add_bytes(tiff_ifd *ifd, uint16_t tag, uint16_t type, const uint8_t *v,
                    uint32_t count);                      /* BYTE or UNDEFINED */
void mp_tiff_add_ascii(tiff_ifd *ifd, uint16_t tag, const char *s);   /* NUL included */
void mp_tiff_add_shorts(tiff_ifd *ifd, uint16_t tag, const uint16_t *v, uint32_t count);
void mp_tiff_add_longs(tiff_ifd *ifd, uint16_t tag, const uint32_t *v, uint32_t count);
void mp_tiff_add_long(tiff_ifd *ifd, uint16_t tag, uint32_t v);
void mp_tiff_add_short(tiff_ifd *ifd, uint16_t tag, uint16_t v);
/* count rationals from 2*count values (num, den, num, den, ...). */
void mp_tiff_add_rationals(tiff_ifd *ifd, uint16_t tag, const uint32_t *v, uint32_t count);
void mp_tiff_add_srationals(tiff_ifd *ifd, uint16_t tag, const int32_t *v, uint32_t count);

/* Replaces the value of a LONG x 1 entry added earlier (offsets known only after layout).
 * Returns 0, or -1 if there is no such entry. */
int mp_tiff_set_long(tiff_ifd *ifd, uint16_t tag, uint32_t v);

/* Bytes mp_tiff_ifd_write() produces (entries + next-IFD offset + values), or 0 if bad. */
size_t mp_tiff_ifd_size(const tiff_ifd *ifd);

/* Writes the IFD into out, which sits at file offset `offset` (even). Returns the bytes
 * written (= mp_tiff_ifd_size), 0 if bad. */
size_t mp_tiff_ifd_write(tiff_ifd *ifd, uint8_t *out, uint32_t offset, uint32_t next_ifd);

/* Writes the 8-byte "II*\0" header pointing at the first IFD. */
void mp_tiff_write_header(uint8_t out[8], uint32_t first_ifd);

#endif
