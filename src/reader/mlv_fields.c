/* RAWI and WAVI values that no picture or sound can have. A frame decoded with an impossible
 * size, depth, levels or CFA layout, or audio in a format we cannot read as PCM, would fail
 * later as an output error (or be written wrong, or allocate what no file holds); the reader
 * reports them as damage where the block is, and leaves out the frames or the audio they
 * describe. */
#include <stdio.h>

#include "mlv_internal.h"

/* Fewer levels than this between black and white is no picture (mlv_lite's lowest-depth
 * lossless mode still keeps about 225 at 14 bits). */
#define MIN_LEVEL_RANGE 16

int mp_mlv_raw_problem(const mp_raw_info *r, char *why, size_t size)
{
    if (r->bits < 1 || r->bits > 16) {
        snprintf(why, size, "bits_per_pixel %u impossible (1 to 16)", r->bits);
        return 1;
    }
    if (r->width == 0 || r->height == 0 || r->width > MP_FRAME_MAX_DIM ||
        r->height > MP_FRAME_MAX_DIM || (uint64_t)r->width * r->height > MP_FRAME_MAX_PIXELS) {
        snprintf(why, size, "size %ux%u impossible", r->width, r->height);
        return 1;
    }
    int64_t max = (1 << r->bits) - 1;
    int64_t black = r->black > 0 ? r->black : 0;
    if (!mp_cfa_is_bayer(r->cfa)) {
        snprintf(why, size, "cfa_pattern 0x%08x is not a Bayer layout of red, green and blue",
                 r->cfa);
        return 1;
    }
    if (r->white > max || (int64_t)r->white - black < MIN_LEVEL_RANGE) {
        snprintf(why, size, "levels black %d white %d impossible at %u bits", r->black,
                 r->white, r->bits);
        return 1;
    }
    return 0;
}

int mp_mlv_audio_problem(const mp_audio_format *a, char *why, size_t size)
{
    unsigned b = a->bits_per_sample;
    if (a->format == 1 && (b == 8 || b == 16 || b == 24 || b == 32) && a->channels >= 1 &&
        a->channels <= 64 && a->sample_rate >= 1000 && a->sample_rate <= 768000 &&
        a->block_align == a->channels * b / 8)
        return 0;
    snprintf(why, size, "audio format %u, %u channels, %u Hz, %u bits, blockAlign %u is not "
             "PCM", a->format, a->channels, a->sample_rate, b, a->block_align);
    return 1;
}
