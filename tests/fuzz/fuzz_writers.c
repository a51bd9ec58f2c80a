/* libFuzzer target: the file writers on hostile frames and metadata. The input fills, in
 * order: the frame (size up to 32x32, depth, levels, CFA, DNG storage), the clip metadata
 * (camera and lens names and serials, clock, matrices: any bytes, strings NUL-terminated as
 * the reader keeps them), the clip name, the timing and audio fields of the sink params,
 * then the samples (repeated to fill the frame). Zeros stand in once the input runs out.
 * DNG (mp_dng_encode): succeeds or refuses the frame (MP_ERR_ARG); a file is a well-formed
 * little-endian TIFF (IFDs, Exif IFD, values and strip inside the file, tags ascending,
 * ASCII values NUL-terminated), the same bytes twice, with 16-bit samples as given.
 * TIFF (mp_rgb_image_tiff): the same structure and the RGB samples as given.
 * WAV (mp_wav_header, for PCM formats mp_wav_check_format accepts): RIFF sizes that add up,
 * a data chunk right after the header, and an iXML chunk that is well-formed XML (valid
 * UTF-8, no control characters, balanced elements, only known entities). */
#include <stdlib.h>
#include <string.h>

#include "encode/dng.h"
#include "encode/rgb_image.h"
#include "encode/timecode.h"
#include "encode/wav.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) do { if (!(cond)) __builtin_trap(); } while (0)

typedef struct input {
    const uint8_t *p;
    size_t left;
} input;

/* The next n bytes of the input into dst, zeros past its end. */
static void take(input *in, void *dst, size_t n)
{
    size_t k = n < in->left ? n : in->left;
    memcpy(dst, in->p, k);
    memset((uint8_t *)dst + k, 0, n - k);
    in->p += k;
    in->left -= k;
}

static uint32_t take32(input *in)
{
    uint8_t b[4];
    take(in, b, 4);
    return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint16_t le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t le32(const uint8_t *p) { return le16(p) | (uint32_t)le16(p + 2) << 16; }

#define TERMINATE(s) ((s)[sizeof(s) - 1] = 0)

/* ---- TIFF structure ---- */

typedef struct tiff_strip {
    uint32_t offset, bytes;
    int have_offset, have_bytes;
} tiff_strip;

static void walk_ifd(const uint8_t *f, size_t len, uint32_t off, int depth, tiff_strip *s)
{
    static const uint8_t type_size[13] = {0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8};
    CHECK(depth < 4 && off % 2 == 0 && (uint64_t)off + 2 <= len);
    uint32_t n = le16(f + off);
    CHECK(n > 0 && (uint64_t)off + 2 + 12ull * n + 4 <= len);
    int prev = -1;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *e = f + off + 2 + 12 * i;
        uint16_t tag = le16(e), type = le16(e + 2);
        uint32_t count = le32(e + 4);
        CHECK(tag > prev && type >= 1 && type <= 12 && count > 0);
        prev = tag;
        uint64_t bytes = (uint64_t)type_size[type] * count;
        const uint8_t *value = e + 8;
        if (bytes > 4) {
            uint32_t at = le32(e + 8);
            CHECK(at % 2 == 0 && at + bytes <= len);
            value = f + at;
        }
        if (type == 2)
            CHECK(value[count - 1] == 0);
        uint32_t first = type == 3 ? le16(value) : type == 4 ? le32(value) : 0;
        if (tag == 273 && count == 1)
            s->offset = first, s->have_offset = 1;
        if (tag == 279 && count == 1)
            s->bytes = first, s->have_bytes = 1;
        if (tag == 330 || tag == 34665)   /* SubIFDs, Exif IFD */
            walk_ifd(f, len, first, depth + 1, s);
    }
    uint32_t next = le32(f + off + 2 + 12 * n);
    if (next)
        walk_ifd(f, len, next, depth + 1, s);
}

/* The strip's bytes, after checking the whole file's structure. */
static const uint8_t *check_tiff(const uint8_t *f, size_t len, uint32_t *strip_bytes)
{
    CHECK(len >= 8 && !memcmp(f, "II*\0", 4));
    tiff_strip s = {0};
    walk_ifd(f, len, le32(f + 4), 0, &s);
    CHECK(s.have_offset && s.have_bytes && (uint64_t)s.offset + s.bytes <= len);
    *strip_bytes = s.bytes;
    return f + s.offset;
}

/* ---- XML (the WAV's iXML chunk) ---- */

/* Length of the UTF-8 sequence at p (at most n bytes), 0 when it is not valid UTF-8. */
static size_t utf8_len(const uint8_t *p, size_t n)
{
    if (p[0] < 0x80)
        return 1;
    size_t k = p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 ? 2 : 0;
    if (!k || k > n)
        return 0;
    uint32_t cp = p[0] & (0x7F >> k);
    for (size_t i = 1; i < k; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};   /* no overlong forms */
    return cp >= least[k] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF) ? k : 0;
}

