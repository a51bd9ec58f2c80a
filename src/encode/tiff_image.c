/* mp_rgb_image_tiff: the IFD through tiff_writer.h, then the samples in one strip. */
#include <stdlib.h>
#include <string.h>

#include "encode/rgb_image.h"
#include "tiff_writer.h"

enum {
    TAG_IMAGE_WIDTH = 256, TAG_IMAGE_LENGTH = 257, TAG_BITS_PER_SAMPLE = 258,
    TAG_COMPRESSION = 259, TAG_PHOTOMETRIC = 262, TAG_STRIP_OFFSETS = 273,
    TAG_SAMPLES_PER_PIXEL = 277, TAG_ROWS_PER_STRIP = 278, TAG_STRIP_BYTE_COUNTS = 279,
    TAG_X_RESOLUTION = 282, TAG_Y_RESOLUTION = 283, TAG_PLANAR_CONFIGURATION = 284,
    TAG_RESOLUTION_UNIT = 296, TAG_SAMPLE_FORMAT = 339, TAG_ICC_PROFILE = 34675
};

mp_status mp_rgb_image_tiff(const mp_rgb_image *im, uint8_t **out, size_t *len, mp_error *err)
{
    *out = NULL;
    *len = 0;
    size_t payload = (size_t)im->width * im->height * 6;
    if (!im->width || !im->height || payload > UINT32_MAX - 4096)
        return mp_error_set(err, MP_ERR_ARG, "TIFF: %ux%u RGB does not fit a TIFF file",
                            im->width, im->height);
    tiff_ifd *ifd = malloc(sizeof *ifd);   /* ~2.5 KiB: off small thread stacks */
    if (!ifd)
        return mp_error_set(err, MP_ERR_NOMEM, "TIFF: out of memory");
    static const uint16_t sixteen[3] = {16, 16, 16}, unsigned_int[3] = {1, 1, 1};
    static const uint32_t dpi[2] = {72, 1};
    const int square = !im->aspect_num || !im->aspect_den;
    const uint32_t across[2] = {square ? 72 : 72 * im->aspect_den, square ? 1 : im->aspect_num};
    mp_tiff_ifd_init(ifd);
    mp_tiff_add_long(ifd, TAG_IMAGE_WIDTH, im->width);
    mp_tiff_add_long(ifd, TAG_IMAGE_LENGTH, im->height);
    mp_tiff_add_shorts(ifd, TAG_BITS_PER_SAMPLE, sixteen, 3);
    mp_tiff_add_short(ifd, TAG_COMPRESSION, 1);
    mp_tiff_add_short(ifd, TAG_PHOTOMETRIC, 2);                /* RGB */
    mp_tiff_add_long(ifd, TAG_STRIP_OFFSETS, 0);               /* set below */
    mp_tiff_add_short(ifd, TAG_SAMPLES_PER_PIXEL, 3);
    mp_tiff_add_long(ifd, TAG_ROWS_PER_STRIP, im->height);
    mp_tiff_add_long(ifd, TAG_STRIP_BYTE_COUNTS, (uint32_t)payload);
    mp_tiff_add_rationals(ifd, TAG_X_RESOLUTION, across, 1);
    mp_tiff_add_rationals(ifd, TAG_Y_RESOLUTION, dpi, 1);
    mp_tiff_add_short(ifd, TAG_PLANAR_CONFIGURATION, 1);       /* chunky */
    mp_tiff_add_short(ifd, TAG_RESOLUTION_UNIT, 2);            /* inch */
    mp_tiff_add_shorts(ifd, TAG_SAMPLE_FORMAT, unsigned_int, 3);
    if (im->icc)
        mp_tiff_add_bytes(ifd, TAG_ICC_PROFILE, TIFF_UNDEFINED, im->icc, (uint32_t)im->icc_size);
    size_t header = 8 + mp_tiff_ifd_size(ifd);
    uint8_t *buf = header > 8 ? malloc(header + payload) : NULL;
    if (!buf) {
        free(ifd);
        return mp_error_set(err, MP_ERR_NOMEM, "TIFF: out of memory");
    }
    mp_tiff_set_long(ifd, TAG_STRIP_OFFSETS, (uint32_t)header);
    mp_tiff_write_header(buf, 8);
    mp_tiff_ifd_write(ifd, buf + 8, 8, 0);
    free(ifd);
    uint8_t *p = buf + header;
    for (uint32_t y = 0; y < im->height; y++) {
        size_t row = (size_t)y * im->stride;
        for (uint32_t x = 0; x < im->width; x++)
            for (int c = 0; c < 3; c++) {
                uint16_t v = im->plane[c][row + x];
                *p++ = (uint8_t)v;
                *p++ = (uint8_t)(v >> 8);
            }
    }
    *out = buf;
    *len = header + payload;
    return MP_OK;
}
