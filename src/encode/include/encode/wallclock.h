/* encode/wallclock: calendar time of a clip instant from its RTCI block, without the C
 * library's time zone machinery (outputs must not depend on the machine's TZ). */
#ifndef MP_WALLCLOCK_H
#define MP_WALLCLOCK_H

#include <stdint.h>

#include "common/mp_meta.h"

typedef struct mp_civil_time {
    int32_t year, month, day;       /* month 1-12 */
    int32_t hour, minute, second;
} mp_civil_time;

/* The camera's local time at timestamp_us (clip-relative), i.e. the RTCI time shifted by
 * (timestamp_us - wc->timestamp_us), rounded down to the second. Returns 0 (and leaves *out
 * alone) when the clock is absent, its fields are out of range, or the result falls outside
 * the years 1-9999: callers then keep their default. */
int mp_wall_clock_at(const mp_wall_clock *wc, uint64_t timestamp_us, mp_civil_time *out);

/* Days since 1970-01-01 of a proleptic Gregorian date, and back. */
int64_t mp_days_from_civil(int32_t year, int32_t month, int32_t day);
void mp_civil_from_days(int64_t days, int32_t *year, int32_t *month, int32_t *day);

#endif
