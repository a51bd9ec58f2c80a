/* libFuzzer target: LJ92 decoding of arbitrary bytes into a buffer sized from the header
 * (within a bound), and, when a stream decodes, the encoder round trip of its samples. */
#include <stdlib.h>
#include <string.h>

#include "codec/lj92.h"

#define MAX_SAMPLES (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lj92_header h;
    lj92_options opt;
    if (mp_lj92_read_header_opts(data, size, &h, &opt, NULL) != MP_OK)
        return 0;
    size_t n = (size_t)h.width * h.height * h.components;
    if (n > MAX_SAMPLES)
        return 0;
    uint16_t *dst = malloc(n * sizeof *dst);
    mp_error err;
    if (dst && mp_lj92_decode(data, size, dst, n, &h, &err) == MP_OK) {
        uint8_t *enc;
        size_t len;
        /* Samples above the precision (legal modulo 2^16) cannot be re-encoded. */
        if (mp_lj92_encode_opts(dst, &h, &opt, &enc, &len, &err) == MP_OK) {
            uint16_t *again = malloc(n * sizeof *again);
            if (!again || mp_lj92_decode(enc, len, again, n, NULL, &err) != MP_OK ||
                memcmp(again, dst, n * sizeof *dst))
                __builtin_trap();
            free(again);
            free(enc);
        }
    }
    free(dst);
    return 0;
}
