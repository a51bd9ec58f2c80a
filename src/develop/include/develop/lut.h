/* lut: a grading LUT from a .cube file (the format as Resolve and Adobe write it: a 1D table,
 * a 3D table, or a 1D shaper before a 3D table) applied to developed 16-bit RGB after the
 * transfer curve. doc/colour.md describes the format as read here.
 *
 * A value v (code / 65535) is taken into the table's domain (DOMAIN_MIN/MAX, or Resolve's
 * LUT_1D/3D_INPUT_RANGE; clamped to it), looked up (1D: linear interpolation per channel; 3D:
 * tetrahedral, red varying fastest in the file) and clamped to [0, 1]. The result of a pixel
 * depends on that pixel only, so it never depends on threads or strips. */
#ifndef MP_DEVELOP_LUT_H
#define MP_DEVELOP_LUT_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_status.h"

/* Table sizes read (the .cube specification's bounds). */
#define MP_LUT_1D_MAX 65536
#define MP_LUT_3D_MAX 256

typedef struct mp_lut {
    uint32_t size1d, size3d;       /* 0: no such table */
    float domain1d[2][3];          /* min, max of each channel's input */
    float domain3d[2][3];
    float *table1d;                /* size1d x RGB */
    float *table3d;                /* size3d^3 x RGB, red fastest */
} mp_lut;

/* Reads the text of a .cube file (len bytes; `name` names it in messages); a malformed one
 * fails with MP_ERR_FORMAT and one line "NAME:LINE: problem". */
mp_status mp_lut_parse(const char *name, const char *text, size_t len, mp_lut *lut,
                       mp_error *err);
void mp_lut_free(mp_lut *lut);

/* Applies the LUT to n pixels of three planes R, G, B in place. */
void mp_lut_apply(const mp_lut *lut, uint16_t *const plane[3], size_t n);

#endif
