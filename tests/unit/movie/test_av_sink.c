/* mp_av_sink refusals and file handling: bad params, MOV on stdout, full-range ProRes, frames out
 * of order, audio without an audio stream or after its end, an existing output, a missing
 * folder; abort and failed finishes leave no temporary file; kind names round-trip; which
 * kinds give the pipeline's workers encoders of their own; encoded packets hold only their bytes;
 * rawvideo's packets are libavcodec's rawvideo encoder's bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>

#include "movie/av_sink.h"
#include "pipeline/formats.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/mlvpipe-av-sink-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.' || strstr(e->d_name, ".part")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    return rmdir(dir);
}

/* Names in dir other than . and .. */
static int entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static void params(mp_av_sink_params *p, mp_av_sink_kind kind)
{
    mp_av_sink_params_default(p);
    p->kind = kind;
    p->width = 32;
    p->height = 16;
    p->fps_num = 25;
    p->fps_den = 1;
}

static const char *path_of(const char *name)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static mp_status open_status(const mp_av_sink_params *p, const char *path, mp_error *err)
{
    mp_av_sink *s = NULL;
    mp_status st = mp_av_sink_open(&s, path, p, err);
    if (st == MP_OK)
        mp_av_sink_abort(s);
    else
        assert_null(s);
    return st;
}

/* The format table: every format is the sink of its own name, and the av sink kind names match
 * the --to names; raw formats have write_frame sinks, RGB ones write_rgb (movies in frame
 * order, image sequences from any thread). */
static void test_kind_names(void **state)
{
    (void)state;
    const char *names[] = {"prores422hq", "prores4444", "ffv1", "nut", "rawvideo",
                           "prores422", "prores422lt", "prores422proxy", "dnxhrhq", "dnxhrhqx",
                           "dnxhr444", "h264", "h265", "movraw"};
    for (int k = 0; k < 14; k++) {
        const mp_format *f = mp_format_find(names[k]);
        assert_non_null(f);
        assert_int_equal(f->input, MP_INPUT_RGB);
        assert_string_equal(mp_av_sink_kind_name((mp_av_sink_kind)k), names[k]);
    }
    const mp_format *f;
    size_t count = 0;
    for (size_t i = 0; (f = mp_format_at(i)); i++, count++) {
        assert_string_equal(f->ops->name, f->name);
        assert_ptr_equal(mp_format_find(f->name), f);
        assert_ptr_equal(mp_sink_find(f->name), f->ops);
        if (f->input == MP_INPUT_RGB)
            assert_true(f->ops->write_rgb && !f->ops->write_frame &&
                        f->ops->concurrent_frames == f->sequence);
        else
            assert_true(f->ops->write_frame && !f->ops->write_rgb);
    }
    assert_int_equal(count, 19);
    assert_null(mp_format_find("prores"));
    assert_null(mp_format_find("wav"));   /* a sink, but only beside a DNG sequence */
    assert_non_null(mp_sink_find("wav"));
}

