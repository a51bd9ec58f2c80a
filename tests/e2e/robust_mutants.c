/* robust_mutants SEED COUNT DIR CLIP...: the whole-clip mutation test of issue 14. Each of
 * COUNT mutants is a copy of one of the (single-file, undamaged) CLIPs with one damage drawn
 * from SEED: a flipped bit or a random 32-bit value in a block header, a flipped payload
 * byte, a zeroed 512-byte run, a cut at a random offset or at a block boundary. Each mutant
 * is written to DIR, opened and every frame read, as `convert` does. Asserted for every one:
 *   - opening fails only as unreadable/damaged input (what convert exits 3 for), never
 *     out of memory or with an internal error;
 *   - a mutant reported clean (no damage entry, every frame readable: exit 0) holds every
 *     frame number of the source, unless the damage hit bytes no reader can check (pixel
 *     payload of an uncompressed frame, metadata values);
 *   - every frame read whose source block (and the header blocks; for DELTA, every block
 *     before it) the mutation left alone has the source's number and samples: frames are
 *     never faked;
 *   - the mutant file is unchanged by reading it.
 * Sanitizer reports and hangs are caught by the test runner (ASan build, timeout).
 * Prints the counts per outcome. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/mlv_reader.h"

#define MAX_BLOCKS 4096
#define MAX_FRAMES 1024

typedef struct block { uint64_t start, end; int vidf; uint32_t number; } block;

typedef struct source {
    const char *path;
    uint8_t *bytes;
    size_t size;
    block blocks[MAX_BLOCKS];
    uint32_t block_count;
    uint32_t frame_count;
    uint32_t header_end;            /* first VIDF offset: the metadata blocks end here */
    uint64_t hash[MAX_FRAMES];      /* by frame number */
    int compressed;
    int delta;                      /* each frame depends on the ones before it */
} source;

static uint64_t rng_state;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

static uint64_t frame_hash(const mp_frame *f)
{
    uint64_t h = 1469598103934665603ull ^ f->width ^ (uint64_t)f->height << 20;
    for (size_t i = 0; i < (size_t)f->width * f->height; i++)
        h = (h ^ f->data[i]) * 1099511628211ull;
    return h;
}

static int load(source *s, const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return 0;
    fseek(fp, 0, SEEK_END);
    s->size = (size_t)ftell(fp);
    fseek(fp, 0, SEEK_SET);
    s->bytes = malloc(s->size);
    int ok = s->bytes && fread(s->bytes, 1, s->size, fp) == s->size;
    fclose(fp);
    s->path = path;
    if (!ok)
        return 0;
    uint64_t off = rd32(s->bytes + 4);
    s->header_end = 0;
    while (off + 16 <= s->size && s->block_count < MAX_BLOCKS) {
        uint32_t size = rd32(s->bytes + off + 4);
        block *b = &s->blocks[s->block_count++];
        b->start = off;
        b->end = off + size;
        b->vidf = !memcmp(s->bytes + off, "VIDF", 4);
        b->number = b->vidf ? rd32(s->bytes + off + 16) : 0;
        if (b->vidf && !s->header_end)
            s->header_end = (uint32_t)off;
        off += size;
    }
    return 1;
}

/* Reads every frame of the clip at path; hashes[i] = hash of index i (0: unreadable). */
typedef struct result {
    mp_status open;
    uint32_t damage, frames, unreadable;
    uint32_t number[MAX_FRAMES];
    uint64_t hash[MAX_FRAMES];
} result;

