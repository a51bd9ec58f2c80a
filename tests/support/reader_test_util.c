#include "reader_test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libavutil/md5.h>

#include "codec/bitpack.h"

static void die(const char *what, const char *path)
{
    fprintf(stderr, "test setup failed: %s %s\n", what, path ? path : "");
    abort();
}

const char *sample_path_in(const char *set, const char *name)
{
    static char buf[4096];
    const char *root = getenv("MLVPIPE_SAMPLES");
    if (!root)
        return NULL;
    snprintf(buf, sizeof buf, "%s/%s/%s", root, set, name);
    return buf;
}

const char *sample_path(const char *name)
{
    return sample_path_in("synthetic", name);
}

int samples_available_in(const char *set)
{
    const char *p = sample_path_in(set, "expected_md5.json");
    return p && access(p, R_OK) == 0;
}

int samples_available(void)
{
    return samples_available_in("synthetic");
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("open", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
        die("read", path);
    s[n] = 0;
    fclose(f);
    if (len)
        *len = (size_t)n;
    return s;
}

static int is_hex32(const char *s)
{
    for (int i = 0; i < 32; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return s[32] == '"';
}

int expected_md5s(const char *key, char out[][33], int max)
{
    return expected_md5s_in("synthetic", key, out, max);
}

int expected_md5s_in(const char *set, const char *key, char out[][33], int max)
{
    char *json = slurp(sample_path_in(set, "expected_md5.json"), NULL);
    char quoted[256];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    char *p = strstr(json, quoted);
    int n = 0;
    if (p) {
        p += strlen(quoted);
        /* the value is a flat object or array: stop at its closing bracket */
        char *end = p + strcspn(p, "}]");
        for (; p < end && n < max; p++)
            if (*p == '"' && is_hex32(p + 1)) {
                memcpy(out[n], p + 1, 32);
                out[n++][32] = 0;
                p += 33;
            }
    }
    free(json);
    return n;
}

void frame_md5(const mp_frame *f, char out[33])
{
    size_t count = (size_t)f->width * f->height;
    uint8_t *le = malloc(2 * count);
    for (size_t i = 0; i < count; i++) {
        le[2 * i] = (uint8_t)f->data[i];
        le[2 * i + 1] = (uint8_t)(f->data[i] >> 8);
    }
    uint8_t d[16];
    av_md5_sum(d, le, 2 * count);
    free(le);
    for (int i = 0; i < 16; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

char *temp_dir(void)
{
    const char *base = getenv("TMPDIR");
    char *t = malloc(4096);
    snprintf(t, 4096, "%s/mlvpipe-reader-XXXXXX", base ? base : "/tmp");
    if (!mkdtemp(t))
        die("mkdtemp", t);
    return t;
}

void remove_tree(char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char *p = join(dir, e->d_name);
            unlink(p);
            free(p);
        }
        closedir(d);
    }
    rmdir(dir);
    free(dir);
}

char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = malloc(n);
    snprintf(s, n, "%s/%s", dir, name);
    return s;
}

void copy_file(const char *from, const char *to)
{
    size_t len;
    char *data = slurp(from, &len);
    FILE *f = fopen(to, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
        die("write", to);
    free(data);
}

void patch_bytes(const char *path, uint64_t offset, const void *bytes, size_t len)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0 || pwrite(fd, bytes, len, (off_t)offset) != (ssize_t)len)
        die("patch", path);
    close(fd);
}

void patch_u32(const char *path, uint64_t offset, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    patch_bytes(path, offset, b, 4);
}

void fill_bytes(const char *path, uint64_t offset, uint8_t value, size_t len)
{
    uint8_t *b = malloc(len);
    memset(b, value, len);
    patch_bytes(path, offset, b, len);
    free(b);
}

void truncate_to(const char *path, uint64_t size)
{
    if (truncate(path, (off_t)size) != 0)
        die("truncate", path);
}

uint16_t pattern_value(uint32_t x, uint32_t y, uint32_t f, uint32_t bits)
{
    uint64_t v = 37ull * x + 101ull * y + 7919ull * f + (x * y) % 13;
    return (uint16_t)(v & ((1u << bits) - 1));
}

void pattern_frame(uint16_t *dst, uint32_t w, uint32_t h, uint32_t f, uint32_t bits)
{
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            dst[(size_t)y * w + x] = pattern_value(x, y, f, bits);
}

void tb_bytes(tbuf *b, const void *src, size_t len)
{
    if (!len)
        return;
    if (b->n + len > b->cap) {
        b->cap = (b->n + len) * 2 + 256;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, src, len);
    b->n += len;
}

void tb_u16(tbuf *b, uint16_t v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    tb_bytes(b, x, 2);
}

void tb_u32(tbuf *b, uint32_t v)
{
    tb_u16(b, (uint16_t)v);
    tb_u16(b, (uint16_t)(v >> 16));
}

void tb_u64(tbuf *b, uint64_t v)
{
    tb_u32(b, (uint32_t)v);
    tb_u32(b, (uint32_t)(v >> 32));
}

void tb_block(tbuf *b, const char *tag, uint64_t ts, const void *body, size_t len)
{
    tb_bytes(b, tag, 4);
    tb_u32(b, (uint32_t)(16 + len));
    tb_u64(b, ts);
    tb_bytes(b, body, len);
}

