/* mp_fix_plan_for_levels (fix_plan.h): the dual-ISO levels handed to rawfix in its own
 * terms, since rawfix comes before dualiso and knows nothing of it (doc/architecture.md). */
#include "analysis/fix_plan.h"

mp_status mp_fix_plan_for_levels(const rawfix_map *m, const dualiso_levels *lv, unsigned fixes,
                                 rawfix_plan *p, mp_error *err)
{
    mp_status st = mp_rawfix_plan_make(m, fixes, lv->is_dual, p, err);
    if (st != MP_OK || !lv->is_dual)
        return st;
    const rawfix_field_levels f = {
        .phase = lv->phase,
        .ratio = lv->ratio,
        .black = {lv->black_dark, lv->black_bright},
        .white = {lv->white_dark, lv->white_bright},
        .read_noise = {lv->noise_dark, lv->noise_bright},
        .gain = lv->gain_dark,
    };
    mp_rawfix_plan_set_fields(p, &f);
    return MP_OK;
}
