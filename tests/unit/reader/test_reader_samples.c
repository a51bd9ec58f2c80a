/* Reader tests on the shared synthetic samples: every frame's MD5 from expected_md5.json,
 * metadata values, frame order, spanning, legacy RAW, audio, and concurrent reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>

#include "codec/bitpack.h"
#include "reader/mlv_reader.h"
#include "reader_test_util.h"

typedef struct sample {
    const char *file, *md5_key;
    uint32_t frames, bits;
    int32_t black, white;
} sample;

static const sample samples[] = {
    {"synth_10bit_128x64_3f.MLV", "synth_10bit_128x64_3f.MLV", 3, 10, 128, 937},
    {"synth_12bit_128x64_3f.MLV", "synth_12bit_128x64_3f.MLV", 3, 12, 512, 3750},
    {"synth_14bit_128x64_3f.MLV", "synth_14bit_128x64_3f.MLV", 3, 14, 2048, 15000},
    {"synth_14bit_128x64_outoforder.MLV", "synth_14bit_128x64_outoforder.MLV", 3, 14, 2048, 15000},
    {"synth_span.MLV", "synth_span.MLV+M00", 4, 14, 2048, 15000},
    {"synth_lj92_cameralayout.MLV", "synth_lj92_*.MLV", 2, 14, 2048, 15000},
    {"synth_lj92_mlvdumplayout.MLV", "synth_lj92_*.MLV", 2, 14, 2048, 15000},
    {"synth_dualiso_14bit.MLV", "synth_dualiso_14bit.MLV", 3, 14, 2048, 15000},
    {"synth_dualiso_lj92.MLV", "synth_dualiso_lj92.MLV", 3, 14, 2048, 15000},
    {"synth_legacy.RAW", "synth_legacy.RAW+R00", 3, 14, 2048, 15000},
};
#define SAMPLE_COUNT (sizeof samples / sizeof samples[0])

static mlv_clip *open_sample(const char *name)
{
    mlv_clip *c = NULL;
    mp_error err = {0};
    mp_status st = mp_mlv_clip_open(&c, sample_path(name), NULL, &err);
    if (st != MP_OK)
        fail_msg("%s: %s", name, err.msg);
    return c;
}

/* Checks every frame of clip against the expected MD5 list; returns frames checked. */
static void check_md5s(const mlv_clip *c, const char *key)
{
    char want[8][33];
    int n = expected_md5s(key, want, 8);
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_int_equal(in->frame_count, (uint32_t)n);
    mlv_scratch s = {0};
    mp_frame f = {0};
    for (int i = 0; i < n; i++) {
        mp_error err = {0};
        mp_status st = mp_mlv_read_frame(c, (uint32_t)i, &f, &s, &err);
        if (st != MP_OK)
            fail_msg("%s frame %d: %s", key, i, err.msg);
        char got[33];
        frame_md5(&f, got);
        if (strcmp(got, want[i]))
            fail_msg("%s frame %d: md5 %s, expected %s", key, i, got, want[i]);
        assert_int_equal(f.number, (uint32_t)i);
    }
    mp_frame_free(&f);
    mp_mlv_scratch_free(&s);
}

static void every_sample_decodes_to_expected_md5(void **state)
{
    (void)state;
    for (size_t i = 0; i < SAMPLE_COUNT; i++) {
        mlv_clip *c = open_sample(samples[i].file);
        check_md5s(c, samples[i].md5_key);
        mp_mlv_clip_close(c);
    }
}

