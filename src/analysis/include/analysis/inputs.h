/* analysis/inputs: the files a run reads, marked so that no output of the run can replace
 * them (common/out_file.h, mp_out_protect): every chunk of the clip and a levels sidecar. */
#ifndef MP_INPUTS_H
#define MP_INPUTS_H

#include "common/mp_status.h"
#include "reader/mlv_reader.h"

/* Protects each chunk file of clip and, when not NULL, the file at levels_path. */
mp_status mp_protect_inputs(const mlv_clip *clip, const char *levels_path, mp_error *err);

#endif
