/* The movie sink: one video encoder, an optional PCM track, one muxer over mp_av_output. */
#include "movie/av_sink.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>

#include "encode/wav.h"
#include "movie/av_aac.h"
#include "movie/av_audio.h"
#include "movie/av_output.h"
#include "movie/av_timing.h"
#include "movie/av_yuv.h"
#include "movie/av_load.h"

#define MAX_SIZE 16384

typedef struct kind_info {
    const char *name;
    const char *muxer;         /* NULL: none (rawvideo frames as they are) */
    const char *encoder;
    enum AVPixelFormat pix_fmt;
    int profile;               /* the encoder's private "profile" option, or UNKNOWN */
    int takes_audio;
    int needs_seek;
    uint32_t min_width, min_height;   /* the encoder refuses smaller pictures */
    int one_encoder;           /* one encoder for the whole movie, not one per worker (below) */
    int first_quant;           /* prores_ks: the frame quantiser search starts here (below) */
    int review;                /* H.264/H.265: inter frames, delayed packets, AAC (below) */
} kind_info;

/* prores_ks does not tie its profile to a pixel format (doc/outputs.md 1): the 4:2:2 profiles
 * get yuv422p10le, 4444 yuv444p10le. dnxhd checks the pairing itself (DNxHR HQ is 8-bit
 * 4:2:2 only, HQX 10-bit 4:2:2, 444 10-bit 4:4:4) and takes DNxHR from 256x120 up.
 * dnxhd starts each frame's quantiser search from the previous frame's result, so it stays on
 * a single encoder (one_encoder). FFV1 does too, for memory: its 16-bit RGB context takes
 * ~380 MiB per encoder at 1080p, and its 16 slices keep the encoder's own slice threads as
 * busy as per-worker encoders (same bytes: the slices never depend on the thread count).
 * Every other encoder here codes a picture the same whichever encoder instance sees it, which
 * lets workers encode frames in parallel. The review kinds (H.264, H.265) predict frames
 * from frames, so they have one encoder, which gets every picture in order and returns
 * packets later (B-frames, lookahead): REVIEW_THREADS below. */
static const kind_info kinds[] = {
    [AV_SINK_PRORES_422HQ] = {"prores422hq", "mov", "prores_ks", AV_PIX_FMT_YUV422P10LE,
                              FF_PROFILE_PRORES_HQ, 1, 1, 2, 2, 0, 1},
    [AV_SINK_PRORES_4444] = {"prores4444", "mov", "prores_ks", AV_PIX_FMT_YUV444P10LE,
                             FF_PROFILE_PRORES_4444, 1, 1, 2, 2, 0, 1},
    [AV_SINK_FFV1] = {"ffv1", "matroska", "ffv1", AV_PIX_FMT_GBRP16LE, FF_PROFILE_UNKNOWN, 1, 0,
                      2, 2, 1},
    [AV_SINK_NUT] = {"nut", "nut", "rawvideo", AV_PIX_FMT_GBRP16LE, FF_PROFILE_UNKNOWN, 1, 0, 2,
                     2, 0},
    [AV_SINK_RAWVIDEO] = {"rawvideo", "rawvideo", "rawvideo", AV_PIX_FMT_RGB48LE,
                          FF_PROFILE_UNKNOWN, 0, 0, 2, 2, 0},
    [AV_SINK_PRORES_422] = {"prores422", "mov", "prores_ks", AV_PIX_FMT_YUV422P10LE,
                            FF_PROFILE_PRORES_STANDARD, 1, 1, 2, 2, 0, 1},
    [AV_SINK_PRORES_422LT] = {"prores422lt", "mov", "prores_ks", AV_PIX_FMT_YUV422P10LE,
                              FF_PROFILE_PRORES_LT, 1, 1, 2, 2, 0, 1},
    [AV_SINK_PRORES_PROXY] = {"prores422proxy", "mov", "prores_ks", AV_PIX_FMT_YUV422P10LE,
                              FF_PROFILE_PRORES_PROXY, 1, 1, 2, 2, 0, 4},
    [AV_SINK_DNXHR_HQ] = {"dnxhrhq", "mov", "dnxhd", AV_PIX_FMT_YUV422P, FF_PROFILE_DNXHR_HQ, 1,
                          1, 256, 120, 1},
    [AV_SINK_DNXHR_HQX] = {"dnxhrhqx", "mov", "dnxhd", AV_PIX_FMT_YUV422P10LE,
                           FF_PROFILE_DNXHR_HQX, 1, 1, 256, 120, 1},
    [AV_SINK_DNXHR_444] = {"dnxhr444", "mov", "dnxhd", AV_PIX_FMT_YUV444P10LE,
                           FF_PROFILE_DNXHR_444, 1, 1, 256, 120, 1},
    [AV_SINK_H264] = {"h264", "mp4", "libx264", AV_PIX_FMT_YUV420P, FF_PROFILE_UNKNOWN, 1, 1,
                      2, 2, 1, 0, 1},
    [AV_SINK_H265] = {"h265", "mp4", "libx265", AV_PIX_FMT_YUV420P, FF_PROFILE_UNKNOWN, 1, 1,
                      2, 2, 1, 0, 1},
    /* MOV stores 16-bit RGB only big-endian ('b48r'); fragmented (open_muxer), it streams */
    [AV_SINK_MOVRAW] = {"movraw", "mov", "rawvideo", AV_PIX_FMT_RGB48BE, FF_PROFILE_UNKNOWN, 1,
                        0, 2, 2, 0},
};

/* The review kinds' encoders run this many threads whatever --threads says: x264 and x265
 * give the same bytes for the same thread count (x264's default deterministic mode; x265's
 * frame threads fixed, its pools too, its wavefronts never change the bytes), different bytes
 * for another count, and x265 would size its pools from the machine's CPUs. */
#define REVIEW_THREADS 4
/* Quality (constant rate factor: x264's and x265's scales differ by about 6 for the same
 * look), the presets' default speed, a key frame every 2 s for scrubbing. */
#define X264_CRF "18"
#define X265_CRF "22"
#define KIND_COUNT (sizeof kinds / sizeof kinds[0])

/* prores_ks codes each frame with one quantiser for all its slices: one from the kind's
 * first_quant up whose frame keeps to the profile's data rate (prores_ks's own budget, its
 * bits_per_mb for the profile and picture size). prores_ks's rate control picks
 * a quantiser per slice instead, by a trellis that scores the sum of division remainders; on
 * developed raw video it spends as many bytes for 4-7 dB less PSNR and 3-5x the CPU
 * (doc/benchmarks.md §3, session 7). A frame that no quantiser within QUANT_STEPS keeps to
 * the rate goes to prores_ks's rate control, so no frame takes more than prores_ks would give
 * it. Each quantiser is its own encoder (prores_ks fixes it when opened); a frame's choice
 * depends on that frame alone, so chunks and thread counts give the same bytes.
 * Which quantiser the search starts at is predicted, so that a frame is coded once: the first
 * step when a sample of the frame at that step extrapolates to within the budget, else the
 * second (encode_frame). The sample is rows of macroblocks spread evenly over the frame,
 * enough for PROBE_SLICES slices, coded as a picture of their own: prores_ks codes a slice
 * (up to 8 macroblocks of a row) at a fixed quantiser from its pixels alone, so the sample's
 * slices are the frame's. A picture of fewer than 4 times the sample's rows has none: the
 * search starts at the first step, which then makes it the finest step that keeps to the
 * budget. */
