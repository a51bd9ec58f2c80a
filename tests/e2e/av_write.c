/* av_write: writes a movie through src/movie from a deterministic synthetic RGB pattern and
 * audio, for the av_*.sh end-to-end tests; also dumps the pattern and compares decoded frames.
 *
 *   av_write --kind K -o PATH|- [--size WxH] [--frames A-B] [--fps N/D] [--threads T]
 *            [--audio RATE:CHANNELS:BITS [--audio-first] [--audio-short N]]
 *            [--tc HH:MM:SS:FF | --tc-frames N
 *            [--drop]] [--matrix bt709|bt2020nc|smpte170m] [--overwrite] [--fail-at N]
 *   av_write --dump-rgb FILE [--size WxH] [--frames A-B]     pattern as gbrp16le frames
 *   av_write --dump-audio FILE --audio R:C:B [--fps N/D] [--frames A-B]   the PCM the movie of
 *            those frames should hold
 *   av_write --psnr FILE --decoded yuv444p12le|yuv422p10le --matrix M --range tv|pc
 *            [--size WxH] [--frames A-B]   PSNR (dB, peak 65535, over R, G, B) of the decoder's
 *            own output (no swscale: its 16-bit RGB conversion is off by ~0.4 %) converted back
 *            to RGB in double with the matrix ffprobe reports (bt709, bt2020nc, smpte170m);
 *            prints "psnr X min_frame Y luma Z" (Z: PSNR of Y' alone, for 4:2:2)
 *
 * Frame n of the pattern depends only on n (absolute), so segments and whole runs agree. The
 * audio is the clip's PCM from sample 0 at frame 0; a run starting at frame A drops the samples
 * before A (audio_offset), as mp_wav_start_offset does for clip audio. It is pushed in pieces
 * running a little ahead of the video (or all at once with --audio-first); it runs 777 sample
 * frames past the last frame, or with --audio-short N stops N frames before it (then
 * mp_av_sink_end_audio is called and the movie must hold silence there). Exit status: 0 ok,
 * 2 usage, 5 output error (closed pipe included), 1 other failure. --fail-at N aborts after N
 * frames (the temporary file must disappear). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movie/av_audio.h"
#include "movie/av_sink.h"
#include "movie/av_timing.h"

typedef struct options {
    const char *kind, *out, *dump_rgb, *dump_audio, *psnr;
    uint32_t width, height, fps_num, fps_den;
    uint64_t first, last;
    int threads, overwrite, audio_first, drop;
    uint32_t audio_short;         /* the clip's audio ends this many frames before the video */
    long fail_at;
    uint32_t rate, channels, bits;
    const char *tc;
    int64_t tc_frames;
    const char *matrix, *decoded;
    int range_pc;
} options;

static int usage(const char *msg)
{
    fprintf(stderr, "av_write: %s\n", msg);
    return 2;
}

static uint32_t hash3(uint32_t x, uint32_t y, uint32_t n)
{
    uint32_t h = x * 0x9E3779B1u ^ y * 0x85EBCA77u ^ n * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

/* Smooth ramps, a moving bright bar, and noise in the 6 low bits (under one 10-bit step, so
 * ProRes sees smooth content while FFV1 must keep every bit). */
static void pattern(uint32_t w, uint32_t h, uint64_t n, uint16_t *r, uint16_t *g, uint16_t *b)
{
    uint32_t bar = (uint32_t)(n * 8 % w), bar_w = w / 10 + 1;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            uint32_t noise = hash3(x, y, (uint32_t)n);
            uint32_t rv = (uint32_t)((uint64_t)x * 60000 / (w - 1));
            uint32_t gv = (uint32_t)((uint64_t)y * 60000 / (h - 1));
            uint32_t bv = (uint32_t)((uint64_t)(x + y + 4 * n) % (w + h) * 60000 / (w + h));
            if (x - bar < bar_w)
                rv = gv = 62000;
            r[i] = (uint16_t)(rv + (noise & 63));
            g[i] = (uint16_t)(gv + (noise >> 8 & 63));
            b[i] = (uint16_t)(bv + (noise >> 16 & 63));
        }
}

