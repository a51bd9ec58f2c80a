#include "cache/entry.h"

#include <lz4.h>
#include <lz4hc.h>
#include <stdlib.h>
#include <string.h>

#include "cache/shuffle.h"
#include "common/mp_bytes.h"

static const uint8_t magic[4] = {'M', 'P', 'F', 'C'};

mp_status mp_cache_reserve(uint8_t **buf, size_t *cap, size_t need, mp_error *err)
{
    if (need <= *cap)
        return MP_OK;
    uint8_t *p = realloc(*buf, need);
    if (!p)
        return mp_error_set(err, MP_ERR_NOMEM, "cache: cannot allocate %zu bytes", need);
    *buf = p;
    *cap = need;
    return MP_OK;
}

static int geometry_ok(uint32_t width, uint32_t height, uint32_t bits)
{
    return width && height && width <= MP_FRAME_MAX_DIM && height <= MP_FRAME_MAX_DIM &&
           (uint64_t)width * height <= MP_FRAME_MAX_PIXELS && bits >= 1 && bits <= 16;
}

static void write_header(uint8_t *h, const mp_cache_key *key, const mp_frame *f,
                         mp_cache_shuffle shuffle, uint64_t raw_size, uint64_t packed_size,
                         uint64_t payload_hash)
{
    memcpy(h, magic, 4);
    mp_put_le16(h + 4, MP_CACHE_VERSION);
    h[6] = (uint8_t)shuffle;
    h[7] = 0;
    mp_put_le64(h + 8, key->clip_guid);
    mp_put_le64(h + 16, key->settings_hash);
    mp_put_le32(h + 24, key->frame);
    mp_put_le32(h + 28, f->width);
    mp_put_le32(h + 32, f->height);
    mp_put_le32(h + 36, f->bits);
    mp_put_le32(h + 40, f->black);
    mp_put_le32(h + 44, f->white);
    mp_put_le32(h + 48, f->cfa);
    mp_put_le32(h + 52, f->number);
    mp_put_le64(h + 56, f->timestamp_us);
    mp_put_le64(h + 64, raw_size);
    mp_put_le64(h + 72, packed_size);
    mp_put_le64(h + 80, payload_hash);
    mp_put_le64(h + 88, mp_cache_hash_bytes(h, 88, 0));
}

static int compress_block(const uint8_t *src, int src_size, uint8_t *dst, int dst_cap,
                          int hc_level, void *hc_state)
{
    if (hc_level == 0)
        return LZ4_compress_default((const char *)src, (char *)dst, src_size, dst_cap);
    return LZ4_compress_HC_extStateHC(hc_state, (const char *)src, (char *)dst, src_size,
                                      dst_cap, hc_level);
}

mp_status mp_cache_entry_encode(const mp_cache_key *key, const mp_frame *f,
                                mp_cache_shuffle shuffle, int hc_level, mp_cache_scratch *s,
                                size_t *size, mp_error *err)
{
    if (!f->data || !geometry_ok(f->width, f->height, f->bits))
        return mp_error_set(err, MP_ERR_ARG, "cache: frame %u: cannot store %ux%u at %u bits",
                            f->number, f->width, f->height, f->bits);
    if ((unsigned)shuffle >= MP_CACHE_SHUFFLE_COUNT || hc_level < 0 ||
        hc_level > LZ4HC_CLEVEL_MAX)
        return mp_error_set(err, MP_ERR_ARG, "cache: shuffle %d / HC level %d unknown",
                            (int)shuffle, hc_level);
    size_t raw_size = (size_t)f->width * f->height * 2;  /* <= 128 MiB: fits LZ4's int */
    int bound = LZ4_compressBound((int)raw_size);
    mp_status st = mp_cache_reserve(&s->plane, &s->plane_cap, raw_size, err);
    if (st == MP_OK)
        st = mp_cache_reserve(&s->entry, &s->entry_cap, MP_CACHE_HEADER_SIZE + (size_t)bound,
                              err);
    if (st == MP_OK && hc_level && !s->hc_state && !(s->hc_state = malloc(
                                                         (size_t)LZ4_sizeofStateHC())))
        st = mp_error_set(err, MP_ERR_NOMEM, "cache: cannot allocate the LZ4 HC state");
    if (st != MP_OK)
        return st;

    mp_cache_shuffle_samples(f->data, f->width, f->height, shuffle, s->plane);
    int packed = compress_block(s->plane, (int)raw_size, s->entry + MP_CACHE_HEADER_SIZE,
                                bound, hc_level, s->hc_state);
    if (packed <= 0)
        return mp_error_set(err, MP_ERR_NOMEM, "cache: frame %u: LZ4 compression failed",
                            f->number);
    write_header(s->entry, key, f, shuffle, raw_size, (uint64_t)packed,
                 mp_cache_hash_bytes(s->plane, raw_size, 0));
    *size = MP_CACHE_HEADER_SIZE + (size_t)packed;
    return MP_OK;
}

