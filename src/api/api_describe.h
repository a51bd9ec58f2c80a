/* src/api: the clip report of mlvpipe_clip_describe, gathered once (api_describe.c) and
 * written as text (api_describe_text.c) or JSON (api_describe_json.c). */
#ifndef MP_API_DESCRIBE_H
#define MP_API_DESCRIBE_H

#include <stdint.h>

#include "api_internal.h"
#include "common/json.h"
#include "dualiso/dualiso.h"
#include "analysis/prepass.h"
#include "reader/mlv_reader.h"

/* Frames spread over the clip whose pixels are checked for dual ISO. */
#define MP_DESCRIBE_DUAL_FRAMES 5

typedef struct segment_summary {
    uint32_t first, last;           /* frame numbers */
    uint32_t frames;
    const mp_raw_info *raw;
    const mp_exposure *exposure;
    const mp_dual_iso_tag *dual_iso;
} segment_summary;

typedef struct info_report {
    const mlv_clip *clip;
    const mlv_clip_info *in;
    mp_error video_err;             /* code MP_OK when frames decode */
    /* pixel-based dual-ISO check */
    uint32_t dual_checked, dual_found;
    uint32_t phase_votes[4];
    double ev_sum;
    mp_error dual_err;              /* first failure, code MP_OK if none */
    /* frames of that check that did not decode because they are damaged: damage entries */
    uint32_t bad_frames;
    uint32_t bad_number[MP_DESCRIBE_DUAL_FRAMES];
    mp_error bad_err[MP_DESCRIBE_DUAL_FRAMES];
    segment_summary *segments;
    uint32_t segment_count;
    /* --defects: what the pre-pass finds (levels.segment_count 0 when not asked or failed) */
    mp_clip_levels levels;
    mp_error defects_err;
} info_report;

void mp_api_describe_text(const info_report *r, mp_text *t);
void mp_api_describe_json(const info_report *r, mp_text *t);

static inline const char *cfa_name(uint32_t cfa)
{
    const char *name = mp_api_cfa_name(cfa);
    return name ? name : "unknown";
}

static inline double fps_of(const mlv_clip_info *in)
{
    return in->fps_den ? (double)in->fps_num / in->fps_den : 0.0;
}

static inline double duration_s(const mlv_clip_info *in)
{
    double fps = fps_of(in);
    if (!in->frame_count || fps <= 0)
        return 0.0;
    return (double)(in->last_number - in->first_number + 1) / fps;
}

static inline double audio_duration_s(const mlv_clip_info *in)
{
    return in->audio.bytes_per_second ? (double)in->audio_bytes / in->audio.bytes_per_second
                                      : 0.0;
}

/* Audio start relative to the first video frame, in milliseconds (negative: audio first). */
static inline double audio_offset_ms(const mlv_clip_info *in)
{
    return ((double)in->audio_start_us - (double)in->video_start_us) / 1000.0;
}

#endif
