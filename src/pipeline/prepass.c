#include "prepass.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dualiso/dualiso.h"
#include "workpool.h"

void mp_prepass_options_default(mp_prepass_options *o)
{
    memset(o, 0, sizeof *o);
    o->force_phase = -1;
}

uint64_t mp_prepass_options_hash(const mp_prepass_options *o)
{
    char canon[128];
    int n = snprintf(canon, sizeof canon, "levels v%d samples=%u force_phase=%d",
                     MP_LEVELS_FORMAT_VERSION, MP_SAMPLES_PER_SEGMENT, o->force_phase);
    return mp_fnv1a64(canon, (size_t)n, MP_FNV1A64_SEED);
}

mp_status mp_clip_segments(const mlv_clip *clip, mp_segment **segs, uint32_t *count,
                           mp_error *err)
{
    uint32_t n = mlv_clip_get_info(clip)->frame_count;
    uint32_t *seg_of = malloc((n ? n : 1) * sizeof *seg_of);
    if (!seg_of)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory for %u frames", n);
    mp_status st = MP_OK;
    for (uint32_t i = 0; i < n && st == MP_OK; i++) {
        mlv_frame_info fi;
        st = mlv_frame_info_get(clip, i, &fi);
        seg_of[i] = fi.segment;
    }
    if (st != MP_OK)
        st = mp_error_set(err, st, "%s: frame index unreadable", mlv_clip_path(clip, 0));
    else
        st = mp_segments_find(seg_of, n, segs, count, err);
    free(seg_of);
    return st;
}

/* A sample's payload, read by the pool's I/O thread (the pool's slots are the ring). */
typedef struct sample_slot {
    mlv_payload payload;
    mp_error read_error;          /* code: the read's status */
} sample_slot;

/* One segment's samples, shared by the pool's workers; each job fills its own entries. */
typedef struct sample_set {
    const mlv_clip *clip;
    const mp_prepass_options *opt;
    sample_slot *slots;
    uint32_t index[MP_SAMPLES_PER_SEGMENT];   /* clip indices */
    int usable[MP_SAMPLES_PER_SEGMENT];       /* read without damage */
    int dual[MP_SAMPLES_PER_SEGMENT];
    dualiso_stats *stats;                     /* MP_SAMPLES_PER_SEGMENT entries */
} sample_set;

typedef struct sample_ctx {
    mlv_scratch scratch;
    mp_frame frame;
} sample_ctx;

static mp_status sample_ctx_create(void *user, void **ctx, mp_error *err)
{
    (void)user;
    sample_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return mp_error_set(err, MP_ERR_NOMEM, "pre-pass: out of memory");
    c->scratch.ref_index = -1;
    *ctx = c;
    return MP_OK;
}

static void sample_ctx_destroy(void *user, void *ctx)
{
    (void)user;
    sample_ctx *c = ctx;
    mlv_scratch_free(&c->scratch);
    mp_frame_free(&c->frame);
    free(c);
}

/* The I/O stage. A damaged frame is left for its job to skip; other read errors end the run. */
static mp_status sample_read(void *user, uint32_t i, uint32_t slot, mp_error *err)
{
    sample_set *s = user;
    sample_slot *sl = &s->slots[slot];
    mp_status st = mlv_read_payload(s->clip, s->index[i], &sl->payload, &sl->read_error);
    sl->read_error.code = st;
    if (st == MP_OK || st == MP_ERR_DAMAGED)
        return MP_OK;
    *err = sl->read_error;
    return st;
}

static mp_status sample_run(void *user, void *ctx, uint32_t i, uint32_t slot, mp_error *err)
{
    sample_set *s = user;
    sample_ctx *c = ctx;
    mp_error e = s->slots[slot].read_error;
    mp_status st = e.code;
    if (st == MP_OK)
        st = mlv_decode_payload(s->clip, s->index[i], &s->slots[slot].payload, &c->frame,
                                &c->scratch, &e);
    if (st == MP_ERR_DAMAGED) {
        mp_log(&s->opt->log, MP_LOG_WARNING, "pre-pass skips a damaged frame: %s", e.msg);
        return MP_OK;
    }
    if (st != MP_OK) {
        *err = e;
        return st;
    }
    dualiso_detection det;
    if ((st = dualiso_detect(&c->frame, &det, err)) != MP_OK)
        return st;
    s->usable[i] = 1;
    s->dual[i] = det.is_dual || s->opt->force_phase >= 0;
    if (!s->dual[i])
        return MP_OK;
    uint32_t phase = s->opt->force_phase >= 0 ? (uint32_t)s->opt->force_phase : det.phase;
    return dualiso_stats_collect(&c->frame, phase, &s->stats[i], err);
}

