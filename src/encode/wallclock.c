#include "encode/wallclock.h"

/* Howard Hinnant's era-based algorithm: exact for every proleptic Gregorian date. */
int64_t mp_days_from_civil(int32_t year, int32_t month, int32_t day)
{
    int64_t y = (int64_t)year - (month <= 2);
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void mp_civil_from_days(int64_t days, int32_t *year, int32_t *month, int32_t *day)
{
    days += 719468;
    int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    int64_t doe = days - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int32_t d = (int32_t)(doy - (153 * mp + 2) / 5 + 1);
    int32_t m = (int32_t)(mp < 10 ? mp + 3 : mp - 9);
    *year = (int32_t)(yoe + era * 400 + (m <= 2));
    *month = m;
    *day = d;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int mp_wall_clock_at(const mp_wall_clock *wc, uint64_t timestamp_us, mp_civil_time *out)
{
    /* RTCI comes from the file: check every field before any arithmetic on it. */
    if (!wc->present || wc->year < 1 || wc->year > 9999 || wc->month < 1 || wc->month > 12 ||
        wc->day < 1 || wc->day > 31 || wc->hour < 0 || wc->hour > 23 || wc->minute < 0 ||
        wc->minute > 59 || wc->second < 0 || wc->second > 60)
        return 0;
    /* Clip timestamps span hours; anything beyond ~30 years is damage. */
    const uint64_t limit = 1000000000000000ull;
    if (timestamp_us > limit || wc->timestamp_us > limit)
        return 0;
    int64_t seconds = mp_days_from_civil(wc->year, wc->month, wc->day) * 86400 +
                      (int64_t)wc->hour * 3600 + (int64_t)wc->minute * 60 + wc->second;
    /* RTCI seconds have no fraction: the block time stands for the start of its second. */
    int64_t delta_us = (int64_t)timestamp_us - (int64_t)wc->timestamp_us;
    seconds += floor_div(delta_us, 1000000);
    mp_civil_time t;
    int64_t days = floor_div(seconds, 86400);
    int64_t rest = seconds - days * 86400;
    mp_civil_from_days(days, &t.year, &t.month, &t.day);
    if (t.year < 1 || t.year > 9999)
        return 0;
    t.hour = (int32_t)(rest / 3600);
    t.minute = (int32_t)(rest / 60 % 60);
    t.second = (int32_t)(rest % 60);
    *out = t;
    return 1;
}
