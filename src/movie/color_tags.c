#include "movie/color_tags.h"

mp_color_tags mp_color_tags_for(mp_gamut g, mp_curve c)
{
    mp_color_tags t = {
        .primaries = AVCOL_PRI_UNSPECIFIED,   /* the camera and ACES gamuts have no tag */
        .transfer = AVCOL_TRC_UNSPECIFIED,    /* nor have the log curves */
        .matrix = AVCOL_SPC_RGB,
        .yuv_matrix = AVCOL_SPC_BT709,        /* coefficients a Y'CbCr sink can state */
        .range = AVCOL_RANGE_JPEG,
        .primaries_name = mp_gamut_name(g),
        .transfer_name = mp_curve_name(c),
    };
    if (g == MP_GAMUT_REC709) {
        t.primaries = AVCOL_PRI_BT709;
    } else if (g == MP_GAMUT_REC2020) {
        t.primaries = AVCOL_PRI_BT2020;
        t.yuv_matrix = AVCOL_SPC_BT2020_NCL;
    }
    if (c == MP_CURVE_LINEAR)
        t.transfer = AVCOL_TRC_LINEAR;
    else if (c == MP_CURVE_BT709)
        t.transfer = g == MP_GAMUT_REC2020 ? AVCOL_TRC_BT2020_10 : AVCOL_TRC_BT709;
    else if (c == MP_CURVE_SRGB)
        t.transfer = AVCOL_TRC_IEC61966_2_1;
    return t;
}
