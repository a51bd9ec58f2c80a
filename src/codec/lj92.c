/* codec/lj92: lossless JPEG decoder (ITU-T T.81 process 14, doc/mlv-format.md 9).
 *
 * Speed comes from three things: a 64-bit MSB-aligned bit buffer refilled eight bytes at a
 * time when they hold no 0xFF (stuffing is handled byte by byte otherwise); a 12-bit lookup
 * table per Huffman table whose entries hold code length, category and, when the extra
 * bits fit in the same 12 bits, the finished difference; and line loops specialised for the
 * left predictor (every camera frame) and the common component counts.
 *
 * Bounds: bytes are only read inside [src, src+len). At a marker or at the end of the
 * input the bit buffer is fed zero bits that are counted as padding; consuming padding means
 * the data ran short, which is reported at the end of the line as damage. Samples are only
 * written inside dst, whose size must equal X*Nf*Y. */
#include "codec/lj92.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lj92_common.h"

#define LUT_BITS 12

typedef struct huff_table {
    /* lut entry: bits 0..7 bits consumed, 8..15 extra bits still to read, 16..31 the
     * difference (int16, exact modulo 2^16) when no extra bits remain. 0: code longer than
     * LUT_BITS or not a code. */
    uint32_t lut[1u << LUT_BITS];
    int32_t maxcode[LJ92_MAX_CODE_LEN + 1];  /* largest code of each length, -1 if none */
    int32_t valoffset[LJ92_MAX_CODE_LEN + 1];  /* symbol index = code + valoffset[len] */
    uint8_t symbols[256];
    bool defined;
} huff_table;

typedef struct scan_info {
    lj92_header hdr;
    lj92_options opt;
    uint8_t component_id[LJ92_MAX_COMPONENTS];
    uint8_t table_of[LJ92_MAX_COMPONENTS];  /* Huffman table id per component */
    size_t data_offset;  /* first byte of entropy-coded data */
    bool have_frame;
    huff_table tables[LJ92_MAX_TABLES];
} scan_info;

static unsigned be16(const uint8_t *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

static int extend(unsigned v, unsigned ssss)
{
    return v < (1u << (ssss - 1)) ? (int)v - (1 << ssss) + 1 : (int)v;
}

/* ---- headers ----------------------------------------------------------------------- */

static void build_lut(huff_table *t, const uint8_t counts[16])
{
    memset(t->lut, 0, sizeof t->lut);
    unsigned code = 0, k = 0;
    for (unsigned len = 1; len <= LJ92_MAX_CODE_LEN; len++) {
        t->valoffset[len] = (int32_t)k - (int32_t)code;
        t->maxcode[len] = counts[len - 1] ? (int32_t)(code + counts[len - 1] - 1) : -1;
        for (unsigned i = 0; i < counts[len - 1]; i++, code++, k++) {
            if (len > LUT_BITS)
                continue;
            unsigned ssss = t->symbols[k], rest = LUT_BITS - len;
            unsigned first = code << rest, n = 1u << rest;
            for (unsigned j = 0; j < n; j++) {
                uint32_t e;
                if (ssss == 0 || ssss == 16) {
                    e = len | (uint32_t)(ssss == 16 ? 0x8000u : 0) << 16;
                } else if (ssss <= rest) {
                    unsigned v = (j >> (rest - ssss)) & ((1u << ssss) - 1);
                    e = (len + ssss) | (uint32_t)(uint16_t)extend(v, ssss) << 16;
                } else {
                    e = len | ssss << 8;
                }
                t->lut[first + j] = e;
            }
        }
        code <<= 1;
    }
}

static mp_status parse_dht(scan_info *si, const uint8_t *b, size_t n, size_t at, mp_error *err)
{
    while (n > 0) {
        if (n < 17)
            return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: DHT table cut short", at);
        unsigned tc = b[0] >> 4, th = b[0] & 15, total = 0;
        for (int i = 0; i < 16; i++)
            total += b[1 + i];
        if (17 + (size_t)total > n)
            return mp_error_set(err, MP_ERR_DAMAGED,
                                "LJ92: offset %zu: DHT table of %u codes past segment end", at, total);
        if (total > sizeof si->tables[0].symbols)
            return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: DHT table of %u codes", at,
                                total);
        if (th >= LJ92_MAX_TABLES || tc > 1)
            return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: DHT class %u id %u", at, tc,
                                th);
        /* A lossless scan uses only class-0 tables; a class-1 table is legal but unused. */
        if (tc == 0) {
            unsigned space = 1;  /* codes still free at the current length */
            for (int len = 0; len < 16; len++) {
                space *= 2;
                if (b[1 + len] > space)
                    return mp_error_set(err, MP_ERR_DAMAGED,
                                        "LJ92: offset %zu: DHT table %u over-subscribed", at, th);
                space -= b[1 + len];
            }
            huff_table *t = &si->tables[th];
            for (unsigned i = 0; i < total; i++) {
                if (b[17 + i] > 16)
                    return mp_error_set(err, MP_ERR_DAMAGED,
                                        "LJ92: offset %zu: DHT category %u > 16", at, b[17 + i]);
                t->symbols[i] = b[17 + i];
            }
            build_lut(t, b + 1);
            t->defined = true;
        }
        b += 17 + total;
        n -= 17 + total;
        at += 17 + total;
    }
    return MP_OK;
}

