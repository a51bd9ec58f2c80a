/* Reader tests on clips written by the test itself (no shared samples needed): every block
 * type, old short blocks, metadata changing mid-clip, gaps, 16-bit, LJ92 tagged as raw,
 * DELTA / LZMA, audio edge cases, and the DISO recovery-ISO table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codec/bitpack.h"
#include "codec/delta.h"
#include "codec/lj92.h"
#include "codec/lzma_frame.h"
#include "reader/mlv_blocks.h"
#include "reader/mlv_reader.h"
#include "reader_test_util.h"

#define GUID 0x0123456789abcdefull

static char *tmp;

static int group_setup(void **state)
{
    (void)state;
    tmp = temp_dir();
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    remove_tree(tmp);
    return 0;
}

/* Writes b to tmp/name and opens it; the path is in *path (caller frees). */
static mlv_clip *write_and_open(tbuf *b, const char *name)
{
    char *path = join(tmp, name);
    tb_write(b, path);
    tb_free(b);
    mlv_clip *c = NULL;
    mp_error err = {0};
    if (mp_mlv_clip_open(&c, path, NULL, &err) != MP_OK)
        fail_msg("%s: %s", name, err.msg);
    free(path);
    return c;
}

static void vidf_pattern(tbuf *b, uint64_t ts, uint32_t number, uint32_t w, uint32_t h,
                         uint32_t bits, uint32_t f)
{
    size_t len;
    uint8_t *p = packed_pattern(w, h, f, bits, &len);
    tb_vidf(b, ts, number, p, len);
    free(p);
}

/* Frame `index` decodes to the pattern of frame f at w x h and bits. */
static void expect_pattern(const mlv_clip *c, uint32_t index, uint32_t w, uint32_t h,
                           uint32_t bits, uint32_t f, mlv_scratch *s)
{
    mp_frame fr = {0};
    mp_error err = {0};
    if (mp_mlv_read_frame(c, index, &fr, s, &err) != MP_OK)
        fail_msg("frame index %u: %s", index, err.msg);
    assert_int_equal(fr.width, w);
    assert_int_equal(fr.height, h);
    assert_int_equal(fr.bits, bits);
    uint16_t *want = malloc((size_t)w * h * 2);
    pattern_frame(want, w, h, f, bits);
    assert_memory_equal(fr.data, want, (size_t)w * h * 2);
    free(want);
    mp_frame_free(&fr);
}

static void text_block(tbuf *b, const char *tag, uint64_t ts, const char *s)
{
    tb_block(b, tag, ts, s, strlen(s));
}

