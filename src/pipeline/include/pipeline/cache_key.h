/* cache_key: what names a clip's reconstructed frames in the frame cache (cache/frame_cache.h).
 *
 * A GUID alone does not tell clips apart: legacy .RAW has none, and test tools and cloned
 * cards repeat them (mlvsynth writes the same one into every clip). So every settings hash
 * also carries a fingerprint of the clip's files: each chunk's size and its first and last
 * 64 KiB (headers, the first and last frames' bytes, the .RAW footer). Reading that is a few
 * preads per chunk, once per run. */
#ifndef MP_CACHE_KEY_H
#define MP_CACHE_KEY_H

#include <stdint.h>

#include "cache/frame_cache.h"
#include "common/mp_status.h"
#include "dualiso/dualiso.h"
#include "rawfix/rawfix.h"
#include "reader/mlv_reader.h"

typedef struct mp_cache_clip_id {
    uint64_t guid;          /* the MLVI GUID; for a clip without one, the fingerprint */
    uint64_t fingerprint;   /* sizes and edge bytes of every chunk file */
} mp_cache_clip_id;

mp_status mp_cache_clip_identify(const mlv_clip *clip, mp_cache_clip_id *out, mp_error *err);

/* Feeds every field of the clip levels and the reconstruction options (opt NULL = the
 * defaults), field by field (settings_hash.c). */
void mp_cache_hash_reconstruction(mp_cache_hash *h, const dualiso_levels *lv,
                                  const dualiso_options *opt);

/* The settings hash of frames whose dark frame (content hash dark, 0: none) was subtracted,
 * repaired by fix and reconstructed with lv and opt by the program `tool`. A plan that
 * changes nothing, and no dark frame, leave the hash as it was without them. */
uint64_t mp_cache_segment_hash(const char *tool, const mp_cache_clip_id *id,
                               const dualiso_levels *lv, const dualiso_options *opt,
                               const rawfix_plan *fix, uint64_t dark);

#endif