static void test_bad_params(void **state)
{
    (void)state;
    mp_av_sink_params p;
    mp_error err;
    params(&p, AV_SINK_FFV1);
    p.width = 1;
    assert_int_equal(open_status(&p, path_of("a.mkv"), &err), MP_ERR_ARG);
    params(&p, AV_SINK_FFV1);
    p.height = 20000;
    assert_int_equal(open_status(&p, path_of("a.mkv"), &err), MP_ERR_ARG);
    params(&p, AV_SINK_FFV1);
    p.fps_den = 0;
    assert_int_equal(open_status(&p, path_of("a.mkv"), &err), MP_ERR_ARG);
    params(&p, (mp_av_sink_kind)99);
    assert_int_equal(open_status(&p, path_of("a.mkv"), &err), MP_ERR_ARG);
    /* DNxHR takes 256x120 and up. */
    params(&p, AV_SINK_DNXHR_HQ);
    p.width = 254;
    assert_int_equal(open_status(&p, path_of("a.mov"), &err), MP_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "at least 256x120"));
    /* MOV cannot be streamed. */
    params(&p, AV_SINK_PRORES_4444);
    assert_int_equal(open_status(&p, "-", &err), MP_ERR_ARG);
    assert_non_null(strstr(err.msg, "cannot be streamed"));
    /* Full-range ProRes and unsupported matrices. */
    params(&p, AV_SINK_PRORES_422HQ);
    p.yuv_range = AVCOL_RANGE_JPEG;
    assert_int_equal(open_status(&p, path_of("a.mov"), &err), MP_ERR_UNSUPPORTED);
    params(&p, AV_SINK_PRORES_422HQ);
    p.yuv_matrix = AVCOL_SPC_YCGCO;
    assert_int_equal(open_status(&p, path_of("a.mov"), &err), MP_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "/a.mov: "));   /* every message names the output */
    /* rawvideo has no audio; audio formats are checked. */
    params(&p, AV_SINK_RAWVIDEO);
    p.audio = (mp_audio_format){1, 1, 2, 48000, 192000, 4, 16};
    assert_int_equal(open_status(&p, path_of("a.raw"), &err), MP_ERR_ARG);
    params(&p, AV_SINK_NUT);
    p.audio = (mp_audio_format){1, 3, 2, 48000, 192000, 4, 16};   /* float */
    assert_int_not_equal(open_status(&p, path_of("a.nut"), &err), MP_OK);
    /* A bad time code string. */
    params(&p, AV_SINK_PRORES_4444);
    snprintf(p.timecode, sizeof p.timecode, "25:99:00:00");
    assert_int_equal(open_status(&p, path_of("a.mov"), &err), MP_ERR_ARG);
    assert_non_null(strstr(err.msg, "time code"));
    assert_non_null(strstr(err.msg, "/a.mov: "));
    assert_int_equal(entries(), 0);
}

static void write_frames(mp_av_sink *s, uint64_t first, int count, mp_status want)
{
    static uint16_t plane[32 * 16];
    const uint16_t *const rgb[3] = {plane, plane, plane};
    mp_error err;
    for (int i = 0; i < count; i++)
        assert_int_equal(mp_av_sink_write_rgb(s, rgb, 32, first + (uint64_t)i, &err),
                         i == count - 1 ? want : MP_OK);
}

static void test_order_and_audio(void **state)
{
    (void)state;
    mp_av_sink_params p;
    params(&p, AV_SINK_FFV1);
    p.first_frame = 100;
    mp_av_sink *s;
    mp_error err;
    assert_int_equal(mp_av_sink_open(&s, path_of("o.mkv"), &p, &err), MP_OK);
    write_frames(s, 100, 2, MP_OK);
    assert_int_equal(mp_av_sink_frames_written(s), 2);
    /* 103 skips 102; 101 again goes backwards. */
    static uint16_t plane[32 * 16];
    const uint16_t *const rgb[3] = {plane, plane, plane};
    assert_int_equal(mp_av_sink_write_rgb(s, rgb, 32, 103, &err), MP_ERR_RANGE);
    assert_non_null(strstr(err.msg, "frame 103 arrived, 102 expected"));
    assert_int_equal(mp_av_sink_write_rgb(s, rgb, 32, 101, &err), MP_ERR_RANGE);
    assert_int_equal(mp_av_sink_write_rgb(s, rgb, 31, 102, &err), MP_ERR_ARG);   /* stride < width */
    uint8_t pcm[16] = {0};
    assert_int_equal(mp_av_sink_write_audio(s, pcm, sizeof pcm, &err), MP_ERR_ARG);
    assert_non_null(strstr(err.msg, "without audio"));
    assert_int_equal(mp_av_sink_end_audio(s, &err), MP_OK);   /* no audio: nothing to end */
    write_frames(s, 102, 1, MP_OK);
    assert_int_equal(mp_av_sink_finish(s, &err), MP_OK);
    assert_int_equal(access(path_of("o.mkv"), F_OK), 0);
    assert_int_equal(entries(), 1);

    params(&p, AV_SINK_NUT);
    p.audio = (mp_audio_format){1, 1, 2, 48000, 192000, 4, 16};
    assert_int_equal(mp_av_sink_open(&s, path_of("a.nut"), &p, &err), MP_OK);
    assert_int_equal(mp_av_sink_write_audio(s, pcm, sizeof pcm, &err), MP_OK);
    assert_int_equal(mp_av_sink_end_audio(s, &err), MP_OK);
    assert_int_equal(mp_av_sink_write_audio(s, pcm, sizeof pcm, &err), MP_ERR_ARG);
    assert_non_null(strstr(err.msg, "after its end"));
    mp_av_sink_abort(s);
    assert_int_equal(entries(), 1);
}

