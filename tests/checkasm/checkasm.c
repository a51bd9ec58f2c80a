/* checkasm: every SIMD kernel against its C reference, bit for bit, at every instruction-set
 * level this CPU has, on random rows of random widths (not multiples of any vector width)
 * with the edge cases mixed in: clipped samples, values in the fade bands where the kernels
 * fall back to cosf per lane, negative levels, column ranges starting and ending anywhere;
 * then whole frames through the modules (check_frames.c). Every level sees the same rows
 * (the generator restarts from the seed), and each line ends with a hash of the outputs
 * (the C reference's, when the level passes): with the same seed and rounds, a build for
 * another architecture must print the same hashes (tests/checkasm/cross_arm64.sh).
 * With --bench, the time per pixel of every kernel at every level; --run KERNEL LEVEL runs one
 * kernel once on the --bench row and nothing else (for instruction counts under an emulator,
 * tools/bench/neon_insns.sh; KERNEL none, blend_noise, blend_mix, rawfix_rows, develop_none,
 * develop_load, develop_near, develop_grade, develop_encode, develop_yuv422 or rcd).
 * Usage: checkasm [--seed N] [--rounds N] [--bench] [--run KERNEL LEVEL] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "checkasm.h"
#include "dualiso/dsp.h"

enum { MAX_W = 1920, TEST_W = 700, BENCH_W = MAX_W };

uint64_t rng_state;

uint64_t checkasm_hash(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

static float rnd_float(float lo, float hi)
{
    return lo + (hi - lo) * (float)(rnd() & 0xffffff) / (float)0x1000000;
}

/* One row's buffers; a test runs the C kernel on one copy and the SIMD one on another. */
typedef struct row_buf {
    float nat[MAX_W], mis[MAX_W], lev_mean[MAX_W], est[MAX_W], vn[MAX_W], vo[MAX_W], ex[MAX_W];
    uint8_t nclip[MAX_W], est_clip[MAX_W], est_mid[MAX_W];
    uint16_t dst[MAX_W];
} row_buf;

static const float CLIP_B = 4000, NB = 0.4f;

/* A level that often falls in one of the bands where the kernels take cosf. */
static float level_sample(void)
{
    switch (rnd() % 6) {
    case 0: return rnd_float(0.7f * CLIP_B, 0.92f * CLIP_B);  /* fade band */
    case 1: return rnd_float(2 * NB, 6 * NB);                 /* shadow band */
    case 2: return rnd_float(-3, 0.5f);                       /* at and below black */
    case 3: return (float)(rnd() % 5) * NB;                   /* band edges exactly */
    default: return rnd_float(-5, 1.2f * CLIP_B);
    }
}

static void fill(row_buf *b, uint32_t w, int clip_rate)
{
    for (uint32_t x = 0; x < w; x++) {
        b->lev_mean[x] = level_sample();
        b->nat[x] = b->lev_mean[x] + rnd_float(-30, 30);
        b->est[x] = rnd() % 8 ? b->lev_mean[x] + rnd_float(-30, 30) : level_sample();
        b->mis[x] = rnd() % 4 ? rnd_float(0, 5) : rnd_float(0, 3000);
        b->vn[x] = rnd_float(0.01f, 100);
        b->vo[x] = rnd_float(0.01f, 100);
        b->ex[x] = rnd_float(-200, 2000);
        b->nclip[x] = (uint8_t)(rnd() % 100 < (uint32_t)clip_rate);
        b->est_clip[x] = (uint8_t)(rnd() % 100 < (uint32_t)clip_rate);
        b->est_mid[x] = (uint8_t)(rnd() % 3 != 0);
        b->dst[x] = 0xdead;
    }
}

static dualiso_blend_row row_for(row_buf *b, uint32_t w, int bright, int shadow)
{
    return (dualiso_blend_row){
        .w = w, .bright = bright, .shadow = shadow, .nat = b->nat, .mis = b->mis,
        .lev_mean = b->lev_mean, .est = b->est, .vn = b->vn, .vo = b->vo, .ex = b->ex,
        .nclip = b->nclip, .est_clip = b->est_clip, .est_mid = b->est_mid, .dst = b->dst,
        .var_d = 43.56f, .var_b = NB * NB, .gain = 0.27f, .clip_floor = 0.98f * CLIP_B,
        .fade_lo = 0.7f * CLIP_B, .fade_span = 0.22f * CLIP_B, .shadow_lo = 2 * NB,
        .shadow_span = 4 * NB, .alias_k = 0.72f, .ob = 8192, .oscale = 4, .owhite = 61132};
}

