/* mp_rawfix_priors: the focus-pixel lattices a camera and video mode are known to have
 * (rawfix.h), from facts the Magic Lantern community published (doc/rawfix.md "Focus-pixel
 * layouts (priors)" gives the source of every entry; written here in our own form).
 *
 * A layout is in the camera's full LiveView buffer (RAWI raw_info width x height, the left
 * optical black 72 columns wide): focus pixels lie on rows first_row .. last_row with
 * row % period_y == site[k][0] and on columns from 72 on with column % period_x ==
 * site[k][1]. A mode is chosen by the camera (IDNT cameraModel) and the buffer's size. The
 * recorded frame starts at ((pan_x + 7) & ~7, pan_y & ~1) of the buffer; since recorders
 * round that position in different ways (mlv_rec wrote cropPosY rounded up to 8 rows,
 * MLV-App's EOS M mv1080crop map sits 8 columns right of the generated one), each layout is
 * offered at that origin and moved by the offsets that rounding can make, and the clip picks
 * the one its pixels confirm (prior_check.c). */
#include <string.h>

#include "rawfix_priv.h"

enum {
    EOSM = 0x80000331, EOSM2 = 0x80000355, EOS_100D = 0x80000346, EOS_650D = 0x80000301,
    EOS_700D = 0x80000326
};

/* The two sensors: the 650D / 700D / EOS M one, and the 100D / EOS M2 one, whose focus pixels
 * cover a larger area and other cells in the crop modes. */
enum { SENSOR_A = 1, SENSOR_B = 2 };

#define LAST_ROW 0xffffu            /* to the buffer's last row */
#define PATTERN_LEFT 72u            /* the pattern starts at this buffer column */

typedef struct layout {
    uint16_t period_x, period_y;
    uint16_t first_row, last_row;
    uint8_t count;
    uint8_t site[RAWFIX_MAX_CLASSES][2];    /* row residue, column residue */
} layout;

static const layout mv720_a = {8, 12, 290, 465, 4, {{9, 1}, {8, 2}, {3, 5}, {2, 6}}};
static const layout mv720_b = {8, 12, 86, 669, 4, {{9, 1}, {8, 2}, {3, 5}, {2, 6}}};
static const layout croprec_a = {8, 10, 219, 515, 4, {{0, 0}, {9, 7}, {5, 3}, {4, 4}}};
static const layout croprec_b = {8, 10, 28, 724, 4, {{0, 0}, {9, 7}, {5, 3}, {4, 4}}};
static const layout mv1080_a = {8, 10, 459, 755, 4, {{0, 0}, {9, 7}, {5, 3}, {4, 4}}};
static const layout mv1080_b = {8, 10, 119, 1095, 4, {{0, 0}, {9, 7}, {5, 3}, {4, 4}}};
#define CROP_A_SITES                                                                          \
    {{53, 5}, {49, 11}, {48, 6}, {46, 12}, {34, 0}, {31, 23}, {23, 17}, {19, 11}, {18, 18},   \
     {16, 12}, {4, 0}, {1, 23}}
static const layout crop_a = {24, 60, 121, 1013, 12, CROP_A_SITES};
static const layout crop_a_1059 = {24, 60, 121, 1013, 12,
                                   {{53, 13}, {49, 19}, {48, 14}, {46, 20}, {34, 8}, {31, 7},
                                    {23, 1}, {19, 19}, {18, 2}, {16, 20}, {4, 8}, {1, 7}}};
static const layout crop_b = {12, 6, 29, 1057, 4, {{4, 0}, {1, 11}, {0, 6}, {5, 5}}};
static const layout zoom_a = {24, 60, 31, LAST_ROW, 12, CROP_A_SITES};
static const layout zoom_b = {12, 6, 28, LAST_ROW, 4, {{4, 0}, {1, 11}, {0, 6}, {5, 5}}};
static const layout zoom_b_1332 = {12, 6, 28, LAST_ROW, 8,
                                   {{4, 0}, {1, 11}, {0, 6}, {5, 5},
                                    {4, 8}, {1, 7}, {0, 2}, {5, 1}}};

typedef struct mode {
    uint32_t model;                 /* 0: every camera of the sensors below */
    uint32_t buffer_width, min_height, max_height;
    const layout *sensor_a, *sensor_b;
} mode;

/* A camera's own map of a buffer comes first and replaces the general ones. Where several
 * general modes fit one buffer, in order of preference: a 1808 x < 900 buffer is mv720 or
 * the crop_rec module's 1:1 mode, which adds (EOS M, 650D, 100D) or has alone (700D) the
 * mv1080 lattice on other rows; a map holds one lattice, so the clip picks the one it
 * confirms. */
