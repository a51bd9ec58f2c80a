/* libFuzzer target: the bounded JSON parser and the levels sidecar reader on arbitrary bytes.
 * Checks that every parsed document's links stay inside it, that its strings survive the JSON
 * writer and parser, that reading the bytes from a file agrees with reading them from memory,
 * and that a sidecar which parses comes back bit for bit after writing it out and reading it
 * again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/json.h"
#include "analysis/levels_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_doc(const mp_json_doc *d, size_t text_len)
{
    if (d->count == 0)
        __builtin_trap();
    for (uint32_t i = 0; i < d->count; i++) {
        const mp_json_node *n = &d->nodes[i];
        if (n->offset >= text_len || n->next >= d->count || n->child >= d->count ||
            (n->key != UINT32_MAX && n->key > text_len) ||
            (n->type == MP_JSON_STRING && n->str > text_len))
            __builtin_trap();
        uint32_t seen = 0;
        if (n->type == MP_JSON_ARRAY || n->type == MP_JSON_OBJECT)
            for (uint32_t c = n->count ? n->child : MP_JSON_NONE; c != MP_JSON_NONE;
                 c = d->nodes[c].next)
                if (c <= i || ++seen > n->count)   /* children follow their parent */
                    __builtin_trap();
        if (seen != ((n->type == MP_JSON_ARRAY || n->type == MP_JSON_OBJECT) ? n->count : 0))
            __builtin_trap();
    }
}

/* Every decoded string, written as a JSON literal and parsed again, comes back unchanged. */
static void check_string_round_trip(const char *str)
{
    mp_text t = {0};
    mp_json_doc doc;
    mp_error err;
    mp_text_json_string(&t, str);
    if (t.failed || mp_json_parse(t.data, t.len, "fuzz-string", &doc, &err) != MP_OK ||
        doc.nodes[0].type != MP_JSON_STRING || strcmp(mp_json_string(&doc, 0), str))
        __builtin_trap();
    mp_json_free(&doc);
    mp_text_free(&t);
}

/* Segments bit for bit, the defect map's pixel list by content (its pointer differs). */
static int same_segment(const mp_levels_segment *a, const mp_levels_segment *b)
{
    mp_levels_segment x = *a, y = *b;
    x.fix.pixels = y.fix.pixels = NULL;
    return !memcmp(&x, &y, sizeof x) &&
           (!a->fix.pixel_count ||
            !memcmp(a->fix.pixels, b->fix.pixels, 2 * sizeof *a->fix.pixels * a->fix.pixel_count));
}

static int same_levels(const mp_clip_levels *a, const mp_clip_levels *b)
{
    if (memcmp(a->tool, b->tool, sizeof a->tool) || a->options_hash != b->options_hash ||
        a->guid != b->guid || a->frame_count != b->frame_count ||
        a->first_frame != b->first_frame || a->last_frame != b->last_frame ||
        a->segment_count != b->segment_count)
        return 0;
    for (uint32_t i = 0; i < a->segment_count; i++)
        if (!same_segment(&a->segments[i], &b->segments[i]))
            return 0;
    return 1;
}

/* The file reader on the same bytes, through a memory file. */
static mp_status read_via_file(const uint8_t *data, size_t size, mp_clip_levels *cl)
{
    mp_error err;
    int fd = memfd_create("fuzz_levels", 0);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size)
        __builtin_trap();
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    mp_status st = mp_clip_levels_read(path, cl, &err);
    close(fd);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    mp_error err;
    mp_json_doc doc;
    if (mp_json_parse(text, size, "fuzz", &doc, &err) == MP_OK) {
        check_doc(&doc, size);
        for (uint32_t i = 0; i < doc.count; i++)
            if (doc.nodes[i].type == MP_JSON_STRING)
                check_string_round_trip(mp_json_string(&doc, i));
        mp_json_free(&doc);
    }

    mp_clip_levels cl, from_file, again;
    mp_status st = mp_clip_levels_from_json(text, size, "fuzz", &cl, &err);
    if (read_via_file(data, size, &from_file) != st)
        __builtin_trap();
    if (st != MP_OK)
        return 0;
    if (!same_levels(&cl, &from_file))
        __builtin_trap();
    char *out;
    size_t len;
    if (mp_clip_levels_to_json(&cl, &out, &len, &err) != MP_OK ||
        mp_clip_levels_from_json(out, len, "fuzz-again", &again, &err) != MP_OK ||
        !same_levels(&cl, &again))
        __builtin_trap();
    free(out);
    mp_clip_levels_free(&again);
    mp_clip_levels_free(&from_file);
    mp_clip_levels_free(&cl);
    return 0;
}