static void every_block_type_is_decoded(void **state)
{
    (void)state;
    tbuf b = {0}, body = {0};
    tb_mlvi(&b, GUID, 0, 1, 0, 24000, 1001);
    tb_rawi(&b, 10, 64, 32, 16, 1024, 60000);
    /* RAWC */
    tb_u16(&body, 5796); tb_u16(&body, 3870); tb_u16(&body, 100); tb_u16(&body, 0);
    uint8_t bin[4] = {3, 0, 1, 2};
    tb_bytes(&body, bin, 4);
    tb_u16(&body, (uint16_t)-32768); tb_u16(&body, 12);
    tb_block(&b, "RAWC", 10, body.p, body.n);
    tb_free(&body);
    /* IDNT: name, model, serial */
    char name[32] = "Canon EOS 5D Mark III";
    tb_bytes(&body, name, 32); tb_u32(&body, 0x80000285);
    char serial[32] = "123456789";
    tb_bytes(&body, serial, 32);
    tb_block(&b, "IDNT", 10, body.p, body.n);
    tb_free(&body);
    tb_expo(&b, 10, 400, 20000);
    /* LENS with a 32-character name and no NUL */
    tb_u16(&body, 50); tb_u16(&body, 65535); tb_u16(&body, 180);
    uint8_t modes[2] = {1, 2};
    tb_bytes(&body, modes, 2);
    tb_u32(&body, 7); tb_u32(&body, 0x1234);
    tb_bytes(&body, "EF50mm f/1.8 STM ABCDEFGHIJKLMNO", 32);
    char lserial[32] = "00ab";
    tb_bytes(&body, lserial, 32);
    tb_block(&b, "LENS", 10, body.p, body.n);
    tb_free(&body);
    /* RTCI: 2024-05-17 13:45:30 */
    uint16_t tm[10] = {30, 45, 13, 17, 4, 124, 5, 137, 0, 0};
    for (int i = 0; i < 10; i++)
        tb_u16(&body, tm[i]);
    tb_bytes(&body, "CEST\0\0\0\0", 8);
    tb_block(&b, "RTCI", 10, body.p, body.n);
    tb_free(&body);
    tb_wbal(&b, 10, 5600);
    /* STYL */
    tb_u32(&body, 0x81); tb_u32(&body, 1); tb_u32(&body, 2); tb_u32(&body, (uint32_t)-1);
    tb_u32(&body, 0);
    char sname[16] = "Neutral";
    tb_bytes(&body, sname, 16);
    tb_block(&b, "STYL", 10, body.p, body.n);
    tb_free(&body);
    /* ELVL */
    tb_u32(&body, 150); tb_u32(&body, (uint32_t)-25);
    tb_block(&b, "ELVL", 10, body.p, body.n);
    tb_free(&body);
    text_block(&b, "INFO", 10, "scene 4 take 2");
    /* VERS: u32 length then text */
    const char *vers[2] = {"mlv_lite built 2020", "dual_iso built 2019"};
    for (int i = 0; i < 2; i++) {
        tb_u32(&body, (uint32_t)strlen(vers[i]));
        tb_bytes(&body, vers[i], strlen(vers[i]));
        tb_bytes(&body, "\0\0\0", 3);
        tb_block(&b, "VERS", 10, body.p, body.n);
        tb_free(&body);
    }
    tb_diso(&b, 10, 1, -1);
    tb_u32(&body, 1);
    tb_block(&b, "MARK", 10, body.p, body.n);
    tb_block(&b, "MARK", 2000, body.p, body.n);
    tb_free(&body);
    tb_u32(&body, 0); tb_u32(&body, 4);
    tb_bytes(&body, "log!pad.", 8);
    tb_block(&b, "DEBG", 10, body.p, body.n);
    tb_free(&body);
    tb_u32(&body, 0); tb_u32(&body, 0);
    tb_block(&b, "XREF", 0, body.p, body.n);
    tb_block(&b, "COLP", 10, "unknown block body", 18);
    tb_block(&b, "BKUP", 10, NULL, 0);
    tb_block(&b, "NULL", 0, "\xa5\xa5\xa5\xa5", 4);
    tb_free(&body);
    vidf_pattern(&b, 1000, 0, 64, 32, 16, 0);
    vidf_pattern(&b, 42708, 1, 64, 32, 16, 1);
    mlv_clip *c = write_and_open(&b, "blocks.MLV");

    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_int_equal(in->damage_count, 0);
    assert_int_equal(in->guid, GUID);
    assert_int_equal(in->fps_num, 24000);
    assert_int_equal(in->fps_den, 1001);
    assert_int_equal(in->raw.width, 64);
    assert_int_equal(in->raw.bits, 16);
    assert_int_equal(in->raw.black, 1024);
    assert_int_equal(in->raw.white, 60000);
    assert_int_equal(in->raw.api_version, 1);
    assert_int_equal(in->raw.active_area[2], 32);
    assert_int_equal(in->raw.active_area[3], 64);
    assert_int_equal(in->raw.color_matrix1[0].num, -3000);
    assert_int_equal(in->raw.color_matrix1[8].den, 10000);
    assert_int_equal(in->raw.dynamic_range_x100, 1150);
    assert_true(in->capture.present);
    assert_int_equal(in->capture.sensor_width, 5796);
    assert_int_equal(in->capture.binning_x, 3);
    assert_int_equal(in->capture.skipping_y, 2);
    assert_int_equal(in->capture.offset_x, -32768);
    assert_int_equal(in->capture.offset_y, 12);
    assert_string_equal(in->camera.name, "Canon EOS 5D Mark III");
    assert_int_equal(in->camera.model, 0x80000285);
    assert_string_equal(in->camera.serial, "123456789");
    assert_int_equal(in->exposure.iso, 400);
    assert_int_equal(in->exposure.iso_analog, 72);
    assert_int_equal(in->exposure.shutter_us, 20000);
    assert_string_equal(in->lens.name, "EF50mm f/1.8 STM ABCDEFGHIJKLMNO");
    assert_string_equal(in->lens.serial, "00ab");
    assert_int_equal(in->lens.focal_mm, 50);
    assert_int_equal(in->lens.focus_dist, 65535);
    assert_int_equal(in->lens.aperture_x100, 180);
    assert_int_equal(in->lens.stabilizer, 1);
    assert_int_equal(in->lens.lens_id, 0x1234);
    assert_true(in->wall_clock.present);
    assert_int_equal(in->wall_clock.year, 2024);
    assert_int_equal(in->wall_clock.month, 5);
    assert_int_equal(in->wall_clock.day, 17);
    assert_int_equal(in->wall_clock.hour, 13);
    assert_int_equal(in->wall_clock.minute, 45);
    assert_int_equal(in->wall_clock.second, 30);
    assert_string_equal(in->wall_clock.zone, "CEST");
    assert_int_equal(in->white_balance.kelvin, 5600);
    assert_int_equal(in->white_balance.gain_r, 2048);
    assert_int_equal(in->style.id, 0x81);
    assert_int_equal(in->style.sharpness, 2);
    assert_int_equal(in->style.saturation, -1);
    assert_int_equal(in->style.colortone, 0);
    assert_int_equal(in->style.contrast, 1);
    assert_string_equal(in->style.name, "Neutral");
    assert_int_equal(in->level.roll_x100, 150);
    assert_int_equal(in->level.pitch_x100, -25);
    assert_string_equal(in->info_text, "scene 4 take 2");
    assert_string_equal(in->versions, "mlv_lite built 2020; dual_iso built 2019");
    assert_int_equal(in->mark_count, 2);
    assert_int_equal(in->dual_iso.iso_value, -1);
    assert_int_equal(in->dual_iso.recovery_iso, 400 << 6);   /* +6 EV from the EXPO ISO */
    assert_int_equal(in->frame_count, 2);
    mlv_frame_info fi;
    assert_int_equal(mp_mlv_frame_info_get(c, 1, &fi), MP_OK);
    assert_int_equal(fi.crop_x, 8);
    assert_int_equal(fi.crop_y, 2);
    assert_int_equal(fi.pan_x, 7);
    assert_int_equal(fi.pan_y, 3);
    mlv_scratch s = {0};
    expect_pattern(c, 0, 64, 32, 16, 0, &s);
    expect_pattern(c, 1, 64, 32, 16, 1, &s);
    mp_mlv_scratch_free(&s);
    mp_mlv_clip_close(c);
}

