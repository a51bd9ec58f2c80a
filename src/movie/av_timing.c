#include "movie/av_timing.h"

#include <stdio.h>
#include <string.h>

#include "encode/timecode.h"

mp_status mp_av_stream_rate(uint32_t fps_num, uint32_t fps_den, AVRational *fps,
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

mp_status mp_av_timecode_string(uint64_t frames, AVRational fps, int drop_frame,
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

mp_status mp_av_timecode_check(const char *tc, AVRational fps, mp_error *err)
{
    unsigned h, m, sec, f;
    char sep;
    int end = 0;
    uint32_t rate = mp_fps_nominal((mp_rational){fps.num, fps.den});
    if (sscanf(tc, "%2u:%2u:%2u%c%3u%n", &h, &m, &sec, &sep, &f, &end) != 5 ||
        tc[end] != 0 || strlen(tc) >= AV_TIMECODE_CHARS)
        return mp_error_set(err, MP_ERR_ARG, "time code \"%.16s\" is not HH:MM:SS:FF", tc);
    int drop = sep == ';' || sep == '.';
    if (!drop && sep != ':')
        return mp_error_set(err, MP_ERR_ARG, "time code \"%.16s\": '%c' before the frames",
                            tc, sep);
    if (drop && (fps.den != 1001 || (fps.num != 30000 && fps.num != 60000)))
        return mp_error_set(err, MP_ERR_ARG, "time code \"%.16s\": drop-frame needs 29.97 or "
                            "59.94 fps, not %d/%d", tc, fps.num, fps.den);
    if (h >= 24 || m >= 60 || sec >= 60 || f >= rate ||
        (drop && sec == 0 && m % 10 != 0 && f < rate / 15))
        return mp_error_set(err, MP_ERR_ARG, "time code \"%.16s\" does not exist at %d/%d fps",
                            tc, fps.num, fps.den);
    return MP_OK;
}
