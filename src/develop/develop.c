/* develop: context set-up (white balance, matrix, curve) and the per-frame strip loop. */
#include "develop/develop.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/mp_color_math.h"
#include "develop/curve.h"
#include "develop/develop_dsp.h"
#include "demosaic.h"
#include "highlights.h"

/* Rows per strip: the working set of a 6K-wide RCD strip stays near 60 MB, and the context
 * rows recomputed per strip cost under 10 %. Smaller strips do not run faster (measured). */
#define DEFAULT_STRIP_ROWS 256u

/* BLEND starts desaturating when the brightest white-balanced CFA sample in a pixel's 3x3
 * neighbourhood passes this fraction of the clip, and reaches white at the clip. Measuring on
 * the CFA, not on the demosaiced values, catches every pixel whose interpolation used a
 * clipped sample: colour differences across a clipped channel are meaningless, and
 * interpolation can pull such a pixel's channels just below the clip, where a ramp on the
 * demosaiced values would leave it tinted. */
#define HIGHLIGHT_BLEND_START 0.8f

/* The same ramp in the output: past this fraction of the value the curve maps to its top
 * code, BLEND desaturates towards the brightest channel, reaching it there. A picture pushed
 * by exposure (or a bright, saturated colour) clips in the curve one channel at a time, which
 * turns a pale patch mint or cyan and an orange one yellow; desaturating first takes it to
 * white instead, as the raw clip is. */
#define OUTPUT_BLEND_START 0.8f

/* RECONSTRUCT keeps rebuilt values up to this many times the highest white-balanced clip:
 * 1 EV of highlights above the clip of the most amplified channel, enough for a negative
 * exposure or a log curve to show them, bounded so a stray ratio cannot make a spike. */
#define REBUILD_HEADROOM 2.0f

struct develop_context {
    develop_params params;
    float wb[3];            /* raw multipliers, smallest 1.0 */
    float matrix[3][3];     /* white-balanced camera -> output, exposure included */
    float out_top;          /* scene-linear output value the curve maps to its top code */
    float cfa_top;          /* largest white-balanced CFA value: 1, or RECONSTRUCT's top */
    float wb_clip;          /* highest white-balanced raw clip (the largest multiplier) */
    curve_lut lut;
};

void mp_develop_params_default(develop_params *p)
{
    *p = (develop_params){
        .demosaic = DEVELOP_DEMOSAIC_RCD,
        .wb = DEVELOP_WB_AS_SHOT,
        .wb_gains = {1, 1, 1},
        .matrix = DEVELOP_MATRIX_COLOR_MATRIX1,
        .gamut = MP_GAMUT_REC709,
        .curve = MP_CURVE_BT709,
        .exposure_ev = 0,
        .highlight = DEVELOP_HIGHLIGHT_BLEND,
        .strip_rows = 0,
    };
}

/* ColorMatrix1 as a matrix; 0 when absent (all zero) or malformed (zero denominator). */
static int color_matrix1(const mp_raw_info *raw, mat3 *cm)
{
    if (!raw)
        return 0;
    int nonzero = 0;
    for (int k = 0; k < 9; k++) {
        mp_rational q = raw->color_matrix1[k];
        if (q.den == 0)
            return 0;
        cm->m[k / 3][k % 3] = (double)q.num / q.den;
        nonzero |= q.num != 0;
    }
    return nonzero;
}

