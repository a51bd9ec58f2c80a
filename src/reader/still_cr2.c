/* The one fact of a CR2 that LibRaw does not check: its slice tag (doc/stills.md 2). LibRaw
 * takes the tag from whichever IFD holds it and divides by its widths while it decodes, so
 * every IFD it parses is looked at, before it decodes. */
#include <stdio.h>
#include <string.h>

#include "common/mp_bytes.h"
#include "still_internal.h"

#define CR2_TAG_SLICES 0xC640u
#define TIFF_TAG_SUB_IFDS 0x014Au
#define TIFF_SHORT 3u
#define TIFF_LONG 4u
#define MAX_IFDS 32u     /* a CR2 has 4 IFDs; a chain longer than this is not a CR2 */

typedef struct slice_check {
    const uint8_t *bytes;
    size_t size;
    uint32_t raw_width;
    uint64_t ifds[MAX_IFDS];
    uint32_t ifd_count;
} slice_check;

static void add_ifd(slice_check *k, uint64_t at)
{
    if (at < 8 || at + 2 > k->size || k->ifd_count == MAX_IFDS)
        return;
    for (uint32_t i = 0; i < k->ifd_count; i++)
        if (k->ifds[i] == at)
            return;   /* a loop of IFDs */
    k->ifds[k->ifd_count++] = at;
}

/* 1 (with the offset and why) when the slice tag at entry e does not describe raw_width
 * columns in slices LibRaw can divide by. */
static int bad_slices(const slice_check *k, uint64_t entry, uint64_t *offset, char *why,
                      size_t why_size)
{
    const uint8_t *e = k->bytes + entry;
    uint64_t at = mp_le32(e + 8);
    if (mp_le16(e + 2) != TIFF_SHORT || mp_le32(e + 4) != 3 || at + 6 > k->size) {
        *offset = entry;
        snprintf(why, why_size, "the slice tag 0xC640 is not three numbers");
        return 1;
    }
    uint64_t n = mp_le16(k->bytes + at), w = mp_le16(k->bytes + at + 2);
    uint64_t last = mp_le16(k->bytes + at + 4);
    if (n * w + last == k->raw_width && (n == 0 || (w > 0 && last > 0)))
        return 0;
    *offset = at;
    snprintf(why, why_size, "the slice tag 0xC640 (%llu slices of %llu columns and one of "
             "%llu) does not add up to the image's %u columns", (unsigned long long)n,
             (unsigned long long)w, (unsigned long long)last, k->raw_width);
    return 1;
}

/* Checks the slice tags of the IFD at k->ifds[i]; queues its next IFD and its sub-IFDs. */
static int ifd_problem(slice_check *k, uint32_t i, uint64_t *offset, char *why, size_t why_size)
{
    uint64_t ifd = k->ifds[i];
    uint32_t count = mp_le16(k->bytes + ifd);
    uint64_t end = ifd + 2 + 12ull * count;
    for (uint64_t entry = ifd + 2; entry + 12 <= k->size && entry < end; entry += 12) {
        uint32_t tag = mp_le16(k->bytes + entry);
        if (tag == CR2_TAG_SLICES && bad_slices(k, entry, offset, why, why_size))
            return 1;
        if (tag != TIFF_TAG_SUB_IFDS || mp_le16(k->bytes + entry + 2) != TIFF_LONG)
            continue;
        uint32_t subs = mp_le32(k->bytes + entry + 4);
        uint64_t list = subs == 1 ? entry + 8 : mp_le32(k->bytes + entry + 8);
        for (uint32_t s = 0; s < subs && s < MAX_IFDS && list + 4ull * (s + 1) <= k->size; s++)
            add_ifd(k, mp_le32(k->bytes + list + 4ull * s));
    }
    if (end + 4 <= k->size)
        add_ifd(k, mp_le32(k->bytes + end));
    return 0;
}

int mp_still_cr2_slices_problem(const uint8_t *bytes, size_t size, uint32_t raw_width,
                                uint64_t *offset, char *why, size_t why_size)
{
    /* "II*\0", IFD0's offset, "CR", version 2.0, the raw IFD's offset */
    if (size < 16 || memcmp(bytes, "II*\0", 4) || memcmp(bytes + 8, "CR\x02", 3))
        return 0;
    slice_check k = {.bytes = bytes, .size = size, .raw_width = raw_width};
    add_ifd(&k, mp_le32(bytes + 4));
    add_ifd(&k, mp_le32(bytes + 12));
    for (uint32_t i = 0; i < k.ifd_count; i++)
        if (ifd_problem(&k, i, offset, why, why_size))
            return 1;
    return 0;
}
