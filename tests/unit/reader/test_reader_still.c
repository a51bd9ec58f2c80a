/* Stills behind the reader's source interface: a CR2 written by the test tools' writer
 * (tools/cr2synth) and a DNG written by ours open as one-frame clips through LibRaw, with the
 * samples (masked borders included), levels, CFA, picture area and EXIF that were written;
 * damaged stills (cut short, a slice tag that does not add up) are damage, never a crash; a
 * file no source takes is refused with one line; a folder of photos is one clip of a frame
 * per photo (frame count, frame N, metadata, audio and damage through the same calls); a
 * photo that crashes LibRaw costs that photo only, from many threads at once. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cr2_writer.h"
#include "encode/dng.h"
#include "reader/mlv_reader.h"

enum { W = 96, H = 64, LEFT = 16, TOP = 8 };

static uint16_t sample_at(uint32_t x, uint32_t y)
{
    if (x < LEFT || y < TOP)    /* masked: black and a little noise, each field its own */
        return (uint16_t)(2048 + (y & 2 ? 3 : 0) + (x * 7 + y * 3) % 5);
    return (uint16_t)(2100 + (x * 131 + y * 977) % 12000);
}

static uint16_t *samples(void)
{
    uint16_t *s = malloc(W * H * sizeof *s);
    assert_non_null(s);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++)
            s[y * W + x] = sample_at(x, y);
    return s;
}

static const cr2_meta meta = {
    .model = "Canon EOS 5D Mark III", .model_id = 0x80000285u, .serial = 4242,
    .owner = "A. Photographer", .lens = "EF24-70mm f/2.8L USM", .when = "2025:06:01 07:08:09",
    .orientation = 8, .iso = 400, .shutter_num = 1, .shutter_den = 50, .aperture_x10 = 80,
    .focal_mm = 35, .wb_rggb = {2048, 1024, 1024, 1536}, .black = 2048, .white = 15283};

/* A CR2 of the samples in memory (slices slices, or a wrong slice tag). */
static uint8_t *cr2(const uint16_t *s, uint32_t slices, int wrong, size_t *size)
{
    cr2_image img = {s, W, H, 14, LEFT, TOP, slices, (W / slices + 1) & ~1u, wrong};
    uint8_t *file = NULL;
    mp_error err = {0};
    if (cr2_write(&img, &meta, &file, size, &err) != MP_OK)
        fail_msg("cr2_write: %s", err.msg);
    return file;
}

static mp_status open_bytes(mlv_clip **c, const char *name, const uint8_t *b, size_t n,
                            mp_error *err)
{
    mlv_mem_file f = {name, b, n};
    return mp_mlv_clip_open_memory(c, name, &f, 1, NULL, err);
}

