/* frames: frames on demand. A clip opened once, with convert's options, and then any item of
 * the folder `convert CLIP -o OUT` would write, as bytes, from any thread, in any order:
 * items 0..count-1 are the DNG files of the selected frames in frame order (frames the index
 * already knows to be damaged left out), then the WAV when convert writes one. Names and
 * sizes are exact before anything is rendered; a frame's bytes come from the code convert
 * writes its files with (pipeline/job.h mp_job_frame, encode/dng.h), so they are the same.
 *
 * The clip is indexed at open; its analysis (levels and defect maps: pipeline/job.h
 * mp_job_analyse, through the levels cache when one is given) runs at the first call
 * that needs it (a frame's size or bytes), once. Only uncompressed DNG: an LJ92 file's size
 * is known only once it is encoded (MP_ERR_UNSUPPORTED at open). */
#ifndef MP_FRAMES_H
#define MP_FRAMES_H

#include <stdint.h>

#include "common/mp_status.h"
#include "pipeline/convert.h"

typedef struct mp_frames mp_frames;

/* o->format must be "dng" (or NULL); o and its strings must outlive the handle.
 * levels_cache: the folder whose levels/ subfolder keeps each clip's analysis, so that a
 * second open skips the pre-pass (NULL: none). */
mp_status mp_frames_open(mp_frames **out, const mp_convert_options *o,
                         const char *levels_cache, mp_error *err);
void mp_frames_close(mp_frames *f);

uint32_t mp_frames_count(const mp_frames *f);
/* 1 when item i is the WAV (the last item), 0 for a frame. */
int mp_frames_is_audio(const mp_frames *f, uint32_t item);
/* The sequence folder's name and item i's file name (MP_NAME_MAX bytes, encode/naming.h). */
void mp_frames_folder(const mp_frames *f, char *out);
void mp_frames_name(const mp_frames *f, uint32_t item, char *out);
/* Item i's file size. MP_ERR_DAMAGED: the frame turned out damaged when it was rendered
 * (logged then), and is no longer part of the folder; the analysis' error when it failed. */
mp_status mp_frames_size(mp_frames *f, uint32_t item, uint64_t *size, mp_error *err);
/* n bytes of item i from offset (within its size) into buf. A whole frame (offset 0, n its
 * size) is rendered straight into buf. Thread-safe. */
mp_status mp_frames_read(mp_frames *f, uint32_t item, uint64_t offset, void *buf, size_t n,
                         mp_error *err);

#endif
