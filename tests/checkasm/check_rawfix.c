/* checkasm: rawfix_measure's and rawfix_accum's row kernels (rawfix/rawfix_dsp.h) against C,
 * bit for bit (the sums from the rows' deviations, special values and clamps mixed in; the
 * stripe correction with gains near 1 and far off), on
 * random rows: every width from 5 (the least rawfix_measure takes) to 40, which covers the
 * stripe window's edge cases (w <= 16: no window), then random widths; samples around
 * black, clipped ones, zeros and the 16-bit maximum mixed in; white levels below and above
 * the samples' range; noise sigmas from a fraction of a DN to thousands, so the z values
 * reach the clamp and rounding ties occur. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "checkasm.h"
#include "rawfix/rawfix.h"
#include "rawfix/rawfix_dsp.h"

enum { RW = 1920, WORK = 11 };

typedef struct rawfix_buf {
    uint16_t rows[3][RW];
    int32_t work[WORK][RW];
    double sigma[RAWFIX_LEVEL_BINS];
    float sigma_float[RAWFIX_LEVEL_BINS];
    int16_t zh[RW], zv[RW];
    int32_t stripe[RW][2];
} rawfix_buf;

static rawfix_row row_for(rawfix_buf *b, uint32_t w, int32_t white, int32_t black)
{
    return (rawfix_row){.c = b->rows[1], .u = b->rows[0], .d = b->rows[2], .w = w,
                        .white = white, .black = black, .dh2 = b->work[0],
                        .dv2 = b->work[1], .bin_h = b->work[2], .bin_v = b->work[3],
                        .ok = b->work[4], .act = b->work[5], .left = b->work[6],
                        .right = b->work[7], .win_max = b->work[8], .sigma = b->sigma,
                        .sigma_float = b->sigma_float, .sigma_h = (float *)b->work[9],
                        .light = (uint32_t *)b->work[10],
                        .zh = b->zh, .zv = b->zv, .stripe = b->stripe};
}

static uint16_t sample(int32_t black, int32_t white)
{
    switch (rnd() % 16) {
    case 0: return (uint16_t)white;
    case 1: return (uint16_t)(white + rnd() % 64);
    case 2: return 0;
    case 3: return 65535;
    case 4: case 5: return (uint16_t)(black + rnd() % 8);      /* at black: zero bins */
    default: {
        uint32_t level = rnd() % 3 ? 1u << (rnd() % 14) : rnd() % 16384;
        return (uint16_t)((uint32_t)black + level + rnd() % 40) & 0xffff;
    }
    }
}

static void fill(rawfix_buf *b, uint32_t w, int32_t black, int32_t white)
{
    for (int r = 0; r < 3; r++)
        for (uint32_t x = 0; x < w; x++)
            b->rows[r][x] = sample(black, white);
    /* binary fractions; rawfix_measure's (1.4826 x (a + 0.5) / 2, some of which round to a
     * float with other stripe limits, mp_rawfix_float_sigmas); just under 1 / 16 steps */
    for (int k = 0; k < RAWFIX_LEVEL_BINS; k++)
        switch (rnd() % 8) {
        case 0: b->sigma[k] = (rnd() % 5 + 1) * 0.5; break;
        case 1: b->sigma[k] = 1.4826 * (rnd() % 2049 + 0.5) / 2; break;
        case 2: b->sigma[k] = nextafter((rnd() % 4000 + 4) / 16.0, 0); break;
        default: b->sigma[k] = 0.25 + (rnd() % 4000) / 16.0; break;
        }
    mp_rawfix_float_sigmas(b->sigma, b->sigma_float);
    memset(b->work, 0x5a, sizeof b->work);      /* what the kernels leave alone stays equal */
    memset(b->zh, 0x5a, sizeof b->zh);
    memset(b->zv, 0x5a, sizeof b->zv);
    memset(b->stripe, 0x5a, sizeof b->stripe);
}

static void run(const rawfix_dsp *d, rawfix_buf *b, uint32_t w, int32_t white, int32_t black)
{
    rawfix_row r = row_for(b, w, white, black);
    d->diffs(&r);
    d->texture(&r);
    d->z(&r);
}