static void cr2_is_a_one_frame_clip(void **state)
{
    (void)state;
    uint16_t *s = samples();
    size_t n = 0;
    uint8_t *file = cr2(s, 3, 0, &n);
    mlv_clip *c = NULL;
    mp_error err = {0};
    if (open_bytes(&c, "IMG_0001.CR2", file, n, &err) != MP_OK)
        fail_msg("open: %s", err.msg);
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_int_equal(in->container, MLV_CONTAINER_STILL);
    assert_string_equal(in->still_format, "CR2");
    assert_int_equal(in->frame_count, 1);
    assert_int_equal(in->damage_count, 0);
    assert_int_equal(in->raw.width, W);
    assert_int_equal(in->raw.height, H);
    assert_int_equal(in->raw.bits, 14);
    assert_int_equal(in->raw.black, 2048);      /* Canon's channel black levels */
    assert_int_equal(in->raw.white, 15283);     /* and its specular white */
    assert_int_equal(in->raw.cfa, MP_CFA_RGGB);
    assert_int_equal(in->raw.active_area[0], TOP);
    assert_int_equal(in->raw.active_area[1], LEFT);
    assert_int_equal(in->raw.active_area[2], H);   /* Canon's borders, inclusive */
    assert_int_equal(in->raw.active_area[3], W);
    assert_string_equal(in->camera.name, "Canon EOS 5D Mark III");
    assert_int_equal(in->camera.model, 0x80000285u);
    assert_string_equal(in->camera.serial, "4242");
    assert_string_equal(in->lens.name, "EF24-70mm f/2.8L USM");
    assert_int_equal(in->lens.focal_mm, 35);
    assert_int_equal(in->lens.aperture_x100, 800);
    assert_int_equal(in->exposure.iso, 400);
    assert_int_equal(in->exposure.shutter_us, 20000);
    assert_true(in->wall_clock.present);
    assert_int_equal(in->wall_clock.year, 2025);
    assert_int_equal(in->wall_clock.month, 6);
    assert_int_equal(in->wall_clock.hour, 7);
    assert_int_equal(in->wall_clock.second, 9);
    assert_string_equal(in->photo.owner, "A. Photographer");
    assert_int_equal(in->photo.orientation, 8);
    /* as-shot multipliers 2, 1, 1.5 -> the neutral 0.5, 1, 0.667 as ML's custom gains */
    assert_int_equal(in->white_balance.gain_r, 512);
    assert_int_equal(in->white_balance.gain_g, 1024);
    assert_int_equal(in->white_balance.gain_b, 683);
    assert_false(in->dual_iso.present);         /* stills carry no DISO: pixels decide */

    mp_frame f = {0};
    mlv_scratch scratch = {0};
    if (mp_mlv_read_frame(c, 0, &f, &scratch, &err) != MP_OK)
        fail_msg("read: %s", err.msg);
    assert_int_equal(f.width, W);
    assert_int_equal(f.black, 2048);
    assert_memory_equal(f.data, s, W * H * sizeof *s);
    mp_frame again = {0};      /* the second read comes from the photo's kept mosaic */
    assert_int_equal(mp_mlv_read_frame(c, 0, &again, &scratch, &err), MP_OK);
    assert_int_equal(again.black, f.black);
    assert_int_equal(again.white, f.white);
    assert_memory_equal(again.data, s, W * H * sizeof *s);
    mp_frame_free(&again);
    assert_int_equal(mp_mlv_read_frame(c, 1, &f, &scratch, &err), MP_ERR_RANGE);
    mp_mlv_scratch_free(&scratch);
    mp_frame_free(&f);
    mp_mlv_clip_close(c);
    free(file);
    free(s);
}

/* Our own DNG writer's output read back: the samples and the tags that carry metadata. */
static void our_dng_reads_back(void **state)
{
    (void)state;
    uint16_t *s = samples();
    mp_frame f = {.data = s, .capacity = W * H, .width = W, .height = H, .bits = 14,
                  .black = 2048, .white = 15283, .cfa = MP_CFA_RGGB};
    mp_sink_params p = {.still = 1};
    snprintf(p.clip_name, sizeof p.clip_name, "IMG_0002");
    p.meta.raw.width = W;
    p.meta.raw.height = H;
    const int32_t area[4] = {TOP, LEFT, H, W};
    memcpy(p.meta.raw.active_area, area, sizeof area);
    p.meta.camera = (mp_camera){.present = 1, .name = "Canon EOS 5D Mark III",
                                .model = 0x80000285u, .serial = "99"};
    p.meta.exposure = (mp_exposure){.present = 1, .iso = 800, .shutter_us = 4000};
    p.meta.photo = (mp_photo){.present = 1, .owner = "B", .orientation = 3};
    mp_frame_meta fm = {0};
    uint8_t *dng = NULL;
    size_t n = 0;
    mp_error err = {0};
    if (mp_dng_encode(&f, &fm, &p, &dng, &n, &err) != MP_OK)
        fail_msg("dng: %s", err.msg);
    mlv_clip *c = NULL;
    if (open_bytes(&c, "IMG_0002.DNG", dng, n, &err) != MP_OK)
        fail_msg("open: %s", err.msg);
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_string_equal(in->still_format, "DNG");
    assert_int_equal(in->raw.black, 2048);
    assert_int_equal(in->raw.white, 15283);
    assert_int_equal(in->raw.active_area[0], TOP);
    assert_int_equal(in->raw.active_area[1], LEFT);
    assert_int_equal(in->raw.active_area[2], H);
    assert_int_equal(in->raw.active_area[3], W);
    assert_int_equal(in->exposure.iso, 800);
    assert_int_equal(in->exposure.shutter_us, 4000);
    assert_string_equal(in->camera.serial, "99");
    assert_string_equal(in->photo.owner, "B");
    assert_int_equal(in->photo.orientation, 3);
    mp_frame g = {0};
    mlv_scratch scratch = {0};
    if (mp_mlv_read_frame(c, 0, &g, &scratch, &err) != MP_OK)
        fail_msg("read: %s", err.msg);
    assert_memory_equal(g.data, s, W * H * sizeof *s);
    mp_mlv_scratch_free(&scratch);
    mp_frame_free(&g);
    mp_mlv_clip_close(c);
    free(dng);
    free(s);
}

