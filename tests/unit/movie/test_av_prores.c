/* ProRes through prores_ks (av_sink.c, QUANT_STEPS): by default each frame is coded at one
 * quantiser for all its slices, within prores_ks's budget for the profile and size, and on
 * noisy pictures at least 1 dB (PSNR) above prores_ks's own per-slice rate control
 * (prores_slice_rc) at the same budget; a frame that no quantiser of the search keeps to the
 * budget gets exactly the rate control's bytes; the bytes do not depend on the encoder
 * instance or its thread count. On pictures large enough for the search's predicted start (a
 * sample of macroblock rows coded at the first quantiser), a frame that fits is coded at the
 * first quantiser, and one whose sample misleads still keeps to the budget. PSNR is
 * measured exactly: the decoded frame against the Y'CbCr the encoder was given
 * (mp_av_yuv_row_422 on the same RGB). */
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
#include <libavutil/opt.h>

#include "movie/av_sink.h"
#include "movie/av_yuv.h"

#define SMALL_W 640
#define SMALL_H 368
#define BIG_W 1280            /* large enough for a sample (av_sink.c, PROBE_SLICES) */
#define BIG_H 720

static char path[64];

struct picture {
    int w, h;
    uint16_t *planes[3];
};

/* A developed-looking picture from a fixed generator, so every run codes the same frame: a
 * smooth gradient with fine detail (a zone plate) in its middle third, and noise whose
 * amplitude (16-bit codes) falls from the dark left edge to the bright right one, as a
 * display curve leaves shot noise. */
static void noisy_rgb(struct picture *p, uint32_t amplitude, uint32_t seed)
{
    uint32_t state = seed;
    int w = p->w, h = p->h;
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int32_t a = (int32_t)(amplitude * (w - x) / w) + 1, noise = 0;
                for (int i = 0; i < 4; i++) {
                    state ^= state << 13;
                    state ^= state >> 17;
                    state ^= state << 5;
                    noise += (int32_t)(state % (2 * (uint32_t)a + 1)) - a;
                }
                double r2 = (double)(x - w / 2) * (x - w / 2) + (double)(y - h / 2) * (y - h / 2);
                double detail = x > w / 3 && x < 2 * w / 3 ? 6000 * cos(r2 / 900.0) : 0;
                int32_t v = 12000 + 60 * x + 30 * y + 3000 * c + (int32_t)detail + noise / 2;
                p->planes[c][y * w + x] = (uint16_t)(v < 0 ? 0 : v > 65535 ? 65535 : v);
            }
}

/* One encoded frame of a prores422hq sink (ks or ks-slice), through a worker encoder or the
 * sink's own (threads 2). */
static AVPacket *encode(const struct picture *pic, int slice_rc, int own_encoder)
{
    mp_av_sink_params p;
    mp_av_sink_params_default(&p);
    p.kind = AV_SINK_PRORES_422HQ;
    p.width = (uint32_t)pic->w;
    p.height = (uint32_t)pic->h;
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
    const uint16_t *const rgb[3] = {pic->planes[0], pic->planes[1], pic->planes[2]};
    assert_int_equal(mp_av_encode_rgb(own_encoder ? mp_av_sink_encoder(s) : worker, rgb,
                                      (size_t)pic->w, &pkt, &err), MP_OK);
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

/* PSNR (10-bit peak) of the decoded packet against the Y'CbCr of the picture. */
static double psnr(const AVPacket *pkt, const struct picture *p)
{
    int w = p->w, h = p->h;
    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_PRORES);
    AVCodecContext *c = avcodec_alloc_context3(codec);
    AVFrame *f = av_frame_alloc();
    assert_non_null(c);
    assert_non_null(f);
    c->width = w;
    c->height = h;
    assert_int_equal(avcodec_open2(c, codec, NULL), 0);
    assert_int_equal(avcodec_send_packet(c, pkt), 0);
    assert_int_equal(avcodec_receive_frame(c, f), 0);
    assert_int_equal(f->format, AV_PIX_FMT_YUV422P10LE);
    mp_av_yuv_coeffs k;
    mp_error err;
    assert_int_equal(mp_av_yuv_init(&k, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, &err), MP_OK);
    uint16_t ref[3][BIG_W];
    double sum = 0;
    for (int y = 0; y < h; y++) {
        mp_av_yuv_row_422(&k, p->planes[0] + y * w, p->planes[1] + y * w, p->planes[2] + y * w,
                          (uint32_t)w, ref[0], ref[1], ref[2]);
        for (int i = 0; i < 3; i++) {
            const uint16_t *got = (const uint16_t *)(f->data[i] + y * f->linesize[i]);
            for (int x = 0; x < (i ? w / 2 : w); x++)
                sum += ((double)got[x] - ref[i][x]) * ((double)got[x] - ref[i][x]);
        }
    }
    av_frame_free(&f);
    avcodec_free_context(&c);
    return 10 * log10(1023.0 * 1023.0 / (sum / (2.0 * w * h)));
}

/* prores_ks's data rate for HQ at the picture's size, in bytes per frame. */
static int64_t hq_budget(const struct picture *p)
{
    AVCodecContext *c = avcodec_alloc_context3(avcodec_find_encoder_by_name("prores_ks"));
    assert_non_null(c);
    c->width = p->w;
    c->height = p->h;
    c->pix_fmt = AV_PIX_FMT_YUV422P10LE;
    c->time_base = (AVRational){1, 25};
    av_opt_set_int(c->priv_data, "profile", FF_PROFILE_PRORES_HQ, 0);
    assert_int_equal(avcodec_open2(c, NULL, NULL), 0);
    int64_t bits_per_mb = 0;
    assert_int_equal(av_opt_get_int(c->priv_data, "bits_per_mb", 0, &bits_per_mb), 0);
    avcodec_free_context(&c);
    return bits_per_mb * ((p->w + 15) / 16) * ((p->h + 15) / 16) / 8;
}

