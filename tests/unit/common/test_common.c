/* Unit tests for src/common: error formatting, frame buffer bounds, big allocations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "common/mp_big.h"
#include "common/mp_frame.h"
#include "common/mp_status.h"

static void error_set_formats_and_returns_code(void **state)
{
    (void)state;
    mp_error err = {0};
    mp_status st = mp_error_set(&err, MP_ERR_DAMAGED, "%s: offset %d: %s", "a.MLV", 42, "bad");
    assert_int_equal(st, MP_ERR_DAMAGED);
    assert_int_equal(err.code, MP_ERR_DAMAGED);
    assert_string_equal(err.msg, "a.MLV: offset 42: bad");
    assert_int_equal(mp_error_set(NULL, MP_ERR_IO, "x"), MP_ERR_IO);
}

static void error_message_is_truncated_not_overflowed(void **state)
{
    (void)state;
    char big[2 * MP_ERROR_MAX];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    mp_error err = {0};
    mp_error_set(&err, MP_ERR_IO, "%s", big);
    assert_int_equal(strlen(err.msg), MP_ERROR_MAX - 1);
}

static int logged_level;
static char logged[MP_ERROR_MAX];
static void capture(void *opaque, mp_log_level level, const char *msg)
{
    *(int *)opaque += 1;
    logged_level = level;
    strcpy(logged, msg);
}

static void log_goes_only_through_callback(void **state)
{
    (void)state;
    int calls = 0;
    mp_logger log = {capture, &calls};
    mp_log(&log, MP_LOG_WARNING, "frame %u", 7u);
    assert_int_equal(calls, 1);
    assert_int_equal(logged_level, MP_LOG_WARNING);
    assert_string_equal(logged, "frame 7");
    mp_logger none = {0};
    mp_log(&none, MP_LOG_ERROR, "dropped");
    mp_log(NULL, MP_LOG_ERROR, "dropped");
}

/* What a file says cannot drive the terminal or forge a line: control characters and DEL
 * become \xNN in errors, log lines and mp_escape_controls, which never overflows. */
static void messages_escape_control_characters(void **state)
{
    (void)state;
    mp_error err = {0};
    mp_error_set(&err, MP_ERR_DAMAGED, "%s: offset 1: bad", "a\nmlvpipe: error: b\x1b[2J\x7f.MLV");
    assert_string_equal(err.msg, "a\\x0amlvpipe: error: b\\x1b[2J\\x7f.MLV: offset 1: bad");
    int calls = 0;
    mp_logger log = {capture, &calls};
    mp_log(&log, MP_LOG_WARNING, "camera %s", "\x1b]0;title\x07");
    assert_string_equal(logged, "camera \\x1b]0;title\\x07");
    char small[8];
    mp_escape_controls("ab\x01" "cdef", small, sizeof small);
    assert_string_equal(small, "ab\\x01c");
    mp_escape_controls("abc\x01", small, 6);      /* no room for a whole escape: cut before it */
    assert_string_equal(small, "abc");
    mp_escape_controls(err.msg, small, sizeof small);
    assert_string_equal(small, "a\\x0aml");      /* escaping again changes nothing */
}

static void frame_reserve_reuses_and_bounds(void **state)
{
    (void)state;
    mp_frame f = {0};
    mp_error err = {0};
    assert_int_equal(mp_frame_reserve(&f, 64, 32, &err), MP_OK);
    uint16_t *first = f.data;
    assert_int_equal(f.capacity, 64 * 32);
    assert_int_equal(mp_frame_reserve(&f, 32, 32, &err), MP_OK);
    assert_ptr_equal(f.data, first);
    assert_int_equal(f.width, 32);
    assert_int_equal(mp_frame_reserve(&f, 0, 32, &err), MP_ERR_ARG);
    assert_int_equal(mp_frame_reserve(&f, MP_FRAME_MAX_DIM + 1, 2, &err), MP_ERR_NOMEM);
    assert_int_equal(mp_frame_reserve(&f, MP_FRAME_MAX_DIM, MP_FRAME_MAX_DIM, &err), MP_ERR_NOMEM);
    assert_non_null(strstr(err.msg, "limit"));
    mp_frame_free(&f);
    assert_null(f.data);
}

#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
/* Whether the kernel takes MADV_POPULATE_WRITE (5.14 and later). */
static int kernel_populates(void)
{
    void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return 0;
    int ok = madvise(m, 4096, MADV_POPULATE_WRITE) == 0;
    munmap(m, 4096);
    return ok;
}

/* The whole pages inside [p, p + n) that are not resident yet. */
static size_t pages_missing(const unsigned char *p, size_t n)
{
    const uintptr_t start = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
    const uintptr_t end = ((uintptr_t)p + n) & ~(uintptr_t)4095;
    if (end <= start)
        return 0;
    const size_t pages = (end - start) / 4096;
    unsigned char *in = malloc(pages ? pages : 1);
    assert_non_null(in);
    assert_int_equal(mincore((void *)start, end - start, in), 0);
    size_t missing = 0;
    for (size_t i = 0; i < pages; i++)
        missing += !(in[i] & 1);
    free(in);
    return missing;
}
#endif

/* Zeroed every time, also where freed dirty memory comes back; on Linux every page of a big
 * one is made by the call, before the first touch (meson.build runs this test without
 * MALLOC_PERTURB_, whose calloc would touch them all itself). */
static void big_calloc_zeroed_and_populated(void **state)
{
    (void)state;
    const size_t sizes[] = {1, 4096, (3u << 20) + 17};
    for (int round = 0; round < 2; round++)
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            unsigned char *p = mp_big_calloc(sizes[k]);
            assert_non_null(p);
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
            if (kernel_populates())
                assert_int_equal(pages_missing(p, sizes[k]), 0);
#endif
            for (size_t i = 0; i < sizes[k]; i++)
                if (p[i])
                    fail_msg("byte %zu of %zu not zero (round %d)", i, sizes[k], round);
            memset(p, 0xff, sizes[k]);
            free(p);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(error_set_formats_and_returns_code),
        cmocka_unit_test(error_message_is_truncated_not_overflowed),
        cmocka_unit_test(log_goes_only_through_callback),
        cmocka_unit_test(messages_escape_control_characters),
        cmocka_unit_test(frame_reserve_reuses_and_bounds),
        cmocka_unit_test(big_calloc_zeroed_and_populated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
