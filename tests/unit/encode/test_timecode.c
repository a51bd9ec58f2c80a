/* Frame-rate normalisation, SMPTE time codes (non-drop and drop-frame), the wall clock and
 * sequence names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "encode/naming.h"
#include "encode/timecode.h"
#include "encode/wallclock.h"

static void expect_fps(uint32_t num, uint32_t den, int32_t want_num, int32_t want_den)
{
    mp_rational r;
    mp_error err;
    assert_int_equal(mp_fps_normalise(num, den, &r, &err), MP_OK);
    if (r.num != want_num || r.den != want_den)
        fail_msg("%u/%u -> %d/%d, expected %d/%d", num, den, r.num, r.den, want_num, want_den);
}

static void test_fps_table(void **state)
{
    (void)state;
    expect_fps(23976, 1000, 24000, 1001);
    expect_fps(29970, 1000, 30000, 1001);
    expect_fps(59940, 1000, 60000, 1001);
    expect_fps(24975, 1000, 25000, 1001);
    expect_fps(2997, 100, 30000, 1001);
    expect_fps(24000, 1001, 24000, 1001);
    expect_fps(24000, 1000, 24, 1);
    expect_fps(25000, 1000, 25, 1);
    expect_fps(24, 1, 24, 1);          /* integers stay integers */
    expect_fps(50000, 1000, 50, 1);
    expect_fps(12500, 1000, 25, 2);    /* not near k*1000/1001: reduced */
    expect_fps(23950, 1000, 479, 20);  /* 23.95 is not 23.976 */
    expect_fps(29975, 1000, 1199, 40);
    mp_rational r;
    mp_error err;
    assert_int_equal(mp_fps_normalise(0, 1000, &r, &err), MP_ERR_ARG);
    assert_int_equal(mp_fps_normalise(25, 0, &r, &err), MP_ERR_ARG);
    assert_int_equal(mp_fps_nominal((mp_rational){24000, 1001}), 24);
    assert_int_equal(mp_fps_nominal((mp_rational){30000, 1001}), 30);
    assert_int_equal(mp_fps_nominal((mp_rational){25, 2}), 13);

    mp_sink_params p = {.fps_num = 29970, .fps_den = 1000};
    assert_int_equal(mp_sink_fps(&p, &r, &err), MP_OK);
    assert_int_equal(r.num, 30000);
    p.fps_override_num = 25;   /* an override wins, normalised the same way */
    p.fps_override_den = 1;
    assert_int_equal(mp_sink_fps(&p, &r, &err), MP_OK);
    assert_int_equal(r.num, 25);
    assert_int_equal(r.den, 1);
}

static void expect_tc(uint64_t count, mp_rational fps, int df, const char *want)
{
    mp_timecode tc;
    mp_error err;
    assert_int_equal(mp_timecode_from_frames(count, fps, df, &tc, &err), MP_OK);
    char got[32];
    snprintf(got, sizeof got, "%02u:%02u:%02u%c%02u", tc.hours, tc.minutes, tc.seconds,
             df ? ';' : ':', tc.frames);
    if (strcmp(got, want))
        fail_msg("frame %llu -> %s, expected %s", (unsigned long long)count, got, want);
}

static void test_non_drop_frame(void **state)
{
    (void)state;
    mp_rational f23 = {24000, 1001}, f25 = {25, 1};
    expect_tc(0, f23, 0, "00:00:00:00");
    expect_tc(23, f23, 0, "00:00:00:23");
    expect_tc(24, f23, 0, "00:00:01:00");
    expect_tc(24 * 3600 + 5, f23, 0, "01:00:00:05");
    expect_tc(25 * 86400 + 26, f25, 0, "00:00:01:01");   /* hours wrap at 24 */
    expect_tc(25 * (59 * 60 + 59) + 24, f25, 0, "00:59:59:24");
}

static void test_drop_frame(void **state)
{
    (void)state;
    mp_rational f29 = {30000, 1001}, f59 = {60000, 1001};
    expect_tc(1799, f29, 1, "00:00:59;29");
    expect_tc(1800, f29, 1, "00:01:00;02");   /* ;00 and ;01 are skipped */
    expect_tc(3597, f29, 1, "00:01:59;29");
    expect_tc(3598, f29, 1, "00:02:00;02");
    expect_tc(17981, f29, 1, "00:09:59;29");
    expect_tc(17982, f29, 1, "00:10:00;00");  /* every tenth minute keeps its labels */
    expect_tc(107892, f29, 1, "01:00:00;00"); /* 29.97 DF tracks the wall clock hourly */
    expect_tc(3600, f59, 1, "00:01:00;04");
    expect_tc(215784, f59, 1, "01:00:00;00");
    mp_timecode tc;
    mp_error err;
    assert_int_equal(mp_timecode_from_frames(10, (mp_rational){24000, 1001}, 1, &tc, &err),
                     MP_ERR_ARG);
    assert_int_equal(mp_timecode_from_frames(10, (mp_rational){30, 1}, 1, &tc, &err),
                     MP_ERR_ARG);
}