static void short_old_blocks_read_zero_filled(void **state)
{
    (void)state;
    tbuf b = {0}, body = {0};
    tb_mlvi(&b, GUID, 0, 1, 0, 25, 1);
    tb_rawi(&b, 0, 64, 32, 14, 2048, 15000);
    char name[32] = "Canon EOS 550D";
    tb_bytes(&body, name, 32);
    tb_u32(&body, 0x80000270);
    tb_block(&b, "IDNT", 0, body.p, body.n);   /* 36 payload bytes: no serial */
    tb_free(&body);
    tb_u32(&body, 1);
    tb_u32(&body, 800);
    tb_u32(&body, 96);
    tb_u32(&body, 0);
    tb_block(&b, "EXPO", 0, body.p, body.n);   /* 16 payload bytes: no shutter */
    tb_free(&body);
    /* a block that grew in a later version: extra bytes are skipped */
    tb_u32(&body, 1);
    tb_u32(&body, 2);
    tb_u32(&body, 0xffffffff);
    tb_block(&b, "DISO", 0, body.p, body.n);
    tb_free(&body);
    vidf_pattern(&b, 100, 0, 64, 32, 14, 0);
    mlv_clip *c = write_and_open(&b, "old.MLV");
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_string_equal(in->camera.name, "Canon EOS 550D");
    assert_int_equal(in->camera.model, 0x80000270);
    assert_string_equal(in->camera.serial, "");
    assert_int_equal(in->exposure.iso, 800);
    assert_int_equal(in->exposure.iso_mode, 1);
    assert_int_equal(in->exposure.shutter_us, 0);
    assert_int_equal(in->dual_iso.iso_value, 2);
    assert_int_equal(in->dual_iso.recovery_iso, 400);
    assert_int_equal(in->fps_num, 25);
    assert_int_equal(in->damage_count, 0);
    mlv_scratch s = {0};
    expect_pattern(c, 0, 64, 32, 14, 0, &s);
    mp_mlv_scratch_free(&s);
    mp_mlv_clip_close(c);
}