/* Sample frame i of the clip's audio, channel c, as a signed value of the given bits. */
static int32_t audio_sample(uint64_t i, uint32_t c, uint32_t bits)
{
    int32_t tri = (int32_t)((i * (37 + 11 * c)) % 2000) - 1000;
    return bits >= 12 ? tri * (1 << (bits - 12)) : tri / (1 << (12 - bits));
}

/* Sample frames in the clip's audio: 777 beyond the last frame, or --audio-short frames short
 * of it. */
static int64_t audio_length(const options *o)
{
    AVRational fps = {(int)o->fps_num, (int)o->fps_den};
    if (o->audio_short)
        return mp_av_audio_frame_start(o->last + 1 - o->audio_short, o->rate, fps);
    return mp_av_audio_frame_start(o->last + 1, o->rate, fps) + 777;
}

/* The clip's PCM from first_sample on; silence past its end (what the movie must hold). */
static void audio_bytes(const options *o, uint64_t first_sample, size_t samples, uint8_t *out)
{
    uint32_t bps = o->bits / 8;
    uint64_t length = (uint64_t)audio_length(o);
    for (size_t s = 0; s < samples; s++)
        for (uint32_t c = 0; c < o->channels; c++) {
            int32_t v = first_sample + s < length ? audio_sample(first_sample + s, c, o->bits) : 0;
            uint32_t u = o->bits == 8 ? (uint32_t)(v + 128) : (uint32_t)v;
            for (uint32_t k = 0; k < bps; k++)
                *out++ = (uint8_t)(u >> (8 * k));
        }
}

static int parse(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->width = 64;
    o->height = 48;
    o->fps_num = 24000;
    o->fps_den = 1001;
    o->last = 9;
    o->tc_frames = -1;
    o->fail_at = -1;
    o->matrix = "bt709";
    o->decoded = "yuv444p12le";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int used = 1;
        if (!strcmp(a, "--kind") && v)
            o->kind = v;
        else if (!strcmp(a, "-o") && v)
            o->out = v;
        else if (!strcmp(a, "--dump-rgb") && v)
            o->dump_rgb = v;
        else if (!strcmp(a, "--dump-audio") && v)
            o->dump_audio = v;
        else if (!strcmp(a, "--psnr") && v)
            o->psnr = v;
        else if (!strcmp(a, "--size") && v) {
            if (sscanf(v, "%ux%u", &o->width, &o->height) != 2)
                return usage("bad --size");
        } else if (!strcmp(a, "--frames") && v) {
            unsigned long long f, l;
            if (sscanf(v, "%llu-%llu", &f, &l) != 2 || l < f)
                return usage("bad --frames");
            o->first = f;
            o->last = l;
        } else if (!strcmp(a, "--fps") && v) {
            if (sscanf(v, "%u/%u", &o->fps_num, &o->fps_den) != 2)
                return usage("bad --fps");
        } else if (!strcmp(a, "--audio") && v) {
            if (sscanf(v, "%u:%u:%u", &o->rate, &o->channels, &o->bits) != 3)
                return usage("bad --audio");
        } else if (!strcmp(a, "--threads") && v)
            o->threads = atoi(v);
        else if (!strcmp(a, "--tc") && v)
            o->tc = v;
        else if (!strcmp(a, "--tc-frames") && v)
            o->tc_frames = atoll(v);
        else if (!strcmp(a, "--matrix") && v)
            o->matrix = v;
        else if (!strcmp(a, "--decoded") && v)
            o->decoded = v;
        else if (!strcmp(a, "--range") && v)
            o->range_pc = !strcmp(v, "pc");
        else if (!strcmp(a, "--fail-at") && v)
            o->fail_at = atol(v);
        else if (!strcmp(a, "--audio-short") && v)
            o->audio_short = (uint32_t)atoi(v);
        else {
            used = 0;
            if (!strcmp(a, "--overwrite"))
                o->overwrite = 1;
            else if (!strcmp(a, "--audio-first"))
                o->audio_first = 1;
            else if (!strcmp(a, "--drop"))
                o->drop = 1;
            else
                return usage(a);
        }
        i += used;
    }
    if (o->width < 2 || o->height < 2 || o->width > 8192 || o->height > 8192)
        return usage("bad size");
    return 0;
}

