/* rawfix_map_build: defects and the focus-pixel lattice from the accumulated measurements
 * (rawfix.h). */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "rawfix_accum.h"

/* Where the frames give fewer independent looks (map_looks.c: a noiseless clip, frames that
 * are copies), nothing is a defect: a sample, or a periodic set of them, that is off its
 * neighbours the same way in every frame is the scene's own static detail. Below this over
 * the frame the map stays empty; in a tile, no sample is found by its count of big
 * deviations, and the mean deviation needs more sigmas. */
#define MIN_LOOKS 4
/* Fewer sampled frames cannot tell a defect from a scene's own static detail (measured: the
 * noiseless test pattern of the shared samples, 3-4 frames, gave hundreds of "defects"). */
/* A single defect: its mean deviation over the frames, in noise units, reaches
 * STRONG_SIGMAS / sqrt(looks) both ways (looks: the independent looks the frames give there,
 * map_looks.c) and never less than STRONG_FLOOR (twice the scene's own variation around it,
 * which pooling frames does not average out), with the same sign both ways in 60 % of the
 * frames (the row and column deviations share the sample's own noise, so this is nearly a
 * single test: 5.5 sigmas is one false defect in ~10^7 samples); or it is off by 6 sigmas
 * (Z_BIG) in three quarters of them. A lattice
 * candidate needs only LATTICE_SIGMAS: one false candidate in ~10^4 samples does not make
 * a class of a lattice, whose members are found together. */
#define STRONG_SIGMAS 5.5
#define STRONG_FLOOR 2.0
/* Where the scene moves through the sample, its own detail averages out and the floor is
 * not needed: there the deviation varies between the frames MOVING_VARIANCE times more than
 * noise alone can make it (at most 1 in these units, where the yardstick is never below the
 * noise: a sample of a still scene reaches 2.5 over 16 frames about once in 10^3), and a
 * sample counts when its mean stands MOVING_T standard errors off zero both ways (the spread
 * between the frames measured at the sample itself, so the scene's passing detail is in
 * it), at least MOVING_FLOOR, with the same sign in three quarters of the frames. */
#define MOVING_VARIANCE 2.5
#define MOVING_T 4.0
#define MOVING_FLOOR 0.75
/* MOVING_T was 3, and 2.5 for a sample that stands alone (sessions 6-10); both found warm
 * pixels of the drifting zone plate at 2.8-3.5. Fine text drifting over a dark area (mlvsynth
 * --scene detail --shift 1.5, 640x360, 16 frames) puts a run of strokes on some samples in
 * 12 of 16 frames, 2.5-3.1 standard errors off: 1-3 false sites per clip. At 4 none of 32
 * such clips (8 seeds, 320x192 and 640x360, single and dual ISO) has one; bench_rawfix
 * 640x360 moving scenes lose 0.3-0.8 % of their hot/cold recall. Do no harm. */
/* A sample that stands alone needs less evidence that the scene moves through it: a
 * variance of MOVING_VARIANCE_ALONE (noise alone reaches it at about 1 still sample in 30
 * over 16 frames) when its mean is MOVING_ALONE_TEXTURE times the median of its neighbours'
 * (texture_around, ISOLATED_TEXTURE below). Noise alone leaves that median near 0.2 over 16
 * frames, so a defect of 1.2 reaches it, while still detail that varies that much moves its
 * neighbours with it (measured, the still benchmark scene in dual ISO: its samples passing
 * the variance stand 3-10 times above theirs; ratio 6 keeps 1 of 6). Measured (bench_rawfix
 * --misses, 1080p, 16 frames): a warm pixel in the drifting zone plate was missed at
 * variance 2.12, t 3.5, its mean 1.28 against its neighbours' 0.06. */
#define MOVING_VARIANCE_ALONE 1.8
#define MOVING_ALONE_TEXTURE 6.0
/* Where the scene around the sample is resolved, a defect stands alone: the mean deviations
 * of its same-colour neighbours, taken along the directions that do not pass through the
 * sample (their column deviation for the row neighbours, their row deviation for the column
 * neighbours, both for the diagonal ones), are what the scene's own fixed detail leaves after
 * pooling. A sample counts when its mean stands ISOLATED_TEXTURE times above the median of
 * those twelve, at least ISOLATED_FLOOR, with the same sign in three quarters of the frames:
 * static fine texture deviates its neighbours as much as itself, moving texture and noise
 * average out around a defect as well as at it. Measured (bench_rawfix, 1080p, 16 frames):
 * missed hot and cold pixels had their neighbours at 0.04-0.18 against their own 1.2-4 */
/* (1.75 until session 10; the same drifting text gave a site at 1.76) */
#define ISOLATED_FLOOR 2.0
#define ISOLATED_TEXTURE 3.0
/* Defects are sparse; static detail that passes the tests above comes in clusters (measured:
 * the still benchmark scene in dual ISO, hundreds of "defects" within a few pixels of each
 * other in the shadows of the bright field). A single defect with more than CLUSTER_MAX
 * others within CLUSTER_REACH samples (lattice sites left out) is dropped unless it is far
 * off in most frames. */
#define CLUSTER_REACH 8
#define CLUSTER_MAX 1
#define CLUSTER_SOLID 3.0
/* A stuck sample records the same value in every sampled frame, whatever the scene does
 * around it, where noise alone moves a live one (measured, bench_rawfix --misses at 32
 * frames: pixels stuck at 5048 DN in a drifting scene, 15 sigmas above it in the first
 * frames and below it in the last, so no test of a steady sign sees them). A live sample
 * of noise sigma s >= 1 DN repeats one value with probability at most 0.4 / s per frame;
 * the test runs where that, over the frames, leaves fewer than STUCK_FALSE false samples
 * in the frame, at values below white (clipping is constant too), and above 0 unless the
 * black level lies STUCK_FLOOR sigmas above it (a recording clamped at 0 repeats it in the
 * shadows). The sigma comes partly from three of its four same-colour neighbours' variation
 * (stuck_at), so a band the camera fills with one value is not a set of stuck pixels. */
#define STUCK_FALSE 1e-3
#define STUCK_FLOOR 8.0
/* Neighbours clipped in every frame cannot show a live sample's noise: with this many of the
 * four, the stuck test takes the noise of the sample's level (measured, bench_rawfix 640x360,
 * static scene: 3 stuck and 2 dead pixels inside clipped highlights were missed). */
#define STUCK_CLIPPED_AROUND 3
#define LATTICE_SIGMAS 2.2
#define QUIET_SUM (Z_SCALE / 2)     /* LATTICE_FLOOR in the sums' units per frame */
#define LATTICE_FLOOR ((double)QUIET_SUM / Z_SCALE)   /* 0.5 */
/* A lattice class: at least CLASS_MIN_HITS candidates filling CLASS_MIN_FILL of its sites
 * inside their bounding box. */
#define CLASS_MIN_HITS 8
/* A period stands out of the counts at the distances around it by this many times their
 * scatter, and at PERIOD_CONTRAST times their level: a lattice's members pair up at its
 * period and hardly at other distances (measured at 640x360: level / peak 0.005-0.16), while
 * a static scene's periodic detail (the benchmark scene's 37-pixel structure) still pairs up
 * near it (0.4-0.55), and this ratio does not grow with the frame's size as the scatter does. */
#define PERIOD_SIGMAS 8
#define PERIOD_CONTRAST 4
#define CLASS_MIN_FILL 0.3
#define MIN_BOX_PERIODS 4   /* a lattice's box spans this many periods each way */

