/* checkasm: the develop row kernels (develop/develop_dsp.h) against C, bit for bit, on random
 * rows: every width from 1 to 40 (each vector tail), then random widths; values below 0,
 * above 1, at the ramps' edges, NaN, and across the curve table's whole range (below its
 * first entry, at octave edges, at and past its top) for every curve; both highlight modes
 * and random matrices; the Y'CbCr rows (4:4:4 and 4:2:2) on random 16-bit codes with random
 * matrices; RCD on random windows of every CFA order. The C encode kernel is held to curve_lut_apply itself (curve.h), the
 * table lookup the rest of develop knows. */
#include <fenv.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "checkasm.h"
#include "develop/develop_dsp.h"

enum { RW = 1920 };

typedef struct develop_buf {
    uint16_t raw[RW], out[RW], rgb16[3][RW], yuv[3][RW];
    float scale[RW], up[RW], mid[RW], down[RW], tmp[RW], near[RW], r[RW], g[RW], b[RW];
} develop_buf;

static float unit(void)
{
    return (float)(rnd() & 0xffffff) / (float)0x1000000;
}

/* A developed value: mostly in [0, 1.2], with the ramps' edges, negatives, NaN, tiny and huge
 * values, and the curve table's octave edges exactly. */
static float value(void)
{
    float m;
    switch (rnd() % 12) {
    case 0: return -unit();
    case 1: return NAN;
    case 2: return ldexpf(1.0f, (int)(rnd() % 30) - 20);                 /* octave edges */
    case 3:                                                               /* tiny */
        m = unit();   /* apart: compilers order a call's arguments differently */
        return ldexpf(m, -(int)(rnd() % 24));
    case 4: return 200 + 100 * unit();                                    /* past the top */
    case 5: return 0.8f + 0.2f * (float)(rnd() % 3) / 2;                  /* ramp edges */
    default: return 1.2f * unit();
    }
}

static void fill(develop_buf *b, uint32_t w)
{
    for (uint32_t x = 0; x < w; x++) {
        b->raw[x] = (uint16_t)(rnd() % 4 ? rnd() % 16384 : rnd());
        b->scale[x] = unit() / 8000;
        b->up[x] = unit() * 1.1f;
        b->mid[x] = unit() * 1.1f;
        b->down[x] = unit() * 1.1f;
        b->r[x] = value();
        b->g[x] = value();
        b->b[x] = value();
    }
    for (int c = 0; c < 3; c++)
        for (uint32_t x = 0; x < w; x++)   /* 16-bit codes, black and white among them */
            b->rgb16[c][x] = (uint16_t)(rnd() % 8 ? rnd() : rnd() % 2 ? 65535 : 0);
    memset(b->yuv, 0x5a, sizeof b->yuv);
    memset(b->tmp, 0x5a, sizeof b->tmp);
    memset(b->near, 0x5a, sizeof b->near);
    memset(b->out, 0x5a, sizeof b->out);
}

static develop_grade random_grade(void)
{
    develop_grade g = {.blend = (float)(rnd() & 1), .start = 0.8f, .ramp = 5.0f};
    /* 1, or the RECONSTRUCT highlight mode's top above the clip */
    g.top_in = rnd() % 2 ? 1.0f : 1 + unit();
    float top = rnd() % 2 ? 1.0f : 1 + 60 * unit();
    g.out_start = 0.8f * top;
    g.out_ramp = 1.0f / (0.2f * top);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            g.m[i][j] = (i == j ? 1.5f : -0.3f) + 0.2f * (unit() - 0.5f);
    return g;
}

/* Y'CbCr coefficients as movie/av_yuv.c makes them (integers below 2^34 held as doubles,
 * 40 fraction bits; offsets integers too) for a random matrix about BT.709's at 8 or 10 bits,
 * limited range: most codes inside, the extremes clipped. */