#define QUANT_STEPS 8
#define PROBE_SLICES 64

/* The 16-bit RGB kinds (rawvideo's rgb48le, movraw's rgb48be) pack their packets themselves
 * (pack_rgb48), with no picture buffer and no encoder call. */
static int packs_rgb48(mp_av_sink_kind kind)
{
    return kind == AV_SINK_RAWVIDEO || kind == AV_SINK_MOVRAW;
}

/* One encoder instance with its picture buffer: the sink's own, or one per worker thread. */
struct mp_av_encoder {
    const mp_av_sink *sink;      /* read only: kind, sizes, Y'CbCr coefficients */
    AVCodecContext *ctx;
    AVCodecContext *at_quant[QUANT_STEPS];   /* first_quant + i, opened on first use */
    int64_t frame_budget;        /* bytes a frame may take at one quantiser; 0: no search */
    AVCodecContext *probe;       /* the sample's encoder at first_quant; NULL: no sample */
    AVFrame *probe_frame;        /* the sampled macroblock rows of frame */
    AVFrame *frame;
    AVPacket *pkt;
    uint16_t *row8;              /* 8-bit Y'CbCr: one row of each plane before narrowing */
    AVPacket *rows_pkt;          /* 16-bit RGB kinds: the packet mp_av_encode_row fills */
};

struct mp_av_sink {
    mp_av_sink_params p;
    const kind_info *kind;
    const char *encoder;         /* the kind's, or prores_aw (params.prores_aw) */
    int is_yuv;
    int chroma_shift;            /* Y'CbCr: 1 for 4:2:2 and 4:2:0, 0 for 4:4:4 */
    int chroma_rows_shift;       /* Y'CbCr: 1 for 4:2:0 */
    int yuv_bits;                /* Y'CbCr: 8 or 10 */
    mp_av_yuv_coeffs yuv;
    AVRational fps, time_base;
    mp_av_output out;
    AVFormatContext *fmt;
    mp_av_encoder *enc;          /* the stream's parameters, and write_rgb's encoder */
    AVStream *video, *audio_stream;
    AVPacket *pkt;
    mp_av_audio audio;
    mp_av_aac aac;               /* review kinds: the audio as AAC (ctx NULL: PCM) */
    int audio_ended;             /* mp_av_sink_end_audio: pad with silence as the video goes */
    uint64_t frames;
    AVBufferPool *packets;       /* rawvideo, movraw: their packets' buffers (pack_rgb48) */
};

void mp_av_sink_params_default(mp_av_sink_params *p)
{
    memset(p, 0, sizeof *p);
    p->timecode_frames = -1;
    p->primaries = AVCOL_PRI_UNSPECIFIED;
    p->transfer = AVCOL_TRC_UNSPECIFIED;
    p->yuv_matrix = AVCOL_SPC_UNSPECIFIED;
    p->yuv_range = AVCOL_RANGE_UNSPECIFIED;
}

int mp_av_sink_reader_options(const mp_av_sink_params *p, char *buf, size_t size)
{
    if ((p->kind != AV_SINK_NUT && p->kind != AV_SINK_RAWVIDEO) || mp_libav_load(NULL) != MP_OK) {
        if (size)
            buf[0] = 0;
        return 0;
    }
    const kind_info *k = &kinds[p->kind];
    AVRational fps;
    mp_libav.av_reduce(&fps.num, &fps.den, p->fps_num, p->fps_den, INT32_MAX);
    char shape[96], tags[128];
    if (p->kind == AV_SINK_RAWVIDEO)
        snprintf(shape, sizeof shape, "-f rawvideo -pix_fmt %s -s %ux%u -r %d/%d",
                 mp_libav.av_get_pix_fmt_name(k->pix_fmt), p->width, p->height, fps.num,
                 fps.den);
    else
        snprintf(shape, sizeof shape, "-f nut");
    /* Unspecified tags (e.g. the LogC or S-Log3 curves, which libav has no name for) are
     * left out rather than guessed. */
    size_t n = 0;
    tags[0] = 0;
    if (p->primaries != AVCOL_PRI_UNSPECIFIED && n < sizeof tags)
        n += (size_t)snprintf(tags + n, sizeof tags - n, "-color_primaries %s ",
                              mp_libav.av_color_primaries_name(p->primaries));
    if (p->transfer != AVCOL_TRC_UNSPECIFIED && n < sizeof tags)
        snprintf(tags + n, sizeof tags - n, "-color_trc %s ",
                 mp_libav.av_color_transfer_name(p->transfer));
    return snprintf(buf, size, "%s-colorspace rgb -color_range pc %s -i -", tags, shape);
}

const char *mp_av_sink_kind_name(mp_av_sink_kind kind)
{
    return (unsigned)kind < KIND_COUNT ? kinds[kind].name : "?";
}

uint64_t mp_av_sink_frames_written(const mp_av_sink *s)
{
    return s->frames;
}

/* A libav failure as one line naming the output and what was being done. */
static mp_status mp_av_fail(mp_av_sink *s, int averr, const char *what, mp_error *err)
{
    return mp_av_output_fail(&s->out, averr, mp_av_output_name(&s->out), what, err);
}

/* Puts "PATH: " before a message from a helper that does not know the output's name. */
static mp_status with_path(mp_status st, const char *path, mp_error *err)
{
    if (st != MP_OK && err) {
        char msg[MP_ERROR_MAX];
        memcpy(msg, err->msg, sizeof msg);
        mp_error_set(err, st, "%s: %s", strcmp(path, "-") ? path : "stdout", msg);
    }
    return st;
}

static mp_status check_params(const mp_av_sink_params *p, const char *path, mp_error *err)
{
    if ((unsigned)p->kind >= KIND_COUNT)
        return mp_error_set(err, MP_ERR_ARG, "%s: unknown movie kind %d", path, p->kind);
    const kind_info *k = &kinds[p->kind];
    if (p->width < 2 || p->height < 2 || p->width > MAX_SIZE || p->height > MAX_SIZE)
        return mp_error_set(err, MP_ERR_ARG, "%s: frame size %ux%u outside 2..%d", path,
                            p->width, p->height, MAX_SIZE);
    if (k->review && (p->width % 2 || p->height % 2))
        return mp_error_set(err, MP_ERR_ARG, "%s: %s needs even sizes (4:2:0), not %ux%u",
                            path, k->name, p->width, p->height);
    if (p->width < k->min_width || p->height < k->min_height)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: %s needs a picture of at least %ux%u, "
                            "this clip's is %ux%u", path, k->name, k->min_width,
                            k->min_height, p->width, p->height);
    if (p->prores_aw && strcmp(k->encoder, "prores_ks"))
        return mp_error_set(err, MP_ERR_ARG, "%s: %s is not ProRes: prores_aw does not apply",
                            path, k->name);
    if (p->threads < 0 || p->threads > 256)
        return mp_error_set(err, MP_ERR_ARG, "%s: %d encoder threads", path, p->threads);
    if (k->needs_seek && strcmp(path, "-") == 0)
        return mp_error_set(err, MP_ERR_ARG, "stdout: %s goes into %s, which cannot be "
                            "streamed; use movraw, nut, rawvideo or ffv1 for a pipe", k->name,
                            strcmp(k->muxer, "mp4") ? "MOV" : "MP4");
    if (p->audio.present && !k->takes_audio)
        return mp_error_set(err, MP_ERR_ARG, "%s: %s output carries no audio", path, k->name);
    if (p->audio.present)
        return with_path(mp_wav_check_format(&p->audio, err), path, err);
    return MP_OK;
}

