/* Quality metrics of doc/dualiso.md 8.7. Region bounds below are quoted from that section. */
#include "metrics.h"

#include <math.h>
#include <string.h>

#include "synth/synth.h"

#define MARGIN 8           /* smooth-ramp mask, edge and zone-plate regions */
#define PATCH_INSET 6
#define ESF_HALF_PX 4.0    /* edge spread function sampled over +-4 px from the edge */
#define ESF_STEP_PX 0.25
#define ESF_BINS QM_ESF_BINS
#define STRIPE_PERIOD 37.0
#define STRIPE_SLANT 0.6   /* edges lie on x + 0.6 y = const */
#define STRIPE_EV 0.8

static const double band_lo[QM_BANDS] = {2, 5, 8, 11};
static const double band_width_ev = 3;
#define RES_LO_EV 3.0      /* resolution bands: 3 EV each from here */
#define RES_BAND_EV 3.0
#define DETAIL_R 2         /* local mean: same-colour samples up to 2 x 2 px away */
#define LINE_PAIR_LO 32.0  /* line-pair error over the smooth ramp from 2^5 e- ... */
#define LINE_PAIR_HI 16384.0 /* ... to 2^14 e- (the bias bins' range) */

double qm_line_pair_pct(const qm_report *r)
{
    if (!(r->row_true[0] > 0 && r->row_true[1] > 0))
        return NAN;
    return 100 * fabs(r->row_err[0] / r->row_true[0] - r->row_err[1] / r->row_true[1]);
}

double qm_res_band_lo_ev(int band)
{
    return RES_LO_EV + RES_BAND_EV * band;
}

static int res_band_of(double ev)
{
    int k = (int)floor((ev - RES_LO_EV) / RES_BAND_EV);
    return ev >= RES_LO_EV && k < QM_RES_BANDS ? k : -1;
}

double qm_band_lo_ev(int band)
{
    return band_lo[band];
}

typedef struct sums {
    double n, t, e, e2;    /* count, sum e_true, sum err, sum err^2 */
} sums;

static void add(sums *s, double t, double err)
{
    s->n += 1;
    s->t += t;
    s->e += err;
    s->e2 += err * err;
}

static double std_of(const sums *s)
{
    double m = s->e / s->n, v = s->e2 / s->n - m * m;
    return v > 0 ? sqrt(v) : 0;
}

/* Pixel position in the units 8.7 states its regions in. */
typedef struct where {
    double u, v, xs;       /* xs: scene x (photosite x + frame shift) */
    int x, y;
} where;

#define OBJECTS_GAP 4        /* second scene: px around objects left out of the ramp mask */
#define STAR_RING_LO 0.25   /* its edge region: the stars between these shares of radius */
#define STAR_RING_HI 0.95

static double dist2(double x0, double y0, double x1, double y1)
{
    return (x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0);
}

/* Second scene: 0 smooth ramp, 1 star ring (edges), 2 zone plate (inset), 3 other. */
static int objects_region(const where *p, const qm_input *in)
{
    synth_objects_layout l;
    mp_synth_objects_layout(in->width, in->height, &l);
    for (int i = 0; i < 2; i++) {
        double r2 = dist2(p->xs, p->y, l.star_x[i], l.star_y[i]);
        double lo = STAR_RING_LO * l.star_r, hi = STAR_RING_HI * l.star_r;
        if (r2 > lo * lo && r2 < hi * hi)
            return 1;
        double out = l.star_r + OBJECTS_GAP;
        if (r2 < out * out)
            return 3;
    }
    if (p->xs >= l.zone_x0 + MARGIN && p->xs < l.zone_x1 - MARGIN &&
        p->y >= l.zone_y0 + MARGIN && p->y < l.zone_y1 - MARGIN)
        return 2;
    if (p->xs >= l.zone_x0 - OBJECTS_GAP && p->xs < l.zone_x1 + OBJECTS_GAP &&
        p->y >= l.zone_y0 - OBJECTS_GAP && p->y < l.zone_y1 + OBJECTS_GAP)
        return 3;
    if (p->v > 0.48 && p->v < 0.64)
        return 3;  /* patches */
    return 0;
}

static int in_smooth_ramp(const where *p, const qm_input *in, int with_margin)
{
    if (with_margin && (p->x < MARGIN || p->x >= (int)in->width - MARGIN || p->y < MARGIN ||
                        p->y >= (int)in->height - MARGIN))
        return 0;
    if (in->objects)
        return objects_region(p, in) == 0;
    if (p->v > 0.35 && p->v < 0.5)
        return 0;  /* stripes */
    if (p->u < 0.45 && p->v > 0.62 && p->v < 0.95)
        return 0;  /* zone plate */
    if (p->v > 0.05 && p->v < 0.23)
        return 0;  /* patches */
    return 1;
}

