/* Kelvin -> camera neutral, as mlv_dump (ML modules/mlv_rec/dng/dng.c, get_white_balance and
 * kelvin_green_to_multipliers, adapted there from UFRaw) and MLV-App (src/dng/dng.c, same
 * code) compute it. Read from their public source; the steps, in our words:
 *
 *  1. The white's chromaticity x on the CIE daylight locus: the CIE cubic in 1/T for
 *     4000-7000 K and 7000-25000 K, and UFRaw's extension of the same form below 4000 K;
 *     y = -3x^2 + 2.87x - 0.275.
 *  2. That white (Y = 1) is taken to linear sRGB with the XYZ -> sRGB matrix and back to
 *     XYZ with the sRGB -> XYZ matrix, both to the 6 digits UFRaw prints. The two are not
 *     exact inverses; the round trip moves the neutral by up to ~1e-4, and we keep it so
 *     that our AsShotNeutral equals the peers' to about 1e-7.
 *  3. camera = ColorMatrix2 (the D65 matrix) x XYZ, normalised to green. Only the D65 matrix
 *     is used, at every temperature (no interpolation between the two illuminants' matrices
 *     as the DNG specification does for rendering).
 *
 * The WBAL shifts are not used by mlv_dump or MLV-App (MLV-App: "no idea how to use these in
 * post"); we apply them before step 2, as Canon defines them: a blue/amber level is 5 mired
 * of a colour conversion filter (Canon EOS manuals, "White balance correction"), amber
 * meaning a warmer picture, i.e. a white 5 mired bluer; a green/magenta level moves the
 * white the same CIE 1960 uv distance across the locus, green meaning a greener picture,
 * i.e. a more magenta white. Clips with no shift (the usual case, and the peer references)
 * are unaffected. */
#include "common/mp_white.h"

#include <math.h>

#define MIRED_PER_SHIFT 5.0

static double daylight_x(double t)
{
    double t2 = t * t, t3 = t2 * t;
    if (t <= 4000)
        return 0.27475e9 / t3 - 0.98598e6 / t2 + 1.17444e3 / t + 0.145986;
    if (t <= 7000)
        return -4.6070e9 / t3 + 2.9678e6 / t2 + 0.09911e3 / t + 0.244063;
    return -2.0064e9 / t3 + 1.9018e6 / t2 + 0.24748e3 / t + 0.237040;
}

static void daylight_uv(double t, double uv[2])
{
    double x = daylight_x(t), y = -3 * x * x + 2.87 * x - 0.275;
    double d = -2 * x + 12 * y + 3;
    uv[0] = 4 * x / d;
    uv[1] = 6 * y / d;
}

/* The white's CIE 1960 uv: kelvin moved by the blue/amber mired shift along the locus, then
 * across it by the green/magenta shift, one level = the uv length of one B/A level here. */
static void shifted_white_uv(double kelvin, int32_t gm, int32_t ba, double uv[2])
{
    double mired = 1e6 / kelvin - MIRED_PER_SHIFT * ba;
    double t = 1e6 / (mired > 1e6 / MP_WB_KELVIN_MAX ? mired : 1e6 / MP_WB_KELVIN_MAX);
    daylight_uv(t, uv);
    if (!gm)
        return;
    double a[2], b[2];
    daylight_uv(1e6 / (1e6 / t + MIRED_PER_SHIFT / 2), a);   /* warmer */
    daylight_uv(1e6 / (1e6 / t - MIRED_PER_SHIFT / 2), b);   /* bluer */
    double du = b[0] - a[0], dv = b[1] - a[1];
    /* (dv, -du) is perpendicular and as long as one level; the locus runs to smaller u and
     * v as it gets bluer, so with dv < 0 it points to larger v, the green side. A green
     * picture needs a magenta white: move against it. */
    double to_green = dv < 0 ? 1.0 : -1.0;
    uv[0] -= to_green * gm * dv;
    uv[1] += to_green * gm * du;
}