static develop_yuv random_yuv(void)
{
    const double one = 1099511627776.0, step = rnd() % 2 ? 4 : 1;
    const double ys = 219 * step / 65535 * one, cs = 224 * step / 65535 * one;
    const double kr = 0.2 + 0.1 * unit(), kb = 0.05 + 0.1 * unit();
    develop_yuv k = {
        .y = {floor(kr * ys), floor((1 - kr - kb) * ys), floor(kb * ys)},
        .cb = {floor(-kr / (2 - 2 * kb) * cs), 0, floor(cs / 2)},
        .cr = {floor(cs / 2), 0, floor(-kb / (2 - 2 * kr) * cs)},
        .y_offset = (16 * step + unit()) * one,
        .c_offset = (128 * step + unit()) * one,
        .scale = 1 / one,
        .min = (int32_t)step,
        .max = (int32_t)(255 * step - 1),
    };
    k.cb[1] = -k.cb[0] - k.cb[2];
    k.cr[1] = -k.cr[0] - k.cr[2];
    return k;
}

static void run(const develop_dsp *d, develop_buf *b, uint32_t w, const develop_grade *g,
                const curve_lut *lut, const develop_yuv *k, int chroma_422)
{
    d->load(b->raw, b->scale, 1024.0f, g->top_in, w, b->up);
    d->near(b->up, b->mid, b->down, w, b->tmp, b->near);
    d->grade(g, b->near, b->r, b->g, b->b, w);
    d->encode(lut, b->r, w, b->out);
    (chroma_422 ? d->yuv422 : d->yuv444)(k, b->rgb16[0], b->rgb16[1], b->rgb16[2], w,
                                          b->yuv[0], b->yuv[1], b->yuv[2]);
}

enum { RCD_W = 203, RCD_ROWS = 40 };

static void unwritten_read(int sig)
{
    static const char msg[] = "checkasm: RCD computed with memory it had not written "
                              "(floating-point trap)\n";
    (void)sig;
    (void)!write(2, msg, sizeof msg - 1);
    _exit(1);
}

typedef struct rcd_buf {
    float cfa[RCD_ROWS * RCD_W];
    float plane[3 + 6][RCD_ROWS * RCD_W];   /* R, G, B, then RCD's scratch */
} rcd_buf;

/* RCD of one random window (any CFA order; flats, clipped and black patches, noise) at a
 * level against C: the three planes bit for bit. */
static int check_rcd(const develop_dsp *ref, const develop_dsp *d, uint32_t width,
                     uint32_t rows, uint64_t *hash)
{
    static rcd_buf a, b;
    /* 1, or the RECONSTRUCT highlight mode's top above the clip */
    const float top = rnd() % 2 ? 1.0f : 1 + unit();
    for (uint32_t i = 0; i < width * rows; i++) {
        switch (rnd() % 8) {
        case 0: a.cfa[i] = top; break;
        case 1: a.cfa[i] = 0; break;
        default: a.cfa[i] = unit(); break;
        }
    }
    /* every plane starts as signalling NaNs: RCD must read only what it wrote (see below) */
    const uint32_t snan = 0x7fa00000u;
    for (int k = 0; k < 9; k++)
        for (uint32_t i = 0; i < RCD_ROWS * RCD_W; i++)
            memcpy(&a.plane[k][i], &snan, sizeof snan);
    b = a;
    uint32_t order = rnd() % 4;
    demosaic_window wa = {.cfa = a.cfa, .top = top, .width = width, .rows = rows}, wb = wa;
    wb.cfa = b.cfa;
    for (int k = 0; k < 9; k++) {
        if (k < 3) {
            wa.rgb[k] = a.plane[k];
            wb.rgb[k] = b.plane[k];
        } else {
            wa.scratch[k - 3] = a.plane[k];
            wb.scratch[k - 3] = b.plane[k];
        }
    }
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < 2; x++) {
            uint32_t phase = ((y ^ (order >> 1)) << 1) | (x ^ (order & 1));
            uint8_t c = phase == 0 ? 0 : phase == 3 ? 2 : 1;   /* RGGB shifted */
            wa.colour[y][x] = wb.colour[y][x] = c;
        }
    /* The C level computes only what it reads (no vector lanes), and arithmetic on a
     * signalling NaN raises FE_INVALID: trapped, a read of memory RCD has not written stops
     * checkasm (where the CPU can trap: not on most ARM cores). */
    int trapping = feenableexcept(FE_INVALID) != -1;
    ref->rcd(&wa);
    if (trapping)
        fedisableexcept(FE_INVALID);
    d->rcd(&wb);
    for (int k = 0; k < 3; k++)
        *hash = checkasm_hash(*hash, b.plane[k], width * rows * sizeof b.plane[k][0]);
    return !memcmp(a.plane, b.plane, 3 * sizeof a.plane[0]);
}

