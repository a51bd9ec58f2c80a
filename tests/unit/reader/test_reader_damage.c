/* Damaged clips (doc/mlv-format.md section 17), made by copying a sample into a temp dir and
 * truncating, zeroing or patching bytes. Each case must give its documented error or damage
 * entry, and every intact frame must still decode to its expected MD5. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "reader/mlv_reader.h"
#include "reader_test_util.h"

/* Layout of synth_14bit_128x64_3f.MLV: VIDF blocks of 14848 bytes at these offsets. */
#define VIDF0 512u
#define VIDF1 15360u
#define VIDF2 30208u
#define VIDF_SIZE 14848u
#define FILE_SIZE 45056u

typedef struct fixture {
    char *dir;
    char *path;          /* the damaged copy */
    mlv_clip *clip;
    mp_error err;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->dir = temp_dir();
    f->path = join(f->dir, "clip.MLV");
    copy_file(sample_path("synth_14bit_128x64_3f.MLV"), f->path);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    mp_mlv_clip_close(f->clip);
    free(f->path);
    remove_tree(f->dir);
    free(f);
    return 0;
}

static void open_ok(fixture *f)
{
    if (mp_mlv_clip_open(&f->clip, f->path, NULL, &f->err) != MP_OK)
        fail_msg("open failed: %s", f->err.msg);
}

/* The frames with these numbers are present and decode to the sample's MD5s. */
static void expect_frames(const mlv_clip *c, const uint32_t *numbers, uint32_t n)
{
    char want[4][33];
    assert_int_equal(expected_md5s("synth_14bit_128x64_3f.MLV", want, 4), 3);
    assert_int_equal(mp_mlv_clip_get_info(c)->frame_count, n);
    mp_frame fr = {0};
    mlv_scratch s = {0};
    for (uint32_t i = 0; i < n; i++) {
        mp_error err = {0};
        if (mp_mlv_read_frame(c, i, &fr, &s, &err) != MP_OK)
            fail_msg("frame index %u: %s", i, err.msg);
        assert_int_equal(fr.number, numbers[i]);
        char got[33];
        frame_md5(&fr, got);
        assert_string_equal(got, want[numbers[i]]);
    }
    mp_frame_free(&fr);
    mp_mlv_scratch_free(&s);
}

/* Exactly one damage entry, of this kind, at this offset, with this text in its message,
 * and the message has the "FILE: offset N: cause" shape. */
static void expect_one_damage(const mlv_clip *c, mlv_damage_kind kind, uint32_t chunk,
                              uint64_t offset, const char *text)
{
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_int_equal(in->damage_count, 1);
    const mlv_damage *d = mp_mlv_clip_damage(c, 0);
    assert_int_equal(d->kind, kind);
    assert_int_equal(d->chunk, chunk);
    assert_int_equal(d->offset, offset);
    char prefix[64];
    snprintf(prefix, sizeof prefix, ": offset %llu: ", (unsigned long long)offset);
    if (!strstr(d->message, prefix) || !strstr(d->message, text))
        fail_msg("damage message '%s' lacks '%s' or '%s'", d->message, prefix, text);
    assert_null(strchr(d->message, '\n'));
    assert_null(mp_mlv_clip_damage(c, 1));
}

static const uint32_t frames01[] = {0, 1}, frames02[] = {0, 2}, frames0[] = {0};

static void truncated_mid_frame(void **state)
{
    fixture *f = *state;
    truncate_to(f->path, VIDF2 + 5000);
    open_ok(f);
    expect_one_damage(f->clip, MLV_DAMAGE_TRUNCATED, 0, VIDF2, "runs past the end");
    expect_frames(f->clip, frames01, 2);
}

static void zero_tail(void **state)
{
    fixture *f = *state;
    fill_bytes(f->path, VIDF2, 0, FILE_SIZE - VIDF2);
    open_ok(f);
    expect_one_damage(f->clip, MLV_DAMAGE_ZERO_TAIL, 0, VIDF2, "blockSize 0");
    expect_frames(f->clip, frames01, 2);
}