/* The ISO gap recorded by the camera (DISO recovery ISO against EXPO ISO), or 0. */
static double nominal_ev(const mlv_frame_info *fi)
{
    if (!fi->dual_iso || !fi->dual_iso->present || !fi->dual_iso->recovery_iso ||
        !fi->exposure || !fi->exposure->present || !fi->exposure->iso)
        return 0;
    return fabs(log2((double)fi->dual_iso->recovery_iso / fi->exposure->iso));
}

static mp_status segment_levels(sample_set *s, const mp_segment *seg, dualiso_levels *lv,
                                mp_error *err)
{
    uint32_t offsets[MP_SAMPLES_PER_SEGMENT];
    uint32_t n = mp_sample_offsets(seg->count, MP_SAMPLES_PER_SEGMENT, offsets);
    for (uint32_t i = 0; i < n; i++) {
        s->index[i] = seg->first + offsets[i];
        s->usable[i] = s->dual[i] = 0;
    }
    mp_pool_options po = {s->opt->threads, 0, s->opt->cancel};
    uint32_t threads, window;
    mp_pool_resolve(&po, n, &threads, &window);
    if (!(s->slots = calloc(window, sizeof *s->slots)))
        return mp_error_set(err, MP_ERR_NOMEM, "pre-pass: out of memory");
    mp_pool_callbacks cb = {s, sample_ctx_create, sample_ctx_destroy, sample_run, NULL};
    mp_status st = mp_pool_run_with_reader(n, &po, &cb, sample_read, NULL, err);
    for (uint32_t k = 0; k < window; k++)
        mlv_payload_free(&s->slots[k].payload);
    free(s->slots);
    s->slots = NULL;
    if (st == MP_ERR_INTERRUPTED)
        return mp_error_set(err, st, "interrupted during the levels pre-pass");
    if (st != MP_OK)
        return st;

    /* Gather the usable dual samples at the front, in sample order (pooling is then
     * independent of which thread produced what). */
    uint32_t usable = 0, dual = 0, first_usable = n;
    for (uint32_t i = 0; i < n; i++) {
        if (!s->usable[i])
            continue;
        usable++;
        if (first_usable == n)
            first_usable = i;
        if (s->dual[i]) {
            if (dual != i)
                s->stats[dual] = s->stats[i];
            dual++;
        }
    }
    const char *path = mlv_clip_path(s->clip, 0);
    if (!usable)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: no readable frame among the %u sampled "
                            "in frames %u-%u (indices)", path, n, seg->first,
                            seg->first + seg->count - 1);
    mlv_frame_info fi;
    if (mlv_frame_info_get(s->clip, seg->first, &fi) != MP_OK)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: frame index unreadable", path);

    if (2 * dual > usable) {
        dualiso_pool_options popt;
        dualiso_pool_options_default(&popt);
        popt.nominal_ev = nominal_ev(&fi);
        popt.force_phase = s->opt->force_phase;
        st = dualiso_levels_pool(s->stats, dual, &popt, lv, err);
        if (st == MP_OK)
            mp_log(&s->opt->log, MP_LOG_INFO, "frames %u-%u: dual ISO, %.2f EV, from %u of %u "
                   "sampled frames", fi.number, fi.number + seg->count - 1, lv->ratio_ev, dual,
                   n);
        return st;
    }
    /* Not dual: the output mapping still comes from the segment's own levels. */
    sample_ctx c = {.scratch = {.ref_index = -1}};
    st = mlv_read_frame(s->clip, s->index[first_usable], &c.frame, &c.scratch, err);
    if (st == MP_OK)
        st = dualiso_levels_passthrough(&c.frame, lv, err);
    mlv_scratch_free(&c.scratch);
    mp_frame_free(&c.frame);
    if (st == MP_OK && dual)
        mp_log(&s->opt->log, MP_LOG_WARNING, "frames %u-%u: only %u of %u sampled frames look "
               "dual ISO; treating them as single ISO", fi.number, fi.number + seg->count - 1,
               dual, usable);
    return st;
}

