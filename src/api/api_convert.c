/* mlvpipe_convert, mlvpipe_analyze, mlvpipe_join: the public face of pipeline/convert.h,
 * analysis/prepass.h with levels_io.h, and movie/join.h. */
#include "api_internal.h"

#include <stdlib.h>

#include "common/out_file.h"
#include "develop/develop.h"
#include "movie/av_sink.h"
#include "movie/join.h"
#include "pipeline/batch.h"
#include "pipeline/formats.h"
#include "pipeline/convert.h"
#include "analysis/dark_load.h"
#include "analysis/defects_from.h"
#include "analysis/inputs.h"
#include "analysis/levels_io.h"
#include "analysis/prepass.h"
#include "rawfix/rawfix.h"
#include "reader/mlv_reader.h"

#define DEFAULT_TOOL "mlvpipe " MLVPIPE_VERSION

_Static_assert((int)MLVPIPE_GAMUT_ACES_AP0 == (int)MP_GAMUT_ACES_AP0 &&
               (int)MLVPIPE_GAMUT_REC2020 == (int)MP_GAMUT_REC2020 &&
               (int)MLVPIPE_GAMUT_CINEMA == (int)MP_GAMUT_CINEMA &&
               (int)MLVPIPE_GAMUT_CINEMA + 1 == (int)MP_GAMUT_COUNT &&
               (int)MLVPIPE_CURVE_SRGB + 1 == (int)MP_CURVE_COUNT &&
               (int)MLVPIPE_CURVE_ACESCCT == (int)MP_CURVE_ACESCCT &&
               (int)MLVPIPE_CURVE_SLOG3 == (int)MP_CURVE_SLOG3 &&
               (int)MLVPIPE_CURVE_LOGC3 == (int)MP_CURVE_LOGC3 &&
               (int)MLVPIPE_CURVE_BT709 == (int)MP_CURVE_BT709,
               "gamut and curve mirror common/mp_color.h");
_Static_assert((int)MLVPIPE_DNG_LJ92_2C == (int)MP_DNG_LJ92_2C &&
               (int)MLVPIPE_DNG_LJ92 == (int)MP_DNG_LJ92 && (int)MLVPIPE_DNG_16BIT == (int)MP_DNG_16BIT,
               "DNG storage mirrors encode/sink.h");
_Static_assert((int)MLVPIPE_HIGHLIGHTS_CLIP == (int)DEVELOP_HIGHLIGHT_CLIP &&
               (int)MLVPIPE_HIGHLIGHTS_BLEND == (int)DEVELOP_HIGHLIGHT_BLEND &&
               (int)MLVPIPE_HIGHLIGHTS_RECONSTRUCT == (int)DEVELOP_HIGHLIGHT_RECONSTRUCT,
               "highlights mirror develop/develop.h");
/* Members taken from reserved[] keep the struct's size (API 4.2, version.h). */
_Static_assert(sizeof(void *) != 8 || sizeof(mlvpipe_convert_settings) == 296,
               "convert settings keep their size");
_Static_assert((int)MLVPIPE_NAMING_RESOLVE == (int)MP_NAMING_RESOLVE, "naming mirrors sink.h");

/* The size of each settings struct in API 4.0, whose entries took no size. */
#define CONVERT_4_0 MP_API_END(mlvpipe_convert_settings, defects_from)
#define ANALYZE_4_0 MP_API_END(mlvpipe_analyze_settings, defects_from)
#define JOIN_4_0 MP_API_END(mlvpipe_join_settings, log)
/* No tail padding, where a newer header's member would go unnoticed (version.h): the convert
 * and join settings end with their reserved room, the others with their last member (name it
 * here when one is added). */
_Static_assert(sizeof(mlvpipe_convert_settings) == MP_API_END(mlvpipe_convert_settings, reserved) &&
               sizeof(mlvpipe_analyze_settings) == ANALYZE_4_0 &&
               sizeof(mlvpipe_join_settings) == MP_API_END(mlvpipe_join_settings, reserved),
               "settings end with their last member");
#define RESERVED(s) (s).reserved, sizeof (s).reserved / sizeof (s).reserved[0]

void mlvpipe_default_convert_settings_sized(mlvpipe_convert_settings *given, size_t size)
{
    mp_convert_options o;
    mp_convert_options_default(&o);
    const mlvpipe_convert_settings s = {
        .format = o.format,
        .audio = o.audio,
        .force_phase = o.force_phase,
        .gamut = (mlvpipe_gamut)o.develop.gamut,
        .curve = MLVPIPE_CURVE_AUTO,
        .exposure_ev = o.develop.exposure_ev,
        .wb = MLVPIPE_WB_AS_SHOT,
        .wb_gains = {1, 1, 1},
    };
    mp_api_settings_out(given, size, &s, sizeof s);
}