static int inside_x_margin(const where *p, const qm_input *in)
{
    return p->x > MARGIN && p->x < (int)in->width - MARGIN;
}

static int in_edges(const where *p, const qm_input *in)
{
    if (in->objects)
        return objects_region(p, in) == 1;
    return p->v > 0.36 && p->v < 0.49;
}

static int in_zone(const where *p, const qm_input *in)
{
    if (in->objects)
        return objects_region(p, in) == 2;
    return p->u < 0.45 && p->v > 0.64 && p->v < 0.93;
}

static mp_status check_input(const qm_input *in, mp_error *err)
{
    if (!in || !in->truth || !in->out || !in->out->data)
        return mp_error_set(err, MP_ERR_ARG, "quality: missing truth or output");
    if (in->width == 0 || in->height == 0 ||
        (uint64_t)in->roi_x + in->width > in->out->width ||
        (uint64_t)in->roi_y + in->height > in->out->height)
        return mp_error_set(err, MP_ERR_ARG,
                            "quality: active area %ux%u at (%u, %u) outside the %ux%u output",
                            in->width, in->height, in->roi_x, in->roi_y, in->out->width,
                            in->out->height);
    if (!(in->s_out > 0) || !(in->white > in->black))
        return mp_error_set(err, MP_ERR_ARG, "quality: S_out %g or levels %g/%g invalid",
                            in->s_out, in->black, in->white);
    return MP_OK;
}

static double sample(const qm_input *in, int x, int y)
{
    return in->out->data[(size_t)(y + in->roi_y) * in->out->width + x + in->roi_x];
}

static int bin_of(double e_true)
{
    if (!(e_true > 0))
        return -1;
    double b = floor((log2(e_true) - QM_BIN_LO_EV) / QM_BIN_STEP_EV);
    return b >= 0 && b < QM_BINS ? (int)b : -1;
}

static int channel_of(int x, int y)
{
    if (!(x & 1) && !(y & 1))
        return 0;
    return (x & 1) && (y & 1) ? 2 : 1;
}

/* Edge spread along the diagonal stripes: each pixel's output level normalised so the dark
 * side of an edge is 0 and the bright side 1, binned by its signed distance to the nearest
 * edge (negative = dark side). */
typedef struct esf {
    double n[ESF_BINS], s[ESF_BINS];
} esf;

/* The ESF bin of a stripe pixel (its horizontal distance to the nearest edge, negative on
 * the dark side) and its side (+1 bright, -1 dark); -1 when it is not within reach. */
static int stripe_bin(const where *p, double *sigma)
{
    double t = p->xs + STRIPE_SLANT * p->y;
    double side = sin(2 * M_PI * t / STRIPE_PERIOD);
    if (side == 0)
        return -1;
    *sigma = side > 0 ? 1 : -1;
    double half = STRIPE_PERIOD / 2;
    double k = floor(t / half + 0.5);
    double d = t - k * half;            /* horizontal distance to edge k */
    if (fmod(fabs(k), 2) == 1)
        d = -d;                         /* odd edges fall from bright to dark */
    if (fabs(d) >= ESF_HALF_PX)
        return -1;
    int b = (int)floor((d + ESF_HALF_PX) / ESF_STEP_PX);
    return b < ESF_BINS ? b : -1;
}

static void esf_add(esf *f, const where *p, double e_true, double e_out)
{
    double sigma;
    int b = stripe_bin(p, &sigma);
    if (b < 0)
        return;
    double base = log2(e_true) - STRIPE_EV * sigma;
    double level = (log2(fmax(e_out, 0.5)) - base + STRIPE_EV) / (2 * STRIPE_EV);
    f->n[b] += 1;
    f->s[b] += level;
}

/* The linear edge spread of qm_resolution for one stripe pixel. */
static void res_esf_add(qm_resolution *r, int band, const where *p, double e_true,
                        double e_out)
{
    double sigma;
    int b = stripe_bin(p, &sigma);
    if (b < 0)
        return;
    double base = e_true / exp2(STRIPE_EV * sigma);
    double lo = base / exp2(STRIPE_EV), hi = base * exp2(STRIPE_EV);
    r->esf_n[band][b] += 1;
    r->esf_s[band][b] += (e_out - lo) / (hi - lo);
}

