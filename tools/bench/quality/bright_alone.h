/* The recovery (bright) field alone, interpolated where it has no rows: the resolution a
 * reconstruction can keep in the shadows without smoothing, where the dark field's samples
 * are all noise (issue 34: shadow detail no lower than this). Its rows as recorded, the dark
 * rows filled with the mean of the same-colour bright rows two above and below (the one
 * there is at the frame's top and bottom), in the output mapping of the levels. */
#ifndef MP_QUALITY_BRIGHT_ALONE_H
#define MP_QUALITY_BRIGHT_ALONE_H

#include "common/mp_frame.h"
#include "common/mp_status.h"
#include "dualiso/dualiso.h"

mp_status qm_bright_field_alone(const mp_frame *raw, const dualiso_levels *lv, mp_frame *out,
                                mp_error *err);

#endif
