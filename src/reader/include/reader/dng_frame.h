/* reader/dng_frame: the raw samples of one DNG file, as a dark frame (analysis/dark_load.h).
 * Reads what our DNG writer makes (encode/dng.c) and DNGs laid out like it: a little- or
 * big-endian TIFF whose raw image (Photometric CFA, one sample per pixel) is IFD0 or IFD0's
 * first SubIFD, uncompressed (Compression 1), 10..16 bits (packed MSB first below 16: rows
 * either byte-aligned or one continuous bit stream, told apart by the strip's size), in one
 * strip. Levels from BlackLevel (one value) and WhiteLevel, the ISO from the Exif IFD's
 * ISOSpeedRatings. Anything else (LJ92 or other compression, tiles, several strips, linear
 * DNGs) is refused naming the file and what it holds (MP_ERR_UNSUPPORTED); a file that is no
 * TIFF or whose offsets leave it is MP_ERR_FORMAT / MP_ERR_DAMAGED. */
#ifndef MP_DNG_FRAME_H
#define MP_DNG_FRAME_H

#include <stdint.h>

#include "common/mp_frame.h"
#include "common/mp_status.h"

/* 1 when the file starts like a TIFF ("II*\0" or "MM\0*"). */
int mp_dng_is_tiff(const uint8_t head[4]);

/* out gets the samples, bits, black, white and CFA; *iso the ISO (0: not stated). */
mp_status mp_dng_read_frame(const char *path, mp_frame *out, uint32_t *iso, mp_error *err);

#endif
