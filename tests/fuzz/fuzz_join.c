/* libFuzzer target: join's input (issue 29). Bit 0 of the first byte chooses what the rest is:
 *
 * - 0: a movie segment. It is written to a file (join reads paths; libavformat parses it)
 *   and joined alone, then after itself under another name. Join must answer with a
 *   segment error (not a movie, streams that differ, overlapping or damaged: MP_ERR_FORMAT,
 *   MP_ERR_DAMAGED, MP_ERR_IO, MP_ERR_UNSUPPORTED) naming a file, or join it; never a usage
 *   error for a readable segment, a crash or a leak, and never an output left behind by a
 *   refusal. Seeds: mlvpipe's own FFV1, NUT and ProRes segments.
 * - 1: an FFV1 packet for the slice check join applies to every video packet
 *   (codec/ffv1_slices.h). The bytes as they are: any answer, read within bounds, a failing
 *   range inside the packet. The bytes cut into 1-8 slices (the second byte) and given the
 *   trailers and CRC parities an encoder writes: intact; then one byte changed (where the
 *   third and fourth bytes say, by the fifth byte's xor): never intact, and the failing
 *   range holds the byte changed (CRC-32 misses no change of up to 32 bits). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codec/ffv1_slices.h"
#include "movie/av_sink.h"
#include "movie/join.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SLICES 8u

static void quiet(void *opaque, mp_log_level level, const char *msg)
{
    (void)opaque;
    (void)level;
    (void)msg;
}

static void check_packet(const uint8_t *data, size_t size)
{
    size_t from, to;
    if (mp_ffv1_check_slices(data, size, &from, &to) != 0)
        CHECK(from <= to && to <= size);
    if (size < 5)
        return;
    unsigned slices = 1 + data[0] % MAX_SLICES;
    size_t at = (size_t)(data[1] | data[2] << 8), body = size - 5;
    uint8_t flip = data[3] ? data[3] : 1;
    data += 5;
    uint8_t *p = malloc(body + 8 * MAX_SLICES);
    CHECK(p);
    size_t n = 0;
    for (unsigned s = 0; s < slices; s++) {
        size_t part = body * (s + 1) / slices - body * s / slices, start = n;
        memcpy(p + n, data + body * s / slices, part);
        n += part;
        p[n++] = (uint8_t)(part >> 16);
        p[n++] = (uint8_t)(part >> 8);
        p[n++] = (uint8_t)part;
        p[n++] = 0;   /* error status */
        uint32_t crc = mp_ffv1_crc(0, p + start, n - start);
        for (int k = 3; k >= 0; k--)
            p[n++] = (uint8_t)(crc >> (8 * k));
    }
    CHECK(mp_ffv1_check_slices(p, n, &from, &to) == 0);
    at %= n;
    p[at] ^= flip;
    CHECK(mp_ffv1_check_slices(p, n, &from, &to) != 0 && from <= at && at < to);
    free(p);
}

static char dir[64];

static void remove_dir(void)
{
    rmdir(dir);
}

static void join_segment(const uint8_t *data, size_t size)
{
    static mp_logger none = {quiet, NULL};
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/fuzz_join.XXXXXX");
        CHECK(mkdtemp(dir));
        atexit(remove_dir);
        mp_av_sink_route_av_log(&none);
    }
    char a[96], b[96], out[96];
    snprintf(a, sizeof a, "%s/a.mkv", dir);
    snprintf(b, sizeof b, "%s/b.mkv", dir);
    snprintf(out, sizeof out, "%s/out.mkv", dir);
    FILE *f = fopen(a, "wb");
    CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0);
    f = fopen(b, "wb");   /* a copy: the same file twice would be a usage error */
    CHECK(f && fwrite(data, 1, size, f) == size && fclose(f) == 0);
    const char *segments[] = {a, b};
    for (uint32_t count = 1; count <= 2; count++) {
        unlink(out);   /* what the join before left: a refusal must leave nothing */
        farm_join_options o = {.output = out, .segments = segments, .segment_count = count,
                               .log = none};
        farm_join_result res;
        int on_output;
        mp_error err = {0};
        mp_status st = mp_farm_join(&o, &res, &on_output, &err);
        struct stat sb;
        if (st == MP_OK) {
            CHECK(stat(out, &sb) == 0 && res.video_packets <= res.packets);
            continue;
        }
        CHECK(st == MP_ERR_FORMAT || st == MP_ERR_DAMAGED || st == MP_ERR_IO ||
              st == MP_ERR_UNSUPPORTED || st == MP_ERR_NOMEM);
        CHECK(strstr(err.msg, dir) != NULL || on_output);
        CHECK(stat(out, &sb) != 0);
    }
    unlink(out);
    unlink(b);
    unlink(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (data[0] & 1)
        check_packet(data + 1, size - 1);
    else
        join_segment(data + 1, size - 1);
    return 0;
}