static mp_status start_timecode(const mp_av_sink *s, char out[AV_TIMECODE_CHARS], mp_error *err)
{
    const mp_av_sink_params *p = &s->p;
    out[0] = 0;
    if (p->timecode[0]) {
        if (memchr(p->timecode, 0, sizeof p->timecode) == NULL)
            return mp_error_set(err, MP_ERR_ARG, "%s: time code is not terminated",
                                mp_av_output_name(&s->out));
        mp_status st = mp_av_timecode_check(p->timecode, s->fps, err);
        if (st != MP_OK)
            return with_path(st, mp_av_output_name(&s->out), err);
        memcpy(out, p->timecode, strlen(p->timecode) + 1);
        return MP_OK;
    }
    if (p->timecode_frames < 0)
        return MP_OK;
    return with_path(mp_av_timecode_string((uint64_t)p->timecode_frames, s->fps,
                                        p->timecode_drop_frame, out, err),
                     mp_av_output_name(&s->out), err);
}

void mp_av_encoder_free(mp_av_encoder *e)
{
    if (!e)
        return;
    mp_libav.avcodec_free_context(&e->ctx);
    for (int i = 0; i < QUANT_STEPS; i++)
        mp_libav.avcodec_free_context(&e->at_quant[i]);
    mp_libav.av_frame_free(&e->frame);
    mp_libav.av_packet_free(&e->pkt);
    mp_libav.avcodec_free_context(&e->probe);
    mp_libav.av_frame_free(&e->probe_frame);
    mp_libav.av_packet_free(&e->rows_pkt);
    free(e->row8);
    free(e);
}

/* An opened codec context of the sink's kind; quant > 0 fixes prores_ks's quantiser. Only
 * slice threads: a frame-threaded encoder holds frames back and keeps a copy of every picture
 * in flight per thread, and the pipeline runs frames in parallel itself (mp_av_encoder_new). */
static mp_status context_open(const mp_av_sink *s, int threads, int quant, uint32_t height,
                              AVCodecContext **out, mp_error *err)
{
    const kind_info *k = s->kind;
    const char *name = mp_av_output_name(&s->out);
    const AVCodec *codec = mp_libav.avcodec_find_encoder_by_name(s->encoder);
    if (!codec)
        return mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: libavcodec has no %s encoder", name,
                            s->encoder);
    AVCodecContext *c = *out = mp_libav.avcodec_alloc_context3(codec);
    if (!c)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: cannot allocate the encoder", name);
    c->width = (int)s->p.width;
    c->height = (int)height;
    c->pix_fmt = k->pix_fmt;
    c->time_base = s->time_base;
    c->framerate = s->fps;
    c->sample_aspect_ratio = (AVRational){1, 1};
    if (s->p.sar_num && s->p.sar_den)
        mp_libav.av_reduce(&c->sample_aspect_ratio.num, &c->sample_aspect_ratio.den,
                           s->p.sar_num, s->p.sar_den, 65535);
    c->gop_size = 1;
    c->thread_count = threads;
    c->thread_type = FF_THREAD_SLICE;
    c->flags |= AV_CODEC_FLAG_BITEXACT;
    if (k->review) {
        c->gop_size = (int)((2 * (int64_t)s->fps.num + s->fps.den / 2) / s->fps.den);
        c->thread_count = REVIEW_THREADS;
        c->thread_type = FF_THREAD_FRAME;
        int x265 = !strcmp(k->encoder, "libx265");
        mp_libav.av_opt_set(c->priv_data, "preset", "medium", 0);
        mp_libav.av_opt_set(c->priv_data, "crf", x265 ? X265_CRF : X264_CRF, 0);
        if (x265)
            mp_libav.av_opt_set(c->priv_data, "x265-params",
                                "pools=4:frame-threads=1:log-level=error", 0);
    }
    if (quant) {
        c->flags |= AV_CODEC_FLAG_QSCALE;
        c->global_quality = quant * FF_QP2LAMBDA;
    }
    c->color_primaries = s->p.primaries;
    c->color_trc = s->p.transfer;
    if (s->is_yuv) {
        c->colorspace = s->yuv.matrix;
        c->color_range = s->yuv.range;
        c->profile = k->profile;
    } else {
        c->colorspace = AVCOL_SPC_RGB;
        c->color_range = AVCOL_RANGE_JPEG;
    }
    if (s->is_yuv && !k->review) {
        /* prores_ks and dnxhd pick their profile from their private option
         * (AVCodecContext.profile is only reported back); prores_ks would auto-select from
         * the pixel format otherwise, dnxhd would write DNxHD. */
        mp_libav.av_opt_set_int(c->priv_data, "profile", k->profile, 0);
    }
    /* prores_ks under-estimates the packet of a detailed or noisy picture at the low rates
     * (Proxy, LT) and at a fixed quantiser, grows the packet, and says so with a warning that
     * asks for a sample and an FFmpeg update; the frame is correct, so that note goes to the
     * debug level (its failures still come back as return codes). */
    if (!strcmp(s->encoder, "prores_ks"))
        c->log_level_offset = AV_LOG_DEBUG - AV_LOG_WARNING;
    if (s->p.kind == AV_SINK_FFV1) {
        c->level = 3;
        /* Fixed by the frame size, never by the thread count, so the bytes do not change
         * with --threads; slices are what FFV1's threads work on. */
        c->slices = s->p.width >= 1280 && s->p.height >= 720 ? 16 : 4;
        mp_libav.av_opt_set_int(c->priv_data, "slicecrc", 1, 0);
        mp_libav.av_opt_set_int(c->priv_data, "coder", 1, 0);   /* range coder: > 8 bits */
    }
    if (s->fmt->oformat->flags & AVFMT_GLOBALHEADER)
        c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    int r = mp_libav.avcodec_open2(c, codec, NULL);
    return r < 0 ? mp_av_output_fail(NULL, r, name, s->encoder, err) : MP_OK;
}

/* The frame quantiser search's budget (above): prores_ks reports the bits per macroblock its
 * rate control aims at once it is open. */
static int64_t quant_search_budget(const mp_av_sink *s, AVCodecContext *c)
{
    int64_t bits_per_mb = 0;
    if (!s->kind->first_quant || strcmp(s->encoder, "prores_ks") || s->p.prores_slice_rc ||
        mp_libav.av_opt_get_int(c->priv_data, "bits_per_mb", 0, &bits_per_mb) < 0)
        return 0;
    int64_t mbs = (int64_t)((s->p.width + 15) / 16) * ((s->p.height + 15) / 16);
    return bits_per_mb * mbs / 8;
}

/* The number of macroblock rows in the frame's sample for the quantiser prediction
 * (QUANT_STEPS); 0: no sample. */
static uint32_t probe_rows(const mp_av_sink *s)
{
    uint32_t slices_per_row = (s->p.width + 127) / 128, full_rows = s->p.height / 16;
    uint32_t rows = (PROBE_SLICES + slices_per_row - 1) / slices_per_row;
    return rows * 4 <= full_rows ? rows : 0;
}

