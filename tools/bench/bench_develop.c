/* bench_develop: milliseconds per frame of src/develop, single-threaded (thread CPU time, best
 * of RUNS), bilinear vs RCD, with the quality of each on the develop test scene: PSNR against
 * the truth and the mean false colour at edges (tests/support/develop_scene.h); then both
 * side by side on the mlvsynth benchmark scene with its exact RGB truth, on the diagonal stripes
 * and the zone plate, from an ideal sensor (pure demosaic error) and from the normal noisy one
 * (tests/support/synth_case.h documents exposure, regions, white balance and measures).
 * Usage: bench_develop [WIDTH HEIGHT [RUNS]], default 1920 1080 5.
 *
 * For scale: the same 1920x1080 RGGB scene written as a DNG (identity matrix, unity WB) and
 * developed by LibRaw 0.20.2 (dcraw_emu -4 -o 0 -r 1 1 1 1 -q N) scores, PSNR dB / edge
 * chroma: bilinear 27.37 / 0.0930 (the same as ours), VNG 30.89 / 0.0572, PPG 35.11 / 0.0269,
 * AHD 36.23 / 0.0229, DCB 32.45 / 0.0348, DHT 37.57 / 0.0323, AAHD 36.98 / 0.0226; our RCD
 * 37.44 / 0.0219.
 *
 * The mlvsynth case from the ideal sensor, written by mp_dng_write_file and developed the same
 * way with the case's white balance (-r 1.739130 1 1.538462 1), PSNR dB / false colour /
 * zipper, stripes then zone plate:
 *   1920x1080  bilinear 38.75/0.427/0.172  42.25/0.062/0.077 (the same as ours)
 *              VNG      48.45/0.125/0.051  47.52/0.033/0.015
 *              PPG      46.40/0.158/0.083  55.58/0.020/0.000
 *              AHD      46.59/0.141/0.088  55.02/0.020/0.001
 *              DCB      40.73/0.278/0.130  54.33/0.017/0.001
 *              DHT      56.54/0.033/0.000  54.90/0.019/0.001
 *              AAHD     44.52/0.188/0.116  54.03/0.024/0.004
 *              our RCD  45.26/0.140/0.075  57.52/0.017/0.000
 *   480x270    bilinear 38.67/0.427/0.176  27.59/0.404/0.577 (the same as ours)
 *              VNG      48.25/0.128/0.054  30.17/0.299/0.483
 *              AHD      46.35/0.144/0.087  33.08/0.136/0.183
 *              DHT      56.09/0.035/0.000  29.61/0.272/0.265
 *              AAHD     44.26/0.190/0.122  34.26/0.116/0.127
 *              our RCD  44.72/0.145/0.078  31.45/0.197/0.235
 * RCD's stripe error is mostly green at red/blue sites next to the steps: the stripes lean
 * 31 degrees off vertical, so both of its axes (it only weighs vertical against horizontal)
 * cross the step; DHT's hue-transition directions follow them. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "develop_scene.h"
#include "synth_case.h"

/* Thread CPU time: on a shared machine wall time mostly measures the neighbours. */
static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Fastest of `runs` developments of the frame (ms); leaves the last result in out. */
static double time_develop(const develop_params *p, const mp_frame *f, int runs, develop_rgb *out)
{
    develop_context *ctx;
    mp_error err = {0};
    if (mp_develop_context_create(p, NULL, NULL, &ctx, &err)) {
        fprintf(stderr, "bench_develop: %s\n", err.msg);
        exit(1);
    }
    develop_workspace ws = {0};
    double best = 1e30;
    for (int i = 0; i < runs; i++) {
        double t0 = now_ms();
        if (mp_develop_frame(ctx, f, &ws, out, &err)) {
            fprintf(stderr, "bench_develop: %s\n", err.msg);
            exit(1);
        }
        double t = now_ms() - t0;
        best = t < best ? t : best;
    }
    mp_develop_workspace_free(&ws);
    mp_develop_context_free(ctx);
    return best;
}

