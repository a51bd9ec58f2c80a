/* The simulated 5D Mark III-like sensor (doc/dualiso.md 8.2): Poisson photons, two analog gains
 * on alternating row pairs, Gaussian read noise, rounding and clipping. */
#include "synth/synth.h"

#include <math.h>

#include "synth/synth_rng.h"

/* 14-bit reference levels; other depths scale them by 2^(bits - 14). */
#define BLACK_14 2048.0
#define WHITE_14 15283.0
#define READ_NOISE_DARK_14 6.6
#define READ_NOISE_BRIGHT_14 13.8
#define FULL_WELL_E 66000.0

void mp_synth_sensor_default(synth_sensor *s, uint32_t bits, double ev_gap)
{
    double scale = ldexp(1, (int)bits - 14);
    *s = (synth_sensor){
        .bits = bits,
        .black = BLACK_14 * scale,
        .white = floor(WHITE_14 * scale + 0.5),  /* clip levels are whole DN */
        .full_well_e = FULL_WELL_E,
        .ev_gap = ev_gap,
        .read_noise_dark = READ_NOISE_DARK_14 * scale,
        .read_noise_bright = READ_NOISE_BRIGHT_14 * scale,
        .ob_left = 72,
        .ob_top = 28,
        .photon_noise = 1,
    };
}

double mp_synth_sensor_gain(const synth_sensor *s)
{
    return (s->white - s->black) / s->full_well_e;
}

int mp_synth_row_is_bright(const synth_sensor *s, uint32_t y)
{
    return s->ev_gap != 0 && (y + s->phase) % 4 >= 2;
}

static mp_status check_sensor(const synth_sensor *s, mp_error *err)
{
    if (s->bits != 10 && s->bits != 12 && s->bits != 14 && s->bits != 16)
        return mp_error_set(err, MP_ERR_ARG, "synth: %u-bit sensor not supported", s->bits);
    double max = ldexp(1, (int)s->bits) - 1;
    if (!(s->black >= 0 && s->black < s->white && s->white <= max) ||
        !(s->black + s->bright_black_offset >= 0 && s->black + s->bright_black_offset < s->white))
        return mp_error_set(err, MP_ERR_ARG,
                            "synth: levels black %g (+%g) / white %g invalid at %u bits",
                            s->black, s->bright_black_offset, s->white, s->bits);
    if (!(s->full_well_e > 0 && s->full_well_e < 1e9) || !(s->ev_gap >= 0 && s->ev_gap <= 16) ||
        !(s->read_noise_dark >= 0 && s->read_noise_dark <= max) ||
        !(s->read_noise_bright >= 0 && s->read_noise_bright <= max) || s->phase > 3)
        return mp_error_set(err, MP_ERR_ARG,
                            "synth: full well %g e-, gap %g EV, read noise %g/%g DN or phase %u "
                            "out of range",
                            s->full_well_e, s->ev_gap, s->read_noise_dark, s->read_noise_bright,
                            s->phase);
    return MP_OK;
}

mp_status mp_synth_expose(const synth_sensor *s, const float *truth, uint32_t width,
                       uint32_t height, uint64_t seed, uint32_t frame, mp_frame *out,
                       mp_error *err)
{
    if (!s || !out)
        return mp_error_set(err, MP_ERR_ARG, "synth: no sensor or output frame");
    mp_status st = check_sensor(s, err);
    if (st != MP_OK)
        return st;
    if (width == 0 || height == 0 || width > MP_FRAME_MAX_DIM || height > MP_FRAME_MAX_DIM ||
        s->ob_left > MP_FRAME_MAX_DIM || s->ob_top > MP_FRAME_MAX_DIM)
        return mp_error_set(err, MP_ERR_ARG, "synth: frame %ux%u + borders %u/%u out of range",
                            width, height, s->ob_left, s->ob_top);
    uint32_t bw = width + s->ob_left, bh = height + s->ob_top;
    st = mp_frame_reserve(out, bw, bh, err);
    if (st != MP_OK)
        return st;

    double gain_dark = mp_synth_sensor_gain(s);
    double gain_bright = gain_dark * mp_synth_det_exp2(s->ev_gap);
    double white = s->white;
    for (uint32_t y = 0; y < bh; y++) {
        /* One stream per row: the result does not depend on the order rows are made in. */
        synth_rng r;
        mp_synth_rng_init(&r, seed, ((uint64_t)frame << 32) | y);
        int bright = mp_synth_row_is_bright(s, y);
        double gain = bright ? gain_bright : gain_dark;
        double sigma = bright ? s->read_noise_bright : s->read_noise_dark;
        double black = s->black + (bright ? s->bright_black_offset : 0);
        const float *trow = truth && y >= s->ob_top
                                ? truth + (size_t)(y - s->ob_top) * width
                                : NULL;
        uint16_t *orow = out->data + (size_t)y * bw;
        for (uint32_t x = 0; x < bw; x++) {
            double e = trow && x >= s->ob_left ? trow[x - s->ob_left] : 0;
            if (!(e >= 0 && e < 1e12))
                return mp_error_set(err, MP_ERR_ARG,
                                    "synth: truth value %g at (%u, %u) is not a valid electron "
                                    "count",
                                    e, x - s->ob_left, y - s->ob_top);
            double n = s->photon_noise ? mp_synth_rng_poisson(&r, e) : e;
            double v = black + n * gain;
            if (sigma > 0)
                v += sigma * mp_synth_rng_gaussian(&r);
            v = floor(v + 0.5);
            orow[x] = (uint16_t)(v < 0 ? 0 : v > white ? white : v);
        }
    }
    out->bits = s->bits;
    out->black = (uint32_t)floor(s->black + 0.5);
    out->white = (uint32_t)white;
    out->cfa = MP_CFA_RGGB;
    out->number = frame;
    return MP_OK;
}
