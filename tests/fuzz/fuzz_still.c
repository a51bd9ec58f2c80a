/* libFuzzer target: the still source on arbitrary bytes, opened from memory as a CR2 (the
 * source takes any TIFF whatever its name): LibRaw's identification and decoding as we call
 * them, our slice-tag check, and the frame read back within its depth. */
#include "fuzz_reader_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mlv_mem_file file = {"in.CR2", data, size};
    mlv_clip *clip;
    mp_error err;
    if (mp_mlv_clip_open_memory(&clip, "in.CR2", &file, 1, NULL, &err) == MP_OK) {
        fuzz_read_clip(clip);
        mp_mlv_clip_close(clip);
    }
    return 0;
}
