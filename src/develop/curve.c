#include "develop/curve.h"

#include <math.h>

double mp_curve_eval(mp_curve c, double x)
{
    x = x > 0 ? x : 0;
    switch (c) {
    case MP_CURVE_BT709:
        return x < 0.018 ? 4.5 * x : 1.099 * pow(x, 0.45) - 0.099;
    case MP_CURVE_LOGC3:
        return x > 0.010591 ? 0.247190 * log10(5.555556 * x + 0.052272) + 0.385537
                            : 5.367655 * x + 0.092809;
    case MP_CURVE_SLOG3:
        return x >= 0.01125 ? (420.0 + 261.5 * log10((x + 0.01) / 0.19)) / 1023.0
                            : (95.0 + x * (171.2102946929 - 95.0) / 0.01125) / 1023.0;
    case MP_CURVE_LINEAR:
    default:
        return x;
    }
}

static float code_value(mp_curve c, double x)
{
    double y = mp_curve_eval(c, x) * 65535.0;
    return (float)(y < 0 ? 0 : y > 65535.0 ? 65535.0 : y);
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
