/* json: a small, bounded JSON reader (RFC 8259 grammar, no extensions) and a text builder,
 * enough for mlvpipe's sidecar files. Parsing builds a flat node array; limits on input size,
 * node count and nesting keep hostile files from costing more than a few megabytes. */
#ifndef MP_JSON_H
#define MP_JSON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/mp_status.h"

#define MP_JSON_MAX_BYTES (1u << 20)
#define MP_JSON_MAX_NODES 65536u
#define MP_JSON_MAX_DEPTH 16u

typedef enum mp_json_type {
    MP_JSON_NULL, MP_JSON_FALSE, MP_JSON_TRUE, MP_JSON_NUMBER, MP_JSON_STRING,
    MP_JSON_ARRAY, MP_JSON_OBJECT
} mp_json_type;

#define MP_JSON_NONE 0u   /* "no node": the root is node 0 and is nobody's child or sibling */

typedef struct mp_json_node {
    mp_json_type type;
    uint32_t offset;      /* byte offset of the value in the text */
    uint32_t key;         /* members: offset of the key in doc->strings, else UINT32_MAX */
    uint32_t child;       /* arrays and objects: first element, or MP_JSON_NONE */
    uint32_t next;        /* next element of the parent, or MP_JSON_NONE */
    uint32_t count;       /* arrays and objects: number of elements */
    uint32_t str;         /* strings: offset in doc->strings (NUL-terminated, UTF-8) */
    int is_integer;       /* numbers written without fraction or exponent */
    double number;
} mp_json_node;

typedef struct mp_json_doc {
    mp_json_node *nodes;  /* nodes[0] is the root value */
    uint32_t count;
    char *strings;        /* decoded keys and strings */
} mp_json_doc;

/* Parses text[0..len). name prefixes error messages ("FILE: offset N: cause"). */
mp_status mp_json_parse(const char *text, size_t len, const char *name, mp_json_doc *doc,
                        mp_error *err);
void mp_json_free(mp_json_doc *doc);

static inline const char *mp_json_key(const mp_json_doc *d, uint32_t node)
{
    return d->strings + d->nodes[node].key;
}
static inline const char *mp_json_string(const mp_json_doc *d, uint32_t node)
{
    return d->strings + d->nodes[node].str;
}

/* A growing text buffer; on allocation failure it remembers the failure and stops. */
typedef struct mp_text {
    char *data;
    size_t len, cap;
    int failed;
} mp_text;

/* Length (1..4) of the valid UTF-8 sequence at s (at most avail bytes), 0 when the bytes at
 * s are not UTF-8 (overlong forms, surrogates and code points past U+10FFFF are not). A NUL
 * ends a NUL-terminated string's sequence early, so a large avail is safe there. */
size_t mp_utf8_length(const unsigned char *s, size_t avail);

void mp_text_printf(mp_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mp_text_vprintf(mp_text *t, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Appends s as a JSON string literal: '"' and '\\' escaped, control characters and DEL as
 * \u00XX, valid UTF-8 copied, and every byte that does not start a valid UTF-8 sequence
 * (damaged metadata, Latin-1 file names) as \ufffd, so the output always parses. */
void mp_text_json_string(mp_text *t, const char *s);
void mp_text_free(mp_text *t);

/* Writes s to f as a JSON string literal, escaped as mp_text_json_string does ("null" when
 * out of memory, so the document still parses). */
void mp_json_write_string(FILE *f, const char *s);

#endif
