/* Opening and closing clips; read-only accessors of the finished index. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codec/bitpack.h"
#include "codec/lzma_frame.h"
#include "still_internal.h"

/* LJ92 combined with LZMA is refused by mp_mlv_clip_check_video (no tool writes it). */
static mlv_compression compression_of(uint32_t video_class)
{
    int lzma = (video_class & 0x80) != 0, delta = (video_class & 0x40) != 0;
    int lj92 = (video_class & 0x20) != 0;
    if (lj92)
        return delta ? MLV_COMPRESSION_LJ92_DELTA : MLV_COMPRESSION_LJ92;
    if (lzma)
        return delta ? MLV_COMPRESSION_LZMA_DELTA : MLV_COMPRESSION_LZMA;
    return delta ? MLV_COMPRESSION_DELTA : MLV_COMPRESSION_NONE;
}

const char *mp_mlv_compression_name(mlv_compression c)
{
    switch (c) {
    case MLV_COMPRESSION_NONE: return "none";
    case MLV_COMPRESSION_LJ92: return "lj92";
    case MLV_COMPRESSION_LZMA: return "lzma";
    case MLV_COMPRESSION_DELTA: return "delta";
    case MLV_COMPRESSION_LZMA_DELTA: return "lzma+delta";
    case MLV_COMPRESSION_LJ92_DELTA: return "lj92+delta";
    }
    return "unknown";
}

const char *mp_mlv_damage_kind_name(mlv_damage_kind k)
{
    switch (k) {
    case MLV_DAMAGE_TRUNCATED: return "truncated";
    case MLV_DAMAGE_ZERO_TAIL: return "zero_tail";
    case MLV_DAMAGE_BAD_BLOCK: return "bad_block";
    case MLV_DAMAGE_GUID_MISMATCH: return "guid_mismatch";
    case MLV_DAMAGE_MISSING_CHUNK: return "missing_chunk";
    case MLV_DAMAGE_DUPLICATE_FRAME: return "duplicate_frame";
    case MLV_DAMAGE_RESYNC: return "resync";
    case MLV_DAMAGE_LOST_FRAMES: return "lost_frames";
    case MLV_DAMAGE_BAD_NUMBER: return "bad_number";
    case MLV_DAMAGE_OVERSTATED: return "overstated_size";
    case MLV_DAMAGE_BAD_FIELD: return "bad_field";
    }
    return "unknown";
}

/* Class 0x01 files whose first frame is smaller than an uncompressed frame were written by
 * a tool that mislabelled its compression: the 2017-03-30 mlv_lite builds (LJ92, starts with
 * the SOI marker FF D8) and mlv_dump builds of 2015-01 to 2017-04 (LZMA, a frame header that
 * fits the frame). LZMA is then decoded as such, with one warning; a DELTA payload
 * mislabelled the same way has no signature and is not guessed (it stays damage). */
static void detect_mislabelled(mlv_clip *c)
{
    mlv_clip_info *in = &c->info;
    if (in->container != MLV_CONTAINER_MLV || in->video_class != 1 || !in->frame_count ||
        in->raw.bits < 1 || in->raw.bits > 16)
        return;
    const mlv_entry *e = &c->frames[0];
    size_t full = mp_packed_size_mlv((size_t)in->raw.width * in->raw.height, in->raw.bits);
    uint8_t head[MP_LZMA_FRAME_HEADER];
    if (e->length < 2 || e->length >= full)
        return;
    size_t n = e->length < sizeof head ? e->length : sizeof head;
    if (mp_mlv_read_span(c, e->chunk, e->offset, head, n, NULL) != MP_OK)
        return;
    if (head[0] == 0xFF && head[1] == 0xD8) {
        in->lj92_tagged_raw = 1;
    } else if (mp_lzma_frame_header_fits(head, e->length, full)) {
        in->lzma_tagged_raw = 1;
        in->compression = MLV_COMPRESSION_LZMA;
        mp_log(&c->log, MP_LOG_WARNING, "%s: videoClass 0x01 says uncompressed, but the frames "
               "are LZMA (mislabelled by mlv_dump builds of 2015-2017): decoding them as LZMA",
               mp_mlv_base_name(c->chunks[0].path));
    }
}

/* In the order they are tried: MLV by its magic, legacy RAW by its name, stills by the TIFF
 * header (or a folder, whose photos mp_still_find_folder made the chunks). */
static const mp_source_ops *const sources[] = {&mp_source_mlv, &mp_source_raw,
                                               &mp_source_still};

static void free_build_state(mlv_clip *c)
{
    free(c->events);
    c->events = NULL;
    c->event_count = c->event_cap = 0;
}

