/* Frame reading in two steps: mp_mlv_read_payload preads a frame's stored bytes (I/O only),
 * mp_mlv_decode_payload turns them into samples (bit-packed 10/12/14/16-bit, LJ92, LZMA, DELTA);
 * mp_mlv_read_frame does both. Per-thread decode state lives in mlv_scratch. */
#include <stdlib.h>
#include <string.h>

#include "codec/bitpack.h"
#include "codec/delta.h"
#include "codec/lj92.h"
#include "codec/lzma_frame.h"
#include "mlv_internal.h"

static const char *frame_file(const mlv_clip *c, const mlv_entry *e)
{
    return mp_mlv_base_name(c->chunks[e->chunk].path);
}

mp_status mp_mlv_clip_check_video(const mlv_clip *c, mp_error *err)
{
    uint32_t vc = c->info.video_class;
    const char *name = mp_mlv_base_name(c->chunks[0].path);
    if ((vc & ~0xE0u) != 1)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: videoClass 0x%x is not raw Bayer video "
                            "(not supported)", name, vc);
    if ((vc & 0x20) && (vc & 0x80))
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: videoClass 0x%x combines LJ92 with "
                            "LZMA (no tool writes that; not supported)", name, vc);
    return MP_OK;
}

static mp_status check_geometry(const mlv_clip *c, const mlv_entry *e, const mp_raw_info *r,
                                mp_error *err)
{
    char why[160];
    if (mp_mlv_raw_problem(r, why, sizeof why))
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: frame %u: RAWI %s; not "
                            "decoded", frame_file(c, e), (unsigned long long)e->offset,
                            e->number, why);
    return MP_OK;
}

/* The most an LZMA stream inflates: 7,050 to 1 measured for 117 MiB of zeros at preset 9
 * (liblzma), the best case of its range coder; a payload this many times smaller than its
 * frame cannot be one. */
#define LZMA_MAX_RATIO 8192u

int mp_mlv_payload_fits(const mlv_clip *c, const mlv_entry *e, const mp_raw_info *r)
{
    uint64_t count = (uint64_t)r->width * r->height;
    uint64_t packed = mp_packed_size_mlv((size_t)count, r->bits);
    int holds_packed = e->length >= packed;
    int holds_lj92 = (uint64_t)e->length * 8 >= count;
    switch (c->info.compression) {
    case MLV_COMPRESSION_LJ92:
    case MLV_COMPRESSION_LJ92_DELTA: return holds_lj92;
    case MLV_COMPRESSION_NONE: return holds_packed || holds_lj92; /* LJ92 tagged as raw */
    case MLV_COMPRESSION_DELTA: return holds_packed;
    case MLV_COMPRESSION_LZMA:
    case MLV_COMPRESSION_LZMA_DELTA:
        return e->length >= MP_LZMA_FRAME_HEADER && (uint64_t)e->length * LZMA_MAX_RATIO >= packed;
    }
    return 0;
}

/* Refuses payloads too small to hold the frame before any frame-sized allocation. */
static mp_status check_payload_size(const mlv_clip *c, const mlv_entry *e, const mp_raw_info *r,
                                    mp_error *err)
{
    if (mp_mlv_payload_fits(c, e, r))
        return MP_OK;
    return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: frame %u: payload of %u bytes "
                        "cannot hold a %ux%u %u-bit frame", frame_file(c, e),
                        (unsigned long long)e->offset, e->number, e->length, r->width,
                        r->height, r->bits);
}

