/* Unit tests for codec/lzma_frame (doc/mlv-format.md 10.2) and codec/delta (10.1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <lzma.h>

#include "codec/bitpack.h"
#include "codec/delta.h"
#include "codec/lzma_frame.h"

static uint32_t rng = 4242;
static uint32_t next_random(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

/* A packed 14-bit frame of a gradient with noise. */
static uint8_t *make_frame(size_t *size)
{
    enum { W = 128, H = 64 };
    uint16_t px[W * H];
    for (int i = 0; i < W * H; i++)
        px[i] = (uint16_t)(2048 + (i % W) * 40 + (i / W) * 10 + next_random() % 32);
    *size = mp_packed_size_mlv(W * H, 14);
    uint8_t *frame = malloc(*size);
    mp_pack_mlv(px, frame, W * H, 14);
    return frame;
}

static void lzma_round_trip_and_layout(void **state)
{
    (void)state;
    size_t size, len;
    uint8_t *frame = make_frame(&size), *enc;
    mp_error err = {0};
    assert_int_equal(mp_lzma_frame_encode(frame, size, &enc, &len, &err), MP_OK);
    assert_true(len < size);
    /* u32 LE size, then lc=3 lp=0 pb=2 and the dictionary size */
    assert_int_equal(enc[0] | enc[1] << 8 | enc[2] << 16 | (uint32_t)enc[3] << 24, size);
    assert_int_equal(enc[4], 0x5D);
    uint8_t *out = malloc(size);
    assert_int_equal(mp_lzma_frame_decode(enc, len, out, size, &err), MP_OK);
    assert_memory_equal(out, frame, size);
    /* VIDF padding after the stream is ignored */
    uint8_t *padded = calloc(len + 512, 1);
    memcpy(padded, enc, len);
    assert_int_equal(mp_lzma_frame_decode(padded, len + 512, out, size, &err), MP_OK);
    assert_memory_equal(out, frame, size);
    free(padded);
    free(out);
    free(enc);
    free(frame);
}

/* A stream that does end with an end marker (as liblzma's plain LZMA1 writes) decodes too. */
static void lzma_stream_with_end_marker(void **state)
{
    (void)state;
    size_t size;
    uint8_t *frame = make_frame(&size);
    lzma_options_lzma opt;
    assert_false(lzma_lzma_preset(&opt, 1));
    lzma_filter filters[] = {{LZMA_FILTER_LZMA1, &opt}, {LZMA_VLI_UNKNOWN, NULL}};
    size_t cap = size + 4096, pos = 9;
    uint8_t *enc = malloc(cap);
    assert_int_equal(lzma_raw_buffer_encode(filters, NULL, frame, size, enc, &pos, cap), LZMA_OK);
    enc[0] = (uint8_t)size;
    enc[1] = (uint8_t)(size >> 8);
    enc[2] = (uint8_t)(size >> 16);
    enc[3] = (uint8_t)(size >> 24);
    enc[4] = (uint8_t)((opt.pb * 5 + opt.lp) * 9 + opt.lc);
    for (int i = 0; i < 4; i++)
        enc[5 + i] = (uint8_t)(opt.dict_size >> (8 * i));
    uint8_t *out = malloc(size);
    mp_error err = {0};
    mp_status st = mp_lzma_frame_decode(enc, pos, out, size, &err);
    if (st != MP_OK)
        fail_msg("%s", err.msg);
    assert_memory_equal(out, frame, size);
    free(out);
    free(enc);
    free(frame);
}

