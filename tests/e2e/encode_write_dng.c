/* Writes a CinemaDNG sequence (and optionally its WAV) from deterministic synthetic frames
 * through the "dng" and "wav" sinks, plus the expected raw values of every frame as 16-bit
 * PGM files, for the outside-reader checks in tests/e2e/encode_*.sh.
 *
 * encode_write_dng DIR CLIP STORAGE BITS WIDTH HEIGHT FIRST COUNT [FLAGS...]
 *   STORAGE: native | 16 | lj92 | lj92-2c      FLAGS: wav, resolve, tod (time-of-day TC), fps=N/D,
 *   df (drop-frame), pgm (DIR/expected/CLIP_NNNNNN.pgm, the raw values dcraw -D -4 prints) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/mp_frame.h"
#include "encode/naming.h"
#include "common/out_file.h"
#include "encode/sink.h"
#include "pipeline/formats.h"

/* Full-range values: every bit of every sample gets exercised. */
static void make_frame(mp_frame *f, uint32_t bits, uint32_t number)
{
    uint32_t mask = (1u << bits) - 1;
    for (uint32_t y = 0; y < f->height; y++)
        for (uint32_t x = 0; x < f->width; x++)
            f->data[(size_t)y * f->width + x] =
                (uint16_t)((37u * x + 101u * y + 7919u * number + (x * y) % 13 +
                            ((x ^ y) & 1) * (mask / 2)) & mask);
    f->bits = bits;
    f->black = 2048u >> (14 - (bits < 14 ? bits : 14));
    f->white = mask;
    f->cfa = MP_CFA_RGGB;
    f->number = number;
    f->timestamp_us = 21000 + (uint64_t)number * 41708;
}

static int write_pgm(const char *dir, const mp_sink_params *p, const mp_frame *f)
{
    char name[MP_NAME_MAX], path[4096 + MP_NAME_MAX];
    mp_name_frame(p, f->number, name);
    snprintf(path, sizeof path, "%s/%.*s.pgm", dir, (int)(strlen(name) - 4), name);
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return -1;
    fprintf(fp, "P5\n%u %u\n65535\n", f->width, f->height);
    for (size_t i = 0; i < (size_t)f->width * f->height; i++) {
        fputc(f->data[i] >> 8, fp);
        fputc(f->data[i] & 0xFF, fp);
    }
    return fclose(fp);
}

static void clip_params(mp_sink_params *p, const char *clip)
{
    memset(p, 0, sizeof *p);
    snprintf(p->clip_name, sizeof p->clip_name, "%s", clip);
    p->fps_num = 23976;
    p->fps_den = 1000;
    mp_clip_meta *m = &p->meta;
    m->camera = (mp_camera){1, "Canon EOS 5D Mark III", 0x80000285, "012345678901"};
    m->lens = (mp_lens){.present = 1, .focal_mm = 50, .aperture_x100 = 180,
                        .name = "EF50mm f/1.8 STM"};
    m->exposure = (mp_exposure){.present = 1, .iso = 400, .shutter_us = 20833};
    m->white_balance = (mp_white_balance){.present = 1, .kelvin = 5500, .gain_r = 2150,
                                          .gain_g = 1024, .gain_b = 1650};
    m->wall_clock = (mp_wall_clock){.present = 1, .year = 2024, .month = 6, .day = 21,
                                    .hour = 14, .minute = 30, .second = 5,
                                    .timestamp_us = 500000};
    static const int32_t cm[9] = {6722, -635, -963, -4287, 12460, 2028, -908, 2162, 5668};
    for (int i = 0; i < 9; i++)
        m->raw.color_matrix1[i] = (mp_rational){cm[i], 10000};
    m->raw.calibration_illuminant = 21;
    m->capture = (mp_raw_capture){.present = 1, .binning_x = 3, .binning_y = 1,
                                  .skipping_y = 2};
}

static int fail(const mp_error *err)
{
    fprintf(stderr, "encode_write_dng: %s\n", err->msg);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 9) {
        fprintf(stderr, "usage: %s DIR CLIP native|16|lj92|lj92-2c BITS W H FIRST COUNT [wav resolve "
                        "tod df pgm fps=N/D]\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    mp_sink_params p;
    clip_params(&p, argv[2]);
    p.storage = !strcmp(argv[3], "16") ? MP_DNG_16BIT
              : !strcmp(argv[3], "lj92") ? MP_DNG_LJ92
              : !strcmp(argv[3], "lj92-2c") ? MP_DNG_LJ92_2C : MP_DNG_NATIVE;
    uint32_t bits = (uint32_t)atoi(argv[4]), w = (uint32_t)atoi(argv[5]);
    uint32_t h = (uint32_t)atoi(argv[6]), first = (uint32_t)atoi(argv[7]);
    uint32_t count = (uint32_t)atoi(argv[8]);
    int wav = 0, pgm = 0;
    for (int i = 9; i < argc; i++) {
        if (!strcmp(argv[i], "wav"))
            wav = 1;
        else if (!strcmp(argv[i], "resolve"))
            p.naming = MP_NAMING_RESOLVE;
        else if (!strcmp(argv[i], "tod"))
            p.timecode_time_of_day = 1;
        else if (!strcmp(argv[i], "df"))
            p.timecode_drop_frame = 1;
        else if (!strcmp(argv[i], "pgm"))
            pgm = 1;
        else if (sscanf(argv[i], "fps=%u/%u", &p.fps_override_num, &p.fps_override_den) != 2) {
            fprintf(stderr, "encode_write_dng: unknown flag %s\n", argv[i]);
            return 2;
        }
    }
    p.first_frame = first;
    p.frame_count = count;
    p.video_start_us = 21000;   /* the clip's frame 0 */
    p.audio_start_us = 1000;    /* audio began 20 ms earlier */
    p.audio = (mp_audio_format){1, 1, 2, 48000, 192000, 4, 16};

    mp_error err = {0};
    mp_sink *dng, *audio = NULL;
    char expected[4096];
    snprintf(expected, sizeof expected, "%s/expected", dir);
    if ((pgm && (mp_make_dir(dir, &err) || mp_make_dir(expected, &err))) ||
        mp_sink_open(&dng, mp_sink_find("dng"), dir, &p, &err) ||
        (wav && mp_sink_open(&audio, mp_sink_find("wav"), dir, &p, &err)))
        return fail(&err);
    mp_frame f = {0};
    if (mp_frame_reserve(&f, w, h, &err))
        return fail(&err);
    for (uint32_t n = first; n < first + count; n++) {
        make_frame(&f, bits, n);
        if (mp_sink_write_frame(dng, &f, NULL, &err))
            return fail(&err);
        if (pgm && write_pgm(expected, &p, &f)) {
            fprintf(stderr, "encode_write_dng: cannot write %s\n", expected);
            return 1;
        }
    }
    if (audio) {
        /* A 1 kHz square wave, left and right in opposite phase: one second per call. */
        int16_t *pcm = malloc(48000 * 4);
        for (uint32_t i = 0; i < 48000; i++) {
            int16_t v = (i / 24) % 2 ? 8000 : -8000;
            pcm[2 * i] = v;
            pcm[2 * i + 1] = (int16_t)-v;
        }
        uint32_t seconds = count / 23 + 1;
        for (uint32_t s = 0; s < seconds; s++)
            if (mp_sink_write_audio(audio, pcm, 48000 * 4, &err))
                return fail(&err);
        free(pcm);
        if (mp_sink_finish(audio, &err))
            return fail(&err);
    }
    mp_frame_free(&f);
    return mp_sink_finish(dng, &err) ? fail(&err) : 0;
}