static void sample_levels_and_timing(void **state)
{
    (void)state;
    for (size_t i = 0; i < SAMPLE_COUNT; i++) {
        const sample *s = &samples[i];
        mlv_clip *c = open_sample(s->file);
        const mlv_clip_info *in = mp_mlv_clip_get_info(c);
        assert_int_equal(in->frame_count, s->frames);
        assert_int_equal(in->raw.width, 128);
        assert_int_equal(in->raw.height, 64);
        assert_int_equal(in->raw.bits, s->bits);
        assert_int_equal(in->raw.black, s->black);
        assert_int_equal(in->raw.white, s->white);
        assert_int_equal(in->raw.cfa, MP_CFA_RGGB);
        assert_int_equal(in->first_number, 0);
        assert_int_equal(in->last_number, s->frames - 1);
        assert_int_equal(in->gap_count, 0);
        assert_int_equal(in->damage_count, 0);
        assert_int_equal(in->segment_count, 1);
        mp_frame f = {0};
        mlv_scratch sc = {0};
        assert_int_equal(mp_mlv_read_frame(c, 0, &f, &sc, NULL), MP_OK);
        assert_int_equal(f.bits, s->bits);
        assert_int_equal(f.black, (uint32_t)s->black);
        assert_int_equal(f.white, (uint32_t)s->white);
        assert_int_equal(f.cfa, MP_CFA_RGGB);
        mp_frame_free(&f);
        mp_mlv_scratch_free(&sc);
        if (in->container == MLV_CONTAINER_MLV) {
            assert_int_equal(in->fps_num, 25000);
            assert_int_equal(in->fps_den, 1000);
            assert_true(in->exposure.present);
            assert_int_equal(in->exposure.iso, 100);
            assert_int_equal(in->video_start_us, 1000);
            for (uint32_t k = 0; k < in->frame_count; k++) {
                mlv_frame_info fi;
                assert_int_equal(mp_mlv_frame_info_get(c, k, &fi), MP_OK);
                assert_int_equal(fi.number, k);
                assert_int_equal(fi.timestamp_us, 1000 + 40000 * k);
                assert_int_equal(fi.segment, 0);
                assert_int_equal(fi.raw->bits, s->bits);
            }
        }
        mp_mlv_clip_close(c);
    }
}

static void compression_and_dual_iso_tags(void **state)
{
    (void)state;
    mlv_clip *c = open_sample("synth_lj92_cameralayout.MLV");
    assert_int_equal(mp_mlv_clip_get_info(c)->compression, MLV_COMPRESSION_LJ92);
    assert_int_equal(mp_mlv_clip_get_info(c)->video_class, 0x21);
    assert_string_equal(mp_mlv_compression_name(mp_mlv_clip_get_info(c)->compression), "lj92");
    mp_mlv_clip_close(c);

    const char *dual[] = {"synth_dualiso_14bit.MLV", "synth_dualiso_lj92.MLV"};
    for (int i = 0; i < 2; i++) {
        c = open_sample(dual[i]);
        const mlv_clip_info *in = mp_mlv_clip_get_info(c);
        assert_true(in->dual_iso.present);
        assert_int_equal(in->dual_iso.mode, 1);
        assert_int_equal(in->dual_iso.iso_value, 3);
        assert_int_equal(in->dual_iso.recovery_iso, 800);
        assert_int_equal(in->exposure.iso, 100);
        mlv_frame_info fi;
        assert_int_equal(mp_mlv_frame_info_get(c, 2, &fi), MP_OK);
        assert_int_equal(fi.dual_iso->recovery_iso, 800);
        mp_mlv_clip_close(c);
    }
    c = open_sample("synth_14bit_128x64_3f.MLV");
    assert_false(mp_mlv_clip_get_info(c)->dual_iso.present);
    assert_int_equal(mp_mlv_clip_get_info(c)->compression, MLV_COMPRESSION_NONE);
    mp_mlv_clip_close(c);
}

static void out_of_order_frames_are_sorted(void **state)
{
    (void)state;
    mlv_clip *c = open_sample("synth_14bit_128x64_outoforder.MLV");
    for (uint32_t k = 0; k < 3; k++) {
        mlv_frame_info fi;
        assert_int_equal(mp_mlv_frame_info_get(c, k, &fi), MP_OK);
        assert_int_equal(fi.number, k);
        assert_int_equal(fi.timestamp_us, 1000 + 40000 * k);
        assert_int_equal(mp_mlv_frame_index_of(c, k), k);
    }
    assert_int_equal(mp_mlv_frame_index_of(c, 3), -1);
    assert_int_equal(mp_mlv_frame_info_get(c, 3, &(mlv_frame_info){0}), MP_ERR_RANGE);
    mp_frame f = {0};
    mlv_scratch s = {0};
    mp_error err = {0};
    assert_int_equal(mp_mlv_read_frame(c, 3, &f, &s, &err), MP_ERR_RANGE);
    mp_mlv_clip_close(c);
}