static void test_files(void **state)
{
    (void)state;
    mp_av_sink_params p;
    params(&p, AV_SINK_PRORES_422HQ);
    mp_av_sink *s;
    mp_error err;
    /* The temporary file sits beside the output until finish; abort removes it. */
    assert_int_equal(mp_av_sink_open(&s, path_of("f.mov"), &p, &err), MP_OK);
    write_frames(s, 0, 3, MP_OK);
    assert_int_equal(entries(), 1);
    assert_int_not_equal(access(path_of("f.mov"), F_OK), 0);
    mp_av_sink_abort(s);
    assert_int_equal(entries(), 0);
    /* No frames: refused, nothing left. */
    assert_int_equal(mp_av_sink_open(&s, path_of("f.mov"), &p, &err), MP_OK);
    assert_int_equal(mp_av_sink_finish(s, &err), MP_ERR_ARG);
    assert_int_equal(entries(), 0);
    /* An existing output is kept unless overwrite. */
    FILE *f = fopen(path_of("f.mov"), "w");
    fputs("keep", f);
    fclose(f);
    assert_int_equal(open_status(&p, path_of("f.mov"), &err), MP_ERR_IO);
    assert_non_null(strstr(err.msg, "f.mov"));
    assert_non_null(strstr(err.msg, "exists"));
    p.overwrite = 1;
    assert_int_equal(mp_av_sink_open(&s, path_of("f.mov"), &p, &err), MP_OK);
    write_frames(s, 0, 1, MP_OK);
    assert_int_equal(mp_av_sink_finish(s, &err), MP_OK);
    f = fopen(path_of("f.mov"), "rb");
    char head[12] = {0};
    assert_int_equal(fread(head, 1, sizeof head, f), sizeof head);
    fclose(f);
    assert_memory_not_equal(head, "keep", 4);
    assert_int_equal(entries(), 1);
    /* A folder that does not exist: the path is named. */
    assert_int_equal(open_status(&p, path_of("no/such/x.mov"), &err), MP_ERR_IO);
    assert_non_null(strstr(err.msg, "no/such/x.mov"));
    unlink(path_of("f.mov"));
}

/* Workers get encoders of their own for ProRes, NUT and rawvideo; DNxHR (state carried from
 * frame to frame) and FFV1 (~380 MiB of context per encoder at 1080p) stay on the sink's one
 * encoder, which then slice-threads. */
static void test_worker_encoders(void **state)
{
    (void)state;
    for (int k = 0; k <= AV_SINK_DNXHR_444; k++) {
        mp_av_sink_params p;
        mp_error err;
        mp_av_sink *s = NULL;
        params(&p, (mp_av_sink_kind)k);
        p.width = 256;
        p.height = 120;
        p.threads = 2;
        assert_int_equal(mp_av_sink_open(&s, path_of("w.out"), &p, &err), MP_OK);
        mp_av_encoder *enc = NULL;
        assert_int_equal(mp_av_encoder_new(s, &enc, &err), MP_OK);
        int shared = k == AV_SINK_FFV1 || k == AV_SINK_DNXHR_HQ || k == AV_SINK_DNXHR_HQX ||
                     k == AV_SINK_DNXHR_444;
        if (shared)
            assert_null(enc);
        else
            assert_non_null(enc);
        assert_non_null(mp_av_sink_encoder(s));
        mp_av_encoder_free(enc);
        mp_av_sink_abort(s);
    }
    assert_int_equal(entries(), 0);
}

