/* Reader tests on clips written by real Magic Lantern tools ($MLVPIPE_SAMPLES/peer: mlv_dump
 * of 2014, 2015-17 and today): every clip in the folder opens without damage, every frame
 * listed in its expected_md5.json decodes to that MD5 (in order, and in reverse order
 * through the split read/decode, which rebuilds DELTA chains), the compression reported is
 * the real one, and a mislabelled LZMA clip is decoded with exactly one warning. Damage stays
 * damage: a declared size short of the frame, and a mislabelled payload without an LZMA
 * header, are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>

#include "reader/mlv_reader.h"
#include "reader_test_util.h"

#define PEER "peer"
#define MAX_FRAMES 8

typedef struct peer_clip {
    const char *file;
    uint32_t video_class;
    mlv_compression compression;
} peer_clip;

/* What each file is (peer/README.md); every clip of the folder must be listed here. */
static const peer_clip clips[] = {
    {"lzma_2014.MLV", 0x81, MLV_COMPRESSION_LZMA},
    {"lzma_delta_2014.MLV", 0xC1, MLV_COMPRESSION_LZMA_DELTA},
    {"lj92_mlvdump.MLV", 0x21, MLV_COMPRESSION_LJ92},
    {"lj92_delta_mlvdump.MLV", 0x61, MLV_COMPRESSION_LJ92_DELTA},
    {"delta_mlvdump.MLV", 0x41, MLV_COMPRESSION_DELTA},
    {"mislabeled_lzma_2017.MLV", 0x01, MLV_COMPRESSION_LZMA},
    {"legacy_mlvdump.RAW", 0x01, MLV_COMPRESSION_NONE},
    {"cut_mlvdump.MLV", 0x01, MLV_COMPRESSION_NONE},
    {"wb_kelvin.MLV", 0x01, MLV_COMPRESSION_NONE},
    {"wb_custom.MLV", 0x01, MLV_COMPRESSION_NONE},
};
#define CLIP_COUNT (sizeof clips / sizeof clips[0])

typedef struct log_capture {
    int warnings;
    char last[512];
} log_capture;

static void capture(void *opaque, mp_log_level level, const char *msg)
{
    log_capture *l = opaque;
    if (level == MP_LOG_WARNING) {
        l->warnings++;
        snprintf(l->last, sizeof l->last, "%s", msg);
    }
}

static mlv_clip *open_peer(const char *name, log_capture *log)
{
    mlv_clip *c = NULL;
    mp_error err = {0};
    mlv_open_options opt = {.log = {log ? capture : NULL, log}};
    if (mp_mlv_clip_open(&c, sample_path_in(PEER, name), &opt, &err) != MP_OK)
        fail_msg("%s: %s", name, err.msg);
    return c;
}

static int is_clip_name(const char *n)
{
    size_t len = strlen(n);
    return len > 4 && (!strcmp(n + len - 4, ".MLV") || !strcmp(n + len - 4, ".RAW"));
}

static const peer_clip *find_clip(const char *name)
{
    for (size_t i = 0; i < CLIP_COUNT; i++)
        if (!strcmp(clips[i].file, name))
            return &clips[i];
    return NULL;
}

static void check_frame(const mp_frame *f, const char *file, int k, const char *want)
{
    char got[33];
    frame_md5(f, got);
    if (strcmp(got, want))
        fail_msg("%s frame %d: md5 %s, expected %s", file, k, got, want);
}

/* Frames in index order with one scratch (sequential DELTA), then payloads read first and
 * decoded last to first with a fresh scratch (each DELTA frame rebuilds its chain). */
