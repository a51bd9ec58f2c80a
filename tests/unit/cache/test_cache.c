/* Unit tests for src/cache: XXH64, shuffles, entry round trips, misses, corruption of every
 * byte of an entry, forged headers, stale keys, leftover temporary files, and concurrent
 * workers. */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cache/entry.h"
#include "cache/frame_cache.h"
#include "cache/shuffle.h"
#include "dualiso/dualiso.h"
#include "pipeline/cache_key.h"
#include "synth/synth.h"

static uint32_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static void fill_random(mp_frame *f, uint32_t w, uint32_t h, uint64_t seed)
{
    assert_int_equal(mp_frame_reserve(f, w, h, NULL), MP_OK);
    for (size_t i = 0; i < (size_t)w * h; i++)
        f->data[i] = (uint16_t)rng_next(&seed);
    f->bits = 16;
    f->black = 3000 + (uint32_t)(seed & 7);
    f->white = 65000;
    f->cfa = MP_CFA_RGGB;
    f->number = 17;
    f->timestamp_us = 0x123456789abull;
}

/* A 16-bit frame off the simulated sensor (benchmark scene), like a reconstructed one. */
static void fill_sensor(mp_frame *f, uint32_t w, uint32_t h, uint32_t frame)
{
    synth_sensor sensor;
    mp_synth_sensor_default(&sensor, 16, 0);
    synth_scene scene = {SYNTH_SCENE_BENCHMARK, 0, 0, 0, 11};
    float *truth = malloc(sizeof *truth * w * h);
    assert_non_null(truth);
    assert_int_equal(mp_synth_render_truth(&scene, w, h, frame, truth, NULL), MP_OK);
    assert_int_equal(mp_synth_expose(&sensor, truth, w, h, 5, frame, f, NULL), MP_OK);
    free(truth);
}

static void assert_frames_equal(const mp_frame *a, const mp_frame *b)
{
    assert_int_equal(a->width, b->width);
    assert_int_equal(a->height, b->height);
    assert_int_equal(a->bits, b->bits);
    assert_int_equal(a->black, b->black);
    assert_int_equal(a->white, b->white);
    assert_int_equal(a->cfa, b->cfa);
    assert_int_equal(a->number, b->number);
    assert_true(a->timestamp_us == b->timestamp_us);
    assert_memory_equal(a->data, b->data, (size_t)a->width * a->height * 2);
}

static int frames_equal(const mp_frame *a, const mp_frame *b)
{
    return a->width == b->width && a->height == b->height && a->bits == b->bits &&
           a->black == b->black && a->white == b->white && a->cfa == b->cfa &&
           a->number == b->number && a->timestamp_us == b->timestamp_us &&
           !memcmp(a->data, b->data, (size_t)a->width * a->height * 2);
}

/* ---- temporary cache folders and a warning counter ---- */

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

typedef struct fixture {
    char dir[64];
    int warnings;
    char last[MP_ERROR_MAX];
    mp_cache *cache;
    mp_cache_scratch scratch;
} fixture;

static void count_warning(void *opaque, mp_log_level level, const char *msg)
{
    fixture *fx = opaque;
    if (level == MP_LOG_WARNING)
        fx->warnings++;
    snprintf(fx->last, sizeof fx->last, "%s", msg);
}

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    strcpy(fx->dir, "/tmp/mp_cache_test_XXXXXX");
    if (!fx || !mkdtemp(fx->dir))
        return -1;
    mp_cache_options o;
    mp_cache_options_default(&o);
    o.log = (mp_logger){count_warning, fx};
    char sub[128];
    snprintf(sub, sizeof sub, "%s/a/b", fx->dir);  /* open creates parents */
    if (mp_cache_open(&fx->cache, sub, &o, NULL) != MP_OK)
        return -1;
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    mp_cache_close(fx->cache);
    mp_cache_scratch_free(&fx->scratch);
    nftw(fx->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    free(fx);
    return 0;
}

static void read_file(const char *path, uint8_t **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    *data = malloc(*size + 1);
    assert_non_null(*data);
    assert_int_equal(fread(*data, 1, *size, f), *size);
    fclose(f);
}

static void write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
}

/* Overwrites one byte in place (rewriting whole files would make ext4 flush each one). */
static void poke(const char *path, size_t at, uint8_t value)
{
    int fd = open(path, O_WRONLY);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, &value, 1, (off_t)at), 1);
    assert_int_equal(close(fd), 0);
}

