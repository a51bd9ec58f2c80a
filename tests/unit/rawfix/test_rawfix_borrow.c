/* mp_rawfix_map_add_moved, the core of --defects-from: another clip's sites move by the offset
 * between the two windows in the LiveView buffer, leave the frame when they fall off it,
 * join the clip's in raster order without repeats and stop at RAWFIX_MAX_PIXELS; a lattice
 * keeps its period and moves its classes and box (and is dropped when its box leaves the
 * frame); the repair plan made from a moved map marks the moved photosites; a site the clip
 * shows clean is not taken, nor a lattice most of whose sites it shows clean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rawfix/rawfix.h"

static rawfix_map empty_map(uint32_t width, uint32_t height)
{
    rawfix_map m = {.width = width, .height = height};
    for (uint32_t r = 0; r < RAWFIX_STRIPE_ROWS; r++)
        for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++)
            m.stripe_gain[r][c] = 1;
    return m;
}

static void set_pixels(rawfix_map *m, const uint32_t *xy, uint32_t count)
{
    m->pixels = malloc(2 * (size_t)count * sizeof *m->pixels);
    assert_non_null(m->pixels);
    memcpy(m->pixels, xy, 2 * (size_t)count * sizeof *xy);
    m->pixel_count = count;
}

static void sites_move_merge_and_leave_the_frame(void **state)
{
    (void)state;
    rawfix_map dst = empty_map(100, 60), src = empty_map(120, 80);
    dst.stripes = 1;
    dst.stripe_gain[1][3] = 1.004;
    const uint32_t own[] = {10, 2, 50, 40};
    /* src's window starts 4 columns right of and 2 rows above dst's: x + 4, y - 2 */
    const uint32_t other[] = {0, 0, 6, 4, 96, 10, 30, 20, 46, 42, 98, 59};
    set_pixels(&dst, own, 2);
    set_pixels(&src, other, 6);
    mp_error err = {0};
    assert_int_equal(mp_rawfix_map_add_moved(&dst, &src, 4, -2, &err), MP_OK);
    /* (0,0) -> (4,-2) leaves; (6,4) -> (10,2) is dst's own; (96,10) -> (100,8) leaves;
     * (30,20) -> (34,18); (46,42) -> (50,40) is dst's own; (98,59) -> (102,57) leaves */
    const uint32_t want[] = {10, 2, 34, 18, 50, 40};
    assert_int_equal(dst.pixel_count, 3);
    assert_memory_equal(dst.pixels, want, sizeof want);
    assert_int_equal(dst.width, 100);
    assert_true(dst.stripes && dst.stripe_gain[1][3] == 1.004);   /* dst's own gains */
    assert_int_equal(dst.lattice.period_x, 0);
    mp_rawfix_map_free(&dst);
    mp_rawfix_map_free(&src);
}

/* Never worse: a borrowed site where the clip's own frames show a clean sample (its map's
 * clean bit) stays as recorded, and is counted; the others are taken. */
static void clean_samples_are_not_borrowed(void **state)
{
    (void)state;
    rawfix_map dst = empty_map(40, 20), src = empty_map(40, 20);
    dst.clean = calloc((40 * 20 + 7) / 8, 1);
    assert_non_null(dst.clean);
    const size_t clean_at = 5 * 40 + 12;
    dst.clean[clean_at / 8] |= (uint8_t)(1u << (clean_at % 8));
    const uint32_t other[] = {12, 5, 30, 7};
    set_pixels(&src, other, 2);
    mp_error err = {0};
    assert_int_equal(mp_rawfix_map_add_moved(&dst, &src, 0, 0, &err), MP_OK);
    const uint32_t want[] = {30, 7};
    assert_int_equal(dst.pixel_count, 1);
    assert_memory_equal(dst.pixels, want, sizeof want);
    assert_int_equal(dst.borrowed_vetoed, 1);
    rawfix_map copy;
    assert_int_equal(mp_rawfix_map_copy(&copy, &dst, &err), MP_OK);
    assert_memory_equal(copy.clean, dst.clean, (40 * 20 + 7) / 8);
    assert_ptr_not_equal(copy.clean, dst.clean);
    mp_rawfix_map_free(&copy);
    mp_rawfix_map_free(&dst);
    mp_rawfix_map_free(&src);
}

/* A borrowed lattice most of whose sites the clip shows clean is not taken (counted); with
 * fewer than half of them clean it is. */