static int write_file(const char *path, const void *data, size_t bytes, FILE **f)
{
    if (!*f && !(*f = fopen(path, "wb")))
        return 1;
    return fwrite(data, 1, bytes, *f) != bytes;
}

static int dump_rgb(const options *o, uint16_t *planes[3])
{
    FILE *f = NULL;
    size_t plane = (size_t)o->width * o->height * 2;
    for (uint64_t n = o->first; n <= o->last; n++) {
        pattern(o->width, o->height, n, planes[0], planes[1], planes[2]);
        if (write_file(o->dump_rgb, planes[1], plane, &f) ||
            write_file(o->dump_rgb, planes[2], plane, &f) ||
            write_file(o->dump_rgb, planes[0], plane, &f))
            return 1;
    }
    return f && fclose(f) != 0;
}

static int dump_audio(const options *o)
{
    AVRational fps = {(int)o->fps_num, (int)o->fps_den};
    int64_t s0 = mp_av_audio_frame_start(o->first, o->rate, fps);
    int64_t s1 = mp_av_audio_frame_start(o->last + 1, o->rate, fps);
    size_t n = (size_t)(s1 - s0), bytes = n * o->channels * o->bits / 8;
    uint8_t *buf = malloc(bytes ? bytes : 1);
    if (!buf)
        return 1;
    audio_bytes(o, (uint64_t)s0, n, buf);
    FILE *f = NULL;
    int bad = write_file(o->dump_audio, buf, bytes, &f) || fclose(f) != 0;
    free(buf);
    return bad;
}

/* Y'CbCr -> R'G'B' in double, written here independently of src/movie: Kr/Kb of the
 * matrix ffprobe reported, ITU-T H.273 quantisation at the decoder's bit depth. */
typedef struct inverse {
    double kr, kb;
    int full, bits, chroma_shift;   /* chroma_shift 1: 4:2:2 */
} inverse;

static int inverse_setup(const options *o, inverse *v)
{
    if (!strcmp(o->matrix, "bt709")) {
        v->kr = 0.2126;
        v->kb = 0.0722;
    } else if (!strcmp(o->matrix, "bt2020nc")) {
        v->kr = 0.2627;
        v->kb = 0.0593;
    } else if (!strcmp(o->matrix, "smpte170m") || !strcmp(o->matrix, "bt470bg")) {
        v->kr = 0.299;
        v->kb = 0.114;
    } else {
        return usage("--psnr: unknown --matrix (bt709, bt2020nc, smpte170m)");
    }
    v->full = o->range_pc;
    if (!strcmp(o->decoded, "yuv444p12le")) {
        v->bits = 12;
        v->chroma_shift = 0;
    } else if (!strcmp(o->decoded, "yuv422p10le")) {
        v->bits = 10;
        v->chroma_shift = 1;
    } else {
        return usage("--psnr: --decoded must be yuv444p12le or yuv422p10le");
    }
    return 0;
}

static double chroma_at(const uint16_t *row, uint32_t x, uint32_t cw, int shift)
{
    if (!shift)
        return row[x];
    /* 4:2:2 samples sit on even x: odd x takes the mean of its two neighbours. */
    uint32_t c = x / 2;
    if (!(x & 1) || c + 1 >= cw)
        return row[c];
    return 0.5 * (row[c] + row[c + 1]);
}

