/* DNG writer: the file structure parsed back with an independent reader, every tag of
 * doc/cinemadng.md's table, the sample layouts (16-bit, packed 10/12/14, LJ92), error cases,
 * and the "dng" sink's files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codec/lj92.h"
#include "common/mp_white.h"
#include "encode/dng.h"
#include "encode/sink.h"
#include "pipeline/formats.h"
#include "tiff_parse.h"

static void fill_frame(mp_frame *f, uint32_t w, uint32_t h, uint32_t bits, uint32_t number)
{
    assert_int_equal(mp_frame_reserve(f, w, h, NULL), MP_OK);
    f->bits = bits;
    f->black = 128u << (bits - 10);
    f->white = (1u << bits) - 1;
    f->cfa = MP_CFA_RGGB;
    f->number = number;
    f->timestamp_us = 1000 + 41708ull * number;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            f->data[(size_t)y * w + x] =
                (uint16_t)((37u * x + 101u * y + 7919u * number + (x * y) % 13) & ((1u << bits) - 1));
}

static void full_params(mp_sink_params *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->clip_name, sizeof p->clip_name, "M12-0345");
    p->fps_num = 23976;
    p->fps_den = 1000;
    mp_clip_meta *m = &p->meta;
    m->camera = (mp_camera){1, "Canon EOS 5D Mark III", 0x80000285, "123456"};
    m->lens = (mp_lens){.present = 1, .focal_mm = 35, .aperture_x100 = 280,
                        .name = "EF35mm f/2 IS USM"};
    m->exposure = (mp_exposure){.present = 1, .iso = 800, .shutter_us = 20000};
    m->white_balance = (mp_white_balance){.present = 1, .mode = MP_WB_MODE_CUSTOM,
                                          .gain_r = 2048, .gain_g = 1024, .gain_b = 1536};
    m->wall_clock = (mp_wall_clock){.present = 1, .year = 2024, .month = 12, .day = 31,
                                    .hour = 23, .minute = 59, .second = 59,
                                    .timestamp_us = 1000};
    m->capture = (mp_raw_capture){.present = 1, .binning_x = 3, .binning_y = 5};
    for (int i = 0; i < 9; i++)
        m->raw.color_matrix1[i] = (mp_rational){(i % 4 == 0) ? 10000 : -1000 * i, 10000};
    m->raw.calibration_illuminant = 17;
}

typedef struct parsed {
    uint8_t *buf;
    size_t len;
    tp_ifd ifd0, exif;
} parsed;

static void encode_and_parse(const mp_frame *f, const mp_frame_meta *m, const mp_sink_params *p,
                             parsed *out)
{
    mp_error err = {0};
    mp_status st = mp_dng_encode(f, m, p, &out->buf, &out->len, &err);
    if (st != MP_OK)
        fail_msg("encode: %s", err.msg);
    const char *why = tp_parse(out->buf, out->len, &out->ifd0);
    if (why)
        fail_msg("IFD0: %s", why);
    assert_int_equal(out->ifd0.next, 0);
    const tp_entry *e = tp_find(&out->ifd0, 34665);
    memset(&out->exif, 0, sizeof out->exif);
    if (e && (why = tp_parse_ifd(out->buf, out->len, tp_u32(e, 0), &out->exif)))
        fail_msg("Exif IFD: %s", why);
}

static const tp_entry *need(const tp_ifd *ifd, uint16_t tag, uint16_t type, uint32_t count)
{
    const tp_entry *e = tp_find(ifd, tag);
    if (!e)
        fail_msg("tag %u missing", tag);
    if (e->type != type || e->count != count)
        fail_msg("tag %u: type %u count %u, expected %u x %u", tag, e->type, e->count, type,
                 count);
    return e;
}

static const uint8_t *strip_of(const parsed *d, uint32_t expect_bytes)
{
    uint32_t off = tp_u32(need(&d->ifd0, 273, 4, 1), 0);
    uint32_t bytes = tp_u32(need(&d->ifd0, 279, 4, 1), 0);
    if (expect_bytes)
        assert_int_equal(bytes, expect_bytes);
    assert_true((uint64_t)off + bytes == d->len);   /* the strip ends the file */
    assert_int_equal(off % 2, 0);
    return d->buf + off;
}

