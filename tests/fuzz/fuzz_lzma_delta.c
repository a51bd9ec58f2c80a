/* libFuzzer target: the LZMA frame decoder and DELTA decoding on arbitrary bytes.
 * The first byte picks the codec. LZMA: the rest is a payload, decoded into a buffer of its
 * declared size (capped, so a larger claim exercises the size check instead); when it decodes,
 * the encoder's output of those bytes decodes to them again. DELTA: the rest is stored samples
 * and a reference frame; decoding stays within the bit depth and encoding gives back the
 * stored values. */
#include <stdlib.h>
#include <string.h>

#include "codec/delta.h"
#include "codec/lzma_frame.h"

/* Frames beyond this take the same paths; larger buffers would be mapped afresh for every
 * input under ASan. */
#define MAX_FRAME (1u << 16)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_lzma(const uint8_t *src, size_t len)
{
    size_t dst_size = 0;
    if (len >= 4) {
        dst_size = (size_t)src[0] | (size_t)src[1] << 8 | (size_t)src[2] << 16 |
                   (size_t)src[3] << 24;
        if (dst_size > MAX_FRAME)
            dst_size = MAX_FRAME;
    }
    uint8_t *dst = malloc(dst_size ? dst_size : 1);
    if (!dst)
        return;
    mp_error err;
    if (mp_lzma_frame_decode(src, len, dst, dst_size, &err) == MP_OK) {
        uint8_t *enc, *again = malloc(dst_size ? dst_size : 1);
        size_t enc_len;
        if (!again || mp_lzma_frame_encode(dst, dst_size, &enc, &enc_len, &err) != MP_OK ||
            mp_lzma_frame_decode(enc, enc_len, again, dst_size, &err) != MP_OK ||
            memcmp(again, dst, dst_size))
            __builtin_trap();
        free(enc);
        free(again);
    }
    free(dst);
}

static void fuzz_delta(const uint8_t *src, size_t len)
{
    if (len < 1)
        return;
    unsigned bits = 1u + src[0] % 16u;
    uint16_t mask = (uint16_t)((1u << bits) - 1);
    size_t count = (len - 1) / 4;
    uint16_t *stored = malloc((count ? count : 1) * 3 * sizeof *stored);
    if (!stored)
        return;
    uint16_t *ref = stored + count, *samples = ref + count;
    memcpy(stored, src + 1, count * 2 * sizeof *stored);  /* stored values, then ref */
    for (size_t i = 0; i < count; i++) {
        stored[i] &= mask;
        ref[i] &= mask;
    }
    memcpy(samples, stored, count * sizeof *samples);
    mp_delta_decode(samples, ref, count, bits);
    for (size_t i = 0; i < count; i++)
        if (samples[i] > mask)
            __builtin_trap();
    mp_delta_encode(samples, ref, count, bits);
    if (memcmp(samples, stored, count * sizeof *samples))
        __builtin_trap();
    free(stored);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (data[0] & 1)
        fuzz_delta(data + 1, size - 1);
    else
        fuzz_lzma(data + 1, size - 1);
    return 0;
}
