/* Audio: the PCM of AUDF blocks concatenated in their frameNumber order, each block cut to
 * whole sample frames (a half sample frame would swap the channels of everything after it). */
#include <stdlib.h>
#include <string.h>

#include "mlv_internal.h"

mp_status mp_mlv_finish_audio(mlv_clip *c, mp_error *err)
{
    mlv_clip_info *in = &c->info;
    in->audio_blocks = c->audio_count;
    const char *name = mp_mlv_base_name(c->chunks[0].path);
    char why[160];
    if (in->audio.present && mp_mlv_audio_problem(&in->audio, why, sizeof why)) {
        if (c->audio_count)
            mp_mlv_add_damage(c, MLV_DAMAGE_BAD_FIELD, c->wavi_chunk, c->wavi_offset, "%s: "
                              "offset %llu: WAVI %s; %u audio blocks left out",
                              mp_mlv_base_name(c->chunks[c->wavi_chunk].path),
                              (unsigned long long)c->wavi_offset, why, c->audio_count);
        in->audio.present = 0;
        c->audio_count = 0;
    }
    if (!c->audio_count)
        return MP_OK;
    uint32_t align = in->audio.block_align;   /* not 0: checked above */
    if (!in->audio.present || (in->audio_class & 0x80)) {
        mp_log(&c->log, MP_LOG_WARNING, "%s: %u audio blocks ignored (%s)", name,
               c->audio_count, !in->audio.present ? "no WAVI block"
               : "LZMA-compressed audio is not decoded");
        c->audio_count = 0;
        return MP_OK;
    }
    mp_mlv_sort(c->audio, c->audio_count, sizeof *c->audio, mp_mlv_cmp_by_number);
    c->audio_pos = malloc((size_t)c->audio_count * sizeof *c->audio_pos);
    if (!c->audio_pos)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", name);
    uint32_t kept = 0;
    uint64_t pos = 0;
    for (uint32_t i = 0; i < c->audio_count; i++) {
        mlv_entry a = c->audio[i];
        if (kept && c->audio[kept - 1].number == a.number) {
            mp_mlv_add_damage(c, MLV_DAMAGE_DUPLICATE_FRAME, a.chunk, a.offset,
                           "%s: offset %llu: audio block %u seen again; the earlier one is kept",
                           mp_mlv_base_name(c->chunks[a.chunk].path), (unsigned long long)a.offset,
                           a.number);
            continue;
        }
        a.length -= a.length % align;
        c->audio_pos[kept] = pos;
        c->audio[kept++] = a;
        pos += a.length;
    }
    c->audio_count = kept;
    in->audio_bytes = pos;
    in->audio_start_us = c->audio[0].timestamp;
    return MP_OK;
}

mp_status mp_mlv_read_audio(const mlv_clip *c, uint64_t offset, void *dst, size_t len,
                         mp_error *err)
{
    const mlv_clip_info *in = &c->info;
    if (offset > in->audio_bytes || len > in->audio_bytes - offset)
        return mp_error_set(err, MP_ERR_RANGE, "%s: audio bytes %llu..%llu past the end (%llu)",
                            mp_mlv_base_name(c->chunks[0].path), (unsigned long long)offset,
                            (unsigned long long)(offset + len),
                            (unsigned long long)in->audio_bytes);
    /* last block starting at or before offset */
    uint32_t lo = 0, hi = c->audio_count;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->audio_pos[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    uint8_t *out = dst;
    for (uint32_t i = lo; len > 0 && i < c->audio_count; i++) {
        const mlv_entry *a = &c->audio[i];
        uint64_t skip = offset > c->audio_pos[i] ? offset - c->audio_pos[i] : 0;
        if (skip >= a->length)
            continue;
        size_t n = a->length - skip < len ? (size_t)(a->length - skip) : len;
        mp_status st = mp_mlv_read_span(c, a->chunk, a->offset + skip, out, n, err);
        if (st != MP_OK)
            return st;
        out += n;
        len -= n;
    }
    return MP_OK;
}
