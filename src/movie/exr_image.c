/* mp_rgb_image_exr: one picture through libavcodec's exr encoder (FFmpeg 4.4 and later), which
 * takes planar float RGB (gbrpf32le) and stores half floats when its "format" option says so;
 * then its header gets the colour the encoder cannot state (with_colour). */
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavutil/opt.h>

#include "movie/exr_image.h"

#include "encode/rgb_sequence.h"
#include "movie/av_load.h"

enum { EXR_FORMAT_HALF = 1, EXR_COMPRESSION_ZIP16 = 3 };   /* exr encoder option values */
enum { EXR_ZIP16_LINES = 16 };                              /* scanlines per ZIP16 chunk */

static mp_status av_failure(int averr, const char *what, mp_error *err)
{
    char text[AV_ERROR_MAX_STRING_SIZE];
    mp_libav.av_strerror(averr, text, sizeof text);
    return mp_error_set(err, averr == AVERROR(ENOMEM) ? MP_ERR_NOMEM : MP_ERR_IO,
                        "OpenEXR: %s: %s", what, text);
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(v >> 8 * k);
}

/* The encoder's file with its header rewritten: the chromaticities attribute of the gamut
 * (OpenEXR's way to say the primaries and white), and without the encoder's "gamma 1",
 * which only a linear curve makes true; a picture a LUT graded keeps neither. The offset
 * table after the header moves by what the header grew. */
static mp_status with_colour(const mp_rgb_image *im, const uint8_t *in, size_t len,
                             uint8_t **out, size_t *out_len, mp_error *err)
{
    static const char chroma_head[] = "chromaticities\0chromaticities";
    const size_t chroma_size = sizeof chroma_head + 4 + 32;
    uint8_t *o = malloc(len + chroma_size);
    if (!o)
        return mp_error_set(err, MP_ERR_NOMEM, "OpenEXR: out of memory");
    size_t at = 8, n = 8;
    memcpy(o, in, 8);
    int keep_gamma = im->tagged && im->curve == MP_CURVE_LINEAR;
    while (at < len && in[at]) {    /* attributes: name\0 type\0 size value, until a \0 */
        const uint8_t *name = in + at;
        size_t name_len = strnlen((const char *)name, len - at);
        size_t type_at = at + name_len + 1;
        size_t type_len = type_at < len ? strnlen((const char *)in + type_at, len - type_at) : len;
        size_t value_at = type_at + type_len + 1 + 4;
        if (value_at > len || le32(in + value_at - 4) > len - value_at)
            goto malformed;
        size_t end = value_at + le32(in + value_at - 4);
        if (keep_gamma || strcmp((const char *)name, "gamma")) {
            memcpy(o + n, in + at, end - at);
            n += end - at;
        }
        at = end;
    }
    if (at >= len)
        goto malformed;
    if (im->tagged) {
        double xy[4][2];
        mp_gamut_chromaticities(im->gamut, xy);
        memcpy(o + n, chroma_head, sizeof chroma_head);
        put_le32(o + n + sizeof chroma_head, 32);
        for (int k = 0; k < 8; k++) {
            float v = (float)xy[k / 2][k % 2];
            uint32_t bits;
            memcpy(&bits, &v, 4);
            put_le32(o + n + sizeof chroma_head + 4 + 4 * k, bits);
        }
        n += chroma_size;
    }
    o[n++] = 0;
    at++;
    /* the offset table: one little-endian 64-bit file offset per chunk */
    uint64_t chunks = (im->height + EXR_ZIP16_LINES - 1) / EXR_ZIP16_LINES;
    if (len - at < 8 * chunks)
        goto malformed;
    int64_t grew = (int64_t)n - (int64_t)at;
    for (uint64_t k = 0; k < chunks; k++) {
        uint64_t off = (uint64_t)le32(in + at + 8 * k) | (uint64_t)le32(in + at + 8 * k + 4) << 32;
        off = (uint64_t)((int64_t)off + grew);
        put_le32(o + n + 8 * k, (uint32_t)off);
        put_le32(o + n + 8 * k + 4, (uint32_t)(off >> 32));
    }
    at += 8 * chunks;
    n += 8 * chunks;
    memcpy(o + n, in + at, len - at);
    *out = o;
    *out_len = n + len - at;
    return MP_OK;
malformed:
    free(o);
    return mp_error_set(err, MP_ERR_IO, "OpenEXR: the encoder's header is not as expected");
}