static int name_char(uint8_t c, int first)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
           (!first && ((c >= '0' && c <= '9') || c == '-' || c == '.'));
}

static void check_xml(const uint8_t *x, size_t size)
{
    size_t len = strnlen((const char *)x, size);
    for (size_t i = len; i < size; i++)
        CHECK(x[i] == 0);   /* NUL padding to the chunk's end */
    static const char prolog[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
    CHECK(len >= sizeof prolog - 1 && !memcmp(x, prolog, sizeof prolog - 1));
    const uint8_t *open[16];
    size_t open_len[16], depth = 0, roots = 0;
    for (size_t i = sizeof prolog - 1; i < len;) {
        uint8_t c = x[i];
        CHECK(c >= 0x20 || c == '\t' || c == '\n' || c == '\r');
        if (c == '<') {
            int closing = i + 1 < len && x[i + 1] == '/';
            size_t a = i + 1 + closing, b = a;
            while (b < len && name_char(x[b], b == a))
                b++;
            CHECK(b > a && b < len && x[b] == '>');
            if (closing) {
                CHECK(depth > 0 && open_len[depth - 1] == b - a &&
                      !memcmp(open[depth - 1], x + a, b - a));
                depth--;
            } else {
                CHECK(depth < 16 && (depth > 0 || roots++ == 0));
                open[depth] = x + a;
                open_len[depth++] = b - a;
            }
            i = b + 1;
        } else if (c == '&') {
            static const char *const entities[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
            size_t k = 0;
            while (k < 5 && strncmp((const char *)x + i, entities[k], strlen(entities[k])))
                k++;
            CHECK(k < 5);
            i += strlen(entities[k]);
        } else {
            CHECK(c == '\n' || c == '\t' || c == '\r' || depth > 0);   /* text inside the root */
            size_t k = utf8_len(x + i, len - i);
            CHECK(k);
            i += k;
        }
    }
    CHECK(depth == 0 && roots == 1);
}

/* ---- the three writers ---- */

static void fuzz_dng(const mp_frame *f, const mp_frame_meta *m, const mp_sink_params *p)
{
    uint8_t *a, *b;
    size_t alen, blen;
    mp_error err;
    mp_status st = mp_dng_encode(f, m, p, &a, &alen, &err);
    CHECK(st == MP_OK || st == MP_ERR_ARG);
    if (st != MP_OK)
        return;
    CHECK(mp_dng_encode(f, m, p, &b, &blen, &err) == MP_OK && blen == alen &&
          !memcmp(a, b, alen));
    uint32_t strip_bytes;
    const uint8_t *strip = check_tiff(a, alen, &strip_bytes);
    if (p->storage == MP_DNG_16BIT || (p->storage == MP_DNG_NATIVE && f->bits == 16)) {
        size_t n = (size_t)f->width * f->height;
        CHECK(strip_bytes == 2 * n);
        for (size_t i = 0; i < n; i++)
            CHECK(le16(strip + 2 * i) == f->data[i]);
    }
    free(a);
    free(b);
}

static void fuzz_tiff(const mp_frame *f, uint32_t pad)
{
    size_t stride = f->width + pad, n = stride * f->height;
    uint16_t *planes = malloc(3 * n * sizeof *planes);
    if (!planes)
        return;
    for (size_t i = 0; i < 3 * n; i++)
        planes[i] = (uint16_t)(f->data[i % ((size_t)f->width * f->height)] * (i / n + 1));
    mp_rgb_image im = {.plane = {planes, planes + n, planes + 2 * n}, .stride = stride,
                       .width = f->width, .height = f->height, .aspect_num = pad % 4,
                       .aspect_den = 1 + pad % 3};   /* square or not: the resolutions differ */
    uint8_t *out;
    size_t len;
    mp_error err;
    CHECK(mp_rgb_image_tiff(&im, &out, &len, &err) == MP_OK);
    uint32_t strip_bytes;
    const uint8_t *strip = check_tiff(out, len, &strip_bytes);
    CHECK(strip_bytes == 6ull * f->width * f->height);
    for (uint32_t y = 0; y < f->height; y++)
        for (uint32_t x = 0; x < f->width; x++)
            for (int c = 0; c < 3; c++)
                CHECK(le16(strip + 6 * ((size_t)y * f->width + x) + 2 * c) ==
                      im.plane[c][y * stride + x]);
    free(out);
    free(planes);
}

static void fuzz_wav(const mp_sink_params *p, uint32_t data_bytes)
{
    mp_error err;
    mp_rational fps;
    if (mp_wav_check_format(&p->audio, &err) != MP_OK || mp_sink_fps(p, &fps, &err) != MP_OK)
        return;
    (void)mp_wav_start_offset(p, fps);
    (void)mp_wav_length(p, fps);
    uint8_t h[MP_WAV_HEADER_MAX];
    size_t n = mp_wav_header(p, fps, data_bytes, h);
    CHECK(n >= 12 && n <= sizeof h && !memcmp(h, "RIFF", 4) && !memcmp(h + 8, "WAVE", 4));
    uint64_t riff = n - 8 + (uint64_t)data_bytes + (data_bytes & 1);
    CHECK(le32(h + 4) == (riff > UINT32_MAX ? UINT32_MAX : riff));   /* 4 GiB and more: full */
    size_t at = 12;
    int seen_ixml = 0;
    for (;;) {
        CHECK(at + 8 <= n);
        uint32_t chunk = le32(h + at + 4);
        if (!memcmp(h + at, "data", 4)) {
            CHECK(at + 8 == n && chunk == data_bytes);
            break;
        }
        CHECK(at + 8 + chunk + (chunk & 1) <= n);
        if (!memcmp(h + at, "iXML", 4)) {
            check_xml(h + at + 8, chunk);
            seen_ixml = 1;
        }
        if (!memcmp(h + at, "fmt ", 4))
            CHECK(chunk == 16 && le16(h + at + 10) == p->audio.channels &&
                  le32(h + at + 12) == p->audio.sample_rate &&
                  le16(h + at + 22) == p->audio.bits_per_sample);
        at += 8 + chunk + (chunk & 1);
    }
    CHECK(seen_ixml);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = {data, size};
    uint8_t head[8];
    take(&in, head, sizeof head);
    mp_frame f = {0};
    mp_error err;
    if (mp_frame_reserve(&f, 1 + head[0] % 32u, 1 + head[1] % 32u, &err) != MP_OK)
        abort();
    f.bits = head[2] % 18u;
    f.black = take32(&in) % 65536u;
    f.white = take32(&in) % 65536u;
    static const uint32_t cfas[4] = {MP_CFA_RGGB, MP_CFA_GBRG, MP_CFA_BGGR, MP_CFA_GRBG};
    f.cfa = head[3] & 4 ? take32(&in) : cfas[head[3] & 3];
    f.number = take32(&in);
    f.timestamp_us = take32(&in);

    static mp_sink_params p;
    memset(&p, 0, sizeof p);
    take(&in, &p.meta, sizeof p.meta);
    TERMINATE(p.meta.camera.name);
    TERMINATE(p.meta.camera.serial);
    TERMINATE(p.meta.lens.name);
    TERMINATE(p.meta.lens.serial);
    TERMINATE(p.meta.wall_clock.zone);
    take(&in, p.clip_name, sizeof p.clip_name);
    TERMINATE(p.clip_name);
    p.fps_num = take32(&in);
    p.fps_den = take32(&in);
    if (head[3] & 8) {
        p.fps_override_num = take32(&in);
        p.fps_override_den = take32(&in);
    }
    p.timecode_time_of_day = head[3] >> 4 & 1;
    p.timecode_drop_frame = head[3] >> 5 & 1;
    p.baseline_exposure = (mp_rational){(int32_t)take32(&in), (int32_t)take32(&in)};
    p.storage = (mp_dng_storage)(head[4] & 3);
    p.one_based = head[4] >> 2 & 1;
    take(&in, &p.audio, sizeof p.audio);
    p.audio.format = 1;   /* PCM unless the next bit says otherwise */
    if (head[4] & 8)
        p.audio.format = (uint16_t)take32(&in);
    p.audio_start_us = take32(&in) | (uint64_t)take32(&in) << 32;
    p.video_start_us = take32(&in) | (uint64_t)take32(&in) << 32;
    p.clip_first_frame = take32(&in);
    p.first_frame = take32(&in);
    p.frame_count = take32(&in);
    uint32_t data_bytes = take32(&in);

    mp_exposure expo;
    mp_white_balance wb;
    take(&in, &expo, sizeof expo);
    take(&in, &wb, sizeof wb);
    mp_frame_meta m = {&expo, &wb};

    size_t n = in.left / 2, px = (size_t)f.width * f.height;
    for (size_t i = 0; i < px; i++)
        f.data[i] = n ? le16(in.p + 2 * (i % n)) : 0;
    if (head[5] & 1)   /* mostly within the depth, so that more frames are written */
        for (size_t i = 0; i < px; i++)
            f.data[i] &= f.bits && f.bits < 16 ? (1u << f.bits) - 1 : 0xFFFF;

    fuzz_dng(&f, head[5] & 2 ? NULL : &m, &p);
    fuzz_tiff(&f, head[6] % 4u);
    fuzz_wav(&p, data_bytes);
    mp_frame_free(&f);
    return 0;
}
