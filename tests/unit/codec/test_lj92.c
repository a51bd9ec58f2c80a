/* Unit tests for codec/lj92: decoding of streams built here bit by bit (checked against a
 * reference reconstruction written from T.81 H.1.2.1, independent of the library), encoder
 * round trips over components x predictors x precisions x shapes, restart intervals,
 * several tables, and damaged input (every truncation, random byte flips). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codec/lj92.h"

static uint32_t rng = 987654321;
static uint32_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* ---- a tiny stream writer ------------------------------------------------------------ */

typedef struct stream {
    uint8_t buf[1 << 16];
    size_t n;
    uint64_t acc;
    unsigned bits;
} stream;

static void put(stream *s, const uint8_t *b, size_t n)
{
    memcpy(s->buf + s->n, b, n);
    s->n += n;
}

static void put_entropy(stream *s, uint32_t v, unsigned len)
{
    s->acc = s->acc << len | v;
    s->bits += len;
    while (s->bits >= 8) {
        s->bits -= 8;
        uint8_t byte = (uint8_t)(s->acc >> s->bits);
        s->buf[s->n++] = byte;
        if (byte == 0xFF)
            s->buf[s->n++] = 0;
    }
}

static void pad_ones(stream *s)
{
    if (s->bits)
        put_entropy(s, (1u << (8 - s->bits)) - 1, 8 - s->bits);
}

/* Two fixed tables: every category 0..16 has a 5-bit code; table 0 gives category k the
 * code k, table 1 the code 16 - k (so using the wrong table decodes wrongly). */
static void put_dht_fixed(stream *s, unsigned ntables)
{
    uint8_t seg[4 + 2 * (17 + 17)];
    size_t n = 4;
    for (unsigned t = 0; t < ntables; t++) {
        seg[n++] = (uint8_t)t;
        for (int l = 1; l <= 16; l++)
            seg[n++] = l == 5 ? 17 : 0;
        for (int k = 0; k < 17; k++)
            seg[n++] = (uint8_t)(t ? 16 - k : k);
    }
    seg[0] = 0xFF;
    seg[1] = 0xC4;
    seg[2] = (uint8_t)((n - 2) >> 8);
    seg[3] = (uint8_t)(n - 2);
    put(s, seg, n);
}

static void put_sof3(stream *s, unsigned p, unsigned w, unsigned h, unsigned nf)
{
    uint8_t seg[10 + 12] = {0xFF, 0xC3, 0, (uint8_t)(8 + 3 * nf), (uint8_t)p, (uint8_t)(h >> 8),
                            (uint8_t)h, (uint8_t)(w >> 8), (uint8_t)w, (uint8_t)nf};
    for (unsigned c = 0; c < nf; c++) {
        seg[10 + 3 * c] = (uint8_t)(c + 1);
        seg[11 + 3 * c] = 0x11;
        seg[12 + 3 * c] = 0;
    }
    put(s, seg, 10 + 3 * nf);
}

static void put_sos(stream *s, unsigned nf, unsigned pred, unsigned ntables)
{
    uint8_t seg[5 + 8 + 3] = {0xFF, 0xDA, 0, (uint8_t)(6 + 2 * nf), (uint8_t)nf};
    size_t n = 5;
    for (unsigned c = 0; c < nf; c++) {
        seg[n++] = (uint8_t)(c + 1);
        seg[n++] = (uint8_t)((c % ntables) << 4);
    }
    seg[n++] = (uint8_t)pred;
    seg[n++] = 0;
    seg[n++] = 0;
    put(s, seg, n);
}

static unsigned category_of(int d)
{
    d = (int16_t)(uint16_t)d;
    if (d == -32768)
        return 16;
    unsigned m = (unsigned)(d < 0 ? -d : d), k = 0;
    while (m) {
        k++;
        m >>= 1;
    }
    return k;
}

static void put_diff(stream *s, int d, unsigned table)
{
    unsigned k = category_of(d);
    put_entropy(s, table ? 16 - k : k, 5);
    if (k && k < 16) {
        int v = (int16_t)(uint16_t)d;
        put_entropy(s, (uint32_t)(v < 0 ? v + (1 << k) - 1 : v), k);
    }
}

