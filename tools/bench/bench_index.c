/* bench_index [FRAMES] [CHUNKS] [REPEATS]: times mp_mlv_clip_open on a large spanned clip.
 *
 * Writes a 1920x1080 14-bit clip of FRAMES frames (default 2000) over CHUNKS chunk files
 * (default 4) laid out like mlv_lite (MLVI + header blocks + NULL pad to 512, VIDF blocks with
 * frameSpace 32 rounded to 512 bytes, an RTCI every 50 frames). Only block headers are
 * written; frame payloads are holes of sparse files, so ~7 GB of clip costs a few MB of disk.
 * Reports the index build time (best and median of REPEATS opens, page cache warm) and the
 * bytes the process read (/proc/self/io rchar) per open, then decodes a few frames. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "reader/mlv_reader.h"

#define WIDTH 1920u
#define HEIGHT 1080u
#define BITS 14u
#define FRAME_BYTES (WIDTH * HEIGHT * BITS / 8)
#define VIDF_SIZE ((64u + FRAME_BYTES + 4u + 511u) & ~511u)
#define GUID 0x5eed5eed12345678ull

typedef struct writer {
    int fd;
    uint64_t pos;
    uint8_t buf[512];
    size_t n;
} writer;

static void put(writer *w, const void *p, size_t len)
{
    memcpy(w->buf + w->n, p, len);
    w->n += len;
}
static void put16(writer *w, uint16_t v) { put(w, &(uint8_t[2]){(uint8_t)v, (uint8_t)(v >> 8)}, 2); }
static void put32(writer *w, uint32_t v) { put16(w, (uint16_t)v); put16(w, (uint16_t)(v >> 16)); }
static void put64(writer *w, uint64_t v) { put32(w, (uint32_t)v); put32(w, (uint32_t)(v >> 32)); }

/* Writes the buffered bytes at the current position and advances by `advance` bytes (the
 * rest of the block stays a hole). */
static void flush(writer *w, uint64_t advance)
{
    if (pwrite(w->fd, w->buf, w->n, (off_t)w->pos) != (ssize_t)w->n) {
        perror("bench_index: pwrite");
        exit(1);
    }
    w->pos += advance;
    w->n = 0;
}

static void header(writer *w, const char *tag, uint32_t size, uint64_t ts)
{
    put(w, tag, 4);
    put32(w, size);
    put64(w, ts);
}

static void write_chunk(const char *path, uint32_t chunk, uint32_t first, uint32_t count)
{
    writer w = {.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)};
    if (w.fd < 0) {
        perror(path);
        exit(1);
    }
    put(&w, "MLVI", 4);
    put32(&w, 52);
    put(&w, "v2.0\0\0\0\0", 8);
    put64(&w, GUID);
    put16(&w, (uint16_t)chunk);
    put16(&w, 0);
    put32(&w, 4);
    put16(&w, 1);
    put16(&w, 0);
    put32(&w, count);
    put32(&w, 0);
    put32(&w, 23976);
    put32(&w, 1000);
    flush(&w, 52);
    if (chunk == 0) {
        header(&w, "RAWI", 180, 100);
        put16(&w, WIDTH);
        put16(&w, HEIGHT);
        uint32_t ri[40] = {1, 0, HEIGHT, WIDTH, WIDTH * BITS / 8, FRAME_BYTES, BITS, 2047, 15000};
        ri[15] = HEIGHT;
        ri[16] = WIDTH;
        ri[19] = 0x02010100;
        for (int i = 0; i < 40; i++)
            put32(&w, ri[i]);
        flush(&w, 180);
        header(&w, "EXPO", 40, 100);
        put32(&w, 0); put32(&w, 100); put32(&w, 72); put32(&w, 0); put64(&w, 20833);
        flush(&w, 40);
    }
    uint32_t pad = (uint32_t)(512 - w.pos % 512);
    if (pad < 16)
        pad += 512;
    header(&w, "NULL", pad, 0);
    flush(&w, pad);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t n = first + i;
        uint64_t ts = 1000 + (uint64_t)n * 1000000000ull / 23976;
        if (n % 50 == 0) {
            header(&w, "RTCI", 44, ts);
            put16(&w, (uint16_t)(n / 24 % 60)); put16(&w, 30); put16(&w, 12); put16(&w, 17);
            put16(&w, 4); put16(&w, 124); put16(&w, 5); put16(&w, 137); put16(&w, 0);
            put16(&w, 0); put(&w, "UTC\0\0\0\0\0", 8);
            flush(&w, 44);
        }
        header(&w, "VIDF", VIDF_SIZE, ts);
        put32(&w, n);
        put16(&w, 0); put16(&w, 0); put16(&w, 0); put16(&w, 0);
        put32(&w, 32);
        flush(&w, VIDF_SIZE);
    }
    if (ftruncate(w.fd, (off_t)w.pos) != 0 || close(w.fd) != 0) {
        perror(path);
        exit(1);
    }
}

