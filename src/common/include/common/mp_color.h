/* mp_color: the colour of developed pictures, as develop makes them and the movie sinks tag
 * them (movie/color_tags.h maps these to libavutil's tags). */
#ifndef MP_COLOR_H
#define MP_COLOR_H

/* Output primaries: Rec.709 and Rec.2020 (D65), ACES 2065-1 AP0 (white ~D60). */
typedef enum mp_gamut {
    MP_GAMUT_REC709,
    MP_GAMUT_REC2020,
    MP_GAMUT_ACES_AP0
} mp_gamut;

/* Transfer curves; the formulas are in develop/develop.h. */
typedef enum mp_curve {
    MP_CURVE_LINEAR,
    MP_CURVE_BT709,
    MP_CURVE_LOGC3,
    MP_CURVE_SLOG3
} mp_curve;

#endif
