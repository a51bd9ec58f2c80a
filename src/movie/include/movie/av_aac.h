/* movie/av_aac: a movie's audio as AAC (libavcodec's native `aac` encoder, LC, 96 kb/s a
 * channel) for the review formats (H.264/H.265 in MP4): interleaved little-endian integer PCM
 * in (8/16/24/32 bits, as a clip's WAVI says), frames of 1024 sample frames of planar float to
 * the encoder, packets out through a callback with their PTS in samples.
 *
 * PCM arrives contiguous, the first push's pts (in samples) placing the stream; the encoder's
 * priming (1024 samples: initial_padding) is in the packets' timestamps, which start that much
 * before the first sample, and the muxer's edit list cuts it, so the first sample plays at the
 * pts given. The native encoder is deterministic: same PCM, same bytes. */
#ifndef MP_AV_AAC_H
#define MP_AV_AAC_H

#include <stdint.h>

#include <libavcodec/avcodec.h>

#include "common/mp_meta.h"
#include "common/mp_status.h"

/* Takes the packet's reference. */
typedef mp_status (*mp_av_aac_packet_fn)(void *opaque, AVPacket *pkt, mp_error *err);

typedef struct mp_av_aac {
    AVCodecContext *ctx;
    AVFrame *frame;              /* the frame being filled */
    AVPacket *pkt;
    uint32_t channels, bits, block_align;
    int filled;                  /* sample frames in `frame` */
    int started;
    int64_t next_pts;            /* samples: the pts of `frame` */
} mp_av_aac;

/* An opened encoder for fmt (mp_wav_check_format's formats); global_header: the container
 * wants the decoder configuration out of band (MP4). a->ctx then gives the stream's codec
 * parameters. */
mp_status mp_av_aac_open(mp_av_aac *a, const mp_audio_format *fmt, int global_header,
                         mp_error *err);
/* `samples` sample frames of PCM starting at sample `pts`; full frames are encoded and their
 * packets handed to fn. */
mp_status mp_av_aac_push(mp_av_aac *a, const uint8_t *pcm, uint32_t samples, int64_t pts,
                         mp_av_aac_packet_fn fn, void *opaque, mp_error *err);
/* Encodes the last (short) frame and drains the encoder into fn. */
mp_status mp_av_aac_flush(mp_av_aac *a, mp_av_aac_packet_fn fn, void *opaque, mp_error *err);
void mp_av_aac_free(mp_av_aac *a);

#endif