static void block_size_zero(void **state)
{
    fixture *f = *state;
    patch_u32(f->path, VIDF1 + 4, 0);
    open_ok(f);
    /* not a tail: the walk finds the next block and only the damaged frame is lost */
    expect_one_damage(f->clip, MLV_DAMAGE_RESYNC, 0, VIDF1, "blockSize 0; skipped 14848 bytes");
    expect_frames(f->clip, frames02, 2);
}

static void zeroed_region_mid_file(void **state)
{
    fixture *f = *state;
    fill_bytes(f->path, VIDF1, 0, 4096);   /* a zeroed sector run over frame 1's header */
    open_ok(f);
    expect_one_damage(f->clip, MLV_DAMAGE_RESYNC, 0, VIDF1, "skipped 14848 bytes");
    expect_frames(f->clip, frames02, 2);
}

static void block_size_past_end_of_file(void **state)
{
    fixture *f = *state;
    patch_u32(f->path, VIDF1 + 4, 0x7fffffff);
    open_ok(f);
    /* the walk re-synchronises on the next VIDF: only the damaged frame is lost */
    expect_one_damage(f->clip, MLV_DAMAGE_RESYNC, 0, VIDF1, "skipped 14848 bytes");
    expect_frames(f->clip, frames02, 2);
    assert_int_equal(mp_mlv_clip_get_info(f->clip)->gap_count, 1);
    assert_int_equal(mp_mlv_clip_get_info(f->clip)->missing_frames, 1);
}

static void block_size_below_header(void **state)
{
    fixture *f = *state;
    patch_u32(f->path, VIDF1 + 4, 8);
    open_ok(f);
    expect_one_damage(f->clip, MLV_DAMAGE_RESYNC, 0, VIDF1, "blockSize 8");
    expect_frames(f->clip, frames02, 2);
}

static void last_block_size_past_end(void **state)
{
    fixture *f = *state;
    patch_u32(f->path, VIDF2 + 4, VIDF_SIZE + 1);
    open_ok(f);
    expect_one_damage(f->clip, MLV_DAMAGE_TRUNCATED, 0, VIDF2, "VIDF block of 14849 bytes");
    expect_frames(f->clip, frames01, 2);
}

static void frame_space_past_block(void **state)
{
    fixture *f = *state;
    patch_u32(f->path, VIDF1 + 28, VIDF_SIZE);
    open_ok(f);
    expect_one_damage(f->clip, MLV_DAMAGE_BAD_BLOCK, 0, VIDF1, "frameSpace 14848 past block end");
    expect_frames(f->clip, frames02, 2);
}

static void garbage_header_mid_file(void **state)
{
    fixture *f = *state;
    fill_bytes(f->path, VIDF1, 0xEE, 16);
    open_ok(f);
    expect_one_damage(f->clip, MLV_DAMAGE_RESYNC, 0, VIDF1, "bad block header");
    expect_frames(f->clip, frames02, 2);
}

static void garbage_to_end_of_file(void **state)
{
    fixture *f = *state;
    fill_bytes(f->path, VIDF1, 0xEE, FILE_SIZE - VIDF1);
    open_ok(f);
    expect_one_damage(f->clip, MLV_DAMAGE_BAD_BLOCK, 0, VIDF1, "rest of the file");
    expect_frames(f->clip, frames0, 1);
}

static void duplicate_frame_number(void **state)
{
    fixture *f = *state;
    /* frame 2 claims to be frame 1: its timestamp (frame 2's) gives it away, so it is left
     * out as implausible before it could pass as frame 1 */
    patch_u32(f->path, VIDF2 + 16, 1);
    open_ok(f);
    expect_one_damage(f->clip, MLV_DAMAGE_BAD_NUMBER, 0, VIDF2 + 64, "frame number 1 implausible");
    expect_frames(f->clip, frames01, 2);
}

static void rawi_missing(void **state)
{
    fixture *f = *state;
    patch_bytes(f->path, 52, "XXXX", 4);
    assert_int_equal(mp_mlv_clip_open(&f->clip, f->path, NULL, &f->err), MP_ERR_FORMAT);
    assert_null(f->clip);
    assert_non_null(strstr(f->err.msg, "clip.MLV"));
    assert_non_null(strstr(f->err.msg, "no RAWI block"));
}

