/* mlvpipe_report: the public face of report/report.h. */
#include "api_internal.h"

#include "mlvpipe/report.h"

#include <stdlib.h>
#include <string.h>

#include "common/out_file.h"
#include "report/report.h"

/* The size of the report settings in API 4.0, whose entries took no size. */
#define REPORT_4_0 MP_API_END(mlvpipe_report_settings, clip_done_opaque)
_Static_assert(sizeof(mlvpipe_report_settings) == REPORT_4_0, "no tail padding (version.h)");

void mlvpipe_default_report_settings_sized(mlvpipe_report_settings *given, size_t size)
{
    mp_report_options o;
    mp_report_options_default(&o);
    const mlvpipe_report_settings s = {
        .samples = o.samples,
        .thumbs = o.thumbs,
        .thumb_width = o.thumb_width,
    };
    mp_api_settings_out(given, size, &s, sizeof s);
}

void (mlvpipe_default_report_settings)(mlvpipe_report_settings *s)
{
    mlvpipe_default_report_settings_sized(s, REPORT_4_0);
}

typedef mp_status (*render_fn)(const mp_clip_report *const *, uint32_t, const char *, char **,
                               size_t *, mp_error *);

static mp_status write_output(const char *path, render_fn render,
                              const mp_clip_report *const *r, uint32_t n, const char *tool,
                              int overwrite, mp_error *err)
{
    char *text = NULL;
    size_t len = 0;
    mp_status st = render(r, n, tool, &text, &len, err);
    if (st == MP_OK)
        st = mp_out_write_file(path, text, len, overwrite, 0, err);
    free(text);
    return st;
}

/* Damage is the mildest failure: a clip that could not be read at all outranks it. */
static void keep_worst(mp_status st, const mp_error *e, mp_status *worst, mp_error *worst_err)
{
    if (st == MP_OK || (*worst != MP_OK && (*worst != MP_ERR_DAMAGED || st == MP_ERR_DAMAGED)))
        return;
    *worst = st;
    *worst_err = *e;
}

static mlvpipe_status report(const mlvpipe_report_settings *s, mlvpipe_report_result *result,
                             mlvpipe_error *err)
{
    mlvpipe_report_result local;
    result = result ? result : &local;
    memset(result, 0, sizeof *result);
    mp_error e = {0}, worst_err = {0};
    if (!s->input_count || !s->inputs || (!s->html && !s->json))
        return mp_api_status(mp_error_set(&e, MP_ERR_ARG, "report: no clip, or neither a page "
                                          "nor JSON to write"), &e, err);
    mp_report_options o;
    mp_report_options_default(&o);
    o.threads = s->threads;
    o.samples = s->samples;
    o.thumbs = s->thumbs;
    o.thumb_width = s->thumb_width;
    o.no_defects = s->no_defects;
    o.dark = s->dark;
    o.cancel = s->cancel;
    o.log = mp_api_logger(&s->log);
    o.tool = s->tool ? s->tool : "mlvpipe " MLVPIPE_VERSION;
    mp_clip_report *reports = calloc(s->input_count, sizeof *reports);
    const mp_clip_report **list = calloc(s->input_count, sizeof *list);
    if (!reports || !list) {
        free(reports);
        free(list);
        return mp_api_status(mp_error_set(&e, MP_ERR_NOMEM, "report: out of memory"), &e, err);
    }
    mp_status worst = MP_OK, st = MP_OK;
    uint32_t done = 0;
    for (; done < s->input_count; done++) {
        st = mp_report_clip(s->inputs[done], &o, &reports[done], &e);
        list[done] = &reports[done];
        result->clips++;
        result->ok += st == MP_OK;
        result->damaged += st == MP_ERR_DAMAGED;
        result->failed += st != MP_OK && st != MP_ERR_DAMAGED;
        if (s->clip_done)
            s->clip_done(s->clip_done_opaque, s->inputs[done], (mlvpipe_status)st,
                         st == MP_OK ? NULL : e.msg, reports[done].seconds);
        keep_worst(st, &e, &worst, &worst_err);
        if (st == MP_ERR_INTERRUPTED) {
            done++;
            break;
        }
    }
    st = MP_OK;
    if (worst != MP_ERR_INTERRUPTED) {
        if (s->json)
            st = write_output(s->json, mp_report_json, list, done, o.tool, s->overwrite, &e);
        if (st == MP_OK && s->html)
            st = write_output(s->html, mp_report_html, list, done, o.tool, s->overwrite, &e);
        result->output_failed = st != MP_OK;
    }
    for (uint32_t i = 0; i < s->input_count; i++)
        mp_report_free(&reports[i]);
    free(reports);
    free(list);
    if (st != MP_OK)
        return mp_api_status(st, &e, err);
    return mp_api_status(worst, &worst_err, err);
}

mlvpipe_status mlvpipe_report_sized(const mlvpipe_report_settings *given, size_t size,
                                    mlvpipe_report_result *result, mlvpipe_error *err)
{
    mlvpipe_report_settings s;
    mlvpipe_default_report_settings_sized(&s, sizeof s);
    mlvpipe_status st = mp_api_settings_in(&s, sizeof s, given, size, REPORT_4_0, "report",
                                           err);
    if (st == MLVPIPE_OK)
        return report(&s, result, err);
    if (result)
        *result = (mlvpipe_report_result){0};
    return st;
}

mlvpipe_status (mlvpipe_report)(const mlvpipe_report_settings *s, mlvpipe_report_result *result,
                                mlvpipe_error *err)
{
    return mlvpipe_report_sized(s, REPORT_4_0, result, err);
}