/* Do no harm: in a still scene, fixed detail (a star, a specular point, a stroke of text) is
 * as steady over the frames as a defect, so none of the tests above tells them apart there.
 * Their word is taken only where the scene is seen to move: in the clip (MOTION_CLIP of the
 * blocks where motion could be seen move, at least MOTION_CLIP_MIN: a pan) or around the
 * sample (moves_around: a walk through a still shot). Elsewhere a sample is repaired only
 * when it is stuck (no noise where its level has some: a property of no scene), too quiet
 * for its level or below black (take_quiet, map_quiet.c), and the
 * others are counted as candidates left alone. Motion: block_moves. */
#define MOTION_LEVEL 10.0
#define MOTION_F 6.0
#define MOTION_REL 0.03
#define MOTION_CLIP 0.3
#define MOTION_TEXTURE 0.05
#define MOTION_CLIP_MIN 4
#define MOTION_LOCAL 3

enum { CAND_POS = 1, CAND_NEG = 2, STRONG = 4, FAR = 8, DECISIVE = 16 };

void mp_rawfix_map_free(rawfix_map *m)
{
    free(m->pixels);
    free(m->clean);
    memset(m, 0, sizeof *m);
}

static size_t clean_bytes(const rawfix_map *m)
{
    return ((size_t)m->width * m->height + 7) / 8;
}

mp_status mp_rawfix_map_copy(rawfix_map *dst, const rawfix_map *src, mp_error *err)
{
    *dst = *src;
    dst->pixels = NULL;
    dst->clean = NULL;
    if ((src->pixel_count &&
         !(dst->pixels = malloc(2 * (size_t)src->pixel_count * sizeof *dst->pixels))) ||
        (src->clean && !(dst->clean = malloc(clean_bytes(src))))) {
        mp_rawfix_map_free(dst);
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory");
    }
    if (src->pixel_count)
        memcpy(dst->pixels, src->pixels, 2 * (size_t)src->pixel_count * sizeof *dst->pixels);
    if (src->clean)
        memcpy(dst->clean, src->clean, clean_bytes(src));
    return MP_OK;
}

/* The samples the clip's own frames show in line with their neighbours: measured in min_used
 * frames, their mean deviation under CLEAN_SUM both ways, and no candidate. A defect another
 * clip shows there does not show in this one (its offset is gone, or hidden by texture), so
 * repairing it could only replace a good value with a guess. */
#define CLEAN_SUM (Z_SCALE / 2)     /* half a noise sigma, in the sums' units per frame */
static mp_status mark_clean(const rawfix_accum *a, const uint8_t *flag, uint32_t min_used,
                            rawfix_map *m, mp_error *err)
{
    if (!(m->clean = calloc(clean_bytes(m), 1)))
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for a %ux%u map",
                            a->width, a->height);
    const size_t n = (size_t)a->width * a->height;
    for (size_t i = 0; i < n; i++) {
        /* |sum / used| < CLEAN_SUM in whole numbers, as quiet_samples */
        const int32_t used = a->count[COUNT_USED][i], floor = CLEAN_SUM * used;
        const int32_t h = a->sum_h[i], v = a->sum_v[i];
        if (used >= (int32_t)min_used && !(flag[i] & (CAND_POS | CAND_NEG)) && h < floor &&
            h > -floor && v < floor && v > -floor)
            m->clean[i / 8] |= (uint8_t)(1u << (i % 8));
    }
    return MP_OK;
}

static uint32_t residues_in(uint32_t lo, uint32_t hi, uint32_t period, uint32_t r)
{
    /* values v in [lo, hi) with v % period == r */
    uint32_t first = lo + (r + period - lo % period) % period;
    return first < hi ? (hi - 1 - first) / period + 1 : 0;
}

uint64_t mp_rawfix_lattice_sites(const rawfix_lattice *l)
{
    uint64_t n = 0;
    for (uint32_t k = 0; l->period_x && k < l->class_count; k++)
        n += (uint64_t)residues_in(l->x0, l->x1, l->period_x, l->class_x[k]) *
             residues_in(l->y0, l->y1, l->period_y, l->class_y[k]);
    return n;
}

static int in_classes(const rawfix_lattice *l, uint32_t x, uint32_t y)
{
    for (uint32_t k = 0; k < l->class_count; k++)
        if (x % l->period_x == l->class_x[k] && y % l->period_y == l->class_y[k])
            return 1;
    return 0;
}

static int in_lattice(const rawfix_lattice *l, uint32_t x, uint32_t y)
{
    return l->period_x && x >= l->x0 && x < l->x1 && y >= l->y0 && y < l->y1 &&
           in_classes(l, x, y);
}

/* The variance of a sample's row deviation between the frames, in noise units squared. */
static double moving_variance(const rawfix_accum *a, size_t i, uint32_t used)
{
    double s = (double)a->zh_sum[i] / Z_SCALE, sq = (double)a->zh_sq[i] / (Z_SCALE * Z_SCALE);
    return used > 1 ? (sq - s * s / used) / (used - 1) : 0;
}

