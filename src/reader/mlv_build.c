/* Builds the clip index: collects frames, audio blocks, metadata and damage while the chunks
 * are walked, then sorts frames by number, drops duplicates, counts gaps, and assigns each
 * frame the RAWI/EXPO/DISO/WBAL in force at its timestamp. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlv_internal.h"

void mp_mlv_add_damage(mlv_clip *c, mlv_damage_kind kind, uint32_t chunk, uint64_t offset,
                    const char *fmt, ...)
{
    char raw[sizeof c->damage->message], line[sizeof c->damage->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    mp_escape_controls(raw, line, sizeof line);
    mp_log(&c->log, MP_LOG_WARNING, "%s", line);
    c->damage_seen++;

    if (c->info.damage_count >= MLV_DAMAGE_MAX) {
        c->info.damage_omitted++;
        return;
    }
    if (c->info.damage_count == c->damage_cap) {
        uint32_t cap = c->damage_cap ? 2 * c->damage_cap : 8;
        mlv_damage *d = realloc(c->damage, cap * sizeof *d);
        if (!d) {
            c->info.damage_omitted++;
            return;
        }
        c->damage = d;
        c->damage_cap = cap;
    }
    mlv_damage *d = &c->damage[c->info.damage_count++];
    d->kind = kind;
    d->chunk = chunk;
    d->offset = offset;
    memcpy(d->message, line, sizeof d->message);
}

/* Grows *array (of `size`-byte elements) so that one more fits. */
static int grow(void **array, uint32_t *cap, uint32_t count, size_t size)
{
    if (count < *cap)
        return 1;
    if (*cap >= UINT32_MAX / 2)
        return 0;
    uint32_t n = *cap ? 2 * *cap : 64;
    void *p = realloc(*array, (size_t)n * size);
    if (!p)
        return 0;
    *array = p;
    *cap = n;
    return 1;
}

mp_status mp_mlv_add_frame(mlv_clip *c, const mlv_entry *e, mp_error *err)
{
    if (!grow((void **)&c->frames, &c->frames_cap, c->info.frame_count, sizeof *e))
        return mp_error_set(err, MP_ERR_NOMEM, "%s: too many frames to index",
                            mp_mlv_base_name(c->chunks[0].path));
    c->frames[c->info.frame_count] = *e;
    c->frames[c->info.frame_count++].damage_seen = c->damage_seen;
    return MP_OK;
}

mp_status mp_mlv_add_audio(mlv_clip *c, const mlv_entry *e, mp_error *err)
{
    if (!grow((void **)&c->audio, &c->audio_cap, c->audio_count, sizeof *e))
        return mp_error_set(err, MP_ERR_NOMEM, "%s: too many audio blocks to index",
                            mp_mlv_base_name(c->chunks[0].path));
    c->audio[c->audio_count++] = *e;
    return MP_OK;
}

static int is_per_frame(mlv_block_type t)
{
    return t == MLV_BLOCK_RAWI || t == MLV_BLOCK_EXPO || t == MLV_BLOCK_DISO ||
           t == MLV_BLOCK_WBAL;
}

/* Clip-level blocks: the earliest one (by timestamp, then file order) describes the clip. */
static int keep_clip_level(mlv_clip *c, const mlv_block *b)
{
    if (c->kept[b->type] && b->timestamp >= c->kept_ts[b->type])
        return 0;
    c->kept[b->type] = 1;
    c->kept_ts[b->type] = b->timestamp;
    return 1;
}

static void append_version(mlv_clip *c, const char *text)
{
    char *v = c->info.versions;
    size_t used = strlen(v), room = sizeof c->info.versions - 1 - used;
    if (!text[0] || room < 3)
        return;
    if (used) {
        memcpy(v + used, "; ", 2);
        used += 2;
        room -= 2;
    }
    size_t n = strlen(text);
    if (n > room)
        n = room;
    memcpy(v + used, text, n);
    v[used + n] = 0;
}