/* Full stream of the given differences with the fixed tables. */
static void build_stream(stream *s, const int *diffs, unsigned nf, unsigned w, unsigned h,
                         unsigned p, unsigned pred, unsigned ntables)
{
    memset(s, 0, sizeof *s);
    put(s, (const uint8_t[]){0xFF, 0xD8}, 2);
    put_dht_fixed(s, ntables);
    put_sof3(s, p, w, h, nf);
    put_sos(s, nf, pred, ntables);
    for (size_t i = 0; i < (size_t)w * h * nf; i++)
        put_diff(s, diffs[i], (unsigned)(i % nf) % ntables);
    pad_ones(s);
    put(s, (const uint8_t[]){0xFF, 0xD9}, 2);
}

/* T.81 H.1.2.1, written out plainly. */
static void reference_reconstruct(const int *diffs, unsigned nf, unsigned w, unsigned h,
                                  unsigned p, unsigned pred, uint16_t *out)
{
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            for (unsigned c = 0; c < nf; c++) {
                size_t i = ((size_t)y * w + x) * nf + c;
                long px;
                if (y == 0 && x == 0) {
                    px = 1L << (p - 1);
                } else if (y == 0) {
                    px = out[i - nf];
                } else if (x == 0) {
                    px = out[i - (size_t)w * nf];
                } else {
                    long ra = out[i - nf], rb = out[i - (size_t)w * nf],
                         rc = out[i - (size_t)w * nf - nf];
                    switch (pred) {
                    case 1: px = ra; break;
                    case 2: px = rb; break;
                    case 3: px = rc; break;
                    case 4: px = ra + rb - rc; break;
                    case 5: px = ra + ((rb - rc) >> 1); break;
                    case 6: px = rb + ((ra - rc) >> 1); break;
                    default: px = (ra + rb) >> 1; break;
                    }
                }
                out[i] = (uint16_t)((px + diffs[i]) & 0xFFFF);
            }
}

static int random_diff(void)
{
    uint32_t r = next_random();
    switch (r % 8) {
    case 0: return 0;
    case 1: return (int)(r >> 8) % 65536 - 32768;  /* any category, including 16 */
    default: return (int)((r >> 8) % 601) - 300;
    }
}

static void hand_built_streams_all_predictors_and_components(void **state)
{
    (void)state;
    static stream s;
    enum { W = 7, H = 5 };
    int diffs[W * H * 4];
    uint16_t want[W * H * 4], got[W * H * 4];
    for (unsigned nf = 1; nf <= 4; nf++)
        for (unsigned pred = 1; pred <= 7; pred++)
            for (unsigned ntables = 1; ntables <= 2; ntables++) {
                size_t n = (size_t)W * H * nf;
                for (size_t i = 0; i < n; i++)
                    diffs[i] = random_diff();
                build_stream(&s, diffs, nf, W, H, 16, pred, ntables);
                reference_reconstruct(diffs, nf, W, H, 16, pred, want);
                lj92_header hdr;
                mp_error err = {0};
                mp_status st = mp_lj92_decode(s.buf, s.n, got, n, &hdr, &err);
                assert_int_equal(st, MP_OK);
                assert_memory_equal(got, want, n * sizeof *got);
                assert_int_equal(hdr.width, W);
                assert_int_equal(hdr.height, H);
                assert_int_equal(hdr.components, nf);
                assert_int_equal(hdr.predictor, pred);
                lj92_options o;
                assert_int_equal(mp_lj92_read_header_opts(s.buf, s.n, NULL, &o, &err), MP_OK);
                assert_int_equal(o.tables, nf == 1 ? 1 : ntables);
            }
}

