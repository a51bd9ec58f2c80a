/* One dual-ISO frame reconstructed the way a clip of that one frame would be: detection,
 * statistics and levels pooled blind from the frame itself, then the reconstruction with the
 * default options (the develop and quality tests share it). */
#ifndef MP_TEST_DUALISO_CASE_H
#define MP_TEST_DUALISO_CASE_H

#include "common/mp_frame.h"
#include "common/mp_status.h"
#include "dualiso/dualiso.h"

/* out gets the reconstruction of raw, lv the levels; MP_ERR_FORMAT when raw is not dual. */
mp_status dualiso_case_reconstruct(const mp_frame *raw, mp_frame *out, dualiso_levels *lv,
                                   mp_error *err);

#endif
