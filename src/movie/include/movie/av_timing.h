/* movie/av_timing: the movie stream's frame rate, time base and start time code.
 * Rates go through mp_fps_normalise (encode/timecode.h), so 23.976 recorded as 23976/1000
 * becomes exactly 24000/1001 with time base 1001/24000, as in the DNG and WAV outputs; time
 * codes come from the same mp_timecode_from_frames, so a movie starts at the same code as the
 * DNG sequence of the same frames. */
#ifndef MP_AV_TIMING_H
#define MP_AV_TIMING_H

#include <stdint.h>

#include <libavutil/rational.h>

#include "common/mp_status.h"

/* "HH:MM:SS:FF" (";" before FF for drop-frame) and the terminating NUL. */
#define AV_TIMECODE_CHARS 16

/* fps: the normalised rate; time_base: its inverse (one tick per frame). */
mp_status mp_av_stream_rate(uint32_t fps_num, uint32_t fps_den, AVRational *fps,
                         AVRational *time_base, mp_error *err);

/* The code of `frames` frames since 00:00:00:00 at fps (non-drop at round(fps), or drop-frame
 * at 29.97/59.94; hours wrap at 24), as libavformat's "timecode" metadata expects it. */
mp_status mp_av_timecode_string(uint64_t frames, AVRational fps, int drop_frame,
                             char out[AV_TIMECODE_CHARS], mp_error *err);

/* Checks a time code string given by the user: HH:MM:SS:FF with hours < 24, minutes and
 * seconds < 60, frames < round(fps); ";" (or ".") before FF only at 29.97 and 59.94
 * (drop-frame), where labels 00 and 01 do not exist at minutes not divisible by ten. */
mp_status mp_av_timecode_check(const char *tc, AVRational fps, mp_error *err);

#endif