/* The checks every access to frame `index` needs, before any frame-sized allocation. */
static mp_status frame_entry(const mlv_clip *c, uint32_t index, const mlv_entry **entry,
                             const mp_raw_info **raw, mp_error *err)
{
    if (index >= c->info.frame_count)
        return mp_error_set(err, MP_ERR_RANGE, "%s: frame index %u out of range (%u frames)",
                            mp_mlv_base_name(c->chunks[0].path), index, c->info.frame_count);
    mp_status st = mp_mlv_clip_check_video(c, err);
    if (st != MP_OK)
        return st;
    const mlv_entry *e = &c->frames[index];
    const mp_raw_info *r = &c->states[e->state].raw;
    if ((st = check_geometry(c, e, r, err)) != MP_OK ||
        (st = check_payload_size(c, e, r, err)) != MP_OK)
        return st;
    *entry = e;
    *raw = r;
    return MP_OK;
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

/* How many of the block's payload bytes the decoder uses: a packed frame exactly its size;
 * a compressed stream what the block holds, capped where no valid stream can reach (a
 * lossless JPEG needs at most 4 bytes a sample plus its tables, LZMA grows data by little). */
static size_t payload_bytes(const mlv_clip *c, const mlv_entry *e, const mp_raw_info *r)
{
    size_t count = (size_t)r->width * r->height;
    size_t packed = mp_packed_size_mlv(count, r->bits);
    size_t lj92_bound = 4 * count + 65536;
    switch (c->info.compression) {
    case MLV_COMPRESSION_LJ92:
    case MLV_COMPRESSION_LJ92_DELTA:
        return min_size(e->length, lj92_bound);
    case MLV_COMPRESSION_LZMA:
    case MLV_COMPRESSION_LZMA_DELTA:
        return min_size(e->length, 2 * packed + 65536);
    case MLV_COMPRESSION_NONE:      /* shorter than a packed frame: LJ92 tagged as raw */
        return e->length >= packed ? packed : min_size(e->length, lj92_bound);
    case MLV_COMPRESSION_DELTA:
        break;
    }
    return packed;
}

mp_status mp_mlv_reserve_bytes(uint8_t **p, size_t *capacity, size_t n, mp_error *err)
{
    if (n <= *capacity)
        return MP_OK;
    uint8_t *q = realloc(*p, n);
    if (!q)
        return mp_error_set(err, MP_ERR_NOMEM, "cannot allocate %zu bytes for a frame", n);
    *p = q;
    *capacity = n;
    return MP_OK;
}

mp_status mp_mlv_source_read_payload(const mlv_clip *c, uint32_t index, mlv_payload *buf,
                                     mp_error *err)
{
    const mlv_entry *e = NULL;
    const mp_raw_info *r = NULL;
    mp_status st = frame_entry(c, index, &e, &r, err);
    if (st != MP_OK)
        return st;
    size_t n = payload_bytes(c, e, r);
    if ((st = mp_mlv_reserve_bytes(&buf->data, &buf->capacity, n, err)) != MP_OK ||
        (st = mp_mlv_read_span(c, e->chunk, e->offset, buf->data, n, err)) != MP_OK)
        return st;
    buf->size = n;
    buf->clip = c;
    buf->index = index;
    return MP_OK;
}

/* A lossless JPEG stream decodes to any 16-bit value: a sample above the RAWI's depth is
 * damage (later stages rely on the depth; a DNG writer would refuse the frame). */
static mp_status check_depth(const mlv_clip *c, const mlv_entry *e, const mp_frame *out,
                             mp_error *err)
{
    size_t count = (size_t)out->width * out->height;
    uint16_t all = 0;
    for (size_t i = 0; i < count; i++)
        all |= out->data[i];
    if (out->bits >= 16 || !(all >> out->bits))
        return MP_OK;
    size_t i = 0;
    while (!(out->data[i] >> out->bits))
        i++;
    return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: frame %u: LJ92 sample %u at "
                        "x %zu y %zu exceeds the RAWI's %u bits", frame_file(c, e),
                        (unsigned long long)e->offset, e->number, out->data[i],
                        i % out->width, i / out->width, out->bits);
}

/* A codec's complaint about one frame's payload (no SOI, a stream feature no camera writes, a
 * declared size past the codec's limits) is damage of that frame: the payload is not what the
 * clip's header promises, and the frames around it are still read. Only a failed allocation
 * stays what it is. */
