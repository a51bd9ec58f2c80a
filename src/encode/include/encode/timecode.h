/* encode/timecode: frame rates and SMPTE time codes for CinemaDNG and WAV (doc/cinemadng.md 4).
 * Time codes count frames from a base (00:00:00:00 at frame 0, or the recording's time of
 * day) at the nominal integer rate R = round(fps); non-drop-frame unless asked. */
#ifndef MP_TIMECODE_H
#define MP_TIMECODE_H

#include <stdint.h>

#include "common/mp_meta.h"
#include "common/mp_status.h"
#include "encode/sink.h"

/* Reduces num/den, replacing near-NTSC rates (23976/1000, 2997/100, 24975/1000 ...) by the
 * exact k*1000/1001. Fails (MP_ERR_ARG) on a zero numerator or denominator. */
mp_status mp_fps_normalise(uint32_t num, uint32_t den, mp_rational *out, mp_error *err);

/* The rate every output uses: the override if set, else the normalised recorded rate. */
mp_status mp_sink_fps(const mp_sink_params *p, mp_rational *out, mp_error *err);

/* round(fps), at least 1. */
uint32_t mp_fps_nominal(mp_rational fps);

typedef struct mp_timecode {
    uint32_t hours, minutes, seconds, frames;
    int drop_frame;
} mp_timecode;

/* Converts a frame count since 00:00:00:00 into a code at the nominal rate of fps. Drop-frame
 * needs fps = 30000/1001 or 60000/1001 (MP_ERR_ARG otherwise). Hours wrap at 24. */
mp_status mp_timecode_from_frames(uint64_t count, mp_rational fps, int drop_frame,
                                  mp_timecode *out, mp_error *err);

/* The DNG TimeCodes value: 8 bytes, SMPTE 12M BCD, user bits zero. */
void mp_timecode_pack(const mp_timecode *tc, uint8_t out[8]);

/* Frame count at which absolute frame 0 sits: 0, or with timecode_time_of_day the seconds
 * since midnight at the clip's first frame (RTCI shifted to video_start_us, floored to the
 * second) times the nominal rate (times the real rate, rounded, for drop-frame codes, whose
 * labels follow real time), less clip_first_frame. */
uint64_t mp_timecode_base(const mp_sink_params *p, mp_rational fps);

/* The code of absolute frame `number` under the params (base, drop-frame). */
mp_status mp_sink_timecode(const mp_sink_params *p, uint32_t number, mp_timecode *out,
                           mp_error *err);

#endif
