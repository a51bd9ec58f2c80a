/* mp_lut_parse: the .cube text format. Keywords come first, one per line (TITLE "...",
 * LUT_1D_SIZE N, LUT_3D_SIZE N, DOMAIN_MIN r g b, DOMAIN_MAX r g b, LUT_1D_INPUT_RANGE lo hi,
 * LUT_3D_INPUT_RANGE lo hi), then the rows of three numbers: the 1D table's first when both
 * sizes are given (Resolve's shaper), then the 3D table's. '#' starts a comment; blank lines
 * are skipped. Anything else is refused with its line, so a file that means something we do
 * not read is never applied half understood. */
#include "develop/lut.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cube_reader {
    const char *path;
    unsigned line;
    mp_lut *lut;
    size_t rows, rows1d, rows3d;   /* rows read, and the rows each table takes */
    int domain_set, range1d_set, range3d_set;
    float domain[2][3];
} cube_reader;

static mp_status bad(const cube_reader *r, mp_error *err, const char *what, const char *text)
{
    return mp_error_set(err, MP_ERR_FORMAT, "%s:%u: %s%s%s", r->path, r->line, what,
                        text ? ": " : "", text ? text : "");
}

/* Exactly n finite numbers in s, nothing after them. */
static int numbers(const char *s, float *v, int n)
{
    for (int i = 0; i < n; i++) {
        char *end;
        errno = 0;
        double d = strtod(s, &end);
        if (end == s || errno == ERANGE || !(fabs(d) < 1e30) ||   /* no NaN, inf, huge */
            (*end && !strchr(" \t", *end)))
            return 0;
        v[i] = (float)d;
        s = end;
    }
    s += strspn(s, " \t");
    return *s == 0;
}

static mp_status size_keyword(cube_reader *r, const char *arg, int three, mp_error *err)
{
    mp_lut *lut = r->lut;
    uint32_t *size = three ? &lut->size3d : &lut->size1d;
    const uint32_t max = three ? MP_LUT_3D_MAX : MP_LUT_1D_MAX;
    char *end;
    unsigned long n = strtoul(arg, &end, 10);
    if (end == arg || *(end + strspn(end, " \t")) || n < 2 || n > max || *size)
        return bad(r, err, three ? "LUT_3D_SIZE needs one size from 2 to 256, once"
                                 : "LUT_1D_SIZE needs one size from 2 to 65536, once", arg);
    *size = (uint32_t)n;
    size_t entries = three ? (size_t)n * n * n : n;
    float *t = malloc(entries * 3 * sizeof *t);
    if (!t)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory for a %lu-point table",
                            r->path, n);
    *(three ? &lut->table3d : &lut->table1d) = t;
    *(three ? &r->rows3d : &r->rows1d) = entries;
    return MP_OK;
}

static mp_status keyword(cube_reader *r, char *s, mp_error *err)
{
    size_t k = strcspn(s, " \t");
    char *arg = s + k + strspn(s + k, " \t");
    s[k] = 0;
    if (r->rows)
        return bad(r, err, "a keyword after the table rows", s);
    if (!strcmp(s, "TITLE"))
        return MP_OK;
    if (!strcmp(s, "LUT_1D_SIZE") || !strcmp(s, "LUT_3D_SIZE"))
        return size_keyword(r, arg, s[4] == '3', err);
    int min = !strcmp(s, "DOMAIN_MIN");
    if (min || !strcmp(s, "DOMAIN_MAX")) {
        if (!numbers(arg, r->domain[!min], 3))
            return bad(r, err, min ? "DOMAIN_MIN needs three numbers" : "DOMAIN_MAX needs "
                       "three numbers", arg);
        r->domain_set |= min ? 1 : 2;
        return MP_OK;
    }
    int one = !strcmp(s, "LUT_1D_INPUT_RANGE");
    if (one || !strcmp(s, "LUT_3D_INPUT_RANGE")) {
        float v[2];
        if (!numbers(arg, v, 2))
            return bad(r, err, "an input range needs two numbers", arg);
        float (*d)[3] = one ? r->lut->domain1d : r->lut->domain3d;
        for (int c = 0; c < 3; c++) {
            d[0][c] = v[0];
            d[1][c] = v[1];
        }
        *(one ? &r->range1d_set : &r->range3d_set) = 1;
        return MP_OK;
    }
    return bad(r, err, "unknown keyword", s);
}

static mp_status row(cube_reader *r, const char *s, mp_error *err)
{
    mp_lut *lut = r->lut;
    if (!lut->size1d && !lut->size3d)
        return bad(r, err, "a table row before LUT_1D_SIZE or LUT_3D_SIZE", NULL);
    if (r->rows >= r->rows1d + r->rows3d)
        return bad(r, err, "more rows than the sizes say", NULL);
    float v[3];
    if (!numbers(s, v, 3))
        return bad(r, err, "a table row needs three numbers", s);
    float *to = r->rows < r->rows1d ? lut->table1d + 3 * r->rows
                                    : lut->table3d + 3 * (r->rows - r->rows1d);
    memcpy(to, v, sizeof v);
    r->rows++;
    return MP_OK;
}

/* The domains once every keyword is in: DOMAIN_MIN/MAX for a table whose own range was not
 * given, [0, 1] where nothing was said. */
static mp_status finish(cube_reader *r, mp_error *err)
{
    mp_lut *lut = r->lut;
    if (!lut->size1d && !lut->size3d)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: no LUT_1D_SIZE or LUT_3D_SIZE", r->path);
    if (r->rows < r->rows1d + r->rows3d)
        return mp_error_set(err, MP_ERR_FORMAT, "%s:%u: %zu table rows, the sizes say %zu",
                            r->path, r->line, r->rows, r->rows1d + r->rows3d);
    const float unit[2][3] = {{0, 0, 0}, {1, 1, 1}};
    for (int t = 0; t < 2; t++) {
        float (*d)[3] = t ? lut->domain3d : lut->domain1d;
        if (!(t ? r->range3d_set : r->range1d_set)) {
            memcpy(d, unit, sizeof unit);
            for (int m = 0; m < 2; m++)
                if (r->domain_set & (1 << m))
                    memcpy(d[m], r->domain[m], sizeof d[m]);
        }
        for (int c = 0; c < 3; c++)
            if (!(d[1][c] > d[0][c]))
                return mp_error_set(err, MP_ERR_FORMAT, "%s: the domain's maximum %g is not "
                                    "above its minimum %g", r->path, d[1][c], d[0][c]);
    }
    return MP_OK;
}

mp_status mp_lut_parse(const char *name, const char *text, size_t len, mp_lut *lut,
                       mp_error *err)
{
    *lut = (mp_lut){0};
    cube_reader r = {.path = name, .lut = lut};
    char line[1024];
    mp_status st = MP_OK;
    for (size_t at = 0; st == MP_OK && at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = (nl ? (size_t)(nl - text) : len) - at;
        r.line++;
        if (n >= sizeof line) {
            st = bad(&r, err, "a line longer than 1023 bytes", NULL);
            break;
        }
        memcpy(line, text + at, n);
        line[n] = 0;
        at += n + 1;
        char *s = line + strspn(line, " \t");
        s[strcspn(s, "#\r")] = 0;
        n = strlen(s);
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
            s[--n] = 0;
        if (!n)
            continue;
        if ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z'))
            st = keyword(&r, s, err);
        else
            st = row(&r, s, err);
    }
    if (st == MP_OK)
        st = finish(&r, err);
    if (st != MP_OK)
        mp_lut_free(lut);
    return st;
}
