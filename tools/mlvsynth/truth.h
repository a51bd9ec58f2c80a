/* truth: the ground truth written beside a clip.
 * NAME.truth.json (every clip): geometry, levels, coding, frame order, which frames a reader
 * must / must not / may return, audio, and for dual ISO every sensor and scene parameter per
 * segment, so the noiseless truth can be regenerated with mp_synth_render_truth().
 * NAME.truth.f32 (--truth-raw, dual ISO): float32 little-endian electrons per active
 * photosite, frame numbers 0..N-1 one after another, each active_w x active_h row-major. */
#ifndef MLVSYNTH_TRUTH_H
#define MLVSYNTH_TRUTH_H

#include "clip_meta.h"
#include "content.h"
#include "options.h"
#include "plan.h"
#include "writers.h"

/* "DIR/CLIP.MLV" -> "DIR/CLIP" + suffix (malloc'ed). */
char *truth_path(const char *clip, const char *suffix);

mp_status truth_write(const synth_options *opt, const clip_plan *plan, const clip_meta *meta,
                      content_ctx *content, const slot_fate *fate, uint32_t files,
                      mp_error *err);

#endif