static void metadata_changes_apply_in_timestamp_order(void **state)
{
    (void)state;
    tbuf b = {0};
    tb_mlvi(&b, GUID, 0, 1, 0, 25, 1);
    tb_rawi(&b, 0, 64, 32, 14, 2048, 15000);
    tb_expo(&b, 0, 100, 10000);
    tb_wbal(&b, 0, 5000);
    for (uint32_t k = 0; k < 6; k++) {
        uint64_t ts = 1000 + 40000 * k;
        if (k == 5) {
            tb_rawi(&b, 180000, 32, 16, 12, 512, 3750);   /* new geometry from frame 5 */
            vidf_pattern(&b, ts, k, 32, 16, 12, k);
        } else {
            vidf_pattern(&b, ts, k, 64, 32, 14, k);
        }
        if (k == 2)   /* written after frame 2 but stamped before it */
            tb_expo(&b, 60000, 400, 10000);
        if (k == 3)
            tb_wbal(&b, 140000, 3200);
    }
    mlv_clip *c = write_and_open(&b, "changes.MLV");
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_int_equal(in->frame_count, 6);
    assert_int_equal(in->segment_count, 3);
    static const uint32_t iso[6] = {100, 100, 400, 400, 400, 400};
    static const uint32_t kelvin[6] = {5000, 5000, 5000, 5000, 3200, 3200};
    static const uint32_t segment[6] = {0, 0, 1, 1, 1, 2};
    for (uint32_t k = 0; k < 6; k++) {
        mlv_frame_info fi;
        assert_int_equal(mp_mlv_frame_info_get(c, k, &fi), MP_OK);
        assert_int_equal(fi.exposure->iso, iso[k]);
        assert_int_equal(fi.white_balance->kelvin, kelvin[k]);
        assert_int_equal(fi.segment, segment[k]);
        assert_int_equal(fi.raw->width, k == 5 ? 32 : 64);
    }
    assert_int_equal(in->exposure.iso, 100);   /* clip info: metadata at the first frame */
    mlv_scratch s = {0};
    expect_pattern(c, 4, 64, 32, 14, 4, &s);
    expect_pattern(c, 5, 32, 16, 12, 5, &s);
    mp_frame fr = {0};
    assert_int_equal(mp_mlv_read_frame(c, 5, &fr, &s, NULL), MP_OK);
    assert_int_equal(fr.black, 512);
    assert_int_equal(fr.white, 3750);
    mp_frame_free(&fr);
    mp_mlv_scratch_free(&s);
    mp_mlv_clip_close(c);
}

