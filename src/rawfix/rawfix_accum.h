/* The accumulator's layout, shared by accum.c and the map builders. */
#ifndef MP_RAWFIX_ACCUM_H
#define MP_RAWFIX_ACCUM_H

#include "rawfix_priv.h"

enum { COUNT_USED, COUNT_POS, COUNT_NEG, COUNT_BIG, COUNT_CLIPPED_LOW, COUNT_CLIPPED_HIGH,
       COUNTS };

/* The clamped sums fit 16 bits (half the memory traffic of 32 for the pre-pass). */
_Static_assert(Z_SUM_CLAMP * RAWFIX_MAX_FRAMES <= INT16_MAX, "rawfix_accum.sum_h overflows");

struct rawfix_accum {
    uint32_t width, height;
    uint32_t frames;
    uint32_t vstep;                 /* the measurements' column step (0 before the first) */
    uint64_t added;                 /* bit per sample number */
    /* One array per quantity, each with an entry per sample (not one record per sample:
     * accum.c's loop then moves whole vectors of each, which the compiler vectorises). */
    int16_t *sum_h, *sum_v;         /* sums of zh and zv, each clamped to Z_SUM_CLAMP */
    uint8_t *count[COUNTS];         /* frames measured, zh and zv both > 0, both < 0, both
                                     * big with the same sign; frames where it was
                                     * RAWFIX_CLIPPED_LOW, RAWFIX_CLIPPED_HIGH */
    int32_t (*stripe)[2];           /* sums of rawfix_measurement.stripe */
    int32_t *zh_sum;                /* per sample: sum of zh, not clamped to Z_SUM_CLAMP */
    uint32_t *zh_sq;                /* ... and of its square: how much it varies between frames */
    uint16_t *lo, *hi;              /* per sample: its lowest and highest recorded value */
    uint32_t *value_sum;            /* per sample: the sum of its recorded values ... */
    uint64_t *value_sq;             /* ... and of their squares (map_quiet.c) */
    uint64_t *value_light;          /* ... and of their products with the light around them
                                     * (mp_rawfix_light), for the noise under a changing
                                     * light (map_quiet.c) */
    /* The frames' lowest noise sigma of a sample per row class and brightness bin, their
     * lowest white and black: what says that a sample which never changes is stuck
     * (map_build.c). */
    double sample_sigma[4 * RAWFIX_LEVEL_BINS];
    uint64_t signature[RAWFIX_MAX_FRAMES];  /* per sample number: its frame's signature */
    uint32_t blocks_x, blocks_y;    /* RAWFIX_BLOCK-square blocks of a frame */
    uint32_t *blocks;               /* per sample number: its frame's block sums
                                     * (rawfix_measurement.blocks) */
    int32_t white, black;
    rawfix_runner runner;           /* runs the parts of the map's passes (mp_rawfix_parallel) */
};

/* The light around a sample of block (j, k) and row class r in one frame: the sums of its row
 * class in the 3 x 3 blocks around (j, k) (those inside the frame), from that frame's block
 * sums; RAWFIX_BLOCK_CLIPPED where one of them holds a clipped sample. At most 9 x 64
 * samples of 16 bits: under 2^26. */
static inline uint32_t mp_rawfix_light(const uint32_t *frame_blocks, uint32_t blocks_x,
                                       uint32_t blocks_y, uint32_t j, uint32_t k, uint32_t r)
{
    uint32_t sum = 0;
    for (uint32_t v = k ? k - 1 : 0; v <= k + 1 && v < blocks_y; v++)
        for (uint32_t u = j ? j - 1 : 0; u <= j + 1 && u < blocks_x; u++) {
            const uint32_t s = frame_blocks[((size_t)v * blocks_x + u) * RAWFIX_BLOCK_SUMS + r];
            if (s == RAWFIX_BLOCK_CLIPPED)
                return RAWFIX_BLOCK_CLIPPED;
            sum += s;
        }
    return sum;
}

/* map_stripes.c: the map's stripe gains from the sums, leaving out samples whose stripe
 * window holds a defect (is_site, a width x height bitmap, or NULL). */
void mp_rawfix_build_stripes(const rawfix_accum *a, const uint8_t *is_site, rawfix_map *m);

