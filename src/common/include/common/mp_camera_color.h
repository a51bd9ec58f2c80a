/* mp_camera_color: which colour matrices describe a clip's camera. Canon bodies that record
 * Magic Lantern raw video are looked up (IDNT model id, then name) in a table of Adobe DNG
 * Converter matrices for two illuminants; any other camera falls back to the single matrix
 * in RAWI. The result is what a DNG states as ColorMatrix1/2 + CalibrationIlluminant1/2 and
 * what white balance (mp_white.h) and development use. */
#ifndef MP_CAMERA_COLOR_H
#define MP_CAMERA_COLOR_H

#include <stdint.h>

#include "common/mp_meta.h"

enum { MP_ILLUMINANT_DAYLIGHT = 1, MP_ILLUMINANT_STANDARD_A = 17, MP_ILLUMINANT_D65 = 21 };

typedef struct mp_color_calib {
    uint32_t count;                  /* matrices: 0 none, 1 (RAWI), 2 (table: A, then D65) */
    int32_t illuminant[2];           /* EXIF LightSource codes */
    mp_rational matrix[2][9];        /* XYZ -> camera, row-major (DNG ColorMatrixN) */
    const char *table_name;          /* the table's model name, NULL for the RAWI fallback */
} mp_color_calib;

/* Fills out for this camera (cam may be NULL or not present) and RAWI; returns out->count.
 * A RAWI matrix that is all zero or has a zero denominator counts as absent. */
uint32_t mp_color_calib_resolve(const mp_camera *cam, const mp_raw_info *raw,
                                mp_color_calib *out);

/* The model id (IDNT cameraModel) of the body the table lists under this name, 0 for none:
 * for a DNG still, which names its camera but carries no Canon model id. */
uint32_t mp_camera_model_of_name(const char *name);

/* Index of the matrix calibrated nearest to daylight (D65 when the table has it). */
uint32_t mp_color_calib_daylight_index(const mp_color_calib *cal);

/* The matrix as doubles. */
void mp_color_calib_matrix(const mp_color_calib *cal, uint32_t index, double m[3][3]);

#endif