static void dropped_frames_are_gaps(void **state)
{
    (void)state;
    tbuf b = {0};
    tb_mlvi(&b, GUID, 0, 1, 0, 25, 1);
    tb_rawi(&b, 0, 64, 32, 10, 128, 1000);
    static const uint32_t numbers[5] = {9, 0, 1, 4, 5};   /* stored out of order too */
    for (int i = 0; i < 5; i++)
        vidf_pattern(&b, 1000 + 40000ull * numbers[i], numbers[i], 64, 32, 10, numbers[i]);
    mlv_clip *c = write_and_open(&b, "gaps.MLV");
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_int_equal(in->frame_count, 5);
    assert_int_equal(in->gap_count, 2);
    assert_int_equal(in->missing_frames, 5);
    assert_int_equal(in->first_number, 0);
    assert_int_equal(in->last_number, 9);
    assert_int_equal(in->damage_count, 0);
    assert_int_equal(mp_mlv_frame_index_of(c, 4), 2);
    assert_int_equal(mp_mlv_frame_index_of(c, 2), -1);
    mlv_scratch s = {0};
    expect_pattern(c, 4, 64, 32, 10, 9, &s);
    mp_mlv_scratch_free(&s);
    mp_mlv_clip_close(c);
}

static void lj92_payload_in_uncompressed_class(void **state)
{
    (void)state;
    uint16_t px[64 * 32];
    pattern_frame(px, 64, 32, 3, 14);
    lj92_header h = {.width = 64, .height = 16, .components = 2, .precision = 14,
                     .predictor = 1};
    uint8_t *jpg;
    size_t len;
    assert_int_equal(mp_lj92_encode(px, &h, &jpg, &len, NULL), MP_OK);
    tbuf b = {0};
    tb_mlvi(&b, GUID, 0, 1, 0, 25, 1);
    tb_rawi(&b, 0, 64, 32, 14, 2048, 15000);
    tb_vidf(&b, 1000, 0, jpg, len);
    free(jpg);
    mlv_clip *c = write_and_open(&b, "tagged.MLV");
    assert_true(mp_mlv_clip_get_info(c)->lj92_tagged_raw);
    mlv_scratch s = {0};
    expect_pattern(c, 0, 64, 32, 14, 3, &s);
    mp_mlv_scratch_free(&s);
    mp_mlv_clip_close(c);
}

/* DELTA/LZMA clips as mlv_dump wrote them: frames 0-2 at one RAWI, then a new RAWI (the
 * DELTA reference restarts from zeros) and frames 3-5; frame k holds pattern first + k. */
static mlv_clip *write_archive_clip(uint16_t video_class, const char *name, uint32_t first)
{
    const uint32_t w = 64, h = 32, bits = 14;
    size_t count = (size_t)w * h;
    uint16_t *ref = calloc(count, 2), *cur = malloc(count * 2);
    tbuf b = {0};
    tb_mlvi(&b, GUID, 0, video_class, 0, 25, 1);
    tb_rawi(&b, 0, (uint16_t)w, (uint16_t)h, bits, 2048, 15000);
    for (uint32_t k = 0; k < 6; k++) {
        if (k == 3) {
            tb_rawi(&b, 100000, (uint16_t)w, (uint16_t)h, bits, 2047, 15000);
            memset(ref, 0, count * 2);
        }
        pattern_frame(cur, w, h, first + k, bits);
        uint16_t *stored = malloc(count * 2);
        memcpy(stored, cur, count * 2);
        if (video_class & 0x40)
            mp_delta_encode(stored, ref, count, bits);
        memcpy(ref, cur, count * 2);
        size_t len = mp_packed_size_mlv(count, bits);
        uint8_t *packed = calloc(1, len);
        mp_pack_mlv(stored, packed, count, bits);
        if (video_class & 0x80) {
            uint8_t *z;
            size_t zlen;
            assert_int_equal(mp_lzma_frame_encode(packed, len, &z, &zlen, NULL), MP_OK);
            tb_vidf(&b, 1000 + 40000ull * k, k, z, zlen);
            free(z);
        } else {
            tb_vidf(&b, 1000 + 40000ull * k, k, packed, len);
        }
        free(packed);
        free(stored);
    }
    free(ref);
    free(cur);
    return write_and_open(&b, name);
}