static int same(const char *what, const void *a, const void *b, size_t n, uint32_t w)
{
    if (!memcmp(a, b, n))
        return 1;
    fprintf(stderr, "  rawfix %s differs (width %u)\n", what, w);
    return 0;
}

/* A row's sums over frames (rawfix_sums), as the accumulator holds them after some frames. */
typedef struct sums_buf {
    uint16_t lo[RW], hi[RW];
    int32_t stripe_sum[RW][2];
    int16_t sum_h[RW], sum_v[RW];
    int32_t zh_sum[RW];
    uint32_t zh_sq[RW];
    uint32_t value_sum[RW];
    uint64_t value_sq[RW];
    uint32_t light[RW];
    uint64_t value_light[RW];
    uint8_t used[RW], pos[RW], neg[RW], big[RW];
} sums_buf;

static void fill_sums(sums_buf *s, rawfix_buf *b, uint32_t w)
{
    for (uint32_t x = 0; x < w; x++) {
        s->lo[x] = (uint16_t)(rnd() % 65536);
        s->hi[x] = (uint16_t)(rnd() % 65536);
        s->stripe_sum[x][0] = (int32_t)(rnd() % 1000000) - 500000;
        s->stripe_sum[x][1] = (int32_t)(rnd() % 1000000);
        s->sum_h[x] = (int16_t)(rnd() % 8000) - 4000;
        s->sum_v[x] = (int16_t)(rnd() % 8000) - 4000;
        s->zh_sum[x] = (int32_t)(rnd() % 200000) - 100000;
        s->zh_sq[x] = rnd() % 200000000u;
        s->value_sum[x] = rnd() % 4000000u;
        s->value_sq[x] = (uint64_t)rnd() * (rnd() % 4096);
        s->light[x] = rnd() % 8 ? rnd() % (1u << 26) : 0;     /* 0: clipped around */
        s->value_light[x] = (uint64_t)rnd() * (rnd() % 65536);
        s->used[x] = (uint8_t)(rnd() % 60);
        s->pos[x] = (uint8_t)(rnd() % 60);
        s->neg[x] = (uint8_t)(rnd() % 60);
        s->big[x] = (uint8_t)(rnd() % 60);
        /* the special values beside measured ones, at both clamps */
        switch (rnd() % 8) {
        case 0: b->zh[x] = RAWFIX_NO_Z; break;
        case 1: b->zh[x] = RAWFIX_CLIPPED_LOW; break;
        case 2: b->zh[x] = RAWFIX_CLIPPED_HIGH; break;
        case 3: b->zh[x] = (int16_t)(rnd() % 2 ? 2000 : -2000); break;
        default: break;
        }
    }
}

static void run_sums(const rawfix_dsp *d, const rawfix_buf *b, sums_buf *s, uint32_t w)
{
    const rawfix_sums r = {
        .n = w, .values = b->rows[1], .zh = b->zh, .zv = b->zv,
        .stripe = (const int32_t(*)[2])b->stripe, .lo = s->lo, .hi = s->hi,
        .stripe_sum = s->stripe_sum, .sum_h = s->sum_h, .sum_v = s->sum_v,
        .zh_sum = s->zh_sum, .zh_sq = s->zh_sq, .value_sum = s->value_sum,
        .value_sq = s->value_sq, .light = w % 2 ? s->light : NULL,
        .value_light = s->value_light, .used = s->used, .pos = s->pos,
        .neg = s->neg, .big = s->big};
    d->sums(&r);
}

