/* Clip levels: pools the statistics of many frames into one set of levels, and the output
 * mapping every reconstructed frame of the clip shares. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dualiso_priv.h"

#define PILEUP_MIN 8         /* samples at the very top that make a clip level */
#define MIN_CELL_PAIRS 16
#define MIN_NOISE_PAIRS 32
#define REJECT_SIGMA 4.0
#define OFFSET_SIGNIFICANCE 3.0 /* standard errors a field offset must stand out by */
#define QUANT_NOISE 0.2887     /* 1 / sqrt(12) DN */
#define RATIO_MIN 1.2        /* below this the fields are not told apart reliably */

void dualiso_pool_options_default(dualiso_pool_options *o)
{
    o->nominal_ev = 0;
    o->force_phase = -1;
}

/* Output: 16-bit, the dark field's range scaled by a power of two where it fits, black an
 * exact integer. Identical for every frame that shares the levels. */
static void set_output_mapping(dualiso_levels *lv)
{
    double scale = ldexp(1.0, 16 - (int)lv->bits);
    double span = lv->white_dark - lv->black_dark;
    uint32_t ob = (uint32_t)lround(lv->in_black * scale);
    if (ob + scale * span > 65535.0) {
        scale = (65535.0 - ob) / span;
    }
    lv->out_black = ob;
    lv->out_scale = scale;
    double ow = floor(ob + scale * span);
    lv->out_white = ow > 65535.0 ? 65535u : (uint32_t)ow;
}

static void levels_from_metadata(dualiso_levels *lv, uint32_t bits, uint32_t black,
                                 uint32_t white)
{
    memset(lv, 0, sizeof *lv);
    lv->bits = bits;
    lv->in_black = black;
    lv->in_white = white;
    lv->ratio = 1;
    lv->black_dark = lv->black_bright = black;
    lv->white_dark = lv->white_bright = white;
    /* 5D Mark III-like read noise (6.6 DN14 of a 13235 DN14 range) until measured */
    lv->noise_dark = lv->noise_bright = (white - black) / 2000.0;
}

mp_status dualiso_levels_passthrough(const mp_frame *f, dualiso_levels *lv, mp_error *err)
{
    mp_status st = dualiso_check_frame(f, err);
    if (st != MP_OK)
        return st;
    levels_from_metadata(lv, f->bits, f->black, f->white);
    set_output_mapping(lv);
    return MP_OK;
}

/* Clip level of one field: a pile-up of samples at the maximum means clipping there;
 * otherwise the scene never reached the clip and the metadata white stands. */
static double field_white(const dualiso_stats *many, uint32_t n, int field, double black,
                          double meta_white)
{
    uint16_t top = 0;
    uint64_t count = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (many[i].frames == 0)
            continue;
        if (many[i].field_max[field] > top) {
            top = many[i].field_max[field];
            count = many[i].field_max_count[field];
        } else if (many[i].field_max[field] == top) {
            count += many[i].field_max_count[field];
        }
    }
    if (count >= PILEUP_MIN && top > black + 0.25 * (meta_white - black) && top <= meta_white)
        return top;
    return meta_white;
}

/* Photon transfer fit of one field: var = read_noise^2 + gain * level over the lower half of
 * the range; texture only adds variance and is rejected as outliers. */
