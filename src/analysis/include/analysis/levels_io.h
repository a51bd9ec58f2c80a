/* levels_io: clip-level dual-ISO levels, per segment, and their JSON sidecar.
 *
 * `mlvpipe analyze CLIP -o levels.json` writes them, `mlvpipe convert --levels levels.json`
 * reads them back, so every farm chunk of a clip uses the same levels. The format (also in
 * doc/json.md, section 2):
 *
 *   {
 *     "format": "mlvpipe-levels", "format_version": 2,
 *     "tool": "mlvpipe 0.1.0",
 *     "options_hash": "0123456789abcdef",         64-bit FNV-1a of the analysis options
 *     "clip": {"guid": "0123456789abcdef", "frame_count": 100,
 *              "first_frame": 0, "last_frame": 99},
 *     "segments": [
 *       {"first_index": 0, "frame_count": 100, "first_frame": 0, "last_frame": 99,
 *        "levels": { every field of dualiso_levels, by its C name },
 *        "rawfix": { the rawfix_map: size, frames, stripes, stripe_amplitude, stripe_gain
 *                    (32 numbers, y mod 4 major), lattice {period_x, period_y, x0, y0, x1,
 *                    y1, classes [x, y, ...]}, pixels [x, y, ...] } } ]
 *   }
 *
 * Reading is strict: unknown, missing or repeated keys, wrong types, integers out of range,
 * segments that do not tile the clip are errors naming the file and the key. Doubles are
 * written with 17 significant digits, so a round trip gives back the same bits. */
#ifndef MP_LEVELS_IO_H
#define MP_LEVELS_IO_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_status.h"
#include "dualiso/dualiso.h"
#include "rawfix/rawfix.h"

#define MP_LEVELS_FORMAT "mlvpipe-levels"
#define MP_LEVELS_FORMAT_VERSION 3
#define MP_LEVELS_MAX_SEGMENTS 4096u

/* What the focus-pixel lattice the camera and mode are known to have (mp_rawfix_priors) did
 * for a segment's map. For `info`; not in the sidecar, whose lattice is used whatever its
 * source (read back: MP_PRIOR_NONE). */
typedef enum mp_lattice_prior {
    MP_PRIOR_NONE,             /* no known lattice for this camera and mode */
    MP_PRIOR_NOT_CONFIRMED,    /* known, but the clip does not show it: not used */
    MP_PRIOR_CONFIRMED         /* known and confirmed by the clip: the map's lattice */
} mp_lattice_prior;

typedef struct mp_levels_segment {
    uint32_t first_index;      /* clip index of the segment's first frame */
    uint32_t frame_count;
    uint32_t first_frame, last_frame;   /* absolute frame numbers */
    dualiso_levels levels;
    rawfix_map fix;            /* raw defects and stripes found in the segment's samples */
    mp_lattice_prior prior;
} mp_levels_segment;

typedef struct mp_clip_levels {
    char tool[64];
    uint64_t options_hash;
    uint64_t guid;
    uint32_t frame_count;
    uint32_t first_frame, last_frame;
    uint32_t segment_count;
    mp_levels_segment *segments;   /* malloc'd */
} mp_clip_levels;

void mp_clip_levels_free(mp_clip_levels *cl);

/* Serialises cl as the JSON text above: *text is malloc'd and NUL-terminated. Non-finite
 * doubles cannot be written (MP_ERR_ARG). */
mp_status mp_clip_levels_to_json(const mp_clip_levels *cl, char **text, size_t *len,
                                 mp_error *err);
/* Parses and checks a sidecar's text; name is used in messages. */
mp_status mp_clip_levels_from_json(const char *text, size_t len, const char *name,
                                   mp_clip_levels *cl, mp_error *err);

/* Files: writing goes through a temporary name and a rename (an existing file is replaced
 * only when overwrite is set); reading refuses files above MP_JSON_MAX_BYTES. */
mp_status mp_clip_levels_write(const char *path, const mp_clip_levels *cl, int overwrite,
                               mp_error *err);
mp_status mp_clip_levels_read(const char *path, mp_clip_levels *cl, mp_error *err);

/* 64-bit FNV-1a, for options_hash. */
uint64_t mp_fnv1a64(const void *data, size_t len, uint64_t seed);
#define MP_FNV1A64_SEED 0xcbf29ce484222325ull

#endif
