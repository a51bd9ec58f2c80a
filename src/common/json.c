#include "common/json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *text;
    size_t len, pos;
    const char *name;
    mp_json_doc *doc;
    uint32_t cap;
    size_t str_used;      /* strings never outgrow the text, so doc->strings has len + 1 */
    mp_error *err;
} parser;

static mp_status fail(parser *p, const char *cause)
{
    return mp_error_set(p->err, MP_ERR_FORMAT, "%s: offset %zu: %s", p->name, p->pos, cause);
}

static void skip_space(parser *p)
{
    while (p->pos < p->len && (p->text[p->pos] == ' ' || p->text[p->pos] == '\t' ||
                               p->text[p->pos] == '\n' || p->text[p->pos] == '\r'))
        p->pos++;
}

static int peek(const parser *p)
{
    return p->pos < p->len ? (unsigned char)p->text[p->pos] : -1;
}

static mp_status new_node(parser *p, mp_json_type type, uint32_t *out)
{
    mp_json_doc *d = p->doc;
    if (d->count == MP_JSON_MAX_NODES)
        return fail(p, "too many values");
    if (d->count == p->cap) {
        uint32_t cap = p->cap ? p->cap * 2 : 64;
        mp_json_node *n = realloc(d->nodes, cap * sizeof *n);
        if (!n)
            return mp_error_set(p->err, MP_ERR_NOMEM, "%s: out of memory", p->name);
        d->nodes = n;
        p->cap = cap;
    }
    *out = d->count++;
    d->nodes[*out] = (mp_json_node){.type = type, .offset = (uint32_t)p->pos, .key = UINT32_MAX};
    return MP_OK;
}

static int hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

size_t mp_utf8_length(const unsigned char *s, size_t avail)
{
    size_t n = s[0] < 0x80 ? 1 : s[0] < 0xC2 ? 0 : s[0] < 0xE0 ? 2 : s[0] < 0xF0 ? 3
             : s[0] < 0xF5 ? 4 : 0;
    if (n > avail)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;   /* also stops at the terminating NUL */
    /* no overlong forms, UTF-16 surrogates or code points past U+10FFFF */
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0) ||
        (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))
        return 0;
    return n;
}

/* Decodes the string literal at p->pos into doc->strings; *out gets its offset there. */
static mp_status parse_string(parser *p, uint32_t *out)
{
    char *dst = p->doc->strings;
    *out = (uint32_t)p->str_used;
    p->pos++; /* opening quote */
    for (;;) {
        int c = peek(p);
        if (c < 0)
            return fail(p, "unterminated string");
        if (c < 0x20)
            return fail(p, "control character in string");
        if (c >= 0x80) {   /* RFC 8259: the text is UTF-8, so what we write back is too */
            size_t n = mp_utf8_length((const unsigned char *)p->text + p->pos, p->len - p->pos);
            if (!n)
                return fail(p, "string is not UTF-8");
            memcpy(dst + p->str_used, p->text + p->pos, n);
            p->str_used += n;
            p->pos += n;
            continue;
        }
        p->pos++;
        if (c == '"')
            break;
        if (c != '\\') {
            dst[p->str_used++] = (char)c;
            continue;
        }
        c = peek(p);
        p->pos++;
        switch (c) {
        case '"': case '\\': case '/': dst[p->str_used++] = (char)c; break;
        case 'b': dst[p->str_used++] = '\b'; break;
        case 'f': dst[p->str_used++] = '\f'; break;
        case 'n': dst[p->str_used++] = '\n'; break;
        case 'r': dst[p->str_used++] = '\r'; break;
        case 't': dst[p->str_used++] = '\t'; break;
        case 'u': {
            unsigned cp = 0;
            for (int i = 0; i < 4; i++) {
                int h = hex_digit(peek(p));
                if (h < 0)
                    return fail(p, "bad \\u escape");
                cp = cp * 16 + (unsigned)h;
                p->pos++;
            }
            /* A code point of the Basic Multilingual Plane fits the 6 bytes the escape
             * occupied (U+FFFD stands for bytes our writer found not to be UTF-8).
             * Surrogates (pairs or lone) and NUL are refused rather than half-decoded. */
            if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF))
                return fail(p, "unsupported \\u escape");
            if (cp < 0x80) {
                dst[p->str_used++] = (char)cp;
            } else if (cp < 0x800) {
                dst[p->str_used++] = (char)(0xC0 | (cp >> 6));
                dst[p->str_used++] = (char)(0x80 | (cp & 0x3F));
            } else {
                dst[p->str_used++] = (char)(0xE0 | (cp >> 12));
                dst[p->str_used++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                dst[p->str_used++] = (char)(0x80 | (cp & 0x3F));
            }
            break;
        }
        default:
            p->pos--;
            return fail(p, "bad escape in string");
        }
    }
    dst[p->str_used++] = 0;
    return MP_OK;
}