static void check_md5s(const mlv_clip *c, const char *file)
{
    char want[MAX_FRAMES][33];
    int n = expected_md5s_in(PEER, file, want, MAX_FRAMES);
    if (!n)   /* the white-balance clips have no MD5 list: one frame must decode */
        n = 1;
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    mlv_scratch s = {0};
    mp_frame f = {0};
    for (int k = 0; k < n; k++) {
        mp_error err = {0};
        if (mp_mlv_read_frame(c, (uint32_t)k, &f, &s, &err) != MP_OK)
            fail_msg("%s frame %d: %s", file, k, err.msg);
        if (expected_md5s_in(PEER, file, want, MAX_FRAMES))
            check_frame(&f, file, k, want[k]);
        assert_int_equal(f.number, (uint32_t)k);
    }
    if (expected_md5s_in(PEER, file, want, MAX_FRAMES)) {
        assert_int_equal(in->frame_count, (uint32_t)n);
        mlv_payload p[MAX_FRAMES];
        memset(p, 0, sizeof p);
        for (int k = 0; k < n; k++)
            assert_int_equal(mp_mlv_read_payload(c, (uint32_t)k, &p[k], NULL), MP_OK);
        mlv_scratch back = {0};
        for (int k = n - 1; k >= 0; k--) {
            mp_error err = {0};
            if (mp_mlv_decode_payload(c, (uint32_t)k, &p[k], &f, &back, &err) != MP_OK)
                fail_msg("%s frame %d (reverse): %s", file, k, err.msg);
            check_frame(&f, file, k, want[k]);
            mp_mlv_payload_free(&p[k]);
        }
        mp_mlv_scratch_free(&back);
    }
    mp_frame_free(&f);
    mp_mlv_scratch_free(&s);
}

static void every_peer_clip_decodes_to_its_md5s(void **state)
{
    (void)state;
    DIR *d = opendir(sample_path_in(PEER, ""));
    assert_non_null(d);
    int seen = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (!is_clip_name(de->d_name))
            continue;
        char name[256];
        snprintf(name, sizeof name, "%s", de->d_name);
        const peer_clip *pc = find_clip(name);
        if (!pc)
            fail_msg("%s: a peer clip this test does not know (add it to clips[])", name);
        log_capture log = {0};
        mlv_clip *c = open_peer(name, &log);
        const mlv_clip_info *in = mp_mlv_clip_get_info(c);
        if (in->damage_count)
            fail_msg("%s: damage: %s", name, mp_mlv_clip_damage(c, 0)->message);
        assert_int_equal(in->video_class, pc->video_class);
        if (in->compression != pc->compression)
            fail_msg("%s: compression %s", name, mp_mlv_compression_name(in->compression));
        assert_int_equal(in->lzma_tagged_raw, pc->video_class == 1 &&
                                              pc->compression == MLV_COMPRESSION_LZMA);
        assert_int_equal(log.warnings, in->lzma_tagged_raw);
        assert_int_equal(mp_mlv_clip_check_video(c, NULL), MP_OK);
        check_md5s(c, name);
        mp_mlv_clip_close(c);
        seen++;
    }
    closedir(d);
    assert_int_equal(seen, (int)CLIP_COUNT);
}

static void compression_names(void **state)
{
    (void)state;
    assert_string_equal(mp_mlv_compression_name(MLV_COMPRESSION_LJ92_DELTA), "lj92+delta");
    assert_string_equal(mp_mlv_compression_name(MLV_COMPRESSION_LZMA_DELTA), "lzma+delta");
}

static void mislabelled_lzma_warns_once_naming_it(void **state)
{
    (void)state;
    log_capture log = {0};
    mlv_clip *c = open_peer("mislabeled_lzma_2017.MLV", &log);
    assert_int_equal(log.warnings, 1);
    assert_non_null(strstr(log.last, "mislabeled_lzma_2017.MLV"));
    assert_non_null(strstr(log.last, "videoClass 0x01"));
    assert_non_null(strstr(log.last, "LZMA"));
    /* reading every frame adds no further warning */
    mlv_scratch s = {0};
    mp_frame f = {0};
    for (uint32_t k = 0; k < 3; k++)
        assert_int_equal(mp_mlv_read_frame(c, k, &f, &s, NULL), MP_OK);
    assert_int_equal(log.warnings, 1);
    mp_frame_free(&f);
    mp_mlv_scratch_free(&s);
    mp_mlv_clip_close(c);
}

/* Frame 0's payload in the LZMA peer clips starts at byte 304 with the declared size 14784
 * (a 14336-byte frame plus 448 bytes of padding). */
#define FRAME0_PAYLOAD 304
#define DECLARED_2014 14784u

static char *patched_copy(const char *dir, const char *file, uint64_t offset, const void *bytes,
                          size_t len)
{
    char *path = join(dir, file);
    copy_file(sample_path_in(PEER, file), path);
    patch_bytes(path, offset, bytes, len);
    return path;
}