static void damaged_stills(void **state)
{
    (void)state;
    uint16_t *s = samples();
    size_t n = 0;
    uint8_t *file = cr2(s, 2, 0, &n);
    mlv_clip *c = NULL;
    mp_error err = {0};
    /* cut inside the image data, or a slice tag that does not add up: the photo opens (its
     * headers are whole), its frame is refused with one line naming the file and where */
    static const struct { const char *name; int cut, wrong; const char *says; } bad[] = {
        {"CUT.CR2", 100, 0, "CUT.CR2: offset"}, {"SLICE.CR2", 0, 1, "the slice tag 0xC640"}};
    mp_frame f = {0};
    mlv_scratch scratch = {0};
    for (int i = 0; i < 2; i++) {
        free(file);
        file = cr2(s, 2, bad[i].wrong, &n);
        if (open_bytes(&c, bad[i].name, file, n - (size_t)bad[i].cut, &err) != MP_OK)
            fail_msg("%s: %s", bad[i].name, err.msg);
        assert_int_equal(mp_mlv_read_frame(c, 0, &f, &scratch, &err), MP_ERR_DAMAGED);
        assert_non_null(strstr(err.msg, bad[i].says));
        assert_non_null(strstr(err.msg, bad[i].name));
        assert_null(strchr(err.msg, '\n'));
        mp_mlv_clip_close(c);
    }
    mp_mlv_scratch_free(&scratch);
    mp_frame_free(&f);

    /* cut inside its headers: still damage; a TIFF that is no raw photo (one empty IFD) and
     * a file no source takes are no still */
    assert_int_equal(open_bytes(&c, "HEAD.CR2", file, 64, &err), MP_ERR_DAMAGED);
    static const uint8_t tiff[4096] = {'I', 'I', 42, 0, 8, 0, 0, 0};
    assert_int_equal(open_bytes(&c, "X.TIF", tiff, sizeof tiff, &err), MP_ERR_FORMAT);
    assert_null(strchr(err.msg, '\n'));
    static const uint8_t text[] = "hello, not a clip";
    assert_int_equal(open_bytes(&c, "notes.txt", text, sizeof text, &err), MP_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "notes.txt: offset 0:"));
    free(file);
    free(s);
}

static void write_file(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    fclose(f);
}

/* A folder of photos through the same interface: a frame per photo in name order, each read
 * back as written, frame rate and time stamps of a sequence, no audio; a photo of another
 * size is one damage entry and a gap, the others stay. */
