#include "analysis/dark_load.h"

#include <string.h>

#include "analysis/levels_io.h"

uint64_t mp_dark_hash(const rawfix_dark *d)
{
    if (!d->width)
        return 0;
    uint32_t head[3] = {d->width, d->height, d->bits};
    uint64_t h = mp_fnv1a64(head, sizeof head, MP_FNV1A64_SEED);
    return mp_fnv1a64(d->pattern, (size_t)d->width * d->height * sizeof *d->pattern, h);
}

/* The dark clip must have been shot as the clip was: what differs, in one line. */
static mp_status check_fit(const char *path, const mlv_clip_info *dark, int dual_known,
                           const mlv_clip *clip, mp_error *err)
{
    const mlv_clip_info *c = mp_mlv_clip_get_info(clip);
    const char *name = mp_mlv_clip_path(clip, 0);
    if (dark->raw.width != c->raw.width || dark->raw.height != c->raw.height)
        return mp_error_set(err, MP_ERR_FORMAT, "dark frame %s: its size %ux%u is not the "
                            "clip's %ux%u (%s)", path, dark->raw.width, dark->raw.height,
                            c->raw.width, c->raw.height, name);
    if (dark->raw.bits != c->raw.bits)
        return mp_error_set(err, MP_ERR_FORMAT, "dark frame %s: %u-bit, the clip %s is %u-bit",
                            path, dark->raw.bits, name, c->raw.bits);
    if (dark->exposure.present && c->exposure.present && dark->exposure.iso != c->exposure.iso)
        return mp_error_set(err, MP_ERR_FORMAT, "dark frame %s: shot at ISO %u, the clip %s "
                            "at ISO %u", path, dark->exposure.iso, name, c->exposure.iso);
    /* Magic Lantern's dual_iso module writes DISO whether it is on or off: a clip without
     * one was shot without the module, at one ISO. */
    const mp_dual_iso_tag *dd = &dark->dual_iso, *cd = &c->dual_iso;
    int dark_dual = dd->present && dd->mode, clip_dual = cd->present && cd->mode;
    if (dual_known && (dark_dual != clip_dual || (clip_dual && dd->iso_value != cd->iso_value)))
        return mp_error_set(err, MP_ERR_FORMAT, "dark frame %s: dual ISO %s (recovery index "
                            "%d), the clip %s: dual ISO %s (index %d)", path,
                            dark_dual ? "on" : "off", dark_dual ? dd->iso_value : 0, name,
                            clip_dual ? "on" : "off", clip_dual ? cd->iso_value : 0);
    return MP_OK;
}

/* Averages every intact frame of the lens-cap clip. */
static mp_status average_clip(const char *path, const mlv_clip *dark, const atomic_int *cancel,
                              const mp_logger *log, rawfix_dark *out, mp_error *err)
{
    const mlv_clip_info *info = mp_mlv_clip_get_info(dark);
    rawfix_dark_sum sum = {0};
    mlv_scratch scratch = {0};
    scratch.ref_index = -1;
    mp_frame f = {0};
    mp_status st = MP_OK;
    uint32_t skipped = 0;
    for (uint32_t i = 0; i < info->frame_count && st == MP_OK; i++) {
        if (cancel && atomic_load(cancel)) {
            st = mp_error_set(err, MP_ERR_INTERRUPTED, "interrupted");
            break;
        }
        if (sum.frames == RAWFIX_DARK_MAX_FRAMES)
            break;
        mp_error e = {0};
        st = mp_mlv_read_frame(dark, i, &f, &scratch, &e);
        if (st == MP_ERR_DAMAGED) {
            skipped++;
            mp_log(log, MP_LOG_WARNING, "dark frame %s: frame index %u not averaged: %s", path,
                   i, e.msg);
            st = MP_OK;
            continue;
        }
        if (st != MP_OK)
            *err = e;
        else if (f.width != info->raw.width || f.height != info->raw.height)
            st = mp_error_set(err, MP_ERR_FORMAT, "dark frame %s: frame %u is %ux%u, its first "
                              "is %ux%u (one size only)", path, f.number, f.width, f.height,
                              info->raw.width, info->raw.height);
        else
            st = mp_rawfix_dark_add(&sum, &f, err);
    }
    if (st == MP_OK && !sum.frames)
        st = mp_error_set(err, MP_ERR_FORMAT, "dark frame %s: no intact frame to average", path);
    if (st == MP_OK)
        st = mp_rawfix_dark_finish(&sum, out, err);
    if (st == MP_OK)
        mp_log(log, MP_LOG_INFO, "dark frame %s: %u frames averaged (%u damaged skipped), "
               "pattern RMS %.2f DN", path, out->frames, skipped, out->rms);
    mp_frame_free(&f);
    mp_mlv_scratch_free(&scratch);
    mp_rawfix_dark_sum_free(&sum);
    return st;
}