static void delta_and_lzma_frames(void **state)
{
    (void)state;
    static const struct {
        uint16_t cls;
        mlv_compression comp;
        const char *name;
    } kinds[] = {
        {0x41, MLV_COMPRESSION_DELTA, "delta.MLV"},
        {0x81, MLV_COMPRESSION_LZMA, "lzma.MLV"},
        {0xC1, MLV_COMPRESSION_LZMA_DELTA, "lzmadelta.MLV"},
    };
    for (int i = 0; i < 3; i++) {
        mlv_clip *c = write_archive_clip(kinds[i].cls, kinds[i].name, 0);
        assert_int_equal(mp_mlv_clip_get_info(c)->compression, kinds[i].comp);
        assert_int_equal(mp_mlv_clip_get_info(c)->segment_count, 2);
        mlv_scratch s = {0};
        for (uint32_t k = 0; k < 6; k++)   /* sequential */
            expect_pattern(c, k, 64, 32, 14, k, &s);
        static const uint32_t order[] = {4, 1, 5, 0, 3, 2, 2};   /* random access */
        for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
            expect_pattern(c, order[k], 64, 32, 14, order[k], &s);
        mp_mlv_scratch_free(&s);
        mlv_scratch fresh = {0};
        expect_pattern(c, 5, 64, 32, 14, 5, &fresh);
        /* the same scratch on another clip of the same size must not reuse this reference */
        mlv_clip *other = write_archive_clip(kinds[i].cls, "other.MLV", 10);
        expect_pattern(other, 4, 64, 32, 14, 14, &fresh);
        expect_pattern(c, 5, 64, 32, 14, 5, &fresh);
        mp_mlv_clip_close(other);
        mp_mlv_scratch_free(&fresh);
        mp_mlv_clip_close(c);
    }
}

/* Payloads read ahead by someone else (the pipeline's I/O thread) and decoded by several
 * scratches: a DELTA frame whose scratch does not hold the frame before it rebuilds the
 * reference by reading the earlier frames itself, without touching the payload given. */
static void delta_and_lzma_payloads_from_elsewhere(void **state)
{
    (void)state;
    static const uint16_t classes[] = {0x41, 0x81, 0xC1};
    const uint32_t w = 64, h = 32, bits = 14;
    uint16_t *want = malloc((size_t)w * h * 2);
    for (int i = 0; i < 3; i++) {
        mlv_clip *c = write_archive_clip(classes[i], "split.MLV", 0);
        int delta = (classes[i] & 0x40) != 0;
        mlv_payload p[6];
        memset(p, 0, sizeof p);
        for (uint32_t k = 0; k < 6; k++)
            assert_int_equal(mp_mlv_read_payload(c, k, &p[k], NULL), MP_OK);
        uint8_t *kept = malloc(p[5].size);
        memcpy(kept, p[5].data, p[5].size);

        mlv_scratch one = {0}, turns[2] = {{0}}, any = {0};
        mp_frame fr = {0};
        static const uint32_t order[] = {4, 1, 5, 0, 3, 2, 2};
        for (int pass = 0; pass < 3; pass++)
            for (uint32_t n = 0; n < (pass == 2 ? 7u : 6u); n++) {
                /* in order with one scratch; two scratches taking turns (two workers);
                 * random access */
                uint32_t k = pass == 2 ? order[n] : n;
                mlv_scratch *s = pass == 0 ? &one : pass == 1 ? &turns[k % 2] : &any;
                mp_error err = {0};
                if (mp_mlv_decode_payload(c, k, &p[k], &fr, s, &err) != MP_OK)
                    fail_msg("class 0x%x pass %d frame %u: %s", classes[i], pass, k, err.msg);
                pattern_frame(want, w, h, k, bits);
                assert_int_equal(fr.number, k);
                assert_memory_equal(fr.data, want, (size_t)w * h * 2);
            }
        /* in order, the reference carries over and nothing is read again; taking turns,
         * each DELTA frame reads the one before it */
        assert_null(one.chain.data);
        if (delta)
            assert_non_null(turns[1].chain.data);
        else
            assert_null(turns[1].chain.data);
        assert_memory_equal(p[5].data, kept, p[5].size);
        free(kept);
        for (uint32_t k = 0; k < 6; k++)
            mp_mlv_payload_free(&p[k]);
        mp_frame_free(&fr);
        mp_mlv_scratch_free(&one);
        mp_mlv_scratch_free(&turns[0]);
        mp_mlv_scratch_free(&turns[1]);
        mp_mlv_scratch_free(&any);
        mp_mlv_clip_close(c);
    }
    free(want);
}