static mp_status parse_number(parser *p, mp_json_node *n)
{
    size_t start = p->pos;
    const char *t = p->text;
    size_t i = p->pos;
    int integer = 1;
    if (i < p->len && t[i] == '-')
        i++;
    if (i < p->len && t[i] == '0')
        i++;
    else if (i < p->len && t[i] >= '1' && t[i] <= '9')
        while (i < p->len && t[i] >= '0' && t[i] <= '9')
            i++;
    else
        return fail(p, "bad number");
    if (i < p->len && t[i] == '.') {
        integer = 0;
        if (++i >= p->len || t[i] < '0' || t[i] > '9')
            return fail(p, "bad number");
        while (i < p->len && t[i] >= '0' && t[i] <= '9')
            i++;
    }
    if (i < p->len && (t[i] == 'e' || t[i] == 'E')) {
        integer = 0;
        i++;
        if (i < p->len && (t[i] == '+' || t[i] == '-'))
            i++;
        if (i >= p->len || t[i] < '0' || t[i] > '9')
            return fail(p, "bad number");
        while (i < p->len && t[i] >= '0' && t[i] <= '9')
            i++;
    }
    char buf[64];
    if (i - start >= sizeof buf)
        return fail(p, "number too long");
    memcpy(buf, t + start, i - start);
    buf[i - start] = 0;
    n->number = strtod(buf, NULL);
    n->is_integer = integer;
    p->pos = i;
    return MP_OK;
}

static mp_status parse_value(parser *p, unsigned depth, uint32_t *out);

static mp_status parse_container(parser *p, unsigned depth, uint32_t self, int object)
{
    uint32_t last = MP_JSON_NONE;
    p->pos++; /* [ or { */
    skip_space(p);
    if (peek(p) == (object ? '}' : ']')) {
        p->pos++;
        return MP_OK;
    }
    for (;;) {
        uint32_t key = UINT32_MAX, child;
        mp_status st;
        if (object) {
            skip_space(p);
            if (peek(p) != '"')
                return fail(p, "expected a key");
            if ((st = parse_string(p, &key)) != MP_OK)
                return st;
            skip_space(p);
            if (peek(p) != ':')
                return fail(p, "expected ':'");
            p->pos++;
        }
        if ((st = parse_value(p, depth + 1, &child)) != MP_OK)
            return st;
        mp_json_node *nodes = p->doc->nodes; /* parse_value may have moved them */
        nodes[child].key = key;
        if (last == MP_JSON_NONE)
            nodes[self].child = child;
        else
            nodes[last].next = child;
        nodes[self].count++;
        last = child;
        skip_space(p);
        int c = peek(p);
        p->pos++;
        if (c == ',')
            continue;
        if (c == (object ? '}' : ']'))
            return MP_OK;
        p->pos--;
        return fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static mp_status parse_literal(parser *p, const char *word, mp_json_type type, uint32_t *out)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->text + p->pos, word, n) != 0)
        return fail(p, "unexpected character");
    mp_status st = new_node(p, type, out);
    p->pos += n;
    return st;
}

