/* What LibRaw says of a raw photo, stated as the blocks an MLV would carry (doc/stills.md 2):
 * RAWI (size, levels, CFA, picture area, matrix), EXPO and WBAL for each frame; IDNT, LENS and
 * RTCI for the clip (the first photo's, as for any clip-level block). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/mp_camera_color.h"
#include "common/mp_white.h"
#include "still_internal.h"

static void copy_text(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size - 1);
    memcpy(dst, src, n);
    dst[n] = 0;
}

/* The 2x2 pattern at frame (raw) coordinates: LibRaw's filters describe the visible area,
 * which starts at the margins; its fourth colour (a second green) is green. */
static uint32_t cfa_of(const libraw_data_t *lr)
{
    uint32_t cfa = 0;
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < 2; x++) {
            uint32_t row = y + 16 - lr->sizes.top_margin % 16;
            uint32_t col = x + 16 - lr->sizes.left_margin % 16;
            uint32_t c = lr->idata.filters >> ((((row << 1) & 14) | (col & 1)) << 1) & 3;
            cfa |= (c == 3 ? 1u : c) << (8 * (2 * y + x));
        }
    return cfa;
}

/* Black in LibRaw's terms is a common part plus one per colour channel: their mean. */
static int32_t black_of(const libraw_data_t *lr)
{
    const unsigned *cb = lr->color.cblack;
    return (int32_t)(lr->color.black + (cb[0] + cb[1] + cb[2] + cb[3] + 2) / 4);
}

/* Where the samples clip: the camera's own statement when the file makes one (Canon's colour
 * data: the specular white, LibRaw's linear_max), else LibRaw's maximum (a DNG's WhiteLevel,
 * or its table's value for the body, which for Canon is a round figure above the real clip
 * level: 15488 against 15283 for a 5D Mark III at ISO 100). */
static uint32_t white_of(const libraw_data_t *lr)
{
    long linear = lr->color.linear_max[0];
    return linear > 0 && linear < (long)lr->color.maximum ? (uint32_t)linear
                                                          : lr->color.maximum;
}

static uint32_t bits_for(uint32_t max)
{
    uint32_t bits = 10;
    while (bits < 16 && (1u << bits) - 1 < max)
        bits++;
    return bits;
}

/* Where the blocks of the photo being described go: its file and the frame's time stamp. */
typedef struct photo_at {
    mlv_clip *c;
    uint32_t chunk;
    uint64_t timestamp;
} photo_at;

static mp_status add_block(const photo_at *at, mlv_block *b, mlv_block_type type, mp_error *err)
{
    static const char tags[][5] = {[MLV_BLOCK_RAWI] = "RAWI", [MLV_BLOCK_IDNT] = "IDNT",
                                   [MLV_BLOCK_LENS] = "LENS", [MLV_BLOCK_EXPO] = "EXPO",
                                   [MLV_BLOCK_WBAL] = "WBAL", [MLV_BLOCK_RTCI] = "RTCI"};
    b->type = type;
    memcpy(b->tag, tags[type], 5);
    b->timestamp = at->timestamp;
    return mp_mlv_add_metadata(at->c, b, at->chunk, 0, err);
}

/* The picture's size: LibRaw's, except where it read Canon's sensor borders (which include
 * the right and bottom ones) as excluding them: for raw sizes its table lacks, LibRaw 0.20
 * makes the picture one column and one row smaller than the borders it reports beside it
 * (raw_inset_crop, at the same origin). */
static void picture_size(const libraw_data_t *lr, uint32_t *w, uint32_t *h)
{
    const libraw_image_sizes_t *sz = &lr->sizes;
    const libraw_raw_inset_crop_t *in = &sz->raw_inset_crop;
    int canon_borders = in->cleft == sz->left_margin && in->ctop == sz->top_margin &&
                        in->cwidth == sz->width + 1u && in->cheight == sz->height + 1u &&
                        sz->left_margin + in->cwidth <= sz->raw_width &&
                        sz->top_margin + in->cheight <= sz->raw_height;
    *w = canon_borders ? in->cwidth : sz->width;
    *h = canon_borders ? in->cheight : sz->height;
}

