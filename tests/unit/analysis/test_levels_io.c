/* Unit tests for the JSON reader and the levels sidecar: exact round trips, strict rejection
 * of bad files with messages naming the file and key, atomic file writing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/json.h"
#include "analysis/levels_io.h"

static void sample_levels(mp_clip_levels *cl)
{
    memset(cl, 0, sizeof *cl);
    strcpy(cl->tool, "mlvpipe 0.1.0");
    cl->options_hash = 0x0123456789abcdefull;
    cl->guid = 0xfedcba9876543210ull;
    cl->frame_count = 120;
    cl->first_frame = 10;
    cl->last_frame = 131;   /* two frame numbers missing */
    cl->segment_count = 2;
    cl->segments = calloc(2, sizeof *cl->segments);
    for (uint32_t i = 0; i < 2; i++) {
        mp_levels_segment *s = &cl->segments[i];
        s->first_index = i ? 70 : 0;
        s->frame_count = i ? 50 : 70;
        s->first_frame = i ? 81 : 10;
        s->last_frame = i ? 131 : 80;
        dualiso_levels *lv = &s->levels;
        lv->is_dual = i == 0;
        lv->phase = 2;
        lv->bits = 14;
        lv->in_black = 2047.9999999999998;
        lv->in_white = 15283;
        lv->ratio = 8.0 / 3.0;
        lv->ratio_ev = 1.4150374992788437;
        lv->black_dark = 0.1;
        lv->black_bright = 1e-300;             /* the smallest and largest a sensor allows */
        lv->white_dark = 15000.25;
        lv->white_bright = 16382.999999999998;
        lv->noise_dark = 6.6;
        lv->noise_bright = 13.8;
        lv->gain_dark = 0;
        lv->frames_used = 32;
        lv->cells_used = 4000000000u;
        lv->out_black = 3200;
        lv->out_white = 65535;
        lv->out_scale = 5.000000000000001;
    }
    /* segment 0 has a raw defect map, segment 1 none */
    rawfix_map *m = &cl->segments[0].fix;
    *m = (rawfix_map){.width = 712, .height = 388, .frames = 32, .stripes = 1,
                      .stripe_amplitude = 0.0051};
    for (uint32_t r = 0; r < RAWFIX_STRIPE_ROWS; r++)
        for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++)
            m->stripe_gain[r][c] = 1 + (double)(r * 8 + c) / 3e3;
    m->lattice = (rawfix_lattice){.period_x = 12, .period_y = 10, .x0 = 72, .y0 = 28,
                                  .x1 = 712, .y1 = 388, .class_count = 2,
                                  .class_x = {4, 4}, .class_y = {1, 2}};
    m->pixel_count = 3;
    m->pixels = malloc(6 * sizeof *m->pixels);
    const uint32_t px[6] = {100, 40, 711, 387, 0, 0};
    memcpy(m->pixels, px, sizeof px);
}

static void to_json(const mp_clip_levels *cl, char **text)
{
    size_t len = 0;
    mp_error err = {0};
    assert_int_equal(mp_clip_levels_to_json(cl, text, &len, &err), MP_OK);
    assert_int_equal(strlen(*text), len);
}