/* The frame's macroblock row that is the sample's row k of rows: the middle of k's share. */
static size_t probe_source_row(const mp_av_sink *s, uint32_t k, uint32_t rows)
{
    return ((size_t)2 * k + 1) * (s->p.height / 16) / (2 * (size_t)rows);
}

/* An encoder at the first quantiser for the sample, and the sample's picture buffer. */
static mp_status probe_open(mp_av_encoder *e, mp_error *err)
{
    const mp_av_sink *s = e->sink;
    uint32_t height = probe_rows(s) * 16;
    if (!height)
        return MP_OK;
    mp_status st = context_open(s, 1, s->kind->first_quant, height, &e->probe, err);
    if (st != MP_OK)
        return st;
    AVFrame *f = e->probe_frame = mp_libav.av_frame_alloc();
    if (!f)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: cannot allocate the encoder",
                            mp_av_output_name(&s->out));
    f->format = e->frame->format;
    f->width = e->frame->width;
    f->height = (int)height;
    int r = mp_libav.av_frame_get_buffer(f, 0);
    return r < 0 ? mp_av_output_fail(NULL, r, mp_av_output_name(&s->out), s->encoder, err)
                 : MP_OK;
}

/* An opened encoder of the sink's kind with its picture buffer. */
static mp_status encoder_open(const mp_av_sink *s, int threads, mp_av_encoder **out,
                              mp_error *err)
{
    *out = NULL;
    mp_av_encoder *e = calloc(1, sizeof *e);
    if (e) {
        e->sink = s;
        e->frame = mp_libav.av_frame_alloc();
        e->pkt = mp_libav.av_packet_alloc();
        if (s->is_yuv && s->yuv_bits == 8)   /* 4:2:0: two rows */
            e->row8 = malloc(3 * ((size_t)s->p.width << s->chroma_rows_shift) *
                             sizeof *e->row8);
    }
    if (!e || !e->frame || !e->pkt || (s->is_yuv && s->yuv_bits == 8 && !e->row8)) {
        mp_av_encoder_free(e);
        return mp_error_set(err, MP_ERR_NOMEM, "%s: cannot allocate the encoder",
                            mp_av_output_name(&s->out));
    }
    mp_status st = context_open(s, threads, 0, s->p.height, &e->ctx, err);
    if (st == MP_OK) {
        AVCodecContext *c = e->ctx;
        e->frame_budget = quant_search_budget(s, c);
        e->frame->format = c->pix_fmt;
        e->frame->width = c->width;
        e->frame->height = c->height;
        /* the 16-bit RGB kinds pack their packets themselves (pack_rgb48) */
        int r = packs_rgb48(s->p.kind) ? 0 : mp_libav.av_frame_get_buffer(e->frame, 0);
        if (r < 0)
            st = mp_av_output_fail(NULL, r, mp_av_output_name(&s->out), s->encoder, err);
        else if (e->frame_budget)
            st = probe_open(e, err);
    }
    if (st != MP_OK) {
        mp_av_encoder_free(e);
        return st;
    }
    *out = e;
    return MP_OK;
}

mp_status mp_av_encoder_new(const mp_av_sink *s, mp_av_encoder **out, mp_error *err)
{
    *out = NULL;
    return s->kind->one_encoder ? MP_OK : encoder_open(s, 1, out, err);
}

mp_av_encoder *mp_av_sink_encoder(mp_av_sink *s)
{
    return s->enc;
}

static mp_status open_encoder(mp_av_sink *s, mp_error *err)
{
    mp_status st = encoder_open(s, s->p.threads ? s->p.threads : 1, &s->enc, err);
    if (st != MP_OK)
        return st;
    AVCodecContext *c = s->enc->ctx;
    s->video = mp_libav.avformat_new_stream(s->fmt, NULL);
    if (!s->video)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: cannot add the video stream",
                            mp_av_output_name(&s->out));
    int r = mp_libav.avcodec_parameters_from_context(s->video->codecpar, c);
    if (r < 0)
        return mp_av_fail(s, r, "video stream parameters", err);
    s->video->time_base = s->time_base;
    s->video->avg_frame_rate = s->fps;
    s->video->r_frame_rate = s->fps;
    s->video->sample_aspect_ratio = c->sample_aspect_ratio;
    if (!(s->pkt = mp_libav.av_packet_alloc()))
        return mp_error_set(err, MP_ERR_NOMEM, "%s: cannot allocate a packet",
                            mp_av_output_name(&s->out));
    return MP_OK;
}

static enum AVCodecID pcm_codec(uint16_t bits)
{
    switch (bits) {
    case 8: return AV_CODEC_ID_PCM_U8;
    case 16: return AV_CODEC_ID_PCM_S16LE;
    case 24: return AV_CODEC_ID_PCM_S24LE;
    default: return AV_CODEC_ID_PCM_S32LE;
    }
}

static mp_status add_audio(mp_av_sink *s, mp_error *err)
{
    const mp_audio_format *a = &s->p.audio;
    mp_status st = mp_av_audio_init(&s->audio, a, s->fps, s->p.first_frame, s->p.audio_offset, err);
    if (st != MP_OK)
        return with_path(st, mp_av_output_name(&s->out), err);
    AVStream *as = s->audio_stream = mp_libav.avformat_new_stream(s->fmt, NULL);
    if (!as)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: cannot add the audio stream",
                            mp_av_output_name(&s->out));
    as->time_base = (AVRational){1, (int)a->sample_rate};
    if (s->kind->review) {
        st = mp_av_aac_open(&s->aac, a, !!(s->fmt->oformat->flags & AVFMT_GLOBALHEADER), err);
        if (st != MP_OK)
            return with_path(st, mp_av_output_name(&s->out), err);
        int r = mp_libav.avcodec_parameters_from_context(as->codecpar, s->aac.ctx);
        return r < 0 ? mp_av_fail(s, r, "audio stream parameters", err) : MP_OK;
    }
    AVCodecParameters *par = as->codecpar;
    par->codec_type = AVMEDIA_TYPE_AUDIO;
    par->codec_id = pcm_codec(a->bits_per_sample);
    par->sample_rate = (int)a->sample_rate;
    mp_libav.av_channel_layout_default(&par->ch_layout, a->channels);
    par->bits_per_coded_sample = a->bits_per_sample;
    par->bits_per_raw_sample = a->bits_per_sample;
    par->block_align = (int)s->audio.block_align;
    par->bit_rate = (int64_t)a->sample_rate * s->audio.block_align * 8;
    return MP_OK;
}

static mp_status open_muxer(mp_av_sink *s, mp_error *err)
{
    int r = mp_libav.avformat_alloc_output_context2(&s->fmt, NULL, s->kind->muxer, NULL);
    if (r < 0)
        return mp_av_fail(s, r, s->kind->muxer, err);
    s->fmt->pb = s->out.pb;
    s->fmt->flags |= AVFMT_FLAG_BITEXACT;
    /* An empty moov first and a fragment per key frame (each frame): nothing to seek back
     * to, so a pipe's reader gets the colr atom and the PCM track before the frames. */
    if (s->p.kind == AV_SINK_MOVRAW &&
        (r = mp_libav.av_opt_set(s->fmt->priv_data, "movflags", "frag_keyframe+empty_moov",
                                 0)) < 0)
        return mp_av_fail(s, r, "movflags", err);
    /* Audio is emitted in step with the video, so the streams never drift apart by more than
     * a frame or two; if a caller's audio stalls, hold at most a second of packets. */
    s->fmt->max_interleave_delta = AV_TIME_BASE;
    /* rawvideo's muxer writes each packet whole and nothing else: straight to the output
     * rather than through the buffer, which would copy 12 MB per 1080p frame */
    s->out.pb->direct = s->p.kind == AV_SINK_RAWVIDEO;
    mp_status st = open_encoder(s, err);
    if (st == MP_OK && s->p.audio.present)
        st = add_audio(s, err);
    char tc[AV_TIMECODE_CHARS];
    if (st == MP_OK)
        st = start_timecode(s, tc, err);
    if (st != MP_OK)
        return st;
    if (tc[0] && (r = mp_libav.av_dict_set(&s->fmt->metadata, "timecode", tc, 0)) < 0)
        return mp_av_fail(s, r, "timecode", err);
    if ((r = mp_libav.avformat_write_header(s->fmt, NULL)) < 0)
        return mp_av_fail(s, r, "writing the header", err);
    return MP_OK;
}