void (mlvpipe_default_convert_settings)(mlvpipe_convert_settings *s)
{
    mlvpipe_default_convert_settings_sized(s, CONVERT_4_0);
}

/* The progress callback of one convert run, in public terms. */
typedef struct progress_relay {
    mlvpipe_progress_fn fn;
    void *opaque;
} progress_relay;

static void relay_progress(void *opaque, const mp_progress_event *ev)
{
    const progress_relay *r = opaque;
    mlvpipe_progress p;
    mp_api_progress_event(ev, &p);
    r->fn(r->opaque, &p);
}

mlvpipe_status (mlvpipe_convert)(const mlvpipe_convert_settings *s,
                                 mlvpipe_convert_result *result, mlvpipe_error *err)
{
    return mlvpipe_convert_movie_sized(s, CONVERT_4_0, NULL, result, err);
}

mlvpipe_status (mlvpipe_convert_movie)(const mlvpipe_convert_settings *s,
                                       const mlvpipe_movie_settings *m,
                                       mlvpipe_convert_result *result, mlvpipe_error *err)
{
    return mlvpipe_convert_movie_sized(s, CONVERT_4_0, m, result, err);
}

/* A movie setting the format does not take, or a reserved field set: the message, else NULL. */
static const char *movie_refusal(const mlvpipe_movie_settings *m, const char *format)
{
    for (size_t i = 0; i < sizeof m->reserved / sizeof m->reserved[0]; i++)
        if (m->reserved[i])
            return "reserved movie settings must be zero";
    if ((unsigned)m->prores_encoder > MLVPIPE_PRORES_KS_SLICE)
        return "unknown ProRes encoder";
    const mp_format *f = mp_format_find(format);
    if (m->prores_encoder != MLVPIPE_PRORES_KS && f && !f->prores)
        return "the ProRes encoder applies to the ProRes formats only";
    return NULL;
}

void mp_api_convert_options(const mlvpipe_convert_settings *s, mp_convert_options *o)
{
    o->input = s->input;
    o->output = s->output;
    if (s->format)
        o->format = s->format;
    o->frames = s->frames;
    o->threads = s->threads;
    o->levels_path = s->levels_path;
    o->skip_existing = s->skip_existing;
    o->overwrite = s->overwrite;
    o->audio = s->audio;
    o->force_phase = s->force_phase;
    o->chroma_smooth = s->chroma_smooth;
    o->raw_fixes = (s->no_focus_pixels ? 0u : RAWFIX_FOCUS) | (s->no_bad_pixels ? 0u : RAWFIX_BAD) |
                  (s->no_stripes ? 0u : RAWFIX_STRIPES);
    if (s->fast)
        o->develop.demosaic = DEVELOP_DEMOSAIC_BILINEAR;
    o->develop.gamut = (mp_gamut)s->gamut;
    if (s->curve == MLVPIPE_CURVE_AUTO) {
        const mp_format *f = mp_format_find(o->format);
        o->develop.curve = f && f->scene_linear ? MP_CURVE_LINEAR : MP_CURVE_BT709;
    } else {
        o->develop.curve = (mp_curve)s->curve;
    }
    o->develop.exposure_ev = s->exposure_ev;
    o->develop.highlight = s->highlights == MLVPIPE_HIGHLIGHTS_CLIP ? DEVELOP_HIGHLIGHT_CLIP
                          : s->highlights == MLVPIPE_HIGHLIGHTS_RECONSTRUCT
                              ? DEVELOP_HIGHLIGHT_RECONSTRUCT
                              : DEVELOP_HIGHLIGHT_BLEND;
    switch (s->wb) {
    case MLVPIPE_WB_AS_SHOT: o->develop.wb = DEVELOP_WB_AS_SHOT; break;
    case MLVPIPE_WB_DAYLIGHT: o->develop.wb = DEVELOP_WB_DAYLIGHT; break;
    case MLVPIPE_WB_GREY_WORLD: o->wb_grey_world = 1; break;
    case MLVPIPE_WB_CUSTOM:
        o->develop.wb = DEVELOP_WB_CUSTOM;
        for (int c = 0; c < 3; c++)
            o->develop.wb_gains[c] = s->wb_gains[c];
        break;
    case MLVPIPE_WB_KELVIN: o->wb_kelvin = s->wb_kelvin; break;
    }
    o->dng_storage = (mp_dng_storage)s->dng_storage;
    o->naming = (mp_naming)s->naming;
    o->resolve_clip_index = s->resolve_clip_index;
    o->one_based = s->one_based;
    o->fps_override_num = s->fps_num;
    o->fps_override_den = s->fps_den;
    o->timecode_time_of_day = s->timecode_time_of_day;
    o->timecode_drop_frame = s->timecode_drop_frame;
    o->cache_dir = s->cache_dir;
    o->dark_path = s->dark;
    o->defects_from = s->defects_from;
    o->no_stretch = s->no_stretch;
    o->settings = s;
    o->tool = s->tool ? s->tool : DEFAULT_TOOL;
    o->cancel = s->cancel;
    o->log = mp_api_logger(&s->log);
}

