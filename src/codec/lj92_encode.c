/* codec/lj92_encode: lossless JPEG encoder (T.81 process 14) with data-optimal Huffman tables.
 *
 * Two passes: the first computes every prediction difference and the category histogram of
 * each table, the second writes codes. Code lengths follow T.81 Annex K.2: Huffman's merge
 * with one reserved symbol (so no code is all ones), lengths then limited to 16 bits. */
#include "codec/lj92.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lj92_common.h"

/* One table: code and length per category 0..16. */
typedef struct huff_code {
    uint16_t code[LJ92_CATEGORIES];
    uint8_t len[LJ92_CATEGORIES];
    uint8_t counts[LJ92_MAX_CODE_LEN];  /* DHT L1..L16 */
    uint8_t symbols[LJ92_CATEGORIES];   /* DHT values in code order */
    unsigned nsymbols;
} huff_code;

static unsigned category(uint16_t diff)
{
    if (diff == 0x8000)
        return 16;
    int d = (int16_t)diff;
    unsigned mag = (unsigned)(d < 0 ? -d : d);
    return mag ? 32u - (unsigned)__builtin_clz(mag) : 0;
}

/* T.81 K.2 (figures K.1 to K.3) for the 17 categories plus the reserved symbol. */
static void build_code(const uint64_t freq_in[LJ92_CATEGORIES], huff_code *h)
{
    enum { N = LJ92_CATEGORIES + 1, RESERVED = LJ92_CATEGORIES, MAXLEN = 2 * N };
    uint64_t freq[N];
    int others[N], size[N];
    for (int v = 0; v < N; v++) {
        freq[v] = v == RESERVED ? 1 : freq_in[v];
        others[v] = -1;
        size[v] = 0;
    }
    for (;;) {
        int v1 = -1, v2 = -1;
        for (int v = 0; v < N; v++) {
            if (!freq[v])
                continue;
            if (v1 < 0 || freq[v] <= freq[v1]) {
                v2 = v1;
                v1 = v;
            } else if (v2 < 0 || freq[v] <= freq[v2]) {
                v2 = v;
            }
        }
        if (v2 < 0)
            break;
        freq[v1] += freq[v2];
        freq[v2] = 0;
        for (size[v1]++; others[v1] >= 0; size[v1]++)
            v1 = others[v1];
        others[v1] = v2;
        for (size[v2]++; others[v2] >= 0; size[v2]++)
            v2 = others[v2];
    }
    int bits[MAXLEN + 1] = {0};
    for (int v = 0; v < N; v++)
        if (size[v])
            bits[size[v]]++;
    for (int i = MAXLEN; i > LJ92_MAX_CODE_LEN; i--) {
        while (bits[i] > 0) {
            int j = i - 2;
            while (bits[j] == 0)
                j--;
            bits[i] -= 2;
            bits[i - 1] += 1;
            bits[j + 1] += 2;
            bits[j] -= 1;
        }
    }
    int longest = LJ92_MAX_CODE_LEN;
    while (bits[longest] == 0)
        longest--;
    bits[longest]--;  /* the reserved symbol's code, always among the longest */

    /* Real symbols by increasing size take the lengths in increasing order; the reserved
     * symbol would come last and take the longest code, which was just removed. Any
     * assignment of a valid length multiset gives a prefix code. */
    int order[N], n = 0;
    for (int s = 1; s <= MAXLEN; s++)
        for (int v = 0; v < RESERVED; v++)
            if (size[v] == s)
                order[n++] = v;
    memset(h, 0, sizeof *h);
    unsigned code = 0, k = 0;
    for (int l = 1; l <= LJ92_MAX_CODE_LEN; l++) {
        h->counts[l - 1] = (uint8_t)bits[l];
        for (int i = 0; i < bits[l]; i++, k++, code++) {
            int v = order[k];
            h->symbols[k] = (uint8_t)v;
            h->code[v] = (uint16_t)code;
            h->len[v] = (uint8_t)l;
        }
        code <<= 1;
    }
    h->nsymbols = k;
}

typedef struct bitwriter {
    uint8_t *p;
    uint64_t acc;
    unsigned n;  /* pending bits in acc */
} bitwriter;

static inline void put_bits(bitwriter *w, uint32_t v, unsigned len)
{
    w->acc = w->acc << len | v;
    w->n += len;
    while (w->n >= 8) {
        w->n -= 8;
        uint8_t byte = (uint8_t)(w->acc >> w->n);
        *w->p++ = byte;
        if (byte == 0xFF)
            *w->p++ = 0x00;
    }
}