static void folder_is_a_sequence(void **state)
{
    (void)state;
    char dir[] = "/tmp/mlvpipe-still-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    uint16_t *s = samples();
    size_t n = 0;
    for (int i = 0; i < 3; i++) {
        s[TOP * W + LEFT] = (uint16_t)(3000 + i);   /* tells the photos apart */
        uint8_t *file = cr2(s, 2, 0, &n);
        snprintf(path, sizeof path, "%s/IMG_%04d.CR2", dir, i);
        write_file(path, file, i == 1 ? 64 : n);     /* the second: its headers only */
        free(file);
    }
    mlv_clip *c = NULL;
    mp_error err = {0};
    if (mp_mlv_clip_open(&c, dir, NULL, &err) != MP_OK)
        fail_msg("open %s: %s", dir, err.msg);
    const mlv_clip_info *in = mp_mlv_clip_get_info(c);
    assert_int_equal(in->container, MLV_CONTAINER_STILL);
    assert_true(in->sequence);
    assert_int_equal(in->chunk_count, 3);
    assert_int_equal(in->frame_count, 2);
    assert_int_equal(in->first_number, 0);
    assert_int_equal(in->last_number, 2);
    assert_int_equal(in->missing_frames, 1);
    assert_int_equal(in->damage_count, 1);
    assert_non_null(strstr(mp_mlv_clip_damage(c, 0)->message, "IMG_0001.CR2"));
    assert_int_equal(in->fps_num, 25);
    assert_int_equal(in->audio_bytes, 0);
    uint8_t pcm[4];
    assert_int_equal(mp_mlv_read_audio(c, 0, pcm, sizeof pcm, &err), MP_ERR_RANGE);
    mp_frame f = {0};
    mlv_scratch scratch = {0};
    for (uint32_t k = 0; k < 2; k++) {
        mlv_frame_info fi;
        assert_int_equal(mp_mlv_frame_info_get(c, k, &fi), MP_OK);
        assert_int_equal(fi.number, 2 * k);
        assert_int_equal(fi.timestamp_us, 2 * k * 40000);
        assert_int_equal(fi.chunk, 2 * k);
        if (mp_mlv_read_frame(c, 1 - k, &f, &scratch, &err) != MP_OK)   /* any order */
            fail_msg("read %u: %s", 1 - k, err.msg);
        s[TOP * W + LEFT] = (uint16_t)(3000 + 2 * (1 - k));
        assert_memory_equal(f.data, s, W * H * sizeof *s);
    }
    mp_mlv_scratch_free(&scratch);
    mp_frame_free(&f);
    mp_mlv_clip_close(c);
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/IMG_%04d.CR2", dir, i);
        remove(path);
    }
    rmdir(dir);
    free(s);
}

/* A CR2 that makes LibRaw 0.20 crash (SIGSEGV in parse_tiff_ifd): the test's argument. */
static uint8_t *crasher;
static size_t crasher_size;

static void read_crasher(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) || (crasher_size = (size_t)ftell(f)) == 0 ||
        fseek(f, 0, SEEK_SET) || !(crasher = malloc(crasher_size)) ||
        fread(crasher, 1, crasher_size, f) != crasher_size) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
}

enum { STRESS_THREADS = 4, STRESS_ROUNDS = 12 };

/* One thread's rounds: a photo of its own opened and read back sample for sample, and the
 * crashing one refused with its one line, each time. Returns NULL or what went wrong. */
static void *stress_rounds(void *arg)
{
    uint16_t *s = arg;
    static const char *const wrong[] = {"good photo", "its samples", "crasher", "message"};
    const char *what = NULL;
    size_t n = 0;
    uint8_t *file = cr2(s, 2, 0, &n);
    mp_frame f = {0};
    mlv_scratch scratch = {0};
    for (int r = 0; r < STRESS_ROUNDS && !what; r++) {
        mlv_clip *c = NULL;
        mp_error err = {0};
        if (open_bytes(&c, "GOOD.CR2", file, n, &err) != MP_OK ||
            mp_mlv_read_frame(c, 0, &f, &scratch, &err) != MP_OK)
            what = wrong[0];
        else if (memcmp(f.data, s, W * H * sizeof *s))
            what = wrong[1];
        mp_mlv_clip_close(c);
        c = NULL;
        if (!what && open_bytes(&c, "SEGV.CR2", crasher, crasher_size, &err) != MP_ERR_DAMAGED)
            what = wrong[2];
        else if (!what && strcmp(err.msg, "SEGV.CR2: LibRaw crashed: signal 11 (SIGSEGV)"))
            what = wrong[3];
        mp_mlv_clip_close(c);
    }
    mp_mlv_scratch_free(&scratch);
    mp_frame_free(&f);
    free(file);
    return (void *)what;
}