static void unsupported_video_class(void **state)
{
    fixture *f = *state;
    uint8_t yuv[2] = {0x02, 0x00};
    patch_bytes(f->path, 32, yuv, 2);
    open_ok(f);
    assert_int_equal(mp_mlv_clip_get_info(f->clip)->video_class, 2);
    assert_int_equal(mp_mlv_clip_get_info(f->clip)->frame_count, 3);
    mp_error err = {0};
    assert_int_equal(mp_mlv_clip_check_video(f->clip, &err), MP_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "videoClass 0x2"));
    mp_frame fr = {0};
    mlv_scratch s = {0};
    memset(&err, 0, sizeof err);
    assert_int_equal(mp_mlv_read_frame(f->clip, 0, &fr, &s, &err), MP_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "videoClass 0x2"));
    mp_frame_free(&fr);
    mp_mlv_scratch_free(&s);
}

static void not_an_mlv_file(void **state)
{
    fixture *f = *state;
    patch_bytes(f->path, 0, "JUNK", 4);
    assert_int_equal(mp_mlv_clip_open(&f->clip, f->path, NULL, &f->err), MP_ERR_FORMAT);
    assert_non_null(strstr(f->err.msg, "offset 0"));
    truncate_to(f->path, 20);
    patch_bytes(f->path, 0, "MLVI", 4);
    assert_int_equal(mp_mlv_clip_open(&f->clip, f->path, NULL, &f->err), MP_ERR_FORMAT);
    char *missing = join(f->dir, "absent.MLV");
    assert_int_equal(mp_mlv_clip_open(&f->clip, missing, NULL, &f->err), MP_ERR_IO);
    free(missing);
}

static void hostile_rawi_size_fails_per_frame(void **state)
{
    fixture *f = *state;
    uint8_t big[4] = {0xff, 0xff, 0xff, 0xff};   /* 65535 x 65535 */
    patch_bytes(f->path, 52 + 16, big, 4);
    open_ok(f);
    mp_frame fr = {0};
    mlv_scratch s = {0};
    mp_error err = {0};
    assert_int_not_equal(mp_mlv_read_frame(f->clip, 0, &fr, &s, &err), MP_OK);
    assert_non_null(strstr(err.msg, "65535x65535"));
    assert_null(fr.data);
    mp_mlv_scratch_free(&s);
}

/* Issue 29: a codec's complaint about one frame's payload (no SOI; a JPEG process no camera
 * writes, "unsupported" to the codec) is damage of that frame only. */
static void lj92_payload_errors_are_damage_of_the_frame(void **state)
{
    fixture *f = *state;
    char *lj = join(f->dir, "lj.MLV");
    copy_file(sample_path("synth_lj92_cameralayout.MLV"), lj);
    mlv_clip *c = NULL;
    assert_int_equal(mp_mlv_clip_open(&c, lj, NULL, &f->err), MP_OK);
    mlv_frame_info fi;
    assert_int_equal(mp_mlv_frame_info_get(c, 1, &fi), MP_OK);
    uint32_t n = mp_mlv_clip_get_info(c)->frame_count;
    mp_mlv_clip_close(c);
    static const uint8_t no_soi[1] = {0}, sof1[1] = {0xC1};
    mp_frame fr = {0};
    mlv_scratch s = {0};
    for (int k = 0; k < 2; k++) {
        copy_file(sample_path("synth_lj92_cameralayout.MLV"), lj);
        if (k == 0)
            patch_bytes(lj, fi.offset, no_soi, 1);
        else
            patch_bytes(lj, fi.offset + 3, sof1, 1);   /* the DHT after SOI made SOF1 */
        assert_int_equal(mp_mlv_clip_open(&c, lj, NULL, &f->err), MP_OK);
        mp_error err = {0};
        assert_true(n >= 2);
        for (uint32_t i = 0; i < n; i++)
            assert_int_equal(mp_mlv_read_frame(c, i, &fr, &s, &err),
                             i == 1 ? MP_ERR_DAMAGED : MP_OK);
        assert_int_equal(mp_mlv_read_frame(c, 1, &fr, &s, &err), MP_ERR_DAMAGED);
        assert_non_null(strstr(err.msg, "lj.MLV: offset "));
        mp_mlv_clip_close(c);
    }
    mp_frame_free(&fr);
    mp_mlv_scratch_free(&s);
    free(lj);
}

