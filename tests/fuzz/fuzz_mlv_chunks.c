/* libFuzzer target: chunk discovery of spanned clips. The input is cut into up to four
 * in-memory files (sizes from its first bytes) named NAME.MLV, .M00, .M01, .M02 (or .RAW,
 * .R00 ...), some left out by a bit mask, and the clip is opened by one of those names:
 * missing first and middle chunks, GUID mismatches, chunks that are not MLV, frames that
 * straddle legacy chunks. */
#include "fuzz_reader_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8)
        return 0;
    static const char *const mlv[] = {"c.MLV", "c.M00", "c.M01", "c.m02"};
    static const char *const raw[] = {"c.RAW", "c.R00", "c.r01", "c.R02"};
    const char *const *names = data[0] & 1 ? raw : mlv;
    unsigned present = data[1] & 15, open_as = (data[0] >> 1) & 3;
    const uint8_t *p = data + 8;
    size_t left = size - 8;
    mlv_mem_file files[4];
    uint32_t n = 0;
    for (int i = 0; i < 4; i++) {
        size_t len = i == 3 ? left : (size_t)(data[2 + 2 * i] | data[3 + 2 * i] << 8);
        if (len > left)
            len = left;
        if (present & (1u << i))
            files[n++] = (mlv_mem_file){names[i], p, len};
        p += len;
        left -= len;
    }
    mlv_clip *clip;
    mp_error err;
    if (mp_mlv_clip_open_memory(&clip, names[open_as], files, n, NULL, &err) == MP_OK) {
        fuzz_read_clip(clip);
        mp_mlv_clip_close(clip);
    }
    return 0;
}