/* Puts f under key and reads the entry's file back: its path and its bytes. */
static void put_and_read_entry(fixture *fx, const mp_cache_key *key, const mp_frame *f,
                               char path[PATH_MAX], uint8_t **bytes, size_t *size)
{
    assert_int_equal(mp_cache_entry_path(fx->cache, key, path, PATH_MAX, NULL), MP_OK);
    assert_int_equal(mp_cache_put(fx->cache, key, f, &fx->scratch, NULL), MP_OK);
    read_file(path, bytes, size);
}

/* ---- hashing ---- */

static void hash_matches_reference_vectors(void **state)
{
    (void)state;
    /* Reference values from the xxHash project's xxhsum (-H1). */
    assert_true(mp_cache_hash_bytes("", 0, 0) == 0xef46db3751d8e999ull);
    assert_true(mp_cache_hash_bytes("abc", 3, 0) == 0x44bc2cf5ad770999ull);
    const char *fox = "The quick brown fox jumps over the lazy dog";
    assert_true(mp_cache_hash_bytes(fox, strlen(fox), 0) == 0x0b242d361fda71bcull);
    uint8_t seq[100];  /* 0, 1, ... 99: three stripes, then a 4-byte tail */
    for (int i = 0; i < 100; i++)
        seq[i] = (uint8_t)i;
    assert_true(mp_cache_hash_bytes(seq, 100, 0) == 0x6ac1e58032166597ull);
    assert_true(mp_cache_hash_bytes(seq, 39, 0) == 0x00a396ef1679a859ull);
}

static uint64_t hash_two_strings(const char *a, const char *b)
{
    mp_cache_hash h;
    mp_cache_hash_init(&h, 0);
    mp_cache_hash_str(&h, a);
    mp_cache_hash_str(&h, b);
    return mp_cache_hash_final(&h);
}

static void typed_feeders_are_little_endian_and_delimited(void **state)
{
    (void)state;
    const uint8_t le[12] = {1, 2, 3, 4, 0xf0, 0xde, 0xbc, 0x9a, 0x78, 0x56, 0x34, 0x12};
    mp_cache_hash h;
    mp_cache_hash_init(&h, 5);
    mp_cache_hash_u32(&h, 0x04030201u);
    mp_cache_hash_u64(&h, 0x123456789abcdef0ull);
    assert_true(mp_cache_hash_final(&h) == mp_cache_hash_bytes(le, sizeof le, 5));
    assert_true(hash_two_strings("ab", "c") != hash_two_strings("a", "bc"));
    mp_cache_hash_init(&h, 0);
    mp_cache_hash_f64(&h, 0.0);
    uint64_t zero = mp_cache_hash_final(&h);
    mp_cache_hash_init(&h, 0);
    mp_cache_hash_u64(&h, 0);
    assert_true(mp_cache_hash_final(&h) == zero);
}

static void hash_streaming_equals_one_shot(void **state)
{
    (void)state;
    uint8_t buf[300];
    uint64_t seed = 99;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)rng_next(&seed);
    for (size_t len = 0; len <= sizeof buf; len += 7) {
        uint64_t whole = mp_cache_hash_bytes(buf, len, 42);
        mp_cache_hash h;
        mp_cache_hash_init(&h, 42);
        for (size_t at = 0; at < len;) {
            size_t step = 1 + rng_next(&seed) % 40;
            if (step > len - at)
                step = len - at;
            mp_cache_hash_update(&h, buf + at, step);
            at += step;
        }
        assert_true(mp_cache_hash_final(&h) == whole);
        assert_true(whole != mp_cache_hash_bytes(buf, len, 43));
    }
}

static uint64_t settings_hash(const dualiso_levels *lv, const dualiso_options *opt)
{
    mp_cache_hash h;
    mp_cache_hash_init(&h, 0);
    mp_cache_hash_reconstruction(&h, lv, opt);
    return mp_cache_hash_final(&h);
}

static void fill_levels(dualiso_levels *lv, int garbage)
{
    memset(lv, garbage, sizeof *lv);  /* padding bytes differ between the copies */
    lv->is_dual = 1;
    lv->phase = 2;
    lv->bits = 14;
    lv->ratio_source = DUALISO_RATIO_THROUGH_ORIGIN;
    double *d[] = {&lv->in_black, &lv->in_white, &lv->ratio, &lv->ratio_ev, &lv->black_dark,
                   &lv->black_bright, &lv->white_dark, &lv->white_bright, &lv->noise_dark,
                   &lv->noise_bright, &lv->gain_dark, &lv->out_scale};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        *d[i] = 1.5 + (double)i;
    lv->frames_used = 8;
    lv->cells_used = 300;
    lv->out_black = 8192;
    lv->out_white = 60000;
}

