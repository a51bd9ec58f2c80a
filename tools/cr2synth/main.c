/* cr2synth: writes a synthetic Canon CR2 (cr2_writer.h) of the simulated sensor (src/synth):
 * dual ISO or not, with masked borders, known levels and EXIF, for the still tests.
 * --samples writes the exact samples as a 16-bit PGM, the form `dcraw -E -4` gives, so that
 * outside decoders can be held to them byte for byte. Same options -> same bytes. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera_body.h"
#include "common/out_file.h"
#include "cr2_writer.h"
#include "synth/synth.h"

typedef struct options {
    const char *output, *samples;
    uint32_t width, height, ob_left, ob_top, bits, phase, slices, frame;
    double ev_gap, exposure_ev;
    uint64_t seed;
    int overwrite, wrong_slices;
    synth_scene_kind scene;
    cr2_meta meta;
} options;

static void usage(void)
{
    puts("usage: cr2synth -o NAME.CR2 [options]\n"
         "  --size WxH       the picture (inside the masked borders), even   [512x320]\n"
         "  --ob LxT         masked left and top borders, even               [72x28]\n"
         "  --bits B         12 or 14                                         [14]\n"
         "  --dual EV        dual ISO with this gap (0: single ISO)          [0]\n"
         "  --phase N        dual ISO row phase 0..3                          [0]\n"
         "  --exposure EV    added to the scene                              [0]\n"
         "  --seed N         noise and scene seed                             [1]\n"
         "  --frame N        the sensor's noise of frame N: stills 0, 1, 2 ... of one\n"
         "                   --seed are a static timelapse, sample for sample the frames\n"
         "                   of mlvsynth --content dualiso --seed N (same size and --ob)  [0]\n"
         "  --scene KIND     benchmark or objects (mlvsynth's --scene)       [benchmark]\n"
         "  --camera KEY     5d3, eosm, 100d, 650d, 700d                      [5d3]\n"
         "  --iso N          EXIF and ISO of the dark field                   [100]\n"
         "  --orientation N  EXIF orientation 1..8                            [1]\n"
         "  --slices N       lossless-JPEG slices                             [2]\n"
         "  --wrong-slices   a slice tag that does not add up to the width (damage)\n"
         "  --samples FILE   also the samples as a 16-bit PGM (dcraw -E -4's form)\n"
         "  --overwrite      replace existing files");
}

static int pair(const char *s, uint32_t *a, uint32_t *b)
{
    char x;
    return sscanf(s, "%u%c%u", a, &x, b) == 3 && x == 'x';
}

static int parse(options *o, int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", 1, 0, 'o'}, {"size", 1, 0, 's'}, {"ob", 1, 0, 'b'}, {"bits", 1, 0, 'B'},
        {"dual", 1, 0, 'd'}, {"phase", 1, 0, 'p'}, {"exposure", 1, 0, 'e'},
        {"seed", 1, 0, 'S'}, {"camera", 1, 0, 'c'}, {"iso", 1, 0, 'i'},
        {"orientation", 1, 0, 'O'}, {"slices", 1, 0, 'l'}, {"wrong-slices", 0, 0, 'w'},
        {"samples", 1, 0, 'P'}, {"overwrite", 0, 0, 'f'}, {"frame", 1, 0, 'F'},
        {"scene", 1, 0, 'C'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    const camera_body *body = camera_body_default();
    *o = (options){.width = 512, .height = 320, .ob_left = 72, .ob_top = 28, .bits = 14,
                   .slices = 2, .seed = 1};
    o->meta = (cr2_meta){.owner = "mlvpipe tests", .lens = "EF50mm f/1.4 USM",
                         .when = "2024:03:23 12:34:56", .orientation = 1, .iso = 100,
                         .shutter_num = 1, .shutter_den = 125, .aperture_x10 = 56,
                         .focal_mm = 50, .serial = 123456789,
                         .wb_rggb = {2100, 1024, 1024, 1560}};
    int c, ok = 1;
    while (ok && (c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': o->output = optarg; break;
        case 's': ok = pair(optarg, &o->width, &o->height); break;
        case 'b': ok = pair(optarg, &o->ob_left, &o->ob_top); break;
        case 'B': o->bits = (uint32_t)atoi(optarg); break;
        case 'd': o->ev_gap = atof(optarg); break;
        case 'p': o->phase = (uint32_t)atoi(optarg); break;
        case 'e': o->exposure_ev = atof(optarg); break;
        case 'S': o->seed = strtoull(optarg, NULL, 0); break;
        case 'F': o->frame = (uint32_t)atoi(optarg); break;
        case 'C':
            ok = !strcmp(optarg, "benchmark") || !strcmp(optarg, "objects");
            o->scene = strcmp(optarg, "objects") ? SYNTH_SCENE_BENCHMARK : SYNTH_SCENE_OBJECTS;
            break;
        case 'c': ok = (body = camera_body_find(optarg)) != NULL; break;
        case 'i': o->meta.iso = (uint32_t)atoi(optarg); break;
        case 'O': o->meta.orientation = (uint16_t)atoi(optarg); break;
        case 'l': o->slices = (uint32_t)atoi(optarg); break;
        case 'w': o->wrong_slices = 1; break;
        case 'P': o->samples = optarg; break;
        case 'f': o->overwrite = 1; break;
        default: ok = 0; break;
        }
    }
    o->meta.model = body->name;
    o->meta.model_id = body->model;
    ok = ok && o->output && optind == argc && (o->bits == 12 || o->bits == 14) &&
         o->phase < 4 && o->slices >= 1 && o->meta.orientation >= 1 &&
         o->meta.orientation <= 8 && !(o->width % 2) && !(o->height % 2) &&
         !(o->ob_left % 2) && !(o->ob_top % 2) && o->width >= 16 && o->height >= 16;
    return ok;
}

/* The simulated sensor's exposure of the scene, borders included. */
static mp_status expose(const options *o, mp_frame *frame, mp_error *err)
{
    synth_sensor s;
    mp_synth_sensor_default(&s, o->bits, o->ev_gap);
    s.phase = o->phase;
    s.ob_left = o->ob_left;
    s.ob_top = o->ob_top;
    synth_scene scene = {.kind = o->scene, .exposure_ev = o->exposure_ev,
                         .seed = o->seed};
    float *truth = malloc((size_t)o->width * o->height * sizeof *truth);
    if (!truth)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    mp_status st = mp_synth_render_truth(&scene, o->width, o->height, 0, truth, err);
    if (st == MP_OK)
        st = mp_synth_expose(&s, truth, o->width, o->height, o->seed, o->frame, frame, err);
    free(truth);
    return st;
}

