/* curve: the float -> uint16 lookup table of a transfer curve (the curves themselves:
 * common/mp_color.h mp_curve_eval). One function builds the table of every curve. */
#ifndef MP_DEVELOP_CURVE_H
#define MP_DEVELOP_CURVE_H

#include <stdint.h>

#include "develop/develop.h"

/* The table covers [2^CURVE_LOG2_MIN, 2^CURVE_LOG2_MAX) with CURVE_STEPS_PER_OCTAVE linear
 * segments per octave, indexed straight from the float's exponent and top mantissa bits;
 * below the range every curve is linear (LogC4 within 1e-8), so one segment from 0 covers
 * it. The
 * interpolation error of the log curves is below 1e-6, far under one 16-bit code. */
#define CURVE_LOG2_MIN (-16)
#define CURVE_LOG2_MAX 8
#define CURVE_MANTISSA_BITS 7
#define CURVE_STEPS_PER_OCTAVE (1 << CURVE_MANTISSA_BITS)
#define CURVE_ENTRIES ((CURVE_LOG2_MAX - CURVE_LOG2_MIN) * CURVE_STEPS_PER_OCTAVE + 1)

typedef struct curve_lut {
    float zero;                 /* code value (0..65535 scale) of 0.0 */
    float y[CURVE_ENTRIES];     /* code value at the start of each segment, and the end */
} curve_lut;

void mp_curve_lut_init(curve_lut *lut, mp_curve c);

/* Scene linear -> uint16 code value; negatives and NaN give the code of 0. */
static inline uint16_t curve_lut_apply(const curve_lut *lut, float x)
{
    const float lo = 1.0f / (float)(1 << -CURVE_LOG2_MIN);
    float y;
    if (!(x >= lo)) {
        x = x > 0 ? x : 0; /* also maps NaN to 0 */
        y = lut->zero + (lut->y[0] - lut->zero) * (x / lo);
    } else if (x >= (float)(1 << CURVE_LOG2_MAX)) {
        y = lut->y[CURVE_ENTRIES - 1];
    } else {
        union { float f; uint32_t u; } v = {x};
        uint32_t octave = (v.u >> 23) - (uint32_t)(127 + CURVE_LOG2_MIN);
        uint32_t step = (v.u >> (23 - CURVE_MANTISSA_BITS)) & (CURVE_STEPS_PER_OCTAVE - 1);
        uint32_t i = octave * CURVE_STEPS_PER_OCTAVE + step;
        const uint32_t frac_bits = 23 - CURVE_MANTISSA_BITS;
        float t = (float)(v.u & ((1u << frac_bits) - 1)) * (1.0f / (float)(1u << frac_bits));
        y = lut->y[i] + (lut->y[i + 1] - lut->y[i]) * t;
    }
    y = y < 65535.0f ? y : 65535.0f;
    return (uint16_t)(y + 0.5f);
}

#endif
