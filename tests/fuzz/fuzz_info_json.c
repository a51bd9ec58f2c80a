/* libFuzzer target: `mlvpipe info --json` (mlvpipe_clip_describe) on arbitrary clips, opened
 * from memory like fuzz_mlv_index. The report must be one JSON document by RFC 8259, checked
 * by the strict validator below (not by our own parser): UTF-8, no control characters in
 * strings, only the JSON escapes, numbers in JSON's grammar (no nan, inf or leading zeros),
 * nothing after the value. Its frame_count is the reader's. The text report is made too.
 * Statuses: OK, or the damaged and unusable ones info exits 4 and 3 with. --defects (the
 * pre-pass: threads and ~1 s a clip under ASan) is left to the e2e tests; its part of the
 * report holds only numbers. */
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "fuzz_check.h"
#include "reader/mlv_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The validator below judges the report (JUDGE: fuzz_check.h). */

typedef struct json_in {
    const char *s;
    size_t pos, len;
} json_in;

JUDGE static char peek(const json_in *j) { return j->pos < j->len ? j->s[j->pos] : 0; }

JUDGE static void skip_space(json_in *j)
{
    while (peek(j) == ' ' || peek(j) == '\n' || peek(j) == '\t' || peek(j) == '\r')
        j->pos++;
}

JUDGE static void expect(json_in *j, const char *word)
{
    size_t n = strlen(word);
    CHECK(j->len - j->pos >= n && !memcmp(j->s + j->pos, word, n));
    j->pos += n;
}

JUDGE static int digit(char c) { return c >= '0' && c <= '9'; }

JUDGE static void number(json_in *j)
{
    if (peek(j) == '-')
        j->pos++;
    CHECK(digit(peek(j)));
    if (peek(j) == '0')
        j->pos++;
    else
        while (digit(peek(j)))
            j->pos++;
    if (peek(j) == '.') {
        j->pos++;
        CHECK(digit(peek(j)));
        while (digit(peek(j)))
            j->pos++;
    }
    if (peek(j) == 'e' || peek(j) == 'E') {
        j->pos++;
        if (peek(j) == '+' || peek(j) == '-')
            j->pos++;
        CHECK(digit(peek(j)));
        while (digit(peek(j)))
            j->pos++;
    }
}

/* A string literal; its bytes must be UTF-8 (overlong forms and surrogates are not). */
JUDGE static void string(json_in *j)
{
    expect(j, "\"");
    for (;;) {
        CHECK(j->pos < j->len);
        unsigned char c = (unsigned char)j->s[j->pos++];
        if (c == '"')
            return;
        CHECK(c >= 0x20);
        if (c == '\\') {
            char e = peek(j);
            CHECK(e && strchr("\"\\/bfnrtu", e));
            j->pos++;
            if (e == 'u')
                for (int i = 0; i < 4; i++, j->pos++)
                    CHECK(j->pos < j->len && strchr("0123456789abcdefABCDEF", j->s[j->pos]));
        } else if (c >= 0x80) {
            size_t k = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c < 0xF0 ? 3
                     : c >= 0xC2 && c < 0xE0 ? 2 : 0;
            CHECK(k && j->pos + k - 1 <= j->len);
            uint32_t cp = c & (0x7F >> k);
            for (size_t i = 1; i < k; i++, j->pos++) {
                CHECK(((unsigned char)j->s[j->pos] & 0xC0) == 0x80);
                cp = cp << 6 | ((unsigned char)j->s[j->pos] & 0x3F);
            }
            static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
            CHECK(cp >= least[k] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF));
        }
    }
}

JUDGE static void value(json_in *j, int depth)
{
    CHECK(depth < 64);
    skip_space(j);
    char c = peek(j);
    if (c == '{' || c == '[') {
        j->pos++;
        skip_space(j);
        char close = c == '{' ? '}' : ']';
        if (peek(j) == close) {
            j->pos++;
            return;
        }
        for (;;) {
            if (c == '{') {
                skip_space(j);
                string(j);
                skip_space(j);
                expect(j, ":");
            }
            value(j, depth + 1);
            skip_space(j);
            if (peek(j) == ',') {
                j->pos++;
                continue;
            }
            CHECK(peek(j) == close);
            j->pos++;
            return;
        }
    }
    if (c == '"')
        string(j);
    else if (c == 't')
        expect(j, "true");
    else if (c == 'f')
        expect(j, "false");
    else if (c == 'n')
        expect(j, "null");
    else
        number(j);
}

JUDGE static void check_json(const char *s, size_t len)
{
    CHECK(strlen(s) == len);   /* no NUL inside */
    json_in j = {s, 0, len};
    value(&j, 0);
    skip_space(&j);
    CHECK(j.pos == len);
}

/* The integer after "key": at the report's top level (the first such key). */
JUDGE static long long top_number(const char *s, const char *key)
{
    const char *at = strstr(s, key);
    CHECK(at);
    return strtoll(at + strlen(key), NULL, 10);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int is_mlv = size >= 4 && !memcmp(data, "MLVI", 4);
    const char *name = is_mlv ? "in.MLV" : "in.RAW";
    mlv_mem_file file = {name, data, size};
    mlvpipe_clip clip = {0};
    mp_error err;
    if (mp_mlv_clip_open_memory(&clip.clip, name, &file, 1, NULL, &err) != MP_OK)
        return 0;
    mlvpipe_text json = {0}, text = {0};
    mlvpipe_error e;
    mlvpipe_status st = mlvpipe_clip_describe(&clip, MLVPIPE_DESCRIBE_JSON, &json, &e);
    CHECK(st == MLVPIPE_OK || st == MLVPIPE_ERR_DAMAGED || st == MLVPIPE_ERR_FORMAT);
    CHECK(json.data);
    check_json(json.data, json.length);
    CHECK(top_number(json.data, "\n  \"frame_count\": ") ==
          mp_mlv_clip_get_info(clip.clip)->frame_count);
    CHECK(mlvpipe_clip_describe(&clip, 0, &text, &e) == st && text.data &&
          strlen(text.data) == text.length);
    mlvpipe_text_free(&json);
    mlvpipe_text_free(&text);
    mp_mlv_clip_close(clip.clip);
    return 0;
}