static mp_status clip_open(mlv_clip **out, const char *path, const mlv_mem_file *files,
                           uint32_t count, const mlv_open_options *opt, mp_error *err)
{
    *out = NULL;
    mlv_clip *c = calloc(1, sizeof *c);
    if (!c)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
    if (opt)
        c->log = opt->log;
    c->mem_files = files;
    c->mem_count = count;
    for (size_t i = 0; i < sizeof c->last_event / sizeof c->last_event[0]; i++)
        c->last_event[i] = -1;

    struct stat sb;
    int folder = !files && !stat(path, &sb) && S_ISDIR(sb.st_mode);
    mp_status st = folder ? mp_still_find_folder(c, path, err)
                          : mp_mlv_find_chunks(c, path, opt && opt->no_spanning, err);
    if (st == MP_OK) {
        uint8_t head[16] = {0};
        ssize_t got = mp_mlv_chunk_pread(&c->chunks[0], head, sizeof head, 0);
        size_t n = got > 0 ? (size_t)got : 0;
        for (size_t i = 0; i < sizeof sources / sizeof sources[0] && !c->source; i++)
            if (sources[i]->probe(c, head, n))
                c->source = sources[i];
        if (c->source)
            st = c->source->index(c, err);
        else
            st = mp_error_set(err, MP_ERR_FORMAT, "%s: offset 0: no MLVI header, not a .RAW "
                              "name and not a TIFF still (not a Magic Lantern clip or a raw "
                              "photo)", mp_mlv_base_name(path));
    }
    if (st == MP_OK)
        st = mp_mlv_finish_index(c, err);
    if (st == MP_OK)
        st = mp_mlv_finish_audio(c, err);
    free_build_state(c);
    if (st != MP_OK) {
        mp_mlv_clip_close(c);
        return st;
    }
    c->info.compression = compression_of(c->info.video_class);
    detect_mislabelled(c);
    mp_mlv_mark_unfit_segments(c);
    c->mem_files = NULL;    /* only names were looked up in it */
    c->mem_count = 0;
    *out = c;
    return MP_OK;
}

mp_status mp_mlv_clip_open(mlv_clip **out, const char *path, const mlv_open_options *opt,
                           mp_error *err)
{
    return clip_open(out, path, NULL, 0, opt, err);
}

mp_status mp_mlv_clip_open_memory(mlv_clip **out, const char *path, const mlv_mem_file *files,
                                  uint32_t count, const mlv_open_options *opt, mp_error *err)
{
    if (!files && count)
        return mp_error_set(err, MP_ERR_ARG, "%s: no files given", path);
    static const mlv_mem_file none = {NULL, NULL, 0};
    return clip_open(out, path, files ? files : &none, files ? count : 0, opt, err);
}

void mp_mlv_clip_close(mlv_clip *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; c->chunks && i < c->info.chunk_count; i++) {
        mp_mlv_chunk_drop(&c->chunks[i]);
        free(c->chunks[i].path);
    }
    free(c->chunks);
    free(c->frames);
    free(c->audio);
    free(c->audio_pos);
    free(c->states);
    free(c->damage);
    free_build_state(c);
    if (c->source && c->source->close)
        c->source->close(c);
    free(c);
}

const mlv_clip_info *mp_mlv_clip_get_info(const mlv_clip *c)
{
    return &c->info;
}

const char *mp_mlv_clip_path(const mlv_clip *c, uint32_t chunk)
{
    return chunk < c->info.chunk_count ? c->chunks[chunk].path : NULL;
}

const mlv_damage *mp_mlv_clip_damage(const mlv_clip *c, uint32_t i)
{
    return i < c->info.damage_count ? &c->damage[i] : NULL;
}

mp_status mp_mlv_frame_info_get(const mlv_clip *c, uint32_t index, mlv_frame_info *out)
{
    if (index >= c->info.frame_count)
        return MP_ERR_RANGE;
    const mlv_entry *e = &c->frames[index];
    const mlv_state *s = &c->states[e->state];
    out->number = e->number;
    out->timestamp_us = e->timestamp;
    out->crop_x = e->crop_x;
    out->crop_y = e->crop_y;
    out->pan_x = e->pan_x;
    out->pan_y = e->pan_y;
    out->segment = e->segment;
    out->raw = &s->raw;
    out->exposure = &s->exposure;
    out->dual_iso = &s->dual_iso;
    out->white_balance = &s->white_balance;
    out->chunk = e->chunk;
    out->offset = e->offset;
    return MP_OK;
}

int64_t mp_mlv_frame_index_of(const mlv_clip *c, uint32_t number)
{
    uint32_t lo = 0, hi = c->info.frame_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->frames[mid].number < number)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->info.frame_count && c->frames[lo].number == number ? (int64_t)lo : -1;
}
