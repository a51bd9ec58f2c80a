/* movie/png: small 8-bit RGB pictures as PNG files in memory, through libavcodec's PNG
 * encoder (the report's thumbnails and maps, inlined into an HTML page). One call, one
 * picture; the same pixels give the same bytes (single-threaded, fixed settings). */
#ifndef MP_AV_PNG_H
#define MP_AV_PNG_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_status.h"

/* rgb: height rows of width R, G, B bytes, `stride` bytes apart. *png is malloc'd. */
mp_status mp_png_encode_rgb24(const uint8_t *rgb, uint32_t width, uint32_t height,
                              size_t stride, uint8_t **png, size_t *size, mp_error *err);

#endif