static int fit_noise(const dualiso_stats *many, uint32_t n, uint32_t phase, int field,
                     double range, double *read_var, double *gain)
{
    uint32_t cap = n * DUALISO_CELLS, m = 0;
    double *x = calloc(cap, sizeof *x), *y = calloc(cap, sizeof *y),
           *w = calloc(cap, sizeof *w);
    int ok = 0;
    if (!x || !y || !w)
        goto done;
    for (uint32_t i = 0; i < n; i++) {
        if (many[i].frames == 0 || many[i].phase != phase)
            continue;
        for (int c = 0; c < DUALISO_CELLS; c++) {
            const dualiso_noise_cell *nc = &many[i].noise[field][c];
            if (nc->n < MIN_NOISE_PAIRS)
                continue;
            double level = nc->sum_level / nc->n, var = nc->sum_diff2 / nc->n / 6;
            if (level > 0.5 * range || !(var > 0))
                continue;
            x[m] = level;
            y[m] = var;
            w[m] = nc->n / (var * var);
            m++;
        }
    }
    double a, b;
    uint32_t kept;
    const dualiso_fit_options fit = {REJECT_SIGMA, 0, 0};
    if (dualiso_fit_line(x, y, w, m, &fit, &a, &b, NULL, &kept) && b > 0) {
        *read_var = b;
        *gain = a > 0 ? a : 0;
        ok = 1;
    } else if (m > 0) {
        double lo = y[0]; /* no spread: the quietest cell bounds the read noise */
        for (uint32_t i = 1; i < m; i++)
            lo = y[i] < lo ? y[i] : lo;
        *read_var = lo;
        *gain = 0;
        ok = 1;
    }
done:
    free(x);
    free(y);
    free(w);
    return ok;
}

/* Ratio and bright-field offset: every unclipped cell of every frame gives one point
 * (mean dark, mean bright) on the line bright = ratio * dark + offset. Means are unbiased
 * for a linear relation (a median of noisy shadows is not, dualiso.md 6.1), so the offset
 * comes out without the spurious "black delta". */
static int fit_ratio(const dualiso_stats *many, uint32_t n, const dualiso_levels *lv,
                     double *ratio, double *offset, uint32_t *kept)
{
    uint32_t cap = n * DUALISO_CELLS * 3, m = 0;
    double *x = calloc(cap, sizeof *x), *y = calloc(cap, sizeof *y),
           *w = calloc(cap, sizeof *w), *cnt = calloc(cap, sizeof *cnt);
    int ok = 0;
    if (!x || !y || !w || !cnt)
        goto done;
    const double black = lv->in_black;
    const double max_b = black + 0.8 * (lv->white_bright - black);
    const double max_d = black + 0.95 * (lv->white_dark - black);
    for (uint32_t i = 0; i < n; i++) {
        if (many[i].frames == 0 || many[i].phase != lv->phase)
            continue;
        for (int c = 0; c < DUALISO_CELLS; c++)
            for (int ch = 0; ch < 3; ch++) {
                const dualiso_pair_cell *p = &many[i].pairs[c][ch];
                if (p->n < MIN_CELL_PAIRS || p->max_bright >= max_b || p->max_dark >= max_d)
                    continue;
                x[m] = p->sum_dark / p->n;
                y[m] = p->sum_bright / p->n;
                cnt[m] = p->n;
                m++;
            }
    }
    /* Two passes: the weights (inverse variance of a cell mean, read + photon noise of
     * both fields) need the ratio, which the first pass gives. */
    double r = 1, off = 0, se = 0;
    dualiso_fit_options fit = {REJECT_SIGMA, 0, 0};
    for (int pass = 0; pass < 3; pass++) {
        double sd2 = lv->noise_dark * lv->noise_dark, sb2 = lv->noise_bright * lv->noise_bright;
        double kd = lv->gain_dark > 0 ? lv->gain_dark : 0;
        for (uint32_t i = 0; i < m; i++) {
            double s = x[i] > 0 ? x[i] : 0;
            double var = pass == 0 ? 1 + s : r * r * (sd2 + kd * s) + sb2 + r * r * kd * s;
            w[i] = cnt[i] / var;
        }
        if (pass == 2) {
            /* The metadata black holds for both fields unless the data says otherwise: an
             * offset within its noise is noise, and would bias the deep shadows. */
            if (fabs(off) >= OFFSET_SIGNIFICANCE * se)
                break;
            fit.fix_intercept = 1;
        }
        if (!dualiso_fit_line(x, y, w, m, &fit, &r, &off, &se, kept))
            goto done;
    }
    *ratio = r;
    *offset = off;
    ok = 1;
done:
    free(x);
    free(y);
    free(w);
    free(cnt);
    return ok;
}