void tb_mlvi(tbuf *b, uint64_t guid, uint16_t file_num, uint16_t video_class,
             uint16_t audio_class, uint32_t fps_num, uint32_t fps_den)
{
    tb_bytes(b, "MLVI", 4);
    tb_u32(b, 52);
    tb_bytes(b, "v2.0\0\0\0\0", 8);
    tb_u64(b, guid);
    tb_u16(b, file_num);
    tb_u16(b, 0);
    tb_u32(b, 0);
    tb_u16(b, video_class);
    tb_u16(b, audio_class);
    tb_u32(b, 0);
    tb_u32(b, 0);
    tb_u32(b, fps_num);
    tb_u32(b, fps_den);
}

void tb_rawi(tbuf *b, uint64_t ts, uint16_t w, uint16_t h, uint32_t bits, int32_t black,
             int32_t white)
{
    tbuf body = {0};
    tb_u16(&body, w);
    tb_u16(&body, h);
    uint32_t ri[40] = {0};
    ri[0] = 1;                  /* api_version */
    ri[2] = h;
    ri[3] = w;
    ri[4] = w * bits / 8;
    ri[5] = w * h * bits / 8;
    ri[6] = bits;
    ri[7] = (uint32_t)black;
    ri[8] = (uint32_t)white;
    ri[15] = h;                 /* active area y2 */
    ri[16] = w;                 /* x2 */
    ri[19] = 0x02010100;        /* RGGB */
    ri[20] = 1;
    for (int i = 0; i < 9; i++) {
        ri[21 + 2 * i] = (uint32_t)(i * 1000 - 3000);
        ri[22 + 2 * i] = 10000;
    }
    ri[39] = 1150;
    for (int i = 0; i < 40; i++)
        tb_u32(&body, ri[i]);
    tb_block(b, "RAWI", ts, body.p, body.n);
    tb_free(&body);
}

void tb_expo(tbuf *b, uint64_t ts, uint32_t iso, uint64_t shutter_us)
{
    tbuf body = {0};
    tb_u32(&body, 0);
    tb_u32(&body, iso);
    tb_u32(&body, 72);
    tb_u32(&body, 0);
    tb_u64(&body, shutter_us);
    tb_block(b, "EXPO", ts, body.p, body.n);
    tb_free(&body);
}

void tb_wbal(tbuf *b, uint64_t ts, uint32_t kelvin)
{
    tbuf body = {0};
    uint32_t v[7] = {9, kelvin, 2048, 1024, 1500, 0, 0};
    for (int i = 0; i < 7; i++)
        tb_u32(&body, v[i]);
    tb_block(b, "WBAL", ts, body.p, body.n);
    tb_free(&body);
}

void tb_diso(tbuf *b, uint64_t ts, uint32_t mode, int32_t iso_value)
{
    tbuf body = {0};
    tb_u32(&body, mode);
    tb_u32(&body, (uint32_t)iso_value);
    tb_block(b, "DISO", ts, body.p, body.n);
    tb_free(&body);
}

void tb_wavi(tbuf *b, uint64_t ts, uint16_t channels, uint32_t rate)
{
    tbuf body = {0};
    tb_u16(&body, 1);
    tb_u16(&body, channels);
    tb_u32(&body, rate);
    tb_u32(&body, rate * channels * 2);
    tb_u16(&body, (uint16_t)(channels * 2));
    tb_u16(&body, 16);
    tb_block(b, "WAVI", ts, body.p, body.n);
    tb_free(&body);
}

void tb_vidf(tbuf *b, uint64_t ts, uint32_t number, const void *payload, size_t len)
{
    static const uint8_t filler[8] = {0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xA5};
    static const uint8_t pad[4] = {0};
    tb_bytes(b, "VIDF", 4);
    tb_u32(b, (uint32_t)(32 + 8 + len + 4));
    tb_u64(b, ts);
    tb_u32(b, number);
    tb_u16(b, 8);     /* cropPosX */
    tb_u16(b, 2);
    tb_u16(b, 7);     /* panPosX */
    tb_u16(b, 3);
    tb_u32(b, 8);     /* frameSpace */
    tb_bytes(b, filler, 8);
    tb_bytes(b, payload, len);
    tb_bytes(b, pad, 4);
}

void tb_audf(tbuf *b, uint64_t ts, uint32_t number, const void *pcm, size_t len)
{
    static const uint8_t filler[8] = {0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A, 0x5A};
    tb_bytes(b, "AUDF", 4);
    tb_u32(b, (uint32_t)(24 + 8 + len));
    tb_u64(b, ts);
    tb_u32(b, number);
    tb_u32(b, 8);
    tb_bytes(b, filler, 8);
    tb_bytes(b, pcm, len);
}

uint8_t *packed_pattern(uint32_t w, uint32_t h, uint32_t f, uint32_t bits, size_t *len)
{
    size_t count = (size_t)w * h;
    uint16_t *px = malloc(count * 2);
    pattern_frame(px, w, h, f, bits);
    *len = mp_packed_size_mlv(count, bits);
    uint8_t *out = calloc(1, *len);
    mp_pack_mlv(px, out, count, bits);
    free(px);
    return out;
}

void tb_write(tbuf *b, const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f) != 0)
        die("write", path);
}

void tb_free(tbuf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}