static void round_trip_is_exact(void **state)
{
    (void)state;
    mp_clip_levels a, b;
    sample_levels(&a);
    char *text;
    to_json(&a, &text);
    mp_error err = {0};
    assert_int_equal(mp_clip_levels_from_json(text, strlen(text), "x.json", &b, &err), MP_OK);
    assert_string_equal(b.tool, a.tool);
    assert_true(b.options_hash == a.options_hash && b.guid == a.guid);
    const rawfix_map *ma = &a.segments[0].fix, *mb = &b.segments[0].fix;
    assert_memory_equal(&ma->lattice, &mb->lattice, sizeof ma->lattice);
    assert_memory_equal(ma->stripe_gain, mb->stripe_gain, sizeof ma->stripe_gain);
    assert_int_equal(mb->pixel_count, 3);
    assert_memory_equal(ma->pixels, mb->pixels, 6 * sizeof *ma->pixels);
    assert_true(mb->stripes && mb->frames == 32 && mb->width == 712 && mb->height == 388);
    assert_int_equal(b.segments[1].fix.pixel_count, 0);
    assert_int_equal(b.frame_count, 120);
    assert_int_equal(b.first_frame, 10);
    assert_int_equal(b.last_frame, 131);
    assert_int_equal(b.segment_count, 2);
    /* Field for field, bit for bit (memcmp of the struct would include padding). */
    for (uint32_t i = 0; i < 2; i++) {
        const mp_levels_segment *x = &a.segments[i], *y = &b.segments[i];
        assert_int_equal(x->first_index, y->first_index);
        assert_int_equal(x->frame_count, y->frame_count);
        assert_int_equal(x->first_frame, y->first_frame);
        assert_int_equal(x->last_frame, y->last_frame);
        const dualiso_levels *p = &x->levels, *q = &y->levels;
        assert_int_equal(p->is_dual, q->is_dual);
        assert_int_equal(p->phase, q->phase);
        assert_int_equal(p->bits, q->bits);
        const double *dp[] = {&p->in_black, &p->in_white, &p->ratio, &p->ratio_ev,
                              &p->black_dark, &p->black_bright, &p->white_dark,
                              &p->white_bright, &p->noise_dark, &p->noise_bright,
                              &p->gain_dark, &p->out_scale};
        const double *dq[] = {&q->in_black, &q->in_white, &q->ratio, &q->ratio_ev,
                              &q->black_dark, &q->black_bright, &q->white_dark,
                              &q->white_bright, &q->noise_dark, &q->noise_bright,
                              &q->gain_dark, &q->out_scale};
        for (size_t k = 0; k < sizeof dp / sizeof dp[0]; k++)
            assert_memory_equal(dp[k], dq[k], sizeof(double));
        assert_int_equal(p->frames_used, q->frames_used);
        assert_int_equal(p->cells_used, q->cells_used);
        assert_int_equal(p->out_black, q->out_black);
        assert_int_equal(p->out_white, q->out_white);
    }
    /* Writing what was read gives the same text. */
    char *again;
    to_json(&b, &again);
    assert_string_equal(text, again);
    free(again);
    free(text);
    mp_clip_levels_free(&a);
    mp_clip_levels_free(&b);
}

static void refuses_non_finite_levels(void **state)
{
    (void)state;
    mp_clip_levels a;
    sample_levels(&a);
    a.segments[1].levels.ratio = 0.0 / 0.0;
    char *text = NULL;
    size_t len;
    mp_error err = {0};
    assert_int_equal(mp_clip_levels_to_json(&a, &text, &len, &err), MP_ERR_ARG);
    assert_null(text);
    assert_non_null(strstr(err.msg, "ratio"));
    mp_clip_levels_free(&a);
}

/* Replaces the first occurrence of `from` in the sample's JSON with `to` and parses it;
 * returns the error message (static) or NULL when it parsed. */
static const char *mutated(const char *from, const char *to)
{
    static mp_error err;
    mp_clip_levels a, b;
    sample_levels(&a);
    char *text;
    to_json(&a, &text);
    mp_clip_levels_free(&a);
    char *at = strstr(text, from);
    assert_non_null(at);
    size_t len = strlen(text) - strlen(from) + strlen(to);
    char *m = malloc(len + 1);
    size_t head = (size_t)(at - text);
    memcpy(m, text, head);
    strcpy(m + head, to);
    strcat(m, at + strlen(from));
    memset(&err, 0, sizeof err);
    mp_status st = mp_clip_levels_from_json(m, len, "levels.json", &b, &err);
    free(m);
    free(text);
    if (st == MP_OK) {
        mp_clip_levels_free(&b);
        return NULL;
    }
    assert_int_equal(st, MP_ERR_FORMAT);
    assert_null(b.segments);
    return err.msg;
}