int checkasm_develop(mp_cpu_level level, int rounds, int *checked, uint64_t *hash)
{
    const develop_dsp *ref = mp_develop_dsp_for(MP_CPU_C), *d = mp_develop_dsp_for(level);
    static develop_buf a, b;
    signal(SIGFPE, unwritten_read);
    static curve_lut luts[MP_CURVE_COUNT];
    for (int c = 0; c < MP_CURVE_COUNT; c++)
        mp_curve_lut_init(&luts[c], (mp_curve)c);
    int failures = 0;
    for (int round = 0; round < rounds && failures < 5; round++) {
        uint32_t w = round < 40 ? 1 + (uint32_t)round : 1 + rnd() % RW;
        develop_grade g = random_grade();
        const curve_lut *lut = &luts[rnd() % MP_CURVE_COUNT];
        const develop_yuv k = random_yuv();
        const int chroma_422 = (int)(rnd() % 2);
        fill(&a, w);
        b = a;
        float in[RW];   /* the raw values, NaN and extremes included, for encode alone */
        memcpy(in, a.r, w * sizeof *in);
        run(ref, &a, w, &g, lut, &k, chroma_422);
        run(d, &b, w, &g, lut, &k, chroma_422);
        uint16_t want[RW];
        ref->encode(lut, in, w, a.out);
        d->encode(lut, in, w, b.out);
        for (uint32_t x = 0; x < w; x++)
            want[x] = curve_lut_apply(lut, in[x]);
        if (memcmp(want, a.out, w * sizeof *want)) {
            fprintf(stderr, "checkasm: C encode differs from curve_lut_apply: width %u\n", w);
            failures++;
        }
        if (round % 8 == 0) {
            uint32_t rw = 11 + rnd() % (RCD_W - 10), rr = 11 + rnd() % (RCD_ROWS - 10);
            if (!check_rcd(ref, d, rw, rr, hash)) {
                fprintf(stderr, "checkasm: %s RCD differs from C: window %ux%u (round %d)\n",
                        mp_cpu_level_name(level), rw, rr, round);
                failures++;
            }
        }
        *hash = checkasm_hash(*hash, b.out, w * sizeof b.out[0]);
        *hash = checkasm_hash(*hash, b.near, w * sizeof b.near[0]);
        *hash = checkasm_hash(*hash, b.r, w * sizeof b.r[0]);
        *hash = checkasm_hash(*hash, b.g, w * sizeof b.g[0]);
        *hash = checkasm_hash(*hash, b.b, w * sizeof b.b[0]);
        for (int c = 0; c < 3; c++)
            *hash = checkasm_hash(*hash, b.yuv[c], w * sizeof b.yuv[c][0]);
        if (memcmp(&a, &b, sizeof a)) {
            fprintf(stderr, "checkasm: %s develop rows differ from C: width %u (round %d)\n",
                    mp_cpu_level_name(level), w, round);
            failures++;
        }
        (*checked)++;
    }
    return failures;
}

