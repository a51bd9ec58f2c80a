/* frame_range: the --frames option in render-farm vocabulary, and the clip frames it selects.
 *
 * Syntax (absolute MLV frame numbers, inclusive, as mlv_dump -f and farm chunk tokens):
 *   N          one frame
 *   A-B        A through B
 *   A-         A through the clip's last frame
 *   -B         the clip's first frame through B
 *   A-B:S      every S-th frame from A (Open Job Description step syntax)
 *   T1,T2,...  a union of the terms above, e.g. "1-3,5,7-20:2"
 * Whitespace is not allowed. A term starting after the clip's last frame is an error
 * (MP_ERR_RANGE); a term ending after it is clamped with a warning, because farm engines
 * overshoot the last chunk (OpenCue #FRAME_END#). Frame numbers missing from the clip inside
 * a term are gaps, not errors. */
#ifndef MP_FRAME_RANGE_H
#define MP_FRAME_RANGE_H

#include <stdint.h>

#include "common/mp_status.h"

#define MP_FRAME_RANGE_MAX_TERMS 256

typedef struct mp_frame_term {
    uint32_t first, last;       /* last == UINT32_MAX: open end */
    uint32_t step;              /* >= 1 */
} mp_frame_term;

typedef struct mp_frame_spec {
    mp_frame_term terms[MP_FRAME_RANGE_MAX_TERMS];
    uint32_t count;             /* 0: the whole clip */
} mp_frame_spec;

/* Parses text; NULL or "" selects the whole clip. Errors quote the offending term. */
mp_status mp_frame_spec_parse(const char *text, mp_frame_spec *out, mp_error *err);

/* Selects the clip frames the spec names. numbers[0..count-1] are the clip's frame numbers in
 * index order (strictly increasing). *indices gets a malloc'd ascending list of clip indices
 * (free it), *selected its length. Clamped terms are reported through log. */
mp_status mp_frame_spec_select(const mp_frame_spec *spec, const uint32_t *numbers,
                               uint32_t count, const mp_logger *log, uint32_t **indices,
                               uint32_t *selected, mp_error *err);

#endif