static void clean_lattice_is_not_borrowed(void **state)
{
    (void)state;
    const rawfix_lattice l = {.period_x = 8, .period_y = 10, .x0 = 0, .y0 = 0, .x1 = 40,
                              .y1 = 40, .class_count = 2, .class_x = {1, 5}, .class_y = {2, 7}};
    for (int half = 0; half < 2; half++) {
        rawfix_map dst = empty_map(40, 40), src = empty_map(40, 40);
        src.lattice = l;
        dst.clean = calloc((40 * 40 + 7) / 8, 1);
        assert_non_null(dst.clean);
        /* every lattice site clean; with `half`, those of the second class only (half of them) */
        for (uint32_t y = 0; y < 40; y++)
            for (uint32_t x = 0; x < 40; x++) {
                const int first = x % 8 == 1 && y % 10 == 2, second = x % 8 == 5 && y % 10 == 7;
                const size_t at = (size_t)y * 40 + x;
                if (second || (first && !half))
                    dst.clean[at / 8] |= (uint8_t)(1u << (at % 8));
            }
        mp_error err = {0};
        assert_int_equal(mp_rawfix_map_add_moved(&dst, &src, 0, 0, &err), MP_OK);
        assert_int_equal(dst.lattice.period_x, half ? 8 : 0);
        assert_int_equal(dst.borrowed_lattice_vetoed, !half);
        mp_rawfix_map_free(&dst);
        mp_rawfix_map_free(&src);
    }
}

static void union_stops_at_the_cap(void **state)
{
    (void)state;
    rawfix_map dst = empty_map(4096, 8), src = empty_map(4096, 8);
    const uint32_t n = RAWFIX_MAX_PIXELS / 2 + 100;
    uint32_t *a = malloc(2 * n * sizeof *a), *b = malloc(2 * n * sizeof *b);
    assert_true(a && b);
    for (uint32_t k = 0; k < n; k++) {
        a[2 * k] = k % 4096, a[2 * k + 1] = 2 * (k / 4096);       /* even rows */
        b[2 * k] = k % 4096, b[2 * k + 1] = 2 * (k / 4096) + 1;   /* odd rows */
    }
    set_pixels(&dst, a, n);
    set_pixels(&src, b, n);
    mp_error err = {0};
    assert_int_equal(mp_rawfix_map_add_moved(&dst, &src, 0, 0, &err), MP_OK);
    assert_int_equal(dst.pixel_count, RAWFIX_MAX_PIXELS);
    for (uint32_t k = 1; k < dst.pixel_count; k++) {   /* raster order, no repeat */
        const uint32_t *p = &dst.pixels[2 * k - 2], *q = &dst.pixels[2 * k];
        assert_true(p[1] < q[1] || (p[1] == q[1] && p[0] < q[0]));
    }
    assert_int_equal(dst.pixels[1], 0);   /* the first rows are the ones kept */
    free(a);
    free(b);
    mp_rawfix_map_free(&dst);
    mp_rawfix_map_free(&src);
}

static void lattice_moves_with_the_window(void **state)
{
    (void)state;
    rawfix_map src = empty_map(200, 120);
    src.lattice = (rawfix_lattice){.period_x = 12, .period_y = 10, .x0 = 0, .y0 = 20,
                                   .x1 = 200, .y1 = 120, .class_count = 2,
                                   .class_x = {4, 5}, .class_y = {3, 8}};
    rawfix_map dst = empty_map(160, 100);
    mp_error err = {0};
    /* src's window starts 14 columns left of and 6 rows below dst's */
    assert_int_equal(mp_rawfix_map_add_moved(&dst, &src, -14, 6, &err), MP_OK);
    const rawfix_lattice *l = &dst.lattice;
    assert_int_equal(l->period_x, 12);
    assert_int_equal(l->period_y, 10);
    assert_int_equal(l->class_count, 2);
    assert_int_equal(l->class_x[0], 2);    /* (4 - 14) mod 12 */
    assert_int_equal(l->class_x[1], 3);
    assert_int_equal(l->class_y[0], 9);    /* (3 + 6) mod 10 */
    assert_int_equal(l->class_y[1], 4);
    assert_int_equal(l->x0, 0);
    assert_int_equal(l->x1, 160);          /* 186, cut to the frame */
    assert_int_equal(l->y0, 26);
    assert_int_equal(l->y1, 100);
    /* the plan repairs the photosite src had at (28, 23): here at (14, 29) */
    rawfix_plan p;
    assert_int_equal(mp_rawfix_plan_make(&dst, RAWFIX_ALL, 0, &p, &err), MP_OK);
    assert_true(p.is_site[29 * 160 + 14]);
    assert_false(p.is_site[23 * 160 + 28]);
    mp_rawfix_plan_free(&p);
    /* a second source's lattice does not replace the first */
    rawfix_map other = empty_map(200, 120);
    other.lattice = src.lattice;
    other.lattice.period_x = 8;
    assert_int_equal(mp_rawfix_map_add_moved(&dst, &other, 0, 0, &err), MP_OK);
    assert_int_equal(dst.lattice.period_x, 12);
    /* a box that leaves the frame leaves no lattice */
    rawfix_map far = empty_map(160, 100);
    assert_int_equal(mp_rawfix_map_add_moved(&far, &src, 0, 200, &err), MP_OK);
    assert_int_equal(far.lattice.period_x, 0);
    mp_rawfix_map_free(&far);
    mp_rawfix_map_free(&other);
    mp_rawfix_map_free(&dst);
    mp_rawfix_map_free(&src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sites_move_merge_and_leave_the_frame),
        cmocka_unit_test(clean_samples_are_not_borrowed),
        cmocka_unit_test(clean_lattice_is_not_borrowed),
        cmocka_unit_test(union_stops_at_the_cap),
        cmocka_unit_test(lattice_moves_with_the_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
