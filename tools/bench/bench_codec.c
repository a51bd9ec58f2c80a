/* bench_codec: single-thread throughput of the codec module on 1920x1080 frames.
 * Unpack of 10/12/14-bit MLV frames (GB/s of uint16 output and frames/s), and LJ92 decode
 * and encode (Mpx/s) of a noisy 14-bit gradient in the camera layout (Nf 2, predictor 1)
 * and the mlv_dump layout (Nf 1, X = 2 xRes, predictor 6).
 * Usage: bench_codec [CPU seconds per measurement, default 0.5] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec/bitpack.h"
#include "codec/lj92.h"

enum { W = 1920, H = 1080, N = W * H };

/* Thread CPU time: figures are per core even on a machine busy with other work. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Smooth gradient plus noise, like a real 14-bit raw frame (RGGB levels differ a little). */
static void make_frame(uint16_t *px)
{
    uint32_t r = 1;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            r = r * 1664525u + 1013904223u;
            int level = 2048 + x * 4 + y * 3 + ((x & 1) + (y & 1)) * 300;
            int noise = (int)((r >> 16) % 97) - 48 + (int)((r >> 8) % 31) - 15;
            int v = level + noise;
            px[y * W + x] = (uint16_t)(v < 0 ? 0 : v > 16383 ? 16383 : v);
        }
}

static int unpack_bench(const uint16_t *px, unsigned bits, double seconds)
{
    size_t size = mp_packed_size_mlv(N, bits);
    uint8_t *packed = malloc(size);
    uint16_t *out = malloc(N * sizeof *out), *masked = malloc(N * sizeof *masked);
    for (int i = 0; i < N; i++)
        masked[i] = (uint16_t)(px[i] >> (14 - bits));
    mp_pack_mlv(masked, packed, N, bits);
    int iters = 0;
    double t0 = now(), t;
    do {
        mp_unpack_mlv(packed, out, N, bits);
        iters++;
    } while ((t = now() - t0) < seconds);
    int ok = !memcmp(out, masked, N * sizeof *out);
    printf("unpack %2u-bit %dx%d: %6.2f GB/s of output, %7.1f frames/s%s\n", bits, W, H,
           iters * (double)N * 2 / t / 1e9, iters / t, ok ? "" : "  MISMATCH");
    free(packed);
    free(out);
    free(masked);
    return ok;
}

static int lj92_bench(const uint16_t *px, const char *name, lj92_header h, double seconds)
{
    uint8_t *enc = NULL;
    size_t len = 0;
    mp_error err = {0};
    int iters = 0;
    double t0 = now(), t;
    do {
        free(enc);
        if (mp_lj92_encode(px, &h, &enc, &len, &err) != MP_OK) {
            printf("encode failed: %s\n", err.msg);
            return 0;
        }
        iters++;
    } while ((t = now() - t0) < seconds);
    double enc_rate = iters * (double)N / t / 1e6;
    uint16_t *out = malloc(N * sizeof *out);
    iters = 0;
    t0 = now();
    int ok = 1;
    do {
        ok &= mp_lj92_decode(enc, len, out, N, NULL, &err) == MP_OK;
        iters++;
    } while ((t = now() - t0) < seconds);
    ok &= !memcmp(out, px, N * sizeof *out);
    printf("lj92 %-22s decode %6.1f Mpx/s (%5.2f ms/frame), encode %6.1f Mpx/s, %.2f bits/px%s\n",
           name, iters * (double)N / t / 1e6, t / iters * 1e3, enc_rate, len * 8.0 / N,
           ok ? "" : "  MISMATCH");
    free(out);
    free(enc);
    return ok;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 0.5;
    uint16_t *px = malloc(N * sizeof *px);
    make_frame(px);
    int ok = 1;
    for (unsigned bits = 10; bits <= 14; bits += 2)
        ok &= unpack_bench(px, bits, seconds);
    ok &= lj92_bench(px, "camera (Nf 2, pred 1)", (lj92_header){W, H / 2, 2, 14, 1}, seconds);
    ok &= lj92_bench(px, "mlv_dump (Nf 1, pred 6)", (lj92_header){2 * W, H / 2, 1, 14, 6}, seconds);
    free(px);
    return ok ? 0 : 1;
}