static void test_full_tag_set(void **state)
{
    (void)state;
    mp_frame f = {0};
    mp_sink_params p;
    fill_frame(&f, 64, 32, 16, 30);
    full_params(&p);
    parsed d;
    encode_and_parse(&f, NULL, &p, &d);
    const tp_ifd *i0 = &d.ifd0;

    assert_int_equal(tp_u32(need(i0, 254, 4, 1), 0), 0);
    assert_int_equal(tp_u32(need(i0, 256, 4, 1), 0), 64);
    assert_int_equal(tp_u32(need(i0, 257, 4, 1), 0), 32);
    assert_int_equal(tp_u32(need(i0, 258, 3, 1), 0), 16);
    assert_int_equal(tp_u32(need(i0, 259, 3, 1), 0), 1);
    assert_int_equal(tp_u32(need(i0, 262, 3, 1), 0), 32803);
    assert_string_equal((const char *)need(i0, 271, 2, 6)->value, "Canon");
    assert_string_equal((const char *)tp_find(i0, 272)->value, "Canon EOS 5D Mark III");
    assert_int_equal(tp_u32(need(i0, 274, 3, 1), 0), 1);
    assert_int_equal(tp_u32(need(i0, 277, 3, 1), 0), 1);
    assert_int_equal(tp_u32(need(i0, 278, 4, 1), 0), 32);
    assert_int_equal(tp_u32(need(i0, 284, 3, 1), 0), 1);
    assert_string_equal((const char *)tp_find(i0, 305)->value, MP_DNG_SOFTWARE);
    /* RTCI 23:59:59 at t = 1000 us; frame 30 is 1.25 s later: next day, next year. */
    assert_string_equal((const char *)need(i0, 306, 2, 20)->value, "2025:01:01 00:00:00");
    const tp_entry *e = need(i0, 33421, 3, 2);
    assert_int_equal(tp_u32(e, 0), 2);
    assert_int_equal(tp_u32(e, 1), 2);
    e = need(i0, 33422, 1, 4);
    assert_memory_equal(e->value, "\0\1\1\2", 4);
    assert_memory_equal(need(i0, 50706, 1, 4)->value, "\1\4\0\0", 4);
    assert_memory_equal(need(i0, 50707, 1, 4)->value, "\1\1\0\0", 4);
    assert_string_equal((const char *)tp_find(i0, 50708)->value, "Canon EOS 5D Mark III");
    e = need(i0, 50713, 3, 2);
    assert_int_equal(tp_u32(e, 0) * tp_u32(e, 1), 1);
    assert_int_equal(tp_u32(need(i0, 50714, 4, 1), 0), f.black);
    assert_int_equal(tp_u32(need(i0, 50717, 4, 1), 0), f.white);
    e = need(i0, 50718, 5, 2);      /* 5D3 720p: 3 x 5 binning -> stretch rows by 5/3 */
    assert_int_equal(tp_u32(e, 0), 1);
    assert_int_equal(tp_u32(e, 1), 1);
    assert_int_equal(tp_u32(e, 2), 5);
    assert_int_equal(tp_u32(e, 3), 3);
    e = need(i0, 50719, 4, 2);
    assert_int_equal(tp_u32(e, 0) + tp_u32(e, 1), 0);
    e = need(i0, 50720, 4, 2);
    assert_int_equal(tp_u32(e, 0), 64);
    assert_int_equal(tp_u32(e, 1), 32);
    /* the 5D Mark III is in the camera table: Adobe's matrices for A and D65 */
    static const int32_t cm_a[9] = {7234, -1413, -600, -3631, 11150, 2850, -382, 1335, 6437};
    static const int32_t cm_d65[9] = {6722, -635, -963, -4287, 12460, 2028, -908, 2162, 5668};
    e = need(i0, 50721, 10, 9);
    const tp_entry *e2 = need(i0, 50722, 10, 9);
    for (int i = 0; i < 9; i++) {
        assert_int_equal(tp_i32(e, 2 * i), cm_a[i]);
        assert_int_equal(tp_i32(e, 2 * i + 1), 10000);
        assert_int_equal(tp_i32(e2, 2 * i), cm_d65[i]);
        assert_int_equal(tp_i32(e2, 2 * i + 1), 10000);
    }
    assert_int_equal(tp_u32(need(i0, 50778, 3, 1), 0), 17);
    assert_int_equal(tp_u32(need(i0, 50779, 3, 1), 0), 21);
    e = need(i0, 50728, 5, 3);      /* custom mode: neutral = channel gain / green gain */
    assert_int_equal(tp_u32(e, 0), tp_u32(e, 1) * 2);
    assert_int_equal(tp_u32(e, 2), tp_u32(e, 3));
    assert_int_equal(tp_u32(e, 4) * 2, tp_u32(e, 5) * 3);
    e = need(i0, 50730, 10, 1);
    assert_int_equal(tp_i32(e, 0), 0);
    assert_int_equal(tp_i32(e, 1), 1);
    e = need(i0, 50829, 4, 4);
    assert_int_equal(tp_u32(e, 0), 0);
    assert_int_equal(tp_u32(e, 1), 0);
    assert_int_equal(tp_u32(e, 2), 32);
    assert_int_equal(tp_u32(e, 3), 64);
    /* Frame 30 at 23.976 (nominal 24): 00:00:01:06 */
    assert_memory_equal(need(i0, 51043, 1, 8)->value, "\x06\x01\0\0\0\0\0\0", 8);
    e = need(i0, 51044, 10, 1);
    assert_int_equal(tp_i32(e, 0), 24000);
    assert_int_equal(tp_i32(e, 1), 1001);
    assert_string_equal((const char *)tp_find(i0, 51081)->value, "M12-0345");
    need(i0, 51109, 10, 1);
    static const uint16_t absent[] = {330, 50740, 51008, 51009, 51022};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++)
        assert_null(tp_find(i0, absent[i]));   /* no SubIFDs, private data or opcodes */

    const tp_ifd *ex = &d.exif;
    e = need(ex, 33434, 5, 1);
    assert_int_equal(tp_u32(e, 0), 1);
    assert_int_equal(tp_u32(e, 1), 50);
    e = need(ex, 33437, 5, 1);
    assert_int_equal(tp_u32(e, 0) * 10, tp_u32(e, 1) * 28);
    assert_int_equal(tp_u32(need(ex, 34855, 3, 1), 0), 800);
    e = need(ex, 37386, 5, 1);
    assert_int_equal(tp_u32(e, 0), 35 * tp_u32(e, 1));
    assert_string_equal((const char *)tp_find(ex, 42036)->value, "EF35mm f/2 IS USM");
    need(ex, 36864, 7, 4);

    const uint8_t *s = strip_of(&d, 64 * 32 * 2);
    for (size_t i = 0; i < 64 * 32; i++)
        assert_int_equal(s[2 * i] | s[2 * i + 1] << 8, f.data[i]);
    free(d.buf);

    /* a body outside the table: RAWI's single matrix and illuminant */
    p.meta.camera = (mp_camera){1, "Canon EOS R", 0x80000424, ""};
    encode_and_parse(&f, NULL, &p, &d);
    e = need(&d.ifd0, 50721, 10, 9);
    for (int i = 0; i < 9; i++)
        assert_int_equal(tp_i32(e, 2 * i), p.meta.raw.color_matrix1[i].num);
    assert_int_equal(tp_u32(need(&d.ifd0, 50778, 3, 1), 0), 17);
    assert_null(tp_find(&d.ifd0, 50722));
    assert_null(tp_find(&d.ifd0, 50779));
    free(d.buf);
    mp_frame_free(&f);
}

