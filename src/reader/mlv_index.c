/* Walks the blocks of one MLV chunk by their headers: 32 bytes per block (VIDF needs its
 * frame fields), plus the small fixed part of metadata blocks. Frame and audio payloads are
 * never read; damage is recorded and the walk stops or re-synchronises, always advancing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlv_internal.h"

#define RESYNC_WINDOW 65536u

static const char *chunk_name(const mlv_clip *c, uint32_t chunk)
{
    return mp_mlv_base_name(c->chunks[chunk].path);
}

mp_status mp_mlv_read_mlvi(const mlv_chunk *ch, mlv_file_header *h, mp_error *err)
{
    uint8_t buf[MLV_MLVI_SIZE];
    ssize_t got = mp_mlv_chunk_pread(ch, buf, sizeof buf, 0);
    const char *name = mp_mlv_base_name(ch->path);
    if (got < 0)
        return mp_error_set(err, MP_ERR_IO, "%s: offset 0: %s", name, strerror(errno));
    if (got < (ssize_t)sizeof buf || memcmp(buf, "MLVI", 4))
        return mp_error_set(err, MP_ERR_FORMAT, "%s: offset 0: no MLVI header (not an MLV file)",
                            name);
    uint32_t size = mp_le32(buf + 4);
    if (size < MLV_MLVI_SIZE || size > ch->size)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: offset 0: MLVI blockSize %u impossible",
                            name, size);
    mlv_block b;
    mp_mlv_block_parse(buf, sizeof buf, &b);
    *h = b.u.mlvi;
    h->block_size = size;
    return MP_OK;
}

/* A header good enough to resume walking at: a frequent block type (VIDF, AUDF, NULL, RTCI:
 * resync's scan looks up only the bytes these start with) with a size that fits. */
static int resync_candidate(const uint8_t *p, size_t avail, uint64_t remain)
{
    if (avail < MLV_HEADER_SIZE)
        return 0;
    mlv_block_type t = mp_mlv_block_type_of(p);
    if (t != MLV_BLOCK_VIDF && t != MLV_BLOCK_AUDF && t != MLV_BLOCK_NULL && t != MLV_BLOCK_RTCI)
        return 0;
    uint32_t size = mp_le32(p + 4);
    if (size < MLV_HEADER_SIZE || size > remain)
        return 0;
    if (t == MLV_BLOCK_VIDF)
        return avail >= MLV_VIDF_HEADER && size >= MLV_VIDF_HEADER && mp_le32(p + 28) <= size - MLV_VIDF_HEADER;
    if (t == MLV_BLOCK_AUDF)
        return avail >= MLV_AUDF_HEADER && size >= MLV_AUDF_HEADER && mp_le32(p + 20) <= size - MLV_AUDF_HEADER;
    return 1;
}

/* The first bytes of the block types resync_candidate takes. */
static const char resync_letters[4] = {'V', 'A', 'N', 'R'};

/* Offset of the first of those bytes in p[from, n), n if none. memchr per letter (the C
 * library's vector search) instead of a test of every byte, which under the fuzzer's
 * comparison hooks was a tenth of a reader target's CPU. at[k]: where letter k was found
 * last (-1 before the first search), kept from call to call so that each byte is searched
 * once per letter. */
static size_t next_letter(const uint8_t *p, size_t from, size_t n, int64_t at[4])
{
    size_t best = n;
    for (int k = 0; k < 4; k++) {
        if (at[k] < (int64_t)from) {
            const uint8_t *q = memchr(p + from, resync_letters[k], n - from);
            at[k] = q ? q - p : (int64_t)n;
        }
        best = (size_t)at[k] < best ? (size_t)at[k] : best;
    }
    return best;
}

/* Scans forward from `from` (at most MLV_RESYNC_MAX bytes) for the next plausible block.
 * Returns its offset, or the chunk size when none is found. A chunk in memory is scanned
 * where it is; a file through `buf` (RESYNC_WINDOW bytes, or the chunk size if smaller). */
