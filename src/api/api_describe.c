/* mlvpipe_clip_describe: what `mlvpipe info` reports, gathered from the reader, a dual-ISO
 * check of the pixels of frames spread over the clip, and (on request) the pre-pass's raw
 * defects. */
#include "api_internal.h"
#include "api_describe.h"

#include <stdlib.h>

#include "engine/sampling.h"

static void check_dual_iso_pixels(info_report *r)
{
    uint32_t offsets[MP_DESCRIBE_DUAL_FRAMES];
    uint32_t want = mp_sample_offsets(r->in->frame_count, MP_DESCRIBE_DUAL_FRAMES, offsets);
    mlv_scratch scratch = {0};
    mp_frame frame = {0};
    for (uint32_t k = 0; k < want; k++) {
        uint32_t index = offsets[k];
        mp_error err = {0};
        dualiso_detection d;
        mp_status st = mp_mlv_read_frame(r->clip, index, &frame, &scratch, &err);
        if (st == MP_OK)
            st = mp_dualiso_detect(&frame, &d, &err);
        if (st != MP_OK) {
            if (r->dual_err.code == MP_OK)
                r->dual_err = err;
            mlv_frame_info fi;
            if (err.code == MP_ERR_DAMAGED && mp_mlv_frame_info_get(r->clip, index, &fi) == MP_OK) {
                r->bad_number[r->bad_frames] = fi.number;
                r->bad_err[r->bad_frames++] = err;
            }
            continue;
        }
        r->dual_checked++;
        if (d.is_dual) {
            r->dual_found++;
            r->phase_votes[d.phase & 3]++;
            r->ev_sum += d.ev_estimate;
        }
    }
    mp_frame_free(&frame);
    mp_mlv_scratch_free(&scratch);
}

static int collect_segments(info_report *r)
{
    uint32_t n = r->in->segment_count;
    if (!n)
        return 0;
    r->segments = calloc(n, sizeof *r->segments);
    if (!r->segments)
        return -1;
    for (uint32_t i = 0; i < r->in->frame_count; i++) {
        mlv_frame_info fi;
        if (mp_mlv_frame_info_get(r->clip, i, &fi) != MP_OK || fi.segment >= n)
            continue;
        segment_summary *s = &r->segments[fi.segment];
        if (!s->frames++) {
            s->first = fi.number;
            s->raw = fi.raw;
            s->exposure = fi.exposure;
            s->dual_iso = fi.dual_iso;
        }
        s->last = fi.number;
    }
    r->segment_count = n;
    return 0;
}

/* 1 when every segment's raw_info is impossible or no payload of it holds a frame (each is
 * in the damage list): no frame of the clip can be used. */
static int no_usable_frame(const info_report *r)
{
    char why[160];
    for (uint32_t i = 0; i < r->segment_count; i++) {
        int64_t index = mp_mlv_frame_index_of(r->clip, r->segments[i].first);
        if (!r->segments[i].raw || index < 0 ||
            !mp_mlv_frame_problem(r->clip, (uint32_t)index, why, sizeof why))
            return 0;
    }
    return r->segment_count > 0;
}

mlvpipe_status mlvpipe_clip_describe(const mlvpipe_clip *clip, unsigned flags, mlvpipe_text *out,
                                     mlvpipe_error *err)
{
    *out = (mlvpipe_text){0};
    info_report r = {0};
    r.clip = clip->clip;
    r.in = mp_mlv_clip_get_info(clip->clip);
    mp_mlv_clip_check_video(clip->clip, &r.video_err);
    if (r.video_err.code == MP_OK)
        check_dual_iso_pixels(&r);
    mp_error e = {0};
    if (collect_segments(&r) != 0)
        return mp_api_status(mp_error_set(&e, MP_ERR_NOMEM, "out of memory"), &e, err);
    if ((flags & MLVPIPE_DESCRIBE_DEFECTS) && r.video_err.code == MP_OK) {
        mp_prepass_options po;
        mp_prepass_options_default(&po);
        po.log = mp_api_logger(&clip->log);
        if (mp_prepass_run(clip->clip, &po, "mlvpipe", &r.levels, &r.defects_err) != MP_OK)
            mp_clip_levels_free(&r.levels);
    }
    mp_text t = {0};
    if (flags & MLVPIPE_DESCRIBE_JSON)
        mp_api_describe_json(&r, &t);
    else
        mp_api_describe_text(&r, &t);
    mlvpipe_status st = mp_api_text(&t, "clip report", out, err);
    /* exactly when the damage list has entries (omitted ones follow listed ones) */
    uint32_t entries = r.in->damage_count + r.in->damage_omitted + r.bad_frames;
    if (st == MLVPIPE_OK &&
        (r.in->damage_count || r.bad_frames || r.defects_err.code == MP_ERR_DAMAGED))
        st = mp_api_status(mp_error_set(&e, MP_ERR_DAMAGED, "%s: damaged: %u entr%s in the "
                                        "damage list", mp_mlv_clip_path(clip->clip, 0), entries,
                                        entries == 1 ? "y" : "ies"), &e, err);
    if (st == MLVPIPE_ERR_DAMAGED && no_usable_frame(&r))
        st = mp_api_status(mp_error_set(&e, MP_ERR_FORMAT, "%s: no usable frame (see the "
                                        "damage list)", mp_mlv_clip_path(clip->clip, 0)),
                           &e, err);
    mp_clip_levels_free(&r.levels);
    free(r.segments);
    return st;
}