/* 10-90 % width of an ESF (sums n, s), perpendicular to the edge, by linear interpolation
 * between bin centres. */
static double esf_width_of(const double *n, const double *s)
{
    double v[ESF_BINS], c[ESF_BINS];
    int m = 0;
    for (int b = 0; b < ESF_BINS; b++) {
        if (n[b] < 10)
            continue;
        v[m] = s[b] / n[b];
        c[m] = -ESF_HALF_PX + (b + 0.5) * ESF_STEP_PX;
        m++;
    }
    double d10 = NAN, d90 = NAN;
    for (int i = 1; i < m && isnan(d10); i++)
        if (v[i - 1] < 0.1 && v[i] >= 0.1)
            d10 = c[i - 1] + (0.1 - v[i - 1]) / (v[i] - v[i - 1]) * (c[i] - c[i - 1]);
    for (int i = m - 1; i > 0 && isnan(d90); i--)
        if (v[i - 1] <= 0.9 && v[i] > 0.9)
            d90 = c[i - 1] + (0.9 - v[i - 1]) / (v[i] - v[i - 1]) * (c[i] - c[i - 1]);
    return (d90 - d10) / sqrt(1 + STRIPE_SLANT * STRIPE_SLANT);
}

static double esf_width(const esf *f)
{
    return esf_width_of(f->n, f->s);
}

double qm_edge_spread_px(const qm_resolution *r, int band)
{
    return esf_width_of(r->esf_n[band], r->esf_s[band]);
}

double qm_edge_contrast(const qm_resolution *r, int band)
{
    return r->norm[band] > 0 ? r->dot[band] / r->norm[band] : NAN;
}

void qm_resolution_add(qm_resolution *acc, const qm_resolution *add)
{
    for (int k = 0; k < QM_RES_BANDS; k++) {
        acc->dot[k] += add->dot[k];
        acc->norm[k] += add->norm[k];
        for (int b = 0; b < ESF_BINS; b++) {
            acc->esf_n[k][b] += add->esf_n[k][b];
            acc->esf_s[k][b] += add->esf_s[k][b];
        }
    }
}

/* Local detail of the output and the truth at (x, y) for the edge contrast: each minus the
 * mean of its 25 same-colour neighbours (itself included), over the truth's local mean.
 * 0 when the neighbourhood leaves the frame. */
static void res_contrast_add(qm_resolution *r, int band, const qm_input *in, int x, int y)
{
    const int reach = 2 * DETAIL_R;
    if (x < reach || y < reach || x + reach >= (int)in->width || y + reach >= (int)in->height)
        return;
    double mo = 0, mt = 0;
    for (int j = -reach; j <= reach; j += 2)
        for (int i = -reach; i <= reach; i += 2) {
            mo += in->out->data[(size_t)(y + j + in->roi_y) * in->out->width + x + i +
                                in->roi_x];
            mt += in->truth[(size_t)(y + j) * in->width + x + i];
        }
    const double n = (2 * DETAIL_R + 1) * (2 * DETAIL_R + 1);
    mo = (mo / n - in->black) / in->s_out;
    mt /= n;
    if (!(mt > 0))
        return;
    double o = (in->out->data[(size_t)(y + in->roi_y) * in->out->width + x + in->roi_x] -
                in->black) / in->s_out;
    double dt = (in->truth[(size_t)y * in->width + x] - mt) / mt, dout = (o - mo) / mt;
    r->dot[band] += dout * dt;
    r->norm[band] += dt * dt;
}