static void rejects_bad_sidecars_naming_the_key(void **state)
{
    (void)state;
    struct { const char *from, *to, *msg; } cases[] = {
        {"\"format\": \"mlvpipe-levels\"", "\"format\": \"other\"",
         "levels.json: key 'format': expected \"mlvpipe-levels\""},
        {"\"format_version\": 3", "\"format_version\": 2",
         "levels.json: key 'format_version': unsupported format version (this mlvpipe reads 3)"},
        {"\"pixels\": [100, 40, ", "\"pixels\": [100, 40, 5, ",
         "levels.json: key 'segments[0].rawfix.pixels': expected at most 8192 x, y pairs"},
        {"\"pixels\": [100, 40, ", "\"pixels\": [100, 400, ",
         "levels.json: key 'segments[0].rawfix': a pixel lies outside the frame"},
        {"\"classes\": [4, 1, ", "\"classes\": [12, 1, ",
         "levels.json: key 'segments[0].rawfix': a lattice class is not below its period"},
        {"\"period_x\": 12", "\"period_x\": 1",
         "levels.json: key 'segments[0].rawfix': lattice periods, classes or box out of range"},
        {"\"stripe_gain\": [1, ", "\"stripe_gain\": [0.1, ",
         "levels.json: key 'segments[0].rawfix': stripe gains must lie between 0.5 and 2"},
        {"\"stripe_gain\": [1, ", "\"stripe_gain\": [",
         "levels.json: key 'segments[0].rawfix.stripe_gain': expected an array of the right "
         "length"},
        {"\"tool\"", "\"toolz\"", "levels.json: key 'toolz': unknown key"},
        {"\"ratio\": ", "\"ratio\": \"x\", \"zz\": ",
         "levels.json: key 'segments[0].levels.ratio': expected a finite number"},
        {"\"ratio\": ", "\"ratio\": 1e999, \"zz\": ",
         "levels.json: key 'segments[0].levels.ratio': expected a finite number"},
        {"\"phase\": 2", "\"phase\": 2.5",
         "levels.json: key 'segments[0].levels.phase': expected an integer from 0 to 4294967295"},
        {"\"phase\": 2", "\"phase\": -1",
         "levels.json: key 'segments[0].levels.phase': expected an integer from 0 to 4294967295"},
        {"\"bits\": 14", "\"bits\": 4294967296",
         "levels.json: key 'segments[0].levels.bits': expected an integer from 0 to 4294967295"},
        {"\"phase\": 2", "\"phase\": 7",
         "levels.json: key 'segments[0].levels': phase must be 0..3 and bits 1..16"},
        {"\"is_dual\": true", "\"is_dual\": 1",
         "levels.json: key 'segments[0].levels.is_dual': expected true or false"},
        {"\"guid\": \"fedcba9876543210\"", "\"guid\": \"FEDCBA9876543210\"",
         "levels.json: key 'clip.guid': expected 16 lowercase hex digits in a string"},
        {"\"guid\": \"fedcba9876543210\"", "\"guid\": 1",
         "levels.json: key 'clip.guid': expected 16 lowercase hex digits in a string"},
        {"\"out_white\": 65535", "\"out_white\": 65535, \"out_white\": 65535",
         "levels.json: key 'segments[0].levels.out_white': repeated"},
        {"\"out_scale\": 5.0000000000000009\n", "\"out_scale\": 5\n,\"x\":1\n",
         "levels.json: key 'segments[0].levels.x': unknown key"},
        {"\"cells_used\": 4000000000,", "",
         "levels.json: key 'segments[0].levels.cells_used': missing"},
        {"\"first_index\": 70", "\"first_index\": 71",
         "levels.json: key 'segments[1]': segments do not tile the clip's frames"},
        {"\"frame_count\": 50", "\"frame_count\": 49",
         "levels.json: key 'segments': segments do not cover the clip's frame_count"},
        {"\"first_frame\": 81", "\"first_frame\": 80",
         "levels.json: key 'segments[1]': frame numbers out of order or outside the clip"},
        {"\"frame_count\": 120", "\"frame_count\": 0",
         "levels.json: key 'clip': frame_count, first_frame and last_frame disagree"},
        {"\"out_black\": 3200", "\"out_black\": 65535",
         "levels.json: key 'segments[0].levels': needs out_black < out_white <= 65535"},
        /* values no sensor gives are refused naming the sidecar (issue 29) */
        {"\"ratio\": 2.6666666666666665", "\"ratio\": 1e308",
         "levels.json: key 'segments[0].levels': needs 1 <= ratio <= 2^bits and 0 <= ratio_ev "
         "<= bits"},
        {"\"ratio_ev\": 1.4150374992788437", "\"ratio_ev\": 15",
         "levels.json: key 'segments[0].levels': needs 1 <= ratio <= 2^bits and 0 <= ratio_ev "
         "<= bits"},
        {"\"black_dark\": 0.10000000000000001", "\"black_dark\": 15001",
         "levels.json: key 'segments[0].levels': needs 0 <= black < white <= 2^bits - 1 in "
         "each field"},
        {"\"in_white\": 15283", "\"in_white\": 16384",
         "levels.json: key 'segments[0].levels': needs 0 <= in_black < in_white <= 2^bits - 1"},
        {"\"noise_dark\": 6.5999999999999996", "\"noise_dark\": -1",
         "levels.json: key 'segments[0].levels': noise or gain outside 0..2^bits - 1"},
        {"\"out_scale\": 5.0000000000000009", "\"out_scale\": 1e300",
         "levels.json: key 'segments[0].levels': needs out_scale within 2^-16..2^16"},
        {"\"frames_used\": 32", "\"frames_used\": 71",
         "levels.json: key 'segments[0].levels': ratio_source or frames_used out of range"},
        {"\"stripe_amplitude\": 0.0051000000000000004", "\"stripe_amplitude\": 2",
         "levels.json: key 'segments[0].rawfix': stripe_amplitude outside 0..1"},
        {"\"clip\": {", "\"clip\": [{",
         NULL /* syntax error, checked by prefix below */},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *msg = mutated(cases[i].from, cases[i].to);
        assert_non_null(msg);
        if (cases[i].msg)
            assert_string_equal(msg, cases[i].msg);
        else
            assert_true(strncmp(msg, "levels.json: offset ", 20) == 0);
    }
    /* The untouched sample parses (so the cases above fail for their own reason). */
    assert_null(mutated("\"tool\"", "\"tool\""));
}

