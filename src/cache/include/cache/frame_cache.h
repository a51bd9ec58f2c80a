/* frame_cache: an on-disk cache of reconstructed frames (post-dual-ISO, pre-development), so a
 * re-render with other development or output settings skips the reconstruction.
 *
 * Usage from a worker thread (each thread owns one scratch; the cache is shared):
 *
 *     mp_cache_hash h;                       // once per clip: what affects reconstruction
 *     mp_cache_hash_init(&h, 0);
 *     mp_cache_hash_str(&h, "mlvpipe 0.1.0");        // the program (reconstruction code)
 *     mp_cache_hash_reconstruction(&h, &levels, &options);  // pipeline/cache_key.h
 *     mp_cache_hash_u32(&h, ...);                    // anything else, in a fixed order
 *     mp_cache_key key = {clip_guid, frame_number, mp_cache_hash_final(&h)};
 *     int hit;
 *     mp_cache_get(cache, &key, &out, &hit, &scratch, &err);
 *     if (!hit) { reconstruct(&out); mp_cache_put(cache, &key, &out, &scratch, &err); }
 *
 * The clip GUID must tell clips apart: for a clip without one (legacy .RAW) derive a stable
 * identity, e.g. mp_cache_hash_bytes of its name, size and footer.
 *
 * Entries live in DIR/<guid>-<settings hash>/<frame>.mpc (16 hex digits each, frame number
 * 8 decimal digits). Each entry is written under a hidden temporary name in that folder and
 * renamed when complete (common/out_file), so a concurrent reader or a killed run never sees
 * a half entry under the final name. No fsync: a torn entry after a crash fails its checksum
 * and is recomputed. A temporary file left by a killed run stays hidden
 * (".<name>.<pid>-<n>.part") and is never read; nothing deletes it.
 *
 * Entry file layout (all integers little-endian), see entry.h for the encoder/decoder:
 *
 *   offset size field
 *    0      4   magic "MPFC"
 *    4      2   version (1)
 *    6      1   shuffle kind (mp_cache_shuffle)
 *    7      1   reserved, 0
 *    8      8   key: clip GUID
 *   16      8   key: settings hash
 *   24      4   key: frame number
 *   28      4   width           32  4  height     36  4  bits
 *   40      4   black           44  4  white      48  4  cfa
 *   52      4   frame.number    56  8  timestamp_us
 *   64      8   uncompressed size of the payload (= width * height * 2)
 *   72      8   compressed size (= file size - 96)
 *   80      8   XXH64 (seed 0) of the uncompressed (shuffled) payload
 *   88      8   XXH64 (seed 0) of bytes 0..87
 *   96      -   one LZ4 block (raw block format, no frame header)
 *
 * A file that fails any check (magic, version, header checksum, key, geometry bounds
 * MP_FRAME_MAX_*, sizes, LZ4 decode, payload checksum) is a miss with a warning through the
 * logger, never used; the next put of that key replaces it. Sizes are checked against the
 * bounds before anything is allocated. */
#ifndef MP_FRAME_CACHE_H
#define MP_FRAME_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_frame.h"
#include "common/mp_status.h"

/* ---- hashing (XXH64 from the public xxHash spec; also the entries' checksum) ---- */

typedef struct mp_cache_hash {
    uint64_t lane[4];
    uint64_t seed;
    uint64_t total;       /* bytes fed so far */
    uint8_t buffer[32];   /* partial stripe */
    uint32_t buffered;
} mp_cache_hash;

void mp_cache_hash_init(mp_cache_hash *h, uint64_t seed);
void mp_cache_hash_update(mp_cache_hash *h, const void *data, size_t len);
uint64_t mp_cache_hash_final(const mp_cache_hash *h);  /* h may be updated further after */
uint64_t mp_cache_hash_bytes(const void *data, size_t len, uint64_t seed);

/* Typed feeders: values as little-endian bytes (doubles by their bit pattern), strings with
 * their length, so the hash is the same on every host and never sees struct padding. */
void mp_cache_hash_u32(mp_cache_hash *h, uint32_t v);
void mp_cache_hash_u64(mp_cache_hash *h, uint64_t v);
void mp_cache_hash_f64(mp_cache_hash *h, double v);
void mp_cache_hash_str(mp_cache_hash *h, const char *s);

