/* encode/naming: folder and file names of an image sequence (CinemaDNG, TIFF, EXR) and its WAV
 * (doc/cinemadng.md 3). EXT is params.extension ("dng" when NULL).
 * Plain:   CLIP/CLIP_000000.EXT, CLIP/CLIP.wav (6+ digits, absolute 0-based frame number)
 * Resolve: CLIP_1_YYYY-MM-DD_HHMM_C0000/CLIP_1_YYYY-MM-DD_HHMM_C0000_000000.EXT (+ .wav),
 *          date and time of the recording start from RTCI (1970-01-01_0000 without RTCI).
 * Still:   CLIP.EXT in PATH itself (params.still). */
#ifndef MP_NAMING_H
#define MP_NAMING_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_status.h"
#include "encode/sink.h"

/* Longest name these functions produce (without the output directory). */
#define MP_NAME_MAX 256

/* Fails with MP_ERR_ARG when clip_name is empty, ".", "..", or contains '/' or a control
 * character. */
mp_status mp_naming_check(const mp_sink_params *p, mp_error *err);

/* Each writes a NUL-terminated name into out (MP_NAME_MAX bytes). */
void mp_name_folder(const mp_sink_params *p, char *out);
void mp_name_frame(const mp_sink_params *p, uint32_t number, char *out);
void mp_name_audio(const mp_sink_params *p, char *out);

/* What a sequence sink does at open: checks the clip name and the frame rate, creates PATH (if
 * given) and PATH/<folder>, whose path goes into folder (PATH_MAX bytes). */
mp_status mp_sequence_folder_open(const char *path, const mp_sink_params *p, char *folder,
                                  mp_error *err);
/* The path of frame `number`'s file in that folder (PATH_MAX bytes). */
mp_status mp_sequence_frame_path(const char *folder, const mp_sink_params *p, uint32_t number,
                                 char *out, mp_error *err);

/* Joins dir and name into out (size bytes); MP_ERR_ARG if it does not fit. */
mp_status mp_path_join(char *out, size_t size, const char *dir, const char *name,
                       mp_error *err);

#endif
