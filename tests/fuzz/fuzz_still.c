/* libFuzzer target: the still source on arbitrary bytes, opened from memory as a CR2 (the
 * source takes any TIFF whatever its name): LibRaw's identification and decoding as we call
 * them (in a child process each, doc/stills.md 7), our slice-tag check, and the frame read
 * back within its depth. */
#include <stdlib.h>

#include "fuzz_reader_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* LibRaw looping on an input is the input's damage (it is stopped), not a finding: stop it
 * well before libFuzzer's timeout (tests/fuzz/run.sh: 10 s). Inputs are at most 64 KiB. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("MLVPIPE_LIBRAW_CPU_SECONDS", "2", 0);
    return 0;
}

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