/* Test-side unpacker: big-endian, MSB-first bitstream, each row starting on a byte. */
static uint16_t unpacked_at(const uint8_t *strip, size_t row_bytes, uint32_t bits, uint32_t x,
                            uint32_t y)
{
    uint64_t bit = (uint64_t)x * bits;
    const uint8_t *p = strip + y * row_bytes + bit / 8;
    uint32_t v = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
    return (uint16_t)((v >> (24 - bits - bit % 8)) & ((1u << bits) - 1));
}

static void check_packed(uint32_t bits, uint32_t w)
{
    mp_frame f = {0};
    mp_sink_params p;
    fill_frame(&f, w, 16, bits, 3);
    full_params(&p);
    parsed d;
    encode_and_parse(&f, NULL, &p, &d);
    assert_int_equal(tp_u32(need(&d.ifd0, 258, 3, 1), 0), bits);
    size_t row_bytes = (w * bits + 7) / 8;
    /* unpacked_at reads 3 bytes at a time: work on a padded copy of the strip. */
    const uint8_t *s = strip_of(&d, (uint32_t)(row_bytes * 16));
    uint8_t *copy = calloc(row_bytes * 16 + 4, 1);
    memcpy(copy, s, row_bytes * 16);
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < w; x++)
            assert_int_equal(unpacked_at(copy, row_bytes, bits, x, y), f.data[y * w + x]);
    free(copy);
    free(d.buf);
    mp_frame_free(&f);
}