static mp_status parse_value(parser *p, unsigned depth, uint32_t *out)
{
    if (depth > MP_JSON_MAX_DEPTH)
        return fail(p, "nested too deeply");
    skip_space(p);
    int c = peek(p);
    mp_status st;
    switch (c) {
    case '{':
    case '[':
        if ((st = new_node(p, c == '{' ? MP_JSON_OBJECT : MP_JSON_ARRAY, out)) != MP_OK)
            return st;
        return parse_container(p, depth, *out, c == '{');
    case '"':
        if ((st = new_node(p, MP_JSON_STRING, out)) != MP_OK)
            return st;
        return parse_string(p, &p->doc->nodes[*out].str);
    case 't': return parse_literal(p, "true", MP_JSON_TRUE, out);
    case 'f': return parse_literal(p, "false", MP_JSON_FALSE, out);
    case 'n': return parse_literal(p, "null", MP_JSON_NULL, out);
    case -1: return fail(p, "unexpected end of text");
    default:
        if (c != '-' && (c < '0' || c > '9'))
            return fail(p, "unexpected character");
        if ((st = new_node(p, MP_JSON_NUMBER, out)) != MP_OK)
            return st;
        return parse_number(p, &p->doc->nodes[*out]);
    }
}

mp_status mp_json_parse(const char *text, size_t len, const char *name, mp_json_doc *doc,
                        mp_error *err)
{
    memset(doc, 0, sizeof *doc);
    if (len > MP_JSON_MAX_BYTES)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: larger than %u bytes", name,
                            MP_JSON_MAX_BYTES);
    parser p = {text, len, 0, name, doc, 0, 0, err};
    doc->strings = malloc(len + 1);
    if (!doc->strings)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", name);
    uint32_t root;
    mp_status st = parse_value(&p, 0, &root);
    if (st == MP_OK) {
        skip_space(&p);
        if (p.pos != len)
            st = fail(&p, "text after the end of the value");
    }
    if (st != MP_OK)
        mp_json_free(doc);
    return st;
}

void mp_json_free(mp_json_doc *doc)
{
    free(doc->nodes);
    free(doc->strings);
    memset(doc, 0, sizeof *doc);
}

static int text_reserve(mp_text *t, size_t more)
{
    if (t->failed)
        return 0;
    if (t->len + more + 1 <= t->cap)
        return 1;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + more + 1)
        cap *= 2;
    char *d = realloc(t->data, cap);
    if (!d) {
        t->failed = 1;
        return 0;
    }
    t->data = d;
    t->cap = cap;
    return 1;
}

void mp_text_vprintf(mp_text *t, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n >= 0 && text_reserve(t, (size_t)n)) {
        vsnprintf(t->data + t->len, (size_t)n + 1, fmt, again);
        t->len += (size_t)n;
    }
    va_end(again);
}

void mp_text_printf(mp_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mp_text_vprintf(t, fmt, ap);
    va_end(ap);
}

static void text_append(mp_text *t, const char *s, size_t n)
{
    if (!text_reserve(t, n))
        return;
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = 0;
}

/* 1 when the character at s goes into a JSON string as it is (n: its length). */
static int json_plain(const unsigned char *s, size_t *n)
{
    if (*s == '"' || *s == '\\' || *s < 0x20 || *s == 0x7f)
        return 0;
    *n = mp_utf8_length(s, SIZE_MAX);
    return *n != 0;
}

void mp_text_json_string(mp_text *t, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    text_append(t, "\"", 1);
    while (*s) {
        /* a run of plain characters in one append (one per character was a seventh of
         * fuzz_info_json's CPU: its report is mostly strings) */
        const unsigned char *run = s;
        size_t n;
        while (*s && json_plain(s, &n))
            s += n;
        if (s > run)
            text_append(t, (const char *)run, (size_t)(s - run));
        if (!*s)
            break;
        char esc[8];
        if (*s == '"' || *s == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*s;
            text_append(t, esc, 2);
        } else if (*s < 0x20 || *s == 0x7f) {
            snprintf(esc, sizeof esc, "\\u%04x", *s);
            text_append(t, esc, 6);
        } else {
            text_append(t, "\\ufffd", 6);   /* not UTF-8: the replacement character */
        }
        s++;
    }
    text_append(t, "\"", 1);
}

void mp_json_write_string(FILE *f, const char *s)
{
    mp_text t = {0};
    mp_text_json_string(&t, s);
    fputs(t.failed ? "null" : t.data, f);
    mp_text_free(&t);
}

void mp_text_free(mp_text *t)
{
    free(t->data);
    memset(t, 0, sizeof *t);
}