static mp_status write_samples(const options *o, const mp_frame *f, mp_error *err)
{
    char head[64];
    int n = snprintf(head, sizeof head, "P5\n%u %u\n65535\n", f->width, f->height);
    size_t count = (size_t)f->width * f->height, size = (size_t)n + 2 * count;
    uint8_t *pgm = malloc(size);
    if (!pgm)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    memcpy(pgm, head, (size_t)n);
    for (size_t i = 0; i < count; i++) {     /* PGM is big-endian */
        pgm[n + 2 * i] = (uint8_t)(f->data[i] >> 8);
        pgm[n + 2 * i + 1] = (uint8_t)f->data[i];
    }
    mp_status st = mp_out_write_file(o->samples, pgm, size, o->overwrite, 0, err);
    free(pgm);
    return st;
}

int main(int argc, char **argv)
{
    options o;
    if (!parse(&o, argc, argv)) {
        usage();
        return 2;
    }
    mp_frame frame = {0};
    mp_error err = {0};
    uint8_t *file = NULL;
    size_t size = 0;
    mp_status st = expose(&o, &frame, &err);
    if (st == MP_OK) {
        o.meta.black = (uint16_t)frame.black;
        o.meta.white = (uint16_t)frame.white;
        uint32_t slice = (frame.width / o.slices + 1) & ~1u;
        cr2_image img = {frame.data, frame.width, frame.height, o.bits, o.ob_left, o.ob_top,
                         o.slices, slice, o.wrong_slices};
        st = cr2_write(&img, &o.meta, &file, &size, &err);
    }
    if (st == MP_OK)
        st = mp_out_write_file(o.output, file, size, o.overwrite, 0, &err);
    if (st == MP_OK && o.samples)
        st = write_samples(&o, &frame, &err);
    if (st != MP_OK)
        fprintf(stderr, "cr2synth: %s\n", err.msg);
    free(file);
    mp_frame_free(&frame);
    return st == MP_OK ? 0 : st == MP_ERR_ARG ? 2 : 1;
}