/* This process's children (LibRaw's helpers, doc/stills.md 7), at most `max`, into pids. */
static int children(pid_t *pids, int max)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)getpid(), (int)getpid());
    int n = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    for (long pid; n < max && fscanf(f, "%ld", &pid) == 1;)
        pids[n++] = (pid_t)pid;
    fclose(f);
    return n;
}

/* The children that run LibRaw are forked by a helper, not by the converter: calls one after
 * another from one thread are served by the same helper, which a crash of LibRaw's does not
 * end (the photo is damage, the next call served as before). */
static void one_helper_serves_call_after_call(void **state)
{
    (void)state;
    mlv_clip *c = NULL;
    mp_error err = {0};
    assert_int_equal(open_bytes(&c, "SEGV.CR2", crasher, crasher_size, &err), MP_ERR_DAMAGED);
    mp_mlv_clip_close(c);
    c = NULL;
    pid_t before[8], after[8];
    int helpers = children(before, 8);
    if (helpers < 0)
        skip();   /* no /proc/PID/task/TID/children in this kernel */
    assert_true(helpers >= 1);   /* kept from the calls so far, the crash's among them */
    uint16_t *s = samples();
    size_t n = 0;
    uint8_t *file = cr2(s, 2, 0, &n);
    mp_frame f = {0};
    mlv_scratch scratch = {0};
    for (int round = 0; round < 3; round++) {
        assert_int_equal(open_bytes(&c, "GOOD.CR2", file, n, &err), MP_OK);
        assert_int_equal(mp_mlv_read_frame(c, 0, &f, &scratch, &err), MP_OK);
        assert_memory_equal(f.data, s, W * H * sizeof *s);
        mp_mlv_clip_close(c);
        c = NULL;
        assert_int_equal(open_bytes(&c, "SEGV.CR2", crasher, crasher_size, &err),
                         MP_ERR_DAMAGED);
        mp_mlv_clip_close(c);
        c = NULL;
    }
    assert_int_equal(children(after, 8), helpers);   /* the same ones: none new, none lost */
    assert_memory_equal(after, before, (size_t)helpers * sizeof *before);
    mp_mlv_scratch_free(&scratch);
    mp_frame_free(&f);
    free(file);
    free(s);
}

/* LibRaw runs in a child process for each photo: the crash of one costs that photo only, and
 * many threads forking at once (as a batch converts stills side by side) neither deadlock
 * (the test's timeout) nor mix their answers up. */
static void crash_costs_one_photo_from_many_threads(void **state)
{
    (void)state;
    pthread_t t[STRESS_THREADS];
    uint16_t *s[STRESS_THREADS];
    for (int i = 0; i < STRESS_THREADS; i++) {
        s[i] = samples();
        s[i][TOP * W + LEFT] = (uint16_t)(4000 + i);   /* a photo of each thread's own */
        assert_int_equal(pthread_create(&t[i], NULL, stress_rounds, s[i]), 0);
    }
    for (int i = 0; i < STRESS_THREADS; i++) {
        void *what;
        assert_int_equal(pthread_join(t[i], &what), 0);
        if (what)
            fail_msg("thread %d: %s", i, (const char *)what);
        free(s[i]);
    }
    pid_t helpers[STRESS_THREADS + 2];   /* one per call at once, kept for the next calls */
    int living = children(helpers, STRESS_THREADS + 2);
    assert_true(living < 0 || (living >= 1 && living <= STRESS_THREADS));
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s SEGV.CR2\n", argv[0]);
        return 1;
    }
    read_crasher(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cr2_is_a_one_frame_clip),
        cmocka_unit_test(our_dng_reads_back),
        cmocka_unit_test(damaged_stills),
        cmocka_unit_test(folder_is_a_sequence),
        cmocka_unit_test(one_helper_serves_call_after_call),
        cmocka_unit_test(crash_costs_one_photo_from_many_threads),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    free(crasher);
    return failed;
}