int checkasm_develop_once(mp_cpu_level level, const char *kernel)
{
    static develop_buf b;
    static curve_lut lut;
    static rcd_buf rb;
    const develop_dsp *d = mp_develop_dsp_for(level);
    /* the same set-up whatever the kernel, so that develop_none's count can be subtracted */
    mp_curve_lut_init(&lut, MP_CURVE_BT709);
    fill(&b, RW);
    for (uint32_t x = 0; x < RW; x++) {   /* as the --bench rows: no NaN */
        b.r[x] = 1.1f * unit();
        b.g[x] = 1.1f * unit();
        b.b[x] = 1.1f * unit();
    }
    develop_grade g = random_grade();
    g.blend = 1;
    /* RCD_ROWS rows of RCD_W: counted per pixel of the window, its bilinear edges included */
    demosaic_window w = {.cfa = rb.cfa, .top = 1, .width = RCD_W, .rows = RCD_ROWS,
                         .colour = {{0, 1}, {1, 2}}};
    for (uint32_t i = 0; i < RCD_W * RCD_ROWS; i++)
        rb.cfa[i] = unit();
    for (int k = 0; k < 9; k++)
        *(k < 3 ? &w.rgb[k] : &w.scratch[k - 3]) = rb.plane[k];
    if (!strcmp(kernel, "develop_load"))
        d->load(b.raw, b.scale, 1024.0f, g.top_in, RW, b.up);
    else if (!strcmp(kernel, "develop_near"))
        d->near(b.up, b.mid, b.down, RW, b.tmp, b.near);
    else if (!strcmp(kernel, "develop_grade"))
        d->grade(&g, b.mid, b.r, b.g, b.b, RW);
    else if (!strcmp(kernel, "develop_encode"))
        d->encode(&lut, b.r, RW, b.out);
    else if (!strcmp(kernel, "develop_yuv422")) {
        const develop_yuv k = random_yuv();
        d->yuv422(&k, b.rgb16[0], b.rgb16[1], b.rgb16[2], RW, b.yuv[0], b.yuv[1], b.yuv[2]);
    } else if (!strcmp(kernel, "rcd"))
        d->rcd(&w);
    else if (strcmp(kernel, "develop_none"))
        return -1;
    return 0;
}

void checkasm_develop_bench(void)
{
    static develop_buf fresh, buf;
    static curve_lut lut;
    mp_curve_lut_init(&lut, MP_CURVE_BT709);
    fill(&fresh, RW);
    for (uint32_t x = 0; x < RW; x++) {   /* a developed picture's values: no NaN */
        fresh.r[x] = 1.1f * unit();
        fresh.g[x] = 1.1f * unit();
        fresh.b[x] = 1.1f * unit();
    }
    develop_grade g = random_grade();
    g.blend = 1;
    const develop_yuv k = random_yuv();
    printf("develop rows, ns/pixel (CPU time, best of 5 x 200 rows of %d)\n", RW);
    for (int l = MP_CPU_C; l < MP_CPU_LEVELS; l++) {
        if (!mp_cpu_has((mp_cpu_level)l))
            continue;
        const develop_dsp *d = mp_develop_dsp_for((mp_cpu_level)l);
        double best[5] = {1e30, 1e30, 1e30, 1e30, 1e30};
        for (int batch = 0; batch < 5; batch++) {
            double t[5] = {0, 0, 0, 0, 0};
            for (int i = 0; i < 200; i++) {
                memcpy(&buf, &fresh, sizeof buf);
                double t0 = cpu_now();
                d->load(buf.raw, buf.scale, 1024.0f, g.top_in, RW, buf.up);
                double t1 = cpu_now();
                d->near(buf.up, buf.mid, buf.down, RW, buf.tmp, buf.near);
                double t2 = cpu_now();
                d->grade(&g, buf.near, buf.r, buf.g, buf.b, RW);
                double t3 = cpu_now();
                for (int k = 0; k < 3; k++)   /* as develop does: every plane */
                    d->encode(&lut, k == 0 ? buf.r : k == 1 ? buf.g : buf.b, RW, buf.out);
                double t4 = cpu_now();
                d->yuv422(&k, buf.rgb16[0], buf.rgb16[1], buf.rgb16[2], RW, buf.yuv[0],
                          buf.yuv[1], buf.yuv[2]);
                double t5 = cpu_now();
                t[0] += t1 - t0;
                t[1] += t2 - t1;
                t[2] += t3 - t2;
                t[3] += t4 - t3;
                t[4] += t5 - t4;
            }
            for (int k = 0; k < 5; k++)
                best[k] = t[k] < best[k] ? t[k] : best[k];
        }
        double s = 1e9 / (200.0 * RW);
        printf("  %-5s load %6.3f  near %6.3f  grade %6.3f  encode x3 %6.3f  yuv422 %6.3f\n",
               mp_cpu_level_name(l), best[0] * s, best[1] * s, best[2] * s, best[3] * s,
               best[4] * s);
    }
}