/* ---- keys, options, per-thread scratch ---- */

typedef struct mp_cache_key {
    uint64_t clip_guid;      /* MLVI fileGuid (or any stable clip identity) */
    uint32_t frame;          /* absolute frame number */
    uint64_t settings_hash;  /* hash of everything that affects reconstruction */
} mp_cache_key;

/* How 16-bit samples are rearranged before LZ4 (LZ4 finds byte repeats, not small numbers).
 * Every kind is decodable whatever the writer's default. */
typedef enum mp_cache_shuffle {
    MP_CACHE_SHUFFLE_NONE = 0,  /* samples as little-endian bytes */
    MP_CACHE_SHUFFLE_BYTE = 1,  /* plane of all low bytes, then plane of all high bytes */
    MP_CACHE_SHUFFLE_DELTA = 2, /* per row: difference (mod 2^16) to the sample two columns
                                   left, the same CFA colour (to 0 for the first two),
                                   zigzag-coded so small negatives stay small, then the two
                                   byte planes */
    MP_CACHE_SHUFFLE_BITS = 3,  /* the DELTA values as 16 bit planes (plane b: bit b of 8
                                   values per byte, value k at bit k; planes of n / 8 bytes,
                                   bit 0 first), then the last n % 8 values as little-endian
                                   bytes: noise fills the low planes, the high ones compress */
    MP_CACHE_SHUFFLE_COUNT
} mp_cache_shuffle;

typedef struct mp_cache_options {
    mp_cache_shuffle shuffle;  /* default MP_CACHE_SHUFFLE_BITS: on a 1080p reconstruction
                                  2.3:1 against DELTA's 1.9:1, decoding at ~1 GB/s against
                                  ~2 GB/s (tools/bench/bench_cache) */
    int hc_level;              /* 0: LZ4 fast (default: reading is what must be fast and
                                  both decode alike); 1..12: LZ4 HC at that level */
    mp_logger log;             /* warnings about corrupt entries */
} mp_cache_options;

void mp_cache_options_default(mp_cache_options *o);

/* Buffers of one thread, grown as needed and reused. Zero-initialise; free when done. */
typedef struct mp_cache_scratch {
    uint8_t *plane;       /* shuffled samples */
    size_t plane_cap;
    uint8_t *entry;       /* header + compressed block */
    size_t entry_cap;
    void *hc_state;       /* LZ4 HC state, allocated on the first HC put */
} mp_cache_scratch;

void mp_cache_scratch_free(mp_cache_scratch *s);

/* ---- the cache ---- */

typedef struct mp_cache mp_cache;

/* Opens (creating it and its parents when missing) the cache folder. opt NULL = defaults.
 * Any number of threads may get/put at once (only atomic counters change after open). */
mp_status mp_cache_open(mp_cache **out, const char *dir, const mp_cache_options *opt,
                        mp_error *err);
void mp_cache_close(mp_cache *c);

/* Looks the key up. *hit = 1 and out filled (buffer reused, all fields set) when a valid
 * entry exists; *hit = 0 for no entry or an unusable one (warning logged), out's contents are
 * then unspecified. Errors only when memory runs out or the arguments are impossible. */
mp_status mp_cache_get(mp_cache *c, const mp_cache_key *key, mp_frame *out, int *hit,
                       mp_cache_scratch *s, mp_error *err);

/* Stores f under key, replacing any entry. MP_ERR_IO (disk full, permissions) leaves no
 * entry behind; a pipeline can log it and carry on without the cache. */
mp_status mp_cache_put(mp_cache *c, const mp_cache_key *key, const mp_frame *f,
                       mp_cache_scratch *s, mp_error *err);

/* What this cache object did so far (all threads): for a summary line, or for a test that
 * a re-render really read the cache. */
typedef struct mp_cache_stats {
    uint64_t hits;
    uint64_t misses;    /* no usable entry */
    uint64_t rejected;  /* an entry that failed a check (also counted in misses) */
    uint64_t puts;      /* entries written */
} mp_cache_stats;

void mp_cache_get_stats(mp_cache *c, mp_cache_stats *out);

/* Writes the entry's path into buf (the file may not exist). MP_ERR_ARG if it does not fit. */
mp_status mp_cache_entry_path(const mp_cache *c, const mp_cache_key *key, char *buf,
                              size_t size, mp_error *err);

#endif