static uint64_t resync(const mlv_chunk *ch, uint64_t from, uint8_t *buf)
{
    uint64_t limit = ch->size - from > MLV_RESYNC_MAX ? from + MLV_RESYNC_MAX : ch->size;
    uint64_t pos = from;
    while (pos + MLV_HEADER_SIZE <= limit) {
        size_t want = RESYNC_WINDOW;
        if (ch->size - pos < want)
            want = (size_t)(ch->size - pos);
        const uint8_t *window = ch->mem ? ch->mem + pos : buf;
        ssize_t got = ch->mem ? (ssize_t)want : mp_mlv_chunk_pread(ch, buf, want, pos);
        if (got < (ssize_t)MLV_HEADER_SIZE)
            break;
        /* candidates need a full 32-byte header inside the window, except at EOF */
        size_t last = (size_t)got - MLV_HEADER_SIZE;
        if ((size_t)got == RESYNC_WINDOW)
            last = (size_t)got - MLV_VIDF_HEADER;
        const size_t end = last + 1 < limit - pos ? last + 1 : (size_t)(limit - pos);
        int64_t at[4] = {-1, -1, -1, -1};
        for (size_t i = next_letter(window, 0, end, at); i < end;
             i = next_letter(window, i + 1, end, at))
            if (resync_candidate(window + i, (size_t)got - i, ch->size - (pos + i)))
                return pos + i;
        pos += last + 1;
    }
    return ch->size;
}

/* The block at prev reached past next, a block found inside it: it is cut at next (its frame
 * or audio entry `last` too, so that no bytes of the next block count as its payload). */
static void resync_inside(mlv_clip *c, uint32_t chunk, uint64_t prev, uint64_t next,
                              uint64_t bad, mlv_entry *last)
{
    mp_mlv_add_damage(c, MLV_DAMAGE_OVERSTATED, chunk, prev,
                   "%s: offset %llu: blockSize reaches %llu but a block starts at %llu; block "
                   "cut there", chunk_name(c, chunk), (unsigned long long)prev,
                   (unsigned long long)bad, (unsigned long long)next);
    if (last)
        last->length = next > last->offset ? (uint32_t)(next - last->offset) : 0;
}

static mp_status index_block(mlv_clip *c, uint32_t chunk, uint64_t off, const uint8_t *hdr,
                             size_t have, mp_error *err)
{
    const mlv_chunk *ch = &c->chunks[chunk];
    mlv_block b;
    mp_mlv_block_parse(hdr, have, &b);
    switch (b.type) {
    case MLV_BLOCK_VIDF:
    case MLV_BLOCK_AUDF: {
        int video = b.type == MLV_BLOCK_VIDF;
        uint32_t head = video ? MLV_VIDF_HEADER : MLV_AUDF_HEADER;
        uint32_t space = video ? b.u.vidf.frame_space : b.u.audf.frame_space;
        if (b.size < head || space > b.size - head) {
            mp_mlv_add_damage(c, MLV_DAMAGE_BAD_BLOCK, chunk, off,
                           "%s: offset %llu: %s frameSpace %u past block end (blockSize %u); "
                           "block skipped", chunk_name(c, chunk), (unsigned long long)off,
                           b.tag, space, b.size);
            return MP_OK;
        }
        mlv_entry e = {0};
        e.timestamp = b.timestamp;
        e.offset = off + head + space;
        e.length = b.size - head - space;
        e.chunk = (uint16_t)chunk;
        if (video) {
            e.number = b.u.vidf.number;
            e.crop_x = b.u.vidf.crop_x;
            e.crop_y = b.u.vidf.crop_y;
            e.pan_x = b.u.vidf.pan_x;
            e.pan_y = b.u.vidf.pan_y;
            return mp_mlv_add_frame(c, &e, err);
        }
        e.number = b.u.audf.number;
        return mp_mlv_add_audio(c, &e, err);
    }
    case MLV_BLOCK_UNKNOWN:
    case MLV_BLOCK_NULL:
    case MLV_BLOCK_BKUP:
    case MLV_BLOCK_MLVI:     /* only valid at offset 0 */
        return MP_OK;
    default:
        break;
    }
    uint32_t want = mp_mlv_block_wanted(b.type);
    if (want > b.size)
        want = b.size;
    if (want > have) {
        uint8_t full[MLV_BLOCK_READ_MAX];
        ssize_t got = mp_mlv_chunk_pread(ch, full, want, off);
        if (got < 0)
            return mp_error_set(err, MP_ERR_IO, "%s: offset %llu: %s", chunk_name(c, chunk),
                                (unsigned long long)off, strerror(errno));
        mp_mlv_block_parse(full, (size_t)got, &b);
    }
    return mp_mlv_add_metadata(c, &b, chunk, off, err);
}

