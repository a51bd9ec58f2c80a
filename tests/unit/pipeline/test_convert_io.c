/* Unit tests of convert's I/O stage on the shared samples: every non-dual sample converts to
 * its expected per-frame MD5s with 1 and 2 worker threads (payloads read by the reader thread,
 * decoded by the workers), and a frame whose payload cannot be read at conversion time is
 * reported as that frame's damage, with the reader's message, while the others are written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>

#include "pipeline/convert.h"
#include "reader_test_util.h"

/* Layout of synth_14bit_128x64_3f.MLV: frame 2's VIDF block starts here. */
#define VIDF2 30208u

static const struct {
    const char *file, *md5_key;
} samples[] = {
    {"synth_10bit_128x64_3f.MLV", "synth_10bit_128x64_3f.MLV"},
    {"synth_12bit_128x64_3f.MLV", "synth_12bit_128x64_3f.MLV"},
    {"synth_14bit_128x64_3f.MLV", "synth_14bit_128x64_3f.MLV"},
    {"synth_14bit_128x64_outoforder.MLV", "synth_14bit_128x64_outoforder.MLV"},
    {"synth_span.MLV", "synth_span.MLV+M00"},
    {"synth_lj92_cameralayout.MLV", "synth_lj92_*.MLV"},
    {"synth_lj92_mlvdumplayout.MLV", "synth_lj92_*.MLV"},
    {"synth_legacy.RAW", "synth_legacy.RAW+R00"},
};

typedef struct capture {
    pthread_mutex_t lock;
    char warnings[4096];
    const char *truncate_path;   /* cut at the START event, after indexing and the pre-pass */
    uint64_t truncate_at;
} capture;

static void on_log(void *opaque, mp_log_level level, const char *msg)
{
    capture *c = opaque;
    if (level != MP_LOG_WARNING)
        return;
    pthread_mutex_lock(&c->lock);
    size_t n = strlen(c->warnings);
    snprintf(c->warnings + n, sizeof c->warnings - n, "%s\n", msg);
    pthread_mutex_unlock(&c->lock);
}

static void on_progress(void *opaque, const mp_progress_event *ev)
{
    capture *c = opaque;
    if (ev->kind == MP_PROGRESS_START && c->truncate_path)
        truncate_to(c->truncate_path, c->truncate_at);
}

static mp_status convert_md5(const char *in, const char *out, uint32_t threads, capture *c,
                             mp_convert_result *res, mp_error *err)
{
    mp_convert_options o;
    mp_convert_options_default(&o);
    o.input = in;
    o.output = out;
    o.format = "md5";
    o.threads = threads;
    o.overwrite = 1;
    o.log = (mp_logger){on_log, c};
    o.progress = on_progress;
    o.progress_opaque = c;
    return mp_convert(&o, res, err);
}

/* The md5 file's lines "N hex" must be exactly frames `numbers` with the sample's MD5s. */
static void expect_md5_file(const char *path, const char *key, const uint32_t *numbers, int n)
{
    char want[8][33], line[128];
    assert_true(expected_md5s(key, want, 8) >= n);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int k = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned number;
        char hex[33];
        assert_int_equal(sscanf(line, "%u %32s", &number, hex), 2);
        assert_true(k < n);
        assert_int_equal(number, numbers[k]);
        if (strcmp(hex, want[numbers[k]]))
            fail_msg("%s frame %u: md5 %s, expected %s", key, number, hex, want[numbers[k]]);
        k++;
    }
    fclose(f);
    assert_int_equal(k, n);
}

static void every_sample_converts_to_its_md5s(void **state)
{
    (void)state;
    char *dir = temp_dir(), *out = join(dir, "frames.md5");
    static const uint32_t numbers[] = {0, 1, 2, 3};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        for (uint32_t threads = 1; threads <= 2; threads++) {
            char want[8][33];
            int n = expected_md5s(samples[i].md5_key, want, 8);
            capture c = {.lock = PTHREAD_MUTEX_INITIALIZER};
            mp_convert_result res;
            mp_error err = {0};
            if (convert_md5(sample_path(samples[i].file), out, threads, &c, &res, &err) != MP_OK)
                fail_msg("%s, %u threads: %s", samples[i].file, threads, err.msg);
            assert_int_equal(res.written, (uint32_t)n);
            assert_int_equal(res.threads, threads);
            expect_md5_file(out, samples[i].md5_key, numbers, n);
        }
    free(out);
    remove_tree(dir);
}

static void frame_unreadable_at_conversion_is_that_frames_damage(void **state)
{
    (void)state;
    char *dir = temp_dir(), *clip = join(dir, "clip.MLV"), *out = join(dir, "frames.md5");
    static const uint32_t written[] = {0, 1};
    for (uint32_t threads = 1; threads <= 2; threads++) {
        copy_file(sample_path("synth_14bit_128x64_3f.MLV"), clip);
        capture c = {.lock = PTHREAD_MUTEX_INITIALIZER, .truncate_path = clip,
                     .truncate_at = VIDF2 + 100};   /* frame 2's payload is cut short */
        mp_convert_result res;
        mp_error err = {0};
        assert_int_equal(convert_md5(clip, out, threads, &c, &res, &err), MP_ERR_DAMAGED);
        assert_int_equal(res.written, 2);
        assert_int_equal(res.damaged, 1);
        assert_false(res.output_failed);
        assert_non_null(strstr(err.msg, "1 frames unreadable"));
        /* the reader's one-line message, for frame 2 only */
        if (!strstr(c.warnings, "frame 2 not converted: clip.MLV: offset ") ||
            !strstr(c.warnings, "file shorter than indexed"))
            fail_msg("warnings: %s", c.warnings);
        assert_null(strstr(c.warnings, "frame 0 not converted"));
        assert_null(strstr(c.warnings, "frame 1 not converted"));
        expect_md5_file(out, "synth_14bit_128x64_3f.MLV", written, 2);
    }
    free(clip);
    free(out);
    remove_tree(dir);
}

int main(void)
{
    if (!samples_available())
        return SKIP_EXIT;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_sample_converts_to_its_md5s),
        cmocka_unit_test(frame_unreadable_at_conversion_is_that_frames_damage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