/* X=3, P=8, table {0: SSSS 0, 1: SSSS 2}: samples 128, 131, 129 are the bits 0 1.11 1.01 + 1. */
static void tiny_stream_by_hand(void **state)
{
    (void)state;
    const uint8_t data[] = {
        0xFF, 0xD8,
        0xFF, 0xFE, 0x00, 0x04, 'h', 'i',  /* a comment is skipped */
        0xFF, 0xC3, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x03, 0x01, 0x01, 0x11, 0x00,
        0xFF, 0xC4, 0x00, 0x15, 0x00, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00,
        0x02,  /* DHT after SOF3 */
        0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00,
        0x7B,
        0xFF, 0xD9, 0x00, 0x00,  /* VIDF padding after EOI */
    };
    uint16_t out[3];
    mp_error err = {0};
    assert_int_equal(mp_lj92_decode(data, sizeof data, out, 3, NULL, &err), MP_OK);
    assert_int_equal(out[0], 128);
    assert_int_equal(out[1], 131);
    assert_int_equal(out[2], 129);
}

/* Four samples of difference +1 with codes {0: SSSS 0, 1: SSSS 1} are the bits 11111111,
 * which must be stuffed as FF 00. */
static void tiny_stream_with_stuffing(void **state)
{
    (void)state;
    const uint8_t data[] = {
        0xFF, 0xD8,
        0xFF, 0xC4, 0x00, 0x15, 0x00, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x01,
        0xFF, 0xC3, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x04, 0x01, 0x01, 0x11, 0x00,
        0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00,
        0xFF, 0x00,
        0xFF, 0xD9,
    };
    uint16_t out[4];
    assert_int_equal(mp_lj92_decode(data, sizeof data, out, 4, NULL, NULL), MP_OK);
    for (int i = 0; i < 4; i++)
        assert_int_equal(out[i], 129 + i);
}

static void make_image(uint16_t *img, unsigned w, unsigned h, unsigned nf, unsigned p)
{
    unsigned max = (1u << p) - 1;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w * nf; x++) {
            int v = (int)((x * 37u + y * 53u) % (max + 1)) / 2 + (int)(next_random() % 64) - 32;
            img[(size_t)y * w * nf + x] = (uint16_t)(v < 0 ? 0 : (unsigned)v > max ? max : (unsigned)v);
        }
}

static void round_trip(const uint16_t *img, const lj92_header *in, const lj92_options *opt)
{
    static const lj92_options none;
    if (!opt)
        opt = &none;
    uint8_t *enc = NULL;
    size_t len = 0;
    mp_error err = {0};
    assert_int_equal(mp_lj92_encode_opts(img, in, opt, &enc, &len, &err), MP_OK);
    size_t n = (size_t)in->width * in->height * in->components;
    uint16_t *out = malloc(n * sizeof *out);
    lj92_header got;
    assert_int_equal(mp_lj92_read_header(enc, len, &got, &err), MP_OK);
    assert_int_equal(got.width, in->width);
    assert_int_equal(got.precision, in->precision);
    mp_status st = mp_lj92_decode(enc, len, out, n, &got, &err);
    if (st != MP_OK)
        fail_msg("%ux%ux%u P%u pred %u: %s", in->width, in->height, in->components, in->precision,
                 in->predictor, err.msg);
    assert_memory_equal(out, img, n * sizeof *out);
    assert_int_equal(got.width, in->width);
    assert_int_equal(got.height, in->height);
    assert_int_equal(got.components, in->components);
    assert_int_equal(got.precision, in->precision);
    assert_int_equal(got.predictor, in->predictor);
    lj92_options got_opt;
    assert_int_equal(mp_lj92_read_header_opts(enc, len, NULL, &got_opt, &err), MP_OK);
    assert_int_equal(got_opt.point_transform, opt->point_transform);
    assert_int_equal(got_opt.restart_interval, opt->restart_interval);
    assert_int_equal(got_opt.tables, opt->tables ? opt->tables : 1);
    free(out);
    free(enc);
}

