/* The one fact of a CR2 that LibRaw does not check: its slice tag (doc/stills.md 2). */
#include <stdio.h>
#include <string.h>

#include "common/mp_bytes.h"
#include "still_internal.h"

#define CR2_TAG_SLICES 0xC640u
#define TIFF_SHORT 3u

int mp_still_cr2_slices_problem(const uint8_t *bytes, size_t size, uint32_t raw_width,
                                uint64_t *offset, char *why, size_t why_size)
{
    /* "II*\0", IFD0's offset, "CR", version 2.0, the raw IFD's offset */
    if (size < 16 || memcmp(bytes, "II*\0", 4) || memcmp(bytes + 8, "CR\x02", 3))
        return 0;
    uint64_t ifd = mp_le32(bytes + 12);
    if (ifd + 2 > size)
        return 0;   /* no raw IFD where the header says: LibRaw has judged the file */
    uint32_t count = mp_le16(bytes + ifd);
    for (uint32_t i = 0; i < count && ifd + 2 + 12ull * (i + 1) <= size; i++) {
        const uint8_t *e = bytes + ifd + 2 + 12 * i;
        if (mp_le16(e) != CR2_TAG_SLICES)
            continue;
        uint64_t at = mp_le32(e + 8);
        if (mp_le16(e + 2) != TIFF_SHORT || mp_le32(e + 4) != 3 || at + 6 > size) {
            *offset = ifd + 2 + 12ull * i;
            snprintf(why, why_size, "the slice tag 0xC640 is not three numbers");
            return 1;
        }
        uint64_t n = mp_le16(bytes + at), w = mp_le16(bytes + at + 2);
        uint64_t last = mp_le16(bytes + at + 4);
        if (n * w + last == raw_width && (n == 0 || w > 0))
            return 0;
        *offset = at;
        snprintf(why, why_size, "the slice tag 0xC640 (%llu slices of %llu columns and one of "
                 "%llu) does not add up to the image's %u columns", (unsigned long long)n,
                 (unsigned long long)w, (unsigned long long)last, raw_width);
        return 1;
    }
    return 0;
}