static void spanned_clip_any_name_and_case(void **state)
{
    (void)state;
    mlv_clip *c = open_sample("synth_span.M00");   /* a later chunk's name opens the clip */
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_int_equal(in->chunk_count, 2);
    assert_int_equal(in->frame_count, 4);
    assert_non_null(strstr(mp_mlv_clip_path(c, 0), "synth_span.MLV"));
    assert_non_null(strstr(mp_mlv_clip_path(c, 1), "synth_span.M00"));
    assert_null(mp_mlv_clip_path(c, 2));
    mp_mlv_clip_close(c);

    char *dir = temp_dir();
    char *mlv = join(dir, "clip.mlv"), *m00 = join(dir, "clip.m00");
    copy_file(sample_path("synth_span.MLV"), mlv);
    copy_file(sample_path("synth_span.M00"), m00);
    c = NULL;
    assert_int_equal(mp_mlv_clip_open(&c, mlv, NULL, NULL), MP_OK);
    assert_int_equal(mp_mlv_clip_get_info(c)->chunk_count, 2);
    check_md5s(c, "synth_span.MLV+M00");
    mp_mlv_clip_close(c);

    mlv_open_options opt = {.no_spanning = 1};
    assert_int_equal(mp_mlv_clip_open(&c, mlv, &opt, NULL), MP_OK);
    assert_int_equal(mp_mlv_clip_get_info(c)->chunk_count, 1);
    assert_int_equal(mp_mlv_clip_get_info(c)->frame_count, 2);
    mp_mlv_clip_close(c);
    free(mlv);
    free(m00);
    remove_tree(dir);
}

static void legacy_raw_footer_and_straddling_frames(void **state)
{
    (void)state;
    mlv_clip *c = open_sample("synth_legacy.R00");
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_int_equal(in->container, MLV_CONTAINER_RAW);
    assert_int_equal(in->chunk_count, 2);
    assert_int_equal(in->frame_count, 3);
    assert_int_equal(in->raw.bits, 14);
    assert_int_equal(in->compression, MLV_COMPRESSION_NONE);
    assert_int_equal(in->audio_bytes, 0);
    assert_true(in->fps_num > 0 && in->fps_den == 1000);
    check_md5s(c, "synth_legacy.RAW+R00");
    /* the second frame starts in .RAW and ends in .R00 (20000-byte first chunk) */
    mp_mlv_clip_close(c);
}

static void audio_pcm_in_block_order(void **state)
{
    (void)state;
    mlv_clip *c = open_sample("synth_14bit_audio.MLV");
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_true(in->audio.present);
    assert_int_equal(in->audio.format, 1);
    assert_int_equal(in->audio.channels, 2);
    assert_int_equal(in->audio.sample_rate, 48000);
    assert_int_equal(in->audio.bits_per_sample, 16);
    assert_int_equal(in->audio.block_align, 4);
    assert_int_equal(in->audio_blocks, 3);
    assert_int_equal(in->audio_bytes, 3 * 1920 * 4);
    assert_int_equal(in->audio_start_us, 1000);
    assert_int_equal(in->video_start_us, 1000);
    assert_int_equal(in->frame_count, 3);

    /* the PCM equals the bytes after each AUDF's 24 + 232 header area, block after block */
    FILE *f = fopen(sample_path("synth_14bit_audio.MLV"), "rb");
    static const long audf_at[3] = {15360, 38144, 60928};
    uint8_t want[3 * 7680], got[3 * 7680];
    for (int i = 0; i < 3; i++) {
        fseek(f, audf_at[i] + 256, SEEK_SET);
        assert_int_equal(fread(want + 7680 * i, 1, 7680, f), 7680);
    }
    fclose(f);
    assert_int_equal(mp_mlv_read_audio(c, 0, got, sizeof got, NULL), MP_OK);
    assert_memory_equal(got, want, sizeof want);
    /* a read across a block boundary, and one past the end */
    assert_int_equal(mp_mlv_read_audio(c, 7000, got, 2000, NULL), MP_OK);
    assert_memory_equal(got, want + 7000, 2000);
    mp_error err = {0};
    assert_int_equal(mp_mlv_read_audio(c, sizeof want - 4, got, 8, &err), MP_ERR_RANGE);

    /* its frames carry the test pattern */
    mp_frame fr = {0};
    mlv_scratch s = {0};
    uint16_t *px = malloc(128 * 64 * 2);
    for (uint32_t k = 0; k < 3; k++) {
        assert_int_equal(mp_mlv_read_frame(c, k, &fr, &s, NULL), MP_OK);
        pattern_frame(px, 128, 64, k, 14);
        assert_memory_equal(fr.data, px, 128 * 64 * 2);
    }
    free(px);
    mp_frame_free(&fr);
    mp_mlv_scratch_free(&s);
    mp_mlv_clip_close(c);
}