mp_status mp_mlv_add_metadata(mlv_clip *c, const mlv_block *b, uint32_t chunk, uint64_t offset,
                              mp_error *err)
{
    c->seq++;
    if (is_per_frame(b->type)) {
        if (b->type == MLV_BLOCK_RAWI)
            c->have_rawi = 1;
        int32_t last = c->last_event[b->type];
        if (last >= 0 && !memcmp(&c->events[last].block.u, &b->u, sizeof b->u))
            return MP_OK;   /* a repeat changes nothing */
        char why[160];
        if (b->type == MLV_BLOCK_RAWI && mp_mlv_raw_problem(&b->u.rawi, why, sizeof why))
            mp_mlv_add_damage(c, MLV_DAMAGE_BAD_FIELD, chunk, offset, "%s: offset %llu: %s %s; "
                              "the frames it describes are not converted",
                              mp_mlv_base_name(c->chunks[chunk].path),
                              (unsigned long long)offset, b->tag, why);
        if (c->event_count >= MLV_EVENTS_MAX) {
            if (!c->events_full)
                mp_log(&c->log, MP_LOG_WARNING, "%s: more than %u metadata changes; later "
                       "ones ignored", mp_mlv_base_name(c->chunks[0].path), MLV_EVENTS_MAX);
            c->events_full = 1;
            return MP_OK;
        }
        if (!grow((void **)&c->events, &c->event_cap, c->event_count, sizeof *c->events))
            return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory",
                                mp_mlv_base_name(c->chunks[0].path));
        mlv_event *ev = &c->events[c->event_count];
        ev->timestamp = b->timestamp;
        ev->seq = c->seq;
        ev->block = *b;
        c->last_event[b->type] = (int32_t)c->event_count++;
        return MP_OK;
    }
    mlv_clip_info *in = &c->info;
    switch (b->type) {
    case MLV_BLOCK_MARK: in->mark_count++; return MP_OK;
    case MLV_BLOCK_VERS: append_version(c, b->u.text.text); return MP_OK;
    case MLV_BLOCK_DEBG:
    case MLV_BLOCK_XREF:  /* an index of blocks we index ourselves */
        return MP_OK;
    case MLV_BLOCK_DARK:  /* MLV-App writes one; its timestamp is all ones */
        if (!in->dark.present) {
            in->dark = b->u.dark;
            in->dark.chunk = chunk;
            in->dark.offset = offset + MLV_DARK_HEADER;
        }
        return MP_OK;
    default: break;
    }
    if (!keep_clip_level(c, b))
        return MP_OK;
    switch (b->type) {
    case MLV_BLOCK_RAWC: in->capture = b->u.rawc; break;
    case MLV_BLOCK_IDNT: in->camera = b->u.idnt; break;
    case MLV_BLOCK_LENS: in->lens = b->u.lens; break;
    case MLV_BLOCK_RTCI: in->wall_clock = b->u.rtci; break;
    case MLV_BLOCK_STYL: in->style = b->u.styl; break;
    case MLV_BLOCK_ELVL: in->level = b->u.elvl; break;
    case MLV_BLOCK_WAVI:
        in->audio = b->u.wavi;
        c->wavi_chunk = chunk;
        c->wavi_offset = offset;
        break;
    case MLV_BLOCK_INFO:
        snprintf(in->info_text, sizeof in->info_text, "%s", b->u.text.text);
        break;
    default: break;
    }
    return MP_OK;
}

void mp_mlv_sort(void *base, uint32_t count, size_t size, int (*cmp)(const void *, const void *))
{
    if (count > 1)   /* qsort must not see the NULL of an empty array */
        qsort(base, count, size, cmp);
}