static void sort_small(double *v, int n)
{
    for (int i = 1; i < n; i++)   /* insertion sort of at most 12 */
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

/* The median of the neighbours' mean deviations that the sample at (x, y) does not enter
 * (ISOLATED_TEXTURE above); INFINITY where fewer than half of them were measured. */
static double texture_around(const rawfix_accum *a, uint32_t x, uint32_t y)
{
    const uint32_t vs = a->vstep;
    if (x < 2 || y < vs || x + 2 >= a->width || y + vs >= a->height)
        return INFINITY;
    const size_t i = (size_t)y * a->width + x, row = (size_t)vs * a->width;
    const struct { size_t at; int way; } near[12] = {
        {i - 2, 1}, {i + 2, 1}, {i - row, 0}, {i + row, 0},
        {i - row - 2, 0}, {i - row - 2, 1}, {i - row + 2, 0}, {i - row + 2, 1},
        {i + row - 2, 0}, {i + row - 2, 1}, {i + row + 2, 0}, {i + row + 2, 1}};
    double v[12];
    int n = 0;
    for (int k = 0; k < 12; k++) {
        const uint32_t used = a->count[COUNT_USED][near[k].at];
        const int16_t *sum = near[k].way ? a->sum_v : a->sum_h;
        if (used)
            v[n++] = fabs((double)sum[near[k].at] / Z_SCALE / used);
    }
    if (n < 6)
        return INFINITY;
    sort_small(v, n);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Whether the scene moves in row class r of block (j, k): 1; 0 where it could be seen to and
 * does not; -1 where it cannot be seen. The block's share of the light of its 3 x 3 blocks
 * changes between the frames by more than MOTION_F times what their noise makes and by
 * MOTION_REL of itself. The share does not change with the light (a flicker, a cloud wider
 * than the blocks), only with what the scene puts where; it needs every frame unclipped there
 * and the block MOTION_LEVEL sigmas above black, and a block whose share stays within
 * MOTION_TEXTURE of a ninth holds nothing that could show motion (a smooth ramp). Measured
 * (mlvsynth, 16 frames, benchmark scene, 640x360 and 1920x1080, single and dual ISO): still
 * blocks, also under 0.3-EV illumination jitter, vary 0.3-1 times their predicted noise
 * (which texture inflates) and by at most 0.5 %; drifting ones 100-10^5 times, by 5-70 %; of
 * the blocks that could show it, none moves in the still clips and 62-86 % in the drifting
 * ones. */
static int block_moves(const rawfix_accum *a, const double *noise_of, uint32_t j, uint32_t k,
                       uint32_t r)
{
    const size_t stride = (size_t)a->blocks_x * a->blocks_y * RAWFIX_BLOCK_SUMS;
    double mean = 0, sq = 0, noise = 0;
    uint32_t n = 0;
    for (uint32_t f = 0; f < RAWFIX_MAX_FRAMES; f++) {
        if (!(a->added & (1ull << f)))
            continue;
        const uint32_t *b = a->blocks + f * stride + r;
        const double *bn = noise_of ? noise_of + n * stride + r : NULL;
        double all = 0, all_noise = 0;
        const size_t at = ((size_t)k * a->blocks_x + j) * RAWFIX_BLOCK_SUMS;
        const double own = b[at];
        const double own_noise = bn ? bn[at] : mp_rawfix_block_noise(a, r, own);
        for (uint32_t v = k - 1; v <= k + 1; v++)
            for (uint32_t u = j - 1; u <= j + 1; u++) {
                const size_t near = ((size_t)v * a->blocks_x + u) * RAWFIX_BLOCK_SUMS;
                const uint32_t s = b[near];
                if (s == RAWFIX_BLOCK_CLIPPED)
                    return -1;
                all += s;
                all_noise += bn ? bn[near] : mp_rawfix_block_noise(a, r, s);
            }
        /* the sum's sigma is RAWFIX_BLOCK / 2 times a sample's */
        if (own < MOTION_LEVEL * RAWFIX_BLOCK / 2 * sqrt(own_noise) || all <= 0)
            return -1;
        const double t = own / all;
        mean += t;
        sq += t * t;
        noise += (own_noise + t * t * all_noise) / (all * all);
        n++;
    }
    if (n < 3)
        return -1;
    mean /= n;
    const double var = (sq - n * mean * mean) / (n - 1);
    if (var >= MOTION_F * noise / n && var >= MOTION_REL * MOTION_REL * mean * mean)
        return 1;
    return fabs(mean - 1.0 / 9) >= MOTION_TEXTURE / 9 ? 0 : -1;
}

/* Marks the blocks the scene moves in (moves[], blocks_x x blocks_y) and says whether the
 * clip moves: MOTION_CLIP of the blocks where motion can be seen move, at least
 * MOTION_CLIP_MIN. */
typedef struct motion_job {
    const rawfix_accum *a;
    uint32_t frame[RAWFIX_MAX_FRAMES];  /* the sample number of each frame added, in order */
    double *noise_of;
    uint8_t *moves;
    atomic_uint_fast64_t moving, seen;  /* whole numbers: the same in any order */
} motion_job;

/* Each block's noise in the part-th frame added (mp_rawfix_parallel). */
static void noise_part(void *ctx, uint32_t n)
{
    const motion_job *mj = ctx;
    const rawfix_accum *a = mj->a;
    const size_t stride = (size_t)a->blocks_x * a->blocks_y * RAWFIX_BLOCK_SUMS;
    const uint32_t f = mj->frame[n];
    for (size_t i = 0; i < stride; i++)
        mj->noise_of[n * stride + i] =
            mp_rawfix_block_noise(a, i % RAWFIX_BLOCK_SUMS, a->blocks[f * stride + i]);
}

/* The blocks of block row k (mp_rawfix_parallel), the frame's edges left out. */
static void motion_part(void *ctx, uint32_t k)
{
    motion_job *mj = ctx;
    const rawfix_accum *a = mj->a;
    for (uint32_t j = 1; k >= 1 && k + 1 < a->blocks_y && j + 1 < a->blocks_x; j++) {
        int m = -1;
        for (uint32_t r = 0; r < RAWFIX_BLOCK_SUMS && m < 1; r++) {
            const int mr = block_moves(a, mj->noise_of, j, k, r);
            m = mr > m ? mr : m;
        }
        mj->moves[(size_t)k * a->blocks_x + j] = m > 0;
        atomic_fetch_add(&mj->moving, m > 0);
        atomic_fetch_add(&mj->seen, m >= 0);
    }
}

static int find_motion(const rawfix_accum *a, uint8_t *moves)
{
    memset(moves, 0, (size_t)a->blocks_x * a->blocks_y + 1);
    /* each block's noise once per frame (each is one of 9 neighbourhoods), in the order of
     * the frames added; without the memory, block_moves works each out where it needs it */
    const size_t stride = (size_t)a->blocks_x * a->blocks_y * RAWFIX_BLOCK_SUMS;
    motion_job mj = {.a = a, .moves = moves};
    atomic_init(&mj.moving, 0);
    atomic_init(&mj.seen, 0);
    mj.noise_of = malloc((a->frames ? a->frames : 1) * stride * sizeof *mj.noise_of);
    uint32_t n = 0;
    for (uint32_t f = 0; f < RAWFIX_MAX_FRAMES; f++)
        if (a->added & (1ull << f))
            mj.frame[n++] = f;
    if (mj.noise_of)
        mp_rawfix_parallel(&a->runner, n, noise_part, &mj);
    mp_rawfix_parallel(&a->runner, a->blocks_y, motion_part, &mj);
    const uint64_t moving = atomic_load(&mj.moving), seen = atomic_load(&mj.seen);
    free(mj.noise_of);
    return moving >= MOTION_CLIP_MIN && moving >= MOTION_CLIP * seen;
}

/* Whether the scene moves around (x, y): in MOTION_LOCAL of its block and the eight next to
 * it. A moving thing covers several; a hot or stuck pixel, whose offset does not follow the
 * light, moves its own block's share under a changing light, and one block only. */
static int moves_around(const rawfix_accum *a, const uint8_t *moves, uint32_t x, uint32_t y)
{
    const int64_t j = x / RAWFIX_BLOCK, k = y / RAWFIX_BLOCK;
    uint32_t count = 0;
    for (int64_t v = k - 1; v <= k + 1; v++)
        for (int64_t u = j - 1; u <= j + 1; u++)
            count += u >= 0 && v >= 0 && u < a->blocks_x && v < a->blocks_y &&
                     moves[(size_t)v * a->blocks_x + (size_t)u];
    return count >= MOTION_LOCAL;
}

/* The sampled frames that differ: copies of one frame (equal signatures) are one look at a
 * sample's noise, for the stuck test's count of repeats. */
static uint32_t distinct_frames(const rawfix_accum *a)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < RAWFIX_MAX_FRAMES; i++) {
        if (!(a->added & (1ull << i)))
            continue;
        int seen = 0;
        for (uint32_t j = 0; j < i && !seen; j++)
            seen = (a->added & (1ull << j)) && a->signature[j] == a->signature[i];
        n += !seen;
    }
    return n;
}

/* The noise of the sample at (x, y), i = y * width + x, over `looks` distinct frames when it
 * recorded one value below white in all of them (else 0), for the stuck test (STUCK_FALSE
 * above): the lower of two estimates: the frames' noise at its value in its row class, which a still
 * scene's texture inflates (measured: 10-bit still clips, where the shadows' noise is below
 * 1 DN and repeats are common, got 4 false stuck pixels at 720p from it alone), and its
 * neighbours' variation between the frames, the second smallest of their four ranges over
 * 2 sqrt(2 ln N) (more than the mean range of N normal samples in sigmas, so an
 * underestimate; one neighbour may be a defect too), that one times between_scale. */
static double stuck_noise(const rawfix_accum *a, uint32_t x, uint32_t y, uint32_t looks,
                          double between_scale)
{
    const size_t i = (size_t)y * a->width + x, row = (size_t)a->vstep * a->width;
    const uint16_t v = a->lo[i];
    if (a->hi[i] != v || v >= a->white || a->black == INT32_MAX || x < 2 || y < a->vstep ||
        x + 2 >= a->width || y + a->vstep >= a->height)
        return 0;
    const size_t near[4] = {i - 2, i + 2, i - row, i + row};
    double range[4];
    uint32_t clipped = 0;
    for (int k = 0; k < 4; k++) {
        range[k] = a->hi[near[k]] >= a->lo[near[k]] ? a->hi[near[k]] - a->lo[near[k]] : 0;
        clipped += a->lo[near[k]] >= a->white;
    }
    sort_small(range, 4);
    /* neighbours at white in every frame do not vary, and are no band the camera filled
     * either: the sample itself, at most half-way to white (a photosite that saturates a
     * little early is no defect), is judged by its level's noise alone */
    const double between =
        clipped >= STUCK_CLIPPED_AROUND && 2 * (v - a->black) <= a->white - a->black
            ? INFINITY
            : between_scale * range[1] / (2 * sqrt(2 * log(looks > 1 ? looks : 2)));
    const double level = a->sample_sigma[(y % 4) * RAWFIX_LEVEL_BINS +
                                         mp_rawfix_level_bin(2 * (int32_t)v, a->black)];
    return between < level ? between : level;
}

