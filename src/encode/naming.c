#include "encode/naming.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "common/out_file.h"
#include "encode/timecode.h"
#include "encode/wallclock.h"

mp_status mp_naming_check(const mp_sink_params *p, mp_error *err)
{
    const char *n = p->clip_name;
    size_t len = strnlen(n, sizeof p->clip_name);
    if (len == 0 || len == sizeof p->clip_name || !strcmp(n, ".") || !strcmp(n, ".."))
        return mp_error_set(err, MP_ERR_ARG, "clip name \"%.*s\" cannot name files",
                            (int)(len < 64 ? len : 64), n);
    for (size_t i = 0; i < len; i++)
        if (n[i] == '/' || (unsigned char)n[i] < 0x20 || n[i] == 0x7F)
            return mp_error_set(err, MP_ERR_ARG, "clip name \"%s\" contains '/' or a control "
                                "character", n);
    return MP_OK;
}

/* The part shared by the folder, the frames and the WAV. */
static void name_base(const mp_sink_params *p, char *out)
{
    if (p->naming == MP_NAMING_PLAIN) {
        snprintf(out, MP_NAME_MAX, "%s", p->clip_name);
        return;
    }
    mp_civil_time t = {1970, 1, 1, 0, 0, 0};
    mp_wall_clock_at(&p->meta.wall_clock, 0, &t);
    snprintf(out, MP_NAME_MAX, "%s_1_%04d-%02d-%02d_%02d%02d_C%04u", p->clip_name,
             (int)t.year, (int)t.month, (int)t.day, (int)t.hour, (int)t.minute,
             p->resolve_clip_index % 10000);
}

void mp_name_folder(const mp_sink_params *p, char *out)
{
    name_base(p, out);
}


void mp_name_frame(const mp_sink_params *p, uint32_t number, char *out)
{
    char base[MP_NAME_MAX];
    name_base(p, base);
    /* 64-bit so that number + 1 cannot wrap; 7 digits appear only past frame 999999. */
    unsigned long long n = (unsigned long long)number + (p->one_based ? 1 : 0);
    if (p->still) {
        snprintf(out, MP_NAME_MAX, "%.200s.%.16s", base, p->extension ? p->extension : "dng");
        return;
    }
    snprintf(out, MP_NAME_MAX, "%.200s_%06llu.%.16s", base, n,
             p->extension ? p->extension : "dng");
}

void mp_name_audio(const mp_sink_params *p, char *out)
{
    char base[MP_NAME_MAX];
    name_base(p, base);
    snprintf(out, MP_NAME_MAX, "%.200s.wav", base);
}

mp_status mp_sequence_folder_open(const char *path, const mp_sink_params *p, char *folder,
                                  mp_error *err)
{
    char name[MP_NAME_MAX];
    mp_rational fps;
    mp_status st = mp_naming_check(p, err);
    if (st == MP_OK && !p->still)  /* a bad rate should fail here, not at every frame */
        st = mp_sink_fps(p, &fps, err);
    if (st != MP_OK)
        return st;
    if (p->still) {   /* the picture goes into PATH itself */
        snprintf(folder, PATH_MAX, "%s", path && *path ? path : ".");
        return path && *path ? mp_make_dir(path, err) : MP_OK;
    }
    mp_name_folder(p, name);
    if (path && *path && (st = mp_make_dir(path, err)) != MP_OK)
        return st;
    st = mp_path_join(folder, PATH_MAX, path, name, err);
    if (st == MP_OK)
        st = mp_make_dir(folder, err);
    return st;
}

mp_status mp_sequence_frame_path(const char *folder, const mp_sink_params *p, uint32_t number,
                                 char *out, mp_error *err)
{
    char name[MP_NAME_MAX];
    mp_name_frame(p, number, name);
    return mp_path_join(out, PATH_MAX, folder, name, err);
}

mp_status mp_path_join(char *out, size_t size, const char *dir, const char *name,
                       mp_error *err)
{
    int n = (dir && *dir) ? snprintf(out, size, "%s/%s", dir, name)
                          : snprintf(out, size, "%s", name);
    if (n < 0 || (size_t)n >= size)
        return mp_error_set(err, MP_ERR_ARG, "%s/%s: path too long", dir ? dir : "", name);
    return MP_OK;
}
