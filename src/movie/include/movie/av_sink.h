/* movie/av_sink: developed RGB frames (16-bit planar, develop.h) to movies through libavcodec /
 * libavformat 5.1 (no ffmpeg binary):
 *
 *   kind            codec, pixel format                            container   audio
 *   PRORES_422HQ    prores_ks profile 3 (apch), yuv422p10le        MOV         PCM
 *   PRORES_4444     prores_ks profile 4 (ap4h), yuv444p10le        MOV         PCM
 *   PRORES_422      prores_ks profile 2 (apcn), yuv422p10le        MOV         PCM
 *   PRORES_422LT    prores_ks profile 1 (apcs), yuv422p10le        MOV         PCM
 *   PRORES_PROXY    prores_ks profile 0 (apco), yuv422p10le        MOV         PCM
 *                   (or prores_aw for every ProRes kind: params.prores_aw)
 *   DNXHR_HQ        dnxhd profile dnxhr_hq, yuv422p (8 bits)       MOV (AVdh)  PCM
 *   DNXHR_HQX       dnxhd profile dnxhr_hqx, yuv422p10le           MOV (AVdh)  PCM
 *   DNXHR_444       dnxhd profile dnxhr_444, yuv444p10le           MOV (AVdh)  PCM
 *                   (DNxHR from 256x120 up: smaller pictures are refused at open)
 *   FFV1            FFV1 version 3, gbrp16le, intra-only, slice    Matroska    PCM
 *                   CRCs, 4 slices (16 from 1280x720 up)
 *   NUT             rawvideo gbrp16le                              NUT         PCM
 *   RAWVIDEO        rawvideo rgb48le, frames back to back          none        none
 *   MOVRAW          rawvideo rgb48be (b48r)                        MOV, frag-  PCM
 *                                                                  mented
 *   H264            libx264 crf 18 preset medium, yuv420p          MP4         AAC
 *   H265            libx265 crf 22 preset medium, yuv420p          MP4         AAC
 *                   (review copies: key frame every 2 s, B-frames, 4 encoder threads
 *                   whatever `threads` says, so the bytes never depend on it; even sizes)
 *
 * ProRes and DNxHR get Y'CbCr from our own integer conversion (av_yuv.h) with the matrix and
 * range of the params, tagged the same way; FFV1 and NUT carry the RGB samples unchanged (tagged
 * AVCOL_SPC_RGB, full range), so decoding them is bit-exact. Colour primaries, transfer and
 * matrix go on the encoder, every frame and the stream (MOV colr atom and ProRes frame header,
 * Matroska Colour element); NUT and rawvideo cannot carry them, so the reading side must be
 * told (doc/outputs.md 4): for NUT pass -color_primaries/-color_trc/-colorspace before
 * -i; for rawvideo `ffmpeg -f rawvideo -pix_fmt rgb48le -s WxH -r NUM/DEN ... -i -`.
 * MOVRAW is the raw pipe that keeps them: fragmented MOV (an empty moov first, a moof per
 * frame) streams, and its colr atom reaches `ffmpeg -i -`.
 *
 * Output: a path is written as ".<name>.<pid>-<n>.part" beside it and renamed by
 * mp_av_sink_finish (out_file.h); "-" is standard output (NUT, RAWVIDEO, MOVRAW and FFV1 only:
 * a MOV whose index follows the frames needs to seek). A reader closing the pipe ends the run
 * with MP_ERR_IO ("pipe closed by the reader"), never with SIGPIPE.
 *
 * Timing: the stream's time base is 1/fps with fps normalised (23976/1000 -> 24000/1001, time
 * base 1001/24000; Matroska stores 1 ms ticks and still reports the rate). Frame k written has
 * PTS first_frame + k, so segments rendered separately (frames 0-9, 10-19, ...) join
 * (farm/join.h, `mlvpipe join`) into the packets of a whole run. ffmpeg's concat demuxer
 * copies the same packets but, for MOV, adds each segment's absolute start to the duration
 * before it (the joined file reads longer than the frames) and drops the time code track.
 *
 * H.264 and H.265 predict frames from frames: their packets come out of order and later than
 * the pictures (pts and dts are the encoder's), a lost frame is the previous picture encoded
 * again (mp_av_sink_repeat), and segments do not join (the format table says so: plan
 * refuses them). Their audio is AAC (av_aac.h), its priming cut by the MP4 edit list.
 *
 * ProRes and DNxHR are intra-only and FFV1 is written with a key frame every frame, so every
 * packet is the same bytes whichever segment it was rendered in. Output bytes depend only on
 * the params and the frames (bit-exact flags: no encoder version strings, no random Matroska
 * UIDs), never on the encoder thread count.
 *
 * Time code: the code of the first frame written goes into the "timecode" metadata (MOV: a
 * tmcd track; Matroska and NUT: a TIMECODE tag).
 *
 * Audio: interleaved little-endian integer PCM (8/16/24/32 bits, as the clip's WAVI says),
 * muxed as PCM. audio_offset aligns it: that many sample frames are dropped from the start of
 * the PCM given (> 0), or silence is put before it (< 0), so that the first sample left plays
 * with the first frame written (for clip audio use mp_wav_start_offset from encode/wav.h with
 * first_frame set to this output's first frame). The audio PTS of frame n is
 * round(n * rate / fps). At finish the audio is cut or padded with silence to end exactly with
 * the last frame, so segments stay in sync when joined. Audio is written as the video reaches
 * it: push it ahead of or together with the frames it plays with (pushing a whole short clip's
 * audio first is fine; it is held in memory until the frames arrive), and call
 * mp_av_sink_end_audio when the clip's audio runs out before the video does.
 *
 * Threads: one sink is used by one thread at a time (the pipeline's ordered writer); its own
 * encoder (mp_av_sink_write_rgb) runs `threads` slice threads. Frames can also be encoded in
 * parallel, each thread with its own mp_av_encoder, and the packets written in order with
 * mp_av_sink_write_packet: a packet is the same bytes whichever encoder made it. */
