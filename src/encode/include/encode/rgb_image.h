/* encode/rgb_image: one developed RGB picture (16-bit samples, 65535 = 1.0, in the --gamut and
 * --curve it was developed with) to the bytes of one image file, for the image-sequence sinks
 * "tiff" and "exr" (rgb_sequence.h; the OpenEXR writer is movie/exr_image.h). Unless a LUT
 * made the colour, each file says it: TIFF in an ICC profile (icc_profile.h), OpenEXR in its
 * chromaticities attribute (its samples are scene-linear by default); doc/colour.md. */
#ifndef MP_RGB_IMAGE_H
#define MP_RGB_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_color.h"
#include "common/mp_status.h"

typedef struct mp_rgb_image {
    const uint16_t *plane[3];        /* R, G, B */
    size_t stride;                   /* samples from one row to the next */
    uint32_t width, height;
    uint32_t aspect_num, aspect_den; /* a pixel's width : height as recorded (--no-stretch on
                                      * an anamorphic mode); 0: square */
    int tagged;                      /* gamut and curve say what the samples are (no LUT) */
    mp_gamut gamut;
    mp_curve curve;
    const uint8_t *icc;              /* TIFF: the ICC profile of gamut and curve; NULL: none */
    size_t icc_size;
} mp_rgb_image;

/* Baseline TIFF 6.0, little-endian: 16-bit unsigned RGB, chunky (R G B per pixel),
 * uncompressed, one strip; 72 dpi, and for pixels of another aspect 72 dpi down and
 * 72 x den / num across (TIFF's only way to say a pixel's shape: the resolutions' ratio).
 * *out is malloc'ed (free it). */
mp_status mp_rgb_image_tiff(const mp_rgb_image *im, uint8_t **out, size_t *len, mp_error *err);
#endif
