/* Unit tests for --frames parsing and selection against a clip's frame numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/frame_range.h"

static int warnings;
static void count_warning(void *opaque, mp_log_level level, const char *msg)
{
    (void)opaque;
    (void)msg;
    if (level == MP_LOG_WARNING)
        warnings++;
}
static const mp_logger logger = {count_warning, NULL};

/* Selects spec from a clip whose frame numbers are numbers[], returning the selected frame
 * numbers as a comma list in buf (or the status when it fails). */
static mp_status select_numbers(const char *spec_text, const uint32_t *numbers, uint32_t count,
                                char *buf, size_t size, mp_error *err)
{
    mp_frame_spec spec;
    mp_status st = mp_frame_spec_parse(spec_text, &spec, err);
    if (st != MP_OK)
        return st;
    uint32_t *idx = NULL, n = 0;
    st = mp_frame_spec_select(&spec, numbers, count, &logger, &idx, &n, err);
    buf[0] = 0;
    if (st != MP_OK)
        return st;
    size_t used = 0;
    for (uint32_t i = 0; i < n; i++) {
        assert_true(i == 0 || idx[i] > idx[i - 1]);
        used += (size_t)snprintf(buf + used, size - used, i ? ",%u" : "%u", numbers[idx[i]]);
    }
    free(idx);
    return MP_OK;
}

static const uint32_t ten[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

static void parses_every_form(void **state)
{
    (void)state;
    char buf[256];
    mp_error err = {0};
    struct { const char *spec, *want; } cases[] = {
        {NULL, "0,1,2,3,4,5,6,7,8,9"},
        {"", "0,1,2,3,4,5,6,7,8,9"},
        {"3", "3"},
        {"2-4", "2,3,4"},
        {"7-", "7,8,9"},
        {"-2", "0,1,2"},
        {"0-9:3", "0,3,6,9"},
        {"1-:4", "1,5,9"},
        {"1-3,5,7-9:2", "1,2,3,5,7,9"},
        {"5,1-2,2", "1,2,5"},
        {"0-0", "0"},
        {"000002-000004", "2,3,4"},   /* zero-padded farm tokens (Deadline <STARTFRAME%6>) */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(select_numbers(cases[i].spec, ten, 10, buf, sizeof buf, &err), MP_OK);
        assert_string_equal(buf, cases[i].want);
    }
}

static void rejects_malformed_text(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "a", "-", "1--2", "1-2-3", "5-3", " 1", "1 ", "1,", ",1", "1,,2", "+1", "1:2",
        "1-5:0", "1-5:", "1-5:x", "4294967295", "99999999999", "1-2,", "0x10", "1.5",
        "1-5:2:3",
    };
    mp_frame_spec spec;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mp_error err = {0};
        assert_int_equal(mp_frame_spec_parse(bad[i], &spec, &err), MP_ERR_ARG);
        assert_non_null(strstr(err.msg, "--frames"));
    }
    mp_error err = {0};
    assert_int_equal(mp_frame_spec_parse("5-3", &spec, &err), MP_ERR_ARG);
    assert_string_equal(err.msg, "--frames: '5-3' ends before it starts");
}

static void bounds_terms_count(void **state)
{
    (void)state;
    char text[MP_FRAME_RANGE_MAX_TERMS * 2 + 8];
    size_t used = 0;
    for (int i = 0; i <= MP_FRAME_RANGE_MAX_TERMS; i++)
        used += (size_t)sprintf(text + used, i ? ",1" : "1");
    mp_frame_spec spec;
    mp_error err = {0};
    assert_int_equal(mp_frame_spec_parse(text, &spec, &err), MP_ERR_ARG);
    text[used - 2] = 0; /* exactly the maximum */
    assert_int_equal(mp_frame_spec_parse(text, &spec, &err), MP_OK);
    assert_int_equal(spec.count, MP_FRAME_RANGE_MAX_TERMS);
}

static void clamps_overshoot_and_rejects_start_past_end(void **state)
{
    (void)state;
    char buf[256];
    mp_error err = {0};
    warnings = 0;
    assert_int_equal(select_numbers("8-15", ten, 10, buf, sizeof buf, &err), MP_OK);
    assert_string_equal(buf, "8,9");
    assert_int_equal(warnings, 1);
    assert_int_equal(select_numbers("10-19", ten, 10, buf, sizeof buf, &err), MP_ERR_ARG);
    assert_string_equal(err.msg, "--frames: '10-19' starts after the clip's last frame 9");
    assert_int_equal(select_numbers("3,12", ten, 10, buf, sizeof buf, &err), MP_ERR_ARG);
    assert_int_equal(select_numbers("0-", NULL, 0, buf, sizeof buf, &err), MP_ERR_RANGE);
}

static void uses_absolute_numbers_and_skips_gaps(void **state)
{
    (void)state;
    /* A clip starting at frame 100 with frames 103 and 104 missing. */
    static const uint32_t numbers[] = {100, 101, 102, 105, 106, 107};
    char buf[256];
    mp_error err = {0};
    assert_int_equal(select_numbers("101-105", numbers, 6, buf, sizeof buf, &err), MP_OK);
    assert_string_equal(buf, "101,102,105");
    assert_int_equal(select_numbers("-101", numbers, 6, buf, sizeof buf, &err), MP_OK);
    assert_string_equal(buf, "100,101");
    assert_int_equal(select_numbers("103-104", numbers, 6, buf, sizeof buf, &err), MP_OK);
    assert_string_equal(buf, "");
    assert_int_equal(select_numbers("0-1", numbers, 6, buf, sizeof buf, &err), MP_OK);
    assert_string_equal(buf, "");
}

static void chunks_tile_the_clip(void **state)
{
    (void)state;
    /* Farm chunks of 7 over a 10-frame clip: the last overshoots and is clamped; together
     * they select every frame exactly once. */
    char a[256], b[256];
    mp_error err = {0};
    assert_int_equal(select_numbers("0-6", ten, 10, a, sizeof a, &err), MP_OK);
    assert_int_equal(select_numbers("7-13", ten, 10, b, sizeof b, &err), MP_OK);
    assert_string_equal(a, "0,1,2,3,4,5,6");
    assert_string_equal(b, "7,8,9");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_every_form),
        cmocka_unit_test(rejects_malformed_text),
        cmocka_unit_test(bounds_terms_count),
        cmocka_unit_test(clamps_overshoot_and_rejects_start_past_end),
        cmocka_unit_test(uses_absolute_numbers_and_skips_gaps),
        cmocka_unit_test(chunks_tile_the_clip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
