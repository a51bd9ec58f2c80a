/* WAV: alignment maths, header fields (RIFF, bext, iXML, fmt, data) read back from the file,
 * start trimming/padding in whole sample frames, exact length, temp + rename. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode/sink.h"
#include "encode/wav.h"
#include "pipeline/formats.h"

static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32(const uint8_t *p) { return rd16(p) | rd16(p + 2) << 16; }

static void test_alignment_maths(void **state)
{
    (void)state;
    assert_int_equal(mp_audio_align(1000, 41000, 48000), 1920);    /* drop 40 ms */
    assert_int_equal(mp_audio_align(41000, 1000, 48000), -1920);   /* pad 40 ms */
    assert_int_equal(mp_audio_align(0, 10, 48000), 0);             /* 0.48 -> 0 */
    assert_int_equal(mp_audio_align(0, 11, 48000), 1);             /* 0.528 -> 1 */
    assert_int_equal(mp_audio_align(11, 0, 48000), -1);
    assert_int_equal(mp_audio_align(0, 1000000, 44100), 44100);
    assert_true(mp_audio_align(0, UINT64_MAX, 768000) > 0);        /* no overflow */
    assert_true(mp_audio_align(UINT64_MAX, 0, 768000) < 0);

    mp_sink_params p = {.audio = {.sample_rate = 48000}};
    mp_rational f25 = {25, 1}, f23 = {24000, 1001};
    p.audio_start_us = 1000;
    p.video_start_us = 1500;
    p.first_frame = 10;
    p.clip_first_frame = 0;
    assert_int_equal(mp_wav_start_offset(&p, f25), 19200 + 24);
    p.first_frame = 0;
    p.clip_first_frame = 2;   /* exporting from before the clip's first frame: pad */
    assert_int_equal(mp_wav_start_offset(&p, f25), -3840 + 24);
    p.frame_count = 50;
    assert_int_equal(mp_wav_length(&p, f23), 100100);
    p.frame_count = 1;
    assert_int_equal(mp_wav_length(&p, f23), 2002);
    p.first_frame = 24;
    assert_int_equal(mp_wav_time_reference(&p, f23), 48048);
    assert_int_equal(mp_wav_time_reference(&p, f25), 46080);
}

static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        fail_msg("%s missing", path);
    fseek(fp, 0, SEEK_END);
    *len = (size_t)ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *buf = malloc(*len + 1);
    assert_int_equal(fread(buf, 1, *len, fp), *len);
    fclose(fp);
    return buf;
}

typedef struct wav_view {
    const uint8_t *bext, *ixml, *fmt, *data;
    uint32_t bext_size, ixml_size, data_size;
} wav_view;

/* Walks the RIFF chunks the way a reader does; fails on any inconsistency. */
static wav_view walk(const uint8_t *buf, size_t len)
{
    wav_view v = {0};
    assert_memory_equal(buf, "RIFF", 4);
    assert_int_equal(rd32(buf + 4), len - 8);
    assert_memory_equal(buf + 8, "WAVE", 4);
    assert_int_equal(len % 2, 0);
    size_t at = 12;
    const char *order[] = {"bext", "iXML", "fmt ", "data"};
    for (int i = 0; i < 4; i++) {
        assert_true(at + 8 <= len);
        assert_memory_equal(buf + at, order[i], 4);
        uint32_t size = rd32(buf + at + 4);
        assert_true(at + 8 + size <= len);
        const uint8_t *body = buf + at + 8;
        if (i == 0) { v.bext = body; v.bext_size = size; }
        if (i == 1) { v.ixml = body; v.ixml_size = size; }
        if (i == 2) { v.fmt = body; assert_int_equal(size, 16); }
        if (i == 3) { v.data = body; v.data_size = size; }
        at += 8 + size + (size & 1);
    }
    assert_int_equal(at, len);
    return v;
}