static void test_packed_10_12_14(void **state)
{
    (void)state;
    check_packed(10, 64);
    check_packed(12, 64);
    check_packed(14, 64);
    check_packed(14, 36);   /* rows not a multiple of 8 bits: each row pads to a byte */
    check_packed(10, 35);
}

static void test_sixteen_bit_storage_of_14_bit_frame(void **state)
{
    (void)state;
    mp_frame f = {0};
    mp_sink_params p;
    fill_frame(&f, 32, 8, 14, 0);
    full_params(&p);
    p.storage = MP_DNG_16BIT;
    parsed d;
    encode_and_parse(&f, NULL, &p, &d);
    assert_int_equal(tp_u32(need(&d.ifd0, 258, 3, 1), 0), 16);
    assert_int_equal(tp_u32(need(&d.ifd0, 50717, 4, 1), 0), f.white);   /* levels kept */
    const uint8_t *s = strip_of(&d, 32 * 8 * 2);
    for (size_t i = 0; i < 32 * 8; i++)
        assert_int_equal(s[2 * i] | s[2 * i + 1] << 8, f.data[i]);
    free(d.buf);
    mp_frame_free(&f);
}

static void check_lj92(uint32_t bits, mp_dng_storage storage)
{
    mp_frame f = {0};
    mp_sink_params p;
    fill_frame(&f, 48, 20, bits, 5);
    full_params(&p);
    p.storage = storage;
    parsed d;
    encode_and_parse(&f, NULL, &p, &d);
    assert_int_equal(tp_u32(need(&d.ifd0, 259, 3, 1), 0), 7);
    assert_int_equal(tp_u32(need(&d.ifd0, 258, 3, 1), 0), bits);
    assert_int_equal(tp_u32(need(&d.ifd0, 278, 4, 1), 0), 20);
    const uint8_t *s = strip_of(&d, 0);
    size_t len = d.len - (size_t)(s - d.buf);
    uint16_t *out = malloc(48 * 20 * sizeof *out);
    lj92_header h;
    mp_error err;
    assert_int_equal(mp_lj92_decode(s, len, out, 48 * 20, &h, &err), MP_OK);
    int two = storage == MP_DNG_LJ92_2C;
    assert_int_equal(h.components, two ? 2 : 1);
    assert_int_equal(h.width, two ? 24 : 96);
    assert_int_equal(h.height, two ? 20 : 10);
    assert_int_equal(h.precision, bits);
    assert_int_equal(h.predictor, two ? 1 : 6);
    assert_memory_equal(out, f.data, 48 * 20 * sizeof *out);
    free(out);
    free(d.buf);
    mp_frame_free(&f);
}

static void test_lj92(void **state)
{
    (void)state;
    check_lj92(14, MP_DNG_LJ92);
    check_lj92(16, MP_DNG_LJ92);
    check_lj92(12, MP_DNG_LJ92);
    check_lj92(14, MP_DNG_LJ92_2C);
    check_lj92(16, MP_DNG_LJ92_2C);
    check_lj92(10, MP_DNG_LJ92_2C);
}

static void test_minimal_metadata(void **state)
{
    (void)state;
    mp_frame f = {0};
    mp_sink_params p = {.clip_name = "A", .fps_num = 25, .fps_den = 1};
    fill_frame(&f, 16, 8, 12, 0);
    parsed d;
    encode_and_parse(&f, NULL, &p, &d);
    static const uint16_t absent[] = {306, 34665, 50721, 50728, 50778};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++)
        assert_null(tp_find(&d.ifd0, absent[i]));
    assert_string_equal((const char *)tp_find(&d.ifd0, 50708)->value, "Canon EOS");
    const tp_entry *e = need(&d.ifd0, 50718, 5, 2);
    for (uint32_t i = 0; i < 4; i++)
        assert_int_equal(tp_u32(e, i), 1);
    e = need(&d.ifd0, 51044, 10, 1);
    assert_int_equal(tp_i32(e, 0), 25);
    assert_int_equal(tp_i32(e, 1), 1);
    free(d.buf);
    mp_frame_free(&f);
}