/* The convert options the settings stand for, their progress through relay; MP_ERR_ARG (e)
 * for movie settings the format does not take. */
static mp_status options_from(const mlvpipe_convert_settings *s, const mlvpipe_movie_settings *m,
                              progress_relay *relay, mp_convert_options *out, mp_error *e)
{
    mp_convert_options o;
    mp_convert_options_default(&o);
    static const mlvpipe_movie_settings movie_defaults;
    m = m ? m : &movie_defaults;
    const char *refusal = movie_refusal(m, s->format ? s->format : o.format);
    if (refusal)
        return mp_error_set(e, MP_ERR_ARG, "%s: %s", s->format ? s->format : o.format,
                            refusal);
    o.prores_aw = m->prores_encoder == MLVPIPE_PRORES_AW;
    o.prores_slice_rc = m->prores_encoder == MLVPIPE_PRORES_KS_SLICE;
    mp_api_convert_options(s, &o);
    *relay = (progress_relay){s->progress, s->progress_opaque};
    if (s->progress) {
        o.progress = relay_progress;
        o.progress_opaque = relay;
    }
    *out = o;
    return MP_OK;
}

static mlvpipe_convert_result public_result(const mp_convert_result *r)
{
    return (mlvpipe_convert_result){
        .selected = r->selected,
        .written = r->written,
        .skipped = r->skipped,
        .damaged = r->damaged,
        .threads = r->threads,
        .output_failed = r->output_failed,
        .cache_hits = r->cache_hits,
        .cache_misses = r->cache_misses,
        .cache_rejected = r->cache_rejected,
        .cache_puts = r->cache_puts,
    };
}

static mlvpipe_status convert_movie(const mlvpipe_convert_settings *s,
                                    const mlvpipe_movie_settings *m,
                                    mlvpipe_convert_result *result, mlvpipe_error *err)
{
    mp_convert_options o;
    progress_relay relay;
    mp_convert_result r = {0};
    mp_error e = {0};
    mp_status st = options_from(s, m, &relay, &o, &e);
    if (st == MP_OK)
        st = mp_convert(&o, &r, &e);
    if (result)
        *result = public_result(&r);
    return mp_api_status(st, &e, err);
}

/* The caller's settings of `size` bytes over the defaults, their reserved room zero. */
static mlvpipe_status convert_settings_in(mlvpipe_convert_settings *s,
                                          const mlvpipe_convert_settings *given, size_t size,
                                          mlvpipe_error *err)
{
    mlvpipe_default_convert_settings_sized(s, sizeof *s);
    mlvpipe_status st = mp_api_settings_in(s, sizeof *s, given, size, CONVERT_4_0, "convert",
                                           err);
    return st == MLVPIPE_OK ? mp_api_reserved_zero(RESERVED(*s), "convert", err) : st;
}

mlvpipe_status mlvpipe_convert_movie_sized(const mlvpipe_convert_settings *given, size_t size,
                                           const mlvpipe_movie_settings *m,
                                           mlvpipe_convert_result *result, mlvpipe_error *err)
{
    mlvpipe_convert_settings s;
    mlvpipe_status st = convert_settings_in(&s, given, size, err);
    if (st == MLVPIPE_OK)
        return convert_movie(&s, m, result, err);
    if (result)
        *result = (mlvpipe_convert_result){0};
    return st;
}

/* The caller's callbacks, in public terms. */
typedef struct batch_relay {
    mlvpipe_batch_started_fn started;
    mlvpipe_batch_finished_fn finished;
    void *opaque;
} batch_relay;

static void relay_started(void *user, uint32_t index)
{
    const batch_relay *r = user;
    r->started(r->opaque, index);
}

