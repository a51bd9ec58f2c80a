/* libFuzzer target: the whole reader on arbitrary bytes, opened from memory (no file is
 * written: thousands of inputs a second). Named .MLV, or .RAW when the bytes do not start
 * with "MLVI" so the legacy footer path runs too. */
#include "fuzz_reader_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int is_mlv = size >= 4 && !memcmp(data, "MLVI", 4);
    const char *name = is_mlv ? "in.MLV" : "in.RAW";
    mlv_mem_file file = {name, data, size};
    mlv_clip *clip;
    mp_error err;
    if (mp_mlv_clip_open_memory(&clip, name, &file, 1, NULL, &err) == MP_OK) {
        fuzz_read_clip(clip);
        mp_mlv_clip_close(clip);
    }
    return 0;
}
