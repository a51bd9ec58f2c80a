/* pipeline/stale: before a run writes, the temporaries that killed runs left for the very
 * files it is about to write are removed (common/out_file.h mp_out_sweep): a DNG sequence's
 * selected frames and WAV, or a movie / MD5 list. Files other runs write are left alone. */
#ifndef MP_PIPELINE_STALE_H
#define MP_PIPELINE_STALE_H

#include <stdint.h>

#include "common/mp_status.h"
#include "encode/sink.h"

/* folder: the sequence folder; frame numbers[indices[i]] for i < count are the selected
 * frames; with_audio: the WAV beside them too. */
mp_status mp_stale_sweep_sequence(const char *folder, const mp_sink_params *p,
                                  const uint32_t *indices, const uint32_t *numbers,
                                  uint32_t count, int with_audio, uint32_t *removed,
                                  mp_error *err);
/* One output file; returns how many were removed. */
uint32_t mp_stale_sweep_file(const char *path);

#endif
