/* Unit tests for progress figures (fps, ETA, skipped frames), rate limiting and formats. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "engine/progress.h"

static void rates_ignore_skipped_frames(void **state)
{
    (void)state;
    mp_progress p;
    mp_progress_event ev;
    mp_progress_begin(&p, 100, 10.0);
    /* 20 frames already on disk, reported instantly. */
    for (uint32_t i = 0; i < 20; i++)
        mp_progress_frame(&p, i, 1, 0, 10.0, &ev);
    assert_int_equal(ev.done, 20);
    assert_int_equal(ev.skipped, 20);
    assert_true(ev.fps == 0 && ev.eta_s < 0);
    /* Then 40 frames in 2 seconds: 20 fps, 40 left, ETA 2 s. */
    for (uint32_t i = 20; i < 60; i++)
        mp_progress_frame(&p, i, 0, 0, 10.0 + (i - 19) * 0.05, &ev);
    assert_int_equal(ev.kind, MP_PROGRESS_FRAME);
    assert_int_equal(ev.frame, 59);
    assert_int_equal(ev.written, 40);
    assert_true(ev.fps > 19.99 && ev.fps < 20.01);
    assert_true(ev.eta_s > 1.99 && ev.eta_s < 2.01);
    mp_progress_frame(&p, 60, 0, 1, 12.05, &ev);
    assert_int_equal(ev.damaged, 1);
    assert_true(ev.frame_damaged && !ev.frame_skipped);
    char buf[256];
    mp_progress_format_json(&ev, buf, sizeof buf);
    assert_non_null(strstr(buf, "\"skipped\":false,\"damaged\":true,"));
    assert_int_equal(ev.done, 61);
}

static void terminal_line_is_rate_limited(void **state)
{
    (void)state;
    mp_progress p;
    mp_progress_event ev;
    mp_progress_begin(&p, 3, 0.0);
    mp_progress_frame(&p, 0, 0, 0, 0.01, &ev);
    assert_true(mp_progress_line_due(&p, &ev, 0.01, 0.25));
    mp_progress_frame(&p, 1, 0, 0, 0.02, &ev);
    assert_false(mp_progress_line_due(&p, &ev, 0.02, 0.25));
    assert_true(mp_progress_line_due(&p, &ev, 0.30, 0.25));
    mp_progress_frame(&p, 2, 0, 0, 0.31, &ev);
    assert_true(mp_progress_line_due(&p, &ev, 0.31, 0.25)); /* the last frame always shows */
}

static void formats_line_and_json(void **state)
{
    (void)state;
    char buf[1024];
    mp_progress_event ev = {.kind = MP_PROGRESS_FRAME, .frame = 37, .done = 38, .total = 120,
                            .fps = 24.1234, .eta_s = 3725.4, .elapsed_s = 1.6};
    mp_progress_format_line(&ev, buf, sizeof buf);
    assert_string_equal(buf, "frames [#######.................]  31%  38/120  24.1 fps  0:02 "
                             "elapsed  ETA 1:02:05");
    ev.eta_s = 65;
    mp_progress_format_line(&ev, buf, sizeof buf);
    assert_string_equal(buf, "frames [#######.................]  31%  38/120  24.1 fps  0:02 "
                             "elapsed  ETA 1:05");
    ev.eta_s = -1;
    mp_progress_format_line(&ev, buf, sizeof buf);
    assert_string_equal(buf, "frames [#######.................]  31%  38/120  24.1 fps  0:02 "
                             "elapsed  ETA --:--");
    mp_progress_event lv = {.kind = MP_PROGRESS_LEVELS, .done = 16, .total = 16,
                            .elapsed_s = 3725};
    mp_progress_format_line(&lv, buf, sizeof buf);
    assert_string_equal(buf, "levels [########################] 100%  16/16 sampled frames  "
                             "1:02:05 elapsed  ETA 0:00");
    lv.done = 15;     /* 93.75 %: never shown as 100 before the end */
    lv.eta_s = 248.3;
    mp_progress_format_line(&lv, buf, sizeof buf);
    assert_string_equal(buf, "levels [######################..]  93%  15/16 sampled frames  "
                             "1:02:05 elapsed  ETA 4:08");
    assert_int_equal(mp_progress_format_json(&lv, buf, sizeof buf), 2);   /* "{}" */
    mp_progress_format_json(&ev, buf, sizeof buf);
    assert_string_equal(buf, "{\"event\":\"frame\",\"frame\":37,\"done\":38,\"total\":120,"
                             "\"skipped\":false,\"damaged\":false,\"fps\":24.12,\"eta_s\":-1.0}");

    mp_progress_event start = {.kind = MP_PROGRESS_START, .total = 10, .first_frame = 5,
                               .last_frame = 14, .threads = 2};
    mp_progress_format_json(&start, buf, sizeof buf);
    assert_string_equal(buf, "{\"event\":\"start\",\"total\":10,\"first_frame\":5,"
                             "\"last_frame\":14,\"threads\":2}");

    mp_progress p;
    mp_progress_begin(&p, 2, 1.0);
    mp_progress_frame(&p, 0, 0, 0, 2.0, &ev);
    mp_progress_frame(&p, 1, 1, 0, 2.0, &ev);
    mp_progress_end(&p, MP_OK, NULL, 3.0, &ev);
    assert_int_equal(ev.kind, MP_PROGRESS_DONE);
    mp_progress_format_json(&ev, buf, sizeof buf);
    assert_string_equal(buf, "{\"event\":\"done\",\"done\":2,\"total\":2,\"written\":1,"
                             "\"skipped\":1,\"damaged\":0,\"elapsed_s\":2.00,\"fps\":0.50,"
                             "\"status\":\"ok\"}");
    /* after a pre-pass: the frames' rate from their start, the summary the whole run's */
    mp_progress q;
    mp_progress_begin(&q, 0, 1.0);
    mp_progress_frames_begin(&q, 2, 5.0);
    mp_progress_frame(&q, 0, 0, 0, 6.0, &ev);
    assert_true(fabs(ev.fps - 1.0) < 1e-9 && fabs(ev.eta_s - 1.0) < 1e-9);
    mp_progress_frame(&q, 1, 0, 0, 7.0, &ev);
    mp_progress_end(&q, MP_OK, NULL, 7.0, &ev);
    assert_true(fabs(ev.elapsed_s - 6.0) < 1e-9 && fabs(ev.fps - 2.0 / 6.0) < 1e-9);
    mp_progress_end(&p, MP_ERR_DAMAGED, "a \"b\"\\c\nd", 3.0, &ev);
    assert_int_equal(ev.kind, MP_PROGRESS_ERROR);
    mp_progress_format_json(&ev, buf, sizeof buf);
    assert_string_equal(buf, "{\"event\":\"error\",\"done\":2,\"total\":2,\"written\":1,"
                             "\"skipped\":1,\"damaged\":0,\"status\":\"damaged\","
                             "\"message\":\"a \\\"b\\\"\\\\c\\u000ad\"}");
}

static void clock_is_monotonic(void **state)
{
    (void)state;
    double a = mp_progress_now(), b = mp_progress_now();
    assert_true(a > 0 && b >= a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rates_ignore_skipped_frames),
        cmocka_unit_test(terminal_line_is_rate_limited),
        cmocka_unit_test(formats_line_and_json),
        cmocka_unit_test(clock_is_monotonic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
