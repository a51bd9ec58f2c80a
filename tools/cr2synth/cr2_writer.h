/* cr2_writer: a Canon CR2 file from a raw mosaic, laid out as Canon's bodies write it
 * (doc/stills.md 2): a little-endian TIFF with "CR" 2.0 after the header and the raw IFD's
 * offset at byte 12; IFD0 with the make, model, orientation, date, owner and the Exif IFD
 * (exposure, aperture, ISO, focal length, date, serial, lens, and Canon's maker note: model
 * id, owner, serial, lens, sensor borders, colour data with the as-shot white balance and
 * the levels); the raw IFD holding one lossless-JPEG strip cut into vertical slices (tag
 * 0xC640). For tests: what LibRaw and dcraw read back from it must be what was given. */
#ifndef CR2SYNTH_CR2_WRITER_H
#define CR2SYNTH_CR2_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_status.h"

typedef struct cr2_meta {
    const char *model;              /* "Canon EOS 5D Mark III" */
    uint32_t model_id;              /* Canon's id (0x80000285) */
    uint32_t serial;                /* body serial number */
    const char *owner, *lens;
    const char *when;               /* "YYYY:MM:DD HH:MM:SS" */
    uint16_t orientation;           /* EXIF 1..8 */
    uint32_t iso;
    uint32_t shutter_num, shutter_den;  /* seconds */
    uint32_t aperture_x10, focal_mm;
    uint16_t wb_rggb[4];            /* as-shot white balance multipliers, R G G B */
    uint16_t black, white;          /* per-channel black and the specular white */
} cr2_meta;

typedef struct cr2_image {
    const uint16_t *samples;        /* width x height, row-major, the masked borders included */
    uint32_t width, height, bits;
    uint32_t left, top;             /* the picture starts here (left/top masked borders) */
    uint32_t slices, slice_width;   /* slices - 1 of slice_width columns, then the rest */
    int wrong_slices;               /* test damage: a slice tag that does not add up */
} cr2_image;

/* The whole file into *out (malloc'ed), its size into *size. */
mp_status cr2_write(const cr2_image *img, const cr2_meta *meta, uint8_t **out, size_t *size,
                    mp_error *err);

#endif
