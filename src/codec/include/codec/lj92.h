/* codec/lj92: lossless JPEG (ITU-T T.81 process 14, "LJ92") as found in MLV and DNG.
 * Any component count 1..4, predictors 1..7, precision 2..16, several Huffman tables,
 * restart intervals. Samples are read and written in stream order (components interleaved,
 * line after line): X * Nf * Y samples. See doc/mlv-format.md section 9. */
#ifndef MP_LJ92_H
#define MP_LJ92_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_status.h"

typedef struct lj92_header {
    uint32_t width;       /* X: samples per line per component */
    uint32_t height;      /* Y: lines */
    uint32_t components;  /* Nf */
    uint32_t precision;   /* P, bits */
    uint32_t predictor;   /* Ss, 1..7 */
} lj92_header;

/* Less common stream features; all zero means none (what MLV and DNG streams use). */
typedef struct lj92_options {
    uint32_t point_transform;   /* Al: samples are coded >> Al and decoded << Al (lossy if > 0) */
    uint32_t restart_interval;  /* DRI in MCUs, a multiple of width; 0 = no restart markers */
    uint32_t tables;            /* Huffman tables: 0 or 1 = one shared table, n (2..4) =
                                 * component c uses table c % n (read: tables the scan uses) */
} lj92_options;

/* Reads the markers up to SOS without decoding (for validation before allocating). */
mp_status mp_lj92_read_header(const uint8_t *src, size_t len, lj92_header *hdr, mp_error *err);
/* The same, also reporting the options of the stream (opt may be NULL). */
mp_status mp_lj92_read_header_opts(const uint8_t *src, size_t len, lj92_header *hdr,
                                lj92_options *opt, mp_error *err);

/* Decodes into dst, which holds dst_count samples; fails unless X*Nf*Y == dst_count.
 * Stops at EOI; bytes after it are ignored. Never reads outside [src, src+len). */
mp_status mp_lj92_decode(const uint8_t *src, size_t len, uint16_t *dst, size_t dst_count,
                      lj92_header *hdr, mp_error *err);

/* Encodes X*Nf*Y samples with optimal Huffman tables (lengths <= 16) built from the data.
 * Samples must be < 2^precision (MP_ERR_ARG otherwise).
 * *out is malloc'ed (caller frees); *out_len its length. */
mp_status mp_lj92_encode(const uint16_t *src, const lj92_header *hdr, uint8_t **out,
                      size_t *out_len, mp_error *err);
/* The same with options (opt may be NULL). */
mp_status mp_lj92_encode_opts(const uint16_t *src, const lj92_header *hdr, const lj92_options *opt,
                           uint8_t **out, size_t *out_len, mp_error *err);

#endif