static int same_floats(const char *what, const float *a, const float *b, uint32_t w)
{
    for (uint32_t x = 0; x < w; x++)
        if (memcmp(&a[x], &b[x], sizeof a[x])) {
            fprintf(stderr, "  %s[%u]: C %.9g, SIMD %.9g\n", what, x, a[x], b[x]);
            return 0;
        }
    return 1;
}

static int check_level(mp_cpu_level level, int rounds, int *checked, uint64_t *hash)
{
    const dualiso_dsp *ref = mp_dualiso_dsp_for(MP_CPU_C), *d = mp_dualiso_dsp_for(level);
    static row_buf a, b;
    int failures = 0;
    for (int round = 0; round < rounds && failures < 5; round++) {
        uint32_t w = 1 + rnd() % (TEST_W - 1);
        if (round < 24)
            w = 1 + (uint32_t)round; /* every width up to three AVX2 vectors */
        uint32_t x0 = rnd() % 4 ? 0 : rnd() % w, x1 = rnd() % 4 ? w : x0 + rnd() % (w - x0 + 1);
        /* shadow 0 (off), 1 (smoothing) or 2 (its weights only: small ISO gaps) */
        int bright = (int)(rnd() & 1), shadow = (int)(rnd() % 4);
        shadow = shadow == 3 ? 2 : shadow;
        fill(&a, w, (int)(rnd() % 3) * 20);
        b = a;
        dualiso_blend_row ra = row_for(&a, w, bright, shadow), rb = row_for(&b, w, bright, shadow);
        ref->blend_noise(&ra, x0, x1);
        d->blend_noise(&rb, x0, x1);
        int ok = same_floats("est", a.est, b.est, w) && same_floats("vn", a.vn, b.vn, w) &&
                 same_floats("vo", a.vo, b.vo, w) && same_floats("ex", a.ex, b.ex, w);
        ref->blend_mix(&ra, x0, x1);
        d->blend_mix(&rb, x0, x1);
        for (uint32_t x = 0; ok && x < w; x++)
            if (a.dst[x] != b.dst[x]) {
                fprintf(stderr, "  dst[%u]: C %u, SIMD %u\n", x, a.dst[x], b.dst[x]);
                ok = 0;
            }
        *hash = checkasm_hash(*hash, b.est, sizeof b.est[0] * w);
        *hash = checkasm_hash(*hash, b.vn, sizeof b.vn[0] * w);
        *hash = checkasm_hash(*hash, b.vo, sizeof b.vo[0] * w);
        *hash = checkasm_hash(*hash, b.ex, sizeof b.ex[0] * w);
        *hash = checkasm_hash(*hash, b.dst, sizeof b.dst[0] * w);
        if (!ok) {
            fprintf(stderr, "checkasm: %s blend differs from C: width %u, columns %u..%u, "
                    "bright %d, shadow %d (round %d)\n", mp_cpu_level_name(level), w, x0, x1,
                    bright, shadow, round);
            failures++;
        }
        (*checked)++;
    }
    return failures;
}

/* The denoise kernels: the weights of DUALISO_DN_GROUP offsets and their gather, on
 * random rows (signals a few noise units apart or far, some clipped: a huge inverse
 * variance), at random widths and column ranges with margins, as denoise.c calls them. */
enum { DN_M = 24, DN_ROW_W = TEST_W + 2 * DN_M };

typedef struct dn_buf {
    float s[2 + DUALISO_DN_GROUP][DN_ROW_W], iv[2 + DUALISO_DN_GROUP][DN_ROW_W];
    float h[3 * DUALISO_DN_GROUP][DN_ROW_W], t[DUALISO_DN_GROUP][DN_ROW_W];
    float q[2 * DUALISO_DN_GROUP][DN_ROW_W], num[DN_ROW_W], den[DN_ROW_W];
} dn_buf;