#ifndef MP_AV_SINK_H
#define MP_AV_SINK_H

#include <stddef.h>
#include <stdint.h>

#include <libavcodec/packet.h>
#include <libavutil/pixfmt.h>

#include "common/mp_meta.h"
#include "common/mp_status.h"

typedef enum mp_av_sink_kind {
    AV_SINK_PRORES_422HQ,
    AV_SINK_PRORES_4444,
    AV_SINK_FFV1,
    AV_SINK_NUT,
    AV_SINK_RAWVIDEO,
    AV_SINK_PRORES_422,
    AV_SINK_PRORES_422LT,
    AV_SINK_PRORES_PROXY,
    AV_SINK_DNXHR_HQ,
    AV_SINK_DNXHR_HQX,
    AV_SINK_DNXHR_444,
    AV_SINK_H264,
    AV_SINK_H265,
    AV_SINK_MOVRAW
} mp_av_sink_kind;

typedef struct mp_av_sink_params {
    mp_av_sink_kind kind;
    uint32_t width, height;            /* 2..16384 */
    uint32_t sar_num, sar_den;         /* sample (pixel) aspect ratio; 0/0: square */
    uint32_t fps_num, fps_den;         /* as recorded or overridden; normalised here */
    uint64_t first_frame;              /* index of the first frame written (its PTS) */

    /* Time code of the first frame written: `timecode` when not empty ("01:00:00:00", ";"
     * before the frames for drop-frame), else timecode_frames >= 0 (frames since 00:00:00:00,
     * e.g. mp_timecode_base() + first frame number), else none. */
    char timecode[16];
    int64_t timecode_frames;
    int timecode_drop_frame;           /* with timecode_frames: 29.97 / 59.94 drop-frame */

    /* Colour tags (from mp_color_tags_for: primaries, transfer, yuv_matrix). yuv_matrix and
     * yuv_range are what ProRes and DNxHR are converted with and tagged as: BT.709 (also for
     * UNSPECIFIED), BT.2020 NCL or BT.601; both are limited range (AVCOL_RANGE_MPEG, also
     * for UNSPECIFIED): their decoders take every stream as limited range and MOV's nclc
     * atom cannot say otherwise, so AVCOL_RANGE_JPEG is refused for them. */
    enum AVColorPrimaries primaries;
    enum AVColorTransferCharacteristic transfer;
    enum AVColorSpace yuv_matrix;
    enum AVColorRange yuv_range;

    mp_audio_format audio;             /* present = 0: no audio stream */
    int64_t audio_offset;              /* sample frames to drop (> 0) or pad (< 0) at the start */

    int threads;                       /* encoder threads; 0 = 1 */
    int prores_aw;                     /* ProRes kinds: prores_aw (profile from
                                        * AVCodecContext.profile, fixed quantisers: ~2.3x
                                        * faster, ~1.4x the bytes) instead of prores_ks */
    int prores_slice_rc;               /* prores_ks: its own per-slice rate control (the bytes
                                        * of `ffmpeg -c:v prores_ks`), not one quantiser per
                                        * frame (av_sink.c) */
    int overwrite;                     /* replace an existing output file */
    mp_logger log;
} mp_av_sink_params;

/* Zeroes p and sets: no time code (timecode_frames = -1), unspecified colour tags. */
void mp_av_sink_params_default(mp_av_sink_params *p);

/* The kind's name in messages ("prores422hq", ...), the same as its --to name in the one
 * format table (pipeline/formats.h), which maps names to kinds. */
const char *mp_av_sink_kind_name(mp_av_sink_kind kind);

/* For NUT and rawvideo, which cannot carry them: the ffmpeg input options that read the
 * stream as written, e.g. "-color_primaries bt709 -color_trc bt709 -colorspace rgb
 * -color_range pc -f rawvideo -pix_fmt rgb48le -s 1920x1080 -r 24000/1001 -i -" (colour
 * options before -i: ffmpeg 5.1 ignores them after it for these inputs). Empty for other
 * kinds. Returns the length (snprintf rules). */
