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
/* A full line fit is trusted when noise in the cells' dark means takes less than this share
 * of its slope (-0.003 EV) and its offset is known to this many dark-field DN14 (1 sigma);
 * a flat field fails both (dualiso_ratio_source). */
#define DILUTION_MAX 2e-3
#define OFFSET_SE_MAX14 0.1
#define RATIO_SE_EV_MAX 0.03 /* a through-origin ratio known worse than this is not used */

const char *mp_dualiso_ratio_source_name(uint32_t source)
{
    static const char *const names[] = {"none", "fitted", "fitted_through_origin", "nominal"};
    return source < sizeof names / sizeof names[0] ? names[source] : "unknown";
}

void mp_dualiso_pool_options_default(dualiso_pool_options *o)
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

mp_status mp_dualiso_levels_passthrough(const mp_frame *f, dualiso_levels *lv, mp_error *err)
{
    mp_status st = mp_dualiso_check_frame(f, err);
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
    dualiso_fit_result fr;
    const dualiso_fit_options fit = {REJECT_SIGMA, 0, 0, 0};
    if (mp_dualiso_fit_line(x, y, w, m, &fit, &fr, NULL) && fr.b > 0) {
        *read_var = fr.b;
        *gain = fr.a > 0 ? fr.a : 0;
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

/* Matched cell means of the pool, one point (mean dark, mean bright) per unclipped cell. */
typedef struct ratio_points {
    uint32_t m;
    double *x, *y, *w, *cnt;
    double *step;  /* mean bright-field step across the cell's dark rows (dualiso_pair_cell) */
    uint8_t *keep;
} ratio_points;

static void ratio_points_free(ratio_points *p)
{
    free(p->x);
    free(p->y);
    free(p->w);
    free(p->cnt);
    free(p->step);
    free(p->keep);
}

static int ratio_points_gather(const dualiso_stats *many, uint32_t n, const dualiso_levels *lv,
                               ratio_points *p)
{
    uint32_t cap = n * DUALISO_CELLS * 3;
    memset(p, 0, sizeof *p);
    p->x = calloc(cap, sizeof *p->x);
    p->y = calloc(cap, sizeof *p->y);
    p->w = calloc(cap, sizeof *p->w);
    p->cnt = calloc(cap, sizeof *p->cnt);
    p->step = calloc(cap, sizeof *p->step);
    p->keep = calloc(cap, 1);
    if (!p->x || !p->y || !p->w || !p->cnt || !p->step || !p->keep)
        return 0;
    const double black = lv->in_black;
    const double max_b = black + 0.8 * (lv->white_bright - black);
    const double max_d = black + 0.95 * (lv->white_dark - black);
    for (uint32_t i = 0; i < n; i++) {
        if (many[i].frames == 0 || many[i].phase != lv->phase)
            continue;
        for (int c = 0; c < DUALISO_CELLS; c++)
            for (int ch = 0; ch < 3; ch++) {
                const dualiso_pair_cell *pc = &many[i].pairs[c][ch];
                if (pc->n < MIN_CELL_PAIRS || pc->max_bright >= max_b ||
                    pc->max_dark >= max_d)
                    continue;
                p->x[p->m] = pc->sum_dark / pc->n;
                p->y[p->m] = pc->sum_bright / pc->n;
                p->cnt[p->m] = pc->n;
                p->step[p->m] = pc->sum_step / pc->n;
                p->m++;
            }
    }
    return 1;
}

/* Per-pair variance of the dark field at dark level s: read + photon noise. */
static double dark_var(const dualiso_levels *lv, double s)
{
    double kd = lv->gain_dark > 0 ? lv->gain_dark : 0;
    return lv->noise_dark * lv->noise_dark + kd * (s > 0 ? s : 0);
}

/* Inverse variance of each cell mean of (bright - r * dark), read and photon noise of both
 * fields; without a ratio yet (r = 0) a rough 1 + level. */
static void ratio_weights(ratio_points *p, const dualiso_levels *lv, double r)
{
    double sb2 = lv->noise_bright * lv->noise_bright;
    double kd = lv->gain_dark > 0 ? lv->gain_dark : 0;
    for (uint32_t i = 0; i < p->m; i++) {
        double s = p->x[i] > 0 ? p->x[i] : 0;
        double var = r > 0 ? r * r * dark_var(lv, s) + sb2 + r * r * kd * s : 1 + s;
        p->w[i] = p->cnt[i] / var;
    }
}

/* Share of the fitted slope that noise in the cells' dark means takes away (regression
 * dilution): sum w var(x) / sum w (x - mean x)^2 over the kept cells. A cell mean of n pairs
 * averages about n/2 distinct dark samples (each sample also enters two interpolations). */
static double slope_dilution(const ratio_points *p, const dualiso_levels *lv)
{
    double sw = 0, sx = 0;
    for (uint32_t i = 0; i < p->m; i++)
        if (p->keep[i]) {
            sw += p->w[i];
            sx += p->w[i] * p->x[i];
        }
    if (!(sw > 0))
        return INFINITY;
    double mx = sx / sw, spread = 0, noise = 0;
    for (uint32_t i = 0; i < p->m; i++)
        if (p->keep[i]) {
            spread += p->w[i] * (p->x[i] - mx) * (p->x[i] - mx);
            noise += p->w[i] * 2 * dark_var(lv, p->x[i]) / p->cnt[i];
        }
    return spread > 0 ? noise / spread : INFINITY;
}

/* Full line fit bright = ratio * dark + offset. Means are unbiased for a linear relation (a
 * median of noisy shadows is not, doc/dualiso.md 6.1), so the offset comes out without the
 * spurious "black delta". Two passes: the weights need the ratio, which the first gives.
 * Refused (0) when the cells do not span enough levels to tell slope from intercept. */
static int fit_line_full(ratio_points *p, const dualiso_levels *lv, double *ratio,
                         double *offset, uint32_t *kept)
{
    dualiso_fit_options fit = {REJECT_SIGMA, 0, 0, 0};
    dualiso_fit_result fr = {0};
    for (int pass = 0; pass < 2; pass++) {
        ratio_weights(p, lv, pass == 0 ? 0 : fr.a);
        if (!mp_dualiso_fit_line(p->x, p->y, p->w, p->m, &fit, &fr, p->keep))
            return 0;
    }
    double se_offset14 = fr.se_b / fr.a * ldexp(1, 14 - (int)lv->bits);
    if (!(fr.a > 0) || !(slope_dilution(p, lv) <= DILUTION_MAX) ||
        !(se_offset14 <= OFFSET_SE_MAX14))
        return 0;
    /* The metadata black holds for both fields unless the data says otherwise: an offset
     * within its noise is noise, and would bias the deep shadows. */
    if (fabs(fr.b) < OFFSET_SIGNIFICANCE * fr.se_b) {
        ratio_weights(p, lv, fr.a);
        fit.fix_intercept = 1;
        if (!mp_dualiso_fit_line(p->x, p->y, p->w, p->m, &fit, &fr, NULL))
            return 0;
    }
    *ratio = fr.a;
    *offset = fr.b;
    *kept = fr.kept;
    return 1;
}

/* Marks (keep = 0) the cells a horizontal edge crosses: their interpolated partners mix
 * two levels. At one level, as in a flat field, the line fit's residuals cannot show them
 * (the top optical-black border alone biases the ratio by -0.007 EV at 2^6 e-), their
 * bright-field step stands out far more. Returns 0 when out of memory. */
static int mark_flat_cells(ratio_points *p)
{
    double *tmp = malloc((p->m ? p->m : 1) * sizeof *tmp);
    if (!tmp)
        return 0;
    for (uint32_t i = 0; i < p->m; i++)
        tmp[i] = p->step[i];
    double centre = p->m ? mp_dualiso_median(tmp, p->m) : 0;
    for (uint32_t i = 0; i < p->m; i++)
        tmp[i] = fabs(p->step[i] - centre);
    double limit = p->m ? REJECT_SIGMA * 1.4826 * mp_dualiso_median(tmp, p->m) : 0;
    for (uint32_t i = 0; i < p->m; i++)
        p->keep[i] = fabs(p->step[i] - centre) <= limit;
    free(tmp);
    return 1;
}

/* Offset 0 and the ratio of the fields' means over the cells no edge crosses: what a flat
 * field still tells. Cells weigh by their pair counts, as the cells sit at about one level
 * (weights from each cell's own noisy level would bias the ratio). Refused (0) when the
 * ratio is no better known than RATIO_SE_EV_MAX (nothing above noise). */
static int fit_through_origin(ratio_points *p, double *ratio, uint32_t *kept)
{
    const dualiso_fit_options fit = {REJECT_SIGMA, 1, 0, 1};
    dualiso_fit_result fr = {0};
    for (uint32_t i = 0; i < p->m; i++)
        p->w[i] = p->keep[i] ? p->cnt[i] : 0;
    if (!mp_dualiso_fit_line(p->x, p->y, p->w, p->m, &fit, &fr, NULL) || !(fr.a > 0))
        return 0;
    if (!(fr.se_a / fr.a <= RATIO_SE_EV_MAX * log(2.0)))
        return 0;
    *ratio = fr.a;
    *kept = fr.kept;
    return 1;
}

/* Ratio and bright-field offset in the order of dualiso_ratio_source; NONE when neither fit
 * holds (the caller then takes the nominal ratio), -1 when out of memory. */
static int fit_ratio(const dualiso_stats *many, uint32_t n, const dualiso_levels *lv,
                     double *ratio, double *offset, uint32_t *kept)
{
    ratio_points p;
    int source = -1;
    *offset = 0;
    if (ratio_points_gather(many, n, lv, &p)) {
        if (fit_line_full(&p, lv, ratio, offset, kept))
            source = DUALISO_RATIO_FITTED;
        else if (!mark_flat_cells(&p))
            source = -1;
        else if (fit_through_origin(&p, ratio, kept))
            source = DUALISO_RATIO_THROUGH_ORIGIN;
        else
            source = DUALISO_RATIO_NONE;
    }
    ratio_points_free(&p);
    return source;
}

int mp_dualiso_phase_majority(const uint32_t votes[4])
{
    int best = -1;
    for (int p = 0; p < 4; p++)
        if (votes[p] && (best < 0 || votes[p] > votes[best]))
            best = p;
    return best;
}

mp_status mp_dualiso_levels_pool(const dualiso_stats *many, uint32_t n,
                              const dualiso_pool_options *opt, dualiso_levels *lv,
                              mp_error *err)
{
    dualiso_pool_options defaults;
    if (!opt) {
        mp_dualiso_pool_options_default(&defaults);
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
        int p = mp_dualiso_phase_majority(votes);
        lv->phase = p < 0 ? 0 : (uint32_t)p;
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

    double ratio = 1, offset = 0;
    uint32_t kept = 0;
    int source = fit_ratio(many, n, lv, &ratio, &offset, &kept);
    if (source < 0)
        return mp_error_set(err, MP_ERR_NOMEM, "dualiso: out of memory pooling %u frames",
                            frames);
    if (source != DUALISO_RATIO_NONE) {
        lv->ratio = ratio;
        lv->black_bright = lv->in_black + offset;
        lv->cells_used = kept;
        if (have_b && gain_b > 0) /* the bright fit's intercept included -gain * offset */
            lv->noise_bright = sqrt(fmax(var_b + gain_b * offset, 0.25 * var_b));
    } else if (opt->nominal_ev > 0) {
        source = DUALISO_RATIO_NOMINAL;
        lv->ratio = exp2(opt->nominal_ev);
    } else {
        return mp_error_set(err, MP_ERR_FORMAT,
                            "dualiso: no unclipped matched pixel pairs above noise in %u "
                            "frames to fit the ISO ratio", frames);
    }
    lv->ratio_source = (uint32_t)source;
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