/* Pads the last byte with 1 bits, as T.81 F.1.2.3 asks before a marker. */
static void flush_bits(bitwriter *w)
{
    if (w->n)
        put_bits(w, (1u << (8 - w->n)) - 1, 8 - w->n);
}

static uint8_t *put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
    return p + 2;
}

static uint8_t *put_marker(uint8_t *p, unsigned m)
{
    p[0] = 0xFF;
    p[1] = (uint8_t)m;
    return p + 2;
}

static mp_status check_header(const lj92_header *h, const lj92_options *o, mp_error *err)
{
    if (h->width < 1 || h->width > 65535 || h->height < 1 || h->height > 65535)
        return mp_error_set(err, MP_ERR_ARG, "LJ92 encode: size %ux%u", h->width, h->height);
    if (h->components < 1 || h->components > LJ92_MAX_COMPONENTS)
        return mp_error_set(err, MP_ERR_ARG, "LJ92 encode: %u components", h->components);
    if (h->precision < 2 || h->precision > 16 || o->point_transform >= h->precision)
        return mp_error_set(err, MP_ERR_ARG, "LJ92 encode: precision %u, point transform %u",
                            h->precision, o->point_transform);
    if (h->predictor < 1 || h->predictor > 7)
        return mp_error_set(err, MP_ERR_ARG, "LJ92 encode: predictor %u", h->predictor);
    if (o->restart_interval % h->width || o->restart_interval > 65535)
        return mp_error_set(err, MP_ERR_ARG, "LJ92 encode: restart interval %u for width %u",
                            o->restart_interval, h->width);
    if (o->tables > h->components)
        return mp_error_set(err, MP_ERR_ARG, "LJ92 encode: %u tables for %u components", o->tables,
                            h->components);
    if ((uint64_t)h->width * h->components * h->height > LJ92_MAX_SAMPLES)
        return mp_error_set(err, MP_ERR_NOMEM, "LJ92 encode: %ux%ux%u samples exceed the limit",
                            h->width, h->height, h->components);
    return MP_OK;
}

/* Differences in stream order (mod 2^16) with the decoder's boundary rules; also returns
 * the OR of all input samples, for the precision check. */
static unsigned compute_diffs(const uint16_t *src, const lj92_header *h, const lj92_options *o,
                              uint16_t *diff)
{
    unsigned nf = h->components, al = o->point_transform, sel = h->predictor;
    size_t stride = (size_t)h->width * nf;
    unsigned restart_lines = o->restart_interval / h->width, seen = 0;
    int initial = 1 << (h->precision - al - 1);
    for (unsigned y = 0; y < h->height; y++) {
        const uint16_t *row = src + y * stride, *up = row - stride;
        uint16_t *d = diff + y * stride;
        bool first_line = y == 0 || (restart_lines && y % restart_lines == 0);
        for (size_t i = 0; i < stride; i++) {
            int s = row[i] >> al, pred;
            seen |= row[i];
            if (first_line)
                pred = i < nf ? initial : row[i - nf] >> al;
            else if (i < nf)
                pred = up[i] >> al;
            else
                pred = lj92_predict(sel, row[i - nf] >> al, up[i] >> al, up[i - nf] >> al);
            d[i] = (uint16_t)(s - pred);
        }
    }
    return seen;
}

mp_status mp_lj92_encode(const uint16_t *src, const lj92_header *hdr, uint8_t **out,
                      size_t *out_len, mp_error *err)
{
    return mp_lj92_encode_opts(src, hdr, NULL, out, out_len, err);
}