static char *temp_dir(void)
{
    char *dir = strdup("/tmp/mlvpipe-wav-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return dir;
}

static void remove_dir(char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

static void stereo_params(mp_sink_params *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->clip_name, sizeof p->clip_name, "M01-0001 & <x>");
    p->fps_num = 25000;
    p->fps_den = 1000;
    p->audio = (mp_audio_format){1, 1, 2, 48000, 192000, 4, 16};
    p->meta.camera = (mp_camera){1, "Canon EOS 5D Mark III", 0x80000285, "ABC"};
    p->meta.wall_clock = (mp_wall_clock){.present = 1, .year = 2024, .month = 7, .day = 4,
                                         .hour = 9, .minute = 8, .second = 7};
}

/* PCM whose sample frame i is (L = i, R = -i): a channel swap or a half-frame cut shows. */
static void write_ramp(mp_sink *s, uint32_t frames)
{
    int16_t *pcm = malloc(frames * 4);
    for (uint32_t i = 0; i < frames; i++) {
        pcm[2 * i] = (int16_t)i;
        pcm[2 * i + 1] = (int16_t)-(int32_t)i;
    }
    const uint8_t *b = (const uint8_t *)pcm;
    size_t left = frames * 4, piece = 3;   /* pieces that split sample frames */
    mp_error err;
    while (left) {
        size_t n = piece < left ? piece : left;
        assert_int_equal(mp_sink_write_audio(s, b, n, &err), MP_OK);
        b += n;
        left -= n;
        piece = piece * 7 % 1013 + 1;
    }
    free(pcm);
}

/* Fuzzing finding (fuzz_writers): a clip name with control characters or bytes that are not
 * UTF-8 (file names hold any) went into iXML as they were, which XML readers refuse. They
 * become '?'; valid UTF-8 and escapes stay whole even where the name is cut. */
static void test_ixml_name_is_xml(void **state)
{
    (void)state;
    mp_sink_params p;
    stereo_params(&p);
    snprintf(p.clip_name, sizeof p.clip_name, "a\x01" "b\tc\xc3\x28" "d\xed\xa0\x80" "e \xc3\xa9" " &<");
    mp_rational fps = {25, 1};
    uint8_t h[MP_WAV_HEADER_MAX];
    size_t n = mp_wav_header(&p, fps, 0, h);
    wav_view v = walk(h, n);
    assert_non_null(strstr((const char *)v.ixml,
                           "<PROJECT>a?b?c?(d???e \xc3\xa9 &amp;&lt;</PROJECT>"));
}

static void test_header_and_trim(void **state)
{
    (void)state;
    char *dir = temp_dir();
    mp_sink_params p;
    stereo_params(&p);
    p.audio_start_us = 1000;
    p.video_start_us = 1500;     /* 24 sample frames to drop */
    p.first_frame = 50;          /* TimeReference: 2 s at 25 fps */
    p.clip_first_frame = 50;
    p.frame_count = 2;           /* 3840 sample frames */
    mp_sink *s;
    mp_error err = {0};
    assert_int_equal(mp_sink_open(&s, mp_sink_find("wav"), dir, &p, &err), MP_OK);
    write_ramp(s, 5000);
    assert_int_equal(mp_sink_finish(s, &err), MP_OK);

    char path[600];
    snprintf(path, sizeof path, "%s/M01-0001 & <x>/M01-0001 & <x>.wav", dir);
    size_t len;
    uint8_t *buf = read_file(path, &len);
    wav_view v = walk(buf, len);
    assert_string_equal((const char *)v.bext, "M01-0001 & <x>");
    assert_string_equal((const char *)v.bext + 256, "Canon EOS 5D Mark III");
    assert_memory_equal(v.bext + 288, "JPCAN80000285ABC090807", 22);
    assert_memory_equal(v.bext + 320, "2024-07-04", 10);
    assert_memory_equal(v.bext + 330, "09:08:07", 8);
    assert_int_equal(rd32(v.bext + 338), 96000);   /* frame 50 at 25 fps, 48 kHz */
    assert_int_equal(rd32(v.bext + 342), 0);
    assert_int_equal(rd16(v.bext + 346), 1);
    assert_true(v.bext_size > 602);
    assert_memory_equal(v.bext + 602, "A=PCM,F=48000,W=16,M=stereo", 27);
    assert_int_equal(v.ixml_size, MP_WAV_IXML_SIZE);
    const char *x = (const char *)v.ixml;
    assert_true(strlen(x) < MP_WAV_IXML_SIZE);   /* NUL-padded to the declared size */
    assert_non_null(strstr(x, "<PROJECT>M01-0001 &amp; &lt;x&gt;</PROJECT>"));
    assert_non_null(strstr(x, "<MASTER_SPEED>25/1</MASTER_SPEED>"));
    assert_non_null(strstr(x, "<TIMECODE_RATE>25/1</TIMECODE_RATE>"));
    assert_non_null(strstr(x, "<TIMECODE_FLAG>NDF</TIMECODE_FLAG>"));
    assert_non_null(strstr(x, "<TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_LO>96000<"));
    assert_int_equal(rd16(v.fmt), 1);
    assert_int_equal(rd16(v.fmt + 2), 2);
    assert_int_equal(rd32(v.fmt + 4), 48000);
    assert_int_equal(rd32(v.fmt + 8), 192000);
    assert_int_equal(rd16(v.fmt + 12), 4);
    assert_int_equal(rd16(v.fmt + 14), 16);
    assert_int_equal(v.data_size, 3840 * 4);
    for (uint32_t i = 0; i < 3840; i++) {
        assert_int_equal((int16_t)rd16(v.data + 4 * i), (int16_t)(i + 24));
        assert_int_equal((int16_t)rd16(v.data + 4 * i + 2), (int16_t)-(int32_t)(i + 24));
    }
    free(buf);

    /* The final file exists: a second export is refused before anything is written. */
    assert_int_equal(mp_sink_open(&s, mp_sink_find("wav"), dir, &p, &err), MP_ERR_IO);
    assert_non_null(strstr(err.msg, ".wav: exists"));
    remove_dir(dir);
}

static void collect_log(void *opaque, mp_log_level level, const char *msg)
{
    char *out = opaque;
    snprintf(out + strlen(out), 1024 - strlen(out), "%d %s\n", (int)level, msg);
}

static void test_pad_start_and_end(void **state)
{
    (void)state;
    char *dir = temp_dir();
    char log[1024] = "";
    mp_sink_params p;
    stereo_params(&p);
    p.log = (mp_logger){collect_log, log};
    snprintf(p.clip_name, sizeof p.clip_name, "PAD");
    p.audio_start_us = 100000;   /* audio starts 100 ms (4800 frames) after the video */
    p.video_start_us = 0;
    p.frame_count = 5;           /* 9600 sample frames */
    mp_sink *s;
    mp_error err;
    assert_int_equal(mp_sink_open(&s, mp_sink_find("wav"), dir, &p, &err), MP_OK);
    write_ramp(s, 1000);         /* ends early: silence up to the video's length */
    assert_int_equal(mp_sink_finish(s, &err), MP_OK);
    char want[300];
    snprintf(want, sizeof want, "%d PAD: audio is padded with 4800 sample frames to start with "
             "frame 0\n%d PAD: audio ends 3800 sample frames before the video; padded with "
             "silence\n", MP_LOG_DEBUG, MP_LOG_INFO);
    assert_string_equal(log, want);
    char path[600];
    snprintf(path, sizeof path, "%s/PAD/PAD.wav", dir);
    size_t len;
    uint8_t *buf = read_file(path, &len);
    wav_view v = walk(buf, len);
    assert_int_equal(v.data_size, 9600 * 4);
    for (uint32_t i = 0; i < 9600; i++) {
        int32_t want = i >= 4800 && i < 5800 ? (int32_t)(i - 4800) : 0;
        assert_int_equal((int16_t)rd16(v.data + 4 * i), (int16_t)want);
        assert_int_equal((int16_t)rd16(v.data + 4 * i + 2), (int16_t)-want);
    }
    free(buf);
    remove_dir(dir);
}

static void test_odd_sized_8bit_mono(void **state)
{
    (void)state;
    char *dir = temp_dir();
    mp_sink_params p;
    stereo_params(&p);
    snprintf(p.clip_name, sizeof p.clip_name, "MONO");
    p.audio = (mp_audio_format){1, 1, 1, 8000, 8000, 1, 8};
    p.fps_num = 3;
    p.fps_den = 1;
    p.frame_count = 1;           /* 2666.67 -> 2667 samples: odd data, RIFF pad byte */
    p.timecode_drop_frame = 0;
    mp_sink *s;
    mp_error err;
    assert_int_equal(mp_sink_open(&s, mp_sink_find("wav"), dir, &p, &err), MP_OK);
    assert_int_equal(mp_sink_write_audio(s, "\x10\x20", 2, &err), MP_OK);
    assert_int_equal(mp_sink_finish(s, &err), MP_OK);
    char path[600];
    snprintf(path, sizeof path, "%s/MONO/MONO.wav", dir);
    size_t len;
    uint8_t *buf = read_file(path, &len);
    wav_view v = walk(buf, len);
    assert_int_equal(v.data_size, 2667);
    assert_int_equal(v.data[0], 0x10);
    assert_int_equal(v.data[1], 0x20);
    assert_int_equal(v.data[2], 0x80);       /* unsigned 8-bit silence */
    assert_int_equal(v.data[2666], 0x80);
    assert_memory_equal(v.bext + 602, "A=PCM,F=8000,W=8,M=mono", 23);
    free(buf);
    remove_dir(dir);
}

static void test_format_checks(void **state)
{
    (void)state;
    mp_error err;
    mp_audio_format ok = {1, 1, 2, 48000, 192000, 4, 16};
    assert_int_equal(mp_wav_check_format(&ok, &err), MP_OK);
    mp_audio_format bad[] = {
        {1, 3, 2, 48000, 0, 4, 16},     /* not integer PCM */
        {1, 1, 0, 48000, 0, 4, 16},     /* no channels */
        {1, 1, 2, 0, 0, 4, 16},         /* no rate */
        {1, 1, 2, 48000, 0, 4, 12},     /* odd depth */
        {1, 1, 65, 48000, 0, 4, 16},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(mp_wav_check_format(&bad[i], &err), MP_ERR_UNSUPPORTED);
    mp_sink_params p;
    stereo_params(&p);
    p.audio = bad[0];
    mp_sink *s;
    assert_int_equal(mp_sink_open(&s, mp_sink_find("wav"), "/tmp", &p, &err),
                     MP_ERR_UNSUPPORTED);
}

static void test_abort_leaves_nothing(void **state)
{
    (void)state;
    char *dir = temp_dir();
    mp_sink_params p;
    stereo_params(&p);
    snprintf(p.clip_name, sizeof p.clip_name, "ABORT");
    mp_sink *s;
    mp_error err;
    assert_int_equal(mp_sink_open(&s, mp_sink_find("wav"), dir, &p, &err), MP_OK);
    write_ramp(s, 100);
    mp_sink_abort(s);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s/ABORT')\"", dir);
    assert_int_equal(system(cmd), 0);   /* neither the WAV nor its temporary file */
    remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alignment_maths),
        cmocka_unit_test(test_header_and_trim),
        cmocka_unit_test(test_ixml_name_is_xml),
        cmocka_unit_test(test_pad_start_and_end),
        cmocka_unit_test(test_odd_sized_8bit_mono),
        cmocka_unit_test(test_format_checks),
        cmocka_unit_test(test_abort_leaves_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
