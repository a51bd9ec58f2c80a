/* mp_color_math: the 3x3 colour matrices of development and of the colour metadata the sinks
 * write (ICC profiles), in double. Rows multiply column vectors: out = m * in. */
#ifndef MP_COLOR_MATH_H
#define MP_COLOR_MATH_H

#include <stdint.h>

#include "common/mp_color.h"

typedef struct mat3 {
    double m[3][3];
} mat3;

mat3 mp_mat3_mul(mat3 a, mat3 b);
void mp_mat3_apply(const mat3 *a, const double in[3], double out[3]);
/* Returns 0 when a is singular (|det| below a relative tolerance). */
int mp_mat3_invert(mat3 a, mat3 *inv);

/* XYZ (Y = 1) of a white given by its CIE xy chromaticity. */
void mp_xy_to_xyz(double x, double y, double xyz[3]);

/* RGB -> XYZ of an output gamut (white maps to the gamut's white with Y = 1), its white. */
mat3 mp_gamut_rgb_to_xyz(mp_gamut g, double white_xyz[3]);

/* XYZ of the DNG CalibrationIlluminant (EXIF LightSource code); unknown codes give D65. */
void mp_illuminant_xyz(int32_t code, double xyz[3]);

/* Bradford chromatic adaptation from white `from` to white `to` (XYZ). */
mat3 mp_bradford(const double from[3], const double to[3]);

/* White-balanced camera RGB -> output RGB. cm = XYZ -> camera (ColorMatrix1), neutral = the
 * camera response to the scene white (1 / the white balance gains). The result maps (1,1,1)
 * to (1,1,1). Returns 0 when cm is singular or the neutral is not a plausible white. */
int mp_camera_to_output(mat3 cm, const double neutral[3], mp_gamut g, mat3 *out);

#endif