static mp_status payload_error(const mlv_clip *c, const mlv_entry *e, mp_status st,
                               const mp_error *sub, mp_error *err)
{
    return mp_error_set(err, st == MP_ERR_NOMEM ? st : MP_ERR_DAMAGED, "%s: offset %llu: "
                        "frame %u: %s", frame_file(c, e), (unsigned long long)e->offset,
                        e->number, sub->msg);
}

static mp_status decode_lj92(const mlv_clip *c, const mlv_entry *e, const uint8_t *bytes,
                             size_t len, mp_frame *out, mp_error *err)
{
    lj92_header hdr;
    mp_error sub = {0};
    mp_status st = mp_lj92_decode(bytes, len, out->data, (size_t)out->width * out->height, &hdr,
                               &sub);
    if (st != MP_OK)
        return payload_error(c, e, st, &sub, err);
    return check_depth(c, e, out, err);
}

static mp_status decode_packed(const mlv_clip *c, const mlv_entry *e, const uint8_t *bytes,
                               size_t len, mp_frame *out, mp_error *err)
{
    size_t count = (size_t)out->width * out->height;
    size_t need = mp_packed_size_mlv(count, out->bits);
    if (len >= need) {
        mp_unpack_mlv(bytes, out->data, count, out->bits);
        return MP_OK;
    }
    /* 2017-03-30 mlv_lite builds wrote LJ92 frames tagged as uncompressed */
    if (len >= 2 && bytes[0] == 0xFF && bytes[1] == 0xD8)
        return decode_lj92(c, e, bytes, len, out, err);
    return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: frame %u: payload of %u bytes, "
                        "a %ux%u %u-bit frame needs %zu", frame_file(c, e),
                        (unsigned long long)e->offset, e->number, e->length, out->width,
                        out->height, out->bits, need);
}

/* LZMA (doc/mlv-format.md 10.2): the payload inflates to a bit-packed frame, in the scratch;
 * what 2014 mlv_dump builds compressed after the frame (VIDF padding) is not inflated. */
static mp_status decode_lzma(const mlv_clip *c, const mlv_entry *e, const uint8_t *bytes,
                             size_t len, mp_frame *out, mlv_scratch *s, mp_error *err)
{
    size_t count = (size_t)out->width * out->height;
    size_t need = mp_packed_size_mlv(count, out->bits);
    mp_status st = mp_mlv_reserve_bytes(&s->buf, &s->buf_size, need, err);
    if (st != MP_OK)
        return st;
    mp_error sub = {0};
    st = mp_lzma_frame_decode(bytes, len, s->buf, need, &sub);
    if (st != MP_OK)
        return payload_error(c, e, st, &sub, err);
    mp_unpack_mlv(s->buf, out->data, count, out->bits);
    return MP_OK;
}

/* The stored samples of one frame (before any DELTA) into out->data. */
static mp_status decode_stored(const mlv_clip *c, const mlv_payload *p, mp_frame *out,
                               mlv_scratch *s, mp_error *err)
{
    const mlv_entry *e = &c->frames[p->index];
    switch (c->info.compression) {
    case MLV_COMPRESSION_LJ92:
    case MLV_COMPRESSION_LJ92_DELTA:
        return decode_lj92(c, e, p->data, p->size, out, err);
    case MLV_COMPRESSION_LZMA:
    case MLV_COMPRESSION_LZMA_DELTA:
        return decode_lzma(c, e, p->data, p->size, out, s, err);
    case MLV_COMPRESSION_NONE:
    case MLV_COMPRESSION_DELTA:
        break;
    }
    return decode_packed(c, e, p->data, p->size, out, err);
}

static int no_reset_between(const mlv_clip *c, uint32_t a, uint32_t b)
{
    for (uint32_t j = a + 1; j <= b; j++)
        if (!mp_mlv_same_raw(c, j - 1, j))
            return 0;
    return 1;
}