int mp_av_sink_reader_options(const mp_av_sink_params *p, char *buf, size_t size);

typedef struct mp_av_sink mp_av_sink;

/* path: the output file, or "-" for standard output. */
mp_status mp_av_sink_open(mp_av_sink **out, const char *path, const mp_av_sink_params *p, mp_error *err);

/* One frame: R, G, B planes of width x height samples, full range (65535 = 1.0), rows
 * `stride` samples apart (develop_rgb: stride = width). `frame` must be first_frame plus the
 * number of frames written so far (frames arrive in order, none missing; repeat the previous
 * frame for a lost one). */
mp_status mp_av_sink_write_rgb(mp_av_sink *s, const uint16_t *const planes[3], size_t stride,
                            uint64_t frame, mp_error *err);

/* 1 for the kinds that predict frames from frames (H.264, H.265): write them with
 * mp_av_sink_write_rgb only, and a lost frame with mp_av_sink_repeat. */
int mp_av_sink_predicts(const mp_av_sink *s);
/* Those kinds: the last picture written again as frame `frame` (the order rule of write_rgb).
 * MP_ERR_ARG for other kinds or before a first picture. */
mp_status mp_av_sink_repeat(mp_av_sink *s, uint64_t frame, mp_error *err);

/* Encoding on the caller's threads: an encoder of the sink's kind with its own picture
 * buffer (about one picture in the kind's pixel format), used by one thread at a time, freed
 * before the sink is finished. *enc is NULL (and MP_OK returned) for DNxHR, whose encoder
 * carries its quantiser from frame to frame, and for FFV1, whose encoder is too big to have
 * one per thread (it slice-threads instead): write their frames with mp_av_sink_write_rgb. */
typedef struct mp_av_encoder mp_av_encoder;
mp_status mp_av_encoder_new(const mp_av_sink *s, mp_av_encoder **enc, mp_error *err);
void mp_av_encoder_free(mp_av_encoder *enc);   /* NULL is ignored */
/* The sink's own encoder (every kind; `threads` slice threads), owned by the sink. */
mp_av_encoder *mp_av_sink_encoder(mp_av_sink *s);

/* One picture (as mp_av_sink_write_rgb takes it) -> *pkt, the caller's to av_packet_free. */
mp_status mp_av_encode_rgb(mp_av_encoder *enc, const uint16_t *const planes[3], size_t stride,
                           AVPacket **pkt, mp_error *err);

/* The same picture row by row, as it is developed, with no frame of planes between
 * (doc/benchmarks.md §10, session 17): begin, mp_av_encode_row for every row y of the
 * picture (0 to height - 1, in ascending order), end gives the packet that
 * mp_av_encode_rgb would. Every kind with an encoder per thread except 4:2:0
 * (mp_av_encoder_takes_rows). */
int mp_av_encoder_takes_rows(const mp_av_encoder *enc);
mp_status mp_av_encode_rows_begin(mp_av_encoder *enc, mp_error *err);
void mp_av_encode_row(mp_av_encoder *enc, uint32_t y, const uint16_t *const rgb[3]);
mp_status mp_av_encode_rows_end(mp_av_encoder *enc, AVPacket **pkt, mp_error *err);

/* A packet from mp_av_encode_rgb as frame `frame` (the same order rule as write_rgb); the
 * packet is left to the caller, so a lost frame may repeat the previous one's packet. */
mp_status mp_av_sink_write_packet(mp_av_sink *s, const AVPacket *pkt, uint64_t frame,
                                  mp_error *err);

/* Interleaved PCM in params.audio's format, in stream order, any byte count. */
mp_status mp_av_sink_write_audio(mp_av_sink *s, const void *pcm, size_t bytes, mp_error *err);

/* Declares the audio complete: from now on the track is padded with silence as the frames
 * arrive, instead of waiting for PCM that will not come (the muxer would hold up to 10 s of
 * video packets in memory, waiting to interleave). Call it when the clip's audio ends before
 * the video; mp_av_sink_write_audio is refused afterwards. No-op without audio. */
mp_status mp_av_sink_end_audio(mp_av_sink *s, mp_error *err);

/* Drains the encoder, ends the audio with the last frame, writes the trailer, renames the
 * file into place and frees the sink (also on failure, which removes the temporary file).
 * A movie without frames is refused (MP_ERR_ARG): MOV would keep no tracks at all. */
mp_status mp_av_sink_finish(mp_av_sink *s, mp_error *err);

/* Removes the temporary file and frees the sink. NULL is ignored. */
void mp_av_sink_abort(mp_av_sink *s);

uint64_t mp_av_sink_frames_written(const mp_av_sink *s);

/* Routes libav's own log lines (warnings and errors) to log instead of stderr. Process-wide:
 * call once from the program, before opening sinks; NULL restores the default. */
void mp_av_sink_route_av_log(const mp_logger *log);

#endif