static mp_status add_raw_info(const photo_at *at, const libraw_data_t *lr, mp_error *err)
{
    mlv_block b = {0};
    mp_raw_info *r = &b.u.rawi;
    const libraw_image_sizes_t *sz = &lr->sizes;
    r->width = sz->raw_width;
    r->height = sz->raw_height;
    r->black = black_of(lr);
    r->white = (int32_t)white_of(lr);
    r->bits = bits_for(lr->color.maximum);
    uint32_t w, h;
    picture_size(lr, &w, &h);
    r->active_area[0] = sz->top_margin;
    r->active_area[1] = sz->left_margin;
    r->active_area[2] = (int32_t)(sz->top_margin + h);
    r->active_area[3] = (int32_t)(sz->left_margin + w);
    r->crop_size[0] = (int32_t)w;
    r->crop_size[1] = (int32_t)h;
    r->cfa = cfa_of(lr);
    r->calibration_illuminant = 21;     /* LibRaw's cam_xyz is a D65 matrix */
    for (int i = 0; i < 9; i++)
        r->color_matrix1[i] = (mp_rational){(int32_t)lroundf(lr->color.cam_xyz[i / 3][i % 3] *
                                                             10000.0f), 10000};
    return add_block(at, &b, MLV_BLOCK_RAWI, err);
}

/* EXIF orientation of LibRaw's flip code (0 none, 3 half turn, 5 and 6 quarter turns). */
static uint16_t orientation_of(int flip)
{
    switch (flip) {
    case 3: return 3;
    case 5: return 8;
    case 6: return 6;
    default: return 1;
    }
}

static mp_status add_camera(const photo_at *at, const libraw_data_t *lr, mp_error *err)
{
    mlv_block b = {0};
    mp_camera *cam = &b.u.idnt;
    const char *make = lr->idata.make, *model = lr->idata.model;
    cam->present = 1;
    char name[sizeof lr->idata.make + sizeof lr->idata.model + 1];
    snprintf(name, sizeof name, "%s%s%s", strncmp(model, make, strlen(make)) ? make : "",
             strncmp(model, make, strlen(make)) ? " " : "", model);
    copy_text(cam->name, sizeof cam->name, name);
    /* Canon's model id, the number MLV's IDNT carries, names the body for its colour
     * matrices and focus-pixel lattices; a DNG has none, so its camera's name decides */
    cam->model = (uint32_t)lr->lens.makernotes.CamID;
    if (!cam->model)
        cam->model = mp_camera_model_of_name(cam->name);
    copy_text(cam->serial, sizeof cam->serial, lr->shootinginfo.BodySerial);
    mp_status st = add_block(at, &b, MLV_BLOCK_IDNT, err);

    memset(&b, 0, sizeof b);
    mp_lens *lens = &b.u.lens;
    lens->present = 1;
    lens->focal_mm = (uint16_t)lroundf(lr->other.focal_len);
    lens->aperture_x100 = (uint16_t)lroundf(lr->other.aperture * 100.0f);
    copy_text(lens->name, sizeof lens->name,
              lr->lens.Lens[0] ? lr->lens.Lens : lr->lens.makernotes.Lens);
    if (st == MP_OK)
        st = add_block(at, &b, MLV_BLOCK_LENS, err);

    memset(&b, 0, sizeof b);
    b.u.expo.present = 1;
    b.u.expo.iso = (uint32_t)lroundf(lr->other.iso_speed);
    b.u.expo.shutter_us = (uint64_t)llroundf(lr->other.shutter * 1e6f);
    if (st == MP_OK)
        st = add_block(at, &b, MLV_BLOCK_EXPO, err);
    return st;
}

