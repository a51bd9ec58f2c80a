#include "encode/timecode.h"

#include "encode/wallclock.h"

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

mp_status mp_fps_normalise(uint32_t num, uint32_t den, mp_rational *out, mp_error *err)
{
    if (num == 0 || den == 0)
        return mp_error_set(err, MP_ERR_ARG, "frame rate %u/%u is not a rate", num, den);
    if (num % den != 0) {
        /* k*1000/1001 for the nearest integer k; accept it when it lies within half a unit
         * of the stored denominator, i.e. the camera rounded exactly that rate. */
        uint64_t k = ((uint64_t)num * 1001 + (uint64_t)den * 500) / ((uint64_t)den * 1000);
        int64_t diff = (int64_t)((uint64_t)num * 1001) - (int64_t)(k * 1000 * den);
        if (k >= 1 && k <= INT32_MAX / 1000 && 2 * (diff < 0 ? -diff : diff) <= 1001) {
            out->num = (int32_t)(k * 1000);
            out->den = 1001;
            return MP_OK;
        }
    }
    uint64_t g = gcd_u64(num, den);
    uint64_t n = num / g, d = den / g;
    if (n > INT32_MAX || d > INT32_MAX)
        return mp_error_set(err, MP_ERR_ARG, "frame rate %u/%u does not fit a DNG SRATIONAL",
                            num, den);
    out->num = (int32_t)n;
    out->den = (int32_t)d;
    return MP_OK;
}

mp_status mp_sink_fps(const mp_sink_params *p, mp_rational *out, mp_error *err)
{
    if (p->fps_override_num || p->fps_override_den)
        return mp_fps_normalise(p->fps_override_num, p->fps_override_den, out, err);
    return mp_fps_normalise(p->fps_num, p->fps_den, out, err);
}

uint32_t mp_fps_nominal(mp_rational fps)
{
    if (fps.num <= 0 || fps.den <= 0)
        return 1;
    uint32_t r = (uint32_t)(((uint64_t)fps.num * 2 + (uint64_t)fps.den) / (2 * (uint64_t)fps.den));
    return r ? r : 1;
}

mp_status mp_timecode_from_frames(uint64_t count, mp_rational fps, int drop_frame,
                                  mp_timecode *out, mp_error *err)
{
    uint64_t rate = mp_fps_nominal(fps);
    if (drop_frame) {
        if (fps.den != 1001 || (fps.num != 30000 && fps.num != 60000))
            return mp_error_set(err, MP_ERR_ARG,
                                "drop-frame time code needs 29.97 or 59.94 fps, not %d/%d",
                                fps.num, fps.den);
        /* Skip D frame labels at the start of every minute except each tenth (SMPTE 12M). */
        uint64_t dropped = rate / 15;
        uint64_t per_10min = 600 * rate - 9 * dropped;
        uint64_t per_min = 60 * rate - dropped;
        uint64_t tens = count / per_10min, rest = count % per_10min;
        uint64_t minutes = rest > dropped ? (rest - dropped) / per_min : 0;
        count += 9 * dropped * tens + dropped * minutes;
    }
    uint64_t seconds = count / rate;
    out->frames = (uint32_t)(count % rate);
    out->seconds = (uint32_t)(seconds % 60);
    out->minutes = (uint32_t)(seconds / 60 % 60);
    out->hours = (uint32_t)(seconds / 3600 % 24);
    out->drop_frame = drop_frame;
    return MP_OK;
}

static uint8_t bcd(uint32_t v)
{
    return (uint8_t)((v / 10) << 4 | (v % 10));
}

void mp_timecode_pack(const mp_timecode *tc, uint8_t out[8])
{
    /* Frame values above 39 (rates over 40 fps) do not fit the 2-bit tens field; SMPTE
     * practice for such rates is to count frame pairs, which readers of the tag do not
     * expect, so the digits are masked as MLV-App does. */
    out[0] = (uint8_t)(bcd(tc->frames) & 0x3F) | (tc->drop_frame ? 0x40 : 0);
    out[1] = bcd(tc->seconds) & 0x7F;
    out[2] = bcd(tc->minutes) & 0x7F;
    out[3] = bcd(tc->hours) & 0x3F;
    out[4] = out[5] = out[6] = out[7] = 0;
}

uint64_t mp_timecode_base(const mp_sink_params *p, mp_rational fps)
{
    mp_civil_time start;
    /* The clip's first frame gets the second it was recorded in. Timestamp 0 (the clip's
     * header) lies before the RTCI block and the first frame, so flooring it labelled the
     * first frame a second early whenever the frame came less than a second after it. */
    if (!p->timecode_time_of_day ||
        !mp_wall_clock_at(&p->meta.wall_clock, p->video_start_us, &start))
        return 0;
    uint64_t seconds = (uint64_t)start.hour * 3600 + (uint64_t)start.minute * 60 +
                       (uint64_t)start.second;
    uint64_t count;
    /* Drop-frame labels follow real time, so the count must too (30000/1001 frames a second,
     * not 30); non-drop codes count nominal frames per labelled second. */
    if (p->timecode_drop_frame)
        count = (seconds * (uint64_t)fps.num + (uint64_t)fps.den / 2) / (uint64_t)fps.den;
    else
        count = seconds * mp_fps_nominal(fps);
    /* Codes are base + absolute frame number: the clip's first frame may not be number 0. */
    return count > p->clip_first_frame ? count - p->clip_first_frame : 0;
}

mp_status mp_sink_timecode(const mp_sink_params *p, uint32_t number, mp_timecode *out,
                           mp_error *err)
{
    mp_rational fps;
    mp_status st = mp_sink_fps(p, &fps, err);
    if (st != MP_OK)
        return st;
    return mp_timecode_from_frames(mp_timecode_base(p, fps) + number, fps,
                                   p->timecode_drop_frame, out, err);
}