mp_status dualiso_levels_pool(const dualiso_stats *many, uint32_t n,
                              const dualiso_pool_options *opt, dualiso_levels *lv,
                              mp_error *err)
{
    dualiso_pool_options defaults;
    if (!opt) {
        dualiso_pool_options_default(&defaults);
        opt = &defaults;
    }
    const dualiso_stats *first = NULL;
    uint32_t votes[4] = {0, 0, 0, 0}, frames = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (many[i].frames == 0)
            continue;
        if (!first)
            first = &many[i];
        if (many[i].bits != first->bits || many[i].black != first->black ||
            many[i].white != first->white)
            return mp_error_set(err, MP_ERR_ARG,
                                "dualiso: statistics %u has levels %u/%u at %u bits, "
                                "statistics 0 %u/%u at %u bits", i, many[i].black,
                                many[i].white, many[i].bits, first->black, first->white,
                                first->bits);
        for (int p = 0; p < 4; p++)
            votes[p] += many[i].phase_votes[p];
        frames += many[i].frames;
    }
    if (!first)
        return mp_error_set(err, MP_ERR_ARG, "dualiso: no frame statistics to pool");

    levels_from_metadata(lv, first->bits, first->black, first->white);
    lv->is_dual = 1;
    if (opt->force_phase >= 0 && opt->force_phase <= 3) {
        lv->phase = (uint32_t)opt->force_phase;
    } else {
        for (uint32_t p = 1; p < 4; p++)
            if (votes[p] > votes[lv->phase])
                lv->phase = p;
    }
    for (uint32_t i = 0; i < n; i++)
        if (many[i].frames && many[i].phase == lv->phase)
            lv->frames_used += many[i].frames;

    const double range = lv->in_white - lv->in_black;
    lv->white_dark = field_white(many, n, 0, lv->in_black, lv->in_white);
    lv->white_bright = field_white(many, n, 1, lv->in_black, lv->in_white);

    double var_d = 0, gain_d = 0, var_b = 0, gain_b = 0;
    int have_d = fit_noise(many, n, lv->phase, 0, range, &var_d, &gain_d);
    int have_b = fit_noise(many, n, lv->phase, 1, range, &var_b, &gain_b);
    if (have_d) {
        lv->noise_dark = sqrt(var_d);
        lv->gain_dark = gain_d;
    }
    if (have_b)
        lv->noise_bright = sqrt(var_b);

    double ratio, offset;
    uint32_t kept = 0;
    if (fit_ratio(many, n, lv, &ratio, &offset, &kept)) {
        lv->ratio = ratio;
        lv->black_bright = lv->in_black + offset;
        lv->cells_used = kept;
        if (have_b && gain_b > 0) /* the bright fit's intercept included -gain * offset */
            lv->noise_bright = sqrt(fmax(var_b + gain_b * offset, 0.25 * var_b));
    } else if (opt->nominal_ev > 0) {
        lv->ratio = exp2(opt->nominal_ev);
    } else {
        return mp_error_set(err, MP_ERR_FORMAT,
                            "dualiso: no unclipped matched pixel pairs in %u frames to fit "
                            "the ISO ratio", frames);
    }
    if (!(lv->ratio >= RATIO_MIN) || !isfinite(lv->ratio))
        return mp_error_set(err, MP_ERR_FORMAT,
                            "dualiso: fields differ by %.3f EV, not a dual-ISO clip",
                            lv->ratio > 0 ? log2(lv->ratio) : 0.0);
    lv->ratio_ev = log2(lv->ratio);
    /* never below the rounding noise of an integer sample: the mix divides by it */
    lv->noise_dark = fmax(lv->noise_dark, QUANT_NOISE);
    lv->noise_bright = fmax(lv->noise_bright, QUANT_NOISE);
    if (!have_d && have_b) /* one field measured: refer its read noise to the other */
        lv->noise_dark = lv->noise_bright;
    set_output_mapping(lv);
    return MP_OK;
}
