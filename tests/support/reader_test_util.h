/* Helpers for the reader tests: sample paths and expected MD5s, frame hashing, temp dirs and
 * byte patching for damage cases, and a tiny MLV writer for clips the samples do not cover. */
#ifndef READER_TEST_UTIL_H
#define READER_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_frame.h"

#define SKIP_EXIT 77

/* $MLVPIPE_SAMPLES/synthetic/name in a static buffer (one call at a time); NULL when the
 * samples are absent. */
const char *sample_path(const char *name);
int samples_available(void);
/* The same for another sample set: $MLVPIPE_SAMPLES/set/name ("synthetic", "peer"). */
const char *sample_path_in(const char *set, const char *name);
int samples_available_in(const char *set);

/* MD5s (hex) listed under `key` in expected_md5.json, in frame order. Returns the count. */
int expected_md5s(const char *key, char out[][33], int max);
int expected_md5s_in(const char *set, const char *key, char out[][33], int max);
/* MD5 of a frame as little-endian uint16 samples, row-major (the samples' convention). */
void frame_md5(const mp_frame *f, char out[33]);

/* A fresh temporary directory (malloc'ed path); remove_tree deletes it and its files. */
char *temp_dir(void);
void remove_tree(char *dir);
/* dir/name (malloc'ed). */
char *join(const char *dir, const char *name);
void copy_file(const char *from, const char *to);
void patch_bytes(const char *path, uint64_t offset, const void *bytes, size_t len);
void patch_u32(const char *path, uint64_t offset, uint32_t value);
void fill_bytes(const char *path, uint64_t offset, uint8_t value, size_t len);
void truncate_to(const char *path, uint64_t size);

/* The samples' test pattern: (37x + 101y + 7919f + (xy mod 13)) mod 2^bits. */
uint16_t pattern_value(uint32_t x, uint32_t y, uint32_t f, uint32_t bits);
void pattern_frame(uint16_t *dst, uint32_t w, uint32_t h, uint32_t f, uint32_t bits);

/* ---- minimal MLV writer (blocks laid out per doc/mlv-format.md, little-endian) ---- */
typedef struct tbuf {
    uint8_t *p;
    size_t n, cap;
} tbuf;

void tb_bytes(tbuf *b, const void *src, size_t len);
void tb_u16(tbuf *b, uint16_t v);
void tb_u32(tbuf *b, uint32_t v);
void tb_u64(tbuf *b, uint64_t v);
/* A whole block: 16-byte header (blockSize = 16 + len) then body. */
void tb_block(tbuf *b, const char *tag, uint64_t ts, const void *body, size_t len);
void tb_mlvi(tbuf *b, uint64_t guid, uint16_t file_num, uint16_t video_class,
             uint16_t audio_class, uint32_t fps_num, uint32_t fps_den);
void tb_rawi(tbuf *b, uint64_t ts, uint16_t w, uint16_t h, uint32_t bits, int32_t black,
             int32_t white);
void tb_expo(tbuf *b, uint64_t ts, uint32_t iso, uint64_t shutter_us);
void tb_wbal(tbuf *b, uint64_t ts, uint32_t kelvin);
void tb_diso(tbuf *b, uint64_t ts, uint32_t mode, int32_t iso_value);
void tb_wavi(tbuf *b, uint64_t ts, uint16_t channels, uint32_t rate);
/* VIDF with frameSpace 8 (0xA5 filler) and 4 bytes of trailing padding. */
void tb_vidf(tbuf *b, uint64_t ts, uint32_t number, const void *payload, size_t len);
void tb_audf(tbuf *b, uint64_t ts, uint32_t number, const void *pcm, size_t len);
/* A packed frame of the test pattern (frame f) as a VIDF payload (malloc'ed, *len set). */
uint8_t *packed_pattern(uint32_t w, uint32_t h, uint32_t f, uint32_t bits, size_t *len);
void tb_write(tbuf *b, const char *path);
void tb_free(tbuf *b);

#endif
