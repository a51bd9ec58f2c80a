/* Unit tests for src/report: the numbers of a frame (histogram bins per field and channel,
 * clipped and crushed fractions, band means over frames with each tile's band fixed), the
 * dynamic range of dual-ISO levels, the JSON (parses with our reader, same keys for a clip
 * that could not be read) and the PNG encoder (decoded back by libavcodec). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libavcodec/avcodec.h>

#include "movie/png.h"
#include "report_priv.h"

#define BLACK 2048u
#define WHITE 15000u

static void frame_make(mp_frame *f, uint32_t w, uint32_t h, uint16_t fill)
{
    mp_error e;
    memset(f, 0, sizeof *f);
    assert_int_equal(mp_frame_reserve(f, w, h, &e), MP_OK);
    f->bits = 14;
    f->black = BLACK;
    f->white = WHITE;
    f->cfa = MP_CFA_RGGB;
    for (size_t i = 0; i < (size_t)w * h; i++)
        f->data[i] = fill;
}

static void single_levels(dualiso_levels *lv)
{
    memset(lv, 0, sizeof *lv);
    lv->in_black = BLACK;
    lv->in_white = WHITE;
}

/* One EV below the clip falls in bin 4 (quarter EVs), black in "crushed", white in "clipped";
 * the channel follows the CFA. */
static void test_histogram_single(void **state)
{
    (void)state;
    mp_frame f;
    frame_make(&f, 8, 4, (uint16_t)(BLACK + (WHITE - BLACK) / 2));
    f.data[0] = BLACK;      /* R */
    f.data[1] = WHITE;      /* G */
    f.data[8 + 1] = 0;      /* B, below black */
    dualiso_levels lv;
    single_levels(&lv);
    report_lut lut = {{NULL, NULL}, 0};
    static uint64_t hist[2][3][MP_REPORT_HIST_BINS + 2];
    memset(hist, 0, sizeof hist);
    mp_report_frame fr;
    memset(&fr, 0, sizeof fr);
    mp_error e;
    assert_int_equal(mp_report_measure_raw(&f, &lv, &lut, hist, &fr, &e), MP_OK);
    assert_int_equal(hist[0][0][0], 1);
    assert_int_equal(hist[0][1][MP_REPORT_HIST_BINS + 1], 1);
    assert_int_equal(hist[0][2][0], 1);
    assert_int_equal(hist[0][0][1 + 4], 8 - 1);    /* R: 8 of 32 samples */
    assert_int_equal(hist[0][1][1 + 4], 16 - 1);
    assert_int_equal(hist[0][2][1 + 4], 8 - 1);
    assert_true(fabs(fr.field_clipped[0] - 1.0 / 32) < 1e-12);
    uint64_t field1 = 0;
    for (int c = 0; c < 3; c++)
        for (uint32_t b = 0; b < MP_REPORT_HIST_BINS + 2; b++)
            field1 += hist[1][c][b];
    assert_int_equal(field1, 0);
    mp_report_lut_free(&lut);
    mp_frame_free(&f);
}

/* Dual ISO: rows go to the field the phase gives them, each measured against its own black
 * and clip (the bright field's black is 100 DN higher here). */
static void test_histogram_fields(void **state)
{
    (void)state;
    dualiso_levels lv;
    single_levels(&lv);
    lv.is_dual = 1;
    lv.phase = 1;    /* rows 1, 2 bright; 0, 3 dark */
    lv.black_dark = BLACK;
    lv.black_bright = BLACK + 100;
    lv.white_dark = lv.white_bright = WHITE;
    mp_frame f;
    frame_make(&f, 4, 4, (uint16_t)(BLACK + 100));
    report_lut lut = {{NULL, NULL}, 0};
    static uint64_t hist[2][3][MP_REPORT_HIST_BINS + 2];
    memset(hist, 0, sizeof hist);
    mp_report_frame fr;
    memset(&fr, 0, sizeof fr);
    mp_error e;
    assert_int_equal(mp_report_measure_raw(&f, &lv, &lut, hist, &fr, &e), MP_OK);
    uint64_t bright_crushed = hist[1][0][0] + hist[1][1][0] + hist[1][2][0];
    uint64_t dark_crushed = hist[0][0][0] + hist[0][1][0] + hist[0][2][0];
    assert_int_equal(bright_crushed, 8);   /* at the bright field's black */
    assert_int_equal(dark_crushed, 0);     /* 100 DN above the dark field's */
    mp_report_lut_free(&lut);
    mp_frame_free(&f);
}

