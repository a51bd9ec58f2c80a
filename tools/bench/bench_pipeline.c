/* bench_pipeline: the whole convert path (read -> dual-ISO reconstruction -> 16-bit DNG).
 *  1. Peak RSS of a conversion of a 100- and a 1000-frame dual-ISO clip (small frames; null
 *     sink, and a ProRes movie, the ordered single-stream path), each in a child process:
 *     memory must not grow with clip length. Exit 1 if it grows by more than 8 MiB.
 *  2. Frames per second of a 1920x1080 14-bit dual-ISO clip to 16-bit DNGs in /dev/shm with
 *     1 and 2 worker threads (wall clock of the frame stage; the pre-pass is timed apart;
 *     the pool's I/O thread reads the payloads besides the workers), and the process CPU
 *     time per frame of the frame stage alone (START to DONE event), which stays meaningful
 *     on a busy machine: wall fps falls when other processes take the cores, CPU time not.
 * Clips come from tools/mlvsynth and live in /dev/shm (or $TMPDIR) while the bench runs.
 * Usage: bench_pipeline MLVSYNTH [frames for the 1080p clip, default 16] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pipeline/convert.h"

#define RSS_GROWTH_LIMIT_KIB (8 * 1024)

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

typedef struct timing {
    double frames_s;    /* the DONE event's elapsed time: frames only */
    double cpu_start;   /* process CPU seconds at the START event (after the pre-pass) */
    double frames_cpu;  /* process CPU seconds from START to DONE */
    uint32_t written;
} timing;

static void on_progress(void *opaque, const mp_progress_event *ev)
{
    timing *t = opaque;
    if (ev->kind == MP_PROGRESS_START)
        t->cpu_start = cpu_seconds();
    if (ev->kind == MP_PROGRESS_DONE) {
        t->frames_s = ev->elapsed_s;
        t->frames_cpu = cpu_seconds() - t->cpu_start;
        t->written = ev->written;
    }
}

static int make_clip(const char *mlvsynth, const char *path, const char *size, int frames)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' -o '%s' --dual-iso --size %s --frames %d --overwrite "
             ">/dev/null", mlvsynth, path, size, frames);
    return system(cmd) == 0;
}

static mp_status convert(const char *in, const char *out, const char *format, uint32_t threads,
                         timing *t, mp_error *err)
{
    mp_convert_options o;
    mp_convert_options_default(&o);
    o.input = in;
    o.output = out;
    o.format = format;
    o.threads = threads;
    o.overwrite = 1;
    o.progress = on_progress;
    o.progress_opaque = t;
    return mp_convert(&o, NULL, err);
}

/* Converts in a child process and returns its peak RSS in KiB (0 on failure). */
static long child_peak_rss(const char *in, const char *out, const char *format)
{
    pid_t pid = fork();
    if (pid == 0) {
        timing t = {0};
        mp_error err = {0};
        mp_status st = convert(in, out, format, 2, &t, &err);
        if (st != MP_OK)
            fprintf(stderr, "bench_pipeline: %s\n", err.msg);
        _exit(st == MP_OK ? 0 : 1);
    }
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return 0;
    return ru.ru_maxrss;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_pipeline MLVSYNTH [FRAMES]\n");
        return 2;
    }
    const char *mlvsynth = argv[1];
    int frames = argc > 2 ? atoi(argv[2]) : 16;
    if (frames < 2)
        frames = 2;
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/mlvpipe-bench-XXXXXX", base ? base : "/tmp");
    if (!mkdtemp(dir)) {
        perror("bench_pipeline: mkdtemp");
        return 1;
    }
    char small100[600], small1000[600], big[600], out[600], cmd[1300];
    snprintf(small100, sizeof small100, "%s/s100.MLV", dir);
    snprintf(small1000, sizeof small1000, "%s/s1000.MLV", dir);
    snprintf(big, sizeof big, "%s/big.MLV", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    int rc = 0;

    /* Peak memory against clip length, before this process holds anything large. */
    if (!make_clip(mlvsynth, small100, "256x144", 100) ||
        !make_clip(mlvsynth, small1000, "256x144", 1000)) {
        fprintf(stderr, "bench_pipeline: mlvsynth failed\n");
        rc = 1;
        goto done;
    }
    static const char *const formats[] = {"null", "prores422hq"};
    for (int f = 0; f < 2; f++) {
        snprintf(out, sizeof out, "%s/out.mov", dir);
        long rss100 = child_peak_rss(small100, out, formats[f]);
        long rss1000 = child_peak_rss(small1000, out, formats[f]);
        int bounded = rss100 && rss1000 && rss1000 - rss100 < RSS_GROWTH_LIMIT_KIB;
        printf("peak RSS, 256x144 dual ISO, 2 threads, %s: 100 frames %.1f MiB, "
               "1000 frames %.1f MiB%s\n", formats[f], rss100 / 1024.0, rss1000 / 1024.0,
               bounded ? "" : "  GROWS WITH CLIP LENGTH");
        if (!bounded)
            rc = 1;
    }
    snprintf(out, sizeof out, "%s/out", dir);

    /* Speed, 1080p. */
    if (!make_clip(mlvsynth, big, "1920x1080", frames)) {
        fprintf(stderr, "bench_pipeline: mlvsynth failed\n");
        rc = 1;
        goto done;
    }
    double fps1 = 0;
    for (uint32_t threads = 1; threads <= 2; threads++) {
        timing t = {0};
        mp_error err = {0};
        double t0 = mp_progress_now(), c0 = cpu_seconds();
        mp_status st = convert(big, out, "dng", threads, &t, &err);
        double total = mp_progress_now() - t0, cpu = cpu_seconds() - c0;
        if (st != MP_OK || t.written != (uint32_t)frames) {
            fprintf(stderr, "bench_pipeline: %s\n", err.msg);
            rc = 1;
            break;
        }
        double fps = frames / t.frames_s;
        if (threads == 1)
            fps1 = fps;
        printf("1920x1080 14-bit dual ISO -> 16-bit DNG (/dev/shm), %u thread%s: %.2f fps "
               "(%d frames in %.2f s; pre-pass %.2f s; CPU %.0f ms/frame in the frame stage, "
               "%.0f with pre-pass)%s", threads, threads > 1 ? "s" : "", fps, frames,
               t.frames_s, total - t.frames_s, t.frames_cpu * 1e3 / frames, cpu * 1e3 / frames,
               threads > 1 ? "" : "\n");
        if (threads > 1)
            printf(", %.2fx the 1-thread rate\n", fps / fps1);
    }
done:
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_pipeline: could not remove %s\n", dir);
    return rc;
}