static void test_pack(void **state)
{
    (void)state;
    uint8_t b[8];
    mp_timecode tc = {23, 59, 58, 29, 0};
    mp_timecode_pack(&tc, b);
    assert_memory_equal(b, "\x29\x58\x59\x23\0\0\0\0", 8);
    tc = (mp_timecode){1, 2, 3, 4, 1};
    mp_timecode_pack(&tc, b);
    assert_memory_equal(b, "\x44\x03\x02\x01\0\0\0\0", 8);   /* bit 6: drop frame */
}

static void test_time_of_day_base(void **state)
{
    (void)state;
    mp_sink_params p = {.fps_num = 25, .fps_den = 1, .timecode_time_of_day = 1};
    /* RTCI says 10:20:30 at 2.5 s into the recording: it started at 10:20:27.5, which
     * counts as 10:20:27. */
    p.meta.wall_clock = (mp_wall_clock){.present = 1, .year = 2024, .month = 3, .day = 1,
                                        .hour = 10, .minute = 20, .second = 30,
                                        .timestamp_us = 2500000};
    mp_rational fps = {25, 1};
    assert_int_equal(mp_timecode_base(&p, fps), (10 * 3600 + 20 * 60 + 27) * 25ull);
    mp_timecode tc;
    mp_error err;
    assert_int_equal(mp_sink_timecode(&p, 30, &tc, &err), MP_OK);
    assert_int_equal(tc.hours, 10);
    assert_int_equal(tc.minutes, 20);
    assert_int_equal(tc.seconds, 28);
    assert_int_equal(tc.frames, 5);
    /* Drop-frame at 29.97: a recording that starts at 12:34:55 gets that label at frame 0
     * (counting 30 frames a second instead would label it about 45 s late). */
    p.fps_num = 30000;
    p.fps_den = 1001;
    p.timecode_drop_frame = 1;
    p.meta.wall_clock.hour = 12;
    p.meta.wall_clock.minute = 34;
    p.meta.wall_clock.second = 58;   /* at 2.5 s: started 12:34:55.5 */
    assert_int_equal(mp_sink_timecode(&p, 0, &tc, &err), MP_OK);
    assert_int_equal(tc.drop_frame, 1);
    assert_int_equal(tc.hours, 12);
    assert_int_equal(tc.minutes, 34);
    assert_int_equal(tc.seconds, 55);
    assert_true(tc.frames < 30);
    p.timecode_drop_frame = 0;
    p.fps_num = 25;
    p.fps_den = 1;
    /* The camera writes RTCI 12:34:56 at 1 ms and the first frame at 40 ms: that frame was
     * recorded at 12:34:56 (the header's timestamp 0 falls in 12:34:55). When the clip's
     * first frame is number 5, frame 5 carries that code. */
    p.meta.wall_clock.second = 56;
    p.meta.wall_clock.timestamp_us = 1000;
    p.video_start_us = 40000;
    assert_int_equal(mp_sink_timecode(&p, 0, &tc, &err), MP_OK);
    assert_int_equal(tc.seconds * 100 + tc.frames, 5600);
    p.clip_first_frame = 5;
    assert_int_equal(mp_sink_timecode(&p, 5, &tc, &err), MP_OK);
    assert_int_equal(tc.seconds * 100 + tc.frames, 5600);
    p.clip_first_frame = 0;
    p.video_start_us = 0;
    p.timecode_time_of_day = 0;
    assert_int_equal(mp_timecode_base(&p, fps), 0);
    p.timecode_time_of_day = 1;
    p.meta.wall_clock.present = 0;
    assert_int_equal(mp_timecode_base(&p, fps), 0);
}

