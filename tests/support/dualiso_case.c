#include "dualiso_case.h"

mp_status dualiso_case_reconstruct(const mp_frame *raw, mp_frame *out, dualiso_levels *lv,
                                   mp_error *err)
{
    dualiso_detection det;
    dualiso_stats stats;
    dualiso_pool_options po;
    mp_status st = mp_dualiso_detect(raw, &det, err);
    if (st == MP_OK && !det.is_dual)
        st = mp_error_set(err, MP_ERR_FORMAT, "frame %u: dual ISO not detected", raw->number);
    if (st == MP_OK)
        st = mp_dualiso_stats_collect(raw, det.phase, &stats, err);
    mp_dualiso_pool_options_default(&po);
    if (st == MP_OK)
        st = mp_dualiso_levels_pool(&stats, 1, &po, lv, err);
    if (st != MP_OK)
        return st;
    dualiso_workspace *ws = mp_dualiso_workspace_new();
    if (!ws)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    st = mp_dualiso_reconstruct(raw, lv, NULL, ws, out, err);
    mp_dualiso_workspace_free(ws);
    return st;
}