static mp_status white_balance(const develop_params *p, const mp_raw_info *raw,
                               const double *as_shot_neutral, float gains[3], mp_error *err)
{
    double g[3] = {0, 0, 0};
    develop_wb mode = p->wb;
    if (mode == DEVELOP_WB_AS_SHOT) {
        if (as_shot_neutral) {
            for (int c = 0; c < 3; c++)
                g[c] = as_shot_neutral[c] > 0 ? 1.0 / as_shot_neutral[c] : 0;
        } else {
            mode = DEVELOP_WB_DAYLIGHT;
        }
    }
    if (mode == DEVELOP_WB_CUSTOM) {
        for (int c = 0; c < 3; c++)
            g[c] = p->wb_gains[c];
    } else if (mode == DEVELOP_WB_DAYLIGHT) {
        mat3 cm;
        if (!color_matrix1(raw, &cm))
            return mp_error_set(err, MP_ERR_ARG,
                                "develop: daylight white balance needs the clip's ColorMatrix1");
        double white[3], neutral[3];
        mp_illuminant_xyz(raw->calibration_illuminant, white);
        mp_mat3_apply(&cm, white, neutral);
        for (int c = 0; c < 3; c++)
            g[c] = neutral[c] > 0 ? 1.0 / neutral[c] : 0;
    }
    for (int c = 0; c < 3; c++)
        if (!(g[c] > 0) || !isfinite(g[c]))
            return mp_error_set(err, MP_ERR_ARG,
                                "develop: white balance gains %g %g %g are not positive", g[0],
                                g[1], g[2]);
    double lo = fmin(g[0], fmin(g[1], g[2])), hi = fmax(g[0], fmax(g[1], g[2]));
    if (hi > 1000 * lo) /* no illuminant needs this; it would only amplify noise */
        return mp_error_set(err, MP_ERR_ARG,
                            "develop: white balance gains %g %g %g span more than 1000:1", g[0],
                            g[1], g[2]);
    for (int c = 0; c < 3; c++)
        gains[c] = (float)(g[c] / lo);
    return MP_OK;
}

static mp_status check_params(const develop_params *p, mp_error *err)
{
    if ((unsigned)p->demosaic > DEVELOP_DEMOSAIC_BILINEAR || (unsigned)p->wb > DEVELOP_WB_CUSTOM ||
        (unsigned)p->matrix > DEVELOP_MATRIX_IDENTITY ||
        (unsigned)p->gamut >= MP_GAMUT_COUNT || (unsigned)p->curve >= MP_CURVE_COUNT ||
        (unsigned)p->highlight > DEVELOP_HIGHLIGHT_RECONSTRUCT)
        return mp_error_set(err, MP_ERR_ARG, "develop: unknown method in the parameters");
    if (!(p->exposure_ev >= -16 && p->exposure_ev <= 16))
        return mp_error_set(err, MP_ERR_ARG, "develop: exposure %g EV outside [-16, 16]",
                            p->exposure_ev);
    return MP_OK;
}

/* Least scene-linear value the curve takes to code 1.0 (within the table's range): 1.0 for
 * the display curves, higher for the log curves' headroom. */
static float curve_top(mp_curve c)
{
    double lo = 0, hi = (double)(1 << CURVE_LOG2_MAX);
    if (mp_curve_eval(c, hi) < 1)
        return (float)hi;
    for (int i = 0; i < 60; i++) {
        double mid = 0.5 * (lo + hi);
        if (mp_curve_eval(c, mid) >= 1)
            hi = mid;
        else
            lo = mid;
    }
    return (float)hi;
}

mp_status mp_develop_context_create(const develop_params *params, const mp_raw_info *raw,
                                 const double *as_shot_neutral, develop_context **out,
                                 mp_error *err)
{
    *out = NULL;
    mp_status st = check_params(params, err);
    if (st)
        return st;
    develop_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return mp_error_set(err, MP_ERR_NOMEM, "develop: cannot allocate the context");
    ctx->params = *params;
    st = white_balance(params, raw, as_shot_neutral, ctx->wb, err);
    if (st) {
        free(ctx);
        return st;
    }
    mat3 m = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    if (params->matrix == DEVELOP_MATRIX_COLOR_MATRIX1) {
        mat3 cm;
        double neutral[3] = {1.0 / ctx->wb[0], 1.0 / ctx->wb[1], 1.0 / ctx->wb[2]};
        if (!color_matrix1(raw, &cm) || !mp_camera_to_output(cm, neutral, params->gamut, &m)) {
            free(ctx);
            return mp_error_set(err, MP_ERR_ARG, "develop: ColorMatrix1 is missing, singular "
                                                 "or puts the white balance outside XYZ");
        }
    }
    ctx->wb_clip = ctx->wb[0] > ctx->wb[1] ? ctx->wb[0] : ctx->wb[1];
    ctx->wb_clip = ctx->wb_clip > ctx->wb[2] ? ctx->wb_clip : ctx->wb[2];
    ctx->cfa_top = params->highlight == DEVELOP_HIGHLIGHT_RECONSTRUCT
                       ? REBUILD_HEADROOM * ctx->wb_clip : 1.0f;
    double gain = exp2(params->exposure_ev);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            ctx->matrix[r][c] = (float)(m.m[r][c] * gain);
    mp_curve_lut_init(&ctx->lut, params->curve);
    ctx->out_top = curve_top(params->curve);
    *out = ctx;
    return MP_OK;
}

