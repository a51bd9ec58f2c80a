/* mp_meta: camera and recording metadata in plain structs, decoded from MLV blocks (or the
 * legacy RAW footer) by the reader and consumed by the sinks (DNG tags, WAV, movie metadata).
 * Field meanings follow doc/mlv-format.md section 4; strings are always NUL-terminated. */
#ifndef MP_META_H
#define MP_META_H

#include <stdint.h>

typedef struct mp_rational {
    int32_t num, den;
} mp_rational;

typedef struct mp_raw_info {         /* RAWI */
    uint32_t width, height;          /* recorded frame (xRes, yRes): decode with these */
    uint32_t bits;                   /* bits_per_pixel */
    int32_t black, white;            /* in the stored bit depth */
    int32_t buffer_width, buffer_height, pitch, frame_size; /* full LiveView buffer, informative */
    int32_t crop_origin[2], crop_size[2];   /* x, y / width, height */
    int32_t active_area[4];          /* top, left, bottom, right */
    mp_rational exposure_bias;
    uint32_t cfa;                    /* MP_CFA_* */
    int32_t calibration_illuminant;
    mp_rational color_matrix1[9];    /* XYZ -> camera, DNG ColorMatrix1 */
    int32_t dynamic_range_x100;
    uint32_t api_version;
} mp_raw_info;

typedef struct mp_raw_capture {      /* RAWC */
    int present;
    uint16_t sensor_width, sensor_height, sensor_crop_x100;
    uint8_t binning_x, skipping_x, binning_y, skipping_y;
    int16_t offset_x, offset_y;      /* INT16_MIN when unknown */
} mp_raw_capture;

typedef struct mp_camera {           /* IDNT */
    int present;
    char name[33];
    uint32_t model;
    char serial[33];
} mp_camera;

typedef struct mp_exposure {         /* EXPO */
    int present;
    uint32_t iso_mode, iso, iso_analog;
    int32_t digital_gain;
    uint64_t shutter_us;
} mp_exposure;

/* What a photo's EXIF says that MLV has no block for (stills only). */
typedef struct mp_photo {
    int present;
    char owner[65];                  /* Artist / Canon's owner name */
    uint16_t orientation;            /* EXIF Orientation 1..8 */
} mp_photo;

typedef struct mp_lens {             /* LENS */
    int present;
    uint16_t focal_mm, focus_dist;
    uint16_t aperture_x100;
    uint8_t stabilizer, autofocus;
    uint32_t flags, lens_id;
    char name[33];
    char serial[33];
} mp_lens;

typedef struct mp_white_balance {    /* WBAL */
    int present;
    uint32_t mode, kelvin;
    uint32_t gain_r, gain_g, gain_b; /* 1024 = 1.0 */
    int32_t shift_gm, shift_ba;
} mp_white_balance;

typedef struct mp_wall_clock {       /* RTCI */
    int present;
    int32_t year, month, day;        /* calendar: year e.g. 2024, month 1-12 */
    int32_t hour, minute, second;
    int32_t gmtoff;
    char zone[9];
    uint64_t timestamp_us;           /* block timestamp the clock refers to */
} mp_wall_clock;

typedef struct mp_dual_iso_tag {     /* DISO */
    int present;
    uint32_t mode;                   /* 1 when dual ISO was active in movie mode */
    int32_t iso_value;               /* raw menu index, see doc/mlv-format.md 15.2 */
    uint32_t recovery_iso;           /* decoded recovery ISO, 0 if unknown */
} mp_dual_iso_tag;

typedef struct mp_style {            /* STYL */
    int present;
    uint32_t id;
    int32_t contrast, sharpness, saturation, colortone;
    char name[17];
} mp_style;

typedef struct mp_level_info {       /* ELVL */
    int present;
    int32_t roll_x100, pitch_x100;
} mp_level_info;

typedef struct mp_audio_format {     /* WAVI */
    int present;
    uint16_t format;                 /* 1 = integer PCM */
    uint16_t channels;
    uint32_t sample_rate;
    uint32_t bytes_per_second;
    uint16_t block_align;
    uint16_t bits_per_sample;
} mp_audio_format;

/* The shape of one recorded pixel from RAWC: it covers *across sensor columns and *down
 * sensor rows (binning + skipping on each axis), the pair reduced; 1 x 1 when RAWC is absent
 * or gives no step (doc/mlv-format.md 4.2). */
void mp_raw_capture_pixel_shape(const mp_raw_capture *c, uint32_t *across, uint32_t *down);

/* The image area of a width x height frame: RAWI's active area (top, left, bottom, right)
 * when it lies inside the frame, else the whole frame. Real clips often give the active area
 * of the full LiveView buffer, which does not fit the recorded frame. */
void mp_raw_active_area(const mp_raw_info *raw, uint32_t width, uint32_t height,
                        uint32_t area[4]);

#endif