typedef struct thread_job {
    const mlv_clip *clip;
    char (*want)[33];
    int n;
    int failures;
} thread_job;

static void *read_all(void *arg)
{
    thread_job *j = arg;
    int n = j->n;
    char (*want)[33] = j->want;
    mlv_scratch s = {0};
    mp_frame f = {0};
    for (int round = 0; round < 20; round++)
        for (int i = 0; i < n; i++) {
            int k = (i + round) % n;   /* threads hit different frames at the same time */
            char got[33];
            if (mp_mlv_read_frame(j->clip, (uint32_t)k, &f, &s, NULL) != MP_OK) {
                j->failures++;
                continue;
            }
            frame_md5(&f, got);
            j->failures += strcmp(got, want[k]) != 0;
        }
    mp_frame_free(&f);
    mp_mlv_scratch_free(&s);
    return NULL;
}

static void four_threads_read_the_same_frames(void **state)
{
    (void)state;
    const char *files[] = {"synth_span.MLV", "synth_lj92_cameralayout.MLV", "synth_legacy.RAW"};
    const char *keys[] = {"synth_span.MLV+M00", "synth_lj92_*.MLV", "synth_legacy.RAW+R00"};
    for (int i = 0; i < 3; i++) {
        mlv_clip *c = open_sample(files[i]);
        char want[8][33];
        int n = expected_md5s(keys[i], want, 8);   /* the helpers are not thread-safe */
        pthread_t t[4];
        thread_job jobs[4];
        for (int k = 0; k < 4; k++) {
            jobs[k] = (thread_job){c, want, n, 0};
            assert_int_equal(pthread_create(&t[k], NULL, read_all, &jobs[k]), 0);
        }
        for (int k = 0; k < 4; k++) {
            pthread_join(t[k], NULL);
            assert_int_equal(jobs[k].failures, 0);
        }
        mp_mlv_clip_close(c);
    }
}

/* mp_mlv_read_payload + mp_mlv_decode_payload give exactly what mp_mlv_read_frame gives, on every
 * sample. All payloads are read first (as the pipeline's I/O thread does) and decoded in
 * reverse order with one scratch, so each payload must hold its whole frame on its own. */