static void audio_blocks_in_number_order_whole_samples(void **state)
{
    (void)state;
    uint8_t pcm[3][402];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 402; k++)
            pcm[i][k] = (uint8_t)(i * 100 + k);
    tbuf b = {0};
    tb_mlvi(&b, GUID, 0, 1, 1, 25, 1);
    tb_rawi(&b, 0, 64, 32, 14, 2048, 15000);
    tb_wavi(&b, 0, 2, 48000);
    tb_audf(&b, 40500, 1, pcm[1], 402);   /* 402 bytes: the half sample frame is dropped */
    tb_audf(&b, 500, 0, pcm[0], 400);
    vidf_pattern(&b, 1000, 0, 64, 32, 14, 0);
    tb_audf(&b, 80500, 2, pcm[2], 400);
    mlv_clip *c = write_and_open(&b, "audio.MLV");
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_int_equal(in->audio_blocks, 3);
    assert_int_equal(in->audio_bytes, 1200);
    assert_int_equal(in->audio_start_us, 500);
    assert_int_equal(in->video_start_us, 1000);
    uint8_t got[1200];
    assert_int_equal(mp_mlv_read_audio(c, 0, got, 1200, NULL), MP_OK);
    for (int i = 0; i < 3; i++)
        assert_memory_equal(got + 400 * i, pcm[i], 400);
    mp_mlv_clip_close(c);

    /* AUDF without WAVI: no audio format, so no audio */
    tb_mlvi(&b, GUID, 0, 1, 1, 25, 1);
    tb_rawi(&b, 0, 64, 32, 14, 2048, 15000);
    tb_audf(&b, 500, 0, pcm[0], 400);
    vidf_pattern(&b, 1000, 0, 64, 32, 14, 0);
    c = write_and_open(&b, "nowavi.MLV");
    assert_int_equal(mp_mlv_clip_get_info(c)->audio_bytes, 0);
    assert_int_equal(mp_mlv_read_audio(c, 0, got, 4, NULL), MP_ERR_RANGE);
    mp_mlv_clip_close(c);
}

static void diso_recovery_iso_table(void **state)
{
    (void)state;
    assert_int_equal(mp_mlv_diso_recovery_iso(0, 100), 100);
    assert_int_equal(mp_mlv_diso_recovery_iso(3, 100), 800);
    assert_int_equal(mp_mlv_diso_recovery_iso(6, 400), 6400);
    assert_int_equal(mp_mlv_diso_recovery_iso(-12, 1600), 25);    /* -6 EV */
    assert_int_equal(mp_mlv_diso_recovery_iso(-7, 1600), 800);    /* -1 EV */
    assert_int_equal(mp_mlv_diso_recovery_iso(-6, 100), 200);     /* +1 EV */
    assert_int_equal(mp_mlv_diso_recovery_iso(-1, 100), 6400);    /* +6 EV */
    assert_int_equal(mp_mlv_diso_recovery_iso(-3, 0), 0);         /* relative, primary unknown */
    assert_int_equal(mp_mlv_diso_recovery_iso(1600, 100), 1600);  /* literal ISO */
    assert_int_equal(mp_mlv_diso_recovery_iso(7, 100), 0);
    assert_int_equal(mp_mlv_diso_recovery_iso(-13, 100), 0);
}