static void relay_finished(void *user, uint32_t index, mp_status st, const mp_convert_result *res,
                           const mp_error *err)
{
    const batch_relay *r = user;
    const mlvpipe_convert_result pub = public_result(res);
    mlvpipe_error e;
    r->finished(r->opaque, index, mp_api_status(st, err, &e), &pub, &e);
}

mlvpipe_status mlvpipe_convert_batch_sized(const mlvpipe_convert_settings *given, size_t size,
                                           const mlvpipe_movie_settings *m,
                                           const char *const *inputs,
                                           const char *const *outputs, uint32_t count,
                                           mlvpipe_batch_started_fn started,
                                           mlvpipe_batch_finished_fn finished, void *opaque,
                                           mlvpipe_error *err)
{
    mlvpipe_convert_settings s;
    mlvpipe_status pst = convert_settings_in(&s, given, size, err);
    if (pst != MLVPIPE_OK)
        return pst;
    mp_error e = {0};
    if (!finished || (count && (!inputs || !outputs)))
        return mp_api_status(mp_error_set(&e, MP_ERR_ARG, "convert batch: inputs, outputs "
                                          "and the finished callback are required"), &e, err);
    mp_convert_options o;
    progress_relay relay;
    mp_status st = options_from(&s, m, &relay, &o, &e);
    if (st != MP_OK)
        return mp_api_status(st, &e, err);
    const batch_relay br = {started, finished, opaque};
    const mp_batch_callbacks cb = {(void *)&br, started ? relay_started : NULL, relay_finished};
    return mp_api_status(mp_convert_batch(&o, inputs, outputs, count, &cb, NULL, &e), &e, err);
}

void mlvpipe_default_analyze_settings_sized(mlvpipe_analyze_settings *given, size_t size)
{
    mp_prepass_options o;
    mp_prepass_options_default(&o);
    const mlvpipe_analyze_settings s = {.force_phase = o.force_phase};
    mp_api_settings_out(given, size, &s, sizeof s);
}

void (mlvpipe_default_analyze_settings)(mlvpipe_analyze_settings *s)
{
    mlvpipe_default_analyze_settings_sized(s, ANALYZE_4_0);
}

static void log_levels(const mp_logger *log, const mp_clip_levels *cl)
{
    for (uint32_t k = 0; k < cl->segment_count; k++) {
        const mp_levels_segment *s = &cl->segments[k];
        const dualiso_levels *lv = &s->levels;
        if (lv->is_dual)
            mp_log(log, MP_LOG_INFO, "frames %u-%u: dual ISO, phase %u, %.3f EV, "
                   "blacks %.2f/%.2f, whites %.0f/%.0f, %u frames used", s->first_frame,
                   s->last_frame, lv->phase, lv->ratio_ev, lv->black_dark, lv->black_bright,
                   lv->white_dark, lv->white_bright, lv->frames_used);
        else
            mp_log(log, MP_LOG_INFO, "frames %u-%u: single ISO", s->first_frame,
                   s->last_frame);
    }
}

static mlvpipe_status analyze(const mlvpipe_analyze_settings *s, mlvpipe_analyze_result *result,
                              mlvpipe_error *err)
{
    mp_prepass_options po;
    mp_prepass_options_default(&po);
    po.threads = s->threads;
    po.force_phase = s->force_phase;
    po.cancel = s->cancel;
    po.log = mp_api_logger(&s->log);
    progress_relay relay = {s->progress, s->progress_opaque};
    if (s->progress) {
        po.progress = relay_progress;
        po.progress_opaque = &relay;
    }
    mlvpipe_analyze_result unused;
    if (!result)
        result = &unused;
    *result = (mlvpipe_analyze_result){0};

    mlv_clip *clip = NULL;
    mlv_open_options oo = {po.log, 0};
    mp_error e = {0};
    mp_status st = mp_mlv_clip_open(&clip, s->input, &oo, &e);
    if (st != MP_OK)
        return mp_api_status(st, &e, err);
    int damaged = mp_mlv_clip_get_info(clip)->damage_count > 0; /* logged while opening */
    if ((st = mp_protect_inputs(clip, NULL, &e)) != MP_OK) {   /* -o must not replace it */
        mp_mlv_clip_close(clip);
        return mp_api_status(st, &e, err);
    }
    rawfix_dark dark = {0};
    if (s->dark && (st = mp_dark_load(s->dark, clip, s->cancel, &po.log, &dark, &e)) != MP_OK) {
        mp_mlv_clip_close(clip);
        return mp_api_status(st, &e, err);
    }
    po.dark = s->dark ? &dark : NULL;
    mp_defects_from borrowed = {0};
    if (s->defects_from) {
        mp_error oe;
        if (mp_out_protect(s->defects_from, &oe) == MP_ERR_NOMEM)
            st = mp_error_set(&e, MP_ERR_NOMEM, "%s", oe.msg);
        if (st == MP_OK)
            st = mp_defects_from_load(s->defects_from, &po, &borrowed, &e);
    }
    mp_clip_levels cl;
    if (st == MP_OK)
        st = mp_defects_from_prepass(clip, &po, &borrowed, s->tool ? s->tool : DEFAULT_TOOL,
                                     &cl, &e);
    mp_defects_from_free(&borrowed);
    mp_rawfix_dark_free(&dark);
    mp_mlv_clip_close(clip);
    if (st != MP_OK)
        return mp_api_status(st, &e, err);
    log_levels(&po.log, &cl);
    if (s->output) {
        st = mp_clip_levels_write(s->output, &cl, s->overwrite, &e);
        result->output_failed = st != MP_OK;
    } else if (result != &unused) {
        size_t len;
        st = mp_clip_levels_to_json(&cl, &result->json, &len, &e);
    }
    mp_clip_levels_free(&cl);
    if (st == MP_OK && damaged)
        st = mp_error_set(&e, MP_ERR_DAMAGED, "%s: damaged (see the warnings)", s->input);
    return mp_api_status(st, &e, err);
}

