/* ProRes through prores_ks (av_sink.c, QUANT_STEPS): by default each frame is coded at one
 * quantiser for all its slices, within prores_ks's budget for the profile and size, and on
 * noisy pictures at least 1 dB (PSNR) above prores_ks's own per-slice rate control
 * (prores_slice_rc) at the same budget; a frame that no quantiser of the search keeps to the
 * budget gets exactly the rate control's bytes; the bytes do not depend on the encoder
 * instance or its thread count. PSNR is measured exactly: the decoded frame against the
 * Y'CbCr the encoder was given (mp_av_yuv_row_422 on the same RGB). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>

#include "movie/av_sink.h"
#include "movie/av_yuv.h"

#define W 640
#define H 368
#define HQ_BITS_PER_MB 1566   /* prores_ks's HQ rate up to 1620 macroblocks */

static char path[64];

/* A developed-looking picture from a fixed generator, so every run codes the same frame: a
 * smooth gradient with fine detail (a zone plate) in its middle third, and noise whose
 * amplitude (16-bit codes) falls from the dark left edge to the bright right one, as a
 * display curve leaves shot noise. */
static void noisy_rgb(uint16_t *planes[3], uint32_t amplitude, uint32_t seed)
{
    uint32_t state = seed;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int32_t a = (int32_t)(amplitude * (W - x) / W) + 1, noise = 0;
                for (int i = 0; i < 4; i++) {
                    state ^= state << 13;
                    state ^= state >> 17;
                    state ^= state << 5;
                    noise += (int32_t)(state % (2 * (uint32_t)a + 1)) - a;
                }
                double r2 = (double)(x - W / 2) * (x - W / 2) + (double)(y - H / 2) * (y - H / 2);
                double detail = x > W / 3 && x < 2 * W / 3 ? 6000 * cos(r2 / 900.0) : 0;
                int32_t v = 12000 + 60 * x + 30 * y + 3000 * c + (int32_t)detail + noise / 2;
                planes[c][y * W + x] = (uint16_t)(v < 0 ? 0 : v > 65535 ? 65535 : v);
            }
}

/* One encoded frame of a prores422hq sink (ks or ks-slice), through a worker encoder or the
 * sink's own (threads 2). */
static AVPacket *encode(uint16_t *planes[3], int slice_rc, int own_encoder)
{
    mp_av_sink_params p;
    mp_av_sink_params_default(&p);
    p.kind = AV_SINK_PRORES_422HQ;
    p.width = W;
    p.height = H;
    p.fps_num = 25;
    p.fps_den = 1;
    p.threads = 2;
    p.prores_slice_rc = slice_rc;
    mp_error err;
    mp_av_sink *s = NULL;
    assert_int_equal(mp_av_sink_open(&s, path, &p, &err), MP_OK);
    mp_av_encoder *worker = NULL;
    if (!own_encoder)
        assert_int_equal(mp_av_encoder_new(s, &worker, &err), MP_OK);
    AVPacket *pkt = NULL;
    const uint16_t *const rgb[3] = {planes[0], planes[1], planes[2]};
    assert_int_equal(mp_av_encode_rgb(own_encoder ? mp_av_sink_encoder(s) : worker, rgb, W,
                                      &pkt, &err), MP_OK);
    mp_av_encoder_free(worker);
    mp_av_sink_abort(s);
    return pkt;
}

static uint32_t be16(const uint8_t *b) { return (uint32_t)b[0] << 8 | b[1]; }

/* The quantisers of a frame's slices: the frame header's size is at byte 8, the picture
 * header (8 bytes: size, data size, slice count, slice shape) follows it, then the table of
 * slice sizes; each slice's second byte is its quantiser. Returns the slice count. */
static int slice_quants(const AVPacket *pkt, int *min_q, int *max_q)
{
    const uint8_t *d = pkt->data;
    size_t at = 8 + be16(d + 8);
    assert_true(at + 8 <= (size_t)pkt->size);
    int slices = (int)be16(d + at + 5);
    size_t sizes = at + 8, pos = sizes + 2 * (size_t)slices;
    *min_q = 255;
    *max_q = 0;
    for (int i = 0; i < slices; i++) {
        assert_true(pos + 2 <= (size_t)pkt->size);
        int q = d[pos + 1];
        *min_q = q < *min_q ? q : *min_q;
        *max_q = q > *max_q ? q : *max_q;
        pos += be16(d + sizes + 2 * (size_t)i);
    }
    assert_int_equal(pos, (size_t)pkt->size);
    return slices;
}