static uint64_t rchar(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    char line[128];
    unsigned long long v = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "rchar: %llu", &v) == 1)
            break;
    if (f)
        fclose(f);
    return v;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    uint32_t frames = argc > 1 ? (uint32_t)atoi(argv[1]) : 2000;
    uint32_t chunks = argc > 2 ? (uint32_t)atoi(argv[2]) : 4;
    int repeats = argc > 3 ? atoi(argv[3]) : 5;
    if (frames < chunks || chunks < 1 || chunks > 100 || repeats < 1) {
        fprintf(stderr, "usage: bench_index [FRAMES >= CHUNKS] [CHUNKS 1..100] [REPEATS]\n");
        return 2;
    }
    char dir[] = "/tmp/bench_index-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    char paths[100][64];
    uint64_t apparent = 0;
    for (uint32_t c = 0, first = 0; c < chunks; c++) {
        uint32_t count = frames / chunks + (c < frames % chunks);
        if (c == 0)
            snprintf(paths[c], sizeof paths[c], "%s/BENCH.MLV", dir);
        else
            snprintf(paths[c], sizeof paths[c], "%s/BENCH.M%02u", dir, c - 1);
        write_chunk(paths[c], c, first, count);
        first += count;
        apparent += (uint64_t)count * VIDF_SIZE;
    }

    double t[64];
    if (repeats > 64)
        repeats = 64;
    uint64_t bytes = 0;
    int rc = 0;
    mlv_clip *clip = NULL;
    for (int r = 0; r < repeats && !rc; r++) {
        mp_error err = {0};
        uint64_t before = rchar();
        double t0 = now_ms();
        if (mp_mlv_clip_open(&clip, paths[0], NULL, &err) != MP_OK) {
            fprintf(stderr, "bench_index: %s\n", err.msg);
            rc = 1;
            break;
        }
        t[r] = now_ms() - t0;
        bytes = rchar() - before;
        const mlv_clip_info *in = mp_mlv_clip_get_info(clip);
        if (in->frame_count != frames || in->chunk_count != chunks || in->damage_count ||
            in->last_number != frames - 1) {
            fprintf(stderr, "bench_index: indexed %u frames in %u chunks, %u damage\n",
                    in->frame_count, in->chunk_count, in->damage_count);
            rc = 1;
        }
        if (r + 1 < repeats || rc) {
            mp_mlv_clip_close(clip);
            clip = NULL;
        }
    }
    if (!rc) {
        qsort(t, (size_t)repeats, sizeof t[0], cmp_double);
        printf("index: %u frames %ux%u %u-bit in %u chunks (%.2f GB apparent, sparse)\n", frames,
               WIDTH, HEIGHT, BITS, chunks, apparent / 1e9);
        printf("index: open %.2f ms best, %.2f ms median of %d; %.1f KB read per open "
               "(%.1f bytes per frame)\n", t[0], t[repeats / 2], repeats, bytes / 1024.0,
               (double)bytes / frames);
        mlv_scratch s = {0};
        mp_frame f = {0};
        mp_error err = {0};
        const uint32_t decode = 10;
        double t0 = now_ms();
        for (uint32_t i = 0; i < decode && !rc; i++)
            if (mp_mlv_read_frame(clip, i * (frames / decode), &f, &s, &err) != MP_OK) {
                fprintf(stderr, "bench_index: %s\n", err.msg);
                rc = 1;
            }
        if (!rc)
            printf("decode: %.2f ms per 1920x1080 14-bit frame (pread + unpack, %u frames)\n",
                   (now_ms() - t0) / decode, decode);
        mp_frame_free(&f);
        mp_mlv_scratch_free(&s);
    }
    mp_mlv_clip_close(clip);
    for (uint32_t c = 0; c < chunks; c++)
        unlink(paths[c]);
    rmdir(dir);
    return rc;
}
