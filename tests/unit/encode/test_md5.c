/* Frame MD5s in the form of shared/samples/synthetic/expected_md5.json (checked against the
 * digest published there for the documented test pattern), and the md5/null sinks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "encode/md5.h"
#include "encode/sink.h"
#include "pipeline/formats.h"

/* samples/synthetic/README.md: (37x + 101y + 7919f + (xy mod 13)) mod 2^b */
static void pattern(mp_frame *f, uint32_t bits, uint32_t frame)
{
    assert_int_equal(mp_frame_reserve(f, 128, 64, NULL), MP_OK);
    f->bits = bits;
    f->number = frame;
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 128; x++)
            f->data[y * 128 + x] =
                (uint16_t)((37 * x + 101 * y + 7919 * frame + (x * y) % 13) % (1u << bits));
}

static void test_matches_published_digests(void **state)
{
    (void)state;
    mp_frame f = {0};
    char hex[33];
    /* Values copied from expected_md5.json (synth_14bit_128x64_3f.MLV, synth_10bit...). */
    pattern(&f, 14, 0);
    assert_int_equal(mp_frame_md5(&f, hex, NULL), MP_OK);
    assert_string_equal(hex, "1f91eb67b314f1fc768ede28875415e2");
    pattern(&f, 14, 2);
    mp_frame_md5(&f, hex, NULL);
    assert_string_equal(hex, "b5cf67a2f1b856d277078ec501c18aab");
    pattern(&f, 10, 1);
    mp_frame_md5(&f, hex, NULL);
    assert_string_equal(hex, "2589e20847fa376bec59ff8e5fe53413");
    mp_frame_free(&f);
}

static void hex_of(const uint8_t d[16], char hex[33])
{
    for (int i = 0; i < 16; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

/* mp_md5 against RFC 1321's test suite (appendix A.5), whole and fed in uneven pieces that
 * cross the 64-byte blocks, and at the padding edges (55, 56, 63, 64 bytes). */
static void test_md5_rfc1321(void **state)
{
    (void)state;
    static const char *const suite[][2] = {
        {"", "d41d8cd98f00b204e9800998ecf8427e"},
        {"a", "0cc175b9c0f1b6a831c399e269772661"},
        {"abc", "900150983cd24fb0d6963f7d28e17f72"},
        {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
        {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
         "d174ab98d277d9f5a5611c2c9f419d9f"},
        {"1234567890123456789012345678901234567890123456789012345678901234567890123456789"
         "0", "57edf4a22be3c955ac49da2e2107b67a"},
        /* lengths at the padding edges (digests from coreutils md5sum) */
        {"0123456789012345678901234567890123456789012345678901234",
         "6e7a4fc92eb1c3f6e652425bcc8d44b5"},
        {"01234567890123456789012345678901234567890123456789012345",
         "8af270b2847610e742b0791b53648c09"},
        {"012345678901234567890123456789012345678901234567890123456789012",
         "c5e256437e758092dbfe06283e489019"},
        {"0123456789012345678901234567890123456789012345678901234567890123",
         "7f7bfd348709deeaace19e3f535f8c54"},
    };
    for (size_t i = 0; i < sizeof suite / sizeof suite[0]; i++) {
        const char *text = suite[i][0];
        size_t n = strlen(text);
        for (size_t piece = 1; piece <= 65; piece += 7) {
            mp_md5 m;
            mp_md5_init(&m);
            for (size_t at = 0; at < n; at += piece)
                mp_md5_update(&m, text + at, n - at < piece ? n - at : piece);
            uint8_t d[16];
            char hex[33];
            mp_md5_final(&m, d);
            hex_of(d, hex);
            assert_string_equal(hex, suite[i][1]);
        }
    }
}

static void test_md5_sink_file(void **state)
{
    (void)state;
    char path[] = "/tmp/mlvpipe-md5-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    mp_sink_params p = {.clip_name = "x"};
    mp_sink *s;
    mp_error err;
    mp_frame f = {0};
    assert_int_equal(mp_sink_open(&s, mp_sink_find("md5"), path, &p, &err), MP_OK);
    pattern(&f, 12, 1);
    assert_int_equal(mp_sink_write_frame(s, &f, NULL, &err), MP_OK);
    pattern(&f, 12, 0);
    assert_int_equal(mp_sink_write_frame(s, &f, NULL, &err), MP_OK);
    assert_int_equal(mp_sink_write_audio(s, "abc", 3, &err), MP_OK);
    assert_int_equal(mp_sink_frames_written(s), 2);
    assert_int_equal(mp_sink_audio_bytes_written(s), 3);
    assert_int_equal(mp_sink_finish(s, &err), MP_OK);
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    char text[256] = {0};
    assert_true(fread(text, 1, sizeof text - 1, fp) > 0);
    fclose(fp);
    unlink(path);
    /* md5("abc") = 900150983cd24fb0d6963f7d28e17f72 */
    assert_string_equal(text, "1 b47c117156791e6b51d0677d09f30ced\n"
                              "0 9f9bc4a664fe76b657dcf1601170c4e5\n"
                              "audio 900150983cd24fb0d6963f7d28e17f72\n");
    mp_frame_free(&f);
}

static void test_null_sink_and_registry(void **state)
{
    (void)state;
    assert_null(mp_sink_find("prores-nope"));
    static const char *names[] = {"dng", "wav", "md5", "null"};
    for (size_t i = 0; i < 4; i++)
        assert_string_equal(mp_sink_find(names[i])->name, names[i]);
    mp_sink_params p = {0};
    mp_sink *s;
    mp_error err;
    mp_frame f = {0};
    pattern(&f, 14, 0);
    assert_int_equal(mp_sink_open(&s, mp_sink_find("null"), NULL, &p, &err), MP_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(mp_sink_write_frame(s, &f, NULL, &err), MP_OK);
    assert_int_equal(mp_sink_write_audio(s, "abcd", 4, &err), MP_OK);
    mp_frame empty = {0};
    assert_int_equal(mp_sink_write_frame(s, &empty, NULL, &err), MP_ERR_ARG);
    assert_int_equal(mp_sink_frames_written(s), 3);
    assert_int_equal(mp_sink_audio_bytes_written(s), 4);
    assert_int_equal(mp_sink_finish(s, &err), MP_OK);
    mp_sink_abort(NULL);
    mp_frame_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_published_digests),
        cmocka_unit_test(test_md5_rfc1321),
        cmocka_unit_test(test_md5_sink_file),
        cmocka_unit_test(test_null_sink_and_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