/* Two frames of 2x1 tiles: tile 0 at 1/8 of the clip in frame 0 and 1/8 * 1.02 in frame 1,
 * tile 1 clipped in frame 1 (so in no band). Band 1 ([2, 4) EV) holds tile 0 in both frames
 * with the values given; the noise of a flat tile is 0. */
static void test_bands_fixed_tiles(void **state)
{
    (void)state;
    mp_clip_report r;
    memset(&r, 0, sizeof r);
    mp_report_frame frames[2];
    memset(frames, 0, sizeof frames);
    r.frames = frames;
    r.frame_count = 2;
    const uint32_t range = WHITE - BLACK;
    for (int i = 0; i < 2; i++) {
        mp_frame f;
        uint16_t level = (uint16_t)(BLACK + lround(range / 8.0 * (i ? 1.02 : 1.0)));
        frame_make(&f, 2 * MP_REPORT_TILE, MP_REPORT_TILE, level);
        if (i)
            f.data[MP_REPORT_TILE + 3] = WHITE;
        mp_error e;
        assert_int_equal(mp_report_measure_linear(&f, &frames[i], &e), MP_OK);
        assert_true(fabs(frames[i].clipped - (i ? 1.0 / (2 * MP_REPORT_TILE * MP_REPORT_TILE) : 0))
                    < 1e-12);
        mp_frame_free(&f);
    }
    mp_report_bands(&r);
    for (int i = 0; i < 2; i++) {
        assert_null(frames[i].tile_rel);
        assert_int_equal(frames[i].band_tiles[1], 1);
        assert_int_equal(frames[i].band_tiles[0] + frames[i].band_tiles[2], 0);
        assert_true(fabs(frames[i].band_mean[1] - lround(range / 8.0 * (i ? 1.02 : 1.0)) /
                         (double)range) < 1e-6);
        assert_true(frames[i].band_noise[1] == 0);
    }
    report_band_summary s;
    mp_report_band_summary_get(&r, 1, &s);
    assert_int_equal(s.frames, 2);
    /* two values: sample standard deviation |m1 - m0| / sqrt(2), in % of their mean */
    double m0 = frames[0].band_mean[1], m1 = frames[1].band_mean[1];
    assert_true(fabs(s.flicker_pct - 100 * fabs(m1 - m0) / sqrt(2) / ((m0 + m1) / 2)) < 1e-9);
    assert_true(s.flicker_pct > 1.3 && s.flicker_pct < 1.5);
}

static void test_dynamic_range(void **state)
{
    (void)state;
    dualiso_levels lv;
    memset(&lv, 0, sizeof lv);
    lv.is_dual = 1;
    lv.black_dark = lv.black_bright = 2048;
    lv.white_dark = lv.white_bright = 2048 + 8192;
    lv.noise_dark = 8;
    lv.noise_bright = 16;
    lv.ratio = 16;
    double dark, bright, combined;
    mp_report_dynamic_range(&lv, &dark, &bright, &combined);
    assert_true(fabs(dark - 10) < 1e-12);        /* 8192 / 8 */
    assert_true(fabs(bright - 9) < 1e-12);       /* 8192 / 16 */
    assert_true(fabs(combined - 13) < 1e-12);    /* 8192 / (16 / 16) */
    lv.is_dual = 0;
    mp_report_dynamic_range(&lv, &dark, &bright, &combined);
    assert_true(dark == 0 && bright == 0 && combined == 0);
}