static void json_syntax_errors_name_the_offset(void **state)
{
    (void)state;
    struct { const char *text, *msg; } cases[] = {
        {"", "t.json: offset 0: unexpected end of text"},
        {"{\"a\" 1}", "t.json: offset 5: expected ':'"},
        {"{\"a\": 1,}", "t.json: offset 8: expected a key"},
        {"[1 2]", "t.json: offset 3: expected ',' or ']'"},
        {"[01]", "t.json: offset 2: expected ',' or ']'"},
        {"[1.]", "t.json: offset 1: bad number"},
        {"[-]", "t.json: offset 1: bad number"},
        {"[1e]", "t.json: offset 1: bad number"},
        {"\"abc", "t.json: offset 4: unterminated string"},
        {"\"a\tb\"", "t.json: offset 2: control character in string"},
        {"\"\\x\"", "t.json: offset 2: bad escape in string"},
        {"\"\\u12\"", "t.json: offset 5: bad \\u escape"},
        {"\"\\u0000\"", "t.json: offset 7: unsupported \\u escape"},
        {"\"\\ud83d\\ude00\"", "t.json: offset 7: unsupported \\u escape"},
        {"\"ab\xE9\"", "t.json: offset 3: string is not UTF-8"},
        {"\"\xED\xA0\x80\"", "t.json: offset 1: string is not UTF-8"},
        {"\"\xE2\x82", "t.json: offset 1: string is not UTF-8"},
        {"{} {}", "t.json: offset 3: text after the end of the value"},
        {"tru", "t.json: offset 0: unexpected character"},
        {"[nul]", "t.json: offset 1: unexpected character"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mp_json_doc doc;
        mp_error err = {0};
        assert_int_equal(mp_json_parse(cases[i].text, strlen(cases[i].text), "t.json", &doc,
                                       &err), MP_ERR_FORMAT);
        assert_string_equal(err.msg, cases[i].msg);
        assert_null(doc.nodes);
    }
}

static void json_parses_values_and_bounds_depth(void **state)
{
    (void)state;
    const char *text = " {\"a\": [1, -2.5e1, \"x\\u00e9\\n\"], \"b\": {}, \"c\": null, "
                       "\"d\": true} ";
    mp_json_doc d;
    mp_error err = {0};
    assert_int_equal(mp_json_parse(text, strlen(text), "t", &d, &err), MP_OK);
    assert_int_equal(d.nodes[0].type, MP_JSON_OBJECT);
    assert_int_equal(d.nodes[0].count, 4);
    uint32_t a = d.nodes[0].child;
    assert_string_equal(mp_json_key(&d, a), "a");
    assert_int_equal(d.nodes[a].count, 3);
    uint32_t one = d.nodes[a].child, two = d.nodes[one].next, three = d.nodes[two].next;
    assert_true(d.nodes[one].is_integer && d.nodes[one].number == 1);
    assert_true(!d.nodes[two].is_integer && d.nodes[two].number == -25);
    assert_string_equal(mp_json_string(&d, three), "x\xc3\xa9\n");
    uint32_t b = d.nodes[a].next;
    assert_int_equal(d.nodes[b].type, MP_JSON_OBJECT);
    assert_int_equal(d.nodes[b].count, 0);
    assert_int_equal(d.nodes[d.nodes[b].next].type, MP_JSON_NULL);
    mp_json_free(&d);

    char deep[64];
    memset(deep, '[', 18);
    memset(deep + 18, ']', 18);
    assert_int_equal(mp_json_parse(deep, 36, "t", &d, &err), MP_ERR_FORMAT);
    assert_string_equal(err.msg, "t: offset 17: nested too deeply");
    assert_int_equal(mp_json_parse(deep + 1, 34, "t", &d, &err), MP_OK);
    mp_json_free(&d);

    /* Too many values and too much text are refused before they cost memory. */
    size_t n = 2 * MP_JSON_MAX_NODES + 8;
    char *many = malloc(n);
    many[0] = '[';
    size_t k = 1;
    for (uint32_t i = 0; i < MP_JSON_MAX_NODES; i++) {
        many[k++] = '0';
        many[k++] = ',';
    }
    many[k++] = '0';
    many[k++] = ']';
    assert_int_equal(mp_json_parse(many, k, "t", &d, &err), MP_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "too many values"));
    free(many);
    assert_int_equal(mp_json_parse("{}", MP_JSON_MAX_BYTES + 1, "t", &d, &err), MP_ERR_FORMAT);
}

