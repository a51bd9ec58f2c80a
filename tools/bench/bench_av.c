/* bench_av: movie encoding speed at 1920x1080 through src/movie (av_sink.h): ProRes 422 HQ,
 * ProRes 4444 and FFV1 with 1 and 2 encoder threads, written into a tmpfs file, plus our
 * RGB -> 10-bit Y'CbCr conversion alone. Frames are the synth benchmark scene (log ramp,
 * stripes, zone plate, patches) drifting 3 px per frame, log-encoded with a colour tint and
 * sensor-like noise, so the codecs see realistic detail. fps counts frames through
 * mp_av_sink_write_rgb + finish (wall clock); "CPU ms/frame" sums all threads' CPU time, which is
 * what to read on a shared machine; Mbit/s is the output's bitrate at 24000/1001.
 * Usage: bench_av [seconds per measurement, default 2] [folder, default /dev/shm] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "movie/av_sink.h"
#include "movie/av_yuv.h"
#include "synth/synth.h"

enum { W = 1920, H = 1080, FRAMES = 4 };

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now(void)
{
    return clock_s(CLOCK_MONOTONIC);
}

/* CPU seconds of all threads: with other jobs on the machine, CPU s per frame is the figure
 * that does not depend on the load. */
static double cpu(void)
{
    return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

static uint16_t *planes[FRAMES][3];

static int make_frames(void)
{
    float *truth = malloc(sizeof *truth * W * H);
    if (!truth)
        return 0;
    mp_error err;
    for (int n = 0; n < FRAMES; n++) {
        synth_scene scene = {SYNTH_SCENE_BENCHMARK, 0, 3, 0, 1};
        if (mp_synth_render_truth(&scene, W, H, (uint32_t)n, truth, &err) != MP_OK) {
            fprintf(stderr, "bench_av: %s\n", err.msg);
            free(truth);
            return 0;
        }
        float peak = 1;
        for (size_t i = 0; i < (size_t)W * H; i++)
            peak = truth[i] > peak ? truth[i] : peak;
        for (int c = 0; c < 3; c++)
            if (!(planes[n][c] = malloc(sizeof(uint16_t) * W * H)))
                return 0;
        uint32_t h = 12345u + (uint32_t)n;
        const float tint[3] = {1.0f, 0.92f, 0.8f};
        for (size_t i = 0; i < (size_t)W * H; i++) {
            float v = log2f(1 + truth[i]) / log2f(1 + peak);
            for (int c = 0; c < 3; c++) {
                h = h * 1664525u + 1013904223u;
                float s = v * tint[c] * 64000.0f + (float)(h >> 24) - 128.0f;
                planes[n][c][i] = (uint16_t)(s < 0 ? 0 : s > 65535 ? 65535 : s);
            }
        }
    }
    free(truth);
    return 1;
}

static void bench_convert(double seconds)
{
    mp_av_yuv_coeffs c;
    mp_av_yuv_init(&c, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, NULL);
    uint16_t *y = malloc(sizeof *y * W * 3);
    if (!y)
        return;
    for (int chroma = 422; chroma <= 444; chroma += 22) {
        int n = 0;
        double t0 = now(), c0 = cpu(), t;
        do {
            const uint16_t *const *p = (const uint16_t *const *)planes[n % FRAMES];
            for (size_t row = 0; row < H; row++) {
                size_t o = row * W;
                if (chroma == 422)
                    mp_av_yuv_row_422(&c, p[0] + o, p[1] + o, p[2] + o, W, y, y + W, y + 2 * W);
                else
                    mp_av_yuv_row_444(&c, p[0] + o, p[1] + o, p[2] + o, W, y, y + W, y + 2 * W);
            }
            n++;
        } while ((t = now() - t0) < seconds);
        printf("rgb->yuv%d 10-bit  1 thread   %7.1f fps  CPU %6.1f ms/frame\n", chroma, n / t,
               (cpu() - c0) * 1e3 / n);
    }
    free(y);
}

static void bench_encode(mp_av_sink_kind kind, int threads, const char *dir, double seconds)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/bench_av_%ld.%s", dir, (long)getpid(),
             kind == AV_SINK_FFV1 ? "mkv" : "mov");
    mp_av_sink_params p;
    mp_av_sink_params_default(&p);
    p.kind = kind;
    p.width = W;
    p.height = H;
    p.fps_num = 24000;
    p.fps_den = 1001;
    p.threads = threads;
    p.overwrite = 1;
    p.primaries = AVCOL_PRI_BT709;
    p.transfer = AVCOL_TRC_BT709;
    p.yuv_matrix = AVCOL_SPC_BT709;
    mp_error err;
    mp_av_sink *s;
    if (mp_av_sink_open(&s, path, &p, &err) != MP_OK) {
        fprintf(stderr, "bench_av: %s\n", err.msg);
        return;
    }
    uint64_t n = 0;
    double t0 = now(), c0 = cpu();
    mp_status st = MP_OK;
    while (st == MP_OK && (n < 3 || now() - t0 < seconds)) {
        const uint16_t *const *rgb = (const uint16_t *const *)planes[n % FRAMES];
        st = mp_av_sink_write_rgb(s, rgb, W, n, &err);
        n++;
    }
    if (st != MP_OK) {
        mp_av_sink_abort(s);
        fprintf(stderr, "bench_av: %s\n", err.msg);
        return;
    }
    if (mp_av_sink_finish(s, &err) != MP_OK) {
        fprintf(stderr, "bench_av: %s\n", err.msg);
        return;
    }
    double t = now() - t0, c = cpu() - c0;
    struct stat sb;
    double mbit = stat(path, &sb) == 0 ? sb.st_size * 8.0 / 1e6 / (n * 1001.0 / 24000) : 0;
    unlink(path);
    printf("%-12s %d thread%s  %7.2f fps  CPU %6.1f ms/frame  %7.1f Mbit/s  (%llu frames)\n",
           mp_av_sink_kind_name(kind), threads, threads > 1 ? "s" : " ", n / t, c * 1e3 / n, mbit,
           (unsigned long long)n);
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 2;
    const char *dir = argc > 2 ? argv[2] : "/dev/shm";
    if (!make_frames())
        return 1;
    printf("bench_av: %dx%d, %.1f s per measurement\n", W, H, seconds);
    bench_convert(seconds);
    const mp_av_sink_kind kinds[] = {AV_SINK_PRORES_422HQ, AV_SINK_PRORES_4444, AV_SINK_FFV1};
    for (size_t k = 0; k < 3; k++)
        for (int threads = 1; threads <= 2; threads++)
            bench_encode(kinds[k], threads, dir, seconds);
    for (int n = 0; n < FRAMES; n++)
        for (int c = 0; c < 3; c++)
            free(planes[n][c]);
    return 0;
}