/* Every field counts, padding does not. If a struct grows, its new field must be hashed in
 * src/pipeline/settings_hash.c, else two settings would share cache entries. */
static void reconstruction_hash_covers_every_field(void **state)
{
    (void)state;
    assert_int_equal(sizeof(dualiso_options), 4 * sizeof(int) + sizeof(float));
    assert_int_equal(sizeof(dualiso_levels), 4 * 4 + 11 * 8 + 4 * 4 + 8);
    dualiso_levels a, b;
    dualiso_options opt;
    mp_dualiso_options_default(&opt);
    fill_levels(&a, 0xaa);
    fill_levels(&b, 0x55);
    uint64_t base = settings_hash(&a, &opt);
    assert_true(settings_hash(&b, &opt) == base);
    assert_true(settings_hash(&a, NULL) == base);

    /* Change one byte of one field at a time (the struct has no padding). */
    for (size_t at = 0; at < sizeof b; at++) {
        fill_levels(&b, 0x55);
        ((uint8_t *)&b)[at] ^= 1;
        assert_true(settings_hash(&b, &opt) != base);
    }
    for (size_t at = 0; at < sizeof opt; at++) {
        dualiso_options o = opt;
        ((uint8_t *)&o)[at] ^= 1;
        assert_true(settings_hash(&a, &o) != base);
    }
}

/* ---- shuffles and entries in memory ---- */

static void shuffles_round_trip_any_width(void **state)
{
    (void)state;
    uint32_t sizes[][2] = {{1, 1}, {1, 5}, {2, 3}, {3, 2}, {7, 5}, {64, 9}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        mp_frame f = {0};
        uint32_t w = sizes[k][0], h = sizes[k][1];
        fill_random(&f, w, h, k);
        f.data[0] = 0xffff;  /* extremes exercise the zigzag */
        if (w * h > 2)
            f.data[2] = 0;
        uint8_t *bytes = malloc((size_t)w * h * 2);
        uint16_t *back = malloc((size_t)w * h * 2);
        for (int kind = 0; kind < MP_CACHE_SHUFFLE_COUNT; kind++) {
            memset(back, 0xaa, (size_t)w * h * 2);
            mp_cache_shuffle_samples(f.data, w, h, kind, bytes);
            mp_cache_unshuffle_samples(bytes, w, h, kind, back);
            assert_memory_equal(back, f.data, (size_t)w * h * 2);
        }
        free(bytes);
        free(back);
        mp_frame_free(&f);
    }
}