mp_status mp_av_sink_open(mp_av_sink **out, const char *path, const mp_av_sink_params *p, mp_error *err)
{
    *out = NULL;
    mp_status st = check_params(p, path, err);
    if (st != MP_OK)
        return st;
    if ((st = with_path(mp_libav_load(err), path, err)) != MP_OK)
        return st;
    mp_av_sink *s = calloc(1, sizeof *s);
    if (!s)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
    s->p = *p;
    s->kind = &kinds[p->kind];
    s->encoder = p->prores_aw ? "prores_aw" : s->kind->encoder;
    const AVPixFmtDescriptor *desc = mp_libav.av_pix_fmt_desc_get(s->kind->pix_fmt);
    s->is_yuv = !(desc->flags & AV_PIX_FMT_FLAG_RGB);
    s->chroma_shift = desc->log2_chroma_w;
    s->chroma_rows_shift = desc->log2_chroma_h;
    s->yuv_bits = desc->comp[0].depth;
    if (s->is_yuv && p->yuv_range == AVCOL_RANGE_JPEG)
        st = mp_error_set(err, MP_ERR_UNSUPPORTED, "%s: %s is limited range only (its "
                          "decoders and MOV's nclc atom know no full-range stream)", path,
                          s->kind->name);
    if (st == MP_OK && s->is_yuv)
        st = with_path(mp_av_yuv_init_bits(&s->yuv, p->yuv_matrix, p->yuv_range, s->yuv_bits,
                                           err), path, err);
    if (st == MP_OK)
        st = with_path(mp_av_stream_rate(p->fps_num, p->fps_den, &s->fps, &s->time_base, err),
                       path, err);
    if (st == MP_OK && packs_rgb48(p->kind) &&
        !(s->packets = mp_libav.av_buffer_pool_init((size_t)p->width * p->height * 6 +
                                                        AV_INPUT_BUFFER_PADDING_SIZE,
                                                    mp_libav.av_buffer_allocz)))
        st = mp_error_set(err, MP_ERR_NOMEM, "%s: cannot allocate the packets' pool", path);
    if (st == MP_OK)
        st = mp_av_output_open(&s->out, path, p->overwrite, err);
    if (st == MP_OK)
        st = open_muxer(s, err);
    if (st != MP_OK) {
        mp_av_sink_abort(s);
        return st;
    }
    *out = s;
    return MP_OK;
}

static mp_status write_packet(mp_av_sink *s, AVStream *st, AVRational from, mp_error *err)
{
    mp_libav.av_packet_rescale_ts(s->pkt, from, st->time_base);
    s->pkt->stream_index = st->index;
    /* takes the packet's reference */
    int r = mp_libav.av_interleaved_write_frame(s->fmt, s->pkt);
    return r < 0 ? mp_av_fail(s, r, "writing a packet", err) : MP_OK;
}

static mp_status write_aac_packet(void *opaque, AVPacket *pkt, mp_error *err)
{
    mp_av_sink *s = opaque;
    mp_libav.av_packet_move_ref(s->pkt, pkt);
    return write_packet(s, s->audio_stream, s->aac.ctx->time_base, err);
}

static mp_status emit_audio_packet(void *opaque, const uint8_t *data, size_t bytes, int64_t pts,
                                   uint32_t samples, mp_error *err)
{
    mp_av_sink *s = opaque;
    if (s->aac.ctx)
        return mp_av_aac_push(&s->aac, data, samples, pts, write_aac_packet, s, err);
    int r = mp_libav.av_new_packet(s->pkt, (int)bytes);
    if (r < 0)
        return mp_av_fail(s, r, "audio packet", err);
    memcpy(s->pkt->data, data, bytes);
    s->pkt->pts = s->pkt->dts = pts;
    s->pkt->duration = samples;
    s->pkt->flags |= AV_PKT_FLAG_KEY;
    /* Samples: the muxer may have changed the stream's time base (Matroska: 1 ms). */
    return write_packet(s, s->audio_stream, (AVRational){1, (int)s->audio.rate}, err);
}

/* e->frame through c into e->pkt. Slice threads only (context_open): the packet comes out
 * of the same call. */
static mp_status encode_with(mp_av_encoder *e, AVCodecContext *c, mp_error *err)
{
    int r;
    if ((r = mp_libav.avcodec_send_frame(c, e->frame)) < 0 ||
        (r = mp_libav.avcodec_receive_packet(c, e->pkt)) < 0)
        return mp_av_output_fail(NULL, r, mp_av_output_name(&e->sink->out), e->sink->encoder,
                                 err);
    return MP_OK;
}

/* e->frame at quantiser step i (first_quant + i) into e->pkt. */
static mp_status encode_at_step(mp_av_encoder *e, int i, mp_error *err)
{
    const mp_av_sink *s = e->sink;
    if (!e->at_quant[i]) {
        mp_status st = context_open(s, 1, s->kind->first_quant + i, s->p.height,
                                    &e->at_quant[i], err);
        if (st != MP_OK)
            return st;
    }
    return encode_with(e, e->at_quant[i], err);
}

/* The quantiser step the search starts at (QUANT_STEPS): 0 when the sample, coded at the
 * first quantiser, scaled by the frame's macroblock rows over the sample's, is within the
 * budget, else 1 (a frame at the first step takes about 1.8x its bytes at the second on
 * developed raw video, noisy or not: doc/benchmarks.md §3). Without a sample, 0. */
static mp_status predicted_step(mp_av_encoder *e, int *step, mp_error *err)
{
    *step = 0;
    if (!e->probe)
        return MP_OK;
    const AVFrame *f = e->frame;
    AVFrame *p = e->probe_frame;
    int r = mp_libav.av_frame_make_writable(p);
    if (r < 0)
        return mp_av_output_fail(NULL, r, mp_av_output_name(&e->sink->out), "frame buffer",
                                 err);
    uint32_t rows = probe_rows(e->sink);
    for (int i = 0; i < AV_NUM_DATA_POINTERS && f->data[i]; i++) {
        size_t bytes = (size_t)(f->linesize[i] < p->linesize[i] ? f->linesize[i]
                                                                : p->linesize[i]);
        for (uint32_t k = 0; k < rows; k++)
            for (uint32_t y = 0; y < 16; y++) {
                size_t from = probe_source_row(e->sink, k, rows) * 16 + y;
                memcpy(p->data[i] + ((size_t)k * 16 + y) * (size_t)p->linesize[i],
                       f->data[i] + from * (size_t)f->linesize[i], bytes);
            }
    }
    p->pict_type = AV_PICTURE_TYPE_I;
    AVFrame *whole = e->frame;
    e->frame = p;
    mp_status st = encode_with(e, e->probe, err);
    e->frame = whole;
    if (st != MP_OK)
        return st;
    int64_t mb_rows = (e->sink->p.height + 15) / 16;
    if ((int64_t)e->pkt->size * mb_rows > e->frame_budget * rows)
        *step = 1;
    mp_libav.av_packet_unref(e->pkt);
    return MP_OK;
}