static void lzma_bad_input(void **state)
{
    (void)state;
    size_t size, len;
    uint8_t *frame = make_frame(&size), *enc;
    assert_int_equal(mp_lzma_frame_encode(frame, size, &enc, &len, NULL), MP_OK);
    uint8_t *out = malloc(size);
    mp_error err = {0};
    /* declared size short of the frame: damage, whatever the stream holds */
    uint8_t *big = malloc(size + 2);
    assert_int_equal(mp_lzma_frame_decode(enc, len, big, size + 2, &err), MP_ERR_DAMAGED);
    assert_non_null(strstr(err.msg, "offset 0: declared size"));
    free(big);
    /* declared size beyond the frame (2014 mlv_dump compressed the VIDF padding too): the
     * first frame-size bytes are the frame; more than MP_LZMA_FRAME_PADDING_MAX is refused */
    assert_int_equal(mp_lzma_frame_decode(enc, len, out, size - 2, &err), MP_OK);
    assert_memory_equal(out, frame, size - 2);
    assert_true(mp_lzma_frame_header_fits(enc, len, size - 2));
    assert_false(mp_lzma_frame_header_fits(enc, len, size + 2));
    uint8_t *far = malloc(len);
    memcpy(far, enc, len);
    uint32_t beyond = (uint32_t)size + MP_LZMA_FRAME_PADDING_MAX + 1;
    for (int i = 0; i < 4; i++)
        far[i] = (uint8_t)(beyond >> (8 * i));
    assert_false(mp_lzma_frame_header_fits(far, len, size));
    assert_int_equal(mp_lzma_frame_decode(far, len, out, size, &err), MP_ERR_DAMAGED);
    assert_non_null(strstr(err.msg, "far beyond"));
    free(far);
    /* every truncation (exact-size copies so the sanitizer sees overreads) */
    for (size_t n = 0; n < len; n += n < 64 ? 1 : 97) {
        uint8_t *copy = malloc(n ? n : 1);
        memcpy(copy, enc, n);
        assert_int_not_equal(mp_lzma_frame_decode(copy, n, out, size, &err), MP_OK);
        free(copy);
    }
    /* a dictionary far beyond the memory limit: cut to the declared size, so it decodes
     * (a match cannot reach further back than the output so far) */
    uint8_t *copy = malloc(len + MP_LZMA_FRAME_HEADER);
    memcpy(copy, enc, len);
    copy[5] = copy[6] = copy[7] = copy[8] = 0xFF;  /* dictionary size 4 GiB - 1 */
    assert_int_equal(mp_lzma_frame_decode(copy, len, out, size, &err), MP_OK);
    assert_memory_equal(out, frame, size);
    /* invalid properties byte */
    memcpy(copy, enc, len);
    copy[4] = 0xFF;
    assert_int_equal(mp_lzma_frame_decode(copy, len, out, size, &err), MP_ERR_DAMAGED);
    /* random damage: an error or (rarely) other bytes, never a crash */
    for (int iter = 0; iter < 200; iter++) {
        memcpy(copy, enc, len);
        copy[9 + next_random() % (len - 9)] ^= (uint8_t)(1 + next_random() % 255);
        mp_lzma_frame_decode(copy, len, out, size, &err);
    }
    free(copy);
    free(out);
    free(enc);
    free(frame);
}

static void delta_hand_values(void **state)
{
    (void)state;
    uint16_t ref[3] = {100, 16000, 0};
    uint16_t cur[3] = {50, 10, 16383};
    uint16_t s[3];
    memcpy(s, cur, sizeof s);
    mp_delta_encode(s, ref, 3, 14);
    /* (cur - ref + 8192) mod 16384 */
    assert_int_equal(s[0], 8142);
    assert_int_equal(s[1], 8586);
    assert_int_equal(s[2], 8191);
    mp_delta_decode(s, ref, 3, 14);
    assert_memory_equal(s, cur, sizeof s);
}

static void delta_round_trips_every_depth(void **state)
{
    (void)state;
    enum { N = 1000 };
    uint16_t ref[N], cur[N], s[N];
    for (unsigned bits = 1; bits <= 16; bits++) {
        uint32_t mask = (1u << bits) - 1;
        for (int i = 0; i < N; i++) {
            ref[i] = (uint16_t)(next_random() & mask);
            cur[i] = (uint16_t)(next_random() & mask);
        }
        memcpy(s, cur, sizeof s);
        mp_delta_encode(s, ref, N, bits);
        for (int i = 0; i < N; i++) {
            assert_true(s[i] <= mask);
            assert_int_equal(s[i], (cur[i] - ref[i] + (1u << (bits - 1))) & mask);
        }
        mp_delta_decode(s, ref, N, bits);
        assert_memory_equal(s, cur, sizeof s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lzma_round_trip_and_layout),
        cmocka_unit_test(lzma_stream_with_end_marker),
        cmocka_unit_test(lzma_bad_input),
        cmocka_unit_test(delta_hand_values),
        cmocka_unit_test(delta_round_trips_every_depth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
