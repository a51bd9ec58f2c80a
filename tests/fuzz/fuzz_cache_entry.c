/* libFuzzer target: a frame cache entry (header check + LZ4 block decode) from arbitrary bytes.
 * Random bytes never carry the right XXH64 sums, so the harness writes them in (the header sum
 * always, the payload sum when the block decodes) to let the fuzzer past the checksums into the
 * bounds checks and the unshuffling; the checksum checks themselves are in the unit tests.
 * When an entry decodes, encoding the frame again and decoding that gives the same frame. */
#include <lz4.h>
#include <stdlib.h>
#include <string.h>

#include "cache/entry.h"

/* Entries claiming more than this are still parsed but not decoded, to keep runs fast; the
 * header bounds (MP_FRAME_MAX_*) are what limits real allocations. */
#define MAX_RAW (4u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Sets the payload sum (offset 80) to that of the decompressed block, when it decompresses. */
static void fix_payload_sum(uint8_t *entry, size_t size)
{
    uint64_t raw = get64(entry + 64);
    if (raw == 0 || raw > MAX_RAW || size - MP_CACHE_HEADER_SIZE > (size_t)INT32_MAX)
        return;
    char *plane = malloc(raw);
    if (!plane)
        return;
    int got = LZ4_decompress_safe((const char *)entry + MP_CACHE_HEADER_SIZE, plane,
                                  (int)(size - MP_CACHE_HEADER_SIZE), (int)raw);
    if (got >= 0 && (uint64_t)got == raw)
        put64(entry + 80, mp_cache_hash_bytes(plane, raw, 0));
    free(plane);
}

static int same_frame(const mp_frame *a, const mp_frame *b)
{
    return a->width == b->width && a->height == b->height && a->bits == b->bits &&
           a->black == b->black && a->white == b->white && a->cfa == b->cfa &&
           a->number == b->number && a->timestamp_us == b->timestamp_us &&
           !memcmp(a->data, b->data, (size_t)a->width * a->height * sizeof *a->data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < MP_CACHE_HEADER_SIZE)
        return 0;
    uint8_t *entry = malloc(size);
    if (!entry)
        return 0;
    memcpy(entry, data, size);
    fix_payload_sum(entry, size);
    put64(entry + 88, mp_cache_hash_bytes(entry, 88, 0));

    mp_error err;
    mp_cache_entry_info info;
    mp_cache_scratch s = {0};
    mp_frame f = {0}, again = {0};
    if (mp_cache_entry_parse_header(entry, size, "fuzz", &info, &err) == MP_OK &&
        info.raw_size <= MAX_RAW &&
        mp_cache_entry_decode(&info, entry + MP_CACHE_HEADER_SIZE, "fuzz", &s, &f, &err) ==
            MP_OK) {
        if (f.width != info.width || f.height != info.height)
            __builtin_trap();
        size_t n;
        mp_cache_entry_info info2;
        mp_cache_scratch s2 = {0};
        if (mp_cache_entry_encode(&info.key, &f, info.shuffle, (int)(info.timestamp_us & 1), &s, &n, &err) !=
                MP_OK ||
            mp_cache_entry_parse_header(s.entry, n, "fuzz-again", &info2, &err) != MP_OK ||
            info2.key.clip_guid != info.key.clip_guid || info2.key.frame != info.key.frame ||
            info2.key.settings_hash != info.key.settings_hash ||
            mp_cache_entry_decode(&info2, s.entry + MP_CACHE_HEADER_SIZE, "fuzz-again", &s2,
                                  &again, &err) != MP_OK ||
            !same_frame(&f, &again))
            __builtin_trap();
        mp_cache_scratch_free(&s2);
    }
    mp_frame_free(&again);
    mp_frame_free(&f);
    mp_cache_scratch_free(&s);
    free(entry);
    return 0;
}
