/* frame_coder: turns a frame of samples into a VIDF payload for the chosen coding:
 * bit-packed (0x01), LJ92 in camera or mlv_dump layout (0x21), LZMA (0x81), DELTA (0x41),
 * LZMA over DELTA (0xC1). All the coding itself lives in src/codec. */
#ifndef MLVSYNTH_FRAME_CODER_H
#define MLVSYNTH_FRAME_CODER_H

#include <stddef.h>
#include <stdint.h>

#include "codec/lj92.h"
#include "options.h"

typedef struct frame_coder {
    const synth_options *opt;
    uint8_t *packed;          /* bit-packed frame */
    uint16_t *work;           /* DELTA residuals */
    uint16_t *zero_ref;       /* DELTA reference of the first frame */
    uint8_t *compressed;      /* LJ92 / LZMA output of the last frame */
} frame_coder;

uint16_t frame_coder_video_class(const synth_options *opt);
/* The LJ92 frame header for the options' layout and predictor, for a width x height frame. */
lj92_header frame_coder_lj92_header(const synth_options *opt, uint32_t width, uint32_t height);

mp_status frame_coder_init(frame_coder *c, const synth_options *opt, mp_error *err);
void frame_coder_free(frame_coder *c);

/* ref: the previous frame in timestamp order for DELTA (NULL = zeros: before the first
 * frame and after a new RAWI). *out stays valid until the next call. */
mp_status frame_coder_encode(frame_coder *c, const uint16_t *samples, uint32_t width,
                             uint32_t height, const uint16_t *ref, const uint8_t **out,
                             size_t *out_len, mp_error *err);

#endif