/* Whether a live sample of noise sigma repeats value v over `looks` frames improbably. */
static int stuck_repeat(const rawfix_accum *a, uint16_t v, double sigma, uint32_t looks)
{
    const double pixels = (double)a->width * a->height;
    return sigma >= 1 && (looks - 1.0) * log(0.4 / sigma) <= log(STUCK_FALSE / pixels) &&
           (v > 0 || a->black >= STUCK_FLOOR * sigma);
}

/* Whether the sample at (x, y) is stuck over `looks` distinct frames. */
static int stuck_at(const rawfix_accum *a, uint32_t x, uint32_t y, uint32_t looks)
{
    return stuck_repeat(a, a->lo[(size_t)y * a->width + x], stuck_noise(a, x, y, looks, 1),
                        looks);
}

/* Whether `more` frames could make a sample stuck that the frames so far do not: one value
 * below white in each of them, and the test passing over looks + more frames with the
 * neighbours' estimate NEAR_STUCK_MARGIN times as high. That estimate hardly changes with the
 * frames (the mean range of N normal samples, 3.53 and 4.07 sigmas at 16 and 32, over
 * 2 sqrt(2 ln N), 4.71 and 5.27: +3 %); the margin is for the scatter of a range. */
#define NEAR_STUCK_MARGIN 1.25
static int near_stuck(const rawfix_accum *a, uint32_t x, uint32_t y, uint32_t looks,
                      uint32_t more)
{
    const uint16_t v = a->lo[(size_t)y * a->width + x];
    return !stuck_at(a, x, y, looks) &&
           stuck_repeat(a, v, stuck_noise(a, x, y, looks, NEAR_STUCK_MARGIN), looks + more);
}

/* Whether each of n samples is quiet (classify): off both ways in one direction by under
 * LATTICE_FLOOR on average (or measured in no frame), and never far off. Whole numbers only,
 * so that the loop vectorises (most samples are quiet, and their divisions were most of the
 * map's time): the mean sum / Z_SCALE / used lies under LATTICE_FLOOR exactly when sum <
 * QUIET_SUM x used, as the double quotient lies at least 1 / (Z_SCALE x used) from the floor,
 * far beyond its rounding. */
static void quiet_samples(size_t n, const int16_t *restrict sum_h, const int16_t *restrict sum_v,
                          const uint8_t *restrict used, const uint8_t *restrict big,
                          const uint8_t *restrict clipped_low,
                          const uint8_t *restrict clipped_high, uint8_t *restrict quiet)
{
    for (size_t i = 0; i < n; i++) {
        const int32_t h = sum_h[i], v = sum_v[i], floor = QUIET_SUM * (int32_t)used[i];
        const int32_t low = h < v ? h : v, high = h > v ? h : v;
        const int32_t under = (h > 0) != (v > 0) || (h > 0 ? low < floor : high > -floor);
        quiet[i] = (uint8_t)(under & ((big[i] | clipped_low[i] | clipped_high[i]) == 0));
    }
}

typedef struct classify_job {
    const rawfix_accum *a;
    const rawfix_looks *looks;
    uint32_t min_used, min_judged, distinct;
    const uint8_t *moves;
    int clip_moves;
    uint8_t *flag;
    float *rank;
} classify_job;

/* classify's rows of one part (mp_rawfix_parallel): each sample's flag and rank are its own. */
static void classify_part(void *ctx, uint32_t part)
{
    const classify_job *j = ctx;
    const rawfix_accum *a = j->a;
    const rawfix_looks *looks = j->looks;
    const uint32_t min_used = j->min_used, min_judged = j->min_judged, distinct = j->distinct;
    const uint8_t *moves = j->moves;
    const int clip_moves = j->clip_moves;
    uint8_t *flag = j->flag;
    float *rank = j->rank;
    const uint32_t y1 = mp_rawfix_part_end(part, a->height);
    for (uint32_t y = part * RAWFIX_PART_ROWS; y < y1; y++) {
        const size_t row = (size_t)y * a->width;
        /* flag[] holds the row's quiet samples until each is classified */
        quiet_samples(a->width, a->sum_h + row, a->sum_v + row, a->count[COUNT_USED] + row,
                      a->count[COUNT_BIG] + row, a->count[COUNT_CLIPPED_LOW] + row,
                      a->count[COUNT_CLIPPED_HIGH] + row, flag + row);
        for (uint32_t x = 0; x < a->width; x++) {
            const size_t i = row + x;
            const int quiet = flag[i];
            uint8_t c[COUNTS];
            for (int k = 0; k < COUNTS; k++)
                c[k] = a->count[k][i];
            flag[i] = 0;
            rank[i] = 0;
            const uint32_t used = c[COUNT_USED];
            const uint32_t judged = used + c[COUNT_CLIPPED_LOW] + c[COUNT_CLIPPED_HIGH];
            if (judged < min_judged)
                continue;
            /* Quiet: under every threshold a candidate needs (LATTICE_FLOOR; a strong defect
             * MOVING_FLOOR or more) and never far off: no flag, whatever the looks (and no
             * rank, which only flagged samples use); only the stuck test can still take it.
             * Most samples are. */
            if (quiet && !(used >= min_used && stuck_at(a, x, y, distinct)))
                continue;
            double zh = used ? (double)a->sum_h[i] / Z_SCALE / used : 0;
            double zv = used ? (double)a->sum_v[i] / Z_SCALE / used : 0;
            /* off both ways, in the same direction, in most frames */
            double z = (zh > 0) != (zv > 0) ? 0 : zh > 0 ? fmin(zh, zv) : fmax(zh, zv);
            if (quiet) {
                flag[i] = (zh >= 0 ? CAND_POS : CAND_NEG) | STRONG | FAR | DECISIVE;
                rank[i] = (float)(fabs(z) + 10.0);
                continue;
            }
            uint32_t same = zh > 0 ? c[COUNT_POS] : c[COUNT_NEG];
            /* measured in as many frames as any judgement needs (clipping hides it in the
             * others): the looks it had count, fewer than the tile's, and the strong test
             * scales with them. Half the frames, as before, missed warm pixels near white
             * measured in 4-7 of 16 frames at about 4 sigmas each (bench_rawfix, jitter
             * scene), and no clean clip gains a site at a quarter. */
            int steady = used >= min_judged && z != 0 && 5 * same >= 3 * used;
            const double n = mp_rawfix_looks_at(looks, x, y);
            const double own = used < min_used ? n * used / a->frames : n;
            double strong = fmax(STRONG_FLOOR, STRONG_SIGMAS / sqrt(own));
            if (steady && used >= min_used && 4 * same >= 3 * used && fabs(z) >= MOVING_FLOOR &&
                fabs(z) < strong) {
                double var = moving_variance(a, i, used);
                int alone = fabs(z) >= MOVING_ALONE_TEXTURE * texture_around(a, x, y);
                int moving = var >= MOVING_VARIANCE || (var >= MOVING_VARIANCE_ALONE && alone);
                if (moving && fabs(z) >= MOVING_T * sqrt(var / used))
                    strong = fabs(z);
            }
            if (steady && used >= min_used && 4 * same >= 3 * used && fabs(z) >= ISOLATED_FLOOR &&
                fabs(z) < strong && fabs(z) >= ISOLATED_TEXTURE * texture_around(a, x, y))
                strong = fabs(z);
            const double cand = fmin(strong, fmax(LATTICE_FLOOR, LATTICE_SIGMAS / sqrt(own)));
            uint32_t far_high = c[COUNT_CLIPPED_HIGH] + (zh > 0 ? c[COUNT_BIG] : 0);
            uint32_t far_low = c[COUNT_CLIPPED_LOW] + (zh < 0 ? c[COUNT_BIG] : 0);
            int pos = steady ? zh > 0 : far_high > far_low;
            /* far off in most frames counts where the frames are independent looks: the
             * tile's, or the sample's own deviation varying between them more than noise can
             * (the tile's texture can hide its noise from the looks, map_looks.c, while a
             * frozen clip varies nowhere) */
            int looks_here = n >= MIN_LOOKS ||
                             (used >= 3 && moving_variance(a, i, used) >= MOVING_VARIANCE);
            /* judged in half the frames: where clipping leaves a sample few looks, the looks
             * it gets are the frames where it stands out (dark strokes drifting over clipped
             * highlights are judged only while on the sample: mlvsynth --scene detail
             * --shift 1.5, 3 false sites in 4 of 16 frames) */
            int big = looks_here && 2 * judged >= a->frames &&
                      4 * (pos ? far_high : far_low) >= 3 * judged;
            if ((steady && fabs(z) >= cand) || big)
                flag[i] = pos ? CAND_POS : CAND_NEG;
            if ((steady && fabs(z) >= strong) || big)
                flag[i] |= STRONG | (big ? FAR : 0);
            rank[i] = (float)(fabs(z) + 10.0 * (pos ? far_high : far_low) / judged);
            /* a weak or dead pixel cannot record white: one that did in some frame and
             * looks dark in the others is dark detail moving over highlights (measured only
             * where it is dark: text passing a clipped window). It may still be a lattice
             * member (a focus pixel's offset does not stop it clipping). */
            if ((flag[i] & CAND_NEG) && a->hi[i] >= a->white)
                flag[i] &= (uint8_t)~(STRONG | FAR);
            if ((flag[i] & STRONG) && (clip_moves || moves_around(a, moves, x, y)))
                flag[i] |= DECISIVE;
            /* judged, not measured: a stuck pixel inside clipped highlights is judged only
             * beyond clipping */
            if (judged >= min_used && stuck_at(a, x, y, distinct)) {
                flag[i] = (zh >= 0 && far_low <= far_high ? CAND_POS : CAND_NEG) | STRONG |
                          FAR | DECISIVE;
                rank[i] = (float)(fabs(z) + 10.0);
            }
        }
    }
}

