/* Photos that look like one timelapse: numbered in a row, from one body with one set of
 * settings (mp_mlv_photo_series, doc/stills.md 5). */
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

static int numbered_in_a_row(const char *const *paths, uint32_t n)
{
    size_t prefix0, prefix;
    long first, number;
    const char *ext0, *ext;
    if (!photo_number(paths[0], &prefix0, &first, &ext0))
        return 0;
    for (uint32_t i = 1; i < n; i++)
        if (!photo_number(paths[i], &prefix, &number, &ext) || prefix != prefix0 ||
            strncmp(paths[i], paths[0], prefix) || number != first + (long)i ||
            strcmp(ext, ext0))
            return 0;
    return 1;
}

/* What must not change within a timelapse: the body and the shot's settings. */
static int same_session(const mlv_clip_info *a, const mlv_clip_info *b)
{
    return a->camera.model == b->camera.model && !strcmp(a->camera.name, b->camera.name) &&
           !strcmp(a->camera.serial, b->camera.serial) && a->raw.width == b->raw.width &&
           a->raw.height == b->raw.height && a->exposure.iso == b->exposure.iso &&
           a->exposure.shutter_us == b->exposure.shutter_us &&
           a->lens.aperture_x100 == b->lens.aperture_x100 &&
           a->lens.focal_mm == b->lens.focal_mm && !strcmp(a->lens.name, b->lens.name);
}

int mp_mlv_photo_series(const char *const *paths, uint32_t n)
{
    if (n < 3 || !numbered_in_a_row(paths, n))
        return 0;
    mlv_clip *first = NULL;
    mp_error err;
    if (mp_mlv_clip_open(&first, paths[0], NULL, &err) != MP_OK)
        return 0;
    const mlv_clip_info *a = mp_mlv_clip_get_info(first);
    int same = a->container == MLV_CONTAINER_STILL;
    for (uint32_t i = 1; same && i < n; i++) {
        mlv_clip *c = NULL;
        same = mp_mlv_clip_open(&c, paths[i], NULL, &err) == MP_OK &&
               mp_mlv_clip_get_info(c)->container == MLV_CONTAINER_STILL &&
               same_session(a, mp_mlv_clip_get_info(c));
        mp_mlv_clip_close(c);
    }
    mp_mlv_clip_close(first);
    return same;
}
