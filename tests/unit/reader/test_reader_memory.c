/* mp_mlv_clip_open_memory: the same clip, index, damage, frames and audio as from disk, for
 * spanned MLV, legacy RAW straddling its chunks, LJ92 and audio; chunk discovery by name
 * among the in-memory files (any chunk's name opens the clip; a missing chunk is damage). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reader/mlv_reader.h"
#include "reader_test_util.h"

#define MAX_FILES 4

typedef struct mem_set {
    mlv_mem_file files[MAX_FILES];
    uint8_t *bytes[MAX_FILES];
    uint32_t count;
} mem_set;

static void load(mem_set *m, const char *name)
{
    FILE *f = fopen(sample_path(name), "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    m->bytes[m->count] = b;
    m->files[m->count++] = (mlv_mem_file){name, b, (size_t)n};
}

static void unload(mem_set *m)
{
    for (uint32_t i = 0; i < m->count; i++)
        free(m->bytes[i]);
    m->count = 0;
}

/* Opens name from disk and from memory (open_as among the files) and compares them. */
static void same_as_disk(mem_set *m, const char *name, const char *open_as)
{
    mlv_clip *d = NULL, *c = NULL;
    mp_error err = {0};
    assert_int_equal(mp_mlv_clip_open(&d, sample_path(name), NULL, &err), MP_OK);
    if (mp_mlv_clip_open_memory(&c, open_as, m->files, m->count, NULL, &err) != MP_OK)
        fail_msg("%s from memory: %s", open_as, err.msg);
    const mlv_clip_info *a = mp_mlv_clip_get_info(d), *b = mp_mlv_clip_get_info(c);
    assert_int_equal(a->frame_count, b->frame_count);
    assert_int_equal(a->chunk_count, b->chunk_count);
    assert_int_equal(a->damage_count, b->damage_count);
    assert_int_equal(a->audio_bytes, b->audio_bytes);
    assert_true(a->frame_count > 0);
    mlv_scratch s1 = {0}, s2 = {0};
    mp_frame f1 = {0}, f2 = {0};
    for (uint32_t i = 0; i < a->frame_count; i++) {
        assert_int_equal(mp_mlv_read_frame(d, i, &f1, &s1, &err), MP_OK);
        assert_int_equal(mp_mlv_read_frame(c, i, &f2, &s2, &err), MP_OK);
        assert_int_equal(f1.number, f2.number);
        assert_memory_equal(f1.data, f2.data, (size_t)f1.width * f1.height * 2);
    }
    if (a->audio_bytes) {
        uint8_t *p1 = malloc(a->audio_bytes), *p2 = malloc(a->audio_bytes);
        assert_int_equal(mp_mlv_read_audio(d, 0, p1, a->audio_bytes, &err), MP_OK);
        assert_int_equal(mp_mlv_read_audio(c, 0, p2, a->audio_bytes, &err), MP_OK);
        assert_memory_equal(p1, p2, a->audio_bytes);
        free(p1);
        free(p2);
    }
    mp_frame_free(&f1);
    mp_frame_free(&f2);
    mp_mlv_scratch_free(&s1);
    mp_mlv_scratch_free(&s2);
    mp_mlv_clip_close(d);
    mp_mlv_clip_close(c);
}

static void memory_clip_equals_disk_clip(void **state)
{
    (void)state;
    static const char *const sets[][3] = {
        {"synth_span.MLV", "synth_span.M00", NULL},
        {"synth_legacy.RAW", "synth_legacy.R00", NULL},
        {"synth_lj92_cameralayout.MLV", NULL, NULL},
        {"synth_14bit_audio.MLV", NULL, NULL},
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        mem_set m = {0};
        for (int k = 0; k < 3 && sets[i][k]; k++)
            load(&m, sets[i][k]);
        same_as_disk(&m, sets[i][0], sets[i][0]);
        if (m.count > 1)   /* a later chunk's name opens the whole clip, as on disk */
            same_as_disk(&m, sets[i][0], sets[i][1]);
        unload(&m);
    }
}

static void memory_chunk_discovery(void **state)
{
    (void)state;
    mem_set m = {0};
    load(&m, "synth_span.MLV");
    load(&m, "synth_span.M00");
    m.files[1].name = "synth_span.M01";   /* .M00 missing, .M01 present */
    mlv_clip *c = NULL;
    mp_error err = {0};
    assert_int_equal(mp_mlv_clip_open_memory(&c, "synth_span.MLV", m.files, 2, NULL, &err),
                     MP_OK);
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_int_equal(in->chunk_count, 2);
    assert_true(in->damage_count >= 1);
    assert_int_equal(mp_mlv_clip_damage(c, 0)->kind, MLV_DAMAGE_MISSING_CHUNK);
    assert_non_null(strstr(mp_mlv_clip_damage(c, 0)->message, "synth_span.M00"));
    mp_mlv_clip_close(c);
    /* no file of that name: the same error as a missing file on disk */
    assert_int_equal(mp_mlv_clip_open_memory(&c, "other.MLV", m.files, 2, NULL, &err),
                     MP_ERR_IO);
    assert_null(c);
    assert_int_equal(mp_mlv_clip_open_memory(&c, "x.MLV", NULL, 0, NULL, &err), MP_ERR_IO);
    unload(&m);
}

int main(void)
{
    if (!samples_available())
        return SKIP_EXIT;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(memory_clip_equals_disk_clip),
        cmocka_unit_test(memory_chunk_discovery),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
