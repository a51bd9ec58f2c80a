/* The repair of dual-ISO sites from both fields (repair.c, mp_rawfix_plan_set_fields): on a
 * textured shadow whose texture changes within 4 rows, a lattice's sites in both fields come
 * out nearer their true values (in units of the sample's noise) than from their own field
 * alone; a clipped sample of the other field is no evidence and a site among its own
 * field's clipped samples stays clipped; levels that cannot be dual ISO's, and single-ISO
 * plans, keep the own-field repair. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rawfix/rawfix.h"

#define W 192u
#define H 128u
#define FRAMES 4u
#define BLACK 2048.0
#define WHITE 15283.0
#define RATIO 16.0
#define GAIN 0.3               /* dark field, DN per electron */

static const rawfix_field_levels fields = {
    .phase = 1, .ratio = RATIO, .black = {BLACK, BLACK}, .white = {WHITE, WHITE},
    .read_noise = {6.6, 13.8}, .gain = GAIN};

static int bright_row(uint32_t y)
{
    return (y + fields.phase) % 4 >= 2;
}

/* The dark field's signal: a shadow textured at periods of 10 to 20 samples, a highlight
 * from x = 160 on that clips the bright field. */
static double scene(uint32_t x, uint32_t y)
{
    if (x >= 160)
        return 2000;
    return 40 + 25 * sin(x * 0.3 + 1) * sin(y * 0.35) + 15 * sin(x * 0.21 + y * 0.5);
}

static double normal(uint32_t *state)
{
    double s = 0;
    for (int k = 0; k < 12; k++) {
        *state = *state * 1664525u + 1013904223u;
        s += (*state >> 8) / 16777216.0;
    }
    return s - 6;
}

/* A sample's noise sigma in its own field's DN at the dark signal s. */
static double sigma(uint32_t y, double s)
{
    int k = bright_row(y);
    double scale = k ? RATIO : 1, rn = fields.read_noise[k];
    return sqrt(rn * rn + scale * scale * GAIN * s);
}

static double clean_value(uint32_t x, uint32_t y, double noise)
{
    double s = scene(x, y), scale = bright_row(y) ? RATIO : 1;
    double v = BLACK + scale * s + noise * sigma(y, s);
    return v > WHITE ? WHITE : v;
}

static rawfix_map lattice_map(void)
{
    rawfix_map m = {.width = W, .height = H, .frames = 16};
    for (uint32_t r = 0; r < RAWFIX_STRIPE_ROWS; r++)
        for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++)
            m.stripe_gain[r][c] = 1;
    /* classes in both fields and both colours of a row pair */
    m.lattice = (rawfix_lattice){.period_x = 8, .period_y = 10, .x0 = 0, .y0 = 0, .x1 = W,
                                 .y1 = H, .class_count = 4,
                                 .class_x = {0, 3, 4, 7}, .class_y = {2, 3, 6, 9}};
    return m;
}

/* RMS of the repaired sites' error over frames in noise sigmas, per field (0 dark, 1 bright),
 * in the shadow (x < 150, away from the frame's edges). */
static void site_rms(const rawfix_plan *p, double rms[2])
{
    double sum[2] = {0}, n[2] = {0};
    uint32_t state = 7;
    mp_frame f = {0};
    mp_error err;
    assert_int_equal(mp_frame_reserve(&f, W, H, &err), MP_OK);
    f.bits = 14;
    f.black = (uint32_t)BLACK;
    f.white = (uint32_t)WHITE;
    double *truth = malloc(W * H * sizeof *truth);
    assert_non_null(truth);
    for (uint32_t fr = 0; fr < FRAMES; fr++) {
        for (uint32_t i = 0; i < W * H; i++) {
            truth[i] = clean_value(i % W, i / W, normal(&state));
            f.data[i] = (uint16_t)(truth[i] + 0.5);
        }
        for (uint32_t i = 0; i < W * H; i++)
            if (p->is_site[i])
                f.data[i] = 60000;  /* the defect: nothing of it must survive */
        assert_int_equal(mp_rawfix_apply(p, &f, &err), MP_OK);
        for (uint32_t k = 0; k < p->site_count; k++) {
            uint32_t i = p->sites[k], x = i % W, y = i / W;
            if (x < 8 || x >= 150 || y < 8 || y >= H - 8)
                continue;
            double e = (f.data[i] - truth[i]) / sigma(y, scene(x, y));
            sum[bright_row(y)] += e * e;
            n[bright_row(y)]++;
        }
    }
    for (int k = 0; k < 2; k++) {
        assert_true(n[k] > 100);
        rms[k] = sqrt(sum[k] / n[k]);
    }
    free(truth);
    mp_frame_free(&f);
}