static void encoder_round_trips(void **state)
{
    (void)state;
    const unsigned precisions[] = {8, 12, 14, 16};
    const unsigned shapes[][2] = {{13, 9}, {1, 6}, {9, 1}, {1, 1}};
    uint16_t *img = malloc(13 * 9 * 4 * sizeof *img);
    for (unsigned nf = 1; nf <= 4; nf++)
        for (unsigned pred = 1; pred <= 7; pred++)
            for (unsigned pi = 0; pi < 4; pi++)
                for (unsigned si = 0; si < 4; si++) {
                    lj92_header h = {shapes[si][0], shapes[si][1], nf, precisions[pi], pred};
                    make_image(img, h.width, h.height, nf, h.precision);
                    round_trip(img, &h, NULL);
                }
    free(img);
}

/* Uniform 16-bit noise makes the small categories rare: codes up to 16 bits long, beyond
 * the decoder's lookup table, and category 16 (difference 32768). */
static void long_codes_and_category_16(void **state)
{
    (void)state;
    enum { W = 256, H = 64 };
    uint16_t *img = malloc(W * H * 2 * sizeof *img);
    for (int i = 0; i < W * H * 2; i++)
        img[i] = (uint16_t)next_random();
    img[0] = 0;  /* first prediction is 32768: difference -32768 = category 16 */
    lj92_header h = {W, H, 2, 16, 1};
    round_trip(img, &h, NULL);
    h.predictor = 7;
    round_trip(img, &h, NULL);
    free(img);
}

static size_t count_pattern(const uint8_t *p, size_t n, uint8_t a, uint8_t b)
{
    size_t k = 0;
    for (size_t i = 0; i + 1 < n; i++)
        k += p[i] == a && p[i + 1] == b;
    return k;
}

static void restart_intervals(void **state)
{
    (void)state;
    enum { W = 11, H = 19 };
    uint16_t img[W * H * 3];
    make_image(img, W, H, 3, 14);
    lj92_header h = {W, H, 3, 14, 5};
    lj92_options o = {.restart_interval = 2 * W};
    round_trip(img, &h, &o);
    h.predictor = 1;
    o.restart_interval = W;
    round_trip(img, &h, &o);

    o.restart_interval = 2 * W;
    uint8_t *enc;
    size_t len;
    assert_int_equal(mp_lj92_encode_opts(img, &h, &o, &enc, &len, NULL), MP_OK);
    for (unsigned m = 0; m < 8; m++)  /* 9 restarts: RST0..7 then RST0 again */
        assert_int_equal(count_pattern(enc, len, 0xFF, 0xD0 + m), m == 0 ? 2 : 1);
    /* A wrong marker number is damage. */
    for (size_t i = 0; i + 1 < len; i++)
        if (enc[i] == 0xFF && enc[i + 1] == 0xD3) {
            enc[i + 1] = 0xD5;
            break;
        }
    uint16_t out[W * H * 3];
    mp_error err = {0};
    assert_int_equal(mp_lj92_decode(enc, len, out, W * H * 3, NULL, &err), MP_ERR_DAMAGED);
    assert_non_null(strstr(err.msg, "RST3"));
    free(enc);
}

static void several_tables_and_point_transform(void **state)
{
    (void)state;
    enum { W = 16, H = 8 };
    uint16_t img[W * H * 4];
    for (unsigned nf = 2; nf <= 4; nf++) {
        make_image(img, W, H, nf, 12);
        lj92_header h = {W, H, nf, 12, 6};
        lj92_options o = {.tables = nf};
        round_trip(img, &h, &o);
        o.tables = 2;
        round_trip(img, &h, &o);
    }
    make_image(img, W, H, 2, 14);
    for (int i = 0; i < W * H * 2; i++)
        img[i] &= (uint16_t)~7u;
    lj92_header h = {W, H, 2, 14, 4};
    lj92_options o = {.point_transform = 3};
    round_trip(img, &h, &o);
}

