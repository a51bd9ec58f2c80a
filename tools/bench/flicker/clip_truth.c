#include "clip_truth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"

static uint32_t member(const mp_json_doc *d, uint32_t obj, const char *key)
{
    if (d->nodes[obj].type != MP_JSON_OBJECT)
        return MP_JSON_NONE;
    for (uint32_t c = d->nodes[obj].child; c != MP_JSON_NONE; c = d->nodes[c].next)
        if (strcmp(mp_json_key(d, c), key) == 0)
            return c;
    return MP_JSON_NONE;
}

typedef struct reader {
    const mp_json_doc *doc;
    const char *path;
    mp_error *err;
    mp_status st;
} reader;

static double number(reader *r, uint32_t obj, const char *key)
{
    if (r->st != MP_OK) /* an enclosing object was missing: already reported */
        return 0;
    uint32_t n = member(r->doc, obj, key);
    if (n == MP_JSON_NONE || r->doc->nodes[n].type != MP_JSON_NUMBER) {
        r->st = mp_error_set(r->err, MP_ERR_FORMAT, "%s: number \"%s\" missing", r->path, key);
        return 0;
    }
    return r->doc->nodes[n].number;
}

static uint32_t object(reader *r, uint32_t obj, const char *key)
{
    if (r->st != MP_OK)
        return 0;
    uint32_t n = member(r->doc, obj, key);
    if (n == MP_JSON_NONE || r->doc->nodes[n].type != MP_JSON_OBJECT)
        r->st = mp_error_set(r->err, MP_ERR_FORMAT, "%s: object \"%s\" missing", r->path, key);
    return n;
}

static mp_status read_text(const char *path, char **text, size_t *len, mp_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return mp_error_set(err, MP_ERR_IO, "%s: %s", path, strerror(errno));
    *text = malloc(MP_JSON_MAX_BYTES + 1);
    *len = *text ? fread(*text, 1, MP_JSON_MAX_BYTES + 1, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (!*text)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: cannot allocate", path);
    if (bad || *len > MP_JSON_MAX_BYTES) {
        free(*text);
        *text = NULL;
        return mp_error_set(err, bad ? MP_ERR_IO : MP_ERR_FORMAT, "%s: %s", path,
                            bad ? "read error" : "larger than a truth file");
    }
    return MP_OK;
}

static void read_model(reader *r, uint32_t root, clip_truth *t)
{
    const mp_json_doc *d = r->doc;
    uint32_t diso = object(r, root, "dual_iso");
    if (r->st != MP_OK)
        return;
    uint32_t segs = member(d, diso, "segments");
    if (segs == MP_JSON_NONE || d->nodes[segs].type != MP_JSON_ARRAY ||
        d->nodes[segs].count != 1) {
        r->st = mp_error_set(r->err, MP_ERR_UNSUPPORTED, "%s: the flicker check needs one "
                             "dual-ISO segment (no settings change)", r->path);
        return;
    }
    uint32_t seg = d->nodes[segs].child;
    uint32_t s = object(r, seg, "sensor"), sc = object(r, seg, "scene");
    synth_sensor *o = &t->sensor;
    o->bits = (uint32_t)number(r, s, "bits");
    o->black = number(r, s, "black");
    o->bright_black_offset = number(r, s, "bright_black_offset");
    o->white = number(r, s, "white");
    o->full_well_e = number(r, s, "full_well_e");
    o->ev_gap = number(r, s, "ev_gap");
    o->read_noise_dark = number(r, s, "read_noise_dark");
    o->read_noise_bright = number(r, s, "read_noise_bright");
    o->phase = (uint32_t)number(r, s, "phase");
    o->ob_left = (uint32_t)number(r, s, "ob_left");
    o->ob_top = (uint32_t)number(r, s, "ob_top");
    o->photon_noise = (int)number(r, s, "photon_noise");
    t->scene.exposure_ev = number(r, sc, "exposure_ev");
    t->scene.shift_px = number(r, sc, "shift_px");
    t->scene.illum_sigma_ev = number(r, sc, "illum_sigma_ev");
    t->scene.seed = (uint64_t)number(r, sc, "seed");
    uint32_t kind = r->st == MP_OK ? member(d, sc, "kind") : MP_JSON_NONE;
    const char *name = kind != MP_JSON_NONE && d->nodes[kind].type == MP_JSON_STRING
                           ? mp_json_string(d, kind) : "";
    t->scene.kind = strcmp(name, "flat") == 0   ? SYNTH_SCENE_FLAT
                    : strcmp(name, "ramp") == 0 ? SYNTH_SCENE_RAMP
                                                : SYNTH_SCENE_BENCHMARK;
    if (r->st == MP_OK && strcmp(name, "benchmark") && strcmp(name, "flat") &&
        strcmp(name, "ramp"))
        r->st = mp_error_set(r->err, MP_ERR_FORMAT, "%s: unknown scene \"%s\"", r->path, name);
    t->width = (uint32_t)number(r, root, "width");
    t->height = (uint32_t)number(r, root, "height");
    t->frames = (uint32_t)number(r, root, "frames");
    t->active_width = (uint32_t)number(r, diso, "active_width");
    t->active_height = (uint32_t)number(r, diso, "active_height");
}

static mp_status check_model(const char *path, const clip_truth *t, mp_error *err)
{
    const synth_sensor *s = &t->sensor;
    if (!(s->ev_gap > 0) || !(s->white > s->black) || !(s->full_well_e > 0) ||
        s->phase > 3 || s->bits < 10 || s->bits > 16)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: not a dual-ISO sensor model", path);
    if (t->scene.shift_px != 0 || t->scene.illum_sigma_ev != 0)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: scene drifts (shift %g px) or "
                            "flickers (illumination sigma %g EV): the check needs a static clip",
                            path, t->scene.shift_px, t->scene.illum_sigma_ev);
    if (t->frames < 3)
        return mp_error_set(err, MP_ERR_ARG, "%s: %u frames, at least 3 needed", path,
                            t->frames);
    if (t->active_width == 0 || t->active_height == 0 ||
        t->active_width + s->ob_left != t->width || t->active_height + s->ob_top != t->height ||
        (uint64_t)t->width * t->height > MP_FRAME_MAX_PIXELS)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: active area %ux%u plus borders %ux%u is "
                            "not the %ux%u frame", path, t->active_width, t->active_height,
                            s->ob_left, s->ob_top, t->width, t->height);
    return MP_OK;
}

mp_status clip_truth_load(const char *path, clip_truth *t, mp_error *err)
{
    memset(t, 0, sizeof *t);
    char *text = NULL;
    size_t len = 0;
    mp_status st = read_text(path, &text, &len, err);
    if (st != MP_OK)
        return st;
    mp_json_doc doc = {0};
    st = mp_json_parse(text, len, path, &doc, err);
    free(text);
    if (st != MP_OK)
        return st;
    reader r = {&doc, path, err, MP_OK};
    read_model(&r, 0, t);
    mp_json_free(&doc);
    if ((st = r.st) != MP_OK || (st = check_model(path, t, err)) != MP_OK)
        return st;
    size_t n = (size_t)t->active_width * t->active_height;
    t->electrons = malloc(n * sizeof *t->electrons);
    if (!t->electrons)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: cannot allocate the truth image", path);
    st = mp_synth_render_truth(&t->scene, t->active_width, t->active_height, 0, t->electrons, err);
    if (st != MP_OK)
        clip_truth_free(t);
    return st;
}

void clip_truth_free(clip_truth *t)
{
    free(t->electrons);
    t->electrons = NULL;
}