/* n samples of 16-bit noise from seed (a linear congruential generator). */
static void noise(uint16_t *v, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = (uint16_t)(seed >> 16);
    }
}

/* A w x h sink of kind k writing name in dir. */
static mp_av_sink *open_sized(int k, uint32_t w, uint32_t h, const char *name)
{
    mp_av_sink_params p;
    mp_error err;
    mp_av_sink *s = NULL;
    params(&p, (mp_av_sink_kind)k);
    p.width = w;
    p.height = h;
    if (mp_av_sink_open(&s, path_of(name), &p, &err) != MP_OK)
        fail_msg("%s", err.msg);
    return s;
}

/* A packet waits in the pipeline's slots, so mp_av_encode_rgb hands out one whose buffer is its
 * bytes and the padding (FFV1's encoder writes into a buffer sized for 16-bit RGB's worst
 * case): at most an eighth more, for every kind, on a noisy picture. */
static void test_packets_fitted(void **state)
{
    (void)state;
    enum { W = 256, H = 120 };
    static uint16_t rgb[3][W * H];
    for (int c = 0; c < 3; c++)
        noise(rgb[c], W * H, 99 + (uint32_t)c);
    const uint16_t *const planes[3] = {rgb[0], rgb[1], rgb[2]};
    for (int k = 0; k <= AV_SINK_DNXHR_444; k++) {
        mp_error err;
        mp_av_sink *s = open_sized(k, W, H, "p.out");
        AVPacket *pkt = NULL;
        assert_int_equal(mp_av_encode_rgb(mp_av_sink_encoder(s), planes, W, &pkt, &err), MP_OK);
        assert_non_null(pkt->buf);
        size_t fitted = (size_t)pkt->size + AV_INPUT_BUFFER_PADDING_SIZE;
        if (pkt->buf->size > fitted + fitted / 8)
            fail_msg("%s: a packet of %d bytes in a buffer of %zu", mp_av_sink_kind_name(k),
                     pkt->size, pkt->buf->size);
        av_packet_free(&pkt);
        mp_av_sink_abort(s);
    }
    assert_int_equal(entries(), 0);
}

/* A picture given row by row (mp_av_encode_rows_begin, _row, _end) is the same packet as the
 * same picture given as planes, for every kind with worker encoders; a frame left half-way
 * does not change the next one. */
static void test_rows_as_planes(void **state)
{
    (void)state;
    enum { W = 256, H = 120 };
    static uint16_t rgb[3][W * H];
    for (int c = 0; c < 3; c++)
        noise(rgb[c], W * H, 41 + (uint32_t)c);
    const uint16_t *const planes[3] = {rgb[0], rgb[1], rgb[2]};
    int tried = 0;
    for (int k = 0; k <= AV_SINK_MOVRAW; k++) {
        if (k == AV_SINK_H264 || k == AV_SINK_H265)   /* review kinds: no worker encoders */
            continue;
        mp_error err;
        mp_av_sink *s = open_sized(k, W, H, "r.out");
        mp_av_encoder *enc = NULL;
        assert_int_equal(mp_av_encoder_new(s, &enc, &err), MP_OK);
        if (enc && mp_av_encoder_takes_rows(enc)) {
            AVPacket *want = NULL, *got = NULL;
            assert_int_equal(mp_av_encode_rgb(enc, planes, W, &want, &err), MP_OK);
            assert_int_equal(mp_av_encode_rows_begin(enc, &err), MP_OK);   /* given up */
            for (int run = 0; run < 2; run++) {
                assert_int_equal(mp_av_encode_rows_begin(enc, &err), MP_OK);
                for (uint32_t y = 0; y < H; y++) {
                    const uint16_t *const row[3] = {rgb[0] + y * W, rgb[1] + y * W,
                                                    rgb[2] + y * W};
                    mp_av_encode_row(enc, y, row);
                }
                assert_int_equal(mp_av_encode_rows_end(enc, &got, &err), MP_OK);
                assert_int_equal(got->size, want->size);
                assert_memory_equal(got->data, want->data, (size_t)want->size);
                av_packet_free(&got);
            }
            av_packet_free(&want);
            tried++;
        }
        mp_av_encoder_free(enc);
        mp_av_sink_abort(s);
    }
    assert_int_equal(tried, 8);   /* ProRes (5), NUT, rawvideo, movraw */
    assert_int_equal(entries(), 0);
}