static void test_geometry_tags(void **state)
{
    (void)state;
    mp_frame f = {0};
    mp_sink_params p;
    fill_frame(&f, 64, 32, 14, 0);
    full_params(&p);
    /* 1x3 anamorphic: columns bin 3 sensor columns, rows one row -> widen 3x. */
    p.meta.capture = (mp_raw_capture){.present = 1, .binning_x = 3, .binning_y = 1};
    /* Active area starting on an odd row: the CFA pattern is given at that corner. */
    p.meta.raw.active_area[0] = 1;
    p.meta.raw.active_area[1] = 2;
    p.meta.raw.active_area[2] = 31;
    p.meta.raw.active_area[3] = 62;
    parsed d;
    encode_and_parse(&f, NULL, &p, &d);
    const tp_entry *e = need(&d.ifd0, 50718, 5, 2);
    assert_int_equal(tp_u32(e, 0), 3);
    assert_int_equal(tp_u32(e, 1), 1);
    assert_int_equal(tp_u32(e, 2), tp_u32(e, 3));
    assert_memory_equal(need(&d.ifd0, 33422, 1, 4)->value, "\1\2\0\1", 4);   /* GBRG */
    e = need(&d.ifd0, 50829, 4, 4);
    assert_int_equal(tp_u32(e, 0), 1);
    assert_int_equal(tp_u32(e, 3), 62);
    e = need(&d.ifd0, 50720, 4, 2);
    assert_int_equal(tp_u32(e, 0), 60);
    assert_int_equal(tp_u32(e, 1), 30);
    free(d.buf);
    /* An active area of the full sensor buffer does not fit the frame: whole frame. */
    p.meta.raw.active_area[2] = 3000;
    encode_and_parse(&f, NULL, &p, &d);
    e = need(&d.ifd0, 50829, 4, 4);
    assert_int_equal(tp_u32(e, 2), 32);
    assert_memory_equal(need(&d.ifd0, 33422, 1, 4)->value, "\0\1\1\2", 4);
    free(d.buf);
    mp_frame_free(&f);
}

/* Per-frame exposure/WB change the Exif and AsShotNeutral, never the clip-constant levels
 * or BaselineExposure; equal inputs give equal bytes. */
static void test_deterministic_and_clip_constant(void **state)
{
    (void)state;
    mp_frame f = {0};
    mp_sink_params p;
    fill_frame(&f, 32, 16, 14, 9);
    full_params(&p);
    p.baseline_exposure = (mp_rational){-1, 2};
    mp_exposure e2 = {.present = 1, .iso = 1600, .shutter_us = 10000};
    mp_white_balance w2 = {.present = 1, .mode = MP_WB_MODE_CUSTOM, .gain_r = 1024,
                           .gain_g = 1024, .gain_b = 1024};
    mp_frame_meta m = {&e2, &w2};
    parsed a, b, c;
    encode_and_parse(&f, NULL, &p, &a);
    encode_and_parse(&f, NULL, &p, &b);
    encode_and_parse(&f, &m, &p, &c);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.buf, b.buf, a.len);
    assert_int_equal(tp_u32(need(&c.exif, 34855, 3, 1), 0), 1600);
    const tp_entry *n = need(&c.ifd0, 50728, 5, 3);
    assert_int_equal(tp_u32(n, 0), tp_u32(n, 1));
    const tp_entry *ba = need(&a.ifd0, 50730, 10, 1), *bc = need(&c.ifd0, 50730, 10, 1);
    assert_int_equal(tp_i32(ba, 0), -1);
    assert_int_equal(tp_i32(ba, 1), 2);
    assert_memory_equal(ba->value, bc->value, 8);
    free(a.buf);
    free(b.buf);
    free(c.buf);
    mp_frame_free(&f);
}

