#include "av_timing.h"

#include <stdio.h>

#include "../timecode.h"

mp_status av_stream_rate(uint32_t fps_num, uint32_t fps_den, AVRational *fps,
                         AVRational *time_base, mp_error *err)
{
    mp_rational r;
    mp_status st = mp_fps_normalise(fps_num, fps_den, &r, err);
    if (st != MP_OK)
        return st;
    *fps = (AVRational){r.num, r.den};
    *time_base = (AVRational){r.den, r.num};
    return MP_OK;
}

mp_status av_timecode_string(uint64_t frames, AVRational fps, int drop_frame,
                             char out[AV_TIMECODE_CHARS], mp_error *err)
{
    mp_timecode tc;
    mp_status st = mp_timecode_from_frames(frames, (mp_rational){fps.num, fps.den}, drop_frame,
                                           &tc, err);
    if (st != MP_OK)
        return st;
    /* Frame labels stay below the nominal rate, so they fit 3 digits for any rate libavformat
     * accepts in a time code track; the buffer holds them regardless. */
    snprintf(out, AV_TIMECODE_CHARS, "%02u:%02u:%02u%c%02u", tc.hours, tc.minutes, tc.seconds,
             drop_frame ? ';' : ':', tc.frames % 1000);
    return MP_OK;
}