/* As-shot white balance: LibRaw's multipliers (R, G, B, G2) as Magic Lantern's custom gains,
 * 1024 / multiplier relative to green, which mp_white turns back into the neutral. */
static mp_status add_white_balance(const photo_at *at, const libraw_data_t *lr, mp_error *err)
{
    const float *m = lr->color.cam_mul;
    if (!(m[0] > 0 && m[1] > 0 && m[2] > 0))
        return MP_OK;
    mlv_block b = {0};
    mp_white_balance *wb = &b.u.wbal;
    wb->present = 1;
    wb->mode = MP_WB_MODE_CUSTOM;
    wb->gain_r = (uint32_t)lroundf(1024.0f * m[1] / m[0]);
    wb->gain_g = 1024;
    wb->gain_b = (uint32_t)lroundf(1024.0f * m[1] / m[2]);
    return add_block(at, &b, MLV_BLOCK_WBAL, err);
}

/* LibRaw turns EXIF's DateTimeOriginal into a time_t with mktime (local time); localtime in
 * the same process (LibRaw's child, libraw_child.c) gave the calendar fields back. */
static mp_status add_wall_clock(const photo_at *at, const struct tm *taken, mp_error *err)
{
    if (!taken)
        return MP_OK;
    mlv_block b = {0};
    mp_wall_clock *w = &b.u.rtci;
    w->present = 1;
    w->year = taken->tm_year + 1900;
    w->month = taken->tm_mon + 1;
    w->day = taken->tm_mday;
    w->hour = taken->tm_hour;
    w->minute = taken->tm_min;
    w->second = taken->tm_sec;
    return add_block(at, &b, MLV_BLOCK_RTCI, err);
}

/* The shape LibRaw found, before it allocates for the image: a Bayer mosaic of a size we
 * accept. */
mp_status mp_still_check_shape(const char *name, const libraw_data_t *lr, mp_error *err)
{
    const libraw_image_sizes_t *sz = &lr->sizes;
    if (!sz->raw_width || !sz->raw_height || sz->raw_width > MP_FRAME_MAX_DIM ||
        sz->raw_height > MP_FRAME_MAX_DIM ||
        (uint64_t)sz->raw_width * sz->raw_height > MP_FRAME_MAX_PIXELS ||
        sz->left_margin + sz->width > sz->raw_width || sz->top_margin + sz->height > sz->raw_height)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: offset 0: a %ux%u raw image with a "
                            "%ux%u picture at %u,%u is impossible", name, sz->raw_width,
                            sz->raw_height, sz->width, sz->height, sz->left_margin,
                            sz->top_margin);
    uint32_t cfa = cfa_of(lr);
    if (lr->idata.colors != 3 || lr->idata.filters < 1000 || !mp_cfa_is_bayer(cfa))
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: %s %s is not a Bayer mosaic of red, "
                            "green and blue (not supported)", name, lr->idata.make,
                            lr->idata.model);
    return MP_OK;
}

mp_status mp_still_describe(mlv_clip *c, const libraw_data_t *lr, const struct tm *taken,
                            uint32_t chunk, uint64_t timestamp, mp_error *err)
{
    const photo_at at = {c, chunk, timestamp};
    mp_status st = add_raw_info(&at, lr, err);
    if (st == MP_OK)
        st = add_camera(&at, lr, err);
    if (st == MP_OK)
        st = add_white_balance(&at, lr, err);
    if (st == MP_OK)
        st = add_wall_clock(&at, taken, err);
    mp_photo *ph = &c->info.photo;
    if (st == MP_OK && !ph->present) {
        ph->present = 1;
        copy_text(ph->owner, sizeof ph->owner, lr->other.artist);
        ph->orientation = orientation_of(lr->sizes.flip);
        copy_text(c->info.still_format, sizeof c->info.still_format,
                  lr->idata.dng_version ? "DNG" : "CR2");
    }
    return st;
}
