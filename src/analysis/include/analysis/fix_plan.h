/* fix_plan: the repair plan of a clip segment, from its defect map and its levels. */
#ifndef MP_FIX_PLAN_H
#define MP_FIX_PLAN_H

#include "dualiso/dualiso.h"
#include "rawfix/rawfix.h"

/* mp_rawfix_plan_make(m, fixes, lv->is_dual, p) and, for dual-ISO levels, the fields' levels
 * (ratio, blacks, whites, noise), so that a site is repaired from both fields (rawfix.h,
 * mp_rawfix_plan_set_fields). */
mp_status mp_fix_plan_for_levels(const rawfix_map *m, const dualiso_levels *lv, unsigned fixes,
                                 rawfix_plan *p, mp_error *err);

#endif
