#include "movie/color_tags.h"

mp_color_tags mp_color_tags_for(mp_gamut g, mp_curve c)
{
    static const char *const primaries_names[] = {"ITU-R BT.709", "ITU-R BT.2020", "ACES AP0"};
    static const char *const transfer_names[] = {"linear", "ITU-R BT.709",
                                                 "ARRI LogC3 (EI 800)", "Sony S-Log3"};
    mp_color_tags t = {
        .matrix = AVCOL_SPC_RGB,
        .range = AVCOL_RANGE_JPEG,
        .primaries_name = primaries_names[g],
        .transfer_name = transfer_names[c],
    };
    switch (g) {
    case MP_GAMUT_REC709:
        t.primaries = AVCOL_PRI_BT709;
        t.yuv_matrix = AVCOL_SPC_BT709;
        break;
    case MP_GAMUT_REC2020:
        t.primaries = AVCOL_PRI_BT2020;
        t.yuv_matrix = AVCOL_SPC_BT2020_NCL;
        break;
    case MP_GAMUT_ACES_AP0:
        t.primaries = AVCOL_PRI_UNSPECIFIED; /* libavutil 57 has no ACES primaries */
        t.yuv_matrix = AVCOL_SPC_BT709;      /* coefficients a Y'CbCr sink can state */
        break;
    }
    switch (c) {
    case MP_CURVE_LINEAR: t.transfer = AVCOL_TRC_LINEAR; break;
    case MP_CURVE_BT709:
        t.transfer = g == MP_GAMUT_REC2020 ? AVCOL_TRC_BT2020_10 : AVCOL_TRC_BT709;
        break;
    case MP_CURVE_LOGC3:
    case MP_CURVE_SLOG3: t.transfer = AVCOL_TRC_UNSPECIFIED; break;
    }
    return t;
}