static void both_fields_beat_the_own_field(void **state)
{
    (void)state;
    rawfix_map m = lattice_map();
    rawfix_plan own, both;
    mp_error err;
    assert_int_equal(mp_rawfix_plan_make(&m, RAWFIX_ALL, 1, &own, &err), MP_OK);
    assert_int_equal(mp_rawfix_plan_make(&m, RAWFIX_ALL, 1, &both, &err), MP_OK);
    mp_rawfix_plan_set_fields(&both, &fields);
    assert_false(own.has_fields);
    assert_true(both.has_fields);
    double r_own[2], r_both[2];
    site_rms(&own, r_own);
    site_rms(&both, r_both);
    print_message("site error RMS in noise sigmas, dark / bright field: own field %.2f / %.2f,"
                  " both %.2f / %.2f\n", r_own[0], r_own[1], r_both[0], r_both[1]);
    /* measured: own field 2.16 / 5.09, both 1.53 / 4.21 (the bright field's shadow is
     * texture-bound at 2 columns and 4 rows; the dark field's own noise is the read noise) */
    assert_true(r_both[0] < 0.8 * r_own[0] && r_both[1] < 0.9 * r_own[1]);
    assert_true(r_both[0] < 1.7 && r_both[1] < 4.5);
    mp_rawfix_plan_free(&own);
    mp_rawfix_plan_free(&both);
}

static void clipped_samples(void **state)
{
    (void)state;
    rawfix_map m = lattice_map();
    rawfix_plan p;
    mp_error err;
    assert_int_equal(mp_rawfix_plan_make(&m, RAWFIX_ALL, 1, &p, &err), MP_OK);
    mp_rawfix_plan_set_fields(&p, &fields);
    mp_frame f = {0};
    assert_int_equal(mp_frame_reserve(&f, W, H, &err), MP_OK);
    f.bits = 14;
    f.black = (uint32_t)BLACK;
    f.white = (uint32_t)WHITE;
    for (uint32_t i = 0; i < W * H; i++)
        f.data[i] = p.is_site[i] ? 60000 : (uint16_t)(clean_value(i % W, i / W, 0) + 0.5);
    assert_int_equal(mp_rawfix_apply(&p, &f, &err), MP_OK);
    uint32_t dark = 0, bright = 0;
    for (uint32_t k = 0; k < p.site_count; k++) {
        uint32_t i = p.sites[k], x = i % W, y = i / W;
        if (x < 168 || x >= W - 4 || y < 8 || y >= H - 8)
            continue;
        /* the bright field clipped around: a dark site from its own field, a bright one
         * clipped like its own field's samples */
        if (bright_row(y)) {
            assert_int_equal(f.data[i], (uint16_t)WHITE);
            bright++;
        } else {
            assert_int_equal(f.data[i], (uint16_t)(BLACK + 2000));
            dark++;
        }
    }
    assert_true(dark > 4 && bright > 4);
    mp_rawfix_plan_free(&p);
    mp_frame_free(&f);
}

static void levels_that_cannot_be_dual_iso(void **state)
{
    (void)state;
    rawfix_map m = lattice_map();
    rawfix_plan p, single;
    mp_error err;
    assert_int_equal(mp_rawfix_plan_make(&m, RAWFIX_ALL, 1, &p, &err), MP_OK);
    rawfix_field_levels bad = fields;
    bad.ratio = 1;
    mp_rawfix_plan_set_fields(&p, &bad);
    assert_false(p.has_fields);
    bad = fields;
    bad.white[1] = bad.black[1];
    mp_rawfix_plan_set_fields(&p, &bad);
    assert_false(p.has_fields);
    bad = fields;
    bad.read_noise[0] = NAN;
    mp_rawfix_plan_set_fields(&p, &bad);
    assert_false(p.has_fields);
    assert_int_equal(mp_rawfix_plan_make(&m, RAWFIX_ALL, 0, &single, &err), MP_OK);
    mp_rawfix_plan_set_fields(&single, &fields);
    assert_false(single.has_fields);
    mp_rawfix_plan_free(&p);
    mp_rawfix_plan_free(&single);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(both_fields_beat_the_own_field),
        cmocka_unit_test(clipped_samples),
        cmocka_unit_test(levels_that_cannot_be_dual_iso),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