static mp_status parse_sof3(scan_info *si, const uint8_t *b, size_t n, size_t at, mp_error *err)
{
    if (si->have_frame)
        return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: second SOF", at);
    if (n < 6 || n != 6 + 3 * (size_t)b[5])
        return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: SOF3 length %zu", at, n);
    lj92_header *h = &si->hdr;
    h->precision = b[0];
    h->height = be16(b + 1);
    h->width = be16(b + 3);
    h->components = b[5];
    if (h->precision < 2 || h->precision > 16)
        return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: precision %u", at, h->precision);
    if (h->components < 1 || h->components > LJ92_MAX_COMPONENTS)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "LJ92: offset %zu: %u components", at,
                            h->components);
    if (h->height == 0)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "LJ92: offset %zu: height from DNL marker", at);
    if (h->width == 0)
        return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: width 0", at);
    if ((uint64_t)h->width * h->components * h->height > LJ92_MAX_SAMPLES)
        return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: %ux%ux%u samples exceed the limit",
                            at, h->width, h->height, h->components);
    /* Sampling factors are ignored: every lossless raw producer uses 1x1, and some write
     * other values without meaning them. */
    for (unsigned c = 0; c < h->components; c++)
        si->component_id[c] = b[6 + 3 * c];
    si->have_frame = true;
    return MP_OK;
}

static mp_status parse_sos(scan_info *si, const uint8_t *b, size_t n, size_t at, mp_error *err)
{
    if (!si->have_frame)
        return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: SOS before SOF3", at);
    unsigned ns = n ? b[0] : 0;
    if (n < 1 || n != 4 + 2 * (size_t)ns)
        return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: SOS length %zu", at, n);
    if (ns != si->hdr.components)
        return mp_error_set(err, MP_ERR_UNSUPPORTED,
                            "LJ92: offset %zu: scan of %u of %u components", at, ns,
                            si->hdr.components);
    for (unsigned c = 0; c < ns; c++) {
        if (b[1 + 2 * c] != si->component_id[c])
            return mp_error_set(err, MP_ERR_UNSUPPORTED,
                                "LJ92: offset %zu: scan component order differs from frame", at);
        unsigned t = b[2 + 2 * c] >> 4;
        if (t >= LJ92_MAX_TABLES || !si->tables[t].defined)
            return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: Huffman table %u not defined",
                                at, t);
        si->table_of[c] = (uint8_t)t;
    }
    const uint8_t *tail = b + 1 + 2 * ns;
    si->hdr.predictor = tail[0];
    si->opt.point_transform = tail[2] & 15;
    unsigned used = 0;
    for (unsigned c = 0; c < ns; c++)
        used |= 1u << si->table_of[c];
    si->opt.tables = (uint32_t)__builtin_popcount(used);
    if (si->hdr.predictor < 1 || si->hdr.predictor > 7)
        return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: predictor %u", at,
                            si->hdr.predictor);
    if (si->opt.point_transform >= si->hdr.precision)
        return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: point transform %u", at,
                            si->opt.point_transform);
    /* T.81 H.1.1: in lossless mode a restart interval is a whole number of MCU rows. */
    if (si->opt.restart_interval % si->hdr.width)
        return mp_error_set(err, MP_ERR_UNSUPPORTED,
                            "LJ92: offset %zu: restart interval %u is not a multiple of width %u", at,
                            si->opt.restart_interval, si->hdr.width);
    return MP_OK;
}