static void read_clip(const char *path, result *r)
{
    memset(r, 0, sizeof *r);
    mlv_clip *clip = NULL;
    mp_error err = {0};
    mlv_open_options opt = {{NULL, NULL}, 1};
    r->open = mp_mlv_clip_open(&clip, path, &opt, &err);
    if (r->open != MP_OK)
        return;
    const mlv_clip_info *in = mp_mlv_clip_get_info(clip);
    r->damage = in->damage_count + in->damage_omitted;
    r->frames = in->frame_count < MAX_FRAMES ? in->frame_count : MAX_FRAMES;
    mlv_scratch s = {0};
    mp_frame f = {0};
    for (uint32_t i = 0; i < r->frames; i++) {
        mlv_frame_info fi;
        mp_mlv_frame_info_get(clip, i, &fi);
        r->number[i] = fi.number;
        if (mp_mlv_read_frame(clip, i, &f, &s, &err) == MP_OK)
            r->hash[i] = frame_hash(&f);
        else
            r->unreadable++;
    }
    mp_frame_free(&f);
    mp_mlv_scratch_free(&s);
    mp_mlv_clip_close(clip);
}

static int write_file(const char *path, const uint8_t *p, size_t n)
{
    FILE *fp = fopen(path, "wb");
    int ok = fp && fwrite(p, 1, n, fp) == n;
    if (fp && fclose(fp) != 0)
        ok = 0;
    return ok;
}

static int file_equals(const char *path, const uint8_t *p, size_t n)
{
    uint8_t *q = malloc(n + 1);
    FILE *fp = fopen(path, "rb");
    int ok = q && fp && fread(q, 1, n + 1, fp) == n && !memcmp(p, q, n);
    if (fp)
        fclose(fp);
    free(q);
    return ok;
}

enum { KIND_HEADER_BIT, KIND_HEADER_WORD, KIND_PAYLOAD_BYTE, KIND_ZERO_RUN, KIND_CUT,
       KIND_CUT_BOUNDARY, KIND_COUNT };
static const char *const kind_names[] = {"header bit", "header word", "payload byte",
                                         "zero run", "cut", "cut at block"};

