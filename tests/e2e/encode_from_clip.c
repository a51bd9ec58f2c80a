/* Reads a clip with the reader and writes it as a CinemaDNG sequence (+ WAV when the clip
 * has audio) through the sinks: the reader-to-encoder path with real sample files, for
 * tests/e2e/encode_clips.sh.
 *
 * encode_from_clip CLIP OUTDIR native|16|lj92|lj92-2c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode/sink.h"
#include "pipeline/formats.h"
#include "reader/mlv_reader.h"

static int fail(const mp_error *err)
{
    fprintf(stderr, "encode_from_clip: %s\n", err->msg);
    return 1;
}

/* What the sinks need from the reader's view of a clip. */
static void params_from_clip(const char *path, const mlv_clip_info *info, mp_sink_params *p)
{
    memset(p, 0, sizeof *p);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strcspn(base, ".");
    snprintf(p->clip_name, sizeof p->clip_name, "%.*s", (int)len, base);
    p->meta = (mp_clip_meta){info->raw, info->capture, info->camera, info->lens,
                             info->exposure, info->white_balance, info->wall_clock,
                             info->photo};
    p->fps_num = info->fps_num;
    p->fps_den = info->fps_den;
    p->audio = info->audio;
    p->audio_start_us = info->audio_start_us;
    p->video_start_us = info->video_start_us;
    p->clip_first_frame = p->first_frame = info->first_number;
    p->frame_count = info->last_number - info->first_number + 1;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s CLIP OUTDIR native|16|lj92|lj92-2c\n", argv[0]);
        return 2;
    }
    mp_error err = {0};
    mlv_clip *clip;
    mlv_open_options opt = {0};
    if (mp_mlv_clip_open(&clip, argv[1], &opt, &err) != MP_OK)
        return fail(&err);
    const mlv_clip_info *info = mp_mlv_clip_get_info(clip);
    mp_sink_params p;
    params_from_clip(argv[1], info, &p);
    p.storage = !strcmp(argv[3], "16") ? MP_DNG_16BIT
              : !strcmp(argv[3], "lj92") ? MP_DNG_LJ92
              : !strcmp(argv[3], "lj92-2c") ? MP_DNG_LJ92_2C : MP_DNG_NATIVE;

    mp_sink *dng = NULL, *wav = NULL;
    mp_frame f = {0};
    mlv_scratch scratch = {0};
    uint8_t *pcm = NULL;
    int rc = 1;
    if (mp_sink_open(&dng, mp_sink_find("dng"), argv[2], &p, &err) != MP_OK)
        goto done;
    for (uint32_t i = 0; i < info->frame_count; i++) {
        mlv_frame_info fi;
        if (mp_mlv_frame_info_get(clip, i, &fi) != MP_OK ||
            mp_mlv_read_frame(clip, i, &f, &scratch, &err) != MP_OK)
            goto done;
        mp_frame_meta m = {fi.exposure, fi.white_balance};
        if (mp_sink_write_frame(dng, &f, &m, &err) != MP_OK)
            goto done;
    }
    if (info->audio.present && info->audio_bytes) {
        if (mp_sink_open(&wav, mp_sink_find("wav"), argv[2], &p, &err) != MP_OK)
            goto done;
        enum { PIECE = 65536 };
        pcm = malloc(PIECE);
        for (uint64_t at = 0; pcm && at < info->audio_bytes; at += PIECE) {
            size_t n = info->audio_bytes - at < PIECE ? (size_t)(info->audio_bytes - at) : PIECE;
            if (mp_mlv_read_audio(clip, at, pcm, n, &err) != MP_OK ||
                mp_sink_write_audio(wav, pcm, n, &err) != MP_OK)
                goto done;
        }
        mp_sink *w = wav;
        wav = NULL;
        if (mp_sink_finish(w, &err) != MP_OK)
            goto done;
    }
    mp_sink *d = dng;
    dng = NULL;
    rc = mp_sink_finish(d, &err) != MP_OK;
done:
    if (rc)
        fail(&err);
    mp_sink_abort(wav);
    mp_sink_abort(dng);
    free(pcm);
    mp_frame_free(&f);
    mp_mlv_scratch_free(&scratch);
    mp_mlv_clip_close(clip);
    return rc;
}
