/* mp_icc_profile: the ICC.1:2001-04 (v2.1) layout, every number big-endian: a 128-byte header,
 * the tag table, then each tag's data at a 4-byte boundary. Nothing varies from run to run
 * (the date is fixed), so the files that carry it stay reproducible. */
#include "encode/icc_profile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/mp_color_math.h"

#define TRC_POINTS 256
#define TAGS 9

static void be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void be16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void s15f16(uint8_t *p, double v)
{
    be32(p, (uint32_t)(int32_t)lround(v * 65536.0));
}

typedef struct icc_writer {
    uint8_t *out;
    size_t end;        /* bytes used */
    unsigned tags;
} icc_writer;

/* Starts tag `sig`'s data (type signature + 4 reserved bytes) and returns where it goes. */
static uint8_t *tag_begin(icc_writer *w, const char sig[4], const char type[4])
{
    w->end = (w->end + 3) & ~(size_t)3;
    uint8_t *entry = w->out + 132 + 12 * w->tags++;
    memcpy(entry, sig, 4);
    be32(entry + 4, (uint32_t)w->end);
    uint8_t *p = w->out + w->end;
    memcpy(p, type, 4);
    return p;
}

static void tag_end(icc_writer *w, const uint8_t *data, size_t size)
{
    be32(w->out + 132 + 12 * (w->tags - 1) + 8, (uint32_t)size);
    w->end = (size_t)(data - w->out) + size;
}

/* The same data under a second signature (the three TRCs share one curve). */
static void tag_alias(icc_writer *w, const char sig[4])
{
    uint8_t *entry = w->out + 132 + 12 * w->tags++;
    memcpy(entry, sig, 4);
    memcpy(entry + 4, entry - 8, 8);
}

static void xyz_tag(icc_writer *w, const char sig[4], const double xyz[3])
{
    uint8_t *p = tag_begin(w, sig, "XYZ ");
    for (int k = 0; k < 3; k++)
        s15f16(p + 8 + 4 * k, xyz[k]);
    tag_end(w, p, 20);
}

/* Code value -> scene linear (clipped to the profile's white), by bisection of the curve. */
static double inverse(mp_curve c, double code)
{
    double lo = 0, hi = 1;
    if (mp_curve_eval(c, 1.0) <= code)
        return 1;
    for (int i = 0; i < 48; i++) {
        double mid = 0.5 * (lo + hi);
        if (mp_curve_eval(c, mid) < code)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

size_t mp_icc_profile(mp_gamut g, mp_curve c, uint8_t out[MP_ICC_MAX])
{
    memset(out, 0, MP_ICC_MAX);
    icc_writer w = {out, 132 + 12 * TAGS, 0};
    be32(out + 8, 0x02100000);            /* version 2.1 */
    memcpy(out + 12, "mntrRGB XYZ ", 12);  /* display class, RGB data, XYZ connection */
    static const uint16_t date[6] = {2024, 1, 1, 0, 0, 0};
    for (int k = 0; k < 6; k++)
        be16(out + 24 + 2 * k, date[k]);
    memcpy(out + 36, "acsp", 4);
    double d50[3];
    mp_xy_to_xyz(0.34567, 0.35850, d50);
    for (int k = 0; k < 3; k++)
        s15f16(out + 68 + 4 * k, d50[k]);
    be32(out + 128, TAGS);

    char text[96];
    int n = snprintf(text, sizeof text, "mlvpipe: %s, %s", mp_gamut_name(g), mp_curve_name(c));
    uint8_t *p = tag_begin(&w, "desc", "desc");
    be32(p + 8, (uint32_t)n + 1);
    memcpy(p + 12, text, (size_t)n + 1);
    tag_end(&w, p, 12 + (size_t)n + 1 + 4 + 4 + 2 + 1 + 67);   /* empty Unicode, ScriptCode */
    static const char rights[] = "No copyright, use freely";
    p = tag_begin(&w, "cprt", "text");
    memcpy(p + 8, rights, sizeof rights);
    tag_end(&w, p, 8 + sizeof rights);

    double white[3];
    mat3 rgb_to_xyz = mp_gamut_rgb_to_xyz(g, white);
    mat3 to_d50 = mp_mat3_mul(mp_bradford(white, d50), rgb_to_xyz);
    xyz_tag(&w, "wtpt", white);
    static const char *const colorants[3] = {"rXYZ", "gXYZ", "bXYZ"};
    for (int k = 0; k < 3; k++) {
        const double col[3] = {to_d50.m[0][k], to_d50.m[1][k], to_d50.m[2][k]};
        xyz_tag(&w, colorants[k], col);
    }
    p = tag_begin(&w, "rTRC", "curv");
    if (c == MP_CURVE_LINEAR) {
        be32(p + 8, 1);
        be16(p + 12, 0x0100);             /* gamma 1.0 (u8Fixed8) */
        tag_end(&w, p, 14);
    } else {
        be32(p + 8, TRC_POINTS);
        for (int i = 0; i < TRC_POINTS; i++)
            be16(p + 12 + 2 * i,
                 (uint16_t)lround(65535.0 * inverse(c, (double)i / (TRC_POINTS - 1))));
        tag_end(&w, p, 12 + 2 * TRC_POINTS);
    }
    tag_alias(&w, "gTRC");
    tag_alias(&w, "bTRC");
    w.end = (w.end + 3) & ~(size_t)3;
    be32(out, (uint32_t)w.end);
    return w.end;
}