static void fill_planes(const mp_rgb_image *im, AVFrame *f)
{
    static const int plane_of[3] = {2, 0, 1};   /* gbrp: data[0] G, [1] B, [2] R */
    for (int c = 0; c < 3; c++)
        for (uint32_t y = 0; y < im->height; y++) {
            const uint16_t *in = im->plane[c] + (size_t)y * im->stride;
            int k = plane_of[c];
            float *row = (float *)(f->data[k] + (size_t)y * (size_t)f->linesize[k]);
            for (uint32_t x = 0; x < im->width; x++)
                row[x] = (float)in[x] / 65535.0f;
        }
}

mp_status mp_rgb_image_exr(const mp_rgb_image *im, uint8_t **out, size_t *len, mp_error *err)
{
    *out = NULL;
    *len = 0;
    mp_status st = mp_libav_load(err);
    if (st != MP_OK)
        return st;
    const AVCodec *codec = mp_libav.avcodec_find_encoder(AV_CODEC_ID_EXR);
    if (!codec)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "OpenEXR: libavcodec has no exr encoder");
    /* One encoder per picture: pictures of a sequence are written from several threads at
     * once, and opening this encoder costs next to nothing beside a frame. */
    AVCodecContext *c = mp_libav.avcodec_alloc_context3(codec);
    AVFrame *f = mp_libav.av_frame_alloc();
    AVPacket *pkt = mp_libav.av_packet_alloc();
    int r = 0;
    if (!c || !f || !pkt) {
        st = mp_error_set(err, MP_ERR_NOMEM, "OpenEXR: out of memory");
        goto done;
    }
    c->width = (int)im->width;
    c->height = (int)im->height;
    c->pix_fmt = AV_PIX_FMT_GBRPF32LE;
    c->time_base = (AVRational){1, 1};   /* required of a video encoder; unused by exr */
    if (im->aspect_num && im->aspect_den)   /* pixelAspectRatio; 1 otherwise */
        c->sample_aspect_ratio = (AVRational){(int)im->aspect_num, (int)im->aspect_den};
    c->thread_count = 1;
    c->flags |= AV_CODEC_FLAG_BITEXACT;
    mp_libav.av_opt_set_int(c->priv_data, "format", EXR_FORMAT_HALF, 0);
    mp_libav.av_opt_set_int(c->priv_data, "compression", EXR_COMPRESSION_ZIP16, 0);
    if ((r = mp_libav.avcodec_open2(c, codec, NULL)) < 0) {
        st = av_failure(r, "opening the encoder", err);
        goto done;
    }
    f->format = c->pix_fmt;
    f->width = c->width;
    f->height = c->height;
    if ((r = mp_libav.av_frame_get_buffer(f, 0)) < 0) {
        st = av_failure(r, "frame buffer", err);
        goto done;
    }
    fill_planes(im, f);
    if ((r = mp_libav.avcodec_send_frame(c, f)) < 0 ||
        (r = mp_libav.avcodec_receive_packet(c, pkt)) < 0) {
        st = av_failure(r, "encoding", err);
        goto done;
    }
    st = with_colour(im, pkt->data, (size_t)pkt->size, out, len, err);
done:
    mp_libav.av_packet_free(&pkt);
    mp_libav.av_frame_free(&f);
    mp_libav.avcodec_free_context(&c);
    return st;
}

MP_RGB_SEQUENCE_SINK(exr, mp_rgb_image_exr)
