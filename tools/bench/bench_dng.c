/* bench_dng: single-thread CinemaDNG writing speed for 1920x1080 frames (a simulated 14-bit
 * 5D Mark III exposure of the benchmark scene): encode to memory, and the "dng" sink writing
 * files (temporary name + rename) into a tmpfs folder, for 16-bit samples, packed 14-bit,
 * and both LJ92 layouts. MB/s counts the bytes of the DNG files.
 * Usage: bench_dng [seconds per measurement, default 1] [folder, default /dev/shm] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "encode/dng.h"
#include "encode/sink.h"
#include "pipeline/formats.h"
#include "synth/synth.h"

enum { W = 1920, H = 1080, FILES = 16 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int make_frame(mp_frame *f)
{
    synth_sensor s;
    mp_synth_sensor_default(&s, 14, 0);
    s.ob_left = s.ob_top = 0;
    synth_scene scene = {SYNTH_SCENE_BENCHMARK, 0, 0, 0, 1};
    float *truth = malloc(sizeof *truth * W * H);
    mp_error err;
    int ok = truth && mp_synth_render_truth(&scene, W, H, 0, truth, &err) == MP_OK &&
             mp_synth_expose(&s, truth, W, H, 1, 0, f, &err) == MP_OK;
    if (!ok)
        fprintf(stderr, "bench_dng: %s\n", truth ? err.msg : "out of memory");
    free(truth);
    return ok;
}

static void bench(const char *name, mp_frame *f, mp_sink_params *p, const char *dir,
                  double seconds)
{
    mp_error err;
    uint8_t *buf;
    size_t len = 0;
    int n = 0;
    double t0 = now(), t;
    do {
        if (mp_dng_encode(f, NULL, p, &buf, &len, &err) != MP_OK) {
            fprintf(stderr, "bench_dng: %s\n", err.msg);
            return;
        }
        free(buf);
        n++;
    } while ((t = now() - t0) < seconds);
    double enc_fps = n / t, mb = len / 1e6;

    mp_sink *s;
    if (mp_sink_open(&s, mp_sink_find("dng"), dir, p, &err) != MP_OK) {
        fprintf(stderr, "bench_dng: %s\n", err.msg);
        return;
    }
    n = 0;
    t0 = now();
    do {
        f->number = (uint32_t)(n % FILES);
        if (mp_sink_write_frame(s, f, NULL, &err) != MP_OK) {
            fprintf(stderr, "bench_dng: %s\n", err.msg);
            mp_sink_abort(s);
            return;
        }
        n++;
    } while ((t = now() - t0) < seconds);
    mp_sink_finish(s, &err);
    printf("%-22s %5.2f MB/file  encode %6.1f frames/s %7.1f MB/s   to files %6.1f frames/s "
           "%7.1f MB/s\n", name, mb, enc_fps, enc_fps * mb, n / t, n / t * mb);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 1.0;
    const char *root = argc > 2 ? argv[2] : "/dev/shm";
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/bench_dng-%ld", root, (long)getpid());

    mp_frame f = {0};
    if (!make_frame(&f))
        return 1;
    mp_sink_params p = {.clip_name = "BENCH", .fps_num = 23976, .fps_den = 1000,
                        .overwrite = 1};
    p.meta.camera = (mp_camera){1, "Canon EOS 5D Mark III", 0x80000285, ""};
    printf("bench_dng: %dx%d 14-bit frame, one thread, files in %s\n", W, H, root);
    static const struct { const char *name; mp_dng_storage storage; } variants[] = {
        {"16-bit", MP_DNG_16BIT},
        {"packed 14-bit", MP_DNG_NATIVE},
        {"LJ92 (1 comp, pred 6)", MP_DNG_LJ92},
        {"LJ92 (2 comp, pred 1)", MP_DNG_LJ92_2C},
    };
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        p.storage = variants[i].storage;
        bench(variants[i].name, &f, &p, dir, seconds);
    }
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    int rc = system(cmd);
    mp_frame_free(&f);
    return rc != 0;
}
