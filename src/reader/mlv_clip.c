/* Opening and closing clips; read-only accessors of the finished index. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mlv_internal.h"

static mlv_compression compression_of(uint32_t video_class)
{
    int lzma = (video_class & 0x80) != 0, delta = (video_class & 0x40) != 0;
    if (lzma && delta)
        return MLV_COMPRESSION_LZMA_DELTA;
    if (lzma)
        return MLV_COMPRESSION_LZMA;
    if (delta)
        return MLV_COMPRESSION_DELTA;
    if (video_class & 0x20)
        return MLV_COMPRESSION_LJ92;
    return MLV_COMPRESSION_NONE;
}

const char *mp_mlv_compression_name(mlv_compression c)
{
    switch (c) {
    case MLV_COMPRESSION_NONE: return "none";
    case MLV_COMPRESSION_LJ92: return "lj92";
    case MLV_COMPRESSION_LZMA: return "lzma";
    case MLV_COMPRESSION_DELTA: return "delta";
    case MLV_COMPRESSION_LZMA_DELTA: return "lzma+delta";
    }
    return "unknown";
}

/* Class 0x01 files from the 2017-03-30 builds hold LJ92: look at the first frame's first
 * two bytes when it is smaller than an uncompressed frame. */
static void detect_tagged_lj92(mlv_clip *c)
{
    mlv_clip_info *in = &c->info;
    if (in->container != MLV_CONTAINER_MLV || in->video_class != 1 || !in->frame_count)
        return;
    const mlv_entry *e = &c->frames[0];
    uint64_t full = ((uint64_t)in->raw.width * in->raw.height * in->raw.bits + 7) / 8;
    uint8_t soi[2];
    if (e->length >= 2 && e->length < full &&
        mp_mlv_read_span(c, e->chunk, e->offset, soi, 2, NULL) == MP_OK &&
        soi[0] == 0xFF && soi[1] == 0xD8)
        in->lj92_tagged_raw = 1;
}

static void free_build_state(mlv_clip *c)
{
    free(c->events);
    c->events = NULL;
    c->event_count = c->event_cap = 0;
}

mp_status mp_mlv_clip_open(mlv_clip **out, const char *path, const mlv_open_options *opt,
                        mp_error *err)
{
    *out = NULL;
    mlv_clip *c = calloc(1, sizeof *c);
    if (!c)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
    if (opt)
        c->log = opt->log;
    for (size_t i = 0; i < sizeof c->last_event / sizeof c->last_event[0]; i++)
        c->last_event[i] = -1;

    mp_status st = mp_mlv_find_chunks(c, path, opt && opt->no_spanning, err);
    if (st == MP_OK) {
        uint8_t magic[4] = {0};
        ssize_t got = pread(c->chunks[0].fd, magic, 4, 0);
        if (got == 4 && !memcmp(magic, "MLVI", 4)) {
            c->info.container = MLV_CONTAINER_MLV;
            for (uint32_t i = 0; i < c->info.chunk_count && st == MP_OK; i++)
                if (c->chunks[i].fd >= 0)
                    st = mp_mlv_index_chunk(c, i, err);
        } else if (mp_mlv_is_legacy_raw_name(c->chunks[0].path)) {
            st = mp_mlv_index_legacy_raw(c, err);
        } else {
            st = mp_error_set(err, MP_ERR_FORMAT, "%s: offset 0: no MLVI header and not a "
                              ".RAW name (not a Magic Lantern clip)", mp_mlv_base_name(path));
        }
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
    detect_tagged_lj92(c);
    *out = c;
    return MP_OK;
}

void mp_mlv_clip_close(mlv_clip *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; c->chunks && i < c->info.chunk_count; i++) {
        if (c->chunks[i].fd >= 0)
            close(c->chunks[i].fd);
        free(c->chunks[i].path);
    }
    free(c->chunks);
    free(c->frames);
    free(c->audio);
    free(c->audio_pos);
    free(c->states);
    free(c->damage);
    free_build_state(c);
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