int mp_wb_kelvin_neutral(const mp_color_calib *cal, double kelvin, int32_t shift_gm,
                         int32_t shift_ba, double neutral[3])
{
    /* UFRaw's constants, as printed in its source (row = output channel). */
    static const double xyz_to_srgb[3][3] = {{3.24071, -1.53726, -0.498571},
                                             {-0.969258, 1.87599, 0.0415557},
                                             {0.0556352, -0.203996, 1.05707}};
    static const double srgb_to_xyz[3][3] = {{0.412453, 0.357580, 0.180423},
                                             {0.212671, 0.715160, 0.072169},
                                             {0.019334, 0.119193, 0.950227}};
    if (!cal->count || !(kelvin > 0))
        return 0;
    double uv[2];
    shifted_white_uv(kelvin, shift_gm, shift_ba, uv);
    double d = 2 * uv[0] - 8 * uv[1] + 4, x = 3 * uv[0] / d, y = 2 * uv[1] / d;
    double white[3] = {x / y, 1.0, (1 - x - y) / y}, rgb[3], xyz[3], cm[3][3];
    for (int i = 0; i < 3; i++)
        rgb[i] = xyz_to_srgb[i][0] * white[0] + xyz_to_srgb[i][1] * white[1] +
                 xyz_to_srgb[i][2] * white[2];
    for (int i = 0; i < 3; i++)
        xyz[i] = srgb_to_xyz[i][0] * rgb[0] + srgb_to_xyz[i][1] * rgb[1] +
                 srgb_to_xyz[i][2] * rgb[2];
    mp_color_calib_matrix(cal, mp_color_calib_daylight_index(cal), cm);
    double cam[3];
    for (int i = 0; i < 3; i++)
        cam[i] = cm[i][0] * xyz[0] + cm[i][1] * xyz[1] + cm[i][2] * xyz[2];
    if (!(cam[0] > 0 && cam[1] > 0 && cam[2] > 0) || !isfinite(cam[0] + cam[1] + cam[2]))
        return 0;
    for (int i = 0; i < 3; i++)
        neutral[i] = cam[i] / cam[1];
    neutral[1] = 1.0;
    return 1;
}

/* mlv_dump's Kelvin for the preset modes; auto, Kelvin and unknown modes use the recorded
 * value. */
static double mode_kelvin(const mp_white_balance *wb)
{
    switch (wb->mode) {
    case MP_WB_MODE_SUNNY:
    case MP_WB_MODE_FLASH: return 5500;
    case MP_WB_MODE_SHADE: return 7000;
    case MP_WB_MODE_CLOUDY: return 6000;
    case MP_WB_MODE_TUNGSTEN: return 3200;
    case MP_WB_MODE_FLUORESCENT: return 4000;
    }
    return wb->kelvin;
}

int mp_wb_as_shot_neutral(const mp_white_balance *wb, const mp_color_calib *cal,
                          double neutral[3])
{
    if (!wb || !wb->present)
        return 0;
    if (wb->mode == MP_WB_MODE_CUSTOM) {
        if (!wb->gain_r || !wb->gain_g || !wb->gain_b)
            return 0;
        neutral[0] = (double)wb->gain_r / wb->gain_g;
        neutral[1] = 1.0;
        neutral[2] = (double)wb->gain_b / wb->gain_g;
        return 1;
    }
    double k = mode_kelvin(wb);
    if (k < MP_WB_KELVIN_MIN || k > MP_WB_KELVIN_MAX)
        return 0;
    /* Canon's shifts run -9..9; anything else is a damaged block, not a bigger shift */
    int32_t gm = wb->shift_gm < -9 ? -9 : wb->shift_gm > 9 ? 9 : wb->shift_gm;
    int32_t ba = wb->shift_ba < -9 ? -9 : wb->shift_ba > 9 ? 9 : wb->shift_ba;
    return mp_wb_kelvin_neutral(cal, k, gm, ba, neutral);
}
