/* bench_cache: compression ratio and single-thread speed of the frame cache on 1920x1080
 * 16-bit frames: a dual-ISO reconstruction (simulated 5D Mark III 100/1600, 14-bit in) and a
 * plain 16-bit sensor frame, for every shuffle with LZ4 fast and LZ4 HC (levels 4 and 9).
 * "put" = shuffle + compress + checksum, "get" = decompress + checksum + unshuffle, in
 * memory; then whole put/get through files with the default options, next to the cost of
 * the reconstruction the cache saves. MB/s count uncompressed frame bytes; CPU time of the
 * calling thread, so figures hold on a busy machine (file I/O is counted where the kernel
 * bills it to the thread).
 * Usage: bench_cache [CPU seconds per measurement, default 0.3] */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cache/entry.h"
#include "cache/frame_cache.h"
#include "dualiso/dualiso.h"
#include "synth/synth.h"

enum { W = 1920, H = 1080 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int fail(const mp_error *err)
{
    fprintf(stderr, "bench_cache: %s\n", err->msg);
    return 1;
}

/* One frame off the simulated sensor, without optical-black borders (exactly W x H). */
static mp_status expose(uint32_t bits, double ev_gap, mp_frame *raw, mp_error *err)
{
    synth_sensor sensor;
    mp_synth_sensor_default(&sensor, bits, ev_gap);
    sensor.ob_left = sensor.ob_top = 0;
    synth_scene scene = {SYNTH_SCENE_BENCHMARK, 0, 0, 0, 7};
    float *truth = malloc(sizeof *truth * W * H);
    if (!truth)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    mp_status st = mp_synth_render_truth(&scene, W, H, 0, truth, err);
    if (st == MP_OK)
        st = mp_synth_expose(&sensor, truth, W, H, 1, 0, raw, err);
    free(truth);
    return st;
}

/* The 16-bit frame the dual-ISO engine makes of a 14-bit 100/1600 frame; *ms its cost. */
static mp_status reconstructed(mp_frame *out, double *ms, mp_error *err)
{
    mp_frame raw = {0};
    dualiso_detection det;
    dualiso_stats *st = malloc(sizeof *st);
    dualiso_levels lv;
    dualiso_workspace *ws = mp_dualiso_workspace_new();
    mp_status s = st && ws ? expose(14, 4.0, &raw, err)
                           : mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    if (s == MP_OK)
        s = mp_dualiso_detect(&raw, &det, err);
    if (s == MP_OK)
        s = mp_dualiso_stats_collect(&raw, det.phase, st, err);
    if (s == MP_OK)
        s = mp_dualiso_levels_pool(st, 1, NULL, &lv, err);
    double t0 = now();
    if (s == MP_OK)
        s = mp_dualiso_reconstruct(&raw, &lv, NULL, ws, out, err);
    *ms = (now() - t0) * 1e3;
    mp_dualiso_workspace_free(ws);
    free(st);
    mp_frame_free(&raw);
    return s;
}

static const char *shuffle_name[MP_CACHE_SHUFFLE_COUNT] = {"none", "byte", "byte+delta",
                                                           "bit+delta"};

static int bench_codec(const mp_frame *f, mp_cache_shuffle shuffle, int hc_level,
                       double seconds)
{
    mp_cache_key key = {1, 0, 2};
    mp_cache_scratch s = {0};
    mp_frame out = {0};
    mp_error err = {0};
    size_t size = 0;
    int puts = 0, gets = 0;
    double t0 = now(), t_put, t_get;
    do {
        if (mp_cache_entry_encode(&key, f, shuffle, hc_level, &s, &size, &err) != MP_OK)
            return fail(&err);
        puts++;
    } while ((t_put = now() - t0) < seconds);
    uint8_t *entry = malloc(size);
    if (!entry)
        return 1;
    memcpy(entry, s.entry, size);
    t0 = now();
    do {
        mp_cache_entry_info info;
        if (mp_cache_entry_parse_header(entry, size, "bench", &info, &err) != MP_OK ||
            mp_cache_entry_decode(&info, entry + MP_CACHE_HEADER_SIZE, "bench", &s, &out,
                                  &err) != MP_OK)
            return fail(&err);
        gets++;
    } while ((t_get = now() - t0) < seconds);
    int exact = !memcmp(out.data, f->data, (size_t)W * H * 2);
    double mb = (double)W * H * 2 / 1e6;
    char codec[16];
    snprintf(codec, sizeof codec, hc_level ? "HC %d" : "fast", hc_level);
    printf("  %-10s %-5s  ratio %5.3f  (%5.2f MB)  put %7.1f MB/s  get %7.1f MB/s%s\n",
           shuffle_name[shuffle], codec, mb / (size / 1e6), size / 1e6, puts * mb / t_put,
           gets * mb / t_get, exact ? "" : "  MISMATCH");
    free(entry);
    mp_frame_free(&out);
    mp_cache_scratch_free(&s);
    return !exact;
}

/* put/get through files in a temporary folder (in /dev/shm when it exists: the figure is
 * the cache's own cost, not the disk's). */
static int bench_files(const mp_frame *f, double reconstruct_ms, double seconds)
{
    char dir[64];
    snprintf(dir, sizeof dir, "%s/mp_bench_cache_XXXXXX",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    if (!mkdtemp(dir))
        return 1;
    mp_cache *cache = NULL;
    mp_cache_scratch s = {0};
    mp_frame out = {0};
    mp_error err = {0};
    if (mp_cache_open(&cache, dir, NULL, &err) != MP_OK)
        return fail(&err);
    int n = 0, hit = 0, ok = 1;
    double t0 = now(), t_put, t_get;
    do {
        mp_cache_key key = {3, (uint32_t)(n % 8), 4};
        if (mp_cache_put(cache, &key, f, &s, &err) != MP_OK)
            return fail(&err);
        n++;
    } while ((t_put = now() - t0) < seconds);
    int puts = n;
    n = 0;
    t0 = now();
    do {
        mp_cache_key key = {3, (uint32_t)(n % 8), 4};
        if (mp_cache_get(cache, &key, &out, &hit, &s, &err) != MP_OK)
            return fail(&err);
        ok &= hit && !memcmp(out.data, f->data, (size_t)W * H * 2);
        n++;
    } while ((t_get = now() - t0) < seconds);
    double mb = (double)W * H * 2 / 1e6;
    mp_cache_options o;
    mp_cache_options_default(&o);
    printf("files (default options: %s, LZ4 %s) in %s: put %.1f ms/frame (%.0f MB/s), "
           "get %.1f ms/frame (%.0f MB/s)%s\n", shuffle_name[o.shuffle],
           o.hc_level ? "HC" : "fast", dir, t_put * 1e3 / puts, puts * mb / t_put,
           t_get * 1e3 / n, n * mb / t_get, ok ? "" : "  MISMATCH");
    printf("reconstruction it saves: %.1f ms/frame (get is %.0fx faster)\n", reconstruct_ms,
           reconstruct_ms / (t_get * 1e3 / n));
    char path[PATH_MAX] = "";
    for (uint32_t i = 0; i < 8; i++) {
        mp_cache_key key = {3, i, 4};
        if (mp_cache_entry_path(cache, &key, path, sizeof path, &err) == MP_OK)
            unlink(path);
    }
    char *slash = strrchr(path, '/');
    if (slash) {
        *slash = 0;
        rmdir(path);  /* the clip's folder, then the cache's */
    }
    rmdir(dir);
    mp_cache_close(cache);
    mp_cache_scratch_free(&s);
    mp_frame_free(&out);
    return !ok;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 0.3;
    if (!(seconds > 0 && seconds <= 60)) {
        fprintf(stderr, "usage: bench_cache [CPU seconds per measurement, 0..60]\n");
        return 2;
    }
    mp_error err = {0};
    mp_frame rec = {0}, plain = {0};
    double reconstruct_ms = 0;
    if (reconstructed(&rec, &reconstruct_ms, &err) != MP_OK || expose(16, 0, &plain, &err))
        return fail(&err);
    const struct { const char *what; const mp_frame *f; } sets[] = {
        {"dual-ISO reconstruction (14-bit 100/1600 in, 16-bit out)", &rec},
        {"plain 16-bit sensor frame", &plain},
    };
    int rc = 0;
    for (size_t i = 0; i < 2; i++) {
        printf("%s, %ux%u, %.2f MB:\n", sets[i].what, W, H, (double)W * H * 2 / 1e6);
        for (int sh = 0; sh < MP_CACHE_SHUFFLE_COUNT; sh++)
            for (int level = 0; level <= 9; level += level ? 5 : 4)
                rc |= bench_codec(sets[i].f, (mp_cache_shuffle)sh, level, seconds);
    }
    rc |= bench_files(&rec, reconstruct_ms, seconds);
    mp_frame_free(&rec);
    mp_frame_free(&plain);
    return rc;
}