static void summarise_bins(const sums *bins, qm_report *rep)
{
    rep->midtone_bias_pct[0] = rep->midtone_bias_pct[1] = NAN;
    rep->max_abs_bias_pct = rep->max_bias_excess_pct = 0;
    rep->dr_ev = rep->dr_bin_ev = rep->noise_at_512 = NAN;
    /* weighted line e_out = a e_true + b through the bin means of 5..14 EV */
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < QM_BINS; i++) {
        qm_bin *b = &rep->bins[i];
        b->ev_lo = QM_BIN_LO_EV + i * QM_BIN_STEP_EV;
        b->n = (uint64_t)bins[i].n;
        rep->bin_valid[i] = bins[i].n > QM_BIN_MIN_PIXELS;
        if (!rep->bin_valid[i])
            continue;
        b->mean_true = bins[i].t / bins[i].n;
        b->bias = bins[i].e / bins[i].n;
        b->noise = std_of(&bins[i]);
        b->snr = b->noise > 0 ? b->mean_true / b->noise : INFINITY;
        b->bias_pct = 100 * b->bias / b->mean_true;
        b->bias_se_pct = 100 * b->noise / sqrt((double)b->n) / b->mean_true;
        if (b->ev_lo == 9.0)
            rep->midtone_bias_pct[0] = b->bias_pct;
        if (b->ev_lo == 10.0)
            rep->midtone_bias_pct[1] = b->bias_pct;
        if (b->ev_lo == 9.0)
            rep->noise_at_512 = b->noise;
        if (isnan(rep->dr_ev) && b->snr >= 1) {
            rep->dr_ev = log2(rep->clip_e / b->noise);
            rep->dr_bin_ev = b->ev_lo;
        }
        if (b->ev_lo >= 5 && b->ev_lo + QM_BIN_STEP_EV <= 14) {
            rep->max_abs_bias_pct = fmax(rep->max_abs_bias_pct, fabs(b->bias_pct));
            rep->max_bias_excess_pct =
                fmax(rep->max_bias_excess_pct, fabs(b->bias_pct) - 2 * b->bias_se_pct);
            double w = b->noise > 0 ? b->n / (b->noise * b->noise) : b->n;
            double x = b->mean_true, y = b->mean_true + b->bias;
            sw += w;
            sx += w * x;
            sy += w * y;
            sxx += w * x * x;
            sxy += w * x * y;
        }
    }
    double den = sw * sxx - sx * sx;
    double a = den != 0 ? (sw * sxy - sx * sy) / den : NAN;
    rep->gain_error_pct = 100 * (a - 1);
    rep->offset_e = sw > 0 ? (sy - a * sx) / sw : NAN;
}

/* Expected squared log2 error of t + sigma z (z standard normal), clamped at 0.5 as the
 * metric clamps: Gauss-Hermite quadrature of 16 nodes where the clamp is more than 4.5
 * sigmas away (exact enough for a floor), else a sum over z in steps of 0.01 (the clamp's
 * kink defeats the quadrature: 20 % off at an SNR of 1.3). */
static double expected_le2(double t, double sigma)
{
    if (t - 0.5 < 4.5 * sigma) {
        double s = 0, w = 0, lt = log2(t);
        for (int i = -800; i <= 800; i++) {
            double z = 0.01 * i, g = exp(-0.5 * z * z);
            double le = log2(fmax(t + sigma * z, 0.5)) - lt;
            s += g * le * le;
            w += g;
        }
        return s / w;
    }
    static const double node[8] = {0.27348104613815, 0.82295144914466, 1.38025853919888,
                                   1.95178799091625, 2.54620215784748, 3.17699916197996,
                                   3.86944790486012, 4.68873893930582};
    static const double weight[8] = {5.07929479016613e-01, 2.80647458528534e-01,
                                     8.38100413989858e-02, 1.28803115355100e-02,
                                     9.32284008624180e-04, 2.71186009253789e-05,
                                     2.32098084486521e-07, 2.65480747401118e-10};
    double s = 0, lt = log2(t);
    for (int i = 0; i < 8; i++)
        for (int sg = -1; sg <= 1; sg += 2) {
            double le = log2(fmax(t + sg * M_SQRT2 * sigma * node[i], 0.5)) - lt;
            s += weight[i] * le * le;
        }
    return s / sqrt(M_PI);
}

double qm_floor_var(const qm_noise_model *m, double t, int bright_row)
{
    double vd = m->read_noise_dark_e * m->read_noise_dark_e + t;
    if (m->phase < 0)
        return vd;
    double vb = m->read_noise_bright_e * m->read_noise_bright_e + t;
    double w = bright_row ? 2 / vd : 1 / vd;   /* the other field's pair halves its variance */
    if (t < m->bright_clip_e)
        w += bright_row ? 1 / vb : 2 / vb;
    return 1 / w;
}

double qm_floor_le2(const qm_noise_model *m, double t, int bright_row)
{
    return expected_le2(t, sqrt(qm_floor_var(m, t, bright_row)));
}