static mp_status parse_headers(const uint8_t *src, size_t len, scan_info *si, mp_error *err)
{
    memset(&si->hdr, 0, sizeof si->hdr);
    memset(&si->opt, 0, sizeof si->opt);
    si->have_frame = false;
    for (int t = 0; t < LJ92_MAX_TABLES; t++)
        si->tables[t].defined = false;
    if (len < 2 || src[0] != 0xFF || src[1] != LJ92_SOI)
        return mp_error_set(err, MP_ERR_FORMAT, "LJ92: offset 0: no SOI marker");
    size_t pos = 2;
    for (;;) {
        if (pos >= len || src[pos] != 0xFF)
            return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: %s", pos,
                                pos >= len ? "stream ends before SOS" : "marker expected");
        size_t at = pos;
        while (pos < len && src[pos] == 0xFF)  /* fill bytes */
            pos++;
        if (pos >= len)
            return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: stream ends in a marker", at);
        unsigned m = src[pos++];
        if (m == LJ92_SOI || m == LJ92_EOI || m == 0x01 || m == 0 || (m >= 0xD0 && m <= 0xD7))
            return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: unexpected marker 0x%02X", at,
                                m);
        if (pos + 2 > len)
            return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: segment length cut short", at);
        size_t seg = be16(src + pos);
        if (seg < 2 || pos + seg > len)
            return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: segment length %zu past end",
                                at, seg);
        const uint8_t *body = src + pos + 2;
        size_t n = seg - 2;
        mp_status st = MP_OK;
        if (m == LJ92_DHT) {
            st = parse_dht(si, body, n, pos + 2, err);
        } else if (m == LJ92_SOF3) {
            st = parse_sof3(si, body, n, at, err);
        } else if (m >= 0xC0 && m <= 0xCF && m != 0xC8 && m != 0xCC) {
            st = mp_error_set(err, MP_ERR_UNSUPPORTED,
                              "LJ92: offset %zu: SOF%u is not lossless Huffman (SOF3)", at, m - 0xC0);
        } else if (m == LJ92_DRI) {
            if (n != 2)
                return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: DRI length %zu", at, n);
            si->opt.restart_interval = be16(body);
        } else if (m == LJ92_SOS) {
            st = parse_sos(si, body, n, at, err);
            si->data_offset = pos + seg;
            return st;
        }
        /* other segments (APPn, COM, DQT, ...) carry nothing a lossless decoder needs */
        if (st != MP_OK)
            return st;
        pos += seg;
    }
}

mp_status mp_lj92_read_header(const uint8_t *src, size_t len, lj92_header *hdr, mp_error *err)
{
    return mp_lj92_read_header_opts(src, len, hdr, NULL, err);
}

mp_status mp_lj92_read_header_opts(const uint8_t *src, size_t len, lj92_header *hdr,
                                lj92_options *opt, mp_error *err)
{
    scan_info *si = malloc(sizeof *si);
    if (!si)
        return mp_error_set(err, MP_ERR_NOMEM, "LJ92: out of memory");
    mp_status st = parse_headers(src, len, si, err);
    if (st == MP_OK && hdr)
        *hdr = si->hdr;
    if (st == MP_OK && opt)
        *opt = si->opt;
    free(si);
    return st;
}

/* ---- entropy-coded data ------------------------------------------------------------- */

typedef struct bitreader {
    uint64_t bits;  /* next bits of the stream, MSB first */
    const uint8_t *p;  /* next byte not yet in bits */
    int count;  /* bits held, including padding */
    int pad;  /* zero bits fed in past the data */
} bitreader;

static inline uint64_t load_be64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

/* Byte-by-byte refill: undoes stuffing, stops at markers and at the end of the input. */
static bitreader refill_slow(bitreader b, const uint8_t *end)
{
    while (b.count <= 56) {
        unsigned byte = 0;
        if (b.p < end && *b.p != 0xFF) {
            byte = *b.p++;
        } else if (end - b.p >= 2 && b.p[1] == 0x00) {
            byte = 0xFF;
            b.p += 2;
        } else {
            b.pad += 8;
        }
        b.bits |= (uint64_t)byte << (56 - b.count);
        b.count += 8;
    }
    return b;
}

/* Guarantees at least 32 bits (longest code 16 + longest extra field 15). */
static inline __attribute__((always_inline)) void refill(bitreader *b, const uint8_t *end)
{
    if (b->count >= 32)
        return;
    if (end - b->p >= 8) {
        uint64_t v = load_be64(b->p);
        uint64_t inv = ~v;
        if (!((inv - 0x0101010101010101ull) & ~inv & 0x8080808080808080ull)) {
            int nbytes = (64 - b->count) >> 3, rest = 64 - b->count - 8 * nbytes;
            b->bits |= (v >> b->count) & ~((1ull << rest) - 1);
            b->count += 8 * nbytes;
            b->p += nbytes;
            return;
        }
    }
    *b = refill_slow(*b, end);
}