/* e->frame into e->pkt: at the predicted quantiser step, or the next coarser ones while the
 * frame exceeds the budget, else through the encoder's own rate control (QUANT_STEPS). */
static mp_status encode_frame(mp_av_encoder *e, mp_error *err)
{
    if (!e->frame_budget)
        return encode_with(e, e->ctx, err);
    int step;
    mp_status st = predicted_step(e, &step, err);
    for (int i = step; st == MP_OK && i < QUANT_STEPS; i++) {
        if ((st = encode_at_step(e, i, err)) != MP_OK || e->pkt->size <= e->frame_budget)
            return st;
        mp_libav.av_packet_unref(e->pkt);
    }
    return st != MP_OK ? st : encode_with(e, e->ctx, err);
}

/* One row of Y'CbCr into the frame's planes; 8-bit codes go through row8. */
static void fill_yuv_row(mp_av_encoder *e, const uint16_t *r, const uint16_t *g,
                         const uint16_t *b, uint32_t y)
{
    const mp_av_sink *s = e->sink;
    AVFrame *f = e->frame;
    uint32_t w = s->p.width;
    uint16_t *row[3];
    for (int i = 0; i < 3; i++)
        row[i] = e->row8 ? e->row8 + (size_t)i * w
                         : (uint16_t *)(f->data[i] + (size_t)y * (size_t)f->linesize[i]);
    if (s->chroma_shift)
        mp_av_yuv_row_422(&s->yuv, r, g, b, w, row[0], row[1], row[2]);
    else
        mp_av_yuv_row_444(&s->yuv, r, g, b, w, row[0], row[1], row[2]);
    if (!e->row8)
        return;
    for (int i = 0; i < 3; i++) {
        uint8_t *out = f->data[i] + (size_t)y * (size_t)f->linesize[i];
        uint32_t n = i ? (w + (1u << s->chroma_shift) - 1) >> s->chroma_shift : w;
        for (uint32_t x = 0; x < n; x++)
            out[x] = (uint8_t)row[i][x];   /* already 8-bit codes (mp_av_yuv_init_bits) */
    }
}

/* Rows y and y + 1 as 8-bit 4:2:0: each converted as 4:2:2, their chroma averaged into chroma
 * row y / 2 (sited between the two rows, where H.264 and H.265 decoders assume it). */
static void fill_yuv420_rows(mp_av_encoder *e, const uint16_t *const rgb[3], size_t stride,
                             uint32_t y)
{
    const mp_av_sink *s = e->sink;
    AVFrame *f = e->frame;
    const uint32_t w = s->p.width, cw = (w + 1) / 2;
    uint16_t *row[2][3];
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 3; i++)
            row[k][i] = e->row8 + ((size_t)k * 3 + (size_t)i) * w;
        size_t at = (size_t)(y + (uint32_t)k) * stride;
        mp_av_yuv_row_422(&s->yuv, rgb[0] + at, rgb[1] + at, rgb[2] + at, w, row[k][0],
                          row[k][1], row[k][2]);
        uint8_t *luma = f->data[0] + (size_t)(y + (uint32_t)k) * (size_t)f->linesize[0];
        for (uint32_t x = 0; x < w; x++)
            luma[x] = (uint8_t)row[k][0][x];   /* already 8-bit codes */
    }
    for (int i = 1; i < 3; i++) {
        uint8_t *out = f->data[i] + (size_t)(y / 2) * (size_t)f->linesize[i];
        for (uint32_t x = 0; x < cw; x++)
            out[x] = (uint8_t)((row[0][i][x] + row[1][i][x] + 1) >> 1);
    }
}

/* Row y of the AVFrame (any pixel format but 4:2:0) from its R, G, B samples. */
static void fill_row(mp_av_encoder *e, const uint16_t *r, const uint16_t *g, const uint16_t *b,
                     uint32_t y)
{
    const AVFrame *f = e->frame;
    const size_t bytes = e->sink->p.width * sizeof *r;
    if (e->sink->is_yuv) {
        fill_yuv_row(e, r, g, b, y);
    } else {   /* gbrp16le: planes in G, B, R order */
        memcpy(f->data[0] + (size_t)y * (size_t)f->linesize[0], g, bytes);
        memcpy(f->data[1] + (size_t)y * (size_t)f->linesize[1], b, bytes);
        memcpy(f->data[2] + (size_t)y * (size_t)f->linesize[2], r, bytes);
    }
}

/* Fills the AVFrame with the kind's pixel format from R, G, B planes. */
static void fill_frame(mp_av_encoder *e, const uint16_t *const rgb[3], size_t stride)
{
    const mp_av_sink *s = e->sink;
    if (s->chroma_rows_shift) {   /* even heights only (check_params) */
        for (uint32_t y = 0; y < s->p.height; y += 2)
            fill_yuv420_rows(e, rgb, stride, y);
        return;
    }
    for (uint32_t y = 0; y < s->p.height; y++)
        fill_row(e, rgb[0] + y * stride, rgb[1] + y * stride, rgb[2] + y * stride, y);
}

static mp_status check_stride(const mp_av_sink *s, size_t stride, mp_error *err)
{
    if (stride < s->p.width)
        return mp_error_set(err, MP_ERR_ARG, "%s: row stride %zu below the width %u",
                            mp_av_output_name(&s->out), stride, s->p.width);
    return MP_OK;
}

/* e->frame ready to be filled (the encoder may still hold the last one). */
static mp_status frame_writable(mp_av_encoder *e, mp_error *err)
{
    int r = mp_libav.av_frame_make_writable(e->frame);
    return r < 0 ? mp_av_output_fail(NULL, r, mp_av_output_name(&e->sink->out), "frame buffer",
                                     err)
                 : MP_OK;
}

/* e->frame (filled) tagged; an intra-only kind's marked a key frame. */
static void tag_frame(mp_av_encoder *e)
{
    const mp_av_sink *s = e->sink;
    AVFrame *f = e->frame;
    AVCodecContext *c = e->ctx;
    f->pts = 0;   /* the writer stamps the packet */
    f->color_primaries = c->color_primaries;
    f->color_trc = c->color_trc;
    f->colorspace = c->colorspace;
    f->color_range = c->color_range;
    f->pict_type = s->kind->review ? AV_PICTURE_TYPE_NONE : AV_PICTURE_TYPE_I;
    f->key_frame = !s->kind->review;
}

/* e->frame from the planes, tagged. */
static mp_status prepare_frame(mp_av_encoder *e, const uint16_t *const planes[3],
                               size_t stride, mp_error *err)
{
    mp_status st = check_stride(e->sink, stride, err);
    if (st == MP_OK && (st = frame_writable(e, err)) == MP_OK) {
        fill_frame(e, planes, stride);
        tag_frame(e);
    }
    return st;
}