static int setup(void **state)
{
    snprintf(path, sizeof path, "/tmp/mlvpipe-av-prores-%d.mov", (int)getpid());
    struct picture *p = calloc(1, sizeof *p);
    for (int c = 0; p && c < 3; c++)
        if (!(p->planes[c] = malloc((size_t)BIG_W * BIG_H * sizeof(uint16_t))))
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
    p->w = SMALL_W;
    p->h = SMALL_H;
    noisy_rgb(p, 2400, 1);
    AVPacket *ks = encode(p, 0, 0), *rc = encode(p, 1, 0);
    int64_t budget = hq_budget(p);
    int lo, hi;
    slice_quants(ks, &lo, &hi);
    assert_int_equal(lo, hi);
    assert_true(lo > 1);   /* the budget binds: the search went past the finest quantiser */
    assert_true(ks->size <= budget);
    slice_quants(rc, &lo, &hi);
    assert_true(lo < hi);  /* the rate control's choice is per slice */
    double pk = psnr(ks, p), pr = psnr(rc, p);
    print_message("one quantiser %.2f dB in %d bytes, slice rate control %.2f dB in %d bytes, "
                  "budget %lld\n", pk, ks->size, pr, rc->size, (long long)budget);
    assert_true(pk >= pr + 1.0);
    av_packet_free(&ks);
    av_packet_free(&rc);
}

static void test_same_bytes_from_every_encoder(void **state)
{
    struct picture *p = *state;
    p->w = SMALL_W;
    p->h = SMALL_H;
    noisy_rgb(p, 1200, 2);
    AVPacket *worker = encode(p, 0, 0), *own = encode(p, 0, 1);
    assert_int_equal(worker->size, own->size);
    assert_memory_equal(worker->data, own->data, (size_t)own->size);
    av_packet_free(&worker);
    av_packet_free(&own);
}

static void test_beyond_the_search_is_the_rate_control(void **state)
{
    struct picture *p = *state;
    p->w = SMALL_W;
    p->h = SMALL_H;
    noisy_rgb(p, 40000, 3);
    AVPacket *ks = encode(p, 0, 0), *rc = encode(p, 1, 0);
    assert_int_equal(ks->size, rc->size);
    assert_memory_equal(ks->data, rc->data, (size_t)rc->size);
    av_packet_free(&ks);
    av_packet_free(&rc);
}

/* The frame's macroblock rows that make the sample at BIG_W x BIG_H: 10 slices a row, so 7
 * rows, each the middle of its seventh of the 45 rows (av_sink.c, probe_source_row). */
static int sampled_row(int mb_row)
{
    for (int k = 0; k < 7; k++)
        if (mb_row == (2 * k + 1) * 45 / 14)
            return 1;
    return 0;
}

static void test_a_frame_that_fits_takes_the_first_quantiser(void **state)
{
    struct picture *p = *state;
    p->w = BIG_W;
    p->h = BIG_H;
    noisy_rgb(p, 200, 4);
    AVPacket *ks = encode(p, 0, 0);
    int lo, hi;
    slice_quants(ks, &lo, &hi);
    assert_int_equal(lo, 1);
    assert_int_equal(hi, 1);
    assert_true(ks->size <= hq_budget(p));
    av_packet_free(&ks);
}

/* Noise outside the sample and a smooth sample: the sample predicts the first quantiser, at
 * which the frame exceeds the budget; the search goes on to the next. */
static void test_a_misleading_sample_still_keeps_to_the_budget(void **state)
{
    struct picture *p = *state;
    p->w = BIG_W;
    p->h = BIG_H;
    noisy_rgb(p, 2400, 5);
    uint16_t *smooth[3];
    for (int c = 0; c < 3; c++) {
        assert_non_null(smooth[c] = malloc((size_t)BIG_W * BIG_H * sizeof(uint16_t)));
        memcpy(smooth[c], p->planes[c], (size_t)BIG_W * BIG_H * sizeof(uint16_t));
    }
    struct picture quiet = {BIG_W, BIG_H, {smooth[0], smooth[1], smooth[2]}};
    noisy_rgb(&quiet, 0, 5);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < BIG_H; y++)
            if (sampled_row(y / 16))
                memcpy(p->planes[c] + y * BIG_W, smooth[c] + y * BIG_W,
                       BIG_W * sizeof(uint16_t));
    AVPacket *ks = encode(p, 0, 0), *own = encode(p, 0, 1);
    int lo, hi;
    slice_quants(ks, &lo, &hi);
    assert_int_equal(lo, hi);
    assert_true(lo > 1);
    assert_true(ks->size <= hq_budget(p));
    assert_int_equal(ks->size, own->size);
    assert_memory_equal(ks->data, own->data, (size_t)own->size);
    /* the sample alone fits at the first quantiser: it did mislead */
    AVPacket *q = encode(&quiet, 0, 0);
    slice_quants(q, &lo, &hi);
    assert_int_equal(hi, 1);
    for (int c = 0; c < 3; c++)
        free(smooth[c]);
    av_packet_free(&ks);
    av_packet_free(&own);
    av_packet_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_quantiser_beats_slice_rate_control),
        cmocka_unit_test(test_same_bytes_from_every_encoder),
        cmocka_unit_test(test_beyond_the_search_is_the_rate_control),
        cmocka_unit_test(test_a_frame_that_fits_takes_the_first_quantiser),
        cmocka_unit_test(test_a_misleading_sample_still_keeps_to_the_budget),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
