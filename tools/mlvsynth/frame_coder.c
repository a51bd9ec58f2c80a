#include "frame_coder.h"

#include <stdlib.h>
#include <string.h>

#include "codec/bitpack.h"
#include "codec/delta.h"
#include "codec/lzma_frame.h"

uint16_t frame_coder_video_class(const synth_options *opt)
{
    if (opt->video_class != OPT_NONE)
        return (uint16_t)opt->video_class;
    switch (opt->compression) {
    case COMPRESS_LJ92: return 0x21;
    case COMPRESS_LZMA: return 0x81;
    case COMPRESS_DELTA: return 0x41;
    case COMPRESS_LZMA_DELTA: return 0xC1;
    case COMPRESS_NONE: break;
    }
    return 0x01;
}

lj92_header frame_coder_lj92_header(const synth_options *opt, uint32_t width, uint32_t height)
{
    lj92_header h;
    int camera = opt->layout == LJ92_LAYOUT_CAMERA;
    h.width = camera ? width : 2 * width;
    h.height = height / 2;
    h.components = camera ? 2 : 1;
    h.precision = opt->bits;
    h.predictor = opt->lj92_predictor ? opt->lj92_predictor : camera ? 1 : 6;
    return h;
}

mp_status frame_coder_init(frame_coder *c, const synth_options *opt, mp_error *err)
{
    memset(c, 0, sizeof *c);
    c->opt = opt;
    size_t n = options_max_pixels(opt);
    c->packed = malloc(mp_packed_size_mlv(n, opt->bits));
    c->work = malloc(n * sizeof *c->work);
    /* mlv_dump's reference before the first frame: zeros in practice (doc/mlv-format.md 10.1) */
    c->zero_ref = calloc(n, sizeof *c->zero_ref);
    if (!c->packed || !c->work || !c->zero_ref) {
        frame_coder_free(c);
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory for %zu-pixel frames", n);
    }
    return MP_OK;
}

void frame_coder_free(frame_coder *c)
{
    free(c->packed);
    free(c->work);
    free(c->zero_ref);
    free(c->compressed);
    memset(c, 0, sizeof *c);
}

mp_status frame_coder_encode(frame_coder *c, const uint16_t *samples, uint32_t width,
                             uint32_t height, const uint16_t *ref, const uint8_t **out,
                             size_t *out_len, mp_error *err)
{
    const synth_options *o = c->opt;
    size_t n = (size_t)width * height;
    size_t packed_len = mp_packed_size_mlv(n, o->bits);
    free(c->compressed);
    c->compressed = NULL;
    switch (o->compression) {
    case COMPRESS_NONE:
        mp_pack_mlv(samples, c->packed, n, o->bits);
        *out = c->packed;
        *out_len = packed_len;
        return MP_OK;
    case COMPRESS_LJ92: {
        lj92_header h = frame_coder_lj92_header(o, width, height);
        mp_status st = mp_lj92_encode(samples, &h, &c->compressed, out_len, err);
        *out = c->compressed;
        return st;
    }
    case COMPRESS_LZMA: {
        mp_pack_mlv(samples, c->packed, n, o->bits);
        mp_status st = mp_lzma_frame_encode(c->packed, packed_len, &c->compressed, out_len, err);
        *out = c->compressed;
        return st;
    }
    case COMPRESS_DELTA:
    case COMPRESS_LZMA_DELTA: {
        memcpy(c->work, samples, n * sizeof *c->work);
        mp_delta_encode(c->work, ref ? ref : c->zero_ref, n, o->bits);
        mp_pack_mlv(c->work, c->packed, n, o->bits);
        if (o->compression == COMPRESS_DELTA) {
            *out = c->packed;
            *out_len = packed_len;
            return MP_OK;
        }
        mp_status st = mp_lzma_frame_encode(c->packed, packed_len, &c->compressed, out_len, err);
        *out = c->compressed;
        return st;
    }
    }
    return mp_error_set(err, MP_ERR_ARG, "unknown compression");
}