/* Applies one damage to m (a copy of s); returns the new size and the damaged byte range. */
static size_t mutate(const source *s, uint8_t *m, int kind, uint64_t *lo, uint64_t *hi)
{
    const block *b = &s->blocks[rnd() % s->block_count];
    size_t size = s->size;
    switch (kind) {
    case KIND_HEADER_BIT:
        *lo = b->start + rnd() % 32;
        m[*lo] ^= (uint8_t)(1u << (rnd() % 8));
        *hi = *lo + 1;
        break;
    case KIND_HEADER_WORD: {
        *lo = b->start + 4 * (rnd() % 8);
        uint32_t v = rnd();
        memcpy(m + *lo, &v, 4);
        *hi = *lo + 4;
        break;
    }
    case KIND_PAYLOAD_BYTE:
        *lo = b->end > b->start + 32 ? b->start + 32 + rnd() % (b->end - b->start - 32) : b->start;
        m[*lo] ^= (uint8_t)(1 + rnd() % 255);
        *hi = *lo + 1;
        break;
    case KIND_ZERO_RUN:
        *lo = rnd() % s->size;
        *hi = *lo + 512 < s->size ? *lo + 512 : s->size;
        memset(m + *lo, 0, *hi - *lo);
        break;
    case KIND_CUT:
        size = 52 + rnd() % (s->size - 52);
        *lo = size;
        *hi = s->size;
        break;
    default:
        size = b->start > 52 ? b->start : s->size;
        *lo = size;
        *hi = s->size;
        break;
    }
    return size;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: robust_mutants SEED COUNT DIR CLIP...\n");
        return 2;
    }
    rng_state = strtoull(argv[1], NULL, 0);
    uint32_t count = (uint32_t)strtoul(argv[2], NULL, 0);
    const char *dir = argv[3];
    uint32_t nsrc = (uint32_t)(argc - 4);
    source *src = calloc(nsrc, sizeof *src);
    static result r;
    for (uint32_t k = 0; k < nsrc; k++) {
        if (!load(&src[k], argv[4 + k])) {
            fprintf(stderr, "%s: cannot read\n", argv[4 + k]);
            return 2;
        }
        read_clip(argv[4 + k], &r);
        if (r.open != MP_OK || r.damage || r.unreadable || r.frames > MAX_FRAMES) {
            fprintf(stderr, "%s: not an undamaged clip\n", argv[4 + k]);
            return 2;
        }
        src[k].frame_count = r.frames;
        for (uint32_t i = 0; i < r.frames; i++)
            src[k].hash[r.number[i] % MAX_FRAMES] = r.hash[i];
        src[k].compressed = src[k].bytes[32] != 1 || src[k].bytes[33] != 0;
        src[k].delta = (src[k].bytes[32] & 0x40) != 0;
    }

    char path[4096];
    snprintf(path, sizeof path, "%s/mutant.MLV", dir);
    uint32_t failures = 0, opened_bad = 0, damaged = 0, clean = 0, frames_checked = 0;
    uint32_t per_kind[KIND_COUNT] = {0};
    for (uint32_t n = 0; n < count; n++) {
        const source *s = &src[rnd() % nsrc];
        int kind = (int)(rnd() % KIND_COUNT);
        per_kind[kind]++;
        uint8_t *m = malloc(s->size);
        memcpy(m, s->bytes, s->size);
        uint64_t lo = 0, hi = 0;
        size_t size = mutate(s, m, kind, &lo, &hi);
        if (!write_file(path, m, size)) {
            fprintf(stderr, "%s: %s\n", path, strerror(errno));
            return 2;
        }
        read_clip(path, &r);
        char what[160];
        snprintf(what, sizeof what, "mutant %u (%s, %s bytes %llu-%llu)", n, s->path,
                 kind_names[kind], (unsigned long long)lo, (unsigned long long)hi);
        if (!file_equals(path, m, size)) {
            printf("FAIL: %s: the file changed while read\n", what);
            failures++;
        }
        free(m);
        if (r.open != MP_OK) {
            if (r.open == MP_ERR_NOMEM || r.open == MP_ERR_ARG) {
                printf("FAIL: %s: open failed with status %d\n", what, r.open);
                failures++;
            }
            opened_bad++;
            continue;
        }
        int header_hit = lo < s->header_end;
        /* unreadable by construction: pixel bytes of an uncompressed frame, or a value
         * (not the structure) of a header field */
        int undetectable = header_hit || (kind == KIND_PAYLOAD_BYTE && !s->compressed);
        if (!r.damage && !r.unreadable) {
            clean++;
            if (!undetectable && kind != KIND_PAYLOAD_BYTE && r.frames != s->frame_count) {
                printf("FAIL: %s: reported clean with %u of %u frames\n", what, r.frames,
                       s->frame_count);
                failures++;
            }
        } else {
            damaged++;
        }
        if (header_hit)
            continue;
        for (uint32_t i = 0; i < r.frames; i++) {
            if (!r.hash[i])
                continue;
            const block *b = NULL;
            for (uint32_t k = 0; k < s->block_count && !b; k++)
                if (s->blocks[k].vidf && s->blocks[k].number == r.number[i])
                    b = &s->blocks[k];
            if (!b) {
                if (!undetectable) {
                    printf("FAIL: %s: frame %u read, the source has no such frame\n", what,
                           r.number[i]);
                    failures++;
                }
                continue;
            }
            /* a DELTA frame is the sum of every frame before it */
            int touched = s->delta ? lo < b->end : lo < b->end && hi > b->start;
            if (touched)
                continue;
            frames_checked++;
            if (r.hash[i] != s->hash[r.number[i] % MAX_FRAMES]) {
                printf("FAIL: %s: intact frame %u read with other samples\n", what,
                       r.number[i]);
                failures++;
            }
        }
    }
    printf("%u mutants (", count);
    for (int k = 0; k < KIND_COUNT; k++)
        printf("%s%s %u", k ? ", " : "", kind_names[k], per_kind[k]);
    printf("): %u refused as unreadable (exit 3), %u damage reported (exit 4), %u clean "
           "(exit 0); %u intact frames compared; %u failures\n", opened_bad, damaged, clean,
           frames_checked, failures);
    for (uint32_t k = 0; k < nsrc; k++)
        free(src[k].bytes);
    free(src);
    remove(path);
    return failures ? 1 : 0;
}