/* Per sample: candidate sign bits and STRONG; rank orders strong ones (samples far off in
 * most frames first, then by their mean deviation). The thresholds scale with the number of
 * independent looks the frames give where the sample is (map_looks.c), not with the number
 * of frames: on a noiseless clip, 16 frames are one look, and a sample off its neighbours
 * in all of them is the scene, not a defect. */
static void classify(const rawfix_accum *a, const rawfix_looks *looks, uint32_t min_used,
                     const uint8_t *moves, int clip_moves, uint8_t *flag, float *rank)
{
    /* far off in most frames where it could be judged: measured, or seen beyond clipping */
    classify_job j = {a, looks, min_used, a->frames / 4 > 3 ? a->frames / 4 : 3,
                      distinct_frames(a), moves, clip_moves, flag, rank};
    mp_rawfix_parallel(&a->runner, mp_rawfix_parts(a->height), classify_part, &j);
}
static uint32_t isolated_candidates(const rawfix_accum *a, const uint8_t *flag, uint8_t *lone);
static mp_status own_lattice(const rawfix_accum *a, const uint8_t *lone, uint32_t candidates,
                             rawfix_lattice *l, mp_error *err);

/* The candidates more frames could show too quiet: at this rate per map among clean ones
 * (mp_rawfix_accum_settled). */
#define QUIET_MORE_FALSE 0.05

/* Whether sample i is a candidate take_quiet tests: strong, not decided, off the lattice. */
static int waits(const rawfix_accum *a, const rawfix_lattice *lattice, const uint8_t *flag,
                 size_t i)
{
    return (flag[i] & (STRONG | DECISIVE)) == STRONG &&
           !in_lattice(lattice, (uint32_t)(i % a->width), (uint32_t)(i / a->width));
}

/* Decisive evidence in a still scene: a strong candidate too quiet for its level, or one
 * below its neighbours whose mean lies further below black than light allows (map_quiet.c).
 * The candidates on the lattice (the camera's confirmed one, or one the candidates show but
 * a still clip leaves alone) are not tested: the map takes or leaves them as a lattice, and
 * counted in the family they would lower every other candidate's limit (a 1080p clip's
 * lattice holds tens of thousands of sites). The model is made only when some candidate waits
 * for it. With `near`, also counts the candidates not taken that a clean sample would reach
 * with probability QUIET_MORE_FALSE over the candidates tested (mp_rawfix_accum_settled). */
static mp_status take_quiet(const rawfix_accum *a, const rawfix_lattice *lattice, uint8_t *flag,
                            uint64_t *near, mp_error *err)
{
    const size_t n = (size_t)a->width * a->height;
    size_t waiting = 0;
    for (size_t i = 0; i < n; i++)
        waiting += waits(a, lattice, flag, i);
    if (!waiting)
        return MP_OK;
    rawfix_quiet q;
    mp_status st = mp_rawfix_quiet_model(a, distinct_frames(a), &q, err);
    uint32_t *at = malloc(waiting * sizeof *at);
    double *ratio = malloc(waiting * sizeof *ratio);
    uint8_t *lit = malloc(waiting);
    if (st == MP_OK && (!at || !ratio || !lit))
        st = mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for a %ux%u map",
                          a->width, a->height);
    /* one family of tests: the steady light's and the changing light's together */
    uint64_t tests = 0;
    size_t k = 0;
    for (size_t i = 0; st == MP_OK && i < n; i++)
        if (waits(a, lattice, flag, i)) {
            int changing;
            at[k] = (uint32_t)i;
            ratio[k] = mp_rawfix_quiet_ratio(a, &q, (uint32_t)(i % a->width),
                                             (uint32_t)(i / a->width), &changing);
            lit[k] = (uint8_t)changing;
            tests += isfinite(ratio[k]);
            k++;
        }
    const double limit[2] = {mp_rawfix_quiet_limit(&q, tests, 0, RAWFIX_QUIET_FALSE),
                             mp_rawfix_quiet_limit(&q, tests, 1, RAWFIX_QUIET_FALSE)};
    const double more[2] = {mp_rawfix_quiet_limit(&q, tests, 0, QUIET_MORE_FALSE),
                            mp_rawfix_quiet_limit(&q, tests, 1, QUIET_MORE_FALSE)};
    uint8_t black_shown[4] = {0};
    for (size_t j = 0; st == MP_OK && j < k; j++)
        if (flag[at[j]] & CAND_NEG) {
            mp_rawfix_black_shown(a, black_shown);
            break;
        }
    for (size_t j = 0; st == MP_OK && j < k; j++) {
        const uint32_t x = at[j] % a->width, y = at[j] / a->width;
        if (ratio[j] < limit[lit[j]] ||
            ((flag[at[j]] & CAND_NEG) && mp_rawfix_below_black(a, black_shown, x, y)))
            flag[at[j]] |= DECISIVE;
        else if (near && ratio[j] < more[lit[j]])
            (*near)++;
    }
    free(lit);
    free(at);
    free(ratio);
    mp_rawfix_quiet_free(&q);
    return st;
}