static void delta_shuffle_makes_smooth_rows_small(void **state)
{
    (void)state;
    uint16_t row[8] = {1000, 2000, 1001, 2002, 999, 2002, 1000, 2001};
    uint8_t bytes[16];
    mp_cache_shuffle_samples(row, 8, 1, MP_CACHE_SHUFFLE_DELTA, bytes);
    /* The first two samples are differences to 0 (zigzag doubles them); then +1 +2 -2 0 +1 -1
     * become 2 4 3 0 2 1 with zero high bytes. */
    uint8_t expect_lo[8] = {2000 & 255, 4000 & 255, 2, 4, 3, 0, 2, 1};
    uint8_t expect_hi[8] = {2000 >> 8, 4000 >> 8, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(bytes, expect_lo, 8);
    assert_memory_equal(bytes + 8, expect_hi, 8);
}

/* The BITS layout as documented, built the slow way: plane b, byte j, bit k = bit b of
 * DELTA value 8 j + k; the last n % 8 values little-endian after the planes. */
static void bit_planes_follow_the_documented_layout(void **state)
{
    (void)state;
    mp_frame f = {0};
    fill_random(&f, 13, 5, 21);  /* 65 values: 8 blocks and a 1-value tail */
    size_t n = 65, plane = n / 8;
    uint8_t delta[130], bits[130], expect[130] = {0};
    mp_cache_shuffle_samples(f.data, 13, 5, MP_CACHE_SHUFFLE_DELTA, delta);
    mp_cache_shuffle_samples(f.data, 13, 5, MP_CACHE_SHUFFLE_BITS, bits);
    for (size_t i = 0; i < n; i++) {
        uint16_t v = (uint16_t)(delta[i] | delta[n + i] << 8);
        if (i < 8 * plane) {
            for (int b = 0; b < 16; b++)
                expect[b * plane + i / 8] |= (uint8_t)((v >> b & 1) << (i % 8));
        } else {
            expect[16 * plane + 2 * (i - 8 * plane)] = (uint8_t)v;
            expect[16 * plane + 2 * (i - 8 * plane) + 1] = (uint8_t)(v >> 8);
        }
    }
    assert_memory_equal(bits, expect, sizeof expect);
    mp_frame_free(&f);
}

static void entry_round_trips_every_shuffle_and_level(void **state)
{
    (void)state;
    mp_frame f = {0}, sensor = {0}, out = {0};
    mp_cache_scratch s = {0};
    fill_random(&f, 33, 17, 5);
    fill_sensor(&sensor, 320, 160, 3);
    mp_cache_key key = {0x1122334455667788ull, 17, 0xfeedull};
    const mp_frame *frames[2] = {&f, &sensor};
    for (int i = 0; i < 2; i++)
        for (int kind = 0; kind < MP_CACHE_SHUFFLE_COUNT; kind++)
            for (int level = 0; level <= 9; level += 9) {
                size_t size = 0;
                assert_int_equal(mp_cache_entry_encode(&key, frames[i], kind, level, &s, &size,
                                                       NULL), MP_OK);
                uint8_t *copy = malloc(size);
                memcpy(copy, s.entry, size);
                mp_cache_entry_info info;
                assert_int_equal(mp_cache_entry_parse_header(copy, size, "e", &info, NULL),
                                 MP_OK);
                assert_int_equal(info.shuffle, kind);
                assert_true(info.key.clip_guid == key.clip_guid);
                assert_int_equal(mp_cache_entry_decode(&info, copy + MP_CACHE_HEADER_SIZE,
                                                       "e", &s, &out, NULL), MP_OK);
                assert_frames_equal(&out, frames[i]);
                free(copy);
            }
    /* Sensor data compresses only once shuffled; each kind must beat the one before. */
    size_t sizes[MP_CACHE_SHUFFLE_COUNT];
    for (int kind = 0; kind < MP_CACHE_SHUFFLE_COUNT; kind++)
        assert_int_equal(mp_cache_entry_encode(&key, &sensor, kind, 0, &s, &sizes[kind], NULL),
                         MP_OK);
    assert_true(sizes[MP_CACHE_SHUFFLE_BYTE] < sizes[MP_CACHE_SHUFFLE_NONE]);
    assert_true(sizes[MP_CACHE_SHUFFLE_DELTA] < sizes[MP_CACHE_SHUFFLE_BYTE]);
    assert_true(sizes[MP_CACHE_SHUFFLE_BITS] < sizes[MP_CACHE_SHUFFLE_DELTA]);
    mp_cache_scratch_free(&s);
    mp_frame_free(&f);
    mp_frame_free(&sensor);
    mp_frame_free(&out);
}

static void encode_refuses_impossible_frames(void **state)
{
    (void)state;
    mp_cache_scratch s = {0};
    mp_frame f = {0};
    mp_cache_key key = {1, 2, 3};
    size_t size;
    mp_error err = {0};
    assert_int_equal(mp_cache_entry_encode(&key, &f, 0, 0, &s, &size, &err), MP_ERR_ARG);
    fill_random(&f, 4, 4, 1);
    f.bits = 17;
    assert_int_equal(mp_cache_entry_encode(&key, &f, 0, 0, &s, &size, &err), MP_ERR_ARG);
    f.bits = 16;
    assert_int_equal(mp_cache_entry_encode(&key, &f, MP_CACHE_SHUFFLE_COUNT, 0, &s, &size,
                                           &err), MP_ERR_ARG);
    assert_int_equal(mp_cache_entry_encode(&key, &f, 0, 13, &s, &size, &err), MP_ERR_ARG);
    mp_cache_scratch_free(&s);
    mp_frame_free(&f);
}

/* ---- the cache on disk ---- */

static void put_then_get_is_bit_exact(void **state)
{
    fixture *fx = *state;
    mp_frame f = {0}, out = {0};
    fill_sensor(&f, 200, 120, 9);
    f.number = 9;
    mp_cache_key key = {0xabcdefull, 9, 0x77ull};
    int hit = -1;
    assert_int_equal(mp_cache_get(fx->cache, &key, &out, &hit, &fx->scratch, NULL), MP_OK);
    assert_int_equal(hit, 0);
    assert_int_equal(fx->warnings, 0);  /* a plain miss is silent */
    assert_int_equal(mp_cache_put(fx->cache, &key, &f, &fx->scratch, NULL), MP_OK);
    assert_int_equal(mp_cache_get(fx->cache, &key, &out, &hit, &fx->scratch, NULL), MP_OK);
    assert_int_equal(hit, 1);
    assert_frames_equal(&out, &f);

    /* Random (incompressible) data, a fresh scratch, an output buffer already too large. */
    mp_cache_scratch fresh = {0};
    fill_random(&f, 31, 7, 77);
    key.frame = 10;
    assert_int_equal(mp_cache_put(fx->cache, &key, &f, &fresh, NULL), MP_OK);
    assert_int_equal(mp_cache_get(fx->cache, &key, &out, &hit, &fresh, NULL), MP_OK);
    assert_int_equal(hit, 1);
    assert_frames_equal(&out, &f);
    assert_int_equal(fx->warnings, 0);
    mp_cache_stats stats;
    mp_cache_get_stats(fx->cache, &stats);
    assert_int_equal(stats.hits, 2);
    assert_int_equal(stats.misses, 1);
    assert_int_equal(stats.rejected, 0);
    assert_int_equal(stats.puts, 2);
    mp_cache_scratch_free(&fresh);
    mp_frame_free(&f);
    mp_frame_free(&out);
}

static void other_keys_miss(void **state)
{
    fixture *fx = *state;
    mp_frame f = {0}, out = {0};
    fill_random(&f, 16, 8, 3);
    mp_cache_key key = {100, 5, 200};
    assert_int_equal(mp_cache_put(fx->cache, &key, &f, &fx->scratch, NULL), MP_OK);
    mp_cache_key others[] = {{101, 5, 200}, {100, 6, 200}, {100, 5, 201}, {0, 0, 0}};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        int hit = -1;
        assert_int_equal(mp_cache_get(fx->cache, &others[i], &out, &hit, &fx->scratch, NULL),
                         MP_OK);
        assert_int_equal(hit, 0);
    }
    int hit = 0;
    assert_int_equal(mp_cache_get(fx->cache, &key, &out, &hit, &fx->scratch, NULL), MP_OK);
    assert_int_equal(hit, 1);
    mp_frame_free(&f);
    mp_frame_free(&out);
}

