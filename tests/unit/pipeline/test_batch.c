/* Unit tests of the batch (pipeline/batch.h): stills next to each other convert side by side
 * and an MLV clip among them alone, every clip's outcome reported once, in list order, a
 * still that fails among them without stopping the others; the outputs are the bytes of
 * converting each clip alone, on one thread or three; a batch cancelled before it starts
 * starts nothing. And the probe the batch sorts its inputs with (mp_mlv_is_photo_file), and
 * what decides its --sequence hint (mp_mlv_photos_in_a_row, mp_mlv_photo_session: names,
 * body and settings). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <cmocka.h>
#include <pthread.h>

#include "cr2_writer.h"
#include "pipeline/batch.h"
#include "reader/mlv_reader.h"
#include "reader_test_util.h"

enum { W = 96, H = 64, LEFT = 16, TOP = 8, CLIPS = 5 };

static const cr2_meta meta = {
    .model = "Canon EOS 5D Mark III", .model_id = 0x80000285u, .serial = 7,
    .owner = "tests", .lens = "EF50mm f/1.8", .when = "2025:06:01 07:08:09",
    .orientation = 1, .iso = 100, .shutter_num = 1, .shutter_den = 50, .aperture_x10 = 56,
    .focal_mm = 50, .wb_rggb = {2048, 1024, 1024, 1536}, .black = 2048, .white = 15283};

/* A CR2 whose picture is photo k's pattern (masked borders: black). */
static void write_cr2_of(const char *path, uint32_t k, const cr2_meta *m)
{
    uint16_t *s = malloc(W * H * sizeof *s);
    assert_non_null(s);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++)
            s[y * W + x] = x < LEFT || y < TOP ? 2048 : (uint16_t)(2100 + (x * 131 + y * 977 +
                                                                           k * 31) % 12000);
    cr2_image img = {s, W, H, 14, LEFT, TOP, 2, W / 2, 0};
    uint8_t *file = NULL;
    size_t n = 0;
    mp_error err = {0};
    if (cr2_write(&img, m, &file, &n, &err) != MP_OK)
        fail_msg("cr2_write: %s", err.msg);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(file, 1, n, f), n);
    fclose(f);
    free(file);
    free(s);
}

static void write_cr2(const char *path, uint32_t k)
{
    write_cr2_of(path, k, &meta);
}

static void write_mlv(const char *path)
{
    tbuf b = {0};
    tb_mlvi(&b, 0x1234, 0, 1, 0, 25, 1);
    tb_rawi(&b, 10, 64, 32, 14, 2048, 15000);
    for (uint32_t f = 0; f < 3; f++) {
        size_t len;
        uint8_t *p = packed_pattern(64, 32, f, 14, &len);
        tb_vidf(&b, 100 + f * 40000, f, p, len);
        free(p);
    }
    tb_write(&b, path);
    tb_free(&b);
}

typedef struct record {
    pthread_mutex_t lock;
    pthread_cond_t change;
    uint32_t started, order[CLIPS], finished;
    mp_status status[CLIPS];
    int pair;                    /* stills 0 and 1 wait (5 s at most) to see each other start */
    int together;                /* they did */
} record;

#define RECORD(pair) {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, {0}, 0, {0}, pair, 0}

static void on_started(void *user, uint32_t index)
{
    record *r = user;
    assert_true(index < CLIPS);
    pthread_mutex_lock(&r->lock);
    r->started++;
    pthread_cond_broadcast(&r->change);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    while (r->pair && index < 2 && r->started < 2 &&
           pthread_cond_timedwait(&r->change, &r->lock, &until) == 0) {
    }
    r->together |= r->pair && r->started >= 2 && r->finished == 0;
    pthread_mutex_unlock(&r->lock);
}

static void on_finished(void *user, uint32_t index, mp_status st, const mp_convert_result *res,
                        const mp_error *err)
{
    record *r = user;
    assert_true(r->finished < CLIPS);
    r->order[r->finished++] = index;
    r->status[index] = st;
    assert_true(st == MP_OK ? res->written == (index == 2 ? 3u : 1u) : err->msg[0] != 0);
}

/* The folder: IMG_1.CR2 IMG_2.CR2 A.MLV IMG_3.CR2 (a TIFF head, nothing more) IMG_4.CR2. */
static void make_inputs(const char *dir, char *in[CLIPS])
{
    static const char *const names[CLIPS] = {"IMG_1.CR2", "IMG_2.CR2", "A.MLV", "IMG_3.CR2",
                                             "IMG_4.CR2"};
    for (int i = 0; i < CLIPS; i++)
        in[i] = join(dir, names[i]);
    write_cr2(in[0], 1);
    write_cr2(in[1], 2);
    write_mlv(in[2]);
    FILE *f = fopen(in[3], "wb");
    assert_non_null(f);
    fwrite("II*\0\x08\0\0\0", 1, 8, f);
    fclose(f);
    write_cr2(in[4], 4);
}

static mp_status run_batch(char *const in[CLIPS], const char *out, uint32_t threads,
                           const atomic_int *cancel, record *r, uint32_t *done)
{
    mp_convert_options o;
    mp_convert_options_default(&o);
    o.threads = threads;
    o.cancel = cancel;
    const char *outs[CLIPS];
    for (int i = 0; i < CLIPS; i++)
        outs[i] = out;
    const mp_batch_callbacks cb = {r, on_started, on_finished};
    mp_error err = {0};
    return mp_convert_batch(&o, (const char *const *)in, outs, CLIPS, &cb, done, &err);
}

