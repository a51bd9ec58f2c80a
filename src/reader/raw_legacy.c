/* Legacy .RAW (lv_rec / raw_rec): 14-bit frames back to back in NAME.RAW, NAME.R00, ...
 * read as one byte stream (frames straddle chunk files), a 192-byte RAWM footer at the end
 * of the last chunk (doc/mlv-format.md section 16). */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "mlv_internal.h"

#define RAW_FOOTER_SIZE 192u
#define RAW_BITS 14u

mp_status mp_mlv_index_legacy_raw(mlv_clip *c, mp_error *err)
{
    mlv_clip_info *in = &c->info;
    /* the footer sits in the last chunk that could be opened */
    uint32_t last = in->chunk_count;
    while (last > 0 && !mp_mlv_chunk_usable(&c->chunks[last - 1]))
        last--;
    if (last == 0)
        return mp_error_set(err, MP_ERR_IO, "%s: no readable chunk", mp_mlv_base_name(c->chunks[0].path));
    mlv_chunk *ch = &c->chunks[last - 1];
    const char *name = mp_mlv_base_name(ch->path);
    if (ch->size < RAW_FOOTER_SIZE)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: offset 0: %llu bytes, too short for a RAWM "
                            "footer (not a legacy RAW clip)", name,
                            (unsigned long long)ch->size);
    uint64_t foot_at = ch->size - RAW_FOOTER_SIZE;
    uint8_t f[RAW_FOOTER_SIZE];
    if (mp_mlv_chunk_pread(ch, f, sizeof f, foot_at) != (ssize_t)sizeof f)
        return mp_error_set(err, MP_ERR_IO, "%s: offset %llu: cannot read the footer: %s", name,
                            (unsigned long long)foot_at, strerror(errno));
    if (memcmp(f, "RAWM", 4))
        return mp_error_set(err, MP_ERR_FORMAT, "%s: offset %llu: no RAWM footer (not a legacy "
                            "RAW clip)", name, (unsigned long long)foot_at);
    ch->data_end = foot_at;

    mlv_block b;
    memset(&b, 0, sizeof b);
    b.type = MLV_BLOCK_RAWI;
    memcpy(b.tag, "RAWM", 5);
    b.u.rawi.width = mp_le16(f + 4);
    b.u.rawi.height = mp_le16(f + 6);
    mp_mlv_parse_raw_info(f + 32, &b.u.rawi);
    b.u.rawi.bits = RAW_BITS;   /* .RAW is always 14-bit whatever raw_info says */
    uint32_t frame_size = mp_le32(f + 8);
    uint32_t frame_count = mp_le32(f + 12);
    uint32_t fps1000 = mp_le32(f + 20);
    uint64_t payload = ((uint64_t)b.u.rawi.width * b.u.rawi.height * RAW_BITS + 7) / 8;
    if (payload == 0 || frame_size < payload)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: offset %llu: frameSize %u cannot hold a "
                            "%ux%u 14-bit frame", name, (unsigned long long)foot_at, frame_size,
                            b.u.rawi.width, b.u.rawi.height);
    mp_status st = mp_mlv_add_metadata(c, &b, last - 1, foot_at, err);
    if (st != MP_OK)
        return st;
    in->container = MLV_CONTAINER_RAW;
    in->video_class = 1;
    if (!mp_mlv_rate_valid(fps1000, 1000)) {
        /* no timestamps to take a rate from: the fallback, as for an MLV without them */
        mp_mlv_add_damage(c, MLV_DAMAGE_BAD_NUMBER, last - 1, foot_at + 20, "%s: offset %llu: "
                          "footer frame rate %d/1000 is not a rate; using %u/1000 (assumed)",
                          name, (unsigned long long)(foot_at + 20), (int32_t)fps1000,
                          MLV_FALLBACK_FPS * 1000);
        fps1000 = MLV_FALLBACK_FPS * 1000;
    }
    in->fps_num = fps1000;
    in->fps_den = 1000;

    /* The stream is contiguous only up to the first chunk that is missing or unreadable. */
    uint64_t stream = 0;
    uint32_t usable = 0;
    while (usable < last && mp_mlv_chunk_usable(&c->chunks[usable]) &&
           !(usable > 0 && c->chunks[usable].after_gap))
        stream += c->chunks[usable++].data_end;
    uint64_t fit = stream >= payload ? (stream - payload) / frame_size + 1 : 0;
    uint64_t count = frame_count;
    if (fit < count) {
        mp_mlv_add_damage(c, MLV_DAMAGE_TRUNCATED, 0, fit * frame_size,
                       "%s: offset %llu: footer lists %u frames, the data holds %llu",
                       mp_mlv_base_name(c->chunks[0].path), (unsigned long long)(fit * frame_size),
                       frame_count, (unsigned long long)fit);
        count = fit;
    }
    uint32_t chunk = 0;
    uint64_t chunk_start = 0;   /* stream offset of `chunk` */
    for (uint64_t i = 0; i < count && st == MP_OK; i++) {
        uint64_t at = i * frame_size;
        while (at >= chunk_start + c->chunks[chunk].data_end)
            chunk_start += c->chunks[chunk++].data_end;
        mlv_entry e = {0};
        e.chunk = (uint16_t)chunk;
        e.offset = at - chunk_start;
        e.length = (uint32_t)payload;
        e.number = (uint32_t)i;
        e.timestamp = fps1000 ? i * 1000000000ull / fps1000 : 0;
        st = mp_mlv_add_frame(c, &e, err);
    }
    return st;
}

static int raw_probe(const mlv_clip *c, const uint8_t *head, size_t n)
{
    (void)head;
    (void)n;
    return mp_mlv_is_legacy_raw_name(c->chunks[0].path);
}

const mp_source_ops mp_source_raw = {
    .name = "raw",
    .probe = raw_probe,
    .index = mp_mlv_index_legacy_raw,
    .read_payload = mp_mlv_source_read_payload,
    .decode_payload = mp_mlv_source_decode_payload,
};