/* Flipping any byte of an entry gives a miss with a warning, or (where LZ4 happens to decode
 * the same bytes) the exact frame; never other data. Header bytes always miss. */
static void every_flipped_byte_is_caught(void **state)
{
    fixture *fx = *state;
    mp_frame f = {0}, out = {0};
    fill_sensor(&f, 40, 24, 1);
    mp_cache_key key = {7, 1, 8};
    char path[PATH_MAX];
    uint8_t *good;
    size_t size;
    put_and_read_entry(fx, &key, &f, path, &good, &size);
    assert_true(size > MP_CACHE_HEADER_SIZE + 100);
    int misses = 0;
    for (size_t at = 0; at < size; at++) {
        for (int bit = 0; bit < 8; bit += 7) {
            uint8_t flipped = good[at] ^ (uint8_t)(1u << bit);
            poke(path, at, flipped);
            int warnings = fx->warnings, hit = -1;
            assert_int_equal(mp_cache_get(fx->cache, &key, &out, &hit, &fx->scratch, NULL),
                             MP_OK);
            if (hit) {
                assert_true(at >= MP_CACHE_HEADER_SIZE);
                assert_true(frames_equal(&out, &f));
                assert_int_equal(fx->warnings, warnings);
            } else {
                assert_int_equal(fx->warnings, warnings + 1);
                misses++;
            }
            poke(path, at, good[at]);
        }
    }
    assert_true(misses > (int)size);  /* nearly every one of the 2 x size flips */
    free(good);
    mp_frame_free(&f);
    mp_frame_free(&out);
}