mp_status mp_mlv_index_chunk(mlv_clip *c, uint32_t chunk, mp_error *err)
{
    mlv_chunk *ch = &c->chunks[chunk];
    const char *name = chunk_name(c, chunk);
    mlv_file_header h;
    mp_error sub = {0};
    mp_status st = mp_mlv_read_mlvi(ch, &h, &sub);
    if (st != MP_OK && chunk > 0 && st != MP_ERR_NOMEM) {
        mp_mlv_add_damage(c, MLV_DAMAGE_BAD_BLOCK, chunk, 0, "%s; chunk ignored", sub.msg);
        mp_mlv_chunk_drop(ch);
        return MP_OK;
    }
    if (st != MP_OK) {
        if (err)
            *err = sub;
        return st;
    }
    if (chunk == 0) {
        c->info.guid = h.guid;
        c->info.video_class = h.video_class;
        c->info.audio_class = h.audio_class;
        c->info.fps_num = h.fps_num;
        c->info.fps_den = h.fps_den;
        c->info.file_flags = h.file_flags;
    } else if (h.guid != c->info.guid) {
        mp_mlv_add_damage(c, MLV_DAMAGE_GUID_MISMATCH, chunk, 0,
                       "%s: offset 0: GUID %016llx differs from the clip's %016llx; chunk ignored",
                       name, (unsigned long long)h.guid, (unsigned long long)c->info.guid);
        mp_mlv_chunk_drop(ch);
        return MP_OK;
    }

    uint8_t *window = NULL;
    uint8_t hdr[MLV_VIDF_HEADER];
    uint64_t off = h.block_size;
    uint64_t prev = 0;          /* start of the block before off (0: the MLVI) */
    uint64_t rescan_from = 16;  /* where a rescan of the previous block may start */
    uint64_t min_rescan = 0;    /* rescans never go back before a block they found */
    int64_t last_frame = -1, last_audio = -1;   /* entry the previous block added, if any */
    uint32_t vidf_seen = 0;
    int64_t last_number = -1;   /* frame number of the last VIDF indexed in this chunk */
    int recorder_layout = 0;    /* a NULL pad before the first VIDF, as the camera writes */
    if (ch->after_gap)
        c->damage_seen++;       /* frames of a missing chunk were lost before this one */
    uint32_t damage_before = c->damage_seen;

    while (off < ch->size && st == MP_OK) {
        uint64_t remain = ch->size - off;
        if (remain < MLV_HEADER_SIZE) {
            mp_mlv_add_damage(c, MLV_DAMAGE_TRUNCATED, chunk, off,
                           "%s: offset %llu: %llu trailing bytes, too short for a block header",
                           name, (unsigned long long)off, (unsigned long long)remain);
            break;
        }
        size_t have = remain < sizeof hdr ? (size_t)remain : sizeof hdr;
        ssize_t got = mp_mlv_chunk_pread(ch, hdr, have, off);
        if (got < 0) {
            st = mp_error_set(err, MP_ERR_IO, "%s: offset %llu: %s", name,
                              (unsigned long long)off, strerror(errno));
            break;
        }
        have = (size_t)got;
        uint32_t size = mp_le32(hdr + 4);
        int plausible = mp_mlv_tag_plausible(hdr) && size >= MLV_HEADER_SIZE;
        vidf_seen += plausible && mp_mlv_block_type_of(hdr) == MLV_BLOCK_VIDF;
        recorder_layout |= plausible && !vidf_seen && mp_mlv_block_type_of(hdr) == MLV_BLOCK_NULL;
        if (plausible && size <= remain) {
            uint32_t frames = c->info.frame_count, audio = c->audio_count;
            st = index_block(c, chunk, off, hdr, have, err);
            last_frame = c->info.frame_count > frames ? (int64_t)frames : -1;
            if (last_frame >= 0)
                last_number = c->frames[last_frame].number;
            last_audio = c->audio_count > audio ? (int64_t)audio : -1;
            prev = off;
            rescan_from = last_frame >= 0 ? c->frames[last_frame].offset
                        : last_audio >= 0 ? c->audio[last_audio].offset : off + MLV_HEADER_SIZE;
            off += size;
            continue;
        }
        /* A bad header: the previous block's size was overstated, the file was cut inside
         * this block, or its bytes are garbage or zeroed (card damage). Look for the next
         * block from inside the previous one (after its frame header), so that a size that
         * grew past an intact frame does not lose it; without one, this is where the data
         * ends. */
        if (!ch->mem && !window &&
            !(window = malloc(ch->size < RESYNC_WINDOW ? (size_t)ch->size : RESYNC_WINDOW))) {
            st = mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", name);
            break;
        }
        uint64_t from = rescan_from > min_rescan ? rescan_from : min_rescan;
        uint64_t next = resync(ch, from < off ? from : off + 1, window);
        if (next < off)
            resync_inside(c, chunk, prev, next, off,
                          last_frame >= 0 ? &c->frames[last_frame]
                          : last_audio >= 0 ? &c->audio[last_audio] : NULL);
        char tag[5] = {0};
        for (int i = 0; i < 4; i++)
            tag[i] = (hdr[i] >= 0x20 && hdr[i] < 0x7f) ? (char)hdr[i] : '?';
        last_frame = last_audio = -1;
        if (next < off) {
            min_rescan = next + 1;
            off = next;
        } else if (next < ch->size) {
            mp_mlv_add_damage(c, MLV_DAMAGE_RESYNC, chunk, off,
                           "%s: offset %llu: bad block header '%s' blockSize %u; skipped %llu "
                           "bytes to the next block", name, (unsigned long long)off, tag, size,
                           (unsigned long long)(next - off));
            min_rescan = next + 1;
            off = next;
        } else if (size == 0) {
            mp_mlv_add_damage(c, MLV_DAMAGE_ZERO_TAIL, chunk, off,
                           "%s: offset %llu: blockSize 0 (zero-filled tail, %llu bytes); end of "
                           "usable data", name, (unsigned long long)off,
                           (unsigned long long)remain);
            break;
        } else if (plausible) {
            /* a cut frame's header still says which frame is lost (its frameNumber) */
            char lost[40] = "";
            if (mp_mlv_block_type_of(hdr) == MLV_BLOCK_VIDF && have >= 20) {
                snprintf(lost, sizeof lost, "; frame %u lost", mp_le32(hdr + 16));
                c->info.lost_frames++;
            }
            mp_mlv_add_damage(c, MLV_DAMAGE_TRUNCATED, chunk, off,
                           "%s: offset %llu: %s block of %u bytes runs past the end of the file "
                           "(%llu bytes left); block dropped%s", name, (unsigned long long)off,
                           tag, size, (unsigned long long)remain, lost);
            break;
        } else {
            mp_mlv_add_damage(c, MLV_DAMAGE_BAD_BLOCK, chunk, off,
                           "%s: offset %llu: bad block header '%s' blockSize %u; rest of the "
                           "file (%llu bytes) ignored", name, (unsigned long long)off, tag, size,
                           (unsigned long long)remain);
            break;
        }
    }
    free(window);
    /* Frames lost without a trace (a cut at a block boundary, a chunk cut back to its
     * header); a loss other damage of this chunk explains was reported with it. Only the
     * camera's count is trusted: mlv_dump -f keeps the source's count in the clips it cuts
     * (and writes no NULL pad after the headers, which the recorders always do). */
    if (st == MP_OK && recorder_layout && h.video_frames > vidf_seen &&
        c->damage_seen == damage_before) {
        uint32_t lost = h.video_frames - vidf_seen;
        char after[40] = "";    /* the recorder numbers frames in the order it writes them */
        if (last_number >= 0)
            snprintf(after, sizeof after, " after frame %u", (uint32_t)last_number);
        mp_mlv_add_damage(c, MLV_DAMAGE_LOST_FRAMES, chunk, off < ch->size ? off : ch->size,
                       "%s: offset %llu: MLVI videoFrameCount is %u but %u VIDF blocks were "
                       "found; %u frame%s lost%s", name,
                       (unsigned long long)(off < ch->size ? off : ch->size), h.video_frames,
                       vidf_seen, lost, lost == 1 ? "" : "s", after);
        c->info.lost_frames += lost;
    }
    return st;
}

static int mlv_probe(const mlv_clip *c, const uint8_t *head, size_t n)
{
    (void)c;
    return n >= 4 && !memcmp(head, "MLVI", 4);
}

static mp_status mlv_index(mlv_clip *c, mp_error *err)
{
    c->info.container = MLV_CONTAINER_MLV;
    mp_status st = MP_OK;
    for (uint32_t i = 0; i < c->info.chunk_count && st == MP_OK; i++)
        if (mp_mlv_chunk_usable(&c->chunks[i]))
            st = mp_mlv_index_chunk(c, i, err);
    return st;
}

const mp_source_ops mp_source_mlv = {
    .name = "mlv",
    .probe = mlv_probe,
    .index = mlv_index,
    .read_payload = mp_mlv_source_read_payload,
    .decode_payload = mp_mlv_source_decode_payload,
};
