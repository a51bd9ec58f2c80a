/* mp_frame: one CFA (Bayer) frame as plain uint16 samples, the unit every module passes on.
 * Raw frames from the reader carry the clip's native bit depth and levels; frames from the
 * dual-ISO engine carry 16-bit samples with an exact integer black and a clip-constant white. */
#ifndef MP_FRAME_H
#define MP_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_status.h"

/* CFA patterns use the DNG CFAPattern codes (0 = R, 1 = G, 2 = B), one byte per cell of the
 * 2x2 repeat, top-left cell in the lowest byte: MLV's RAWI value 0x02010100 is RGGB. */
#define MP_CFA_RGGB 0x02010100u
#define MP_CFA_GRBG 0x01020001u  /* not written by ML cameras; recognised for completeness */
#define MP_CFA_GBRG 0x01000201u
#define MP_CFA_BGGR 0x00010102u

/* Colour (0 R, 1 G, 2 B) of the CFA cell at column parity x, row parity y. */
static inline uint32_t mp_cfa_colour(uint32_t cfa, uint32_t x, uint32_t y)
{
    return (cfa >> (8 * (2 * (y & 1) + (x & 1)))) & 0xff;
}

/* 1 for any 2x2 pattern with the greens on one diagonal and red and blue on the other (the
 * structure, not a list of constants, so every phase is accepted however it is spelled):
 * the only layouts the reader passes on and develop handles. */
int mp_cfa_is_bayer(uint32_t cfa);

/* Largest frame we accept: beyond any Canon sensor (the 5DS is 8736 x 5856), and a bound
 * that keeps hostile headers from making us allocate without limit. */
#define MP_FRAME_MAX_DIM 16384u
#define MP_FRAME_MAX_PIXELS (64u * 1024u * 1024u)

typedef struct mp_frame {
    uint16_t *data;         /* width * height samples, row-major, no row padding */
    size_t capacity;        /* samples allocated in data (the buffer is reused) */
    uint32_t width, height;
    uint32_t bits;          /* significant bits per sample: 10, 12, 14 or 16 */
    uint32_t black, white;  /* levels in the frame's own units */
    uint32_t cfa;           /* MP_CFA_* */
    uint32_t number;        /* absolute frame number in the clip */
    uint64_t timestamp_us;  /* microseconds since the start of recording */
} mp_frame;

/* Makes room for width x height samples, reusing the buffer when it is large enough.
 * Refuses sizes beyond MP_FRAME_MAX_* (MP_ERR_NOMEM) and zero sizes (MP_ERR_ARG). */
mp_status mp_frame_reserve(mp_frame *f, uint32_t width, uint32_t height, mp_error *err);
void mp_frame_free(mp_frame *f);

#endif