static void short_lzma_payload_is_still_damage(void **state)
{
    (void)state;
    char *dir = temp_dir();
    const uint8_t padded[4] = {DECLARED_2014 & 0xFF, DECLARED_2014 >> 8, 0, 0};
    char *path = patched_copy(dir, "lzma_2014.MLV", FRAME0_PAYLOAD, padded, 4);
    uint8_t check[4];
    FILE *f = fopen(path, "rb");
    fseek(f, FRAME0_PAYLOAD, SEEK_SET);
    assert_int_equal(fread(check, 1, 4, f), 4);
    fclose(f);
    assert_memory_equal(check, padded, 4);   /* the sample still has the layout assumed */

    /* declared size 2 bytes short of the frame */
    const uint8_t short_size[4] = {(14336 - 2) & 0xFF, (14336 - 2) >> 8, 0, 0};
    patch_bytes(path, FRAME0_PAYLOAD, short_size, 4);
    mlv_clip *c = NULL;
    assert_int_equal(mp_mlv_clip_open(&c, path, NULL, NULL), MP_OK);
    mp_frame fr = {0};
    mlv_scratch s = {0};
    mp_error err = {0};
    assert_int_equal(mp_mlv_read_frame(c, 0, &fr, &s, &err), MP_ERR_DAMAGED);
    assert_non_null(strstr(err.msg, "lzma_2014.MLV: offset 304: frame 0: LZMA: offset 0: "
                                    "declared size 14334"));
    assert_null(strstr(err.msg, "LZMA: LZMA"));
    /* the other frames are untouched */
    assert_int_equal(mp_mlv_read_frame(c, 1, &fr, &s, NULL), MP_OK);
    mp_mlv_clip_close(c);
    free(path);

    /* the stream cut short: the block is intact but the stream is shortened by zeroing its
     * tail, so fewer than 14336 bytes come out (or the stream is corrupt) */
    static uint8_t zeros[9000];
    path = patched_copy(dir, "lzma_2014.MLV", FRAME0_PAYLOAD + 400, zeros, sizeof zeros);
    assert_int_equal(mp_mlv_clip_open(&c, path, NULL, NULL), MP_OK);
    assert_int_equal(mp_mlv_read_frame(c, 0, &fr, &s, &err), MP_ERR_DAMAGED);
    assert_non_null(strstr(err.msg, "frame 0: LZMA: offset"));
    mp_mlv_clip_close(c);
    free(path);
    mp_frame_free(&fr);
    mp_mlv_scratch_free(&s);
    remove_tree(dir);
}

/* A videoClass 0x01 payload shorter than a frame without an LZMA header (a DELTA payload
 * compressed by nothing, or garbage) is not guessed: it stays a short, damaged frame. */
static void mislabelled_payload_without_lzma_header_is_not_guessed(void **state)
{
    (void)state;
    char *dir = temp_dir();
    const uint8_t bad_props = 0xFF;   /* no LZMA properties byte is >= 225 */
    char *path = patched_copy(dir, "mislabeled_lzma_2017.MLV", FRAME0_PAYLOAD + 4, &bad_props, 1);
    log_capture log = {0};
    mlv_open_options opt = {.log = {capture, &log}};
    mlv_clip *c = NULL;
    assert_int_equal(mp_mlv_clip_open(&c, path, &opt, NULL), MP_OK);
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_int_equal(in->compression, MLV_COMPRESSION_NONE);
    assert_false(in->lzma_tagged_raw);
    assert_int_equal(log.warnings, 0);
    mp_frame fr = {0};
    mlv_scratch s = {0};
    mp_error err = {0};
    assert_int_equal(mp_mlv_read_frame(c, 0, &fr, &s, &err), MP_ERR_DAMAGED);
    assert_non_null(strstr(err.msg, "payload of"));
    mp_frame_free(&fr);
    mp_mlv_scratch_free(&s);
    mp_mlv_clip_close(c);
    free(path);
    remove_tree(dir);
}

int main(void)
{
    if (!samples_available_in(PEER)) {
        fprintf(stderr, "skipped: no peer samples at $MLVPIPE_SAMPLES/peer\n");
        return SKIP_EXIT;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_peer_clip_decodes_to_its_md5s),
        cmocka_unit_test(compression_names),
        cmocka_unit_test(mislabelled_lzma_warns_once_naming_it),
        cmocka_unit_test(short_lzma_payload_is_still_damage),
        cmocka_unit_test(mislabelled_payload_without_lzma_header_is_not_guessed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