static void expect_arg_error(const mp_frame *f, const mp_sink_params *p, const char *what)
{
    uint8_t *buf = NULL;
    size_t len;
    mp_error err = {0};
    assert_int_equal(mp_dng_encode(f, NULL, p, &buf, &len, &err), MP_ERR_ARG);
    assert_null(buf);
    if (!strstr(err.msg, what))
        fail_msg("message \"%s\" lacks \"%s\"", err.msg, what);
}

static void test_rejects_undescribable_frames(void **state)
{
    (void)state;
    mp_frame f = {0};
    mp_sink_params p;
    full_params(&p);
    fill_frame(&f, 16, 8, 12, 0);
    f.black = f.white;
    expect_arg_error(&f, &p, "black level");
    fill_frame(&f, 16, 8, 12, 0);
    f.data[5] = 4096;
    expect_arg_error(&f, &p, "exceed 12 bits");
    fill_frame(&f, 16, 7, 12, 0);
    p.storage = MP_DNG_LJ92;
    expect_arg_error(&f, &p, "even size");
    p.storage = MP_DNG_NATIVE;
    fill_frame(&f, 16, 8, 12, 0);
    f.cfa = 0x03010100;
    expect_arg_error(&f, &p, "CFA");
    fill_frame(&f, 16, 8, 12, 0);
    p.fps_num = 0;
    expect_arg_error(&f, &p, "frame rate");
    mp_frame_free(&f);
}

