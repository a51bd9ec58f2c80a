/* color_tags: how a movie states the colour of developed pictures (common/mp_color.h) in
 * libavutil's terms.
 *
 * BT.709 is tagged BT2020_10 with Rec.2020 primaries, sRGB IEC61966_2_1. The log curves and
 * the gamuts other than Rec.709 and Rec.2020 (ACES, the camera makers') have no libavutil
 * enum (libavutil 57 to 59), nor an ISO/IEC 23091-2 code point: they are tagged UNSPECIFIED
 * and named in transfer_name / primaries_name. */
#ifndef MP_COLOR_TAGS_H
#define MP_COLOR_TAGS_H

#include <libavutil/pixfmt.h>

#include "common/mp_color.h"

typedef struct mp_color_tags {
    enum AVColorPrimaries primaries;
    enum AVColorTransferCharacteristic transfer;
    enum AVColorSpace matrix;       /* AVCOL_SPC_RGB: the developed planes are R'G'B' */
    enum AVColorSpace yuv_matrix;   /* what to tag (and use) if a sink converts to Y'CbCr */
    enum AVColorRange range;        /* AVCOL_RANGE_JPEG: full range */
    const char *primaries_name;     /* e.g. "ACES AP0", static string */
    const char *transfer_name;      /* e.g. "ARRI LogC3 (EI 800)", static string */
} mp_color_tags;

mp_color_tags mp_color_tags_for(mp_gamut g, mp_curve c);

#endif