static void test_wall_clock(void **state)
{
    (void)state;
    assert_int_equal(mp_days_from_civil(1970, 1, 1), 0);
    assert_int_equal(mp_days_from_civil(2000, 3, 1), 11017);
    assert_int_equal(mp_days_from_civil(1969, 12, 31), -1);
    for (int64_t d = -800000; d < 3000000; d += 997) {
        int32_t y, m, day;
        mp_civil_from_days(d, &y, &m, &day);
        assert_true(m >= 1 && m <= 12 && day >= 1 && day <= 31);
        assert_int_equal(mp_days_from_civil(y, m, day), d);
    }
    mp_wall_clock wc = {.present = 1, .year = 2024, .month = 2, .day = 28, .hour = 23,
                        .minute = 59, .second = 30, .timestamp_us = 10000000};
    mp_civil_time t;
    assert_true(mp_wall_clock_at(&wc, 10000000 + 24 * 3600 * 1000000ull + 30000000, &t));
    assert_int_equal(t.year, 2024);
    assert_int_equal(t.month, 3);   /* 2024 is a leap year: Feb 29 in between */
    assert_int_equal(t.day, 1);
    assert_int_equal(t.hour, 0);
    assert_int_equal(t.minute, 0);
    assert_int_equal(t.second, 0);
    assert_true(mp_wall_clock_at(&wc, 0, &t));   /* before the RTCI block: 10 s earlier */
    assert_int_equal(t.second, 20);
    assert_true(mp_wall_clock_at(&wc, 9999999, &t));   /* 1 us earlier: a whole second */
    assert_int_equal(t.second, 29);

    /* Hostile RTCI values and timestamps: refused, no overflow (UBSan watches). */
    mp_wall_clock bad[] = {
        {.present = 0, .year = 2024, .month = 1, .day = 1},
        {.present = 1, .year = INT32_MAX, .month = 1, .day = 1},
        {.present = 1, .year = 2024, .month = 13, .day = 1},
        {.present = 1, .year = 2024, .month = 1, .day = 0},
        {.present = 1, .year = 2024, .month = 1, .day = 1, .hour = -1},
        {.present = 1, .year = 2024, .month = 1, .day = 1, .second = INT32_MIN},
        {.present = 1, .year = 2024, .month = 1, .day = 1, .timestamp_us = UINT64_MAX},
        {.present = 1, .year = 1, .month = 1, .day = 1, .timestamp_us = 1000000000},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(mp_wall_clock_at(&bad[i], 0, &t));
    assert_false(mp_wall_clock_at(&wc, UINT64_MAX, &t));
    assert_false(mp_wall_clock_at(&wc, (uint64_t)INT64_MAX + 1, &t));
}

static void test_names(void **state)
{
    (void)state;
    mp_sink_params p = {.clip_name = "M01-2345"};
    char name[MP_NAME_MAX];
    mp_name_folder(&p, name);
    assert_string_equal(name, "M01-2345");
    mp_name_frame(&p, 17, name);
    assert_string_equal(name, "M01-2345_000017.dng");
    mp_name_frame(&p, 4294967295u, name);
    assert_string_equal(name, "M01-2345_4294967295.dng");
    p.one_based = 1;
    mp_name_frame(&p, 4294967295u, name);
    assert_string_equal(name, "M01-2345_4294967296.dng");
    mp_name_audio(&p, name);
    assert_string_equal(name, "M01-2345.wav");
    p.naming = MP_NAMING_RESOLVE;
    p.meta.wall_clock = (mp_wall_clock){.present = 1, .year = 2024, .month = 5, .day = 6,
                                        .hour = 14, .minute = 32, .second = 1};
    mp_name_folder(&p, name);
    assert_string_equal(name, "M01-2345_1_2024-05-06_1432_C0000");
    p.one_based = 0;
    mp_name_frame(&p, 3, name);
    assert_string_equal(name, "M01-2345_1_2024-05-06_1432_C0000_000003.dng");
    mp_name_audio(&p, name);
    assert_string_equal(name, "M01-2345_1_2024-05-06_1432_C0000.wav");

    mp_error err;
    assert_int_equal(mp_naming_check(&p, &err), MP_OK);
    static const char *bad[] = {"", ".", "..", "a/b", "tab\there"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(p.clip_name, sizeof p.clip_name, "%s", bad[i]);
        assert_int_equal(mp_naming_check(&p, &err), MP_ERR_ARG);
    }
    memset(p.clip_name, 'x', sizeof p.clip_name);   /* not NUL-terminated */
    assert_int_equal(mp_naming_check(&p, &err), MP_ERR_ARG);
    char path[16];
    assert_int_equal(mp_path_join(path, sizeof path, "dir", "name", &err), MP_OK);
    assert_string_equal(path, "dir/name");
    assert_int_equal(mp_path_join(path, sizeof path, "directory", "longname", &err), MP_ERR_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fps_table),
        cmocka_unit_test(test_non_drop_frame),
        cmocka_unit_test(test_drop_frame),
        cmocka_unit_test(test_pack),
        cmocka_unit_test(test_time_of_day_base),
        cmocka_unit_test(test_wall_clock),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