/* A still clip's candidates that more frames could show too quiet for their level: over 16
 * frames a weak pixel of q 0.0625 (map_quiet.c) falls under the limit of 1000 candidates
 * tested (0.081) in 81 % of clips, over 32 under theirs (0.214) in all. The clip takes the
 * rest of its frames where some candidate lies between that limit and the ratio a clean one
 * reaches with probability QUIET_MORE_FALSE over the candidates tested (0.144 for 1000): one
 * still clip in 20 whose candidates are all clean takes them for nothing. The decision comes
 * from the integer sums of the frames so far, as the map's, so it is the same at any thread
 * count. */
static mp_status quiet_could_pass(const rawfix_accum *a, const uint8_t *moves, int *could,
                                  mp_error *err)
{
    *could = 0;
    const size_t n = (size_t)a->width * a->height;
    const uint32_t min_used = 3 * a->frames / 4 > 3 ? 3 * a->frames / 4 : 3;
    uint8_t *flag = malloc(n);
    float *rank = malloc(n * sizeof *rank);
    rawfix_looks looks = {0};
    mp_status st = flag && rank ? mp_rawfix_looks(a, min_used, &looks, err)
                                : mp_error_set(err, MP_ERR_NOMEM,
                                               "rawfix: out of memory for a %ux%u map",
                                               a->width, a->height);
    uint64_t near = 0;
    uint8_t *lone = st == MP_OK ? malloc(n) : NULL;
    if (st == MP_OK && !lone)
        st = mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for a %ux%u map", a->width,
                          a->height);
    if (st == MP_OK && looks.frame_looks >= MIN_LOOKS) {
        classify(a, &looks, min_used, moves, 0, flag, rank);
        rawfix_lattice lattice;
        st = own_lattice(a, lone, isolated_candidates(a, flag, lone), &lattice, err);
        if (st == MP_OK)
            st = take_quiet(a, &lattice, flag, &near, err);
    }
    *could = near > 0;
    mp_rawfix_looks_free(&looks);
    free(flag);
    free(lone);
    free(rank);
    return st;
}

mp_status mp_rawfix_accum_settled(const rawfix_accum *a, uint32_t more, int *settled,
                                  mp_error *err)
{
    *settled = 0;
    if (a->frames < RAWFIX_SETTLED_FRAMES || !a->blocks_x || !a->blocks_y)
        return MP_OK;
    uint8_t *moves = malloc((size_t)a->blocks_x * a->blocks_y + 1);
    if (!moves)
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for %ux%u blocks",
                            a->blocks_x, a->blocks_y);
    find_motion(a, moves);
    int still = 1;
    for (size_t b = 0; b < (size_t)a->blocks_x * a->blocks_y && still; b++)
        still = !moves[b];
    const uint32_t looks = distinct_frames(a);
    for (uint32_t y = 0; y < a->height && still; y++) {
        const uint16_t *lo = a->lo + (size_t)y * a->width, *hi = a->hi + (size_t)y * a->width;
        for (uint32_t x = 0; x < a->width && still; x++)
            still = lo[x] != hi[x] || !near_stuck(a, x, y, looks, more);
    }
    int could = 0;
    mp_status st = still ? quiet_could_pass(a, moves, &could, err) : MP_OK;
    free(moves);
    *settled = still && !could;
    return st;
}

/* Whether one of 8 flags holds a candidate (8 at a time in a 64-bit word). */
static int any_candidate8(const uint8_t *flag)
{
    uint64_t v;
    memcpy(&v, flag, sizeof v);
    return (v & 0x0101010101010101u * (CAND_POS | CAND_NEG)) != 0;
}

/* The candidates whose same-colour neighbours along the row and the column (x +- 2, y +- 2)
 * are not candidates of the same sign: the members of a focus-pixel lattice stand alone (the
 * repair needs those neighbours), while the static detail of a scene, even a periodic one (a
 * fence, a chart on a tripod), gives runs and clusters. Only these look for the lattice. */
static uint32_t isolated_candidates(const rawfix_accum *a, const uint8_t *flag, uint8_t *lone)
{
    const uint32_t w = a->width, h = a->height;
    uint32_t count = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const size_t i = (size_t)y * w + x;
            if (x + 8 <= w && !any_candidate8(flag + i)) {
                memset(lone + i, 0, 8);
                x += 7;
                continue;
            }
            const uint8_t s = flag[i] & (CAND_POS | CAND_NEG);
            int alone = s && !(x >= 2 && (flag[i - 2] & s)) && !(x + 2 < w && (flag[i + 2] & s)) &&
                        !(y >= 2 && (flag[i - 2 * (size_t)w] & s)) &&
                        !(y + 2 < h && (flag[i + 2 * (size_t)w] & s));
            lone[i] = alone ? s : 0;
            count += alone;
        }
    return count;
}

/* How far count[p] stands above the counts at the distances around it (the median of p +- 1
 * .. 3): clustered candidates (the edges of a static scene) raise every short distance
 * alike, a lattice raises its period alone. */
static int64_t excess_at(const uint32_t *count, uint32_t p, uint32_t *background)
{
    uint32_t near[6], k = 0;
    for (uint32_t q = p > 3 ? p - 3 : 1; q <= p + 3 && q <= RAWFIX_MAX_PERIOD; q++)
        if (q != p)
            near[k++] = count[q];
    for (uint32_t i = 1; i < k; i++)   /* insertion sort of at most 6 */
        for (uint32_t j = i; j > 0 && near[j - 1] > near[j]; j--) {
            uint32_t t = near[j];
            near[j] = near[j - 1];
            near[j - 1] = t;
        }
    *background = near[k / 2];
    return (int64_t)count[p] - near[k / 2];
}

/* Whether a distance's count of candidate pairs stands out: above chance, and above the
 * counts around it by PERIOD_SIGMAS times their scatter (about their square root: counts of
 * chance pairs) and PERIOD_CONTRAST times their level. */
static int stands_out(uint32_t count, int64_t excess, uint32_t background, double chance)
{
    return excess >= 16 && excess >= PERIOD_SIGMAS * sqrt(background) &&
           PERIOD_CONTRAST * (double)background <= count && count >= 4 * chance + 8;
}

/* The shortest distance at which candidates of one sign repeat along x (dx = 1) or y,
 * clearly above chance and above the distances around it; 0 when there is none. It divides
 * the distance that stands out most (the lattice repeats at every multiple of its period). */
static uint32_t find_period(const rawfix_accum *a, const uint8_t *flag, uint32_t candidates,
                            int along_x)
{
    const uint32_t w = a->width, h = a->height, len = along_x ? w : h;
    const size_t step = along_x ? 1 : w;
    uint32_t count[RAWFIX_MAX_PERIOD + 1] = {0};
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            if (x + 8 <= w && !any_candidate8(flag + i)) {   /* most samples are none */
                x += 7;
                continue;
            }
            uint8_t s = flag[i] & (CAND_POS | CAND_NEG);
            uint32_t at = along_x ? x : y;
            for (uint32_t p = 1; s && p <= RAWFIX_MAX_PERIOD && at + p < len; p++)
                count[p] += (flag[i + p * step] & s) != 0;
        }
    int64_t excess[RAWFIX_MAX_PERIOD + 1] = {0};
    uint32_t background[RAWFIX_MAX_PERIOD + 1] = {0}, best = 0;
    for (uint32_t p = 2; p <= RAWFIX_MAX_PERIOD; p++) {
        excess[p] = excess_at(count, p, &background[p]);
        if (!best || excess[p] > excess[best])
            best = p;
    }
    const double chance = (double)candidates * candidates / ((double)w * h);
    if (!best || !stands_out(count[best], excess[best], background[best], chance))
        return 0;
    /* a divisor that stands out too is the period (dual ISO: members of the two fields pair
     * up less often than members of one field, so twice the period may stand out more) */
    for (uint32_t p = 2; p < best; p++)
        if (best % p == 0 && stands_out(count[p], excess[p], background[p], chance))
            return p;
    return best;
}