static void stills_side_by_side_clips_alone(void **state)
{
    (void)state;
    char *dir = temp_dir(), *in[CLIPS];
    make_inputs(dir, in);
    char *out1 = join(dir, "out1"), *out3 = join(dir, "out3");
    record r1 = RECORD(0), r3 = RECORD(1);
    uint32_t done = 0;
    assert_int_equal(run_batch(in, out1, 1, NULL, &r1, &done), MP_OK);
    assert_int_equal(done, CLIPS);
    assert_int_equal(run_batch(in, out3, 3, NULL, &r3, &done), MP_OK);
    for (int i = 0; i < CLIPS; i++) {
        assert_int_equal(r3.order[i], i);
        assert_int_equal(r1.status[i], r3.status[i]);
        assert_int_equal(r3.status[i], i == 3 ? MP_ERR_DAMAGED : MP_OK);
    }
    assert_int_equal(r3.started, CLIPS);
    assert_true(r3.together);    /* the first two stills were converting at once */
    assert_int_equal(r3.finished, CLIPS);
    static const char *const outputs[] = {"IMG_1.dng", "IMG_2.dng", "A/A_000000.dng",
                                          "A/A_000002.dng", "IMG_4.dng"};
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
        char *a = join(out1, outputs[i]), *b = join(out3, outputs[i]);
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", a, b);
        if (system(cmd) != 0)
            fail_msg("%s differs between 1 and 3 threads", outputs[i]);
        free(a);
        free(b);
    }
    char *none = join(out3, "IMG_3.dng");
    struct stat sb;
    assert_int_not_equal(stat(none, &sb), 0);
    free(none);
    for (int i = 0; i < CLIPS; i++)
        free(in[i]);
    free(out1);
    free(out3);
    remove_tree(dir);
}

static void cancelled_batch_starts_nothing(void **state)
{
    (void)state;
    char *dir = temp_dir(), *in[CLIPS];
    make_inputs(dir, in);
    char *out = join(dir, "out");
    atomic_int cancel = 1;
    record r = RECORD(0);
    uint32_t done = 99;
    assert_int_equal(run_batch(in, out, 2, &cancel, &r, &done), MP_ERR_INTERRUPTED);
    assert_int_equal(done, 0);
    assert_int_equal(r.started, 0);
    assert_int_equal(r.finished, 0);
    for (int i = 0; i < CLIPS; i++)
        free(in[i]);
    free(out);
    remove_tree(dir);
}

static void photo_files_by_their_first_bytes(void **state)
{
    (void)state;
    char *dir = temp_dir(), *in[CLIPS];
    make_inputs(dir, in);
    assert_true(mp_mlv_is_photo_file(in[0]));
    assert_true(mp_mlv_is_photo_file(in[3]));       /* damaged, but a TIFF: the still source */
    assert_false(mp_mlv_is_photo_file(in[2]));      /* MLVI */
    assert_false(mp_mlv_is_photo_file(dir));        /* a folder is a sequence, not a photo */
    char *raw = join(dir, "M01-1234.RAW"), *gone = join(dir, "none.CR2");
    copy_file(in[0], raw);                          /* a .RAW name goes to the RAW source */
    assert_false(mp_mlv_is_photo_file(raw));
    assert_false(mp_mlv_is_photo_file(gone));
    free(raw);
    free(gone);
    for (int i = 0; i < CLIPS; i++)
        free(in[i]);
    remove_tree(dir);
}

/* IMG_0001 .. IMG_0003 of the same body and settings are a series; another serial, ISO,
 * shutter, or names not in a row, are not. */
static void series_by_names_body_and_settings(void **state)
{
    (void)state;
    char *dir = temp_dir();
    char *p[4];
    static const char *const names[] = {"IMG_0001.CR2", "IMG_0002.CR2", "IMG_0003.CR2",
                                        "IMG_0004.CR2"};
    for (int i = 0; i < 4; i++) {
        p[i] = join(dir, names[i]);
        write_cr2(p[i], (uint32_t)i);
    }
    const char *const row[] = {p[0], p[1], p[2]}, *const gap[] = {p[0], p[1], p[3]};
    assert_true(mp_mlv_photos_in_a_row(row, 3));
    assert_false(mp_mlv_photos_in_a_row(row, 2));   /* two are no timelapse yet */
    assert_false(mp_mlv_photos_in_a_row(gap, 3));   /* 1, 2, 4: not in a row */
    mlv_photo_session first, s;
    assert_true(mp_mlv_photo_session(p[0], &first));
    assert_true(mp_mlv_photo_session(p[1], &s));
    assert_true(mp_mlv_photo_same_session(&first, &s));
    cr2_meta other[3] = {meta, meta, meta};
    other[0].serial = meta.serial + 1;
    other[1].iso = 200;
    other[2].shutter_den = 100;
    for (int i = 0; i < 3; i++) {
        write_cr2_of(p[2], 2, &other[i]);
        assert_true(mp_mlv_photo_session(p[2], &s));
        assert_false(mp_mlv_photo_same_session(&first, &s));
    }
    char *mlv = join(dir, "IMG_0005.CR2");       /* a file of that name that is no photo */
    FILE *f = fopen(mlv, "wb");
    assert_non_null(f);
    fputs("MLVI", f);
    fclose(f);
    assert_false(mp_mlv_photo_session(mlv, &s));
    free(mlv);
    for (int i = 0; i < 4; i++)
        free(p[i]);
    remove_tree(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stills_side_by_side_clips_alone),
        cmocka_unit_test(cancelled_batch_starts_nothing),
        cmocka_unit_test(photo_files_by_their_first_bytes),
        cmocka_unit_test(series_by_names_body_and_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