static void files_are_written_atomically(void **state)
{
    (void)state;
    char dir[] = "/tmp/mlvpipe-levels-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/levels.json", dir);
    mp_clip_levels a, b;
    sample_levels(&a);
    mp_error err = {0};
    assert_int_equal(mp_clip_levels_write(path, &a, 0, &err), MP_OK);
    assert_int_equal(mp_clip_levels_read(path, &b, &err), MP_OK);
    assert_int_equal(b.segment_count, 2);
    mp_clip_levels_free(&b);
    assert_int_equal(mp_clip_levels_write(path, &a, 0, &err), MP_ERR_IO);
    assert_non_null(strstr(err.msg, "exists"));
    a.frame_count = 120;
    assert_int_equal(mp_clip_levels_write(path, &a, 1, &err), MP_OK);
    /* No temporary file is left beside it. */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "test $(ls -A %s | wc -l) -eq 1", dir);
    assert_int_equal(system(cmd), 0);

    FILE *f = fopen(path, "w");
    fputs("{\"format\": \"mlvpipe-levels\", \"format_version\": 3}", f);
    fclose(f);
    assert_int_equal(mp_clip_levels_read(path, &b, &err), MP_ERR_FORMAT);
    char want[400];
    snprintf(want, sizeof want, "%s: key 'tool': missing", path);
    assert_string_equal(err.msg, want);
    unlink(path);
    assert_int_equal(mp_clip_levels_read(path, &b, &err), MP_ERR_IO);
    rmdir(dir);
    mp_clip_levels_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip_is_exact),
        cmocka_unit_test(refuses_non_finite_levels),
        cmocka_unit_test(rejects_bad_sidecars_naming_the_key),
        cmocka_unit_test(json_syntax_errors_name_the_offset),
        cmocka_unit_test(json_parses_values_and_bounds_depth),
        cmocka_unit_test(files_are_written_atomically),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