/* The keys of clip n of a parsed report, in order, joined by spaces. */
static void clip_keys(const mp_json_doc *d, uint32_t n, char *out, size_t size)
{
    uint32_t clips = MP_JSON_NONE;
    for (uint32_t k = d->nodes[0].child; k != MP_JSON_NONE; k = d->nodes[k].next)
        if (!strcmp(mp_json_key(d, k), "clips"))
            clips = k;
    assert_int_not_equal(clips, MP_JSON_NONE);
    uint32_t c = d->nodes[clips].child;
    for (uint32_t i = 0; i < n; i++)
        c = d->nodes[c].next;
    out[0] = 0;
    for (uint32_t k = d->nodes[c].child; k != MP_JSON_NONE; k = d->nodes[k].next) {
        strncat(out, mp_json_key(d, k), size - strlen(out) - 1);
        strncat(out, " ", size - strlen(out) - 1);
    }
}

/* A report of a clip that could not be opened and of one that could: both parse, with the
 * same keys; the status names what happened. */
static void test_json_schema(void **state)
{
    (void)state;
    mp_report_options o;
    mp_report_options_default(&o);
    mp_clip_report missing, fake;
    mp_error e;
    assert_int_not_equal(mp_report_clip("/nonexistent/A001.MLV", &o, &missing, &e), MP_OK);
    assert_int_not_equal(missing.status, MP_OK);
    memset(&fake, 0, sizeof fake);
    snprintf(fake.path, sizeof fake.path, "x/B\"002.MLV");
    fake.status = MP_ERR_DAMAGED;
    snprintf(fake.error, sizeof fake.error, "bad \x01 byte \xff");
    const mp_clip_report *list[2] = {&missing, &fake};
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(mp_report_json(list, 2, "test", &text, &len, &e), MP_OK);
    mp_json_doc d;
    assert_int_equal(mp_json_parse(text, len, "report", &d, &e), MP_OK);
    char a[1024], b[1024];
    clip_keys(&d, 0, a, sizeof a);
    clip_keys(&d, 1, b, sizeof b);
    assert_string_equal(a, b);
    assert_non_null(strstr(text, "\"status\": \"error\""));
    assert_non_null(strstr(text, "\"status\": \"damaged\""));
    mp_json_free(&d);
    free(text);
    assert_int_equal(mp_report_html(list, 2, "test", &text, &len, &e), MP_OK);
    assert_non_null(strstr(text, "B&quot;002.MLV"));
    assert_null(strstr(text, "<script"));
    free(text);
    mp_report_free(&missing);
}

/* What we encode, libavcodec's PNG decoder gives back, pixel for pixel. */
static void test_png_round_trip(void **state)
{
    (void)state;
    enum { W = 37, H = 11 };
    uint8_t px[H][W * 3 + 5];   /* a stride wider than the row */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W * 3 + 5; x++)
            px[y][x] = (uint8_t)(x * 7 + y * 31);
    uint8_t *png = NULL;
    size_t size = 0;
    mp_error e;
    assert_int_equal(mp_png_encode_rgb24(&px[0][0], W, H, sizeof px[0], &png, &size, &e), MP_OK);
    assert_memory_equal(png, "\x89PNG\r\n\x1a\n", 8);
    const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_PNG);
    AVCodecContext *ctx = avcodec_alloc_context3(codec);
    AVPacket *pkt = av_packet_alloc();
    AVFrame *frame = av_frame_alloc();
    assert_true(ctx && pkt && frame && avcodec_open2(ctx, codec, NULL) == 0);
    pkt->data = png;
    pkt->size = (int)size;
    assert_int_equal(avcodec_send_packet(ctx, pkt), 0);
    assert_int_equal(avcodec_receive_frame(ctx, frame), 0);
    assert_int_equal(frame->width, W);
    assert_int_equal(frame->height, H);
    assert_int_equal(frame->format, AV_PIX_FMT_RGB24);
    for (int y = 0; y < H; y++)
        assert_memory_equal(frame->data[0] + y * frame->linesize[0], px[y], W * 3);
    av_frame_free(&frame);
    pkt->data = NULL;
    av_packet_free(&pkt);
    avcodec_free_context(&ctx);
    free(png);
    assert_int_equal(mp_png_encode_rgb24(&px[0][0], 0, H, sizeof px[0], &png, &size, &e),
                     MP_ERR_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_histogram_single),
        cmocka_unit_test(test_histogram_fields),
        cmocka_unit_test(test_bands_fixed_tiles),
        cmocka_unit_test(test_dynamic_range),
        cmocka_unit_test(test_json_schema),
        cmocka_unit_test(test_png_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
