#include "movie/png.h"
#include "movie/av_load.h"

#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
#include <libavutil/opt.h>

/* Anything larger is not a thumbnail; the bound also keeps a caller's mistake from asking
 * libavcodec for gigabytes. */
#define PNG_MAX_DIM 8192u

mp_status mp_png_encode_rgb24(const uint8_t *rgb, uint32_t width, uint32_t height,
                              size_t stride, uint8_t **png, size_t *size, mp_error *err)
{
    *png = NULL;
    *size = 0;
    if (!width || !height || width > PNG_MAX_DIM || height > PNG_MAX_DIM || stride < 3 * width)
        return mp_error_set(err, MP_ERR_ARG, "png: impossible picture %ux%u", width, height);
    mp_status st = mp_libav_load(err);
    if (st != MP_OK)
        return st;
    const AVCodec *codec = mp_libav.avcodec_find_encoder(AV_CODEC_ID_PNG);
    if (!codec)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "png: libavcodec has no PNG encoder");
    AVCodecContext *ctx = mp_libav.avcodec_alloc_context3(codec);
    AVFrame *frame = mp_libav.av_frame_alloc();
    AVPacket *pkt = mp_libav.av_packet_alloc();
    if (!ctx || !frame || !pkt) {
        st = mp_error_set(err, MP_ERR_NOMEM, "png: out of memory");
        goto done;
    }
    ctx->width = (int)width;
    ctx->height = (int)height;
    ctx->pix_fmt = AV_PIX_FMT_RGB24;
    ctx->time_base = (AVRational){1, 1};
    ctx->thread_count = 1;
    ctx->compression_level = 9;
    /* the best PNG row filter per row: photographs shrink by about a third against none */
    mp_libav.av_opt_set(ctx->priv_data, "pred", "mixed", 0);
    if (mp_libav.avcodec_open2(ctx, codec, NULL) < 0) {
        st = mp_error_set(err, MP_ERR_UNSUPPORTED, "png: the encoder does not open");
        goto done;
    }
    frame->format = AV_PIX_FMT_RGB24;
    frame->width = (int)width;
    frame->height = (int)height;
    /* The encoder only reads the picture: point the frame at the caller's rows. */
    frame->data[0] = (uint8_t *)rgb;
    frame->linesize[0] = (int)stride;
    if (mp_libav.avcodec_send_frame(ctx, frame) < 0 ||
        mp_libav.avcodec_send_frame(ctx, NULL) < 0 ||
        mp_libav.avcodec_receive_packet(ctx, pkt) < 0) {
        st = mp_error_set(err, MP_ERR_NOMEM, "png: encoding a %ux%u picture failed", width,
                          height);
        goto done;
    }
    if (!(*png = malloc((size_t)pkt->size))) {
        st = mp_error_set(err, MP_ERR_NOMEM, "png: out of memory");
        goto done;
    }
    memcpy(*png, pkt->data, (size_t)pkt->size);
    *size = (size_t)pkt->size;
done:
    frame->data[0] = NULL;
    mp_libav.av_packet_free(&pkt);
    mp_libav.av_frame_free(&frame);
    mp_libav.avcodec_free_context(&ctx);
    return st;
}
