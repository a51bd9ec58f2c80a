/* bench_dualiso_speed: single-thread cost of the dual-ISO stages on a simulated 5D Mark
 * III-like 100/1600 frame (1920x1080 active, 1992x1108 with optical-black borders):
 * detection, statistics, pooling of 8 frames' statistics, reconstruction (median of N runs),
 * the reconstruction at every SIMD level the CPU has (runs interleaved, so a busy machine
 * slows all levels alike; same bytes checked), and the peak memory the statistics and
 * reconstruction add per raw pixel (measured in a forked child, so the simulator's buffers
 * are not counted; the input frame is).
 * Usage: bench_dualiso_speed [runs, default 5] [ISO gap in EV, default 4: 100/1600; gaps up
 * to 2.5 EV add the cross-field denoise] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/mp_cpu.h"
#include "dualiso/dualiso.h"
#include "encode/md5.h"
#include "synth/synth.h"

enum { W = 1920, H = 1080, POOL = 8, MAX_RUNS = 64 };

/* CPU time of this thread: on a shared machine wall time measures the neighbours too. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

static long peak_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static int fail(const mp_error *err)
{
    fprintf(stderr, "bench_dualiso_speed: %s\n", err->msg);
    return 1;
}

/* Runs in the child: stats + levels + one reconstruction, reports the added peak memory. */
static int measure_memory(const mp_frame *raw, uint32_t phase)
{
    long start = peak_kb();
    mp_error err = {0};
    dualiso_stats *st = malloc(sizeof *st);
    dualiso_levels lv;
    mp_frame out = {0};
    dualiso_workspace *ws = mp_dualiso_workspace_new();
    if (!st || !ws)
        return 1;
    if (mp_dualiso_stats_collect(raw, phase, st, &err) != MP_OK ||
        mp_dualiso_levels_pool(st, 1, NULL, &lv, &err) != MP_OK ||
        mp_dualiso_reconstruct(raw, &lv, NULL, ws, &out, &err) != MP_OK)
        return fail(&err);
    long added = peak_kb() - start;
    double pixels = (double)raw->width * raw->height;
    double in_bytes = pixels * sizeof(uint16_t);
    printf("peak memory: %.2f bytes/pixel (input frame %.2f + added %.2f; process peak %ld kB)\n",
           (in_bytes + added * 1024.0) / pixels, in_bytes / pixels, added * 1024.0 / pixels,
           peak_kb());
    mp_dualiso_workspace_free(ws);
    mp_frame_free(&out);
    free(st);
    return 0;
}

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    double gap = argc > 2 ? atof(argv[2]) : 4.0;
    if (runs < 1 || runs > MAX_RUNS || !(gap >= 0.5 && gap <= 8)) {
        fprintf(stderr, "usage: bench_dualiso_speed [runs 1..%d] [gap 0.5..8 EV]\n", MAX_RUNS);
        return 2;
    }
    mp_error err = {0};
    synth_sensor sensor;
    mp_synth_sensor_default(&sensor, 14, gap);
    synth_scene scene = {SYNTH_SCENE_BENCHMARK, 0, 0, 0, 7};
    float *truth = malloc(sizeof(float) * W * H);
    mp_frame raw = {0};
    if (!truth)
        return 1;
    if (mp_synth_render_truth(&scene, W, H, 0, truth, &err) != MP_OK ||
        mp_synth_expose(&sensor, truth, W, H, 1, 0, &raw, &err) != MP_OK)
        return fail(&err);
    free(truth);
    double mpix = raw.width * (double)raw.height / 1e6;
    printf("frame %ux%u (%.2f MP), 14-bit, ISO 100/%.0f, one thread, CPU time, median of %d "
           "runs\n", raw.width, raw.height, mpix, 100 * exp2(gap), runs);

    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        int rc = measure_memory(&raw, sensor.phase);
        fflush(stdout);
        _exit(rc);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        fprintf(stderr, "bench_dualiso_speed: memory measurement failed\n");

    double t_det[MAX_RUNS], t_stats[MAX_RUNS], t_pool[MAX_RUNS], t_rec[MAX_RUNS];
    dualiso_stats *stats = calloc(POOL, sizeof *stats);
    dualiso_workspace *ws = mp_dualiso_workspace_new();
    mp_frame out = {0};
    dualiso_levels lv;
    if (!stats || !ws)
        return 1;
    for (int r = 0; r < runs; r++) {
        dualiso_detection det;
        double t0 = now();
        if (mp_dualiso_detect(&raw, &det, &err) != MP_OK)
            return fail(&err);
        double t1 = now();
        if (mp_dualiso_stats_collect(&raw, det.phase, &stats[0], &err) != MP_OK)
            return fail(&err);
        double t2 = now();
        for (int i = 1; i < POOL; i++)
            stats[i] = stats[0];
        double t3 = now();
        if (mp_dualiso_levels_pool(stats, POOL, NULL, &lv, &err) != MP_OK)
            return fail(&err);
        double t4 = now();
        if (mp_dualiso_reconstruct(&raw, &lv, NULL, ws, &out, &err) != MP_OK)
            return fail(&err);
        double t5 = now();
        t_det[r] = (t1 - t0) * 1e3;
        t_stats[r] = (t2 - t1) * 1e3;
        t_pool[r] = (t4 - t3) * 1e3;
        t_rec[r] = (t5 - t4) * 1e3;
    }
    double det = median(t_det, runs), sta = median(t_stats, runs), rec = median(t_rec, runs);
    {
        /* the denoise alone (--denoise 1, not part of the default reconstruction), on the
         * reconstructed frame (its input is the blend's output) */
        double t_dn[MAX_RUNS];
        float *mem = NULL;
        size_t mem_size = 0;
        for (int r = 0; r < runs; r++) {
            double t0 = now();
            if (mp_dualiso_denoise(&lv, 1, &out, &mem, &mem_size, &err) != MP_OK)
                return fail(&err);
            t_dn[r] = (now() - t0) * 1e3;
        }
        free(mem);
        printf("denoise       %7.1f ms/frame  (--denoise, on top of reconstruct)\n",
               median(t_dn, runs));
    }
    printf("detect        %7.1f ms/frame\n", det);
    printf("stats         %7.1f ms/frame\n", sta);
    printf("pool (%d fr)   %7.1f ms/clip\n", POOL, median(t_pool, runs));
    printf("reconstruct   %7.1f ms/frame  (%.1f ns/pixel, %.1f frames/s)\n", rec,
           rec * 1e6 / (mpix * 1e6), 1e3 / rec);
    printf("per frame (stats + reconstruct) %.1f ms; cr2hdr: 1800 ms\n", sta + rec);
    printf("levels: ratio %.4f EV, bright black %+.3f DN, out %u..%u x%.2f\n", lv.ratio_ev,
           lv.black_bright - lv.black_dark, lv.out_black, lv.out_white, lv.out_scale);

    /* every level, runs interleaved; the output must not depend on the level */
    double t_lvl[MP_CPU_LEVELS][MAX_RUNS];
    char md5_ref[33] = "", hex[33];
    mp_cpu_level best = mp_cpu_level_get();
    for (int r = 0; r < runs; r++)
        for (int l = MP_CPU_C; l <= (int)best; l++) {
            if (!mp_cpu_has((mp_cpu_level)l) || mp_cpu_set_level((mp_cpu_level)l) != 0)
                continue;
            double t0 = now();
            if (mp_dualiso_reconstruct(&raw, &lv, NULL, ws, &out, &err) != MP_OK)
                return fail(&err);
            t_lvl[l][r] = (now() - t0) * 1e3;
            if (mp_frame_md5(&out, hex, &err) != MP_OK)
                return fail(&err);
            if (!md5_ref[0])
                memcpy(md5_ref, hex, sizeof hex);
            else if (strcmp(md5_ref, hex)) {
                fprintf(stderr, "bench_dualiso_speed: level %s gives other bytes\n",
                        mp_cpu_level_name(l));
                return 1;
            }
        }
    mp_cpu_set_level(best);
    for (int l = MP_CPU_C; l <= (int)best; l++)
        if (mp_cpu_has((mp_cpu_level)l))
            printf("reconstruct %-5s %6.1f ms/frame\n", mp_cpu_level_name(l),
                   median(t_lvl[l], runs));
    printf("(same bytes at every level: MD5 %s)\n", md5_ref);
    mp_dualiso_workspace_free(ws);
    mp_frame_free(&out);
    mp_frame_free(&raw);
    free(stats);
    return 0;
}