/* Issue 29: a RAWI size no frame can have is damage of the RAWI, reported at its offset when
 * the clip opens, and its frames are left out before anything is allocated. */
static void impossible_rawi_size_is_damage_of_its_frames(void **state)
{
    fixture *f = *state;
    uint8_t size[4] = {0x00, 0x00, 0x40, 0x00};   /* 0 x 64 */
    patch_bytes(f->path, 52 + 16, size, 4);
    open_ok(f);
    expect_one_damage(f->clip, MLV_DAMAGE_BAD_FIELD, 0, 52, "RAWI size 0x64 impossible");
    char why[160];
    for (uint32_t i = 0; i < 3; i++)
        assert_int_equal(mp_mlv_frame_problem(f->clip, i, why, sizeof why), 1);
    mp_frame fr = {0};
    mlv_scratch s = {0};
    mp_error err = {0};
    assert_int_equal(mp_mlv_read_frame(f->clip, 0, &fr, &s, &err), MP_ERR_DAMAGED);
    assert_null(fr.data);
    mp_mlv_scratch_free(&s);
}

/* ... and a size that fits the limits but no payload of its segment: reported once at the
 * segment's first frame, nothing allocated for the declared size. */
static void frames_larger_than_every_payload_are_left_out(void **state)
{
    fixture *f = *state;
    uint8_t size[4] = {0x00, 0x20, 0x00, 0x20};   /* 8192 x 8192 over 14 KiB payloads */
    patch_bytes(f->path, 52 + 16, size, 4);
    open_ok(f);
    mlv_frame_info fi;
    assert_int_equal(mp_mlv_frame_info_get(f->clip, 0, &fi), MP_OK);
    expect_one_damage(f->clip, MLV_DAMAGE_BAD_FIELD, 0, fi.offset,
                      "no payload of frames 0-2 (largest 14784 bytes) can hold such a frame");
    char why[160];
    assert_int_equal(mp_mlv_frame_problem(f->clip, 2, why, sizeof why), 1);
    assert_non_null(strstr(why, "8192x8192"));
    mp_frame fr = {0};
    mlv_scratch s = {0};
    mp_error err = {0};
    assert_int_equal(mp_mlv_read_frame(f->clip, 1, &fr, &s, &err), MP_ERR_DAMAGED);
    assert_null(fr.data);
    assert_null(s.payload.data);
    mp_mlv_scratch_free(&s);
}

static void small_payload_refused_before_allocating(void **state)
{
    fixture *f = *state;
    uint8_t size[4] = {0x00, 0x10, 0x00, 0x10};   /* 4096 x 4096: legal, but 14 KiB payloads */
    patch_bytes(f->path, 52 + 16, size, 4);
    open_ok(f);
    mp_frame fr = {0};
    mlv_scratch s = {0};
    mp_error err = {0};
    assert_int_equal(mp_mlv_read_frame(f->clip, 1, &fr, &s, &err), MP_ERR_DAMAGED);
    assert_non_null(strstr(err.msg, "clip.MLV: offset 15424: frame 1: payload of 14784 bytes"));
    assert_null(fr.data);
    assert_null(s.buf);
    assert_null(s.payload.data);
    /* the I/O half refuses it the same way, before allocating */
    mlv_payload p = {0};
    mp_error io_err = {0};
    assert_int_equal(mp_mlv_read_payload(f->clip, 1, &p, &io_err), MP_ERR_DAMAGED);
    assert_string_equal(io_err.msg, err.msg);
    assert_null(p.data);
    mp_mlv_scratch_free(&s);
}

/* ---- spanned clips ---- */

static void guid_mismatch_chunk(void **state)
{
    fixture *f = *state;
    char *mlv = join(f->dir, "span.MLV"), *m00 = join(f->dir, "span.M00");
    copy_file(sample_path("synth_span.MLV"), mlv);
    copy_file(sample_path("synth_span.M00"), m00);
    patch_u32(m00, 16, 0xdeadbeef);
    assert_int_equal(mp_mlv_clip_open(&f->clip, mlv, NULL, &f->err), MP_OK);
    expect_one_damage(f->clip, MLV_DAMAGE_GUID_MISMATCH, 1, 0, "chunk ignored");
    assert_non_null(strstr(mp_mlv_clip_damage(f->clip, 0)->message, "span.M00"));
    expect_frames(f->clip, frames01, 2);
    free(mlv);
    free(m00);
}