static void split_read_and_decode_match_read_frame(void **state)
{
    (void)state;
    for (size_t i = 0; i < SAMPLE_COUNT; i++) {
        const sample *sm = &samples[i];
        mlv_clip *c = open_sample(sm->file);
        char want[8][33];
        int n = expected_md5s(sm->md5_key, want, 8);
        assert_int_equal(n, (int)sm->frames);
        mlv_payload p[8];
        memset(p, 0, sizeof p);
        size_t packed = mp_packed_size_mlv(128 * 64, sm->bits);
        int lj92 = mp_mlv_clip_get_info(c)->compression == MLV_COMPRESSION_LJ92 ||
                   mp_mlv_clip_get_info(c)->lj92_tagged_raw;
        for (int k = 0; k < n; k++) {
            mp_error err = {0};
            if (mp_mlv_read_payload(c, (uint32_t)k, &p[k], &err) != MP_OK)
                fail_msg("%s frame %d: %s", sm->file, k, err.msg);
            assert_ptr_equal(p[k].clip, c);
            assert_int_equal(p[k].index, (uint32_t)k);
            /* a packed frame reads exactly its size, a compressed one less */
            if (lj92)
                assert_true(p[k].size > 0 && p[k].size < packed);
            else
                assert_int_equal(p[k].size, packed);
        }
        mlv_scratch split = {0}, whole = {0};
        mp_frame f = {0}, g = {0};
        for (int k = n - 1; k >= 0; k--) {
            mp_error err = {0};
            if (mp_mlv_decode_payload(c, (uint32_t)k, &p[k], &f, &split, &err) != MP_OK)
                fail_msg("%s frame %d: %s", sm->file, k, err.msg);
            char got[33];
            frame_md5(&f, got);
            if (strcmp(got, want[k]))
                fail_msg("%s frame %d: md5 %s, expected %s", sm->file, k, got, want[k]);
            assert_int_equal(mp_mlv_read_frame(c, (uint32_t)k, &g, &whole, NULL), MP_OK);
            assert_int_equal(f.number, g.number);
            assert_int_equal(f.timestamp_us, g.timestamp_us);
            assert_int_equal(f.bits, g.bits);
            assert_int_equal(f.black, g.black);
            assert_int_equal(f.white, g.white);
            assert_int_equal(f.cfa, g.cfa);
            assert_int_equal(f.width, g.width);
            assert_int_equal(f.height, g.height);
            assert_memory_equal(f.data, g.data, (size_t)f.width * f.height * sizeof *f.data);
        }
        /* a payload answers only for its own frame */
        mp_error err = {0};
        assert_int_equal(mp_mlv_decode_payload(c, 0, &p[1], &f, &split, &err), MP_ERR_ARG);
        assert_non_null(strstr(err.msg, "frame index 0"));
        for (int k = 0; k < n; k++)
            mp_mlv_payload_free(&p[k]);
        mp_frame_free(&f);
        mp_frame_free(&g);
        mp_mlv_scratch_free(&split);
        mp_mlv_scratch_free(&whole);
        mp_mlv_clip_close(c);
    }
}

/* A failed read leaves the payload holding no frame; a payload of another clip is refused. */
static void payload_after_failed_read_or_of_another_clip(void **state)
{
    (void)state;
    mlv_clip *a = open_sample("synth_10bit_128x64_3f.MLV");
    mlv_clip *b = open_sample("synth_12bit_128x64_3f.MLV");
    mlv_payload p = {0};
    mlv_scratch s = {0};
    mp_frame f = {0};
    mp_error err = {0}, whole_err = {0};
    assert_int_equal(mp_mlv_read_payload(a, 1, &p, NULL), MP_OK);
    assert_int_equal(mp_mlv_decode_payload(b, 1, &p, &f, &s, &err), MP_ERR_ARG);
    /* the same error as mp_mlv_read_frame, and the old bytes no longer count as frame 1 */
    assert_int_equal(mp_mlv_read_payload(a, 3, &p, &err), MP_ERR_RANGE);
    assert_int_equal(mp_mlv_read_frame(a, 3, &f, &s, &whole_err), MP_ERR_RANGE);
    assert_string_equal(err.msg, whole_err.msg);
    assert_null(p.clip);
    assert_int_equal(mp_mlv_decode_payload(a, 1, &p, &f, &s, &err), MP_ERR_ARG);
    assert_null(f.data);
    mp_mlv_payload_free(&p);
    mp_mlv_scratch_free(&s);
    mp_mlv_clip_close(a);
    mp_mlv_clip_close(b);
}

int main(void)
{
    if (!samples_available())
        return SKIP_EXIT;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_sample_decodes_to_expected_md5),
        cmocka_unit_test(sample_levels_and_timing),
        cmocka_unit_test(compression_and_dual_iso_tags),
        cmocka_unit_test(out_of_order_frames_are_sorted),
        cmocka_unit_test(spanned_clip_any_name_and_case),
        cmocka_unit_test(legacy_raw_footer_and_straddling_frames),
        cmocka_unit_test(audio_pcm_in_block_order),
        cmocka_unit_test(four_threads_read_the_same_frames),
        cmocka_unit_test(split_read_and_decode_match_read_frame),
        cmocka_unit_test(payload_after_failed_read_or_of_another_clip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
