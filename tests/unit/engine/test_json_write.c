/* Unit tests for the one JSON string writer: escapes, UTF-8 passed through, bytes that are not
 * UTF-8 replaced by U+FFFD, and every output read back by the JSON reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <iconv.h>

#include "common/json.h"
#include "engine/progress.h"

#define FFFD "\xEF\xBF\xBD"   /* U+FFFD as UTF-8, what the reader decodes "\ufffd" to */

typedef struct json_case {
    const char *in;
    const char *literal;   /* what the writer must produce */
    const char *decoded;   /* what the reader must give back */
} json_case;

static const json_case cases[] = {
    {"", "\"\"", ""},
    {"plain.MLV", "\"plain.MLV\"", "plain.MLV"},
    {"a\"b\\c", "\"a\\\"b\\\\c\"", "a\"b\\c"},
    {"\x01\n\t\x1f\x7f", "\"\\u0001\\u000a\\u0009\\u001f\\u007f\"", "\x01\n\t\x1f\x7f"},
    /* valid 2-, 3- and 4-byte sequences and the extremes of each length pass unchanged */
    {"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", "\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"",
     "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"},
    {"\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF\xF0\x90\x80\x80\xF4\x8F\xBF\xBF",
     "\"\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF\xF0\x90\x80\x80\xF4\x8F\xBF\xBF\"",
     "\xC2\x80\xDF\xBF\xE0\xA0\x80\xEF\xBF\xBF\xF0\x90\x80\x80\xF4\x8F\xBF\xBF"},
    /* a lone continuation byte, Latin-1, bytes that never occur in UTF-8 */
    {"\x80", "\"\\ufffd\"", FFFD},
    {"M\xE9nage.MLV", "\"M\\ufffdnage.MLV\"", "M" FFFD "nage.MLV"},
    {"\xC0\xC1\xF5\xFF", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", FFFD FFFD FFFD FFFD},
    /* overlong forms, a UTF-16 surrogate, past U+10FFFF: each byte replaced on its own */
    {"\xC0\xAF", "\"\\ufffd\\ufffd\"", FFFD FFFD},
    {"\xE0\x80\xAF", "\"\\ufffd\\ufffd\\ufffd\"", FFFD FFFD FFFD},
    {"\xED\xA0\x80", "\"\\ufffd\\ufffd\\ufffd\"", FFFD FFFD FFFD},
    {"\xF4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"", FFFD FFFD FFFD FFFD},
    /* sequences cut short, by the end of the string or by an ASCII byte or a quote */
    {"\xE2\x82", "\"\\ufffd\\ufffd\"", FFFD FFFD},
    {"\xF0\x9F\x98", "\"\\ufffd\\ufffd\\ufffd\"", FFFD FFFD FFFD},
    {"\xE2\x82" "A\xC3\"", "\"\\ufffd\\ufffdA\\ufffd\\\"\"", FFFD FFFD "A" FFFD "\""},
};

/* glibc's iconv as an outside judge of UTF-8 (it refuses overlong forms and surrogates). */
static int valid_utf8(const char *s, size_t len)
{
    iconv_t cd = iconv_open("UTF-32LE", "UTF-8");
    assert_true(cd != (iconv_t)-1);
    char *in = (char *)s;
    size_t in_left = len;
    int ok = 1;
    while (ok && in_left) {
        char out[256], *o = out;
        size_t out_left = sizeof out;
        if (iconv(cd, &in, &in_left, &o, &out_left) == (size_t)-1 && errno != E2BIG)
            ok = 0;
    }
    iconv_close(cd);
    return ok;
}

static void literal_is(const char *in, const char *want)
{
    mp_text t = {0};
    mp_text_json_string(&t, in);
    assert_false(t.failed);
    assert_string_equal(t.data, want);
    mp_text_free(&t);
}

static void escapes_and_replaces(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        literal_is(cases[i].in, cases[i].literal);
        assert_true(valid_utf8(cases[i].literal, strlen(cases[i].literal)));
    }
    assert_false(valid_utf8("\xED\xA0\x80", 3));   /* the judge itself refuses a surrogate */
}

/* The reader (RFC 8259, rejects raw control characters) accepts every literal written. */
static void reader_reads_back(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mp_text t = {0};
        mp_text_printf(&t, "[");
        mp_text_json_string(&t, cases[i].in);
        mp_text_printf(&t, "]");
        mp_json_doc doc;
        mp_error err = {0};
        assert_int_equal(mp_json_parse(t.data, t.len, "case", &doc, &err), MP_OK);
        uint32_t s = doc.nodes[0].child;
        assert_int_equal(doc.nodes[s].type, MP_JSON_STRING);
        assert_string_equal(mp_json_string(&doc, s), cases[i].decoded);
        mp_json_free(&doc);
        mp_text_free(&t);
    }
}

/* Every byte value after every byte value: the output is always valid JSON and valid UTF-8. */
static void every_byte_pair_parses(void **state)
{
    (void)state;
    for (int a = 1; a < 256; a++) {
        mp_text t = {0};
        mp_text_printf(&t, "[");
        for (int b = 1; b < 256; b++) {
            char in[4] = {(char)a, (char)b, 'x', 0};
            mp_text_printf(&t, b > 1 ? "," : "");
            mp_text_json_string(&t, in);
        }
        mp_text_printf(&t, "]");
        mp_json_doc doc;
        mp_error err = {0};
        assert_int_equal(mp_json_parse(t.data, t.len, "pairs", &doc, &err), MP_OK);
        assert_int_equal(doc.nodes[0].count, 255);
        assert_true(valid_utf8(t.data, t.len));
        mp_json_free(&doc);
        mp_text_free(&t);
    }
}

static void file_writer_matches_text_writer(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        mp_json_write_string(f, cases[i].in);
        assert_int_equal(fclose(f), 0);
        assert_string_equal(buf, cases[i].literal);
        free(buf);
    }
}

/* --progress json: an error message with quotes, control and non-UTF-8 bytes (an odd file
 * name), even at the longest an mp_error holds, gives one whole line that parses. */
static void progress_error_line_parses(void **state)
{
    (void)state;
    char msg[MP_ERROR_MAX + 100];
    for (size_t i = 0; i < sizeof msg - 1; i++)
        msg[i] = (char)"\"\x01\xFF\xC3"[i % 4];
    msg[sizeof msg - 1] = 0;
    const char *messages[] = {"/in/M\xE9nage.MLV: \"damaged\"\n", msg};
    for (int k = 0; k < 2; k++) {
        mp_progress_event ev = {.kind = MP_PROGRESS_ERROR, .status = MP_ERR_IO,
                                .message = messages[k]};
        char line[MP_PROGRESS_JSON_MAX];
        int n = mp_progress_format_json(&ev, line, sizeof line);
        assert_true(n > 0 && (size_t)n < sizeof line);
        mp_json_doc doc;
        mp_error err = {0};
        assert_int_equal(mp_json_parse(line, (size_t)n, "line", &doc, &err), MP_OK);
        mp_json_free(&doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escapes_and_replaces),
        cmocka_unit_test(reader_reads_back),
        cmocka_unit_test(every_byte_pair_parses),
        cmocka_unit_test(file_writer_matches_text_writer),
        cmocka_unit_test(progress_error_line_parses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