static int cmp_event(const void *a, const void *b)
{
    const mlv_event *x = a, *y = b;
    if (x->timestamp != y->timestamp)
        return x->timestamp < y->timestamp ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Frames in file order: chunk, then offset. */
static int cmp_file_order(const mlv_entry *x, const mlv_entry *y)
{
    if (x->chunk != y->chunk)
        return x->chunk < y->chunk ? -1 : 1;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int cmp_by_time(const void *a, const void *b)
{
    const mlv_entry *x = a, *y = b;
    if (x->timestamp != y->timestamp)
        return x->timestamp < y->timestamp ? -1 : 1;
    return cmp_file_order(x, y);
}

int mp_mlv_cmp_by_number(const void *a, const void *b)
{
    const mlv_entry *x = a, *y = b;
    if (x->number != y->number)
        return x->number < y->number ? -1 : 1;
    return cmp_by_time(a, b);
}

static int exposure_equal(const mp_exposure *a, const mp_exposure *b)
{
    return a->present == b->present && a->iso_mode == b->iso_mode && a->iso == b->iso &&
           a->iso_analog == b->iso_analog && a->digital_gain == b->digital_gain &&
           a->shutter_us == b->shutter_us;
}

/* Applies one event; returns 1 when the segment-defining metadata changed. */
static int apply_event(mlv_state *s, const mlv_block *b)
{
    switch (b->type) {
    case MLV_BLOCK_RAWI:
        if (!memcmp(&s->raw, &b->u.rawi, sizeof s->raw))
            return 0;
        s->raw = b->u.rawi;
        return 1;
    case MLV_BLOCK_EXPO:
        if (exposure_equal(&s->exposure, &b->u.expo))
            return 0;
        s->exposure = b->u.expo;
        return 1;
    case MLV_BLOCK_DISO:
        if (!memcmp(&s->dual_iso, &b->u.diso, sizeof s->dual_iso))
            return 0;
        s->dual_iso = b->u.diso;
        return 1;
    case MLV_BLOCK_WBAL:
        s->white_balance = b->u.wbal;
        return 0;
    default:
        return 0;
    }
}

static mp_status push_state(mlv_clip *c, const mlv_state *s, mp_error *err)
{
    if (!grow((void **)&c->states, &c->state_cap, c->state_count, sizeof *c->states))
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory",
                            mp_mlv_base_name(c->chunks[0].path));
    c->states[c->state_count] = *s;
    c->states[c->state_count].dual_iso.recovery_iso =
        s->dual_iso.present ? mp_mlv_diso_recovery_iso(s->dual_iso.iso_value, s->exposure.iso) : 0;
    c->state_count++;
    return MP_OK;
}

/* Sweeps frames and metadata events together in timestamp order. Metadata that only appears
 * after a frame's timestamp still applies to it when none came before (a writer that stamps
 * its header blocks late must not leave frames without a RAWI). */
static mp_status assign_states(mlv_clip *c, mp_error *err)
{
    mp_mlv_sort(c->events, c->event_count, sizeof *c->events, cmp_event);
    mp_mlv_sort(c->frames, c->info.frame_count, sizeof *c->frames, cmp_by_time);

    mlv_state cur;
    memset(&cur, 0, sizeof cur);
    int seen[MLV_BLOCK_BKUP + 1] = {0};
    for (uint32_t i = 0; i < c->event_count; i++) {
        const mlv_block *b = &c->events[i].block;
        if (!seen[b->type]++)
            apply_event(&cur, b);
    }
    mp_status st = push_state(c, &cur, err);
    uint32_t e = 0;
    for (uint32_t f = 0; f < c->info.frame_count && st == MP_OK; f++) {
        int changed = 0, variant = 0;
        for (; e < c->event_count && c->events[e].timestamp <= c->frames[f].timestamp; e++) {
            mlv_state before = cur;
            variant |= apply_event(&cur, &c->events[e].block);
            changed |= memcmp(&before.white_balance, &cur.white_balance,
                              sizeof cur.white_balance) != 0;
        }
        if (variant || changed) {
            cur.variant += variant ? 1 : 0;
            st = push_state(c, &cur, err);
        }
        c->frames[f].state = c->state_count - 1;
    }
    return st;
}

int mp_mlv_same_raw(const mlv_clip *c, uint32_t a, uint32_t b)
{
    return !memcmp(&c->states[c->frames[a].state].raw, &c->states[c->frames[b].state].raw,
                   sizeof(mp_raw_info));
}

/* Frames missing between two consecutive ones, with damage met between them in the walk:
 * lost to the damage, rather than never recorded (a dropped frame leaves no damage). */
static int reference_gap(const mlv_entry *prev, const mlv_entry *e)
{
    return e->number != prev->number + 1 && e->damage_seen != prev->damage_seen;
}

mp_status mp_mlv_finish_index(mlv_clip *c, mp_error *err)
{
    mlv_clip_info *in = &c->info;
    const char *name = mp_mlv_base_name(c->chunks[0].path);
    if (!c->have_rawi)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: no RAWI block (frame geometry unknown)",
                            name);
    mp_status st = mp_mlv_check_plausible(c, err);
    if (st == MP_OK)
        st = assign_states(c, err);
    if (st != MP_OK)
        return st;

    mp_mlv_sort(c->frames, in->frame_count, sizeof *c->frames, mp_mlv_cmp_by_number);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < in->frame_count; i++) {
        const mlv_entry *f = &c->frames[i];
        if (kept && c->frames[kept - 1].number == f->number) {
            mp_mlv_add_damage(c, MLV_DAMAGE_DUPLICATE_FRAME, f->chunk, f->offset,
                           "%s: offset %llu: frame %u seen again (timestamp %llu us); the "
                           "earlier one is kept", mp_mlv_base_name(c->chunks[f->chunk].path),
                           (unsigned long long)f->offset, f->number,
                           (unsigned long long)f->timestamp);
            continue;
        }
        c->frames[kept++] = *f;
    }
    in->frame_count = kept;

    uint32_t segment = 0;
    for (uint32_t i = 0; i < kept; i++) {
        if (i > 0) {
            uint32_t gap = c->frames[i].number - c->frames[i - 1].number - 1;
            if (gap) {
                in->gap_count++;
                in->missing_frames += gap;
            }
            if (c->states[c->frames[i].state].variant != c->states[c->frames[i - 1].state].variant)
                segment++;
        }
        c->frames[i].segment = segment;
        c->frames[i].reference_lost = i > 0 && mp_mlv_same_raw(c, i - 1, i) &&
            (c->frames[i - 1].reference_lost || reference_gap(&c->frames[i - 1], &c->frames[i]));
    }
    in->segment_count = kept ? segment + 1 : 0;

    const mlv_state *s0 = &c->states[kept ? c->frames[0].state : 0];
    in->raw = s0->raw;
    in->exposure = s0->exposure;
    in->dual_iso = s0->dual_iso;
    in->white_balance = s0->white_balance;
    if (kept) {
        in->first_number = c->frames[0].number;
        in->last_number = c->frames[kept - 1].number;
        in->video_start_us = c->frames[0].timestamp;
    }
    return MP_OK;
}
