/* RGB sequences (rgb_sequence.h) and the "tiff" sink: developed RGB, one file per frame,
 * PATH/<folder>/<frame name>.EXT (naming.h) as the "dng" sink names them. The picture is the
 * whole active area (mp_raw_active_area; odd sizes kept, unlike movies); pixels kept as an
 * anamorphic mode recorded them carry their aspect (rgb_image.h). Each file is complete on
 * its own, so frames may be written from several threads and in any order; a lost frame has
 * no file. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/out_file.h"
#include "encode/naming.h"
#include "encode/rgb_sequence.h"

mp_status mp_rgb_sequence_open(void *priv, const char *path, const mp_sink_params *p,
                               mp_error *err)
{
    mp_rgb_sequence *s = priv;
    s->p = *p;
    mp_raw_active_area(&p->meta.raw, p->meta.raw.width, p->meta.raw.height, s->area);
    if (p->pixel_aspect.num > 0 && p->pixel_aspect.den > 0) {
        s->aspect[0] = (uint32_t)p->pixel_aspect.num;
        s->aspect[1] = (uint32_t)p->pixel_aspect.den;
    }
    if (!p->graded)
        s->icc_size = mp_icc_profile(p->gamut, p->curve, s->icc);
    return mp_sequence_folder_open(path, p, s->folder, err);
}

mp_status mp_rgb_sequence_write(mp_rgb_sequence *s, const mp_rgb_frame *rgb,
                                mp_rgb_image_fn encode, mp_error *err)
{
    const uint32_t *a = s->area;
    if (a[2] > rgb->height || a[3] > rgb->width)
        return mp_error_set(err, MP_ERR_ARG, "frame %u: %ux%u picture, smaller than the "
                            "active area", rgb->number, rgb->width, rgb->height);
    size_t corner = (size_t)a[0] * rgb->width + a[1];
    const mp_rgb_image im = {{rgb->plane[0] + corner, rgb->plane[1] + corner,
                              rgb->plane[2] + corner}, rgb->width, a[3] - a[1], a[2] - a[0],
                             s->aspect[0], s->aspect[1], !s->p.graded, s->p.gamut,
                             s->p.curve, s->icc_size ? s->icc : NULL, s->icc_size};
    char path[PATH_MAX];
    uint8_t *bytes = NULL;
    size_t len = 0;
    mp_status st = mp_sequence_frame_path(s->folder, &s->p, rgb->number, path, err);
    if (st == MP_OK && (st = encode(&im, &bytes, &len, err)) != MP_OK && err) {
        char why[MP_ERROR_MAX];
        memcpy(why, err->msg, sizeof why);
        mp_error_set(err, st, "%s: %s", path, why);
    }
    if (st == MP_OK)
        st = mp_out_write_file(path, bytes, len, s->p.overwrite, s->p.fsync, err);
    free(bytes);
    return st;
}

MP_RGB_SEQUENCE_SINK(tiff, mp_rgb_image_tiff)
