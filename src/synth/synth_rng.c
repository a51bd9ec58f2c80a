#include "synth/synth_rng.h"

#include <math.h>

/* ln 2 split so that n * LN2_HI is exact for |n| < 2^20 (Cody-Waite reduction). */
#define LN2_HI 6.93147180369123816490e-01
#define LN2_LO 1.90821492927058770002e-10
#define LN2 0.6931471805599453

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void mp_synth_rng_init(synth_rng *r, uint64_t seed, uint64_t stream)
{
    /* Two splitmix outputs combine seed and stream so that neighbouring seeds or streams do
     * not give related states. */
    uint64_t a = seed;
    uint64_t b = stream ^ 0x6A09E667F3BCC909ull;
    uint64_t x = splitmix64(&a) ^ rotl(splitmix64(&b), 17);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
        r->s[0] = 1;  /* xoshiro must not start from the all-zero state */
    r->has_spare = 0;
    r->spare = 0;
}

uint64_t mp_synth_rng_next(synth_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double mp_synth_rng_uniform(synth_rng *r)
{
    return (double)(mp_synth_rng_next(r) >> 11) * 0x1.0p-53;
}

double mp_synth_det_log(double x)
{
    if (!(x > 0))
        return x == 0 ? -INFINITY : NAN;
    if (isinf(x))
        return x;
    int e;
    double m = frexp(x, &e);  /* exact: x = m * 2^e, m in [0.5, 1) */
    if (m < 0.70710678118654752) {
        m *= 2;
        e -= 1;
    }
    /* log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716: 11 odd terms reach 1e-19.
     * The polynomial in s^2 is evaluated by Estrin's scheme (a fixed order of operations,
     * so still deterministic) for a shorter dependency chain than Horner's. */
    double s = (m - 1) / (m + 1);
    double z = s * s, z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;
    double p01 = 1.0 + z * (1.0 / 3), p23 = 1.0 / 5 + z * (1.0 / 7);
    double p45 = 1.0 / 9 + z * (1.0 / 11), p67 = 1.0 / 13 + z * (1.0 / 15);
    double p89 = 1.0 / 17 + z * (1.0 / 19), p10 = 1.0 / 21;
    double sum = (p01 + z2 * p23) + z4 * (p45 + z2 * p67) + z8 * (p89 + z2 * p10);
    return e * LN2_HI + (2 * s * sum + e * LN2_LO);
}

/* x * 2^k, exact: a multiplication by a power of two built from its bits while the power is
 * a normal number (much faster than ldexp), ldexp for the rest. */
static double scale_pow2(double x, int k)
{
    if (k < -1022 || k > 1023)
        return ldexp(x, k);
    union {
        uint64_t u;
        double d;
    } p = {.u = (uint64_t)(k + 1023) << 52};
    return x * p.d;
}

/* 2^(j/16), j = 0..15, as 40-digit literals so the compiler rounds them correctly. */
static const double exp2_sixteenths[16] = {
    1.0,
    1.044273782427413840321966478739929008785,
    1.090507732665257659207010655760707978993,
    1.138788634756691653703830283841511254720,
    1.189207115002721066717499970560475915293,
    1.241857812073484048593677468726595605511,
    1.296839554651009665933754117792451159835,
    1.354255546936892728298014740140702804343,
    1.414213562373095048801688724209698078570,
    1.476826145939499311386907480374049923924,
    1.542210825407940823612291862090734841307,
    1.610490331949254308179520667357400583459,
    1.681792830507429086062250952466429790080,
    1.756252160373299483112160619375313221294,
    1.834008086409342463487083189588288856077,
    1.915206561397147293872611270295830887850,
};

double mp_synth_det_exp(double x)
{
    if (isnan(x))
        return x;
    if (x > 709.7)
        return INFINITY;
    if (x < -745.2)
        return 0;
    /* x = (16 m + j) ln2 / 16 + r with |r| <= ln2 / 32, so exp(x) = 2^m 2^(j/16) exp(r). */
    double n = floor(x * (16 / LN2) + 0.5);
    double r = (x - n * (LN2_HI / 16)) - n * (LN2_LO / 16);
    /* Taylor series to r^7 (the next term is below 1.3e-18), Horner form; 1/k! are exact
     * integer divisions folded at compile time. */
    double p = 1.0 / 5040;
    p = p * r + 1.0 / 720;
    p = p * r + 1.0 / 120;
    p = p * r + 1.0 / 24;
    p = p * r + 1.0 / 6;
    p = p * r + 0.5;
    p = p * r + 1;
    p = p * r + 1;
    int ni = (int)n;
    int j = ni & 15;
    return scale_pow2(exp2_sixteenths[j] * p, (ni - j) / 16);
}

double mp_synth_det_exp2(double x)
{
    /* Split off the integer part so the scaling by 2^n stays exact. */
    double n = floor(x);
    if (n > 1100)
        return INFINITY;
    if (n < -1100)
        return 0;
    return scale_pow2(mp_synth_det_exp((x - n) * LN2), (int)n);
}

double mp_synth_rng_gaussian(synth_rng *r)
{
    if (r->has_spare) {
        r->has_spare = 0;
        return r->spare;
    }
    double x, y, s;
    do {
        x = 2 * mp_synth_rng_uniform(r) - 1;
        y = 2 * mp_synth_rng_uniform(r) - 1;
        s = x * x + y * y;
    } while (s >= 1 || s == 0);
    double f = sqrt(-2 * mp_synth_det_log(s) / s);
    r->spare = y * f;
    r->has_spare = 1;
    return x * f;
}

/* log(k!) : a table below 10, Stirling's series above (error < 1e-10 at k = 10). */
static double log_factorial(double k)
{
    static const double table[10] = {
        0.0, 0.0, 0.693147180559945, 1.7917594692280554, 3.178053830347945,
        4.787491742782047, 6.579251212010102, 8.525161361065415, 10.604602902745249,
        12.801827480081467,
    };
    if (k < 10)
        return table[(int)k];
    double inv = 1 / k, inv2 = inv * inv;
    return k * mp_synth_det_log(k) - k + 0.91893853320467274 + 0.5 * mp_synth_det_log(k) +
           inv * (1.0 / 12 - inv2 * (1.0 / 360 - inv2 / 1260));
}

/* Inversion by sequential search: exact, one uniform and O(mean) steps; used below mean 10. */
static double poisson_inversion(synth_rng *r, double mean)
{
    double u = mp_synth_rng_uniform(r);
    double p = mp_synth_det_exp(-mean);
    double cum = p;
    int k = 0;
    /* The cap only matters when rounding keeps cum just below u (P(k > 60) < 1e-40). */
    while (u > cum && k < 60) {
        k++;
        p *= mean / k;
        cum += p;
    }
    return k;
}

/* Hoermann (1993), "The transformed rejection method for generating Poisson random
 * variables", algorithm PTRS: exact for mean >= 10. */
static double poisson_ptrs(synth_rng *r, double mean)
{
    double sq = sqrt(mean);
    double b = 0.931 + 2.53 * sq;
    double a = -0.059 + 0.02483 * b;
    double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
    double vr = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
        double u = mp_synth_rng_uniform(r) - 0.5;
        double v = mp_synth_rng_uniform(r);
        double us = 0.5 - fabs(u);
        if (us <= 0)
            continue;
        double k = floor((2 * a / us + b) * u + mean + 0.43);
        if (us >= 0.07 && v <= vr)
            return k;
        if (k < 0 || (us < 0.013 && v > us))
            continue;
        /* The exact test; reached by about one draw in eight, so its logs are paid here. */
        if (mp_synth_det_log(v) + mp_synth_det_log(inv_alpha) - mp_synth_det_log(a / (us * us) + b) <=
            -mean + k * mp_synth_det_log(mean) - log_factorial(k))
            return k;
    }
}

double mp_synth_rng_poisson(synth_rng *r, double mean)
{
    if (!(mean > 0))
        return 0;
    if (mean < 10)
        return poisson_inversion(r, mean);
    if (mean <= SYNTH_POISSON_NORMAL_ABOVE)
        return poisson_ptrs(r, mean);
    double k = floor(mean + sqrt(mean) * mp_synth_rng_gaussian(r) + 0.5);
    return k > 0 ? k : 0;
}
