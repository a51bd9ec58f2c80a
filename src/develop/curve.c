#include "develop/curve.h"

#include <math.h>

/* Not clipped at the top: a curve reaching 1.0 inside a segment would bend the line there
 * (up to 2 codes off for V-Log); the lookup clips after interpolating. */
static float code_value(mp_curve c, double x)
{
    double y = mp_curve_eval(c, x) * 65535.0;
    return (float)(y < 0 ? 0 : y);
}

void mp_curve_lut_init(curve_lut *lut, mp_curve c)
{
    lut->zero = code_value(c, 0);
    for (int i = 0; i < CURVE_ENTRIES; i++) {
        int octave = i / CURVE_STEPS_PER_OCTAVE, step = i % CURVE_STEPS_PER_OCTAVE;
        double x = ldexp(1.0 + (double)step / CURVE_STEPS_PER_OCTAVE, CURVE_LOG2_MIN + octave);
        lut->y[i] = code_value(c, x);
    }
}