/* DELTA (doc/mlv-format.md 10.1): each frame is stored relative to the previous one, and the
 * reference resets to zeros at a new RAWI. When the scratch holds frame index-1 (sequential
 * decoding) this costs one frame; otherwise the frames between the scratch's reference (or
 * the last reset) and `index` are read again into scratch->chain and decoded first. The
 * chain follows index (frame-number) order; mlv_dump used timestamp order, which is the same
 * unless the clip was out of order before mlv_dump rewrote it (and it writes frames sorted).
 * With LZMA or LJ92 (mlv_dump -c -e) the compression wraps the DELTA samples: mlv_dump
 * delta-codes the bit-packed frame at the stored depth, then compresses it, so decoding
 * undoes the compression first and adds the reference after, exactly as for plain DELTA. */
static mp_status decode_delta(const mlv_clip *c, const mlv_payload *target, mp_frame *out,
                              mlv_scratch *s, mp_error *err)
{
    uint32_t index = target->index;
    const mlv_entry *e = &c->frames[index];
    if (e->reference_lost)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: frame %u: DELTA reference "
                            "lost (a frame before it was lost to damage); not decoded",
                            frame_file(c, e), (unsigned long long)e->offset, e->number);
    size_t count = (size_t)out->width * out->height;
    int64_t r = s->ref && s->ref_size == count && s->ref_clip == c ? s->ref_index : -1;
    uint32_t from = index;
    if (r >= 0 && r < (int64_t)index && no_reset_between(c, (uint32_t)r, index)) {
        from = (uint32_t)r + 1;
    } else {
        while (from > 0 && mp_mlv_same_raw(c, from - 1, from))
            from--;
        if (s->ref_size != count) {
            uint16_t *p = realloc(s->ref, count * sizeof *p);
            if (!p)
                return mp_error_set(err, MP_ERR_NOMEM, "cannot allocate a DELTA reference");
            s->ref = p;
            s->ref_size = count;
        }
        memset(s->ref, 0, count * sizeof *s->ref);
        s->ref_clip = c;
    }
    s->ref_index = -1;   /* invalid until the chain below completes a frame */
    for (uint32_t j = from; j <= index; j++) {
        const mlv_payload *p = target;
        mp_status st = MP_OK;
        if (j < index) {
            st = mp_mlv_read_payload(c, j, &s->chain, err);
            p = &s->chain;
        }
        if (st == MP_OK)
            st = decode_stored(c, p, out, s, err);
        if (st != MP_OK)
            return st;
        mp_delta_decode(out->data, s->ref, count, out->bits);
        memcpy(s->ref, out->data, count * sizeof *s->ref);
        s->ref_index = j;
    }
    return MP_OK;
}

mp_status mp_mlv_frame_shell(const mlv_clip *c, uint32_t index, mp_frame *out, mp_error *err)
{
    const mlv_entry *e = &c->frames[index];
    const mp_raw_info *r = &c->states[e->state].raw;
    mp_status st = mp_frame_reserve(out, r->width, r->height, err);
    if (st != MP_OK)
        return st;
    out->bits = r->bits;
    out->black = r->black > 0 ? (uint32_t)r->black : 0;
    out->white = r->white > 0 ? (uint32_t)r->white : 0;
    out->cfa = r->cfa;
    out->number = e->number;
    out->timestamp_us = e->timestamp;
    return MP_OK;
}

mp_status mp_mlv_source_decode_payload(const mlv_clip *c, uint32_t index,
                                       const mlv_payload *buf, mp_frame *out, mlv_scratch *s,
                                       mp_error *err)
{
    /* mp_mlv_read_payload checked this frame's entry and RAWI; the clip is read-only since. */
    mp_status st = mp_mlv_frame_shell(c, index, out, err);
    if (st != MP_OK)
        return st;

    if (c->info.compression == MLV_COMPRESSION_DELTA ||
        c->info.compression == MLV_COMPRESSION_LZMA_DELTA ||
        c->info.compression == MLV_COMPRESSION_LJ92_DELTA)
        return decode_delta(c, buf, out, s, err);
    return decode_stored(c, buf, out, s, err);
}