/* map_looks.c: per tile of RAWFIX_LOOKS_TILE x RAWFIX_LOOKS_TILE samples, how many
 * independent looks the frames give (1 .. frames), from the samples measured in at least
 * min_used frames; tiles with few such samples take the frame's. */
#define RAWFIX_LOOKS_TILE 32
typedef struct rawfix_looks {
    uint32_t tiles_x;
    double frame_looks;
    double *looks;
} rawfix_looks;

mp_status mp_rawfix_looks(const rawfix_accum *a, uint32_t min_used, rawfix_looks *out,
                          mp_error *err);
void mp_rawfix_looks_free(rawfix_looks *l);

static inline double mp_rawfix_looks_at(const rawfix_looks *l, uint32_t x, uint32_t y)
{
    return l->looks[(size_t)(y / RAWFIX_LOOKS_TILE) * l->tiles_x + x / RAWFIX_LOOKS_TILE];
}

/* map_quiet.c: the noise variance of a block's row-class sum (less black): its
 * RAWFIX_BLOCK^2 / 4 samples at their mean level, with the lowest noise the frames showed
 * (map_build.c's motion, map_quiet.c's steady light). */
double mp_rawfix_block_noise(const rawfix_accum *a, uint32_t row_class, double sum);

/* map_quiet.c: the clip's noise per row class and level, for the test of a sample too quiet
 * for its level (a clean sensor makes none). */
typedef struct rawfix_noise_line {
    double level[4 * RAWFIX_LEVEL_BINS];    /* per row class and bin: mean level above black */
    double var[4 * RAWFIX_LEVEL_BINS];      /* ... the clean noise variance there (DN^2) */
    uint8_t known[4 * RAWFIX_LEVEL_BINS];
    double dof;                             /* of a sample's variance */
} rawfix_noise_line;

typedef struct rawfix_quiet {
    int usable;                             /* 0: no test */
    uint8_t *steady;                        /* per block: bit r, steady light in row class r
                                             * over its 3 x 3 blocks */
    uint8_t *linear;                        /* ... light that changes, but each of the 3 x 3
                                             * blocks in proportion to the light around it */
    double *light_sum, *light_sq;           /* per block and row class: the sums over the
                                             * frames of mp_rawfix_light and its square */
    rawfix_noise_line still;                /* the variance where the light is steady */
    rawfix_noise_line lit;                  /* the variance about the line on the light, where
                                             * it is not steady but linear */
} rawfix_quiet;

/* The model from the sums; looks: the distinct frames (the variance's degrees of freedom + 1). */
mp_status mp_rawfix_quiet_model(const rawfix_accum *a, uint32_t looks, rawfix_quiet *q,
                                mp_error *err);
void mp_rawfix_quiet_free(rawfix_quiet *q);
/* The sample's variance between the frames (under a changing light: about its line on the
 * light; *lit says which) over the clean noise at its level; INFINITY where it is not tested
 * (light neither steady nor linear, clipped, at 0, a level the model does not cover). */
double mp_rawfix_quiet_ratio(const rawfix_accum *a, const rawfix_quiet *q, uint32_t x,
                             uint32_t y, int *lit);
/* The ratio below which a sample is too quiet when `tests` samples are tested, so that as many
 * as `false_sites` clean ones fall below it: those with the steady light's variance (lit 0) or
 * the changing light's (lit 1). */
#define RAWFIX_QUIET_FALSE 1e-3     /* false sites per map */
double mp_rawfix_quiet_limit(const rawfix_quiet *q, uint64_t tests, int lit, double false_sites);
/* Per row class: whether the clip shows that its recorded black is the photosites' (dark areas
 * whose means lie at it, few below), for mp_rawfix_below_black. */
void mp_rawfix_black_shown(const rawfix_accum *a, uint8_t shown[4]);
/* Whether the sample at (x, y) lies on average over the frames further below black than the
 * light a clean photosite records and its noise allow, while its same-colour neighbours do
 * not (a weak or dead pixel in the dark; no scene is darker than black), in a row class
 * whose black is shown. */
int mp_rawfix_below_black(const rawfix_accum *a, const uint8_t shown[4], uint32_t x, uint32_t y);

#endif
