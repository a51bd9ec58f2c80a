/* movie/exr_image: one developed RGB picture (encode/rgb_image.h) as an OpenEXR file through
 * libavcodec, and the "exr" sequence sink made of it (encode/rgb_sequence.h). */
#ifndef MP_EXR_IMAGE_H
#define MP_EXR_IMAGE_H

#include "encode/rgb_image.h"

/* OpenEXR 2 scanline file from libavcodec's exr encoder: channels R, G, B as half floats
 * (value / 65535; half keeps 11 significant bits, so 16-bit codes round to within 2^-12 of
 * their value), ZIP compression in blocks of 16 lines; pixelAspectRatio the pixels' aspect
 * (1 when square). *out is malloc'ed. */
mp_status mp_rgb_image_exr(const mp_rgb_image *im, uint8_t **out, size_t *len, mp_error *err);

#endif
