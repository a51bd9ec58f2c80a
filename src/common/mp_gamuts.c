/* The output gamuts: the chromaticities their makers publish (doc/colour.md). */
#include "common/mp_color.h"

#include <string.h>

#define D65 {0.3127, 0.3290}
#define ACES_WHITE {0.32168, 0.33767}

static const struct {
    const char *name;
    double xy[4][2];   /* red, green, blue, white */
} gamuts[MP_GAMUT_COUNT] = {
    [MP_GAMUT_REC709] = {"ITU-R BT.709", {{0.640, 0.330}, {0.300, 0.600}, {0.150, 0.060}, D65}},
    [MP_GAMUT_REC2020] = {"ITU-R BT.2020",
                          {{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}, D65}},
    [MP_GAMUT_ACES_AP0] = {"ACES AP0",
                           {{0.7347, 0.2653}, {0.0, 1.0}, {0.0001, -0.0770}, ACES_WHITE}},
    [MP_GAMUT_ACES_AP1] = {"ACES AP1",
                           {{0.713, 0.293}, {0.165, 0.830}, {0.128, 0.044}, ACES_WHITE}},
    [MP_GAMUT_DWG] = {"DaVinci Wide Gamut",
                      {{0.8000, 0.3130}, {0.1682, 0.9877}, {0.0790, -0.1155}, D65}},
    [MP_GAMUT_AWG4] = {"ARRI Wide Gamut 4",
                       {{0.7347, 0.2653}, {0.1424, 0.8576}, {0.0991, -0.0308}, D65}},
    [MP_GAMUT_VGAMUT] = {"Panasonic V-Gamut",
                         {{0.730, 0.280}, {0.165, 0.840}, {0.100, -0.030}, D65}},
    [MP_GAMUT_CINEMA] = {"Canon Cinema Gamut",
                         {{0.740, 0.270}, {0.170, 1.140}, {0.080, -0.100}, D65}},
};

void mp_gamut_chromaticities(mp_gamut g, double xy[4][2])
{
    memcpy(xy, gamuts[(unsigned)g < MP_GAMUT_COUNT ? g : MP_GAMUT_REC709].xy,
           sizeof gamuts[0].xy);
}

const char *mp_gamut_name(mp_gamut g)
{
    return (unsigned)g < MP_GAMUT_COUNT ? gamuts[g].name : "?";
}