/* MLV-App's DARK block: an average it made already, checked against the clip by its own
 * fields (size, depth, ISO). */
static mp_status from_block(const char *path, const mlv_clip *dark, const mlv_clip *clip,
                            const mp_logger *log, rawfix_dark *out, mp_error *err)
{
    const mlv_dark_info *d = &mp_mlv_clip_get_info(dark)->dark;
    mlv_clip_info as_shot = *mp_mlv_clip_get_info(dark);
    as_shot.raw.width = d->width;
    as_shot.raw.height = d->height;
    as_shot.raw.bits = d->bits;
    as_shot.exposure.iso = d->iso;
    as_shot.exposure.present = d->iso != 0;
    mp_status st = check_fit(path, &as_shot, 1, clip, err);
    mp_frame f = {0};
    if (st == MP_OK)
        st = mp_mlv_read_dark(dark, &f, err);
    if (st == MP_OK)
        st = mp_rawfix_dark_from_frame(&f, d->frames_averaged, out, err);
    if (st == MP_OK)
        mp_log(log, MP_LOG_INFO, "dark frame %s: MLV-App's DARK block (%u frames averaged), "
               "pattern RMS %.2f DN", path, d->frames_averaged, out->rms);
    mp_frame_free(&f);
    return st;
}

/* One raw photo (a DNG), taken as an average already (its own noise is not divided down).
 * A photo says nothing of dual ISO: that is not checked. */
static mp_status from_still(const char *path, const mlv_clip *dark, const mlv_clip *clip,
                            const mp_logger *log, rawfix_dark *out, mp_error *err)
{
    mp_frame f = {0};
    mlv_scratch scratch = {0};
    mp_status st = mp_mlv_read_frame(dark, 0, &f, &scratch, err);
    mp_mlv_scratch_free(&scratch);
    if (st != MP_OK) {
        char why[MP_ERROR_MAX];
        memcpy(why, err->msg, sizeof why);
        mp_error_set(err, st, "dark frame: %s", why);
    }
    const uint32_t iso = mp_mlv_clip_get_info(dark)->exposure.iso;
    /* --dng-bits 16 keeps the recorded values in 16-bit samples: their depth is the clip's
     * when every value fits it */
    const uint32_t clip_bits = mp_mlv_clip_get_info(clip)->raw.bits;
    if (st == MP_OK && f.bits == 16 && clip_bits < 16 && f.white < (1u << clip_bits)) {
        size_t i = 0, n = (size_t)f.width * f.height;
        while (i < n && f.data[i] < (1u << clip_bits))
            i++;
        if (i == n)
            f.bits = clip_bits;
    }
    mlv_clip_info as_shot = {0};
    as_shot.raw.width = f.width;
    as_shot.raw.height = f.height;
    as_shot.raw.bits = f.bits;
    as_shot.exposure = (mp_exposure){.present = iso != 0, .iso = iso};
    if (st == MP_OK)
        st = check_fit(path, &as_shot, 0, clip, err);
    if (st == MP_OK)
        st = mp_rawfix_dark_from_frame(&f, 1, out, err);
    if (st == MP_OK)
        mp_log(log, MP_LOG_INFO, "dark frame %s: one raw photo, pattern RMS %.2f DN", path,
               out->rms);
    mp_frame_free(&f);
    return st;
}

mp_status mp_dark_load(const char *path, const mlv_clip *clip, const atomic_int *cancel,
                       const mp_logger *log, rawfix_dark *out, mp_error *err)
{
    memset(out, 0, sizeof *out);
    mlv_clip *dark = NULL;
    mlv_open_options oo = {.log = *log};
    mp_status st = mp_mlv_clip_open(&dark, path, &oo, err);
    if (st != MP_OK) {
        char why[MP_ERROR_MAX];
        memcpy(why, err->msg, sizeof why);
        return mp_error_set(err, st, "dark frame: %s", why);
    }
    const mlv_clip_info *di = mp_mlv_clip_get_info(dark);
    int photos = di->container == MLV_CONTAINER_STILL;  /* they say nothing of dual ISO */
    if (di->dark.present) {
        st = from_block(path, dark, clip, log, out, err);
    } else if (photos && !di->sequence) {
        st = from_still(path, dark, clip, log, out, err);
    } else {    /* a lens-cap clip, or a folder of lens-cap photos: averaged */
        st = check_fit(path, di, !photos, clip, err);
        if (st == MP_OK)
            st = average_clip(path, dark, cancel, log, out, err);
    }
    mp_mlv_clip_close(dark);
    if (st != MP_OK)
        mp_rawfix_dark_free(out);
    return st;
}