mp_status mp_lj92_encode_opts(const uint16_t *src, const lj92_header *hdr, const lj92_options *opt,
                           uint8_t **out, size_t *out_len, mp_error *err)
{
    static const lj92_options none;
    if (!opt)
        opt = &none;
    *out = NULL;
    *out_len = 0;
    mp_status st = check_header(hdr, opt, err);
    if (st != MP_OK)
        return st;
    unsigned nf = hdr->components, ntables = opt->tables ? opt->tables : 1;
    size_t count = (size_t)hdr->width * nf * hdr->height;
    uint16_t *diff = malloc(count * sizeof *diff);
    if (!diff)
        return mp_error_set(err, MP_ERR_NOMEM, "LJ92 encode: out of memory");
    unsigned seen = compute_diffs(src, hdr, opt, diff);
    if (seen >> hdr->precision) {
        free(diff);
        return mp_error_set(err, MP_ERR_ARG, "LJ92 encode: a sample exceeds %u bits", hdr->precision);
    }

    unsigned table_of[LJ92_MAX_COMPONENTS];
    for (unsigned c = 0; c < nf; c++)
        table_of[c] = c % ntables;
    uint64_t freq[LJ92_MAX_TABLES][LJ92_CATEGORIES] = {{0}};
    for (size_t i = 0; i < count; i += nf)
        for (unsigned c = 0; c < nf; c++)
            freq[table_of[c]][category(diff[i + c])]++;
    huff_code codes[LJ92_MAX_TABLES];
    uint64_t bits = 0;
    for (unsigned t = 0; t < ntables; t++) {
        build_code(freq[t], &codes[t]);
        for (unsigned s = 0; s < LJ92_CATEGORIES; s++)
            bits += freq[t][s] * (codes[t].len[s] + (s < 16 ? s : 0));
    }
    unsigned restart_lines = opt->restart_interval / hdr->width;
    size_t restarts = restart_lines ? (hdr->height - 1) / restart_lines : 0;
    size_t data_max = 2 * (size_t)((bits + 7) / 8) + restarts * 4;  /* stuffing at most doubles */
    size_t cap = 256 + LJ92_MAX_TABLES * (17 + LJ92_CATEGORIES) + data_max;
    uint8_t *buf = malloc(cap);
    if (!buf) {
        free(diff);
        return mp_error_set(err, MP_ERR_NOMEM, "LJ92 encode: out of memory");
    }

    uint8_t *p = put_marker(buf, LJ92_SOI);
    size_t dht_len = 2;
    for (unsigned t = 0; t < ntables; t++)
        dht_len += 17 + codes[t].nsymbols;
    p = put16(put_marker(p, LJ92_DHT), (unsigned)dht_len);
    for (unsigned t = 0; t < ntables; t++) {
        *p++ = (uint8_t)t;
        memcpy(p, codes[t].counts, 16);
        memcpy(p + 16, codes[t].symbols, codes[t].nsymbols);
        p += 16 + codes[t].nsymbols;
    }
    p = put16(put_marker(p, LJ92_SOF3), 8 + 3 * nf);
    *p++ = (uint8_t)hdr->precision;
    p = put16(put16(p, hdr->height), hdr->width);
    *p++ = (uint8_t)nf;
    for (unsigned c = 0; c < nf; c++) {
        p[0] = (uint8_t)(c + 1);
        p[1] = 0x11;
        p[2] = 0;
        p += 3;
    }
    if (opt->restart_interval)
        p = put16(put16(put_marker(p, LJ92_DRI), 4), opt->restart_interval);
    p = put16(put_marker(p, LJ92_SOS), 6 + 2 * nf);
    *p++ = (uint8_t)nf;
    for (unsigned c = 0; c < nf; c++) {
        p[0] = (uint8_t)(c + 1);
        p[1] = (uint8_t)((c % ntables) << 4);
        p += 2;
    }
    p[0] = (uint8_t)hdr->predictor;
    p[1] = 0;
    p[2] = (uint8_t)opt->point_transform;
    p += 3;

    bitwriter w = {p, 0, 0};
    size_t stride = (size_t)hdr->width * nf;
    for (unsigned y = 0; y < hdr->height; y++) {
        if (restart_lines && y > 0 && y % restart_lines == 0) {
            flush_bits(&w);
            w.p = put_marker(w.p, LJ92_RST0 + (y / restart_lines - 1) % 8);
        }
        const uint16_t *d = diff + y * stride;
        for (size_t i = 0; i < stride; i += nf)
            for (unsigned c = 0; c < nf; c++) {
                const huff_code *h = &codes[table_of[c]];
                unsigned s = category(d[i + c]);
                uint32_t v = h->code[s];
                unsigned len = h->len[s];
                if (s && s < 16) {
                    int dv = (int16_t)d[i + c];
                    v = v << s | ((uint32_t)(dv < 0 ? dv - 1 : dv) & ((1u << s) - 1));
                    len += s;
                }
                put_bits(&w, v, len);
            }
    }
    flush_bits(&w);
    p = put_marker(w.p, LJ92_EOI);
    free(diff);

    *out_len = (size_t)(p - buf);
    uint8_t *shrunk = realloc(buf, *out_len);
    *out = shrunk ? shrunk : buf;
    return MP_OK;
}
