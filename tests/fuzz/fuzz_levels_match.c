/* libFuzzer target: a levels sidecar against a clip, and what convert then does with it.
 * Input: clip length (2 bytes, little-endian), a flag byte, the clip (opened from memory),
 * then the sidecar's JSON. mp_clip_levels_match must accept or refuse it as the wrong clip
 * (MP_ERR_FORMAT) or a damaged one; random bytes rarely carry the clip's GUID, frame range,
 * segments and levels, so with flag bit 0 the harness writes them in from the clip (as
 * fuzz_cache_entry writes checksums) to get past that check to the use of what passed: for
 * the first frames of each segment, the sidecar's defect map is made into a repair plan and
 * applied, and the frame is reconstructed (dual ISO) or passed through with its levels, as
 * convert does. That may fail on a damaged frame, never crash or give a picture of another
 * size. */
#include <stdlib.h>
#include <string.h>

#include "dualiso/dualiso.h"
#include "analysis/levels_io.h"
#include "analysis/prepass.h"
#include "analysis/fix_plan.h"
#include "rawfix/rawfix.h"
#include "reader/mlv_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) do { if (!(cond)) __builtin_trap(); } while (0)
#define FRAMES_PER_SEGMENT 2u

/* The sidecar made to name this clip: identity, segments and each segment's levels. */
static void name_the_clip(mp_clip_levels *cl, const mlv_clip *clip)
{
    const mlv_clip_info *in = mp_mlv_clip_get_info(clip);
    cl->guid = in->guid;
    cl->frame_count = in->frame_count;
    cl->first_frame = in->first_number;
    cl->last_frame = in->last_number;
    mp_segment *segs = NULL;
    uint32_t n = 0;
    mp_error err;
    if (mp_clip_segments(clip, &segs, &n, &err) != MP_OK)
        return;
    for (uint32_t k = 0; k < n && k < cl->segment_count; k++) {
        mp_levels_segment *s = &cl->segments[k];
        mlv_frame_info fi;
        s->first_index = segs[k].first;
        s->frame_count = segs[k].count;
        if (mp_mlv_frame_info_get(clip, segs[k].first, &fi) == MP_OK && fi.raw) {
            s->levels.bits = fi.raw->bits;
            s->levels.in_black = fi.raw->black;
            s->levels.in_white = fi.raw->white;
        }
    }
    free(segs);
}

static void use_levels(const mp_clip_levels *cl, const mlv_clip *clip)
{
    static dualiso_workspace *ws;   /* one for every input, as a worker keeps it */
    if (!ws && !(ws = mp_dualiso_workspace_new()))
        abort();
    dualiso_options o;
    mp_dualiso_options_default(&o);
    mlv_scratch scratch = {0};
    mp_frame raw = {0}, out = {0};
    mp_error err;
    for (uint32_t k = 0; k < cl->segment_count; k++) {
        const mp_levels_segment *s = &cl->segments[k];
        rawfix_plan plan = {0};
        if (mp_fix_plan_for_levels(&s->fix, &s->levels, RAWFIX_ALL, &plan, &err) != MP_OK)
            continue;
        for (uint32_t i = 0; i < s->frame_count && i < FRAMES_PER_SEGMENT; i++) {
            if (mp_mlv_read_frame(clip, s->first_index + i, &raw, &scratch, &err) != MP_OK ||
                mp_rawfix_apply(&plan, &raw, &err) != MP_OK)
                continue;
            mp_status st = s->levels.is_dual
                               ? mp_dualiso_reconstruct(&raw, &s->levels, &o, ws, &out, &err)
                               : mp_dualiso_passthrough(&raw, &s->levels, &out, &err);
            if (st == MP_OK)
                CHECK(out.width == raw.width && out.height == raw.height);
        }
        mp_rawfix_plan_free(&plan);
    }
    mp_frame_free(&raw);
    mp_frame_free(&out);
    mp_mlv_scratch_free(&scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    size_t clip_len = (size_t)(data[0] | data[1] << 8);
    unsigned flags = data[2];
    data += 3;
    size -= 3;
    if (clip_len > size)
        clip_len = size;
    int is_mlv = clip_len >= 4 && !memcmp(data, "MLVI", 4);
    const char *name = is_mlv ? "in.MLV" : "in.RAW";
    mlv_mem_file file = {name, data, clip_len};
    mlv_clip *clip;
    mp_error err;
    if (mp_mlv_clip_open_memory(&clip, name, &file, 1, NULL, &err) != MP_OK)
        return 0;
    mp_clip_levels cl;
    if (mp_clip_levels_from_json((const char *)data + clip_len, size - clip_len, "fuzz", &cl,
                                 &err) == MP_OK) {
        if (flags & 1)
            name_the_clip(&cl, clip);
        mp_prepass_options po;
        mp_prepass_options_default(&po);
        mp_status st = mp_clip_levels_match(&cl, clip, &po, "fuzz", &err);
        CHECK(st == MP_OK || st == MP_ERR_FORMAT || st == MP_ERR_DAMAGED);
        if (st == MP_OK)
            use_levels(&cl, clip);
        mp_clip_levels_free(&cl);
    }
    mp_mlv_clip_close(clip);
    return 0;
}
