/* mp_rgb_image_exr: one picture through libavcodec's exr encoder (FFmpeg 4.4 and later), which
 * takes planar float RGB (gbrpf32le) and stores half floats when its "format" option says so. */
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavutil/opt.h>

#include "movie/exr_image.h"

#include "encode/rgb_sequence.h"
#include "movie/av_load.h"

enum { EXR_FORMAT_HALF = 1, EXR_COMPRESSION_ZIP16 = 3 };   /* exr encoder option values */

static mp_status av_failure(int averr, const char *what, mp_error *err)
{
    char text[AV_ERROR_MAX_STRING_SIZE];
    mp_libav.av_strerror(averr, text, sizeof text);
    return mp_error_set(err, averr == AVERROR(ENOMEM) ? MP_ERR_NOMEM : MP_ERR_IO,
                        "OpenEXR: %s: %s", what, text);
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
    if (!(*out = malloc((size_t)pkt->size))) {
        st = mp_error_set(err, MP_ERR_NOMEM, "OpenEXR: out of memory");
        goto done;
    }
    memcpy(*out, pkt->data, (size_t)pkt->size);
    *len = (size_t)pkt->size;
done:
    mp_libav.av_packet_free(&pkt);
    mp_libav.av_frame_free(&f);
    mp_libav.avcodec_free_context(&c);
    return st;
}

MP_RGB_SEQUENCE_SINK(exr, mp_rgb_image_exr)
