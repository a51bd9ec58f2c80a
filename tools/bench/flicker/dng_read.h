/* dng_read: a small, strict reader for the CinemaDNGs mlvpipe writes (src/encode/dng.c):
 * 16-bit uncompressed CFA samples in IFD0 strips, one BlackLevel, WhiteLevel, ActiveArea and
 * DefaultCrop. Anything else (compression, other bit depths, several black levels, a 2x2
 * black pattern, offsets outside the file) is refused with the file, byte offset and cause,
 * so the flicker check never measures photosites it misread. */
#ifndef FLICKER_DNG_READ_H
#define FLICKER_DNG_READ_H

#include <stdint.h>

#include "common/mp_frame.h"
#include "common/mp_status.h"

typedef struct fc_dng {
    mp_frame frame;              /* samples, width, height, bits 16, black, white, cfa */
    double black, white;         /* tag values (black may be a rational) */
    uint32_t active[4];          /* ActiveArea: top, left, bottom, right */
    double crop_origin[2];       /* DefaultCropOrigin x, y (relative to the active area) */
    double crop_size[2];         /* DefaultCropSize width, height */
} fc_dng;

/* Reads path into *d (d->frame's buffer is reused; zero-initialise before the first call). */
mp_status fc_dng_read(const char *path, fc_dng *d, mp_error *err);

void fc_dng_free(fc_dng *d);

#endif
