/* Unit tests of frames on demand (pipeline/frames.h) on the shared samples: every item of a
 * clip has the name, the size (known before any frame is rendered) and the bytes of the file
 * convert writes, whole or in parts, from two threads in opposite orders; a second open with
 * a levels cache reads the analysis back; LJ92 storage, other formats, convert's refused
 * options and items past the end are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>

#include "encode/naming.h"
#include "mlvpipe/convert.h"
#include "pipeline/convert.h"
#include "pipeline/frames.h"
#include "reader_test_util.h"

/* Native 12-bit, LJ92 input, spanned, legacy RAW, dual ISO (16-bit output), audio (a WAV). */
static const char *const clips[] = {
    "synth_12bit_128x64_3f.MLV", "synth_lj92_cameralayout.MLV", "synth_span.MLV",
    "synth_legacy.RAW", "synth_dualiso_14bit.MLV", "synth_14bit_audio.MLV",
};

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(*len ? *len : 1);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, *len, f), *len);
    fclose(f);
    return p;
}

static void convert_dng(const char *in, const char *out)
{
    mp_convert_options o;
    mp_convert_options_default(&o);
    o.input = in;
    o.output = out;
    mp_error err = {0};
    if (mp_convert(&o, NULL, &err) != MP_OK)
        fail_msg("%s: %s", in, err.msg);
}

typedef struct pass {
    mp_frames *f;
    const char *folder;
    int reverse;
    int differences;
} pass;

/* Every item whole, in one order or the other, against convert's file. */
static void *read_all(void *arg)
{
    pass *p = arg;
    uint32_t n = mp_frames_count(p->f);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = p->reverse ? n - 1 - k : k;
        char name[MP_NAME_MAX], path[4096];
        uint64_t size;
        size_t len;
        mp_error err;
        mp_frames_name(p->f, i, name);
        snprintf(path, sizeof path, "%s/%s", p->folder, name);
        uint8_t *want = slurp(path, &len);
        uint8_t *got = malloc(len);
        if (mp_frames_size(p->f, i, &size, &err) != MP_OK || size != len ||
            mp_frames_read(p->f, i, 0, got, len, &err) != MP_OK || memcmp(got, want, len))
            p->differences++;
        free(got);
        free(want);
    }
    return NULL;
}

static void items_are_converts_files(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof clips / sizeof clips[0]; c++) {
        char *dir = temp_dir();
        convert_dng(sample_path(clips[c]), dir);
        mp_convert_options o;
        mp_convert_options_default(&o);
        o.input = sample_path(clips[c]);
        mp_frames *f;
        mp_error err = {0};
        if (mp_frames_open(&f, &o, NULL, &err) != MP_OK)
            fail_msg("%s: %s", clips[c], err.msg);
        char folder_name[MP_NAME_MAX];
        mp_frames_folder(f, folder_name);
        char *folder = join(dir, folder_name);
        /* every size first, before any frame is rendered */
        uint32_t n = mp_frames_count(f), files = 0;
        for (uint32_t i = 0; i < n; i++) {
            char name[MP_NAME_MAX];
            uint64_t size;
            size_t len;
            mp_frames_name(f, i, name);
            char *path = join(folder, name);
            free(slurp(path, &len));
            assert_int_equal(mp_frames_size(f, i, &size, &err), MP_OK);
            if (size != len)
                fail_msg("%s %s: size %llu before rendering, convert wrote %zu", clips[c], name,
                         (unsigned long long)size, len);
            assert_int_equal(mp_frames_is_audio(f, i), strstr(name, ".wav") != NULL);
            free(path);
            files++;
        }
        assert_true(files >= 2);
        pass a = {f, folder, 0, 0}, b = {f, folder, 1, 0};
        pthread_t t;
        assert_int_equal(pthread_create(&t, NULL, read_all, &b), 0);
        read_all(&a);
        pthread_join(t, NULL);
        if (a.differences || b.differences)
            fail_msg("%s: %d + %d items differ from convert's files", clips[c], a.differences,
                     b.differences);
        /* a part: the same bytes as the file's */
        char name[MP_NAME_MAX];
        size_t len;
        mp_frames_name(f, 1, name);
        char *path = join(folder, name);
        uint8_t *want = slurp(path, &len), part[1000];
        assert_int_equal(mp_frames_read(f, 1, len / 3, part, sizeof part, &err), MP_OK);
        assert_memory_equal(part, want + len / 3, sizeof part);
        assert_int_equal(mp_frames_read(f, 1, len - 10, part, 11, &err), MP_ERR_RANGE);
        assert_int_equal(mp_frames_size(f, n, (uint64_t *)part, &err), MP_ERR_RANGE);
        free(want);
        free(path);
        mp_frames_close(f);
        free(folder);
        remove_tree(dir);
    }
}

static void on_log(void *opaque, mp_log_level level, const char *msg)
{
    (void)level;
    if (strstr(msg, "levels from the cache"))
        (*(int *)opaque)++;
}

static void a_second_open_reads_the_levels_cache(void **state)
{
    (void)state;
    char *dir = temp_dir(), *cache = join(dir, "a/b");
    int hits = 0;
    for (int run = 0; run < 2; run++) {
        mp_convert_options o;
        mp_convert_options_default(&o);
        o.input = sample_path("synth_dualiso_14bit.MLV");
        o.log = (mp_logger){on_log, &hits};
        mp_frames *f;
        mp_error err = {0};
        uint64_t size;
        assert_int_equal(mp_frames_open(&f, &o, cache, &err), MP_OK);
        assert_int_equal(mp_frames_size(f, 0, &size, &err), MP_OK);
        assert_int_equal(hits, run);
        mp_frames_close(f);
    }
    free(cache);
    remove_tree(dir);
}

static void refusals(void **state)
{
    (void)state;
    mp_convert_options o;
    mp_convert_options_default(&o);
    o.input = sample_path("synth_12bit_128x64_3f.MLV");
    mp_frames *f;
    mp_error err = {0};
    o.dng_storage = MP_DNG_LJ92;
    assert_int_equal(mp_frames_open(&f, &o, NULL, &err), MP_ERR_UNSUPPORTED);
    o.dng_storage = MP_DNG_NATIVE;
    o.format = "tiff";
    assert_int_equal(mp_frames_open(&f, &o, NULL, &err), MP_ERR_ARG);
    /* convert's own refusals hold here too */
    o.format = "dng";
    mlvpipe_convert_settings s = {.denoise = 100};
    o.settings = &s;
    assert_int_equal(mp_frames_open(&f, &o, NULL, &err), MP_ERR_ARG);
    assert_non_null(strstr(err.msg, "--denoise"));
    s = (mlvpipe_convert_settings){.lut = "look.cube"};   /* a LUT grades developed pictures */
    assert_int_equal(mp_frames_open(&f, &o, NULL, &err), MP_ERR_ARG);
    assert_non_null(strstr(err.msg, "--lut grades developed pictures: dng"));
}

int main(void)
{
    if (!samples_available())
        return SKIP_EXIT;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(items_are_converts_files),
        cmocka_unit_test(a_second_open_reads_the_levels_cache),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