/* One row of R, G, B as 16-bit RGB samples, each low byte first or (big_endian) high first. */
static void pack_rgb48_row(const uint16_t *r, const uint16_t *g, const uint16_t *b, uint32_t w,
                           int big_endian, uint8_t *row)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (!big_endian) {
        /* one 8-byte store per pixel instead of three: its top two bytes (zero) are
         * overwritten by the next pixel, or land in the packet's padding */
        for (uint32_t x = 0; x < w; x++) {
            uint64_t px = r[x] | (uint64_t)g[x] << 16 | (uint64_t)b[x] << 32;
            memcpy(row + (size_t)x * 6, &px, sizeof px);
        }
        return;
    }
#endif
    const size_t low = big_endian ? 1 : 0;
    for (uint32_t x = 0; x < w; x++) {
        const uint16_t c[3] = {r[x], g[x], b[x]};
        for (size_t i = 0; i < 3; i++) {
            row[(size_t)x * 6 + 2 * i + low] = (uint8_t)c[i];
            row[(size_t)x * 6 + 2 * i + 1 - low] = (uint8_t)(c[i] >> 8);
        }
    }
}

/* rawvideo and movraw: the picture packed straight into a packet of their own, rows back to
 * back, as libavcodec's rawvideo encoder lays them out (av_image_copy_to_buffer, alignment
 * 1). Its encoder would first want them in an AVFrame and then copy that frame into the
 * packet: two passes over 12 MB per 1080p frame that this one replaces. The packets' buffers
 * come from the sink's pool: a fresh 12 MB buffer per frame is fresh pages, which the kernel
 * zeroes (a quarter of the command's CPU; doc/benchmarks.md §10, session 14). */
static mp_status rgb48_packet(const mp_av_sink *s, AVPacket **out, mp_error *err)
{
    AVPacket *p = mp_libav.av_packet_alloc();
    if (p)
        p->buf = mp_libav.av_buffer_pool_get(s->packets);
    if (!p || !p->buf) {
        mp_libav.av_packet_free(&p);
        return mp_error_set(err, MP_ERR_NOMEM, "%s: cannot allocate a packet",
                            mp_av_output_name(&s->out));
    }
    p->data = p->buf->data;
    p->size = (int)((size_t)s->p.width * s->p.height * 6);
    memset(p->data + p->size, 0, AV_INPUT_BUFFER_PADDING_SIZE);
    p->flags |= AV_PKT_FLAG_KEY;
    *out = p;
    return MP_OK;
}

/* Row y of a packet from rgb48_packet. */
static void pack_rgb48_at(const mp_av_sink *s, AVPacket *p, uint32_t y, const uint16_t *r,
                          const uint16_t *g, const uint16_t *b)
{
    const size_t w = s->p.width;
    pack_rgb48_row(r, g, b, (uint32_t)w, s->kind->pix_fmt == AV_PIX_FMT_RGB48BE,
                   p->data + y * w * 6);
}

static mp_status pack_rgb48(const mp_av_sink *s, const uint16_t *const rgb[3], size_t stride,
                            AVPacket **out, mp_error *err)
{
    mp_status st = check_stride(s, stride, err);
    if (st == MP_OK && (st = rgb48_packet(s, out, err)) == MP_OK)
        for (uint32_t y = 0; y < s->p.height; y++)
            pack_rgb48_at(s, *out, y, rgb[0] + y * stride, rgb[1] + y * stride,
                          rgb[2] + y * stride);
    return st;
}

/* e->frame (filled and tagged) encoded, its packet into *out. */
static mp_status encode_taken(mp_av_encoder *e, AVPacket **out, mp_error *err)
{
    const char *name = mp_av_output_name(&e->sink->out);
    int r;
    mp_status st = encode_frame(e, err);
    if (st != MP_OK)
        return st;
    /* Packets wait in the pipeline's slots, so each keeps only its bytes. libavcodec 5.1
     * hands every kind here its packet in a buffer of exactly its size plus the padding (it
     * copies out of the encoder's worst-case buffer itself), so the packet is taken as it is:
     * a second copy cost 12 MB of memcpy and fresh pages per rawvideo frame (doc/benchmarks.md,
     * "Session 12"). A packet in a larger buffer (another libavcodec) is copied out. */
    AVPacket *p = mp_libav.av_packet_alloc();
    const AVPacket *k = e->pkt;
    size_t fitted = (size_t)k->size + AV_INPUT_BUFFER_PADDING_SIZE;
    if (p && k->buf && k->buf->size <= fitted + fitted / 8) {
        mp_libav.av_packet_move_ref(p, e->pkt);
        *out = p;
        return MP_OK;
    }
    if (!p || (r = mp_libav.av_new_packet(p, e->pkt->size)) < 0 ||
        (r = mp_libav.av_packet_copy_props(p, e->pkt)) < 0) {
        mp_libav.av_packet_free(&p);
        mp_libav.av_packet_unref(e->pkt);
        return mp_error_set(err, MP_ERR_NOMEM, "%s: cannot allocate a packet", name);
    }
    memcpy(p->data, e->pkt->data, (size_t)e->pkt->size);
    mp_libav.av_packet_unref(e->pkt);
    *out = p;
    return MP_OK;
}

mp_status mp_av_encode_rgb(mp_av_encoder *e, const uint16_t *const planes[3], size_t stride,
                           AVPacket **out, mp_error *err)
{
    const mp_av_sink *s = e->sink;
    const char *name = mp_av_output_name(&s->out);
    *out = NULL;
    if (s->kind->review)
        return mp_error_set(err, MP_ERR_ARG, "%s: %s predicts frames from frames: write them "
                            "with mp_av_sink_write_rgb", name, s->kind->name);
    if (packs_rgb48(s->p.kind))
        return pack_rgb48(s, planes, stride, out, err);
    mp_status st = prepare_frame(e, planes, stride, err);
    return st == MP_OK ? encode_taken(e, out, err) : st;
}

int mp_av_encoder_takes_rows(const mp_av_encoder *e)
{
    return !e->sink->kind->review && !e->sink->chroma_rows_shift;
}

mp_status mp_av_encode_rows_begin(mp_av_encoder *e, mp_error *err)
{
    mp_libav.av_packet_free(&e->rows_pkt);   /* a frame given up half-way */
    if (packs_rgb48(e->sink->p.kind))
        return rgb48_packet(e->sink, &e->rows_pkt, err);
    return frame_writable(e, err);
}

void mp_av_encode_row(mp_av_encoder *e, uint32_t y, const uint16_t *const rgb[3])
{
    if (e->rows_pkt)
        pack_rgb48_at(e->sink, e->rows_pkt, y, rgb[0], rgb[1], rgb[2]);
    else
        fill_row(e, rgb[0], rgb[1], rgb[2], y);
}

mp_status mp_av_encode_rows_end(mp_av_encoder *e, AVPacket **out, mp_error *err)
{
    *out = NULL;
    if (e->rows_pkt) {
        *out = e->rows_pkt;
        e->rows_pkt = NULL;
        return MP_OK;
    }
    tag_frame(e);
    return encode_taken(e, out, err);
}

/* Frame `frame` is in the movie: counted, and the audio muxed up to its end. */
static mp_status frame_done(mp_av_sink *s, uint64_t frame, mp_error *err)
{
    s->frames++;
    if (s->audio_stream)
        return mp_av_audio_emit(&s->audio, frame + 1, s->audio_ended, emit_audio_packet, s, err);
    return MP_OK;
}