static void missing_middle_chunk(void **state)
{
    fixture *f = *state;
    /* span.MLV (frames 0,1) + span.M01 (frames 4,5); span.M00 is missing */
    char *mlv = join(f->dir, "span.MLV"), *m01 = join(f->dir, "span.M01");
    copy_file(sample_path("synth_span.MLV"), mlv);
    copy_file(sample_path("synth_span.M00"), m01);
    patch_u32(m01, 512 + 16, 4);        /* frames 4 and 5, at their times (25 fps) */
    patch_u32(m01, 512 + 8, 161000);
    patch_u32(m01, 15360 + 16, 5);
    patch_u32(m01, 15360 + 8, 201000);
    assert_int_equal(mp_mlv_clip_open(&f->clip, mlv, NULL, &f->err), MP_OK);
    const mlv_clip_info *in = mp_mlv_clip_get_info(f->clip);
    expect_one_damage(f->clip, MLV_DAMAGE_MISSING_CHUNK, 1, 0, "chunk missing");
    assert_non_null(strstr(mp_mlv_clip_damage(f->clip, 0)->message, "span.M00"));
    assert_int_equal(in->chunk_count, 2);
    assert_int_equal(in->frame_count, 4);
    assert_int_equal(in->gap_count, 1);
    assert_int_equal(in->missing_frames, 2);
    assert_int_equal(in->first_number, 0);
    assert_int_equal(in->last_number, 5);
    assert_int_equal(mp_mlv_frame_index_of(f->clip, 4), 2);
    mp_frame fr = {0};
    mlv_scratch s = {0};
    assert_int_equal(mp_mlv_read_frame(f->clip, 3, &fr, &s, NULL), MP_OK);
    assert_int_equal(fr.number, 5);
    mp_frame_free(&fr);
    mp_mlv_scratch_free(&s);
    free(mlv);
    free(m01);
}

/* ---- legacy RAW ---- */

/* Issue 29: a chunk name taken by something that cannot be read (a folder, a dangling link)
 * is damage naming it, not the end of the clip; the first chunk's frames are all there. */
static void unreadable_chunk_is_damage(void **state)
{
    fixture *f = *state;
    char *m00 = join(f->dir, "clip.M00");
    assert_int_equal(mkdir(m00, 0700), 0);
    open_ok(f);
    expect_one_damage(f->clip, MLV_DAMAGE_MISSING_CHUNK, 1, 0,
                      "clip.M00: offset 0: cannot read chunk: not a regular file");
    expect_frames(f->clip, (const uint32_t[]){0, 1, 2}, 3);
    mp_mlv_clip_close(f->clip);
    f->clip = NULL;
    assert_int_equal(rmdir(m00), 0);
    assert_int_equal(symlink("nowhere", m00), 0);
    open_ok(f);
    expect_one_damage(f->clip, MLV_DAMAGE_MISSING_CHUNK, 1, 0, "clip.M00: offset 0: cannot open");
    free(m00);
}

static void legacy_footer_claims_too_many_frames(void **state)
{
    fixture *f = *state;
    char *raw = join(f->dir, "old.RAW"), *r00 = join(f->dir, "old.R00");
    copy_file(sample_path("synth_legacy.RAW"), raw);
    copy_file(sample_path("synth_legacy.R00"), r00);
    patch_u32(r00, 24736 - 192 + 12, 10);
    assert_int_equal(mp_mlv_clip_open(&f->clip, raw, NULL, &f->err), MP_OK);
    const mlv_damage *d = mp_mlv_clip_damage(f->clip, 0);
    assert_non_null(d);
    assert_int_equal(d->kind, MLV_DAMAGE_TRUNCATED);
    assert_non_null(strstr(d->message, "footer lists 10 frames, the data holds 3"));
    assert_int_equal(mp_mlv_clip_get_info(f->clip)->frame_count, 3);
    mp_mlv_clip_close(f->clip);
    f->clip = NULL;

    /* without its last chunk the footer is gone: not a clip */
    unlink(r00);
    assert_int_equal(mp_mlv_clip_open(&f->clip, raw, NULL, &f->err), MP_ERR_FORMAT);
    assert_non_null(strstr(f->err.msg, "RAWM"));
    free(raw);
    free(r00);
}