static void dn_fill(dn_buf *b)
{
    const float base = rnd_float(0, 3000);
    for (int r = 0; r < 2 + DUALISO_DN_GROUP; r++)
        for (int x = 0; x < DN_ROW_W; x++) {
            b->s[r][x] = base + (rnd() % 8 ? rnd_float(-6, 6) : rnd_float(-500, 500));
            b->iv[r][x] = rnd() % 50 ? rnd_float(0.01f, 0.5f) : 1e12f;
        }
    for (int r = 0; r < 3 * DUALISO_DN_GROUP; r++)
        for (int x = 0; x < DN_ROW_W; x++)
            b->h[r][x] = rnd() % 4 ? rnd_float(0, 20) : rnd_float(0, 1e6f);
    for (int r = 0; r < 2 * DUALISO_DN_GROUP; r++)
        for (int x = 0; x < DN_ROW_W; x++)
            b->q[r][x] = rnd_float(0, 1);
    for (int x = 0; x < DN_ROW_W; x++) {
        b->num[x] = b->s[0][x];
        b->den[x] = 1;
        for (int i = 0; i < DUALISO_DN_GROUP; i++)
            b->t[i][x] = 0;
    }
}

static void dn_run(const dualiso_dsp *d, dn_buf *b, int32_t x0, int32_t x1, const int *ox)
{
    dualiso_dn_row k = {.s0 = b->s[0] + DN_M, .iv0 = b->iv[0] + DN_M, .x0 = x0, .x1 = x1,
                        .c0 = 1.5f, .slope = 1 / 30.0f};
    dualiso_dn_row one[DUALISO_DN_GROUP];
    dualiso_dn_gather g = {.num = b->num + DN_M, .den = b->den + DN_M, .x0 = x0, .x1 = x1};
    for (int i = 0; i < DUALISO_DN_GROUP; i++) {
        one[i] = k;
        one[i].s1 = b->s[2 + i] + DN_M + ox[i];
        one[i].iv1 = b->iv[2 + i] + DN_M + ox[i];
        one[i].h0 = b->h[3 * i] + DN_M;
        one[i].h1 = b->h[3 * i + 1] + DN_M;
        one[i].h2 = b->h[3 * i + 2] + DN_M;
        one[i].t = b->t[i] + DN_M;
        one[i].q = b->q[i] + DN_M;
        d->dn_weights(&one[i]);
        g.qp[i] = b->q[i] + DN_M;
        g.sp[i] = b->s[2 + i] + DN_M + ox[i];
        g.qm[i] = b->q[DUALISO_DN_GROUP + i] + DN_M - ox[i];
        g.sm[i] = b->s[1] + DN_M - ox[i];
    }
    d->dn_gather(&g);
}

static int check_denoise(mp_cpu_level level, int rounds, int *checked, uint64_t *hash)
{
    const dualiso_dsp *ref = mp_dualiso_dsp_for(MP_CPU_C), *d = mp_dualiso_dsp_for(level);
    static dn_buf a, b;
    int failures = 0;
    for (int round = 0; round < rounds && failures < 5; round++) {
        int32_t n = round < 24 ? round + 1 : (int32_t)(1 + rnd() % (TEST_W - 2 * DN_M));
        int32_t x0 = -(int32_t)(rnd() % 8), x1 = x0 + n;
        int ox[DUALISO_DN_GROUP];
        for (int i = 0; i < DUALISO_DN_GROUP; i++)
            ox[i] = 2 * (int)(rnd() % 7) - 6;
        dn_fill(&a);
        b = a;
        dn_run(ref, &a, x0, x1, ox);
        dn_run(d, &b, x0, x1, ox);
        int ok = same_floats("num", a.num, b.num, DN_ROW_W) &&
                 same_floats("den", a.den, b.den, DN_ROW_W);
        for (int i = 0; ok && i < DUALISO_DN_GROUP; i++)
            ok = same_floats("h2", a.h[3 * i + 2], b.h[3 * i + 2], DN_ROW_W) &&
                 same_floats("q", a.q[i], b.q[i], DN_ROW_W);
        *hash = checkasm_hash(*hash, b.num, sizeof b.num);
        *hash = checkasm_hash(*hash, b.den, sizeof b.den);
        if (!ok) {
            fprintf(stderr, "checkasm: %s denoise differs from C: columns %d..%d (round %d)\n",
                    mp_cpu_level_name(level), x0, x1, round);
            failures++;
        }
        (*checked)++;
    }
    return failures;
}

/* dualiso_fade_of(a, span) against the plain dualiso_smooth_fade(a / span) it replaces:
 * levels around and exactly at both band ends (where the quotient rounds to 0 or 1), signed
 * zeros, tiny and huge spans. Returns the number of differences. */