mp_status mp_prepass_run(const mlv_clip *clip, const mp_prepass_options *o, const char *tool,
                         mp_clip_levels *out, mp_error *err)
{
    memset(out, 0, sizeof *out);
    const mlv_clip_info *info = mlv_clip_get_info(clip);
    mp_segment *segs = NULL;
    uint32_t nseg = 0;
    mp_status st = mp_clip_segments(clip, &segs, &nseg, err);
    if (st != MP_OK)
        return st;
    if (nseg == 0 || nseg > MP_LEVELS_MAX_SEGMENTS) {
        free(segs);
        return mp_error_set(err, nseg ? MP_ERR_UNSUPPORTED : MP_ERR_DAMAGED,
                            "%s: %u segments (settings changes); 1 to %u supported",
                            mlv_clip_path(clip, 0), nseg, MP_LEVELS_MAX_SEGMENTS);
    }
    snprintf(out->tool, sizeof out->tool, "%s", tool);
    out->options_hash = mp_prepass_options_hash(o);
    out->guid = info->guid;
    out->frame_count = info->frame_count;
    out->first_frame = info->first_number;
    out->last_frame = info->last_number;
    out->segment_count = nseg;
    out->segments = calloc(nseg, sizeof *out->segments);
    sample_set *s = calloc(1, sizeof *s);
    dualiso_stats *stats = calloc(MP_SAMPLES_PER_SEGMENT, sizeof *stats);
    if (!out->segments || !s || !stats)
        st = mp_error_set(err, MP_ERR_NOMEM, "pre-pass: out of memory");
    for (uint32_t k = 0; k < nseg && st == MP_OK; k++) {
        mp_levels_segment *ls = &out->segments[k];
        mlv_frame_info first, last;
        ls->first_index = segs[k].first;
        ls->frame_count = segs[k].count;
        if (mlv_frame_info_get(clip, segs[k].first, &first) != MP_OK ||
            mlv_frame_info_get(clip, segs[k].first + segs[k].count - 1, &last) != MP_OK) {
            st = mp_error_set(err, MP_ERR_DAMAGED, "%s: frame index unreadable",
                              mlv_clip_path(clip, 0));
            break;
        }
        ls->first_frame = first.number;
        ls->last_frame = last.number;
        *s = (sample_set){.clip = clip, .opt = o, .stats = stats};
        st = segment_levels(s, &segs[k], &ls->levels, err);
    }
    free(stats);
    free(s);
    free(segs);
    if (st != MP_OK)
        mp_clip_levels_free(out);
    return st;
}

mp_status mp_clip_levels_match(const mp_clip_levels *cl, const mlv_clip *clip,
                               const mp_prepass_options *o, const char *name, mp_error *err)
{
    const mlv_clip_info *info = mlv_clip_get_info(clip);
    if (cl->guid != info->guid)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: made for the clip with GUID %016llx, "
                            "not this one (%016llx)", name, (unsigned long long)cl->guid,
                            (unsigned long long)info->guid);
    if (cl->frame_count != info->frame_count || cl->first_frame != info->first_number ||
        cl->last_frame != info->last_number)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: made for %u frames (%u-%u), the clip has "
                            "%u (%u-%u)", name, cl->frame_count, cl->first_frame,
                            cl->last_frame, info->frame_count, info->first_number,
                            info->last_number);
    mp_segment *segs = NULL;
    uint32_t nseg = 0;
    mp_status st = mp_clip_segments(clip, &segs, &nseg, err);
    if (st != MP_OK)
        return st;
    int same = nseg == cl->segment_count;
    for (uint32_t k = 0; same && k < nseg; k++)
        same = segs[k].first == cl->segments[k].first_index &&
               segs[k].count == cl->segments[k].frame_count;
    free(segs);
    if (!same)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: its segments (settings changes) differ "
                            "from the clip's", name);
    /* GUIDs are not unique enough on their own (test tools, cloned cards): the levels must
     * also describe the clip's recorded bit depth and black/white levels. */
    for (uint32_t k = 0; k < cl->segment_count; k++) {
        const mp_levels_segment *s = &cl->segments[k];
        mlv_frame_info fi;
        if (mlv_frame_info_get(clip, s->first_index, &fi) != MP_OK || !fi.raw)
            return mp_error_set(err, MP_ERR_DAMAGED, "%s: frame index unreadable",
                                mlv_clip_path(clip, 0));
        if (s->levels.bits != fi.raw->bits || s->levels.in_black != fi.raw->black ||
            s->levels.in_white != fi.raw->white)
            return mp_error_set(err, MP_ERR_FORMAT, "%s: made for the clip with GUID %016llx "
                                "at %u bits, levels %.0f/%.0f; frames %u-%u here are %u bits, "
                                "%d/%d", name, (unsigned long long)cl->guid, s->levels.bits,
                                s->levels.in_black, s->levels.in_white, s->first_frame,
                                s->last_frame, fi.raw->bits, fi.raw->black, fi.raw->white);
    }
    if (cl->options_hash != mp_prepass_options_hash(o))
        mp_log(&o->log, MP_LOG_WARNING, "%s: made with different analysis options; using it "
               "as is", name);
    return MP_OK;
}