mp_status mp_mlv_read_payload(const mlv_clip *c, uint32_t index, mlv_payload *buf, mp_error *err)
{
    buf->clip = NULL;   /* holds no frame until this read completes */
    buf->size = 0;
    return c->source->read_payload(c, index, buf, err);
}

mp_status mp_mlv_decode_payload(const mlv_clip *c, uint32_t index, const mlv_payload *buf,
                                mp_frame *out, mlv_scratch *s, mp_error *err)
{
    if (!buf || buf->clip != c || buf->index != index)
        return mp_error_set(err, MP_ERR_ARG, "%s: frame index %u: the payload given holds "
                            "another frame (or none)", mp_mlv_base_name(c->chunks[0].path),
                            index);
    return c->source->decode_payload(c, index, buf, out, s, err);
}

mp_status mp_mlv_read_frame(const mlv_clip *c, uint32_t index, mp_frame *out, mlv_scratch *s,
                         mp_error *err)
{
    mp_status st = mp_mlv_read_payload(c, index, &s->payload, err);
    if (st == MP_OK)
        st = mp_mlv_decode_payload(c, index, &s->payload, out, s, err);
    return st;
}

void mp_mlv_payload_free(mlv_payload *buf)
{
    free(buf->data);
    memset(buf, 0, sizeof *buf);
}

void mp_mlv_scratch_free(mlv_scratch *s)
{
    free(s->buf);
    free(s->ref);
    mp_mlv_payload_free(&s->payload);
    mp_mlv_payload_free(&s->chain);
    memset(s, 0, sizeof *s);
    s->ref_index = -1;
}

mp_status mp_mlv_read_dark(const mlv_clip *c, mp_frame *out, mp_error *err)
{
    const mlv_dark_info *d = &c->info.dark;
    if (!d->present)
        return mp_error_set(err, MP_ERR_ARG, "%s: no DARK block",
                            mp_mlv_base_name(c->chunks[0].path));
    const char *name = mp_mlv_base_name(c->chunks[d->chunk].path);
    const unsigned long long at = d->offset - MLV_DARK_HEADER;
    if (d->bits < 10 || d->bits > 16)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: offset %llu: DARK block of %u bits per "
                            "sample (not supported)", name, at, d->bits);
    mp_status st = mp_frame_reserve(out, d->width, d->height, err);
    if (st != MP_OK)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: DARK block of %ux%u samples",
                            name, at, d->width, d->height);
    const size_t count = (size_t)d->width * d->height, need = mp_packed_size_mlv(count, d->bits);
    /* MLV-App's packing may end a byte short of whole 16-bit words: that byte is padding */
    if (d->size + 1 < need)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: DARK block holds %u bytes, "
                            "%ux%u %u-bit samples need %zu", name, at, d->size, d->width,
                            d->height, d->bits, need);
    uint8_t *bytes = calloc(need, 1);
    if (!bytes)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory for the DARK block", name);
    size_t want = d->size < need ? d->size : need;
    ssize_t got = mp_mlv_chunk_pread(&c->chunks[d->chunk], bytes, want, d->offset);
    if (got != (ssize_t)want) {
        free(bytes);
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %llu: DARK block cut short", name,
                            at);
    }
    mp_unpack_mlv(bytes, out->data, count, d->bits);
    free(bytes);
    out->bits = d->bits;
    out->black = d->black;
    out->white = d->white;
    out->cfa = c->info.raw.cfa ? c->info.raw.cfa : MP_CFA_RGGB;
    out->number = 0;
    out->timestamp_us = 0;
    return MP_OK;
}