static const mode modes[] = {
    {EOSM, 1872, 1059, 1059, &crop_a_1059, NULL},              /* mv1080crop, 1059 rows */
    {EOS_100D, 2592, 1332, 1332, NULL, &zoom_b_1332},          /* 5x zoom, 1332 rows */
    {0, 1808, 0, 899, &mv720_a, &mv720_b},                      /* mv720 */
    {0, 1808, 0, 899, &croprec_a, &croprec_b},                  /* crop_rec 1:1 */
    {0, 1808, 900, UINT32_MAX, &mv1080_a, &mv1080_b},           /* mv1080 */
    {0, 1872, 0, UINT32_MAX, &crop_a, &crop_b},                 /* mv1080crop */
    {0, 2592, 0, UINT32_MAX, &zoom_a, &zoom_b},                 /* 5x zoom */
};

static unsigned sensor_of(uint32_t model)
{
    switch (model) {
    case EOSM: case EOS_650D: case EOS_700D: return SENSOR_A;
    case EOS_100D: case EOSM2: return SENSOR_B;
    default: return 0;
    }
}

static uint32_t residue(int64_t v, uint32_t period)
{
    int64_t r = v % (int64_t)period;
    return (uint32_t)(r < 0 ? r + period : r);
}

/* Layout l in a width x height frame starting at buffer (crop_x, crop_y): 0 when the frame
 * holds none of it. */
static int place(const layout *l, uint32_t buffer_height, int64_t crop_x, int64_t crop_y,
                 uint32_t width, uint32_t height, rawfix_lattice *out)
{
    const int64_t last = l->last_row == LAST_ROW ? (int64_t)buffer_height - 1 : l->last_row;
    const int64_t x0 = (int64_t)PATTERN_LEFT - crop_x, y0 = (int64_t)l->first_row - crop_y;
    const int64_t y1 = last + 1 - crop_y;
    if (y1 <= 0 || y0 >= (int64_t)height || x0 >= (int64_t)width || y0 >= y1)
        return 0;
    memset(out, 0, sizeof *out);
    out->period_x = l->period_x;
    out->period_y = l->period_y;
    out->x0 = x0 > 0 ? (uint32_t)x0 : 0;
    out->y0 = y0 > 0 ? (uint32_t)y0 : 0;
    out->x1 = width;
    out->y1 = y1 < (int64_t)height ? (uint32_t)y1 : height;
    out->class_count = l->count;
    for (uint32_t k = 0; k < l->count; k++) {
        out->class_y[k] = residue((int64_t)l->site[k][0] - crop_y, l->period_y);
        out->class_x[k] = residue((int64_t)l->site[k][1] - crop_x, l->period_x);
    }
    return 1;
}

/* The window's offsets from its recorded origin tried: none first, then the rounding of x to
 * 8 columns either way, and of y by up to 6 rows (cropPosY rounded up to 8 by mlv_rec),
 * nearest first; even rows and multiples of 8 columns keep the colours. */
static const int8_t offsets[][2] = {
    {0, 0}, {0, -2}, {0, 2}, {-8, 0}, {8, 0}, {-8, -2}, {-8, 2}, {8, -2}, {8, 2},
    {0, -4}, {0, 4}, {-8, -4}, {-8, 4}, {8, -4}, {8, 4},
    {0, -6}, {0, 6}, {-8, -6}, {-8, 6}, {8, -6}, {8, 6},
};

static int known(const rawfix_lattice *l, const rawfix_lattice *out, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        if (!memcmp(&out[k], l, sizeof *l))
            return 1;
    return 0;
}

uint32_t mp_rawfix_priors(uint32_t camera_model, uint32_t buffer_width, uint32_t buffer_height,
                          uint32_t pan_x, uint32_t pan_y, uint32_t width, uint32_t height,
                          rawfix_lattice *out, uint32_t max)
{
    const unsigned sensor = sensor_of(camera_model);
    if (!sensor)
        return 0;
    const int64_t crop_x = (pan_x + 7) & ~7u, crop_y = pan_y & ~1u;
    uint32_t n = 0;
    for (size_t k = 0; k < sizeof modes / sizeof *modes; k++) {
        const mode *m = &modes[k];
        const layout *l = sensor == SENSOR_A ? m->sensor_a : m->sensor_b;
        if (!l || m->buffer_width != buffer_width || buffer_height < m->min_height ||
            buffer_height > m->max_height || (m->model && m->model != camera_model))
            continue;
        for (size_t j = 0; j < sizeof offsets / sizeof *offsets && n < max; j++) {
            rawfix_lattice c;
            if (place(l, buffer_height, crop_x + offsets[j][0], crop_y + offsets[j][1], width,
                      height, &c) && !known(&c, out, n))
                out[n++] = c;
        }
        if (m->model)
            break;
    }
    return n;
}