mp_status mp_cache_entry_parse_header(const uint8_t *h, uint64_t file_size, const char *name,
                                      mp_cache_entry_info *info, mp_error *err)
{
    if (file_size < MP_CACHE_HEADER_SIZE)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset 0: %llu bytes, shorter than the "
                            "%u-byte header", name, (unsigned long long)file_size,
                            MP_CACHE_HEADER_SIZE);
    if (memcmp(h, magic, 4) != 0)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: offset 0: not a cache entry (bad magic)",
                            name);
    if (mp_le16(h + 4) != MP_CACHE_VERSION)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: offset 4: version %u unsupported",
                            name, mp_le16(h + 4));
    if (mp_le64(h + 88) != mp_cache_hash_bytes(h, 88, 0))
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset 88: header checksum mismatch",
                            name);
    /* Past the checksum the fields are as written by an encoder; still check them, so a
     * header forged with a valid checksum cannot make us allocate without bound. */
    info->shuffle = (mp_cache_shuffle)h[6];
    info->key.clip_guid = mp_le64(h + 8);
    info->key.settings_hash = mp_le64(h + 16);
    info->key.frame = mp_le32(h + 24);
    info->width = mp_le32(h + 28);
    info->height = mp_le32(h + 32);
    info->bits = mp_le32(h + 36);
    info->black = mp_le32(h + 40);
    info->white = mp_le32(h + 44);
    info->cfa = mp_le32(h + 48);
    info->number = mp_le32(h + 52);
    info->timestamp_us = mp_le64(h + 56);
    info->raw_size = mp_le64(h + 64);
    info->packed_size = mp_le64(h + 72);
    info->payload_hash = mp_le64(h + 80);
    if (h[6] >= MP_CACHE_SHUFFLE_COUNT || h[7] != 0)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: offset 6: shuffle %u unknown", name,
                            h[6]);
    if (!geometry_ok(info->width, info->height, info->bits))
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset 28: frame %ux%u at %u bits out "
                            "of bounds", name, info->width, info->height, info->bits);
    uint64_t raw = (uint64_t)info->width * info->height * 2;
    if (info->raw_size != raw)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset 64: payload size %llu, frame "
                            "needs %llu", name, (unsigned long long)info->raw_size,
                            (unsigned long long)raw);
    if (info->packed_size == 0 ||
        info->packed_size > (uint64_t)LZ4_compressBound((int)raw) ||
        info->packed_size != file_size - MP_CACHE_HEADER_SIZE)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset 72: compressed size %llu, file "
                            "holds %llu", name, (unsigned long long)info->packed_size,
                            (unsigned long long)(file_size - MP_CACHE_HEADER_SIZE));
    return MP_OK;
}

mp_status mp_cache_entry_decode(const mp_cache_entry_info *info, const uint8_t *packed,
                                const char *name, mp_cache_scratch *s, mp_frame *out,
                                mp_error *err)
{
    mp_status st = mp_cache_reserve(&s->plane, &s->plane_cap, info->raw_size, err);
    if (st != MP_OK)
        return st;
    int got = LZ4_decompress_safe((const char *)packed, (char *)s->plane,
                                  (int)info->packed_size, (int)info->raw_size);
    if (got < 0 || (uint64_t)got != info->raw_size)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %u: LZ4 block does not decode "
                            "to %llu bytes", name, MP_CACHE_HEADER_SIZE,
                            (unsigned long long)info->raw_size);
    if (mp_cache_hash_bytes(s->plane, info->raw_size, 0) != info->payload_hash)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset %u: payload checksum mismatch",
                            name, MP_CACHE_HEADER_SIZE);
    if ((st = mp_frame_reserve(out, info->width, info->height, err)) != MP_OK)
        return st;
    mp_cache_unshuffle_samples(s->plane, info->width, info->height, info->shuffle, out->data);
    out->bits = info->bits;
    out->black = info->black;
    out->white = info->white;
    out->cfa = info->cfa;
    out->number = info->number;
    out->timestamp_us = info->timestamp_us;
    return MP_OK;
}