mp_status qm_measure(const qm_input *in, qm_report *rep, mp_error *err)
{
    mp_status st = check_input(in, err);
    if (st != MP_OK)
        return st;
    memset(rep, 0, sizeof *rep);
    rep->clip_e = (in->white - in->black) / in->s_out;
    const double clip_bins = 0.98 * rep->clip_e, clip_log = 0.9 * rep->clip_e;

    sums bins[QM_BINS] = {{0}}, shadow = {0}, patch[4][QM_CHANNELS] = {{{0}}};
    double ideal_var[QM_BINS] = {0};   /* sums of qm_floor_var over each bin's pixels */
    double *edge_le2 = rep->edge_le2;
    const qm_noise_model *fm = in->floor;
    esf edges = {{0}, {0}};
    double patch_rect[4][4];
    for (int i = 0; i < 4; i++) {
        double ev;
        mp_synth_scene_patch(in->objects ? SYNTH_SCENE_OBJECTS : SYNTH_SCENE_BENCHMARK,
                             in->width, in->height, i, &patch_rect[i][0], &patch_rect[i][1],
                             &patch_rect[i][2], &patch_rect[i][3], &ev);
    }

    for (uint32_t y = 0; y < in->height; y++) {
        const float *trow = in->truth + (size_t)y * in->width;
        for (uint32_t x = 0; x < in->width; x++) {
            double t = trow[x];
            double e_out = (sample(in, x, y) - in->black) / in->s_out;
            double e = e_out - t;
            where p = {.xs = x + in->scene_offset, .x = (int)x, .y = (int)y};
            p.u = p.xs / in->width;
            p.v = (double)y / in->height;

            int brow = fm && fm->phase >= 0 && ((y + in->roi_y + (uint32_t)fm->phase) & 3) >= 2;
            if (in_smooth_ramp(&p, in, 1) && t < clip_bins) {
                int b = bin_of(t);
                if (fm && fm->phase >= 0 && t >= LINE_PAIR_LO && t < LINE_PAIR_HI) {
                    rep->row_err[brow] += e;
                    rep->row_true[brow] += t;
                }
                if (b >= 0) {
                    add(&bins[b], t, e);
                    if (fm)
                        ideal_var[b] += qm_floor_var(fm, t, brow);
                }
                if (t < 2)
                    add(&shadow, t, e);
            }
            if (t > 0 && t < clip_log && inside_x_margin(&p, in)) {
                double ev = log2(t), le = log2(fmax(e_out, 0.5)) - ev;
                int rb = res_band_of(ev);
                if (rb >= 0 && in_edges(&p, in)) {
                    res_contrast_add(&rep->res, rb, in, p.x, p.y);
                    if (!in->objects)
                        res_esf_add(&rep->res, rb, &p, t, e_out);
                }
                if (ev >= 6 && ev < 15 && in_edges(&p, in)) {
                    int k = ev >= 11;
                    edge_le2[k] += le * le;
                    if (k && brow && t >= fm->bright_clip_e)
                        rep->edge_clip_le2 += le * le;
                    if (fm)
                        rep->edge_floor[k] += qm_floor_le2(fm, t, brow);
                    rep->edge_n[k]++;
                    if (!in->objects)
                        esf_add(&edges, &p, t, e_out);
                    if (ev >= 8 && ev < 11) {
                        rep->edge8_le2 += le * le;
                        rep->edge8_n++;
                    }
                }
                if (ev >= 6 && ev < 11 && in_zone(&p, in)) {
                    rep->zone_le2 += le * le;
                    rep->zone_n++;
                    if (fm)
                        rep->zone_floor += qm_floor_le2(fm, t, brow);
                    if (ev >= 8) {
                        rep->zone8_le2 += le * le;
                        if (fm && fm->phase >= 0 && !brow)
                            rep->zone8_dark_le2 += le * le;
                        rep->zone8_n++;
                    }
                }
            }
            for (int i = 0; i < 4; i++) {
                const double *r = patch_rect[i];
                if (p.xs >= r[0] + PATCH_INSET && p.xs < r[1] - PATCH_INSET &&
                    y >= r[2] + PATCH_INSET && y < r[3] - PATCH_INSET)
                    add(&patch[i][channel_of(p.x, p.y)], t, e);
            }
        }
    }

    summarise_bins(bins, rep);
    rep->dr_ideal_ev = NAN;
    for (int i = 0; fm && i < QM_BINS; i++) {
        double sd = sqrt(ideal_var[i] / bins[i].n);
        if (rep->bin_valid[i] && bins[i].t / bins[i].n >= sd) {
            rep->dr_ideal_ev = log2(rep->clip_e / sd);
            break;
        }
    }
    rep->deep_shadow_noise = shadow.n > 0 ? std_of(&shadow) : NAN;
    for (int k = 0; k < 2; k++)
        rep->edge_rms[k] = rep->edge_n[k] ? sqrt(edge_le2[k] / rep->edge_n[k]) : NAN;
    rep->zone_rms = rep->zone_n ? sqrt(rep->zone_le2 / rep->zone_n) : NAN;
    if (!fm)
        rep->edge_floor[0] = rep->edge_floor[1] = rep->zone_floor = NAN;
    rep->edge_width_px = in->objects ? NAN : esf_width(&edges);
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < QM_CHANNELS; c++) {
            const sums *s = &patch[i][c];
            qm_patch *q = &rep->patches[i];
            q->n[c] = (uint64_t)s->n;
            if (s->n == 0) {
                q->mean_true[c] = q->error_pct[c] = q->noise[c] = q->snr[c] = NAN;
                continue;
            }
            q->mean_true[c] = s->t / s->n;
            q->error_pct[c] = 100 * (s->e / s->n) / q->mean_true[c];
            q->noise[c] = std_of(s);
            q->snr[c] = q->noise[c] > 0 ? q->mean_true[c] / q->noise[c] : INFINITY;
        }
    return MP_OK;
}