/* The first and last cells of a row of counts holding at least an eighth of the fullest
 * one's: stray candidates beyond the lattice do not stretch it. */
static void dense_span(const uint32_t *count, uint32_t cells, uint32_t *first, uint32_t *last)
{
    uint32_t top = 0;
    for (uint32_t j = 0; j < cells; j++)
        top = count[j] > top ? count[j] : top;
    *first = 0;
    while (*first < cells && 8 * count[*first] < top)
        (*first)++;
    *last = cells ? cells - 1 : 0;
    while (*last > *first && 8 * count[*last] < top)
        (*last)--;
}

/* The lattice's box: the span of lattice cells (period x period) densely holding candidates
 * of its classes, stretched to the frame's edges where it stops within a period of them
 * (the outermost samples cannot be measured). */
static mp_status lattice_box(const rawfix_accum *a, const uint8_t *flag, rawfix_lattice *l,
                             mp_error *err)
{
    const uint32_t px = l->period_x, py = l->period_y;
    const uint32_t cx = (a->width + px - 1) / px, cy = (a->height + py - 1) / py;
    uint32_t *col = calloc(cx, sizeof *col), *row = calloc(cy, sizeof *row);
    if (!col || !row) {
        free(col);
        free(row);
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory");
    }
    for (uint32_t y = 0; y < a->height; y++)
        for (uint32_t x = 0; x < a->width; x++)
            if ((flag[(size_t)y * a->width + x] & (CAND_POS | CAND_NEG)) &&
                in_classes(l, x, y)) {
                col[x / px]++;
                row[y / py]++;
            }
    uint32_t j0, j1, k0, k1;
    dense_span(col, cx, &j0, &j1);
    dense_span(row, cy, &k0, &k1);
    free(col);
    free(row);
    l->x0 = j0 * px;
    l->y0 = k0 * py;
    l->x1 = (j1 + 1) * px;
    l->y1 = (k1 + 1) * py;
    if (l->x0 < px)
        l->x0 = 0;
    if (l->y0 < py)
        l->y0 = 0;
    if (l->x1 + px > a->width)
        l->x1 = a->width;
    if (l->y1 + py > a->height)
        l->y1 = a->height;
    return MP_OK;
}

typedef struct lattice_class {
    uint32_t hits, x0, y0, x1, y1;
} lattice_class;

static int by_hits(const void *pa, const void *pb)
{
    const uint32_t *a = pa, *b = pb;   /* {hits, index} */
    return a[0] != b[0] ? (a[0] < b[0] ? 1 : -1) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* The classes (residues mod the periods) that candidates fill, their box, and the box
 * stretched to the frame's edges where it stops within a period of them (the edges cannot
 * be measured). Returns 0 when no class qualifies or the pattern is not sparse. */
static mp_status find_classes(const rawfix_accum *a, const uint8_t *flag, rawfix_lattice *l,
                              mp_error *err)
{
    const uint32_t px = l->period_x, py = l->period_y, nc = px * py;
    lattice_class *cls = calloc(nc, sizeof *cls);
    uint32_t (*order)[2] = malloc(nc * sizeof *order);
    if (!cls || !order) {
        free(cls);
        free(order);
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory");
    }
    for (uint32_t k = 0; k < nc; k++)
        cls[k] = (lattice_class){0, UINT32_MAX, UINT32_MAX, 0, 0};
    for (uint32_t y = 0; y < a->height; y++)
        for (uint32_t x = 0; x < a->width; x++) {
            if (!(flag[(size_t)y * a->width + x] & (CAND_POS | CAND_NEG)))
                continue;
            lattice_class *c = &cls[(y % py) * px + x % px];
            c->hits++;
            c->x0 = x < c->x0 ? x : c->x0;
            c->y0 = y < c->y0 ? y : c->y0;
            c->x1 = x + 1 > c->x1 ? x + 1 : c->x1;
            c->y1 = y + 1 > c->y1 ? y + 1 : c->y1;
        }
    uint32_t kept = 0;
    for (uint32_t k = 0; k < nc; k++) {
        const lattice_class *c = &cls[k];
        if (c->hits < CLASS_MIN_HITS)
            continue;
        uint64_t sites = (uint64_t)residues_in(c->x0, c->x1, px, k % px) *
                         residues_in(c->y0, c->y1, py, k / px);
        if (c->hits >= CLASS_MIN_FILL * sites)
            order[kept][0] = c->hits, order[kept][1] = k, kept++;
    }
    qsort(order, kept, sizeof *order, by_hits);
    if (kept > RAWFIX_MAX_CLASSES)
        kept = RAWFIX_MAX_CLASSES;
    for (uint32_t j = 0; j < kept; j++) {
        l->class_x[j] = order[j][1] % px;
        l->class_y[j] = order[j][1] / px;
    }
    l->class_count = kept;
    free(cls);
    free(order);
    if (!kept || 4 * kept > nc) {
        memset(l, 0, sizeof *l);
        return MP_OK;
    }
    mp_status st = lattice_box(a, flag, l, err);
    /* A sensor's lattice repeats over its whole box (the EOS M's over 15-60 periods each way,
     * doc/rawfix.md); a scene's periodic detail that pairs up over a few cells is not one
     * (measured: the still benchmark scene under illumination jitter gave a 37x28 "lattice"
     * of one class over 27 x 2 cells) */
    if (st == MP_OK && (l->x1 - l->x0 < MIN_BOX_PERIODS * l->period_x ||
                        l->y1 - l->y0 < MIN_BOX_PERIODS * l->period_y))
        memset(l, 0, sizeof *l);
    return st;
}

typedef struct period_job {
    const rawfix_accum *a;
    const uint8_t *lone;
    uint32_t candidates;
    uint32_t period[2];   /* along y, along x */
} period_job;

/* find_period along y (part 0) or x (part 1) (mp_rawfix_parallel): the two directions are
 * independent scans of the whole frame, ~5 ms each at 1080p, which ran alone on the main
 * thread twice a segment (the settling test and the map; benchmarks.md §12, session 17). */
static void period_part(void *ctx, uint32_t along_x)
{
    period_job *pj = ctx;
    pj->period[along_x] = find_period(pj->a, pj->lone, pj->candidates, (int)along_x);
}

/* The lattice the isolated candidates (lone, candidates of them) show, without a camera's
 * map; period 0: none. */
static mp_status own_lattice(const rawfix_accum *a, const uint8_t *lone, uint32_t candidates,
                             rawfix_lattice *l, mp_error *err)
{
    memset(l, 0, sizeof *l);
    period_job pj = {a, lone, candidates, {0, 0}};
    mp_rawfix_parallel(&a->runner, 2, period_part, &pj);
    l->period_x = pj.period[1];
    l->period_y = pj.period[0];
    if (l->period_x && l->period_y)
        return find_classes(a, lone, l, err);
    memset(l, 0, sizeof *l);
    return MP_OK;
}

typedef struct ranked {
    float rank;
    uint32_t index;
} ranked;

static int by_rank(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->rank != b->rank)
        return a->rank < b->rank ? 1 : -1;
    return (a->index > b->index) - (a->index < b->index);
}

static int by_index(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    return (a->index > b->index) - (a->index < b->index);
}

static int single_at(const rawfix_lattice *l, const uint8_t *flag, uint32_t w, size_t i)
{
    return (flag[i] & STRONG) && !in_lattice(l, (uint32_t)(i % w), (uint32_t)(i / w));
}

