/* prepass: clip-stable dual-ISO levels. For each segment of the clip (sampling.h) it reads
 * up to MP_SAMPLES_PER_SEGMENT frames spread over the whole segment, detects the dual-ISO
 * pattern, collects per-frame statistics on the worker pool and pools them into one set of
 * levels. The result depends only on the clip and the options: not on --frames, the thread
 * count or run order, so chunks converted separately match a single run byte for byte.
 *
 * A segment that nothing marks as dual (no DISO block saying so, no forced phase) is first
 * probed with a few spread samples; when every one shows many pixel pairs and no trace of
 * the row pattern, it is single ISO and the other samples are not read.
 *
 * Segments where at most half the readable samples look dual are single ISO (pass-through)
 * unless the clip is dual ISO: another segment was pooled as dual and the segment's own DISO
 * block does not say dual ISO is off. Such a segment (lens cap, black fade, night shot) is
 * pooled from all its samples with the clip's row phase (the majority of the dual samples of
 * the dual segments) and the nominal ratio of its DISO/EXPO blocks as the last fallback;
 * failing that it takes the levels of the nearest dual segment (earlier one on a tie) when
 * they fit its recorded bits/black/white, else it passes through with a warning. A clip whose
 * DISO block says dual but where no sample shows the pattern passes through with a warning
 * (the row phase is unknown; --phase forces it). Finally a dual segment whose samples never
 * clipped takes the whites, hence the output mapping, of the nearest dual segment that
 * measured them with the same recorded levels, so the DNG levels stay the same mid-clip.
 *
 * The same samples give each segment's raw defect map (src/rawfix): focus pixels, hot and
 * cold pixels, stripe gains, from every readable sample of the segment (frames as detected:
 * dual-ISO ones measured per field). A dark frame (rawfix/dark.h) is subtracted from every
 * sample before anything is measured, as convert does before repairing. */
#ifndef MP_PREPASS_H
#define MP_PREPASS_H

#include <stdatomic.h>
#include <stdint.h>

#include "common/mp_status.h"
#include "reader/mlv_reader.h"
#include "analysis/levels_io.h"
#include "engine/progress.h"
#include "engine/sampling.h"
#include "rawfix/dark.h"

typedef struct mp_prepass_options {
    uint32_t threads;            /* 0: one per CPU */
    const atomic_int *cancel;
    mp_logger log;
    int force_phase;             /* -1: detect, else 0..3 */
    mp_progress_fn progress;     /* optional: MP_PROGRESS_LEVELS events, one thread at a time */
    void *progress_opaque;
    int no_defects;              /* do not look for raw defects (empty rawfix maps) */
    const rawfix_dark *dark;     /* subtracted from every sample first; NULL: none */
    int reference;               /* the clip is one the user gives to show the sensor's
                                  * defects (--defects-from: a moving or lens-cap clip):
                                  * a sample steadily off its neighbours is taken as a
                                  * defect also where the scene does not move */
} mp_prepass_options;

void mp_prepass_options_default(mp_prepass_options *o);

/* Hash of everything besides the clip that shapes the levels (sidecar options_hash). */
uint64_t mp_prepass_options_hash(const mp_prepass_options *o);

/* The clip's segments (runs of equal mlv_frame_info.segment). *segs is malloc'd. */
mp_status mp_clip_segments(const mlv_clip *clip, mp_segment **segs, uint32_t *count,
                           mp_error *err);

/* Estimates the levels of every segment. tool names the writer ("mlvpipe 0.1.0"). */
mp_status mp_prepass_run(const mlv_clip *clip, const mp_prepass_options *o, const char *tool,
                         mp_clip_levels *out, mp_error *err);

/* Checks that a sidecar was made for this clip (GUID, frames, segment boundaries); a
 * different options hash is only a warning. name is the sidecar's path, for messages. */
mp_status mp_clip_levels_match(const mp_clip_levels *cl, const mlv_clip *clip,
                               const mp_prepass_options *o, const char *name, mp_error *err);

#endif
