/* encode/icc_profile: a small ICC v2 display profile (matrix/TRC: rXYZ, gXYZ, bXYZ, rTRC,
 * gTRC, bTRC, wtpt, desc, cprt) that says what the samples of a developed picture are: its
 * primaries, adapted to the D50 connection space with Bradford, and its curve, inverted into
 * a 256-point table. ICC cannot hold light above its white: scene-linear 1.0 is the profile's
 * white, and a log curve's headroom above it reads as 1.0 (doc/colour.md). */
#ifndef MP_ICC_PROFILE_H
#define MP_ICC_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_color.h"

/* Big enough for every profile mp_icc_profile writes. */
#define MP_ICC_MAX 1280

/* Writes the profile into out; returns its size. */
size_t mp_icc_profile(mp_gamut g, mp_curve c, uint8_t out[MP_ICC_MAX]);

#endif
