/* movie/av_aac: the review formats' AAC. 3000 sample frames of a 16-bit stereo tone pushed in
 * uneven pieces from sample 480 on come out as packets in time order, the first starting
 * the encoder's priming (initial_padding) before 480 and the last reaching past 3480, the
 * same bytes from a second encoder and whatever the pieces (determinism); 8-, 24- and
 * 32-bit PCM of the same tone give packets too, and silence less data than the tone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "movie/av_aac.h"
#include "movie/av_load.h"

#define SAMPLES 3000u
#define START 480

typedef struct collected {
    int64_t first_pts, end;       /* first packet's pts, last packet's pts + duration */
    int64_t last_pts;
    uint32_t packets, in_order;
    uint64_t bytes, hash;
} collected;

static mp_status collect(void *opaque, AVPacket *pkt, mp_error *err)
{
    (void)err;
    collected *c = opaque;
    if (!c->packets)
        c->first_pts = pkt->pts;
    c->in_order += !c->packets || pkt->pts > c->last_pts;
    c->last_pts = pkt->pts;
    c->end = pkt->pts + pkt->duration;
    c->packets++;
    c->bytes += (uint64_t)pkt->size;
    for (int i = 0; i < pkt->size; i++)
        c->hash = c->hash * 1099511628211ull + pkt->data[i];
    return MP_OK;
}

/* The tone (1 kHz left, 1.5 kHz right, half scale) as `bits`-bit PCM, or silence. */
static uint8_t *pcm(uint32_t bits, int silent)
{
    uint32_t width = bits / 8;
    uint8_t *p = malloc((size_t)SAMPLES * 2 * width);
    for (uint32_t i = 0; p && i < SAMPLES; i++)
        for (uint32_t ch = 0; ch < 2; ch++) {
            double v = silent ? 0 : 0.5 * sin(2 * M_PI * (1000.0 + 500.0 * ch) * i / 48000);
            int64_t q = (int64_t)lrint(v * (double)((int64_t)1 << (bits - 1)));
            if (bits == 8)
                q += 128;
            for (uint32_t b = 0; b < width; b++)
                p[((size_t)i * 2 + ch) * width + b] = (uint8_t)((uint64_t)q >> (8 * b));
        }
    return p;
}

static collected encode(uint32_t bits, uint32_t piece, int silent)
{
    collected c = {0};
    mp_av_aac a;
    mp_error err = {0};
    mp_audio_format fmt = {.present = 1, .channels = 2, .sample_rate = 48000,
                           .bits_per_sample = (uint16_t)bits};
    uint8_t *p = pcm(bits, silent);
    assert_non_null(p);
    assert_int_equal(mp_av_aac_open(&a, &fmt, 1, &err), MP_OK);
    uint32_t align = 2 * bits / 8;
    for (uint32_t done = 0; done < SAMPLES; done += piece) {
        uint32_t n = SAMPLES - done < piece ? SAMPLES - done : piece;
        assert_int_equal(mp_av_aac_push(&a, p + (size_t)done * align, n, START + done, collect,
                                        &c, &err), MP_OK);
    }
    assert_int_equal(mp_av_aac_flush(&a, collect, &c, &err), MP_OK);
    assert_int_equal(c.first_pts, START - a.ctx->initial_padding);
    mp_av_aac_free(&a);
    free(p);
    return c;
}

static void test_aac(void **state)
{
    (void)state;
    mp_error err = {0};
    assert_int_equal(mp_libav_load(&err), MP_OK);
    collected one = encode(16, 700, 0), again = encode(16, 1024, 0);
    assert_true(one.packets >= 3);
    assert_int_equal(one.in_order, one.packets);
    assert_true(one.end >= START + (int64_t)SAMPLES);
    assert_int_equal(one.hash, again.hash);
    assert_int_equal(one.packets, again.packets);
    for (uint32_t bits = 8; bits <= 32; bits += 8) {
        collected c = encode(bits, 333, 0);
        assert_int_equal(c.packets, one.packets);
        assert_true(c.bytes > 0);
    }
    collected quiet = encode(16, 700, 1);
    assert_true(quiet.bytes < one.bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_aac)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
