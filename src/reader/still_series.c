/* Photos that look like one timelapse: numbered in a row, from one body with one set of
 * settings (mp_mlv_photos_in_a_row and mp_mlv_photo_session, doc/stills.md 5). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "reader/mlv_reader.h"

/* A photo's name split into folder and prefix length, number and extension; 0 when it is no
 * .CR2/.DNG or its name does not end in digits. */
static int photo_number(const char *path, size_t *prefix_len, long *number, const char **ext)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || (strcasecmp(dot, ".cr2") && strcasecmp(dot, ".dng")))
        return 0;
    const char *digits = dot;
    while (digits > base && digits[-1] >= '0' && digits[-1] <= '9')
        digits--;
    if (digits == dot || dot - digits > 9)
        return 0;
    *prefix_len = (size_t)(digits - path);
    *number = strtol(digits, NULL, 10);
    *ext = dot;
    return 1;
}

int mp_mlv_photos_in_a_row(const char *const *paths, uint32_t n)
{
    size_t prefix0, prefix;
    long first, number;
    const char *ext0, *ext;
    if (n < 3 || !photo_number(paths[0], &prefix0, &first, &ext0))
        return 0;
    for (uint32_t i = 1; i < n; i++)
        if (!photo_number(paths[i], &prefix, &number, &ext) || prefix != prefix0 ||
            strncmp(paths[i], paths[0], prefix) || number != first + (long)i ||
            strcmp(ext, ext0))
            return 0;
    return 1;
}

int mp_mlv_photo_session(const char *path, mlv_photo_session *s)
{
    mlv_clip *c = NULL;
    mp_error err;
    if (mp_mlv_clip_open(&c, path, NULL, &err) != MP_OK)
        return 0;
    const mlv_clip_info *info = mp_mlv_clip_get_info(c);
    int still = info->container == MLV_CONTAINER_STILL;
    *s = (mlv_photo_session){info->camera, info->exposure, info->lens, info->raw.width,
                             info->raw.height};
    mp_mlv_clip_close(c);
    return still;
}

int mp_mlv_photo_same_session(const mlv_photo_session *a, const mlv_photo_session *b)
{
    return a->camera.model == b->camera.model && !strcmp(a->camera.name, b->camera.name) &&
           !strcmp(a->camera.serial, b->camera.serial) && a->width == b->width &&
           a->height == b->height && a->exposure.iso == b->exposure.iso &&
           a->exposure.shutter_us == b->exposure.shutter_us &&
           a->lens.aperture_x100 == b->lens.aperture_x100 &&
           a->lens.focal_mm == b->lens.focal_mm && !strcmp(a->lens.name, b->lens.name);
}