static char *make_temp_dir(void)
{
    char *dir = strdup("/tmp/mlvpipe-dng-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return dir;
}

static int exists(const char *dir, const char *name)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

static void test_sink_files(void **state)
{
    (void)state;
    char *dir = make_temp_dir();
    mp_frame f = {0};
    mp_sink_params p;
    full_params(&p);
    mp_sink *s;
    mp_error err = {0};
    assert_int_equal(mp_sink_open(&s, mp_sink_find("dng"), dir, &p, &err), MP_OK);
    fill_frame(&f, 16, 8, 14, 5);
    assert_int_equal(mp_sink_write_frame(s, &f, NULL, &err), MP_OK);
    f.number = 1234567;
    assert_int_equal(mp_sink_write_frame(s, &f, NULL, &err), MP_OK);
    f.number = 5;   /* the final file exists: refused, named in the message */
    assert_int_equal(mp_sink_write_frame(s, &f, NULL, &err), MP_ERR_IO);
    assert_non_null(strstr(err.msg, "M12-0345/M12-0345_000005.dng: exists"));
    assert_int_equal(mp_sink_write_audio(s, "xx", 2, &err), MP_ERR_ARG);
    assert_int_equal(mp_sink_frames_written(s), 2);
    assert_int_equal(mp_sink_finish(s, &err), MP_OK);
    assert_true(exists(dir, "M12-0345/M12-0345_000005.dng"));
    assert_true(exists(dir, "M12-0345/M12-0345_1234567.dng"));

    p.overwrite = 1;
    p.one_based = 1;
    assert_int_equal(mp_sink_open(&s, mp_sink_find("dng"), dir, &p, &err), MP_OK);
    f.number = 4;
    assert_int_equal(mp_sink_write_frame(s, &f, NULL, &err), MP_OK);   /* replaces _000005 */
    assert_int_equal(mp_sink_finish(s, &err), MP_OK);

    p.one_based = 0;
    p.naming = MP_NAMING_RESOLVE;
    p.resolve_clip_index = 12;
    assert_int_equal(mp_sink_open(&s, mp_sink_find("dng"), dir, &p, &err), MP_OK);
    f.number = 0;
    assert_int_equal(mp_sink_write_frame(s, &f, NULL, &err), MP_OK);
    mp_sink_abort(s);
    /* RTCI 23:59:59 at 1000 us: the recording started at 23:59:59 of 2024-12-31. */
    assert_true(exists(dir, "M12-0345_1_2024-12-31_2359_C0012/"
                            "M12-0345_1_2024-12-31_2359_C0012_000000.dng"));

    snprintf(p.clip_name, sizeof p.clip_name, "../evil");
    assert_int_equal(mp_sink_open(&s, mp_sink_find("dng"), dir, &p, &err), MP_ERR_ARG);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
    mp_frame_free(&f);
}

static void collect_log(void *opaque, mp_log_level level, const char *msg)
{
    char *out = opaque;
    if (level == MP_LOG_WARNING)
        snprintf(out + strlen(out), 1024 - strlen(out), "%s\n", msg);
}

static void test_level_change_warns_once(void **state)
{
    (void)state;
    char *dir = make_temp_dir();
    char log[1024] = "";
    mp_sink_params p;
    full_params(&p);
    p.log = (mp_logger){collect_log, log};
    mp_sink *s;
    mp_error err;
    mp_frame f = {0};
    assert_int_equal(mp_sink_open(&s, mp_sink_find("dng"), dir, &p, &err), MP_OK);
    for (uint32_t n = 0; n < 4; n++) {
        fill_frame(&f, 16, 8, 14, n);
        f.white = n < 2 ? 15000 : 14000;
        assert_int_equal(mp_sink_write_frame(s, &f, NULL, &err), MP_OK);
    }
    assert_int_equal(mp_sink_finish(s, &err), MP_OK);
    assert_string_equal(log, "M12-0345: frame 2 has black/white 2048/14000, unlike earlier "
                             "frames (2048/15000): levels should stay constant over a clip\n");
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
    mp_frame_free(&f);
}

typedef struct writer_job {
    mp_sink *sink;
    const mp_sink_params *p;
    uint32_t first;
    mp_status status;
} writer_job;

static void *write_every_fourth(void *arg)
{
    writer_job *job = arg;
    mp_frame f = {0};
    mp_error err;
    job->status = MP_OK;
    for (uint32_t n = job->first; n < 32 && job->status == MP_OK; n += 4) {
        fill_frame(&f, 32, 16, 14, n);
        job->status = mp_sink_write_frame(job->sink, &f, NULL, &err);
    }
    mp_frame_free(&f);
    return NULL;
}

/* The dng sink is declared safe for concurrent frames: four threads, 32 files, each equal to
 * the frame encoded alone. */
static void test_concurrent_frames(void **state)
{
    (void)state;
    char *dir = make_temp_dir();
    mp_sink_params p;
    full_params(&p);
    p.storage = MP_DNG_LJ92_2C;
    const mp_sink_ops *ops = mp_sink_find("dng");
    assert_true(ops->concurrent_frames);
    mp_sink *s;
    mp_error err;
    assert_int_equal(mp_sink_open(&s, ops, dir, &p, &err), MP_OK);
    pthread_t th[4];
    writer_job jobs[4];
    for (uint32_t i = 0; i < 4; i++) {
        jobs[i] = (writer_job){s, &p, i, MP_OK};
        assert_int_equal(pthread_create(&th[i], NULL, write_every_fourth, &jobs[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(jobs[i].status, MP_OK);
    }
    assert_int_equal(mp_sink_frames_written(s), 32);
    assert_int_equal(mp_sink_finish(s, &err), MP_OK);
    mp_frame f = {0};
    for (uint32_t n = 0; n < 32; n++) {
        fill_frame(&f, 32, 16, 14, n);
        uint8_t *want;
        size_t want_len;
        assert_int_equal(mp_dng_encode(&f, NULL, &p, &want, &want_len, &err), MP_OK);
        char path[4096];
        snprintf(path, sizeof path, "%s/M12-0345/M12-0345_%06u.dng", dir, n);
        FILE *fp = fopen(path, "rb");
        assert_non_null(fp);
        uint8_t *got = malloc(want_len + 1);
        assert_int_equal(fread(got, 1, want_len + 1, fp), want_len);
        fclose(fp);
        assert_memory_equal(got, want, want_len);
        free(got);
        free(want);
    }
    mp_frame_free(&f);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full_tag_set),
        cmocka_unit_test(test_packed_10_12_14),
        cmocka_unit_test(test_sixteen_bit_storage_of_14_bit_frame),
        cmocka_unit_test(test_lj92),
        cmocka_unit_test(test_minimal_metadata),
        cmocka_unit_test(test_geometry_tags),
        cmocka_unit_test(test_deterministic_and_clip_constant),
        cmocka_unit_test(test_rejects_undescribable_frames),
        cmocka_unit_test(test_sink_files),
        cmocka_unit_test(test_concurrent_frames),
        cmocka_unit_test(test_level_change_warns_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
