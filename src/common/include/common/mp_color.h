/* mp_color: the colour of developed pictures, as develop makes them and the sinks tag them
 * (movie/color_tags.h maps these to libavutil's tags, encode/icc_profile.h to an ICC profile,
 * the OpenEXR writer to its chromaticities). The formulas and constants, with their sources,
 * are in doc/colour.md; mp_curves.c and mp_gamuts.c hold them. */
#ifndef MP_COLOR_H
#define MP_COLOR_H

/* Output primaries. */
typedef enum mp_gamut {
    MP_GAMUT_REC709,     /* ITU-R BT.709, D65 */
    MP_GAMUT_REC2020,    /* ITU-R BT.2020, D65 */
    MP_GAMUT_ACES_AP0,   /* ACES 2065-1 (SMPTE ST 2065-1), white ~D60 */
    MP_GAMUT_ACES_AP1,   /* ACEScg / ACEScct (S-2014-004, S-2016-001), white ~D60 */
    MP_GAMUT_DWG,        /* DaVinci Wide Gamut, D65 */
    MP_GAMUT_AWG4,       /* ARRI Wide Gamut 4, D65 */
    MP_GAMUT_VGAMUT,     /* Panasonic V-Gamut, D65 */
    MP_GAMUT_CINEMA,     /* Canon Cinema Gamut, D65 */
    MP_GAMUT_COUNT
} mp_gamut;

/* Transfer curves: scene linear (0.18 = middle grey) -> code value 0..1 (full range: a
 * log curve's 10-bit code value / 1023, as its maker states it). */
typedef enum mp_curve {
    MP_CURVE_LINEAR,
    MP_CURVE_BT709,      /* ITU-R BT.709 OETF */
    MP_CURVE_LOGC3,      /* ARRI LogC3, EI 800 */
    MP_CURVE_SLOG3,      /* Sony S-Log3 */
    MP_CURVE_ACESCCT,    /* ACEScct (S-2016-001) */
    MP_CURVE_DAVINCI,    /* DaVinci Intermediate */
    MP_CURVE_LOGC4,      /* ARRI LogC4 */
    MP_CURVE_VLOG,       /* Panasonic V-Log */
    MP_CURVE_CLOG3,      /* Canon Log 3 */
    MP_CURVE_SRGB,       /* IEC 61966-2-1 sRGB */
    MP_CURVE_COUNT
} mp_curve;

/* The curve in double: scene linear -> code value (negatives are taken as 0). */
double mp_curve_eval(mp_curve c, double x);

/* Its full name ("ARRI LogC4"), for tags and messages. */
const char *mp_curve_name(mp_curve c);

/* CIE 1931 xy of the red, green and blue primaries and the white, in that order. */
void mp_gamut_chromaticities(mp_gamut g, double xy[4][2]);

/* Its full name ("ARRI Wide Gamut 4"). */
const char *mp_gamut_name(mp_gamut g);

#endif