mp_status qm_band_measure(const qm_input *in, const qm_report *rep, double r_ref,
                          const qm_noise_model *model, qm_band_sums *sums_out, mp_error *err)
{
    mp_status st = check_input(in, err);
    if (st != MP_OK)
        return st;
    if (!(r_ref > 0))
        return mp_error_set(err, MP_ERR_ARG, "quality: reference range %g invalid", r_ref);
    memset(sums_out, 0, sizeof *sums_out);
    double scale = r_ref / (in->white - in->black) / in->s_out;
    for (uint32_t y = 0; y < in->height; y++) {
        const float *trow = in->truth + (size_t)y * in->width;
        for (uint32_t x = 0; x < in->width; x++) {
            double t = trow[x];
            where p = {.xs = x + in->scene_offset, .x = (int)x, .y = (int)y};
            p.u = p.xs / in->width;
            p.v = (double)y / in->height;
            if (!(t > 0) || !in_smooth_ramp(&p, in, 0))
                continue;
            double ev = log2(t);
            int k = (int)floor((ev - band_lo[0]) / band_width_ev);
            if (k < 0 || k >= QM_BANDS)
                continue;
            sums_out->sum_true[k] += t;
            sums_out->sum_out[k] += (sample(in, x, y) - in->black) * scale;
            sums_out->n[k]++;
            int b = bin_of(t);
            if (b >= 0 && rep->bin_valid[b])
                sums_out->noise_var[k] += rep->bins[b].noise * rep->bins[b].noise;
            if (model) {
                double rn = t < model->bright_clip_e ? model->read_noise_bright_e
                                                     : model->read_noise_dark_e;
                sums_out->model_var[k] += t + rn * rn;
            }
        }
    }
    return MP_OK;
}

void qm_flicker_summarise(const qm_band_sums *frames, uint32_t n, qm_flicker *out)
{
    for (int k = 0; k < QM_BANDS; k++) {
        double lo = INFINITY, hi = -INFINITY, s = 0, s2 = 0, rel_var = 0, rel_model = 0;
        uint32_t used = 0;
        for (uint32_t f = 0; f < n; f++) {
            const qm_band_sums *b = &frames[f];
            if (!(b->sum_true[k] > 0))
                continue;
            double e = 100 * (b->sum_out[k] / b->sum_true[k] - 1);
            lo = fmin(lo, e);
            hi = fmax(hi, e);
            s += e;
            s2 += e * e;
            rel_var += b->noise_var[k] / (b->sum_true[k] * b->sum_true[k]);
            rel_model += b->model_var[k] / (b->sum_true[k] * b->sum_true[k]);
            used++;
        }
        if (!used) {
            out->min_pct[k] = out->max_pct[k] = out->mean_pct[k] = out->std_pct[k] = NAN;
            out->predicted_std_pct[k] = out->model_std_pct[k] = NAN;
            continue;
        }
        double mean = s / used;
        /* sample standard deviation over frames (n - 1) */
        double var = used > 1 ? (s2 - used * mean * mean) / (used - 1) : 0;
        out->min_pct[k] = lo;
        out->max_pct[k] = hi;
        out->mean_pct[k] = mean;
        out->std_pct[k] = var > 0 ? sqrt(var) : 0;
        out->predicted_std_pct[k] = 100 * sqrt(rel_var / used);
        out->model_std_pct[k] = 100 * sqrt(rel_model / used);
    }
}
