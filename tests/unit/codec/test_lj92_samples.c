/* Decodes the LJ92 frames of the shared synthetic clips (camera layout: Nf 2, predictor 1;
 * mlv_dump layout: Nf 1, X = 2 xRes, predictor 6) and compares the MD5 of each frame (raw
 * LE uint16) with expected_md5.json. The VIDF payloads are found by a minimal block walk
 * here, independent of src/reader. Skips (77) without MLVPIPE_SAMPLES. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libavutil/md5.h>

#include "codec/lj92.h"
#include "common/mp_bytes.h"

static const char *samples;

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = (size_t)n;
    }
    return buf;
}

/* The expected MD5 of frame `number` in the "synth_lj92_*.MLV" entry. */
static void expected_md5(unsigned number, char out[33])
{
    char path[4096];
    size_t len;
    snprintf(path, sizeof path, "%s/synthetic/expected_md5.json", samples);
    char *json = (char *)read_all(path, &len);
    assert_non_null(json);
    char *entry = strstr(json, "\"synth_lj92_*.MLV\"");
    assert_non_null(entry);
    char key[32];
    snprintf(key, sizeof key, "\"%u\": \"", number);
    char *at = strstr(entry, key);
    assert_non_null(at);
    assert_true(at < strchr(entry, '}'));
    memcpy(out, at + strlen(key), 32);
    out[32] = 0;
    free(json);
}

static void check_clip(const char *name, unsigned want_nf, unsigned want_pred)
{
    char path[4096];
    size_t len;
    snprintf(path, sizeof path, "%s/synthetic/%s", samples, name);
    uint8_t *file = read_all(path, &len);
    assert_non_null(file);
    unsigned xres = 0, yres = 0, frames = 0;
    for (size_t pos = 0; pos + 16 <= len;) {
        uint32_t size = mp_le32(file + pos + 4);
        assert_true(size >= 16 && pos + size <= len);
        if (!memcmp(file + pos, "RAWI", 4)) {
            xres = file[pos + 16] | file[pos + 17] << 8;
            yres = file[pos + 18] | file[pos + 19] << 8;
        } else if (!memcmp(file + pos, "VIDF", 4)) {
            uint32_t number = mp_le32(file + pos + 16), space = mp_le32(file + pos + 28);
            assert_true(xres > 0 && space <= size - 32);
            const uint8_t *payload = file + pos + 32 + space;
            size_t n = (size_t)xres * yres;
            uint16_t *raster = malloc(n * sizeof *raster);
            lj92_header h;
            mp_error err = {0};
            mp_status st = mp_lj92_decode(payload, size - 32 - space, raster, n, &h, &err);
            if (st != MP_OK)
                fail_msg("%s frame %u: %s", name, number, err.msg);
            assert_int_equal(h.components, want_nf);
            assert_int_equal(h.predictor, want_pred);
            assert_int_equal(h.precision, 14);
            uint8_t digest[16];
            uint8_t *le = malloc(2 * n);
            for (size_t i = 0; i < n; i++) {
                le[2 * i] = (uint8_t)raster[i];
                le[2 * i + 1] = (uint8_t)(raster[i] >> 8);
            }
            av_md5_sum(digest, le, (int)(2 * n));
            char hex[33], want[33];
            for (int i = 0; i < 16; i++)
                snprintf(hex + 2 * i, 3, "%02x", digest[i]);
            expected_md5(number, want);
            assert_string_equal(hex, want);
            frames++;
            free(le);
            free(raster);
        }
        pos += size;
    }
    assert_int_equal(frames, 2);
    free(file);
}

static void camera_layout(void **state)
{
    (void)state;
    check_clip("synth_lj92_cameralayout.MLV", 2, 1);
}

static void mlv_dump_layout(void **state)
{
    (void)state;
    check_clip("synth_lj92_mlvdumplayout.MLV", 1, 6);
}

int main(void)
{
    samples = getenv("MLVPIPE_SAMPLES");
    char probe[4096];
    snprintf(probe, sizeof probe, "%s/synthetic/expected_md5.json", samples ? samples : "");
    FILE *f = samples ? fopen(probe, "rb") : NULL;
    if (!f)
        return 77;
    fclose(f);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(camera_layout),
        cmocka_unit_test(mlv_dump_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
