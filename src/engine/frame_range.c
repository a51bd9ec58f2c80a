#include "engine/frame_range.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPEN_END UINT32_MAX

/* Reads a decimal frame number at *p (digits only, below OPEN_END). */
static int parse_number(const char **p, uint32_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        v = v * 10 + (uint64_t)(*s - '0');
        if (v >= OPEN_END)
            return 0;
    }
    *out = (uint32_t)v;
    *p = s;
    return 1;
}

static void term_text(const mp_frame_term *t, char *buf, size_t size)
{
    int n;
    if (t->first == t->last)
        n = snprintf(buf, size, "%u", t->first);
    else if (t->last == OPEN_END)
        n = snprintf(buf, size, "%u-", t->first);
    else
        n = snprintf(buf, size, "%u-%u", t->first, t->last);
    if (t->step > 1 && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ":%u", t->step);
}

/* Parses one term of length len at s. */
static mp_status parse_term(const char *s, size_t len, mp_frame_term *t, mp_error *err)
{
    char text[64];
    if (len == 0)
        return mp_error_set(err, MP_ERR_ARG, "--frames: empty term");
    if (len >= sizeof text)
        return mp_error_set(err, MP_ERR_ARG, "--frames: term '%.40s...' too long", s);
    memcpy(text, s, len);
    text[len] = 0;

    const char *p = text;
    t->first = 0;
    t->last = OPEN_END;
    t->step = 1;
    int has_first = parse_number(&p, &t->first);
    if (*p == '-') {
        p++;
        if (*p >= '0' && *p <= '9' && !parse_number(&p, &t->last))
            goto bad;
        if (!has_first && t->last == OPEN_END)
            goto bad; /* a lone "-" */
    } else if (has_first) {
        t->last = t->first;
    } else {
        goto bad;
    }
    if (*p == ':') {
        p++;
        if (t->first == t->last || !parse_number(&p, &t->step) || t->step == 0)
            goto bad;
    }
    if (*p)
        goto bad;
    if (t->first > t->last)
        return mp_error_set(err, MP_ERR_ARG, "--frames: '%s' ends before it starts", text);
    return MP_OK;
bad:
    return mp_error_set(err, MP_ERR_ARG,
                        "--frames: cannot parse '%s' (use N, A-B, A-, -B, A-B:STEP, "
                        "or a comma-separated list)", text);
}

mp_status mp_frame_spec_parse(const char *text, mp_frame_spec *out, mp_error *err)
{
    out->count = 0;
    if (!text || !*text)
        return MP_OK;
    const char *s = text;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        if (out->count == MP_FRAME_RANGE_MAX_TERMS)
            return mp_error_set(err, MP_ERR_ARG, "--frames: more than %d terms",
                                MP_FRAME_RANGE_MAX_TERMS);
        mp_status st = parse_term(s, len, &out->terms[out->count], err);
        if (st != MP_OK)
            return st;
        out->count++;
        if (!comma)
            return MP_OK;
        s = comma + 1;
    }
}

static int term_contains(const mp_frame_term *t, uint32_t n)
{
    return n >= t->first && n <= t->last && (n - t->first) % t->step == 0;
}

mp_status mp_frame_spec_select(const mp_frame_spec *spec, const uint32_t *numbers,
                               uint32_t count, const mp_logger *log, uint32_t **indices,
                               uint32_t *selected, mp_error *err)
{
    *indices = NULL;
    *selected = 0;
    if (spec->count && count == 0)
        return mp_error_set(err, MP_ERR_RANGE, "--frames: the clip has no frames");
    uint32_t clip_last = count ? numbers[count - 1] : 0;
    for (uint32_t k = 0; k < spec->count; k++) {
        const mp_frame_term *t = &spec->terms[k];
        char text[64];
        term_text(t, text, sizeof text);
        if (t->first > clip_last)   /* a usage error: the clip is fine, the range is not */
            return mp_error_set(err, MP_ERR_ARG,
                                "--frames: '%s' starts after the clip's last frame %u",
                                text, clip_last);
        if (t->last != OPEN_END && t->last > clip_last)
            mp_log(log, MP_LOG_WARNING, "--frames: '%s' ends after the clip's last frame %u; "
                   "stopping there", text, clip_last);
    }

    uint32_t *list = malloc((count ? count : 1) * sizeof *list);
    if (!list)
        return mp_error_set(err, MP_ERR_NOMEM, "--frames: out of memory for %u frames", count);
    uint32_t n = 0;
    for (uint32_t i = 0; i < count; i++) {
        int take = spec->count == 0;
        for (uint32_t k = 0; k < spec->count && !take; k++)
            take = term_contains(&spec->terms[k], numbers[i]);
        if (take)
            list[n++] = i;
    }
    *indices = list;
    *selected = n;
    return MP_OK;
}