static mp_status check_next(const mp_av_sink *s, uint64_t frame, mp_error *err)
{
    uint64_t expected = s->p.first_frame + s->frames;
    if (frame != expected)
        return mp_error_set(err, MP_ERR_RANGE, "%s: frame %llu arrived, %llu expected (frames "
                            "must come in order, none missing)", mp_av_output_name(&s->out),
                            (unsigned long long)frame, (unsigned long long)expected);
    return MP_OK;
}

mp_status mp_av_sink_write_packet(mp_av_sink *s, const AVPacket *pkt, uint64_t frame,
                                  mp_error *err)
{
    mp_status st = check_next(s, frame, err);
    if (st != MP_OK)
        return st;
    int r = mp_libav.av_packet_ref(s->pkt, pkt);
    if (r < 0)
        return mp_av_fail(s, r, "packet", err);
    s->pkt->pts = s->pkt->dts = (int64_t)frame;
    s->pkt->flags |= AV_PKT_FLAG_KEY;
    st = write_packet(s, s->video, s->enc->ctx->time_base, err);
    return st == MP_OK ? frame_done(s, frame, err) : st;
}

/* Review kinds: the packets the encoder has ready, muxed with its own pts and dts. */
static mp_status drain_video(mp_av_sink *s, mp_error *err)
{
    AVCodecContext *c = s->enc->ctx;
    for (;;) {
        int r = mp_libav.avcodec_receive_packet(c, s->pkt);
        if (r == AVERROR(EAGAIN) || r == AVERROR_EOF)
            return MP_OK;
        if (r < 0)
            return mp_av_fail(s, r, s->encoder, err);
        mp_status st = write_packet(s, s->video, c->time_base, err);
        if (st != MP_OK)
            return st;
    }
}

/* Review kinds: the encoder's picture (prepare_frame) as frame `frame`, then the audio up to
 * its end. */
static mp_status send_review_frame(mp_av_sink *s, uint64_t frame, mp_error *err)
{
    s->enc->frame->pts = (int64_t)frame;
    int r = mp_libav.avcodec_send_frame(s->enc->ctx, s->enc->frame);
    if (r < 0)
        return mp_av_fail(s, r, s->encoder, err);
    mp_status st = drain_video(s, err);
    return st == MP_OK ? frame_done(s, frame, err) : st;
}

int mp_av_sink_predicts(const mp_av_sink *s)
{
    return s->kind->review;
}

mp_status mp_av_sink_repeat(mp_av_sink *s, uint64_t frame, mp_error *err)
{
    mp_status st = check_next(s, frame, err);
    if (st == MP_OK && (!s->kind->review || !s->frames))
        st = mp_error_set(err, MP_ERR_ARG, "%s: nothing to repeat (%s)",
                          mp_av_output_name(&s->out), s->frames ? "repeat packets instead"
                                                                : "no picture yet");
    return st == MP_OK ? send_review_frame(s, frame, err) : st;
}

mp_status mp_av_sink_write_rgb(mp_av_sink *s, const uint16_t *const planes[3], size_t stride,
                            uint64_t frame, mp_error *err)
{
    mp_status st = check_next(s, frame, err);
    if (st != MP_OK)
        return st;
    if (s->kind->review) {
        st = prepare_frame(s->enc, planes, stride, err);
        return st == MP_OK ? send_review_frame(s, frame, err) : st;
    }
    AVPacket *pkt;
    st = mp_av_encode_rgb(s->enc, planes, stride, &pkt, err);
    if (st == MP_OK)
        st = mp_av_sink_write_packet(s, pkt, frame, err);
    mp_libav.av_packet_free(&pkt);
    return st;
}

mp_status mp_av_sink_write_audio(mp_av_sink *s, const void *pcm, size_t bytes, mp_error *err)
{
    if (!s->audio_stream || s->audio_ended)
        return mp_error_set(err, MP_ERR_ARG, "%s: audio given to a movie %s",
                            mp_av_output_name(&s->out), s->audio_stream ? "after its end"
                                                                     : "opened without audio");
    mp_status st = mp_av_audio_push(&s->audio, pcm, bytes, err);
    if (st == MP_OK && s->frames)
        st = mp_av_audio_emit(&s->audio, s->p.first_frame + s->frames, 0, emit_audio_packet, s,
                           err);
    return st;
}

mp_status mp_av_sink_end_audio(mp_av_sink *s, mp_error *err)
{
    if (!s->audio_stream || s->audio_ended)
        return MP_OK;
    s->audio_ended = 1;
    if (!s->frames)
        return MP_OK;
    return mp_av_audio_emit(&s->audio, s->p.first_frame + s->frames, 1, emit_audio_packet, s, err);
}

mp_status mp_av_sink_finish(mp_av_sink *s, mp_error *err)
{
    if (!s->frames) {
        mp_status st = mp_error_set(err, MP_ERR_ARG, "%s: no frames were written (nothing "
                                    "kept)", mp_av_output_name(&s->out));
        mp_av_sink_abort(s);
        return st;
    }
    mp_status st = MP_OK;
    int r;
    if (s->kind->review) {   /* the frames the encoder holds back */
        if ((r = mp_libav.avcodec_send_frame(s->enc->ctx, NULL)) < 0)
            st = mp_av_fail(s, r, s->encoder, err);
        else
            st = drain_video(s, err);
    }
    if (st == MP_OK && s->audio_stream)
        st = mp_av_audio_emit(&s->audio, s->p.first_frame + s->frames, 1, emit_audio_packet, s,
                           err);
    if (st == MP_OK && s->aac.ctx)
        st = mp_av_aac_flush(&s->aac, write_aac_packet, s, err);
    if (st == MP_OK && (r = mp_libav.av_write_trailer(s->fmt)) < 0)
        st = mp_av_fail(s, r, "writing the trailer", err);
    if (st == MP_OK) {
        st = mp_av_output_commit(&s->out, err);
        s->fmt->pb = NULL;
    }
    mp_av_sink_abort(s);
    return st;
}

void mp_av_sink_abort(mp_av_sink *s)
{
    if (!s)
        return;
    if (s->fmt)
        s->fmt->pb = NULL;   /* mp_av_output owns it */
    mp_libav.avformat_free_context(s->fmt);
    mp_av_encoder_free(s->enc);
    mp_libav.av_packet_free(&s->pkt);
    mp_av_audio_free(&s->audio);
    mp_av_aac_free(&s->aac);
    mp_av_output_abort(&s->out);
    mp_libav.av_buffer_pool_uninit(&s->packets);   /* freed as the last packet goes */
    free(s);
}

/* av_log goes to one process-wide callback, so the logger it forwards to is global too. */
static mp_logger av_log_target;

static void forward_av_log(void *avcl, int level, const char *fmt, va_list vl)
{
    if (level > AV_LOG_WARNING || !av_log_target.fn)
        return;
    char line[1024];
    int print_prefix = 1;
    mp_libav.av_log_format_line2(avcl, level, fmt, vl, line, sizeof line, &print_prefix);
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = 0;
    if (n)
        mp_log(&av_log_target, level <= AV_LOG_ERROR ? MP_LOG_ERROR : MP_LOG_WARNING,
               "libav: %s", line);
}

void mp_av_sink_route_av_log(const mp_logger *log)
{
    av_log_target = log && log->fn ? *log : (mp_logger){0};
    mp_libav_set_log_callback(av_log_target.fn ? forward_av_log : NULL);
}