/* Bilinear and RCD on the mlvsynth benchmark scene: PSNR, false colour and zipper per region. */
static void synth_scene_side_by_side(uint32_t width, uint32_t height, int noise, develop_rgb *out)
{
    synth_case c;
    mp_error err = {0};
    if (synth_case_init(&c, width, height, noise, &err)) {
        fprintf(stderr, "bench_develop: %s\n", err.msg);
        exit(1);
    }
    static const develop_demosaic methods[2] = {DEVELOP_DEMOSAIC_BILINEAR, DEVELOP_DEMOSAIC_RCD};
    synth_case_quality q[2][2]; /* [method][region] */
    for (int m = 0; m < 2; m++) {
        develop_params p;
        synth_case_params(&c, &p, methods[m]);
        time_develop(&p, &c.frame, 1, out);
        for (int r = 0; r < 2; r++)
            synth_case_measure(&c, out, (synth_case_region)r, &q[m][r]);
    }
    printf("\nmlvsynth benchmark scene +%.1f EV, %s sensor: bilinear | rcd\n",
           SYNTH_CASE_EXPOSURE_EV, noise ? "normal noisy" : "ideal (noise-free)");
    printf("%-8s %8s %17s %21s %17s\n", "region", "pixels", "PSNR dB", "false colour",
           "zipper");
    static const char *names[2] = {"stripes", "zone"};
    for (int r = 0; r < 2; r++)
        printf("%-8s %8llu %8.2f | %6.2f %10.4f | %8.4f %8.4f | %6.4f\n", names[r],
               (unsigned long long)q[0][r].pixels, q[0][r].psnr_db, q[1][r].psnr_db,
               q[0][r].false_colour, q[1][r].false_colour, q[0][r].zipper, q[1][r].zipper);
    synth_case_free(&c);
}

int main(int argc, char **argv)
{
    uint32_t width = argc > 2 ? (uint32_t)atoi(argv[1]) : 1920;
    uint32_t height = argc > 2 ? (uint32_t)atoi(argv[2]) : 1080;
    int runs = argc > 3 ? atoi(argv[3]) : 5;
    if (width < 2 || height < 2 || runs < 1) {
        fprintf(stderr, "usage: bench_develop [WIDTH HEIGHT [RUNS]]\n");
        return 2;
    }
    size_t n = (size_t)width * height;
    float *truth[3];
    for (int k = 0; k < 3; k++)
        truth[k] = malloc(n * sizeof(float));
    mp_frame f = {0};
    mp_error err = {0};
    if (!truth[0] || !truth[1] || !truth[2] || mp_frame_reserve(&f, width, height, &err)) {
        fprintf(stderr, "bench_develop: out of memory\n");
        return 1;
    }
    scene_render(truth, width, height);
    scene_mosaic(truth, MP_CFA_RGGB, &f);

    printf("develop %ux%u, single thread, CPU ms, best of %d\n", width, height, runs);
    printf("%-10s %10s %10s %12s\n", "method", "ms/frame", "PSNR dB", "edge chroma");
    static const struct { const char *name; develop_demosaic method; } methods[] = {
        {"bilinear", DEVELOP_DEMOSAIC_BILINEAR},
        {"rcd", DEVELOP_DEMOSAIC_RCD},
    };
    develop_rgb out = {0};
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        develop_params p;
        scene_params(&p, methods[m].method);
        double ms = time_develop(&p, &f, runs, &out);
        printf("%-10s %10.1f %10.2f %12.5f\n", methods[m].name, ms, scene_psnr(&out, truth, 8),
               scene_edge_chroma_error(&out, truth, 8));
    }
    /* the full path a movie export takes: matrix, BT.709 and log curves */
    develop_params p;
    scene_params(&p, DEVELOP_DEMOSAIC_RCD);
    p.curve = MP_CURVE_LOGC3;
    p.highlight = DEVELOP_HIGHLIGHT_BLEND;
    printf("%-10s %10.1f\n", "rcd+logc3", time_develop(&p, &f, runs, &out));

    for (int noise = 0; noise <= 1; noise++)
        synth_scene_side_by_side(width, height, noise, &out);

    mp_develop_rgb_free(&out);
    mp_frame_free(&f);
    for (int k = 0; k < 3; k++)
        free(truth[k]);
    return 0;
}