/* rawvideo and movraw pack their packets themselves (no encoder): the same bytes as
 * libavcodec's rawvideo encoder gives for the same picture as an rgb48le (rawvideo) or
 * rgb48be (movraw) frame, from planes with a row stride wider than the picture (the active
 * area of a larger frame), at an odd width; the padding after the picture stays zero. */
static void test_rawvideo_as_libavcodec(void **state)
{
    (void)state;
    enum { W = 37, H = 5, STRIDE = 41 };
    static uint16_t rgb[3][STRIDE * H];
    for (int c = 0; c < 3; c++)
        noise(rgb[c], STRIDE * H, 7 + (uint32_t)c);
    const uint16_t *const planes[3] = {rgb[0], rgb[1], rgb[2]};
    const struct {
        mp_av_sink_kind kind;
        const char *file;
        enum AVPixelFormat pix_fmt;
        int big_endian;
    } cases[] = {{AV_SINK_RAWVIDEO, "r.raw", AV_PIX_FMT_RGB48LE, 0},
                 {AV_SINK_MOVRAW, "r.mov", AV_PIX_FMT_RGB48BE, 1}};
    for (size_t n = 0; n < sizeof cases / sizeof cases[0]; n++) {
        mp_av_sink_params p;
        mp_error err;
        mp_av_sink *s = NULL;
        params(&p, cases[n].kind);
        p.width = W;
        p.height = H;
        assert_int_equal(mp_av_sink_open(&s, path_of(cases[n].file), &p, &err), MP_OK);
        AVPacket *pkt = NULL;
        assert_int_equal(mp_av_encode_rgb(mp_av_sink_encoder(s), planes, STRIDE, &pkt, &err),
                         MP_OK);
        mp_av_sink_abort(s);

        const AVCodec *codec = avcodec_find_encoder_by_name("rawvideo");
        AVCodecContext *c = avcodec_alloc_context3(codec);
        AVFrame *f = av_frame_alloc();
        AVPacket *want = av_packet_alloc();
        assert_true(c && f && want);
        c->width = f->width = W;
        c->height = f->height = H;
        c->pix_fmt = cases[n].pix_fmt;
        f->format = cases[n].pix_fmt;
        c->time_base = (AVRational){1, 25};
        assert_int_equal(avcodec_open2(c, codec, NULL), 0);
        assert_int_equal(av_frame_get_buffer(f, 0), 0);
        const int low = cases[n].big_endian;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int k = 0; k < 3; k++) {
                    uint8_t *at = f->data[0] + y * f->linesize[0] + (x * 3 + k) * 2;
                    at[low] = (uint8_t)rgb[k][y * STRIDE + x];
                    at[1 - low] = (uint8_t)(rgb[k][y * STRIDE + x] >> 8);
                }
        assert_int_equal(avcodec_send_frame(c, f), 0);
        assert_int_equal(avcodec_receive_packet(c, want), 0);
        assert_int_equal(pkt->size, want->size);
        assert_memory_equal(pkt->data, want->data, (size_t)want->size);
        for (int i = 0; i < AV_INPUT_BUFFER_PADDING_SIZE; i++)
            assert_int_equal(pkt->data[pkt->size + i], 0);
        av_packet_free(&want);
        av_packet_free(&pkt);
        av_frame_free(&f);
        avcodec_free_context(&c);
    }
    assert_int_equal(entries(), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test_setup_teardown(test_bad_params, setup, teardown),
        cmocka_unit_test_setup_teardown(test_order_and_audio, setup, teardown),
        cmocka_unit_test_setup_teardown(test_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_worker_encoders, setup, teardown),
        cmocka_unit_test_setup_teardown(test_packets_fitted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rawvideo_as_libavcodec, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rows_as_planes, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
