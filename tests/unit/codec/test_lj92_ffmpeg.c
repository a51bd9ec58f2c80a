/* Interoperability: streams from our LJ92 encoder decode in ffmpeg's lossless JPEG decoder
 * (an independent implementation) to the same samples, for every predictor, precisions 16
 * and 14 (ffmpeg scales to 16 bits), with and without restart intervals. Single component:
 * the layout of compressed DNGs. Skips (77) when ffmpeg is not installed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "codec/lj92.h"

enum { W = 64, H = 32 };
static char dir[64];

static void check(unsigned pred, unsigned precision, unsigned restart_lines)
{
    uint16_t px[W * H];
    uint32_t r = pred * 31 + precision;
    for (int i = 0; i < W * H; i++) {
        r = r * 1103515245u + 12345u;
        px[i] = (uint16_t)(((i % W) * 50 + (i / W) * 20 + (r >> 16) % 300) & ((1u << precision) - 1));
    }
    lj92_header h = {W, H, 1, precision, pred};
    lj92_options o = {.restart_interval = restart_lines * W};
    uint8_t *enc;
    size_t len;
    assert_int_equal(mp_lj92_encode_opts(px, &h, &o, &enc, &len, NULL), MP_OK);
    char in[128], out[128], cmd[512];
    snprintf(in, sizeof in, "%s/in.jpg", dir);
    snprintf(out, sizeof out, "%s/out.raw", dir);
    FILE *f = fopen(in, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(enc, 1, len, f), len);
    fclose(f);
    free(enc);
    snprintf(cmd, sizeof cmd,
             "ffmpeg -nostdin -v error -y -f mjpeg -i %s -f rawvideo -pix_fmt gray16le %s", in, out);
    assert_int_equal(system(cmd), 0);
    uint8_t raw[2 * W * H];
    f = fopen(out, "rb");
    assert_non_null(f);
    assert_int_equal(fread(raw, 1, sizeof raw, f), sizeof raw);
    fclose(f);
    for (int i = 0; i < W * H; i++) {
        unsigned v = raw[2 * i] | raw[2 * i + 1] << 8;
        if (v >> (16 - precision) != px[i])
            fail_msg("pred %u P%u restart %u: sample %d is %u in ffmpeg, %u encoded", pred,
                     precision, restart_lines, i, v >> (16 - precision), px[i]);
    }
    unlink(in);
    unlink(out);
}

static void ffmpeg_decodes_our_streams(void **state)
{
    (void)state;
    for (unsigned pred = 1; pred <= 7; pred++) {
        check(pred, 16, 0);
        check(pred, 14, pred % 2 ? 4 : 0);
    }
}

int main(void)
{
    if (system("ffmpeg -version >/dev/null 2>&1") != 0)
        return 77;
    snprintf(dir, sizeof dir, "/tmp/mlvpipe-lj92-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {cmocka_unit_test(ffmpeg_decodes_our_streams)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rmdir(dir);
    return rc;
}