void mp_develop_context_free(develop_context *ctx)
{
    free(ctx);
}

void mp_develop_context_wb_gains(const develop_context *ctx, float gains[3])
{
    for (int c = 0; c < 3; c++)
        gains[c] = ctx->wb[c];
}

void mp_develop_rgb_free(develop_rgb *rgb)
{
    free(rgb->plane[0]);
    *rgb = (develop_rgb){0};
}

void mp_develop_workspace_free(develop_workspace *ws)
{
    free(ws->buf);
    *ws = (develop_workspace){0};
}

static mp_status check_frame(const mp_frame *f, mp_error *err)
{
    if (!f->data || f->width < 2 || f->height < 2 || f->width > MP_FRAME_MAX_DIM ||
        f->height > MP_FRAME_MAX_DIM || (uint64_t)f->width * f->height > MP_FRAME_MAX_PIXELS)
        return mp_error_set(err, MP_ERR_ARG, "develop: frame %u: size %ux%u cannot be developed",
                            f->number, f->width, f->height);
    if (f->capacity < (size_t)f->width * f->height)
        return mp_error_set(err, MP_ERR_ARG, "develop: frame %u: %zu samples for a %ux%u frame",
                            f->number, f->capacity, f->width, f->height);
    if (f->white <= f->black || f->white > 65535)
        return mp_error_set(err, MP_ERR_ARG, "develop: frame %u: white %u not above black %u",
                            f->number, f->white, f->black);
    if (!mp_cfa_is_bayer(f->cfa))
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "develop: frame %u: CFA pattern 0x%08x",
                            f->number, f->cfa);
    return MP_OK;
}

static mp_status reserve(void **buf, size_t *capacity, size_t need, size_t size, mp_error *err)
{
    if (need <= *capacity)
        return MP_OK;
    void *p = realloc(*buf, need * size);
    if (!p)
        return mp_error_set(err, MP_ERR_NOMEM, "develop: cannot allocate %zu bytes", need * size);
    *buf = p;
    *capacity = need;
    return MP_OK;
}

/* Black/white normalisation and white balance of window rows [y0, y0 + rows), clipped to
 * [0, 1]: 1.0 is where the least amplified channel clips, so a clipped area is neutral
 * (RECONSTRUCT: to [0, cfa_top], every measured value kept for the rebuild).
 * scale: 2 x width floats of room for the factors of even and odd rows. */
static void load_cfa(const develop_context *ctx, const develop_dsp *dsp, const mp_frame *f,
                     uint32_t y0, uint32_t rows, float *scale, float *cfa)
{
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < f->width; x++)
            scale[y * f->width + x] =
                ctx->wb[mp_cfa_colour(f->cfa, x & 1, y)] / (float)(f->white - f->black);
    for (uint32_t r = 0; r < rows; r++)
        dsp->load(f->data + (size_t)(y0 + r) * f->width, scale + ((y0 + r) & 1) * f->width,
                  (float)f->black, ctx->cfa_top, f->width, cfa + (size_t)r * f->width);
}

/* The constants of the highlight and matrix step (rows_body.h grade). */
static develop_grade grade_of(const develop_context *ctx)
{
    develop_grade g = {
        .blend = ctx->params.highlight != DEVELOP_HIGHLIGHT_CLIP ? 1.0f : 0.0f,
        .top_in = ctx->cfa_top,
        .start = HIGHLIGHT_BLEND_START,
        .ramp = 1.0f / (1.0f - HIGHLIGHT_BLEND_START),
        .out_start = OUTPUT_BLEND_START * ctx->out_top,
        .out_ramp = 1.0f / ((1.0f - OUTPUT_BLEND_START) * ctx->out_top),
    };
    memcpy(g.m, ctx->matrix, sizeof g.m);
    return g;
}

