/* mp_rawfix_prior: the focus-pixel lattice a camera and video mode are known to have
 * (rawfix.h), as facts published by the Magic Lantern community: Daniel Fort's study of the
 * EOS M / 100D / 650D / 700D focus pixels (bitbucket daniel_fort/ml-focus-pixels) as MLV-App
 * generates its maps from them (src/mlv/llrawproc/pixelproc.c, "normal" modes; read for the
 * facts, written here in our own form; see doc/rawfix.md). In the camera's full LiveView
 * buffer (RAWI raw_info width x height, the left optical black 72 columns wide) the pixels
 * lie on rows first_row .. last_row with row % period_y == row_residue, at columns >= 72 with
 * column % period_x == column_residue; the recorded frame starts at
 * ((pan_x + 7) & ~7, pan_y & ~1) of that buffer. The video mode follows from the buffer's
 * size: 1808 wide is mv720 (under 900 rows) or mv1080, 1872 mv1080crop, 2592 the 5x zoom. */
#include <string.h>

#include "rawfix_priv.h"

enum { EOSM = 0x80000331, EOS_100D = 0x80000346, EOS_650D = 0x80000301, EOS_700D = 0x80000326 };

typedef struct prior_mode {
    uint32_t buffer_width;
    int tall;                       /* 1: 900 rows or more (mv1080), 0: fewer, -1: any */
    int model_100d;                 /* 1: the 100D's own layout, 0: EOS M / 650D / 700D */
    uint32_t first_row, last_row, period_x, period_y, count;
    uint8_t site[12][2];            /* row residue, column residue */
} prior_mode;

static const prior_mode modes[] = {
    /* mv720 */
    {1808, 0, 0, 290, 465, 8, 12, 4, {{9, 1}, {8, 2}, {3, 5}, {2, 6}}},
    {1808, 0, 1, 86, 669, 8, 12, 4, {{9, 1}, {8, 2}, {3, 5}, {2, 6}}},
    /* mv1080 */
    {1808, 1, 0, 459, 755, 8, 10, 4, {{0, 0}, {9, 7}, {5, 3}, {4, 4}}},
    {1808, 1, 1, 119, 1095, 8, 10, 4, {{0, 0}, {9, 7}, {5, 3}, {4, 4}}},
    /* mv1080crop */
    {1872, -1, 0, 121, 1013, 24, 60, 12,
     {{53, 5}, {49, 11}, {48, 6}, {46, 12}, {34, 0}, {31, 23}, {23, 17}, {19, 11}, {18, 18},
      {16, 12}, {4, 0}, {1, 23}}},
    {1872, -1, 1, 29, 1057, 12, 6, 4, {{4, 0}, {1, 11}, {0, 6}, {5, 5}}},
    /* 5x zoom */
    {2592, -1, 0, 31, 1103, 24, 60, 12,
     {{53, 5}, {49, 11}, {48, 6}, {46, 12}, {34, 0}, {31, 23}, {23, 17}, {19, 11}, {18, 18},
      {16, 12}, {4, 0}, {1, 23}}},
    {2592, -1, 1, 28, 1105, 12, 6, 4, {{4, 0}, {1, 11}, {0, 6}, {5, 5}}},
};

#define BUFFER_LEFT_OB 72u          /* the pattern starts at this buffer column */

static uint32_t residue(int64_t v, uint32_t period)
{
    int64_t r = v % (int64_t)period;
    return (uint32_t)(r < 0 ? r + period : r);
}

int mp_rawfix_prior(uint32_t camera_model, uint32_t buffer_width, uint32_t buffer_height,
                    uint32_t pan_x, uint32_t pan_y, uint32_t width, uint32_t height,
                    rawfix_lattice *out)
{
    memset(out, 0, sizeof *out);
    if (camera_model != EOSM && camera_model != EOS_100D && camera_model != EOS_650D &&
        camera_model != EOS_700D)
        return 0;
    const int is_100d = camera_model == EOS_100D, tall = buffer_height >= 900;
    const prior_mode *m = NULL;
    for (size_t k = 0; k < sizeof modes / sizeof *modes && !m; k++)
        if (modes[k].buffer_width == buffer_width && modes[k].model_100d == is_100d &&
            (modes[k].tall < 0 || modes[k].tall == tall))
            m = &modes[k];
    if (!m)
        return 0;
    const int64_t crop_x = (pan_x + 7) & ~7u, crop_y = pan_y & ~1u;
    int64_t x0 = (int64_t)BUFFER_LEFT_OB - crop_x, y0 = (int64_t)m->first_row - crop_y;
    int64_t y1 = (int64_t)m->last_row + 1 - crop_y;
    if (y1 <= 0 || y0 >= (int64_t)height || x0 >= (int64_t)width)
        return 0;   /* the frame holds none of it */
    out->period_x = m->period_x;
    out->period_y = m->period_y;
    out->x0 = x0 > 0 ? (uint32_t)x0 : 0;
    out->y0 = y0 > 0 ? (uint32_t)y0 : 0;
    out->x1 = width;
    out->y1 = y1 < (int64_t)height ? (uint32_t)y1 : height;
    out->class_count = m->count;
    for (uint32_t k = 0; k < m->count; k++) {
        out->class_y[k] = residue((int64_t)m->site[k][0] - crop_y, m->period_y);
        out->class_x[k] = residue((int64_t)m->site[k][1] - crop_x, m->period_x);
    }
    return 1;
}