static void truncated_or_grown_entries_miss_then_put_repairs(void **state)
{
    fixture *fx = *state;
    mp_frame f = {0}, out = {0};
    fill_sensor(&f, 64, 32, 2);
    mp_cache_key key = {9, 2, 10};
    char path[PATH_MAX];
    uint8_t *good;
    size_t size;
    put_and_read_entry(fx, &key, &f, path, &good, &size);
    size_t lengths[] = {0, 1, 4, 50, MP_CACHE_HEADER_SIZE - 1, MP_CACHE_HEADER_SIZE,
                        MP_CACHE_HEADER_SIZE + 1, size / 2, size - 1, size + 1};
    good = realloc(good, size + 1);
    good[size] = 0;
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        write_file(path, good, lengths[i]);
        int warnings = fx->warnings, hit = -1;
        assert_int_equal(mp_cache_get(fx->cache, &key, &out, &hit, &fx->scratch, NULL), MP_OK);
        assert_int_equal(hit, 0);
        assert_int_equal(fx->warnings, warnings + 1);
    }
    assert_int_equal(mp_cache_put(fx->cache, &key, &f, &fx->scratch, NULL), MP_OK);
    int hit = 0;
    assert_int_equal(mp_cache_get(fx->cache, &key, &out, &hit, &fx->scratch, NULL), MP_OK);
    assert_int_equal(hit, 1);
    assert_frames_equal(&out, &f);
    mp_cache_stats stats;
    mp_cache_get_stats(fx->cache, &stats);
    assert_int_equal(stats.rejected, sizeof lengths / sizeof lengths[0]);
    assert_int_equal(stats.misses, stats.rejected);
    assert_int_equal(stats.hits, 1);
    free(good);
    mp_frame_free(&f);
    mp_frame_free(&out);
}

/* Headers with a valid checksum but impossible fields are refused before any allocation. */
static void forged_headers_are_refused(void **state)
{
    (void)state;
    mp_frame f = {0};
    mp_cache_scratch s = {0};
    fill_random(&f, 8, 8, 4);
    mp_cache_key key = {1, 1, 1};
    size_t size;
    assert_int_equal(mp_cache_entry_encode(&key, &f, 1, 0, &s, &size, NULL), MP_OK);
    struct { size_t at; uint32_t value; } forge[] = {
        {6, MP_CACHE_SHUFFLE_COUNT},  /* shuffle kind */
        {28, MP_FRAME_MAX_DIM + 1},   /* width */
        {32, 0},                      /* height */
        {28, MP_FRAME_MAX_DIM}, /* width x height 16384 x 8: payload size no longer matches */
        {36, 17},                     /* bits */
        {64, 0xffffffffu},            /* payload size */
        {72, 0x7fffffffu},            /* compressed size vs file size */
    };
    for (size_t i = 0; i < sizeof forge / sizeof forge[0]; i++) {
        uint8_t h[MP_CACHE_HEADER_SIZE];
        memcpy(h, s.entry, sizeof h);
        if (forge[i].at == 6)
            h[6] = (uint8_t)forge[i].value;
        else
            for (int b = 0; b < 4; b++)
                h[forge[i].at + b] = (uint8_t)(forge[i].value >> 8 * b);
        uint64_t sum = mp_cache_hash_bytes(h, 88, 0);
        for (int b = 0; b < 8; b++)
            h[88 + b] = (uint8_t)(sum >> 8 * b);
        mp_cache_entry_info info;
        mp_error err = {0};
        assert_int_not_equal(mp_cache_entry_parse_header(h, size, "forged", &info, &err),
                             MP_OK);
        assert_non_null(strstr(err.msg, "forged: offset "));
    }
    mp_cache_scratch_free(&s);
    mp_frame_free(&f);
}

static void entry_under_another_key_is_stale(void **state)
{
    fixture *fx = *state;
    mp_frame f = {0}, out = {0};
    fill_random(&f, 12, 6, 8);
    mp_cache_key a = {50, 3, 60}, b = {50, 4, 60};
    char pa[PATH_MAX], pb[PATH_MAX];
    assert_int_equal(mp_cache_entry_path(fx->cache, &a, pa, sizeof pa, NULL), MP_OK);
    assert_int_equal(mp_cache_entry_path(fx->cache, &b, pb, sizeof pb, NULL), MP_OK);
    assert_int_equal(mp_cache_put(fx->cache, &a, &f, &fx->scratch, NULL), MP_OK);
    assert_int_equal(link(pa, pb), 0);
    int hit = -1;
    assert_int_equal(mp_cache_get(fx->cache, &b, &out, &hit, &fx->scratch, NULL), MP_OK);
    assert_int_equal(hit, 0);
    assert_int_equal(fx->warnings, 1);
    assert_non_null(strstr(fx->last, "another key"));
    mp_frame_free(&f);
    mp_frame_free(&out);
}