/* Codes longer than the lookup table: canonical search. Returns the symbol, or -1. */
static int decode_long(const huff_table *t, uint64_t bits, int *len)
{
    for (int l = LUT_BITS + 1; l <= LJ92_MAX_CODE_LEN; l++) {
        int32_t code = (int32_t)(bits >> (64 - l));
        if (code <= t->maxcode[l]) {
            int32_t k = code + t->valoffset[l];
            if (k < 0)
                return -1;
            *len = l;
            return t->symbols[k];
        }
    }
    return -1;
}

static inline __attribute__((always_inline)) int decode_diff(bitreader *b, const uint8_t *end,
                                                             const huff_table *t, bool *bad)
{
    refill(b, end);
    uint32_t e = t->lut[b->bits >> (64 - LUT_BITS)];
    unsigned len = e & 0xFF, ssss = (e >> 8) & 0xFF;
    int diff = (int16_t)(e >> 16);
    if (__builtin_expect(len == 0, 0)) {
        int l = 0, sym = decode_long(t, b->bits, &l);
        if (sym < 0) {
            *bad = true;
            return 0;
        }
        len = (unsigned)l;
        ssss = sym == 16 ? 0 : (unsigned)sym;
        diff = sym == 16 ? 32768 : 0;
    }
    b->bits <<= len;
    b->count -= (int)len;
    if (ssss) {
        unsigned v = (unsigned)(b->bits >> (64 - ssss));
        b->bits <<= ssss;
        b->count -= (int)ssss;
        diff = extend(v, ssss);
    }
    return diff;
}

/* A line where every sample but the first of each component is predicted by Ra. */
static inline __attribute__((always_inline)) void line_left(bitreader *b, const uint8_t *end,
                                                            uint16_t *out, unsigned width,
                                                            unsigned nf,
                                                            const huff_table *const *tabs,
                                                            const int *first, bool *bad)
{
    for (unsigned c = 0; c < nf; c++)
        out[c] = (uint16_t)(first[c] + decode_diff(b, end, tabs[c], bad));
    size_t n = (size_t)width * nf;
    for (size_t i = nf; i < n; i += nf)
        for (unsigned c = 0; c < nf; c++)
            out[i + c] = (uint16_t)(out[i + c - nf] + decode_diff(b, end, tabs[c], bad));
}

/* A line below another one with predictor sel (2..7). */
static inline __attribute__((always_inline)) void line_pred(bitreader *b, const uint8_t *end,
                                                            uint16_t *out, const uint16_t *up,
                                                            unsigned width, unsigned nf,
                                                            unsigned sel,
                                                            const huff_table *const *tabs,
                                                            bool *bad)
{
    for (unsigned c = 0; c < nf; c++)
        out[c] = (uint16_t)(up[c] + decode_diff(b, end, tabs[c], bad));
    size_t n = (size_t)width * nf;
    for (size_t i = nf; i < n; i += nf)
        for (unsigned c = 0; c < nf; c++)
            out[i + c] = (uint16_t)(lj92_predict(sel, out[i + c - nf], up[i + c], up[i + c - nf]) +
                                    decode_diff(b, end, tabs[c], bad));
}

/* Decodes one line; returns false on an invalid code. first_line: the first line of the
 * image or of a restart interval. */
static bool decode_line(bitreader *br, const uint8_t *end, uint16_t *out, const scan_info *si,
                        const huff_table *const *tabs, bool first_line)
{
    bitreader b = *br;  /* a local copy the compiler can keep in registers */
    bool bad = false;
    unsigned width = si->hdr.width, nf = si->hdr.components, sel = si->hdr.predictor;
    const uint16_t *up = out - (size_t)width * nf;
    if (first_line || sel == 1) {
        int first[LJ92_MAX_COMPONENTS];
        for (unsigned c = 0; c < nf; c++)
            first[c] = first_line ? 1 << (si->hdr.precision - si->opt.point_transform - 1) : up[c];
        if (nf == 2)
            line_left(&b, end, out, width, 2, tabs, first, &bad);
        else if (nf == 1)
            line_left(&b, end, out, width, 1, tabs, first, &bad);
        else
            line_left(&b, end, out, width, nf, tabs, first, &bad);
    } else if (nf == 1 && sel == 6) {
        line_pred(&b, end, out, up, width, 1, 6, tabs, &bad);
    } else {
        switch (sel) {
        case 2: line_pred(&b, end, out, up, width, nf, 2, tabs, &bad); break;
        case 3: line_pred(&b, end, out, up, width, nf, 3, tabs, &bad); break;
        case 4: line_pred(&b, end, out, up, width, nf, 4, tabs, &bad); break;
        case 5: line_pred(&b, end, out, up, width, nf, 5, tabs, &bad); break;
        case 6: line_pred(&b, end, out, up, width, nf, 6, tabs, &bad); break;
        default: line_pred(&b, end, out, up, width, nf, 7, tabs, &bad); break;
        }
    }
    *br = b;
    return !bad;
}