static int psnr(const options *o, uint16_t *planes[3])
{
    inverse v;
    int rc = inverse_setup(o, &v);
    if (rc)
        return rc;
    FILE *f = fopen(o->psnr, "rb");
    if (!f)
        return 1;
    uint32_t w = o->width, h = o->height, cw = v.chroma_shift ? (w + 1) / 2 : w;
    size_t luma = (size_t)w * h, chroma = (size_t)cw * h, samples = luma + 2 * chroma;
    uint16_t *dec = malloc(samples * 2);
    double unit = (double)(1 << (v.bits - 8)), mid = (double)(1 << (v.bits - 1));
    double max = (double)((1 << v.bits) - 1);
    double y0 = v.full ? 0 : 16 * unit, ys = v.full ? max : 219 * unit;
    double cs = v.full ? max : 224 * unit, kg = 1 - v.kr - v.kb;
    double total = 0, worst = INFINITY, luma_sse = 0;
    int bad = !dec;
    for (uint64_t n = o->first; !bad && n <= o->last; n++) {
        if (fread(dec, 2, samples, f) != samples) {
            fprintf(stderr, "av_write: %s: frame %llu missing\n", o->psnr, (unsigned long long)n);
            bad = 1;
            break;
        }
        pattern(w, h, n, planes[0], planes[1], planes[2]);
        double sse = 0;
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                size_t i = (size_t)y * w + x;
                double yy = (dec[i] - y0) / ys;
                double cb = (chroma_at(dec + luma + (size_t)y * cw, x, cw, v.chroma_shift) - mid) / cs;
                double cr = (chroma_at(dec + luma + chroma + (size_t)y * cw, x, cw, v.chroma_shift) - mid) / cs;
                double r = yy + 2 * (1 - v.kr) * cr, b = yy + 2 * (1 - v.kb) * cb;
                double g = (yy - v.kr * r - v.kb * b) / kg;
                double want_y = (v.kr * planes[0][i] + kg * planes[1][i] + v.kb * planes[2][i]) /
                                65535.0;
                luma_sse += (yy - want_y) * (yy - want_y);
                double got[3] = {r, g, b};
                for (int k = 0; k < 3; k++) {
                    double d = got[k] * 65535.0 - planes[k][i];
                    sse += d * d;
                }
            }
        double mse = sse / (3.0 * luma);
        double db = mse > 0 ? 10 * log10(65535.0 * 65535.0 / mse) : 200;
        total += mse;
        if (db < worst)
            worst = db;
    }
    if (!bad && fgetc(f) != EOF) {
        fprintf(stderr, "av_write: %s: more frames than expected\n", o->psnr);
        bad = 1;
    }
    fclose(f);
    free(dec);
    if (!bad) {
        double frames = (double)(o->last - o->first + 1);
        double mse = total / frames, luma_mse = luma_sse / (frames * luma);
        printf("psnr %.2f min_frame %.2f luma %.2f\n",
               mse > 0 ? 10 * log10(65535.0 * 65535.0 / mse) : 200, worst,
               luma_mse > 0 ? 10 * log10(1 / luma_mse) : 200);
    }
    return bad;
}

static void log_stderr(void *opaque, mp_log_level level, const char *msg)
{
    (void)opaque;
    (void)level;
    fprintf(stderr, "%s\n", msg);
}

static int exit_for(mp_status st)
{
    return st == MP_OK ? 0 : st == MP_ERR_IO ? 5 : 1;
}

