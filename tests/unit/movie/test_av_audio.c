/* The movie's PCM track: sample positions of frames, alignment (drop / silence), packets
 * contiguous and ending exactly with the video, partial sample frames across pushes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "movie/av_audio.h"

/* Collects what mp_av_audio_emit sends. */
typedef struct sink {
    uint8_t data[1 << 20];
    size_t bytes;
    int64_t next_pts;
    int packets;
} sink;

static mp_status collect(void *opaque, const uint8_t *data, size_t bytes, int64_t pts,
                         uint32_t samples, mp_error *err)
{
    (void)err;
    sink *s = opaque;
    if (s->packets)
        assert_int_equal(pts, s->next_pts);   /* contiguous */
    assert_int_equal(bytes % samples, 0);
    assert_true(s->bytes + bytes <= sizeof s->data);
    memcpy(s->data + s->bytes, data, bytes);
    s->bytes += bytes;
    s->next_pts = pts + samples;
    s->packets++;
    return MP_OK;
}

static mp_audio_format stereo16(uint32_t rate)
{
    mp_audio_format f = {1, 1, 2, rate, rate * 4, 4, 16};
    return f;
}

static void test_frame_start(void **state)
{
    (void)state;
    const AVRational r23 = {24000, 1001}, r25 = {25, 1}, r2997 = {30000, 1001};
    assert_int_equal(mp_av_audio_frame_start(1, 48000, r23), 2002);
    assert_int_equal(mp_av_audio_frame_start(10, 48000, r23), 20020);
    assert_int_equal(mp_av_audio_frame_start(1, 44100, r25), 1764);
    /* 48000 * 1001 / 30000 = 1601.6: rounded per frame position, not accumulated. */
    assert_int_equal(mp_av_audio_frame_start(1, 48000, r2997), 1602);
    assert_int_equal(mp_av_audio_frame_start(5, 48000, r2997), 8008);
    assert_int_equal(mp_av_audio_frame_start(3, 48000, r2997), 4805);   /* 4804.8 */
    /* Large frame numbers do not overflow. */
    assert_int_equal(mp_av_audio_frame_start(4000000000ull, 48000, r23), 8008000000000ll);
}

/* offset > 0 drops the start; the first packet sits at the first frame's position. */
static void test_drop_and_segment_start(void **state)
{
    (void)state;
    static sink out;
    memset(&out, 0, sizeof out);
    mp_av_audio a;
    mp_audio_format f = stereo16(48000);
    assert_int_equal(mp_av_audio_init(&a, &f, (AVRational){24000, 1001}, 10, 3, NULL), MP_OK);
    uint8_t pcm[4 * 5000];
    for (size_t i = 0; i < sizeof pcm; i++)
        pcm[i] = (uint8_t)(i / 4);   /* sample frame index, low byte */
    /* Pushed in pieces that split sample frames. */
    assert_int_equal(mp_av_audio_push(&a, pcm, 7, NULL), MP_OK);
    assert_int_equal(mp_av_audio_push(&a, pcm + 7, sizeof pcm - 7, NULL), MP_OK);
    assert_int_equal(mp_av_audio_emit(&a, 11, 0, collect, &out, NULL), MP_OK);
    assert_int_equal(out.bytes, 2002 * 4);
    assert_int_equal(out.next_pts, 22022);                /* frame 11 at 48 kHz */
    assert_int_equal(out.data[0], 3);                     /* three sample frames dropped */
    /* At the end: 5000 - 3 given, the segment of 2 frames needs 4004: all of it, no pad. */
    assert_int_equal(mp_av_audio_emit(&a, 12, 1, collect, &out, NULL), MP_OK);
    assert_int_equal(out.bytes, 4004 * 4);
    assert_int_equal(out.data[4 * 4003], (uint8_t)(4003 + 3));
    mp_av_audio_free(&a);
}

/* offset < 0 puts silence first; pad fills what is missing at the end, 8-bit silence = 0x80. */
static void test_silence_and_pad(void **state)
{
    (void)state;
    static sink out;
    memset(&out, 0, sizeof out);
    mp_av_audio a;
    mp_audio_format f = {1, 1, 1, 8000, 8000, 1, 8};
    assert_int_equal(mp_av_audio_init(&a, &f, (AVRational){25, 1}, 0, -100, NULL), MP_OK);
    uint8_t pcm[200];
    memset(pcm, 7, sizeof pcm);
    assert_int_equal(mp_av_audio_push(&a, pcm, sizeof pcm, NULL), MP_OK);
    /* Two frames of 320 samples: 100 silence, 200 PCM, 340 padding. */
    assert_int_equal(mp_av_audio_emit(&a, 2, 1, collect, &out, NULL), MP_OK);
    assert_int_equal(out.bytes, 640);
    assert_int_equal(out.next_pts, 640);
    for (size_t i = 0; i < 640; i++)
        assert_int_equal(out.data[i], i >= 100 && i < 300 ? 7 : 0x80);
    mp_av_audio_free(&a);
}

/* Without pad, emission stops where the pushed audio ends and resumes when more arrives;
 * audio beyond the last frame is never emitted. */
static void test_waits_for_audio(void **state)
{
    (void)state;
    static sink out;
    memset(&out, 0, sizeof out);
    mp_av_audio a;
    mp_audio_format f = stereo16(48000);
    assert_int_equal(mp_av_audio_init(&a, &f, (AVRational){24, 1}, 0, 0, NULL), MP_OK);
    static uint8_t pcm[4 * 48000];
    assert_int_equal(mp_av_audio_push(&a, pcm, 4 * 1000, NULL), MP_OK);
    assert_int_equal(mp_av_audio_emit(&a, 1, 0, collect, &out, NULL), MP_OK);
    assert_int_equal(out.bytes, 4 * 1000);
    assert_int_equal(mp_av_audio_push(&a, pcm, sizeof pcm - 4000, NULL), MP_OK);
    assert_int_equal(mp_av_audio_emit(&a, 3, 1, collect, &out, NULL), MP_OK);
    assert_int_equal(out.bytes, 4 * 6000);
    assert_int_equal(out.next_pts, 6000);
    mp_av_audio_free(&a);
}

static void test_bad_offset(void **state)
{
    (void)state;
    mp_av_audio a;
    mp_error err;
    mp_audio_format f = stereo16(48000);
    assert_int_equal(mp_av_audio_init(&a, &f, (AVRational){24, 1}, 0, -48000ll * 86401, &err),
                     MP_ERR_ARG);
    /* A huge positive offset just drops everything. */
    assert_int_equal(mp_av_audio_init(&a, &f, (AVRational){24, 1}, 0, INT64_MAX, &err), MP_OK);
    uint8_t pcm[400] = {0};
    assert_int_equal(mp_av_audio_push(&a, pcm, sizeof pcm, NULL), MP_OK);
    assert_int_equal(a.tail, 0);
    mp_av_audio_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_start),
        cmocka_unit_test(test_drop_and_segment_start),
        cmocka_unit_test(test_silence_and_pad),
        cmocka_unit_test(test_waits_for_audio),
        cmocka_unit_test(test_bad_offset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