/* Position of the first marker at or after p (skipping data bytes and stuffing), or NULL. */
static const uint8_t *find_marker(const uint8_t *p, const uint8_t *end)
{
    for (; end - p >= 2; p++)
        if (p[0] == 0xFF && p[1] != 0x00 && p[1] != 0xFF)
            return p;
    return NULL;
}

/* Byte offset of the next unread bit, for messages. */
static size_t reader_offset(const bitreader *b, const uint8_t *src)
{
    int held = b->count > b->pad ? (b->count - b->pad) / 8 : 0;
    return (size_t)(b->p - src) - (size_t)held;
}

static mp_status decode_scan(const uint8_t *src, size_t len, const scan_info *si, uint16_t *dst,
                             mp_error *err)
{
    const uint8_t *end = src + len;
    const huff_table *tabs[LJ92_MAX_COMPONENTS];
    for (unsigned c = 0; c < si->hdr.components; c++)
        tabs[c] = &si->tables[si->table_of[c]];
    size_t stride = (size_t)si->hdr.width * si->hdr.components;
    unsigned restart_lines = si->opt.restart_interval / si->hdr.width, restarts = 0;
    bitreader b = {0, src + si->data_offset, 0, 0};
    for (unsigned y = 0; y < si->hdr.height; y++) {
        bool first_line = y == 0;
        if (restart_lines && y > 0 && y % restart_lines == 0) {
            const uint8_t *m = find_marker(b.p, end);
            if (!m || m[1] != LJ92_RST0 + (restarts & 7))
                return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: RST%u marker missing",
                                    (size_t)((m ? m : b.p) - src), restarts & 7);
            restarts++;
            b = (bitreader){0, m + 2, 0, 0};
            first_line = true;
        }
        if (!decode_line(&b, end, dst + y * stride, si, tabs, first_line))
            return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: invalid Huffman code in line %u",
                                reader_offset(&b, src), y);
        if (b.count < b.pad)
            return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: data ends in line %u of %u",
                                (size_t)(b.p - src), y, si->hdr.height);
    }
    /* Every sample came from real data, so the image is whole even if the EOI was cut off
     * (MLV-App's decoder does not look for it either); another marker here is damage. */
    const uint8_t *m = find_marker(b.p, end);
    if (m && m[1] != LJ92_EOI)
        return mp_error_set(err, MP_ERR_DAMAGED, "LJ92: offset %zu: marker 0x%02X instead of EOI",
                            (size_t)(m - src), m[1]);
    return MP_OK;
}

mp_status mp_lj92_decode(const uint8_t *src, size_t len, uint16_t *dst, size_t dst_count,
                      lj92_header *hdr, mp_error *err)
{
    scan_info *si = malloc(sizeof *si);
    if (!si)
        return mp_error_set(err, MP_ERR_NOMEM, "LJ92: out of memory");
    mp_status st = parse_headers(src, len, si, err);
    if (st == MP_OK) {
        size_t count = (size_t)si->hdr.width * si->hdr.components * si->hdr.height;
        if (count != dst_count)
            st = mp_error_set(err, MP_ERR_DAMAGED, "LJ92: image %ux%ux%u is %zu samples, expected %zu",
                              si->hdr.width, si->hdr.height, si->hdr.components, count, dst_count);
    }
    if (st == MP_OK)
        st = decode_scan(src, len, si, dst, err);
    if (st == MP_OK && si->opt.point_transform)
        for (size_t i = 0; i < dst_count; i++)
            dst[i] = (uint16_t)(dst[i] << si->opt.point_transform);
    if (st == MP_OK && hdr)
        *hdr = si->hdr;
    free(si);
    return st;
}