/* Whether the single defect at i has more than CLUSTER_MAX others around it. */
static int clustered(const rawfix_accum *a, const rawfix_lattice *l, const uint8_t *flag,
                     size_t i)
{
    const uint32_t w = a->width, x = (uint32_t)(i % w), y = (uint32_t)(i / w);
    const uint32_t x0 = x > CLUSTER_REACH ? x - CLUSTER_REACH : 0;
    const uint32_t y0 = y > CLUSTER_REACH ? y - CLUSTER_REACH : 0;
    const uint32_t x1 = x + CLUSTER_REACH < w ? x + CLUSTER_REACH : w - 1;
    const uint32_t y1 = y + CLUSTER_REACH < a->height ? y + CLUSTER_REACH : a->height - 1;
    uint32_t others = 0;
    for (uint32_t v = y0; v <= y1; v++)
        for (uint32_t u = x0; u <= x1; u++)
            others += single_at(l, flag, w, (size_t)v * w + u);
    return others - 1 > CLUSTER_MAX;
}

/* The strong samples off the lattice, clusters left out (CLUSTER_REACH): the
 * RAWFIX_MAX_PIXELS strongest (rank), in raster order, of those with decisive evidence; the
 * others are counted and marked in left[], which holds on entry the sites of a lattice left
 * alone (not single defects either). */
static mp_status single_pixels(const rawfix_accum *a, const uint8_t *flag, const float *rank,
                               rawfix_map *m, uint8_t *left, mp_error *err)
{
    const size_t n = (size_t)a->width * a->height;
    uint32_t count = 0;
    for (size_t i = 0; i < n; i++)
        count += single_at(&m->lattice, flag, a->width, i) && !left[i];
    ranked *r = malloc((count ? count : 1) * sizeof *r);
    if (!r)
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory");
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (single_at(&m->lattice, flag, a->width, i) && !left[i] &&
            ((flag[i] & FAR) || rank[i] >= CLUSTER_SOLID || !clustered(a, &m->lattice, flag, i))) {
            left[i] = !(flag[i] & DECISIVE);
            if (left[i])
                m->left_alone++;
            else
                r[k++] = (ranked){rank[i], (uint32_t)i};
        }
    count = k;
    if (count > RAWFIX_MAX_PIXELS) {
        qsort(r, count, sizeof *r, by_rank);
        count = RAWFIX_MAX_PIXELS;
        qsort(r, count, sizeof *r, by_index);
    }
    m->pixels = malloc(2 * (size_t)(count ? count : 1) * sizeof *m->pixels);
    if (!m->pixels) {
        free(r);
        return mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory");
    }
    for (k = 0; k < count; k++) {
        m->pixels[2 * k] = r[k].index % a->width;
        m->pixels[2 * k + 1] = r[k].index / a->width;
    }
    m->pixel_count = count;
    free(r);
    return MP_OK;
}

mp_status mp_rawfix_map_build(const rawfix_accum *a, rawfix_map *m, mp_error *err)
{
    return mp_rawfix_map_build_prior(a, NULL, 0, m, NULL, err);
}

static mp_status build(const rawfix_accum *a, const rawfix_lattice *priors, uint32_t count,
                       int reference, rawfix_map *m, int *chosen, mp_error *err);

mp_status mp_rawfix_map_build_prior(const rawfix_accum *a, const rawfix_lattice *priors,
                                    uint32_t count, rawfix_map *m, int *chosen, mp_error *err)
{
    return build(a, priors, count, 0, m, chosen, err);
}

mp_status mp_rawfix_map_build_reference(const rawfix_accum *a, const rawfix_lattice *priors,
                                        uint32_t count, rawfix_map *m, int *chosen,
                                        mp_error *err)
{
    return build(a, priors, count, 1, m, chosen, err);
}

static mp_status build(const rawfix_accum *a, const rawfix_lattice *priors, uint32_t count,
                       int reference, rawfix_map *m, int *chosen, mp_error *err)
{
    int picked = -1;
    memset(m, 0, sizeof *m);
    m->width = a->width;
    m->height = a->height;
    m->frames = a->frames;
    for (uint32_t r = 0; r < RAWFIX_STRIPE_ROWS; r++)
        for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++)
            m->stripe_gain[r][c] = 1;
    if (a->frames < RAWFIX_MIN_FRAMES)
        return MP_OK;
    const size_t n = (size_t)a->width * a->height;
    uint8_t *flag = malloc(n), *lone = malloc(n);
    uint8_t *moves = malloc((size_t)a->blocks_x * a->blocks_y + 1);
    float *rank = malloc(n * sizeof *rank);
    mp_status st = MP_OK;
    if (!flag || !lone || !moves || !rank)
        st = mp_error_set(err, MP_ERR_NOMEM, "rawfix: out of memory for a %ux%u map",
                          a->width, a->height);
    /* measured (nothing clipped around it) in three quarters of the frames */
    const uint32_t min_used = 3 * a->frames / 4 > 3 ? 3 * a->frames / 4 : 3;
    rawfix_looks looks = {0};
    rawfix_lattice unproven = {0};   /* a lattice left alone (lattice_left_alone) */
    if (st == MP_OK)
        st = mp_rawfix_looks(a, min_used, &looks, err);
    if (st == MP_OK && looks.frame_looks < MIN_LOOKS) {
        memset(flag, 0, n);
        memset(&m->lattice, 0, sizeof m->lattice);
    } else if (st == MP_OK) {
        const int clip_moves = find_motion(a, moves) || reference;
        classify(a, &looks, min_used, moves, clip_moves, flag, rank);
        uint32_t candidates = isolated_candidates(a, flag, lone);
        st = mp_rawfix_prior_pick(a, min_used, priors, count, &picked, err);
        if (picked >= 0) {
            m->lattice = priors[picked];
        } else if (st == MP_OK) {
            st = own_lattice(a, lone, candidates, &m->lattice, err);
            /* a still scene's periodic detail repeats as steadily as a lattice (a fence, a
             * chart on a tripod): without motion only the camera's known map is taken */
            if (!clip_moves && m->lattice.period_x) {
                unproven = m->lattice;
                memset(&m->lattice, 0, sizeof m->lattice);
                m->lattice_left_alone = 1;
            }
        }
        if (st == MP_OK)
            st = take_quiet(a, m->lattice.period_x ? &m->lattice : &unproven, flag, NULL, err);
    }
    if (st == MP_OK && looks.frame_looks >= MIN_LOOKS)
        st = mark_clean(a, flag, min_used, m, err);
    if (st == MP_OK) {
        memset(lone, 0, n);
        for (uint32_t y = unproven.y0; y < unproven.y1; y++)
            for (uint32_t x = unproven.x0; x < unproven.x1; x++)
                lone[(size_t)y * a->width + x] = in_classes(&unproven, x, y);
        st = single_pixels(a, flag, rank, m, lone, err);
    }
    rawfix_plan sites = {0};
    if (st == MP_OK)
        st = mp_rawfix_plan_make(m, RAWFIX_FOCUS | RAWFIX_BAD, 0, &sites, err);
    if (st == MP_OK) {
        /* what is left alone may still be a defect: it stays out of the stripe sums */
        const uint8_t *outside = sites.is_site;
        const int left = m->left_alone || m->lattice_left_alone;
        if (left && !outside)
            outside = lone;
        else if (left)
            for (size_t i = 0; i < n; i++)
                sites.is_site[i] |= lone[i];
        mp_rawfix_build_stripes(a, outside, m);
    }
    mp_rawfix_plan_free(&sites);
    mp_rawfix_looks_free(&looks);
    free(flag);
    free(lone);
    free(moves);
    free(rank);
    if (st != MP_OK)
        mp_rawfix_map_free(m);
    if (chosen)
        *chosen = st == MP_OK ? picked : -1;
    return st;
}
