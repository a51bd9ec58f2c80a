/* encode/rgb_sequence: a sink that writes developed RGB as one image file per frame
 * (rgb_sequence_sink.c), whatever makes the file's bytes: MP_RGB_SEQUENCE_SINK(id, fn) defines
 * the sink mp_sink_<id> around an mp_rgb_image_fn, "tiff" here, "exr" in src/movie. */
#ifndef MP_RGB_SEQUENCE_H
#define MP_RGB_SEQUENCE_H

#include <limits.h>

#include "encode/icc_profile.h"
#include "encode/rgb_image.h"
#include "encode/sink.h"

/* One picture to the bytes of one file; *out is malloc'ed. */
typedef mp_status (*mp_rgb_image_fn)(const mp_rgb_image *im, uint8_t **out, size_t *len,
                                     mp_error *err);

typedef struct mp_rgb_sequence {
    mp_sink_params p;
    char folder[PATH_MAX];
    uint32_t area[4];                /* top, left, bottom, right */
    uint32_t aspect[2];              /* the pixels' width : height; 0: square */
    uint8_t icc[MP_ICC_MAX];         /* the ICC profile of p's gamut and curve */
    size_t icc_size;                 /* 0: none (a LUT made the colour) */
} mp_rgb_sequence;

/* mp_sink_ops.open: priv is an mp_rgb_sequence; makes the sequence's folder. */
mp_status mp_rgb_sequence_open(void *priv, const char *path, const mp_sink_params *p,
                               mp_error *err);
/* The active area of rgb through encode into the frame's file, committed when written. */
mp_status mp_rgb_sequence_write(mp_rgb_sequence *s, const mp_rgb_frame *rgb,
                                mp_rgb_image_fn encode, mp_error *err);

#define MP_RGB_SEQUENCE_SINK(id, encoder)                                                      \
    static mp_status write_##id(void *priv, const mp_rgb_frame *rgb, mp_error *err)            \
    {                                                                                          \
        return mp_rgb_sequence_write(priv, rgb, encoder, err);                                 \
    }                                                                                          \
    const mp_sink_ops mp_sink_##id = {                                                         \
        .name = #id, .priv_size = sizeof(mp_rgb_sequence), .concurrent_frames = 1,             \
        .open = mp_rgb_sequence_open, .write_rgb = write_##id,                                 \
    };   /* no finish or abort: each file is committed when written, or removed on failure */

#endif