/* Where develop_rows puts each developed row: the frame's planes (planes, fn NULL), or a row
 * of scratch handed to fn. */
typedef struct row_out {
    develop_rgb *planes;
    develop_row_fn fn;
    void *user;
} row_out;

/* Rows [first, last) of the frame developed strip by strip into `to`. A strip's window
 * carries the context rows of the frame around it, so the rows do not depend on where the
 * strips start (DEMOSAIC_*_CONTEXT). */
static mp_status develop_rows(const develop_context *ctx, const mp_frame *frame,
                              develop_workspace *ws, uint32_t first, uint32_t last,
                              const row_out *to, mp_error *err)
{
    mp_status st = check_frame(frame, err);
    if (st)
        return st;
    const uint32_t width = frame->width, height = frame->height;
    if (first >= last || last > height)
        return mp_error_set(err, MP_ERR_ARG, "develop: frame %u: rows %u-%u of %u",
                            frame->number, first, last, height);
    const int rcd = ctx->params.demosaic == DEVELOP_DEMOSAIC_RCD;
    const int rebuild = ctx->params.highlight == DEVELOP_HIGHLIGHT_RECONSTRUCT;
    /* the rebuild of every row the demosaic reads must see all the rows it reads */
    const uint32_t context_rows = (rcd ? DEMOSAIC_RCD_CONTEXT : DEMOSAIC_BILINEAR_CONTEXT) +
                                  (rebuild ? HIGHLIGHT_REBUILD_REACH : 0);
    const uint32_t strip = ctx->params.strip_rows ? ctx->params.strip_rows : DEFAULT_STRIP_ROWS;
    uint32_t window_max = height;
    if ((uint64_t)strip + 2 * context_rows < height)
        window_max = strip + 2 * context_rows;
    const size_t plane = (size_t)width * window_max;
    const int planes = 4 + (rcd ? DEMOSAIC_RCD_SCRATCH : 0) + rebuild;

    /* after the planes: near, the near kernel's scratch, the even and odd rows' scales, and
     * for fn one row of each output channel (3 x width uint16 in 2 x width floats) */
    if ((st = reserve((void **)&ws->buf, &ws->capacity, planes * plane + 6 * (size_t)width,
                      sizeof(float), err)))
        return st;

    const develop_dsp *dsp = mp_develop_dsp_for(mp_cpu_level_get());
    const develop_grade grade = grade_of(ctx);
    float *cfa = ws->buf, *near = ws->buf + planes * plane, *tmp = near + width,
          *scale = tmp + width;
    uint16_t *row = (uint16_t *)(scale + 2 * (size_t)width);
    /* RECONSTRUCT: 1 where a clipped sample stayed unresolved, the plane BLEND's ramp reads */
    float *failed = rebuild ? ws->buf + (planes - 1) * plane : NULL;
    highlight_rebuild hr = {.f = frame, .unresolved = ctx->wb_clip, .top = ctx->cfa_top};
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < 2; x++)
            hr.wb[y][x] = ctx->wb[mp_cfa_colour(frame->cfa, x, y)];
    demosaic_window w = {
        .cfa = cfa,
        .top = ctx->cfa_top,
        .rgb = {cfa + plane, cfa + 2 * plane, cfa + 3 * plane},
        .width = width,
    };
    if (rcd)
        for (int k = 0; k < DEMOSAIC_RCD_SCRATCH; k++)
            w.scratch[k] = cfa + (4 + k) * plane;

    for (uint32_t y0 = first; y0 < last; y0 += strip) {
        uint32_t y1 = last - y0 > strip ? y0 + strip : last;
        uint32_t wy0 = y0 > context_rows ? y0 - context_rows : 0;
        uint32_t wy1 = height - y1 > context_rows ? y1 + context_rows : height;
        w.rows = wy1 - wy0;
        for (uint32_t y = 0; y < 2; y++)
            for (uint32_t x = 0; x < 2; x++)
                w.colour[y][x] = (uint8_t)mp_cfa_colour(frame->cfa, x, wy0 + y);
        load_cfa(ctx, dsp, frame, wy0, w.rows, scale, cfa);
        if (rebuild)
            mp_highlight_rebuild_rows(&hr, cfa, failed, wy0, w.rows, 0, w.rows);
        if (rcd)
            dsp->rcd(&w);
        else
            mp_demosaic_bilinear(&w, 0, width, 0, w.rows);
        for (uint32_t y = y0; y < y1; y++) {
            size_t in = (size_t)(y - wy0) * width, o = (size_t)y * width;
            const float *mid = (rebuild ? failed : cfa) + in;
            dsp->near(y > 0 ? mid - width : mid, mid, y + 1 < height ? mid + width : mid, width,
                      tmp, near);
            dsp->grade(&grade, near, w.rgb[0] + in, w.rgb[1] + in, w.rgb[2] + in, width);
            uint16_t *dst[3];
            for (int k = 0; k < 3; k++) {
                dst[k] = to->fn ? row + k * (size_t)width : to->planes->plane[k] + o;
                dsp->encode(&ctx->lut, w.rgb[k] + in, width, dst[k]);
            }
            if (to->fn && (st = to->fn(to->user, y, (const uint16_t *const *)dst, err)))
                return st;
        }
    }
    return MP_OK;
}

