/* Stills (not a public header): what still.c, still_meta.c, still_folder.c and still_cr2.c
 * share (doc/stills.md). */
#ifndef MP_STILL_INTERNAL_H
#define MP_STILL_INTERNAL_H

#include <time.h>

#include "libraw_load.h"
#include "mlv_internal.h"

/* A sequence's photos play at this rate unless convert is given --fps. */
#define MP_STILL_SEQUENCE_FPS 25u

/* still_meta.c: LibRaw's identification of the photo in `chunk` as the clip's metadata for
 * the frame at `timestamp` (per-frame RAWI, EXPO, WBAL; the clip's IDNT, LENS, RTCI, owner,
 * orientation and format from the first photo described); taken: the photo's date and time
 * (NULL: none). */
mp_status mp_still_describe(mlv_clip *c, const libraw_data_t *lr, const struct tm *taken,
                            uint32_t chunk, uint64_t timestamp, mp_error *err);
/* A Bayer mosaic of a size we take (MP_ERR_DAMAGED / MP_ERR_UNSUPPORTED naming the file). */
mp_status mp_still_check_shape(const char *name, const libraw_data_t *lr, mp_error *err);

/* still_folder.c: the raw photos (.CR2, .DNG, any case) of folder `path`, sorted by name, as
 * the clip's chunks (not opened: each is read whole when its frame is). */
mp_status mp_still_find_folder(mlv_clip *c, const char *path, mp_error *err);

/* still_cr2.c: 1 (and where, why) when a CR2's slice tag does not add up to the raw width
 * LibRaw found; 0 for a sound tag, a file without one, or not a CR2. */
int mp_still_cr2_slices_problem(const uint8_t *bytes, size_t size, uint32_t raw_width,
                                uint64_t *offset, char *why, size_t why_size);

#endif