/* A killed writer leaves ".<name>.<pid>-<n>.part": never read, and a put still works. */
static void leftover_temp_files_are_never_entries(void **state)
{
    fixture *fx = *state;
    mp_frame f = {0}, out = {0};
    fill_random(&f, 10, 10, 9);
    mp_cache_key key = {70, 5, 80};
    char path[PATH_MAX], temp[PATH_MAX + 32];
    uint8_t *good;
    size_t size;
    put_and_read_entry(fx, &key, &f, path, &good, &size);
    assert_int_equal(unlink(path), 0);
    char *slash = strrchr(path, '/');
    *slash = 0;
    snprintf(temp, sizeof temp, "%s/.%s.999999-0.part", path, slash + 1);
    *slash = '/';
    write_file(temp, good, size / 2);
    int hit = -1;
    assert_int_equal(mp_cache_get(fx->cache, &key, &out, &hit, &fx->scratch, NULL), MP_OK);
    assert_int_equal(hit, 0);
    assert_int_equal(fx->warnings, 0);
    assert_int_equal(mp_cache_put(fx->cache, &key, &f, &fx->scratch, NULL), MP_OK);
    assert_int_equal(mp_cache_get(fx->cache, &key, &out, &hit, &fx->scratch, NULL), MP_OK);
    assert_int_equal(hit, 1);
    assert_frames_equal(&out, &f);
    free(good);
    mp_frame_free(&f);
    mp_frame_free(&out);
}

/* ---- concurrency ---- */

enum { THREADS = 4, KEYS = 12, ROUNDS = 6 };

typedef struct worker {
    mp_cache *cache;
    const mp_frame *frames;  /* KEYS frames, frame i stored under key frame i */
    int index;
    int bad;                 /* wrong data or errors seen */
    int hits;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    mp_cache_scratch s = {0};
    mp_frame out = {0};
    for (int r = 0; r < ROUNDS; r++)
        for (int k = 0; k < KEYS; k++) {
            int i = (k + w->index * 5 + r) % KEYS;
            mp_cache_key key = {0xc0ffee, (uint32_t)i, 1};
            int hit = 0;
            if (mp_cache_get(w->cache, &key, &out, &hit, &s, NULL) != MP_OK)
                w->bad++;
            else if (hit && !frames_equal(&out, &w->frames[i]))
                w->bad++;
            w->hits += hit;
            /* Every thread rewrites every key: replacing renames race with readers. */
            if (mp_cache_put(w->cache, &key, &w->frames[i], &s, NULL) != MP_OK)
                w->bad++;
        }
    mp_cache_scratch_free(&s);
    mp_frame_free(&out);
    return NULL;
}

static void four_threads_share_the_cache(void **state)
{
    fixture *fx = *state;
    mp_frame frames[KEYS] = {{0}};
    for (int i = 0; i < KEYS; i++) {
        fill_sensor(&frames[i], 96, 48, (uint32_t)i);
        frames[i].number = (uint32_t)i;
    }
    pthread_t tid[THREADS];
    worker w[THREADS];
    for (int t = 0; t < THREADS; t++) {
        w[t] = (worker){fx->cache, frames, t, 0, 0};
        assert_int_equal(pthread_create(&tid[t], NULL, work, &w[t]), 0);
    }
    int hits = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(tid[t], NULL);
        assert_int_equal(w[t].bad, 0);
        hits += w[t].hits;
    }
    assert_true(hits > 0);
    assert_int_equal(fx->warnings, 0);  /* no reader ever saw a partial entry */
    mp_cache_stats stats;
    mp_cache_get_stats(fx->cache, &stats);
    assert_int_equal(stats.hits, hits);
    assert_int_equal(stats.hits + stats.misses, THREADS * ROUNDS * KEYS);
    assert_int_equal(stats.puts, THREADS * ROUNDS * KEYS);
    assert_int_equal(stats.rejected, 0);

    /* Only the final entries remain: no temporary file, nothing else. */
    char path[PATH_MAX];
    mp_cache_key key = {0xc0ffee, 0, 1};
    assert_int_equal(mp_cache_entry_path(fx->cache, &key, path, sizeof path, NULL), MP_OK);
    *strrchr(path, '/') = 0;
    DIR *d = opendir(path);
    assert_non_null(d);
    int entries = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        assert_null(strstr(e->d_name, ".part"));
        assert_non_null(strstr(e->d_name, ".mpc"));
        entries++;
    }
    closedir(d);
    assert_int_equal(entries, KEYS);
    for (int i = 0; i < KEYS; i++)
        mp_frame_free(&frames[i]);
}