static int check_fade(int rounds)
{
    int failures = 0;
    for (int i = 0; i < rounds * 50 && failures < 5; i++) {
        float span = rnd() % 8 ? rnd_float(1e-3f, 1e4f) : (rnd() % 2 ? 1e-30f : 3e38f);
        float a;
        switch (rnd() % 6) {
        case 0: a = span; break;
        case 1: a = nextafterf(span, (rnd() % 2) ? 0 : INFINITY); break;
        case 2: a = rnd() % 2 ? 0.0f : -0.0f; break;
        case 3: a = span * (1 - rnd_float(0, 1e-6f)); break;
        default: a = rnd_float(-0.5f, 1.5f) * span; break;
        }
        float x = dualiso_fade_of(a, span), y = dualiso_smooth_fade(a / span);
        if (memcmp(&x, &y, sizeof x)) {
            fprintf(stderr, "checkasm: fade of %.9g over %.9g is %.9g, the quotient's %.9g\n",
                    a, span, x, y);
            failures++;
        }
    }
    return failures;
}

double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ns per pixel of one kernel at one level: best of 5 batches over a 1920-wide row. */
static double bench_fn(const dualiso_dsp *d, int mix, row_buf *buf, const row_buf *fresh)
{
    double best = 1e30;
    enum { REPS = 200 };
    for (int batch = 0; batch < 5; batch++) {
        double t = 0;
        for (int i = 0; i < REPS; i++) {
            memcpy(buf, fresh, sizeof *buf);
            dualiso_blend_row r = row_for(buf, BENCH_W, i & 1, 1);
            double t0 = cpu_now();
            (mix ? d->blend_mix : d->blend_noise)(&r, 0, BENCH_W);
            t += cpu_now() - t0;
        }
        if (t < best)
            best = t;
    }
    return best * 1e9 / ((double)REPS * BENCH_W);
}

/* The --bench row: levels of a log ramp over 14 EV, as across the benchmark scene (few in
 * the fade bands). */
static void bench_row(row_buf *fresh)
{
    fill(fresh, BENCH_W, 5);
    for (uint32_t x = 0; x < BENCH_W; x++) {
        fresh->lev_mean[x] = exp2f(-1 + 14.0f * (float)x / BENCH_W);
        fresh->nat[x] = fresh->lev_mean[x] + rnd_float(-3, 3);
        fresh->est[x] = fresh->lev_mean[x] + rnd_float(-3, 3);
    }
}

/* --run: one kernel once on the bench row (none: only the set-up, to subtract). */
static int run_once(const char *kernel, const char *level_name)
{
    static row_buf b;
    int level = mp_cpu_level_from_name(level_name);
    if (level < 0 || !mp_cpu_has((mp_cpu_level)level)) {
        fprintf(stderr, "checkasm: level %s is not available\n", level_name);
        return 2;
    }
    bench_row(&b);
    dualiso_blend_row r = row_for(&b, BENCH_W, 1, 1);
    const dualiso_dsp *d = mp_dualiso_dsp_for((mp_cpu_level)level);
    if (!strcmp(kernel, "blend_noise"))
        d->blend_noise(&r, 0, BENCH_W);
    else if (!strcmp(kernel, "blend_mix"))
        d->blend_mix(&r, 0, BENCH_W);
    else if (!strcmp(kernel, "rawfix_rows"))
        checkasm_rawfix_once((mp_cpu_level)level);
    else if (strcmp(kernel, "none") && checkasm_develop_once((mp_cpu_level)level, kernel)) {
        fprintf(stderr, "checkasm: unknown kernel %s\n", kernel);
        return 2;
    }
    return 0;
}

/* The statistics' frame loops (stats_body.h): random frames of random sizes (cells of one
 * to a few dozen columns, odd widths), bit depths, black and white levels, row phases and
 * CFA patterns, with clipped samples and runs of the largest value mixed in; the sums
 * compared whole. */
