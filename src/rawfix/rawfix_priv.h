/* Internals shared by the rawfix sources. */
#ifndef MP_RAWFIX_PRIV_H
#define MP_RAWFIX_PRIV_H

#include "rawfix/rawfix.h"
#include "rawfix/rawfix_dsp.h"

#define Z_SCALE 16              /* rawfix_measurement.z = deviation / noise x Z_SCALE */
#define Z_CLAMP 2000            /* |z| stored at most (125 noise sigmas) */
#define TEXTURE_WEIGHT 1.25     /* the texture yardstick is act / 8 x this, in DN */
#define Z_BIG (6 * Z_SCALE)     /* a frame where the sample is off by 6 sigmas or more */
#define Z_SUM_CLAMP (4 * Z_SCALE)   /* largest deviation one frame adds to a mean */
#define STRIPE_REACH 8          /* stripe window: same-colour columns x +- 2 .. x +- 8 */

/* Column step to the nearest same-colour sample of the same field. */
static inline uint32_t mp_rawfix_vstep(int dual)
{
    return dual ? 4 : 2;
}

/* measure.c: r's work arrays and outputs from m's block (after mp_rawfix_measure); then row
 * y of f, which m measured, into r->zh, r->zv and r->stripe, for m->measurable frames and
 * y in [vstep, height - vstep) (the other rows measure nothing). */
void mp_rawfix_row_begin(const rawfix_measurement *m, rawfix_row *r);
void mp_rawfix_measure_row(const rawfix_measurement *m, const mp_frame *f, uint32_t y,
                           rawfix_row *r);

#endif