mp_status mp_develop_frame(const develop_context *ctx, const mp_frame *frame, develop_workspace *ws,
                        develop_rgb *out, mp_error *err)
{
    mp_status st = check_frame(frame, err);
    if (st)
        return st;
    size_t pixels = (size_t)frame->width * frame->height;
    if ((st = reserve((void **)&out->plane[0], &out->capacity, 3 * pixels, sizeof(uint16_t), err)))
        return st;
    out->plane[1] = out->plane[0] + pixels;
    out->plane[2] = out->plane[1] + pixels;
    out->width = frame->width;
    out->height = frame->height;
    out->number = frame->number;
    const row_out to = {.planes = out};
    return develop_rows(ctx, frame, ws, 0, frame->height, &to, err);
}

mp_status mp_develop_frame_rows(const develop_context *ctx, const mp_frame *frame,
                                develop_workspace *ws, uint32_t first, uint32_t last,
                                develop_row_fn fn, void *user, mp_error *err)
{
    const row_out to = {.fn = fn, .user = user};
    return develop_rows(ctx, frame, ws, first, last, &to, err);
}

mp_status mp_develop_grey_world_add(develop_grey_world *acc, const mp_frame *frame, mp_error *err)
{
    mp_status st = check_frame(frame, err);
    if (st)
        return st;
    /* a cell with any sample in the top 2 % may be clipped in one channel and would tint the
     * estimate */
    const double black = frame->black;
    const double limit = black + 0.98 * (frame->white - frame->black);
    uint32_t colour[2][2];
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < 2; x++)
            colour[y][x] = mp_cfa_colour(frame->cfa, x, y);
    for (uint32_t y = 0; y + 1 < frame->height; y += 2)
        for (uint32_t x = 0; x + 1 < frame->width; x += 2) {
            const uint16_t *p = frame->data + (size_t)y * frame->width + x;
            uint16_t v[2][2] = {{p[0], p[1]}, {p[frame->width], p[frame->width + 1]}};
            if (v[0][0] >= limit || v[0][1] >= limit || v[1][0] >= limit || v[1][1] >= limit)
                continue;
            for (uint32_t cy = 0; cy < 2; cy++)
                for (uint32_t cx = 0; cx < 2; cx++)
                    acc->sum[colour[cy][cx]] += v[cy][cx] - black;
            acc->cells++;
        }
    return MP_OK;
}

mp_status mp_develop_grey_world_gains(const develop_grey_world *acc, float gains[3], mp_error *err)
{
    /* every 2x2 cell holds one red, two greens and one blue */
    double mean[3] = {acc->sum[0], acc->sum[1] / 2, acc->sum[2]};
    if (!acc->cells || !(mean[0] > 0) || !(mean[1] > 0) || !(mean[2] > 0))
        return mp_error_set(err, MP_ERR_RANGE,
                            "develop: grey world found no unclipped light to balance on");
    for (int c = 0; c < 3; c++)
        gains[c] = (float)(mean[1] / mean[c]);
    return MP_OK;
}