/* A legacy footer's frame rate of 0 is damage with the fallback rate, as for an MLV. */
static void legacy_footer_rate_zero_falls_back(void **state)
{
    fixture *f = *state;
    char *raw = join(f->dir, "old.RAW"), *r00 = join(f->dir, "old.R00");
    copy_file(sample_path("synth_legacy.RAW"), raw);
    copy_file(sample_path("synth_legacy.R00"), r00);
    patch_u32(r00, 24736 - 192 + 20, 0);
    assert_int_equal(mp_mlv_clip_open(&f->clip, raw, NULL, &f->err), MP_OK);
    expect_one_damage(f->clip, MLV_DAMAGE_BAD_NUMBER, 1, 24736 - 192 + 20,
                      "footer frame rate 0/1000 is not a rate; using 25000/1000");
    const mlv_clip_info *in = mp_mlv_clip_get_info(f->clip);
    assert_int_equal(in->fps_num, 25000);
    assert_int_equal(in->fps_den, 1000);
    assert_int_equal(in->frame_count, 3);
    free(raw);
    free(r00);
}

static void legacy_missing_middle_chunk_ends_the_stream(void **state)
{
    fixture *f = *state;
    /* old.RAW (frame 0 and the start of frame 1), old.R00 missing, old.R01 with the footer */
    char *raw = join(f->dir, "old.RAW"), *r01 = join(f->dir, "old.R01");
    copy_file(sample_path("synth_legacy.RAW"), raw);
    copy_file(sample_path("synth_legacy.R00"), r01);
    assert_int_equal(mp_mlv_clip_open(&f->clip, raw, NULL, &f->err), MP_OK);
    const mlv_clip_info *in = mp_mlv_clip_get_info(f->clip);
    assert_int_equal(in->damage_count, 2);
    assert_int_equal(mp_mlv_clip_damage(f->clip, 0)->kind, MLV_DAMAGE_MISSING_CHUNK);
    assert_non_null(strstr(mp_mlv_clip_damage(f->clip, 0)->message, "old.R00"));
    assert_int_equal(mp_mlv_clip_damage(f->clip, 1)->kind, MLV_DAMAGE_TRUNCATED);
    assert_int_equal(in->frame_count, 1);
    char want[4][33], got[33];
    assert_int_equal(expected_md5s("synth_legacy.RAW+R00", want, 4), 3);
    mp_frame fr = {0};
    mlv_scratch s = {0};
    assert_int_equal(mp_mlv_read_frame(f->clip, 0, &fr, &s, NULL), MP_OK);
    frame_md5(&fr, got);
    assert_string_equal(got, want[0]);
    mp_frame_free(&fr);
    mp_mlv_scratch_free(&s);
    free(raw);
    free(r01);
}

int main(void)
{
    if (!samples_available())
        return SKIP_EXIT;
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(truncated_mid_frame),
        T(zero_tail),
        T(block_size_zero),
        T(zeroed_region_mid_file),
        T(block_size_past_end_of_file),
        T(block_size_below_header),
        T(last_block_size_past_end),
        T(frame_space_past_block),
        T(garbage_header_mid_file),
        T(garbage_to_end_of_file),
        T(duplicate_frame_number),
        T(rawi_missing),
        T(unsupported_video_class),
        T(not_an_mlv_file),
        T(hostile_rawi_size_fails_per_frame),
        T(lj92_payload_errors_are_damage_of_the_frame),
        T(impossible_rawi_size_is_damage_of_its_frames),
        T(frames_larger_than_every_payload_are_left_out),
        T(small_payload_refused_before_allocating),
        T(guid_mismatch_chunk),
        T(missing_middle_chunk),
        T(unreadable_chunk_is_damage),
        T(legacy_footer_claims_too_many_frames),
        T(legacy_footer_rate_zero_falls_back),
        T(legacy_missing_middle_chunk_ends_the_stream),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