/* A writer killed at random points (SIGKILL, no cleanup) leaves only complete entries under
 * final names: every key is then a clean miss or the exact frame, with no warning. */
static void killed_writer_leaves_no_partial_entry(void **state)
{
    fixture *fx = *state;
    enum { FRAMES = 6 };
    mp_frame frames[FRAMES] = {{0}}, out = {0};
    for (int i = 0; i < FRAMES; i++) {
        fill_sensor(&frames[i], 256, 128, (uint32_t)i);
        frames[i].number = (uint32_t)i;
    }
    for (int attempt = 0; attempt < 4; attempt++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            mp_cache_scratch s = {0};
            for (;;)
                for (int i = 0; i < FRAMES; i++) {
                    mp_cache_key key = {0xdead, (uint32_t)i, (uint64_t)attempt};
                    mp_cache_put(fx->cache, &key, &frames[i], &s, NULL);
                }
        }
        /* Kill once the first entry is out (so the run wrote something), a little later
         * each time to land at other points of a put. */
        char first[PATH_MAX];
        mp_cache_key key0 = {0xdead, 0, (uint64_t)attempt};
        assert_int_equal(mp_cache_entry_path(fx->cache, &key0, first, sizeof first, NULL),
                         MP_OK);
        for (int wait = 0; wait < 5000 && access(first, F_OK) != 0; wait++)
            usleep(1000);
        usleep(1000 + 3000 * (useconds_t)attempt);
        kill(pid, SIGKILL);
        assert_int_equal(waitpid(pid, NULL, 0), pid);
        for (int i = 0; i < FRAMES; i++) {
            mp_cache_key key = {0xdead, (uint32_t)i, (uint64_t)attempt};
            int hit = -1;
            assert_int_equal(mp_cache_get(fx->cache, &key, &out, &hit, &fx->scratch, NULL),
                             MP_OK);
            if (hit)
                assert_frames_equal(&out, &frames[i]);
        }
    }
    assert_int_equal(fx->warnings, 0);
    mp_cache_stats stats;
    mp_cache_get_stats(fx->cache, &stats);
    assert_true(stats.hits >= 4);  /* each writer got entries out */
    for (int i = 0; i < FRAMES; i++)
        mp_frame_free(&frames[i]);
    mp_frame_free(&out);
}

static void open_refuses_a_file_and_bad_options(void **state)
{
    fixture *fx = *state;
    char file[128];
    snprintf(file, sizeof file, "%s/plain", fx->dir);
    write_file(file, (const uint8_t *)"x", 1);
    mp_cache *c = NULL;
    mp_error err = {0};
    assert_int_equal(mp_cache_open(&c, file, NULL, &err), MP_ERR_IO);
    assert_null(c);
    assert_non_null(strstr(err.msg, "plain"));
    mp_cache_options o;
    mp_cache_options_default(&o);
    o.hc_level = 99;
    assert_int_equal(mp_cache_open(&c, fx->dir, &o, &err), MP_ERR_ARG);
    assert_int_equal(mp_cache_open(&c, "", NULL, &err), MP_ERR_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hash_matches_reference_vectors),
        cmocka_unit_test(hash_streaming_equals_one_shot),
        cmocka_unit_test(typed_feeders_are_little_endian_and_delimited),
        cmocka_unit_test(reconstruction_hash_covers_every_field),
        cmocka_unit_test(shuffles_round_trip_any_width),
        cmocka_unit_test(delta_shuffle_makes_smooth_rows_small),
        cmocka_unit_test(bit_planes_follow_the_documented_layout),
        cmocka_unit_test(entry_round_trips_every_shuffle_and_level),
        cmocka_unit_test(encode_refuses_impossible_frames),
        cmocka_unit_test(forged_headers_are_refused),
        cmocka_unit_test_setup_teardown(put_then_get_is_bit_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(other_keys_miss, setup, teardown),
        cmocka_unit_test_setup_teardown(every_flipped_byte_is_caught, setup, teardown),
        cmocka_unit_test_setup_teardown(truncated_or_grown_entries_miss_then_put_repairs,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(entry_under_another_key_is_stale, setup, teardown),
        cmocka_unit_test_setup_teardown(leftover_temp_files_are_never_entries, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(four_threads_share_the_cache, setup, teardown),
        cmocka_unit_test_setup_teardown(killed_writer_leaves_no_partial_entry, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(open_refuses_a_file_and_bad_options, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