int checkasm_rawfix(mp_cpu_level level, int rounds, int *checked, uint64_t *hash)
{
    const rawfix_dsp *ref = mp_rawfix_dsp_for(MP_CPU_C), *d = mp_rawfix_dsp_for(level);
    static rawfix_buf a, b;
    int failures = 0;
    for (int round = 0; round < rounds && failures < 5; round++) {
        uint32_t w = round < 36 ? 5 + (uint32_t)round : 5 + rnd() % (RW - 4);
        int32_t black = (int32_t)(rnd() % 2049);
        int32_t white = rnd() % 4 ? black + 1000 + (int32_t)(rnd() % 15000) :
                        (int32_t)(65536 + rnd() % 4);      /* nothing clips */
        fill(&a, w, black, white);
        b = a;
        run(ref, &a, w, white, black);
        run(d, &b, w, white, black);
        *hash = checkasm_hash(*hash, b.work, sizeof b.work);
        *hash = checkasm_hash(*hash, b.zh, sizeof b.zh);
        *hash = checkasm_hash(*hash, b.zv, sizeof b.zv);
        *hash = checkasm_hash(*hash, b.stripe, sizeof b.stripe);
        if (!(same("work rows", a.work, b.work, sizeof a.work, w) &&
              same("zh", a.zh, b.zh, sizeof a.zh, w) && same("zv", a.zv, b.zv, sizeof a.zv, w) &&
              same("stripe", a.stripe, b.stripe, sizeof a.stripe, w))) {
            fprintf(stderr, "checkasm: %s rawfix rows differ from C: width %u, black %d, "
                    "white %d (round %d)\n", mp_cpu_level_name(level), w, black, white, round);
            failures++;
        }
        static sums_buf sa, sb;
        memset(&sa, 0, sizeof sa);      /* the hash covers the whole rows */
        fill_sums(&sa, &b, w);
        sb = sa;
        run_sums(ref, &b, &sa, w);
        run_sums(d, &b, &sb, w);
        *hash = checkasm_hash(*hash, &sb, sizeof sb);
        if (!same("sums", &sa, &sb, sizeof sa, w)) {
            fprintf(stderr, "checkasm: %s rawfix sums differ from C: width %u (round %d)\n",
                    mp_cpu_level_name(level), w, round);
            failures++;
        }
        static uint16_t ra[RW], rb[RW];
        static float gain[RW];
        for (uint32_t x = 0; x < w; x++)    /* stripe gains, also far off (a NaN never) */
            gain[x] = rnd() % 8 ? 0.99f + (float)(rnd() % 2000) / 1e5f : (float)(rnd() % 400) / 100;
        memcpy(ra, a.rows[1], sizeof ra);
        memcpy(rb, a.rows[1], sizeof rb);
        ref->destripe(ra, w, gain, (float)black, (uint32_t)white);
        d->destripe(rb, w, gain, (float)black, (uint32_t)white);
        *hash = checkasm_hash(*hash, rb, w * sizeof *rb);
        if (!same("destripe", ra, rb, sizeof ra, w)) {
            fprintf(stderr, "checkasm: %s rawfix destripe differs from C: width %u (round %d)\n",
                    mp_cpu_level_name(level), w, round);
            failures++;
        }
        (*checked)++;
    }
    return failures;
}

void checkasm_rawfix_once(mp_cpu_level level)
{
    static rawfix_buf b;
    fill(&b, RW, 2048, 15000);
    run(mp_rawfix_dsp_for(level), &b, RW, 15000, 2048);
}

void checkasm_rawfix_bench(void)
{
    static rawfix_buf fresh, buf;
    fill(&fresh, RW, 2048, 15000);
    printf("rawfix rows, ns/pixel (CPU time, best of 5 x 200 rows of %d)\n", RW);
    for (int l = MP_CPU_C; l < MP_CPU_LEVELS; l++) {
        if (!mp_cpu_has((mp_cpu_level)l))
            continue;
        const rawfix_dsp *d = mp_rawfix_dsp_for((mp_cpu_level)l);
        double best = 1e30;
        for (int batch = 0; batch < 5; batch++) {
            double t = 0;
            for (int i = 0; i < 200; i++) {
                memcpy(&buf, &fresh, sizeof buf);
                double t0 = cpu_now();
                run(d, &buf, RW, 15000, 2048);
                t += cpu_now() - t0;
            }
            best = t < best ? t : best;
        }
        printf("  %-5s diffs + texture + z %6.3f\n", mp_cpu_level_name(l), best * 1e9 / (200.0 * RW));
    }
}