static void encoder_rejects_bad_input(void **state)
{
    (void)state;
    uint16_t img[4] = {1, 2, 3, 4096};
    uint8_t *enc = (uint8_t *)1;
    size_t len = 1;
    mp_error err = {0};
    lj92_header h = {2, 2, 1, 12, 1};
    assert_int_equal(mp_lj92_encode(img, &h, &enc, &len, &err), MP_ERR_ARG);
    assert_null(enc);
    h.precision = 13;
    assert_int_equal(mp_lj92_encode(img, &h, &enc, &len, &err), MP_OK);
    free(enc);
    h.predictor = 8;
    assert_int_equal(mp_lj92_encode(img, &h, &enc, &len, &err), MP_ERR_ARG);
    h.predictor = 1;
    lj92_options o = {.tables = 2};
    assert_int_equal(mp_lj92_encode_opts(img, &h, &o, &enc, &len, &err), MP_ERR_ARG);
    o.tables = 0;
    o.restart_interval = 3;
    assert_int_equal(mp_lj92_encode_opts(img, &h, &o, &enc, &len, &err), MP_ERR_ARG);
}

static stream *small_stream(size_t *count)
{
    static stream s;
    enum { W = 6, H = 4, NF = 2 };
    int diffs[W * H * NF];
    for (int i = 0; i < W * H * NF; i++)
        diffs[i] = random_diff();
    build_stream(&s, diffs, NF, W, H, 14, 1, 2);
    *count = W * H * NF;
    return &s;
}

static void header_checks(void **state)
{
    (void)state;
    size_t count;
    stream *s = small_stream(&count);
    uint16_t *out = malloc((count + 1) * sizeof *out);
    mp_error err = {0};
    lj92_header h;
    assert_int_equal(mp_lj92_read_header(s->buf, s->n, &h, &err), MP_OK);
    assert_int_equal(h.width * h.height * h.components, count);
    assert_int_equal(mp_lj92_decode(s->buf, s->n, out, count + 1, NULL, &err), MP_ERR_DAMAGED);
    assert_int_equal(mp_lj92_decode(s->buf, s->n, out, count - 1, NULL, &err), MP_ERR_DAMAGED);

    uint8_t copy[sizeof s->buf];
    memcpy(copy, s->buf, s->n);
    size_t sof = 0;
    while (!(copy[sof] == 0xFF && copy[sof + 1] == 0xC3))
        sof++;
    memcpy(copy + sof + 5, (const uint8_t[]){0xFF, 0xFF, 0xFF, 0xFF}, 4);  /* 65535 x 65535 x 2 */
    memset(&err, 0, sizeof err);
    assert_int_equal(mp_lj92_read_header(copy, s->n, &h, &err), MP_ERR_DAMAGED);
    assert_non_null(strstr(err.msg, "offset"));

    memcpy(copy, s->buf, s->n);
    copy[sof + 1] = 0xC0;  /* baseline DCT */
    assert_int_equal(mp_lj92_read_header(copy, s->n, &h, &err), MP_ERR_UNSUPPORTED);

    memcpy(copy, s->buf, s->n);
    copy[0] = 0;
    assert_int_equal(mp_lj92_read_header(copy, s->n, &h, &err), MP_ERR_FORMAT);
    free(out);
}

/* 300 codes of 16 bits fit the code space but not the 256 values a table may hold. */
static void oversized_table_is_damage(void **state)
{
    (void)state;
    static stream s;
    memset(&s, 0, sizeof s);
    put(&s, (const uint8_t[]){0xFF, 0xD8, 0xFF, 0xC4, 0x01, 0x3F, 0x00}, 7);  /* Lh 2+17+300 */
    uint8_t counts[16] = {0};
    counts[14] = 150;
    counts[15] = 150;
    put(&s, counts, 16);
    uint8_t values[300] = {0};
    put(&s, values, 300);
    mp_error err = {0};
    lj92_header h;
    assert_int_equal(mp_lj92_read_header(s.buf, s.n, &h, &err), MP_ERR_DAMAGED);
    assert_non_null(strstr(err.msg, "300 codes"));
}

