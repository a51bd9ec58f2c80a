/* mp_white: white balance as Magic Lantern records it (WBAL), turned into a camera neutral:
 * the camera RGB response to the scene white, normalised to green = 1 (DNG AsShotNeutral;
 * raw multipliers are its inverse). The method is the one mlv_dump and MLV-App use, so that
 * our DNGs state the same neutral as theirs; README ("White balance") explains it. */
#ifndef MP_WHITE_H
#define MP_WHITE_H

#include <stdint.h>

#include "common/mp_camera_color.h"
#include "common/mp_meta.h"

enum { MP_WB_MODE_AUTO = 0, MP_WB_MODE_SUNNY = 1, MP_WB_MODE_CLOUDY = 2,
       MP_WB_MODE_TUNGSTEN = 3, MP_WB_MODE_FLUORESCENT = 4, MP_WB_MODE_FLASH = 5,
       MP_WB_MODE_CUSTOM = 6, MP_WB_MODE_SHADE = 8, MP_WB_MODE_KELVIN = 9 };

/* Colour temperatures --wb accepts (the daylight-locus fit holds from 2000 K on). */
#define MP_WB_KELVIN_MIN 2000
#define MP_WB_KELVIN_MAX 25000

/* Neutral of a white of `kelvin` on the daylight locus, moved by Canon's white-balance shift
 * (shift_gm: + green / - magenta, shift_ba: + amber / - blue, -9..9 levels), seen through
 * the daylight (D65) matrix of cal. Returns 0 when cal has no matrix or the result is not a
 * plausible white (a component not positive). */
int mp_wb_kelvin_neutral(const mp_color_calib *cal, double kelvin, int32_t shift_gm,
                         int32_t shift_ba, double neutral[3]);

/* The clip's as-shot neutral from WBAL: in custom mode (6) the recorded gains, which ML
 * stores as 1024 / multiplier, so neutral = gain / gain_g; in every other mode the Kelvin
 * value of the mode (mlv_dump's presets for sunny, shade, cloudy, tungsten, fluorescent and
 * flash; the recorded Kelvin for auto and Kelvin) with the shifts, via mp_wb_kelvin_neutral.
 * Returns 0 without WBAL or when no neutral follows (missing matrix, zero gains). */
int mp_wb_as_shot_neutral(const mp_white_balance *wb, const mp_color_calib *cal,
                          double neutral[3]);

#endif