mlvpipe_status mlvpipe_analyze_sized(const mlvpipe_analyze_settings *given, size_t size,
                                     mlvpipe_analyze_result *result, mlvpipe_error *err)
{
    mlvpipe_analyze_settings s;
    mlvpipe_default_analyze_settings_sized(&s, sizeof s);
    mlvpipe_status st = mp_api_settings_in(&s, sizeof s, given, size, ANALYZE_4_0, "analyze",
                                           err);
    if (st == MLVPIPE_OK)
        return analyze(&s, result, err);
    if (result)
        *result = (mlvpipe_analyze_result){0};
    return st;
}

mlvpipe_status (mlvpipe_analyze)(const mlvpipe_analyze_settings *s,
                                 mlvpipe_analyze_result *result, mlvpipe_error *err)
{
    return mlvpipe_analyze_sized(s, ANALYZE_4_0, result, err);
}

static mlvpipe_status join(const mlvpipe_join_settings *s, mlvpipe_join_result *result,
                           mlvpipe_error *err)
{
    farm_join_options o = {
        .output = s->output,
        .segments = s->segments,
        .segment_count = s->segment_count,
        .overwrite = s->overwrite,
        .allow_gaps = s->allow_gaps,
        .cancel = s->cancel,
        .log = mp_api_logger(&s->log),
        .settings = s,
    };
    farm_join_result r = {0};
    int on_output = 0;
    mp_error e = {0};
    mp_status st = mp_farm_join(&o, &r, &on_output, &e);
    if (result)
        *result = (mlvpipe_join_result){
            .packets = r.packets,
            .video_packets = r.video_packets,
            .shifted_segments = r.shifted_segments,
            .output_failed = on_output,
        };
    return mp_api_status(st, &e, err);
}

mlvpipe_status mlvpipe_join_sized(const mlvpipe_join_settings *given, size_t size,
                                  mlvpipe_join_result *result, mlvpipe_error *err)
{
    mlvpipe_join_settings s = {0};   /* all zero: the defaults */
    mlvpipe_status st = mp_api_settings_in(&s, sizeof s, given, size, JOIN_4_0, "join", err);
    if (st == MLVPIPE_OK)
        st = mp_api_reserved_zero(RESERVED(s), "join", err);
    if (st == MLVPIPE_OK)
        return join(&s, result, err);
    if (result)
        *result = (mlvpipe_join_result){0};
    return st;
}

mlvpipe_status (mlvpipe_join)(const mlvpipe_join_settings *s, mlvpipe_join_result *result,
                              mlvpipe_error *err)
{
    return mlvpipe_join_sized(s, JOIN_4_0, result, err);
}

/* libav keeps one process-wide callback, so the logger must outlive its use: keep a copy. */
static mlvpipe_logger libav_log;
static mp_logger libav_mp_log;

void mlvpipe_route_libav_log(const mlvpipe_logger *log)
{
    if (!log || !log->fn) {
        mp_av_sink_route_av_log(NULL);
        return;
    }
    libav_log = *log;
    libav_mp_log = mp_api_logger(&libav_log);
    mp_av_sink_route_av_log(&libav_mp_log);
}