static void invalid_code_is_damage(void **state)
{
    (void)state;
    static stream s;
    memset(&s, 0, sizeof s);
    put(&s, (const uint8_t[]){0xFF, 0xD8}, 2);
    put_dht_fixed(&s, 1);
    put_sof3(&s, 14, 4, 1, 1);
    put_sos(&s, 1, 1, 1);
    put_entropy(&s, 0, 5);
    put_entropy(&s, 0x1F, 5);  /* codes 17..31 are not in the table */
    put_entropy(&s, 0, 10);
    pad_ones(&s);
    put(&s, (const uint8_t[]){0xFF, 0xD9}, 2);
    uint16_t out[4];
    mp_error err = {0};
    assert_int_equal(mp_lj92_decode(s.buf, s.n, out, 4, NULL, &err), MP_ERR_DAMAGED);
    assert_non_null(strstr(err.msg, "offset"));
    assert_non_null(strstr(err.msg, "Huffman"));
}

/* Cutting into the data is an error at every length; cutting only the EOI marker leaves the
 * image whole, and it decodes. */
static void every_truncation_fails(void **state)
{
    (void)state;
    size_t count;
    stream *s = small_stream(&count);
    uint16_t *out = malloc(count * sizeof *out), *whole = malloc(count * sizeof *whole);
    assert_int_equal(mp_lj92_decode(s->buf, s->n, whole, count, NULL, NULL), MP_OK);
    for (size_t len = 0; len < s->n; len++) {
        uint8_t *copy = malloc(len ? len : 1);  /* exact size: the sanitizer sees overreads */
        memcpy(copy, s->buf, len);
        mp_error err = {0};
        mp_status st = mp_lj92_decode(copy, len, out, count, NULL, &err);
        if (len >= s->n - 2) {
            assert_int_equal(st, MP_OK);
            assert_memory_equal(out, whole, count * sizeof *out);
        } else if (st == MP_OK) {
            fail_msg("truncation to %zu of %zu bytes decoded", len, s->n);
        } else {
            assert_non_null(strstr(err.msg, "offset"));
        }
        free(copy);
    }
    /* a marker other than EOI after the scan */
    s->buf[s->n - 1] = 0xDC;
    assert_int_equal(mp_lj92_decode(s->buf, s->n, out, count, NULL, NULL), MP_ERR_DAMAGED);
    s->buf[s->n - 1] = 0xD9;
    free(out);
    free(whole);
}

static void random_damage_never_crashes(void **state)
{
    (void)state;
    enum { W = 24, H = 6 };
    uint16_t img[W * H * 2], out[W * H * 2];
    make_image(img, W, H, 2, 14);
    for (unsigned pred = 1; pred <= 7; pred += 5) {
        lj92_header h = {W, H, 2, 14, pred};
        lj92_options o = {.restart_interval = W * 2};
        uint8_t *enc;
        size_t len;
        assert_int_equal(mp_lj92_encode_opts(img, &h, &o, &enc, &len, NULL), MP_OK);
        uint8_t *copy = malloc(len);
        int failures = 0;
        for (int iter = 0; iter < 3000; iter++) {
            memcpy(copy, enc, len);
            int flips = 1 + (int)(next_random() % 3);
            for (int f = 0; f < flips; f++)
                copy[next_random() % len] ^= (uint8_t)(1 + next_random() % 255);
            mp_error err = {0};
            mp_status st = mp_lj92_decode(copy, len, out, W * H * 2, NULL, &err);
            failures += st != MP_OK;
            if (st != MP_OK)
                assert_true(strlen(err.msg) > 0);
        }
        assert_true(failures > 0);
        free(copy);
        free(enc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_built_streams_all_predictors_and_components),
        cmocka_unit_test(tiny_stream_by_hand),
        cmocka_unit_test(tiny_stream_with_stuffing),
        cmocka_unit_test(encoder_round_trips),
        cmocka_unit_test(long_codes_and_category_16),
        cmocka_unit_test(restart_intervals),
        cmocka_unit_test(several_tables_and_point_transform),
        cmocka_unit_test(encoder_rejects_bad_input),
        cmocka_unit_test(header_checks),
        cmocka_unit_test(oversized_table_is_damage),
        cmocka_unit_test(invalid_code_is_damage),
        cmocka_unit_test(every_truncation_fails),
        cmocka_unit_test(random_damage_never_crashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