static int write_movie(const options *o, uint16_t *planes[3])
{
    mp_av_sink_params p;
    mp_av_sink_params_default(&p);
    mp_error err = {0};
    p.kind = AV_SINK_RAWVIDEO + 1;
    for (int k = 0; k <= AV_SINK_RAWVIDEO; k++)
        if (!strcmp(o->kind, mp_av_sink_kind_name((mp_av_sink_kind)k)))
            p.kind = (mp_av_sink_kind)k;
    if (p.kind > AV_SINK_RAWVIDEO)
        return usage("--kind: prores422hq, prores4444, ffv1, nut or rawvideo");
    p.width = o->width;
    p.height = o->height;
    p.fps_num = o->fps_num;
    p.fps_den = o->fps_den;
    p.first_frame = o->first;
    p.threads = o->threads;
    p.overwrite = o->overwrite;
    if (o->tc)
        snprintf(p.timecode, sizeof p.timecode, "%s", o->tc);
    p.timecode_frames = o->tc_frames;
    p.timecode_drop_frame = o->drop;
    if (!strcmp(o->matrix, "bt2020") || !strcmp(o->matrix, "bt2020nc")) {
        p.primaries = AVCOL_PRI_BT2020;
        p.transfer = AVCOL_TRC_BT2020_10;
        p.yuv_matrix = AVCOL_SPC_BT2020_NCL;
    } else if (!strcmp(o->matrix, "bt601") || !strcmp(o->matrix, "smpte170m")) {
        p.primaries = AVCOL_PRI_SMPTE170M;
        p.transfer = AVCOL_TRC_SMPTE170M;
        p.yuv_matrix = AVCOL_SPC_SMPTE170M;
    } else {
        p.primaries = AVCOL_PRI_BT709;
        p.transfer = AVCOL_TRC_BT709;
        p.yuv_matrix = AVCOL_SPC_BT709;
    }
    p.yuv_range = AVCOL_RANGE_MPEG;
    p.log = (mp_logger){log_stderr, NULL};
    AVRational fps = {(int)o->fps_num, (int)o->fps_den};
    uint64_t sample = 0;              /* next clip sample frame to push */
    size_t block = o->channels * o->bits / 8;
    if (o->rate) {
        p.audio = (mp_audio_format){1, 1, (uint16_t)o->channels, o->rate,
                                    (uint32_t)(o->rate * block), (uint16_t)block,
                                    (uint16_t)o->bits};
        p.audio_offset = mp_av_audio_frame_start(o->first, o->rate, fps);
    }
    mp_av_sink_route_av_log(&p.log);
    mp_av_sink *s;
    mp_status st = mp_av_sink_open(&s, o->out, &p, &err);
    if (st != MP_OK) {
        fprintf(stderr, "av_write: %s\n", err.msg);
        return exit_for(st);
    }
    uint8_t *pcm = NULL;
    enum { PIECE = 1500 };
    if (o->rate && !(pcm = malloc(PIECE * block))) {
        mp_av_sink_abort(s);
        return 1;
    }
    /* The clip's audio up to `until` sample frames, in pieces. */
    int64_t end_sample = o->rate ? audio_length(o) : 0;
    int ended = 0;
    for (uint64_t n = o->first; st == MP_OK && n <= o->last + 1; n++) {
        int64_t until = o->audio_first || n > o->last ? end_sample
                                                      : mp_av_audio_frame_start(n + 2, o->rate, fps);
        if (until > end_sample)
            until = end_sample;
        while (st == MP_OK && o->rate && (int64_t)sample < until) {
            size_t k = until - (int64_t)sample < PIECE ? (size_t)(until - (int64_t)sample) : PIECE;
            audio_bytes(o, sample, k, pcm);
            st = mp_av_sink_write_audio(s, pcm, k * block, &err);
            sample += k;
        }
        /* A clip whose audio stops early says so, so the track is padded as frames come. */
        if (st == MP_OK && o->audio_short && (int64_t)sample == end_sample && !ended) {
            st = mp_av_sink_end_audio(s, &err);
            ended = 1;
        }
        if (st != MP_OK || n > o->last)
            break;
        if (o->fail_at >= 0 && (long)(n - o->first) == o->fail_at) {
            mp_av_sink_abort(s);
            free(pcm);
            fprintf(stderr, "av_write: aborted at frame %llu as asked\n", (unsigned long long)n);
            return 1;
        }
        pattern(o->width, o->height, n, planes[0], planes[1], planes[2]);
        const uint16_t *const rgb[3] = {planes[0], planes[1], planes[2]};
        st = mp_av_sink_write_rgb(s, rgb, o->width, n, &err);
    }
    free(pcm);
    if (st != MP_OK) {
        mp_av_sink_abort(s);
        fprintf(stderr, "av_write: %s\n", err.msg);
        return exit_for(st);
    }
    if ((st = mp_av_sink_finish(s, &err)) != MP_OK) {
        fprintf(stderr, "av_write: %s\n", err.msg);
        return exit_for(st);
    }
    return 0;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    size_t samples = (size_t)o.width * o.height;
    uint16_t *buf = malloc(samples * 3 * sizeof *buf);
    if (!buf)
        return 1;
    uint16_t *planes[3] = {buf, buf + samples, buf + 2 * samples};
    if (o.dump_rgb)
        rc = dump_rgb(&o, planes);
    else if (o.dump_audio)
        rc = o.rate ? dump_audio(&o) : usage("--dump-audio needs --audio");
    else if (o.psnr)
        rc = psnr(&o, planes);
    else if (o.kind && o.out)
        rc = write_movie(&o, planes);
    else
        rc = usage("need --kind and -o, --dump-rgb, --dump-audio or --psnr");
    free(buf);
    return rc;
}