static int check_stats(mp_cpu_level level, int rounds, int *checked, uint64_t *hash)
{
    static uint16_t data[700 * 40];
    dualiso_stats_acc *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    const dualiso_stats_fn ref = mp_dualiso_stats_frame_for(MP_CPU_C);
    const dualiso_stats_fn d = mp_dualiso_stats_frame_for(level);
    int failures = 0;
    for (int round = 0; a && b && round < rounds && failures < 5; round++) {
        const uint32_t bits = 10 + rnd() % 7, top = (1u << bits) - 1;
        mp_frame f = {.width = 1 + rnd() % 700, .height = 1 + rnd() % 40, .bits = bits,
                      .black = rnd() % (top / 4), .cfa = rnd() % 2 ? 0x02010100u : 0x01000201u};
        f.white = f.black + 1 + rnd() % (top - f.black);
        f.data = data;
        const uint32_t peak = rnd() % 3 ? f.white - 1 : top;
        for (size_t i = 0; i < (size_t)f.width * f.height; i++)
            data[i] = rnd() % 16 ? (uint16_t)(rnd() % (top + 1)) : (uint16_t)peak;
        const uint32_t phase = rnd() % 4;
        memset(a, 0, sizeof *a);
        memset(b, 0, sizeof *b);
        ref(&f, phase, a);
        d(&f, phase, b);
        *hash = checkasm_hash(*hash, b, sizeof *b);
        if (memcmp(a, b, sizeof *a)) {
            fprintf(stderr, "checkasm: %s statistics differ from C: %ux%u, %u bits, black %u, "
                    "white %u, phase %u (round %d)\n", mp_cpu_level_name(level), f.width,
                    f.height, bits, f.black, f.white, phase, round);
            failures++;
        }
        (*checked)++;
    }
    free(a);
    free(b);
    return failures + !(a && b);
}

int main(int argc, char **argv)
{
    uint64_t seed = (uint64_t)time(NULL);
    int rounds = 2000, bench = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--bench"))
            bench = 1;
        else if (!strcmp(argv[i], "--run") && i + 2 < argc) {
            rng_state = 1;
            return run_once(argv[i + 1], argv[i + 2]);
        } else {
            fprintf(stderr, "usage: checkasm [--seed N] [--rounds N] [--bench] "
                    "[--run KERNEL LEVEL]\n");
            return 2;
        }
    }
    seed = seed ? seed : 1;
    printf("checkasm: seed %llu, %d rounds\n", (unsigned long long)seed, rounds);
    rng_state = seed;
    int failures = check_fade(rounds);
    printf("  c     dualiso fade without the division: %s\n", failures ? "FAILED" : "ok");
    /* Each group of kernels starts from the same seed at every level, so the hashes of the
     * levels can be compared (cross_arm64.sh reads these lines). */
    static const struct {
        const char *what;
        int (*check)(mp_cpu_level level, int rounds, int *checked, uint64_t *hash);
        int rounds_div;
    } groups[] = {
        {"dualiso blend (noise, mix)", check_level, 1},
        {"dualiso denoise (weights, gather)", check_denoise, 4},
        {"dualiso statistics (frames)", check_stats, 30},
        {"rawfix rows (diffs, texture, z, sums, destripe)", checkasm_rawfix, 1},
        {"develop rows (load, near, grade, encode, Y'CbCr, RCD)", checkasm_develop, 1},
    };
    for (int l = MP_CPU_C + 1; l < MP_CPU_LEVELS; l++) {
        if (!mp_cpu_has((mp_cpu_level)l))
            continue;
        for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
            uint64_t hash = CHECKASM_HASH_START;
            int checked = 0;
            rng_state = seed;
            int f = groups[g].check((mp_cpu_level)l, rounds / groups[g].rounds_div, &checked,
                                    &hash);
            printf("  %-5s %s: %s (%d rows) hash %016llx\n", mp_cpu_level_name(l),
                   groups[g].what, f ? "FAILED" : "ok", checked, (unsigned long long)hash);
            failures += f;
        }
    }
    failures += checkasm_frames();
    if (bench && !failures) {
        static row_buf buf, fresh;
        rng_state = seed;
        bench_row(&fresh);
        printf("ns/pixel (CPU time, best of 5 x 200 rows of %d, levels on a 14-EV ramp)\n", BENCH_W);
        for (int l = MP_CPU_C; l < MP_CPU_LEVELS; l++) {
            if (!mp_cpu_has((mp_cpu_level)l))
                continue;
            const dualiso_dsp *d = mp_dualiso_dsp_for((mp_cpu_level)l);
            printf("  %-5s blend_noise %6.3f  blend_mix %6.3f\n", mp_cpu_level_name(l),
                   bench_fn(d, 0, &buf, &fresh), bench_fn(d, 1, &buf, &fresh));
        }
        checkasm_rawfix_bench();
        checkasm_develop_bench();
    }
    return failures ? 1 : 0;
}