static void many_metadata_changes_stay_bounded(void **state)
{
    (void)state;
    tbuf b = {0};
    tb_mlvi(&b, GUID, 0, 1, 0, 25, 1);
    tb_rawi(&b, 0, 64, 32, 14, 2048, 15000);
    for (uint32_t k = 0; k < 40000; k++)   /* more changes than the reader keeps */
        tb_expo(&b, k, 100 + (k & 1), 1000);
    vidf_pattern(&b, 50000, 0, 64, 32, 14, 0);
    mlv_clip *c = write_and_open(&b, "expo.MLV");
    assert_int_equal(mp_mlv_clip_get_info(c)->frame_count, 1);
    mlv_scratch s = {0};
    expect_pattern(c, 0, 64, 32, 14, 0, &s);
    mp_mlv_scratch_free(&s);
    mp_mlv_clip_close(c);
}

static void resync_across_large_garbage(void **state)
{
    (void)state;
    /* garbage lengths put the next header across the scan's 64 KiB window edges, or past them */
    static const size_t garbage[] = {65536 - 20, 65536 - 1, 65536 + 7, 200000};
    for (size_t g = 0; g < sizeof garbage / sizeof garbage[0]; g++) {
        tbuf b = {0};
        tb_mlvi(&b, GUID, 0, 1, 0, 25, 1);
        tb_rawi(&b, 0, 64, 32, 12, 256, 4000);
        vidf_pattern(&b, 1000, 0, 64, 32, 12, 0);
        uint64_t bad_at = b.n;
        uint8_t *junk = malloc(garbage[g]);
        for (size_t i = 0; i < garbage[g]; i++)
            junk[i] = (uint8_t)(0x80 | (i * 131 % 97));   /* never an ASCII tag */
        tb_bytes(&b, junk, garbage[g]);
        free(junk);
        vidf_pattern(&b, 41000, 1, 64, 32, 12, 1);
        vidf_pattern(&b, 81000, 2, 64, 32, 12, 2);
        mlv_clip *c = write_and_open(&b, "junk.MLV");
        const mlv_clip_info *in = mp_mlv_clip_get_info(c);
        assert_int_equal(in->frame_count, 3);
        assert_int_equal(in->damage_count, 1);
        const mlv_damage *d = mp_mlv_clip_damage(c, 0);
        assert_int_equal(d->kind, MLV_DAMAGE_RESYNC);
        assert_int_equal(d->offset, bad_at);
        mlv_scratch s = {0};
        for (uint32_t k = 0; k < 3; k++)
            expect_pattern(c, k, 64, 32, 12, k, &s);
        mp_mlv_scratch_free(&s);
        mp_mlv_clip_close(c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_block_type_is_decoded),
        cmocka_unit_test(short_old_blocks_read_zero_filled),
        cmocka_unit_test(metadata_changes_apply_in_timestamp_order),
        cmocka_unit_test(dropped_frames_are_gaps),
        cmocka_unit_test(lj92_payload_in_uncompressed_class),
        cmocka_unit_test(delta_and_lzma_frames),
        cmocka_unit_test(delta_and_lzma_payloads_from_elsewhere),
        cmocka_unit_test(audio_blocks_in_number_order_whole_samples),
        cmocka_unit_test(diso_recovery_iso_table),
        cmocka_unit_test(many_metadata_changes_stay_bounded),
        cmocka_unit_test(resync_across_large_garbage),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
