/* Stream rate and time base from recorded rates; start time code strings; the strings parse
 * back in libavutil (what the MOV/Matroska muxers use) to the same frame count; user-given
 * strings are validated. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <libavutil/timecode.h>

#include "movie/av_timing.h"

static void expect_rate(uint32_t num, uint32_t den, int fps_num, int fps_den)
{
    AVRational fps, tb;
    mp_error err;
    assert_int_equal(mp_av_stream_rate(num, den, &fps, &tb, &err), MP_OK);
    if (fps.num != fps_num || fps.den != fps_den || tb.num != fps_den || tb.den != fps_num)
        fail_msg("%u/%u -> fps %d/%d time base %d/%d, expected fps %d/%d time base %d/%d", num,
                 den, fps.num, fps.den, tb.num, tb.den, fps_num, fps_den, fps_den, fps_num);
}

static void test_time_base(void **state)
{
    (void)state;
    expect_rate(23976, 1000, 24000, 1001);    /* 23.976 -> time base 1001/24000 */
    expect_rate(24000, 1001, 24000, 1001);
    expect_rate(2997, 100, 30000, 1001);
    expect_rate(29970, 1000, 30000, 1001);
    expect_rate(59940, 1000, 60000, 1001);
    expect_rate(25000, 1000, 25, 1);          /* time base 1/25 */
    expect_rate(24, 1, 24, 1);
    expect_rate(50, 1, 50, 1);
    expect_rate(48000, 1000, 48, 1);
    expect_rate(12500, 1000, 25, 2);          /* 12.5 fps: 2/25 */
    AVRational fps, tb;
    mp_error err;
    assert_int_equal(mp_av_stream_rate(0, 1, &fps, &tb, &err), MP_ERR_ARG);
    assert_int_equal(mp_av_stream_rate(24, 0, &fps, &tb, &err), MP_ERR_ARG);
}

static void expect_tc(uint64_t frames, AVRational fps, int drop, const char *want)
{
    char tc[AV_TIMECODE_CHARS];
    mp_error err;
    assert_int_equal(mp_av_timecode_string(frames, fps, drop, tc, &err), MP_OK);
    if (strcmp(tc, want))
        fail_msg("%llu frames at %d/%d%s -> %s, expected %s", (unsigned long long)frames,
                 fps.num, fps.den, drop ? " DF" : "", tc, want);
    /* libavutil reads it back to the same frame count (below 24 h). */
    AVTimecode parsed;
    assert_true(av_timecode_init_from_string(&parsed, fps, tc, NULL) >= 0);
    assert_int_equal(parsed.start, (int)(frames % ((uint64_t)parsed.fps * 86400)));
}

static void test_timecode_strings(void **state)
{
    (void)state;
    const AVRational r24 = {24, 1}, r23 = {24000, 1001}, r25 = {25, 1}, r2997 = {30000, 1001},
                     r5994 = {60000, 1001}, r50 = {50, 1};
    expect_tc(0, r24, 0, "00:00:00:00");
    expect_tc(23, r24, 0, "00:00:00:23");
    expect_tc(24, r24, 0, "00:00:01:00");
    expect_tc(86400 * 24 - 1, r24, 0, "23:59:59:23");
    expect_tc(1438, r23, 0, "00:00:59:22");           /* nominal 24, no drop at 23.976 */
    expect_tc(3600 * 24, r23, 0, "01:00:00:00");
    expect_tc(90000, r25, 0, "01:00:00:00");
    expect_tc(123456, r50, 0, "00:41:09:06");
    expect_tc(1800, r2997, 1, "00:01:00;02");          /* drop-frame skips ;00 and ;01 */
    expect_tc(17982, r2997, 1, "00:10:00;00");         /* but not at each tenth minute */
    expect_tc(1799, r2997, 0, "00:00:59:29");
    expect_tc(3600, r5994, 1, "00:01:00;04");
    /* Hours wrap at 24 as in the DNG TimeCodes. */
    char tc[AV_TIMECODE_CHARS];
    assert_int_equal(mp_av_timecode_string(86400 * 25 + 26, r25, 0, tc, NULL), MP_OK);
    assert_string_equal(tc, "00:00:01:01");
    /* Drop-frame only at 29.97 and 59.94. */
    mp_error err;
    assert_int_equal(mp_av_timecode_string(0, r25, 1, tc, &err), MP_ERR_ARG);
}

static void test_timecode_check(void **state)
{
    (void)state;
    const AVRational r24 = {24, 1}, r2997 = {30000, 1001}, r50 = {50, 1};
    const char *good24[] = {"00:00:00:00", "01:00:00:00", "23:59:59:23"};
    for (int i = 0; i < 3; i++)
        assert_int_equal(mp_av_timecode_check(good24[i], r24, NULL), MP_OK);
    const char *bad24[] = {"24:00:00:00", "00:60:00:00", "00:00:60:00", "00:00:00:24",
                           "0:0:0", "01:00:00:00x", "01-00-00-00", "01:00:00;00", ""};
    for (int i = 0; i < 9; i++) {
        mp_error err;
        if (mp_av_timecode_check(bad24[i], r24, &err) != MP_ERR_ARG)
            fail_msg("\"%s\" accepted at 24 fps", bad24[i]);
        assert_non_null(strstr(err.msg, "time code"));
    }
    assert_int_equal(mp_av_timecode_check("00:00:00:49", r50, NULL), MP_OK);
    assert_int_equal(mp_av_timecode_check("00:01:00;02", r2997, NULL), MP_OK);
    assert_int_equal(mp_av_timecode_check("00:10:00;00", r2997, NULL), MP_OK);
    assert_int_equal(mp_av_timecode_check("00:01:00;01", r2997, NULL), MP_ERR_ARG);  /* dropped */
    assert_int_equal(mp_av_timecode_check("00:01:00:00", r2997, NULL), MP_OK);       /* NDF */
    /* Every code mp_av_timecode_string makes passes the check. */
    char tc[AV_TIMECODE_CHARS];
    for (uint64_t n = 0; n < 40000; n += 7) {
        assert_int_equal(mp_av_timecode_string(n, r2997, 1, tc, NULL), MP_OK);
        assert_int_equal(mp_av_timecode_check(tc, r2997, NULL), MP_OK);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_base),
        cmocka_unit_test(test_timecode_strings),
        cmocka_unit_test(test_timecode_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
