/* The transfer curves, one formula each (doc/colour.md gives each one's source and its
 * reference values). develop/curve.c makes its lookup table from mp_curve_eval. */
#include "common/mp_color.h"

#include <math.h>

/* ARRI LogC4: a = (2^18 - 16) / 117.45, b = (1023 - 95) / 1023, c = 95 / 1023; below t
 * (negative, so never for x >= 0) the curve is a line of slope 1 / s. */
static double logc4(double x)
{
    const double a = (262144.0 - 16.0) / 117.45, b = (1023.0 - 95.0) / 1023.0,
                 c = 95.0 / 1023.0;
    return (log2(a * x + 64.0) - 6.0) / 14.0 * b + c;
}

/* Canon Log 3 takes light relative to a 90 % reflector (x / 0.9) and gives the code value
 * of its legal-range signal as a fraction of 1023. */
static double clog3(double x)
{
    x /= 0.9;
    return x <= 0.014 ? 1.9754798 * x + 0.12512219
                      : 0.36726845 * log10(14.98325 * x + 1.0) + 0.12240537;
}

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
    case MP_CURVE_ACESCCT:
        return x <= 0.0078125 ? 10.5402377416545 * x + 0.0729055341958355
                              : (log2(x) + 9.72) / 17.52;
    case MP_CURVE_DAVINCI:
        return x <= 0.00262409 ? 10.44426855 * x : (log2(x + 0.0075) + 7.0) * 0.07329248;
    case MP_CURVE_LOGC4:
        return logc4(x);
    case MP_CURVE_VLOG:
        return x < 0.01 ? 5.6 * x + 0.125 : 0.241514 * log10(x + 0.00873) + 0.598206;
    case MP_CURVE_CLOG3:
        return clog3(x);
    case MP_CURVE_SRGB:
        return x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1.0 / 2.4) - 0.055;
    case MP_CURVE_LINEAR:
    default:
        return x;
    }
}

const char *mp_curve_name(mp_curve c)
{
    static const char *const names[MP_CURVE_COUNT] = {
        [MP_CURVE_LINEAR] = "linear",
        [MP_CURVE_BT709] = "ITU-R BT.709",
        [MP_CURVE_LOGC3] = "ARRI LogC3 (EI 800)",
        [MP_CURVE_SLOG3] = "Sony S-Log3",
        [MP_CURVE_ACESCCT] = "ACEScct",
        [MP_CURVE_DAVINCI] = "DaVinci Intermediate",
        [MP_CURVE_LOGC4] = "ARRI LogC4",
        [MP_CURVE_VLOG] = "Panasonic V-Log",
        [MP_CURVE_CLOG3] = "Canon Log 3",
        [MP_CURVE_SRGB] = "sRGB (IEC 61966-2-1)",
    };
    return (unsigned)c < MP_CURVE_COUNT ? names[c] : "?";
}