/* PSNR (10-bit peak) of the decoded packet against the Y'CbCr of planes. */
static double psnr(const AVPacket *pkt, uint16_t *planes[3])
{
    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_PRORES);
    AVCodecContext *c = avcodec_alloc_context3(codec);
    AVFrame *f = av_frame_alloc();
    assert_non_null(c);
    assert_non_null(f);
    c->width = W;
    c->height = H;
    assert_int_equal(avcodec_open2(c, codec, NULL), 0);
    assert_int_equal(avcodec_send_packet(c, pkt), 0);
    assert_int_equal(avcodec_receive_frame(c, f), 0);
    assert_int_equal(f->format, AV_PIX_FMT_YUV422P10LE);
    mp_av_yuv_coeffs k;
    mp_error err;
    assert_int_equal(mp_av_yuv_init(&k, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, &err), MP_OK);
    uint16_t ref[3][W];
    double sum = 0;
    for (int y = 0; y < H; y++) {
        mp_av_yuv_row_422(&k, planes[0] + y * W, planes[1] + y * W, planes[2] + y * W, W,
                          ref[0], ref[1], ref[2]);
        for (int i = 0; i < 3; i++) {
            const uint16_t *got = (const uint16_t *)(f->data[i] + y * f->linesize[i]);
            for (int x = 0; x < (i ? W / 2 : W); x++)
                sum += ((double)got[x] - ref[i][x]) * ((double)got[x] - ref[i][x]);
        }
    }
    av_frame_free(&f);
    avcodec_free_context(&c);
    return 10 * log10(1023.0 * 1023.0 / (sum / (2.0 * W * H)));
}

struct picture {
    uint16_t *planes[3];
};

static int setup(void **state)
{
    snprintf(path, sizeof path, "/tmp/mlvpipe-av-prores-%d.mov", (int)getpid());
    struct picture *p = calloc(1, sizeof *p);
    for (int c = 0; p && c < 3; c++)
        if (!(p->planes[c] = malloc((size_t)W * H * sizeof(uint16_t))))
            return -1;
    *state = p;
    return p ? 0 : -1;
}

static int teardown(void **state)
{
    struct picture *p = *state;
    for (int c = 0; c < 3; c++)
        free(p->planes[c]);
    free(p);
    return 0;
}

static void test_one_quantiser_beats_slice_rate_control(void **state)
{
    struct picture *p = *state;
    noisy_rgb(p->planes, 2400, 1);
    AVPacket *ks = encode(p->planes, 0, 0), *rc = encode(p->planes, 1, 0);
    int64_t budget = (int64_t)HQ_BITS_PER_MB * (W / 16) * (H / 16) / 8;
    int lo, hi;
    slice_quants(ks, &lo, &hi);
    assert_int_equal(lo, hi);
    assert_true(lo > 1);   /* the budget binds: the search went past the finest quantiser */
    assert_true(ks->size <= budget);
    slice_quants(rc, &lo, &hi);
    assert_true(lo < hi);  /* the rate control's choice is per slice */
    double pk = psnr(ks, p->planes), pr = psnr(rc, p->planes);
    print_message("one quantiser %.2f dB in %d bytes, slice rate control %.2f dB in %d bytes, "
                  "budget %lld\n", pk, ks->size, pr, rc->size, (long long)budget);
    assert_true(pk >= pr + 1.0);
    av_packet_free(&ks);
    av_packet_free(&rc);
}

static void test_same_bytes_from_every_encoder(void **state)
{
    struct picture *p = *state;
    noisy_rgb(p->planes, 1200, 2);
    AVPacket *worker = encode(p->planes, 0, 0), *own = encode(p->planes, 0, 1);
    assert_int_equal(worker->size, own->size);
    assert_memory_equal(worker->data, own->data, (size_t)own->size);
    av_packet_free(&worker);
    av_packet_free(&own);
}

static void test_beyond_the_search_is_the_rate_control(void **state)
{
    struct picture *p = *state;
    noisy_rgb(p->planes, 40000, 3);
    AVPacket *ks = encode(p->planes, 0, 0), *rc = encode(p->planes, 1, 0);
    assert_int_equal(ks->size, rc->size);
    assert_memory_equal(ks->data, rc->data, (size_t)rc->size);
    av_packet_free(&ks);
    av_packet_free(&rc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_quantiser_beats_slice_rate_control),
        cmocka_unit_test(test_same_bytes_from_every_encoder),
        cmocka_unit_test(test_beyond_the_search_is_the_rate_control),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
