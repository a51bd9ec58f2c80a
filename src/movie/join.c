#include "movie/join.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libavformat/avformat.h>
#include <libavutil/avstring.h>

#include "codec/ffv1_slices.h"
#include "common/out_file.h"
#include "mlvpipe/convert.h"
#include "movie/av_output.h"
#include "movie/av_load.h"

#define JOIN_MAX_STREAMS 16

typedef struct joiner {
    const farm_join_options *o;
    mp_av_output out;
    AVFormatContext *oc;
    AVCodecParameters *first[JOIN_MAX_STREAMS];   /* the first segment's, to compare against */
    uint32_t streams;               /* kept streams (video and audio) */
    uint32_t ref;                   /* output index of the stream timing is measured on */
    AVRational ref_tb;              /* the first segment's time base of that stream */
    int64_t prev_end;               /* end of the video so far, in ref_tb */
    int64_t first_start;            /* start of the first segment, in ref_tb */
    AVRational frame_rate;          /* of the reference stream; 0/1 if unknown */
    int output_failed;
    int restarts;                   /* every segment starts at the same time (e.g. at 0) */
    uint32_t *order;                /* segment indices in playing order */
    const char *prev_path;          /* the segment joined last */
    farm_join_result *res;
    /* FFV1 video is checked before it is copied: slice CRCs, and a decode */
    AVCodecContext *check;          /* the decoder of the check (NULL: not FFV1) */
    AVFrame *check_frame;
    int crcs_seen;                  /* a packet's slice CRCs held: the stream carries them */
    mp_error unconfirmed;           /* the first CRC failure before any packet held (code OK:
                                     * none), damage once the stream is known to carry CRCs */
} joiner;

static mp_status mp_av_error(joiner *j, int averr, int on_output, const char *name, const char *what,
                          mp_error *err)
{
    if (on_output)
        j->output_failed = 1;
    return mp_av_output_fail(on_output ? &j->out : NULL, averr, name, what, err);
}

static int kept(const AVStream *st)
{
    enum AVMediaType t = st->codecpar->codec_type;
    return (t == AVMEDIA_TYPE_VIDEO || t == AVMEDIA_TYPE_AUDIO) &&
           !(st->disposition & AV_DISPOSITION_ATTACHED_PIC);
}

/* Maps the segment's streams to output indices (-1: not copied); returns how many are kept. */
static uint32_t map_streams(const AVFormatContext *ic, int *map)
{
    uint32_t k = 0;
    for (unsigned i = 0; i < ic->nb_streams; i++)
        map[i] = kept(ic->streams[i]) && k < JOIN_MAX_STREAMS ? (int)k++ : -1;
    return k;
}

/* libavformat opens MLV files as movies (with its own reader, logging about their audio
 * time base) and would only fail later on a codec mismatch: a clip is named as such. */
static int is_mlv_clip(const char *path)
{
    uint8_t magic[4] = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(magic, 1, sizeof magic, f);
    fclose(f);
    return n == sizeof magic && !memcmp(magic, "MLVI", 4);
}

static mp_status open_segment(const char *path, AVFormatContext **ic, int *map, uint32_t *kept_n,
                              mp_error *err)
{
    *ic = NULL;
    if (is_mlv_clip(path))
        return mp_error_set(err, MP_ERR_FORMAT, "%s: offset 0: a Magic Lantern clip, not a "
                            "movie (convert it, then join the movies)", path);
    int r = mp_libav.avformat_open_input(ic, path, NULL, NULL);
    if (r < 0) {
        char reason[AV_ERROR_MAX_STRING_SIZE];
        mp_libav.av_strerror(r, reason, sizeof reason);
        return mp_error_set(err, r == AVERROR(ENOENT) ? MP_ERR_IO : MP_ERR_FORMAT,
                            "%s: cannot open as a movie: %s", path, reason);
    }
    if ((r = mp_libav.avformat_find_stream_info(*ic, NULL)) < 0 || (*ic)->nb_streams > 4096) {
        mp_libav.avformat_close_input(ic);
        return mp_error_set(err, MP_ERR_FORMAT, "%s: cannot read its streams", path);
    }
    *kept_n = map_streams(*ic, map);
    if (*kept_n == 0) {
        mp_libav.avformat_close_input(ic);
        return mp_error_set(err, MP_ERR_FORMAT, "%s: no video or audio stream", path);
    }
    return MP_OK;
}

/* The first difference between a segment's stream and the first segment's, or NULL. */
static const char *param_difference(const AVCodecParameters *a, const AVCodecParameters *b)
{
    if (a->codec_type != b->codec_type)
        return "stream type";
    if (a->codec_id != b->codec_id)
        return "codec";
    if (a->codec_type == AVMEDIA_TYPE_VIDEO) {
        if (a->width != b->width || a->height != b->height)
            return "frame size";
        if (a->format != b->format)
            return "pixel format";
        if (a->color_primaries != b->color_primaries || a->color_trc != b->color_trc ||
            a->color_space != b->color_space || a->color_range != b->color_range)
            return "colour tags";
    } else {
        if (a->sample_rate != b->sample_rate)
            return "sample rate";
        if (a->ch_layout.nb_channels != b->ch_layout.nb_channels)
            return "channel count";
        if (a->format != b->format || a->bits_per_coded_sample != b->bits_per_coded_sample)
            return "sample format";
    }
    if (a->extradata_size != b->extradata_size ||
        (a->extradata_size && memcmp(a->extradata, b->extradata, (size_t)a->extradata_size)))
        return "codec private data";
    return NULL;
}

/* Keeps the segment's codec tag when the output container knows it for this codec (ProRes
 * 'apch' stays 'apch'), as a stream copy should; else lets the muxer choose. */
static uint32_t output_tag(const AVOutputFormat *of, const AVCodecParameters *par)
{
    unsigned int tag;
    if (!of->codec_tag ||
        mp_libav.av_codec_get_id(of->codec_tag, par->codec_tag) == par->codec_id ||
        !mp_libav.av_codec_get_tag2(of->codec_tag, par->codec_id, &tag))
        return par->codec_tag;
    return 0;
}

static const char *find_timecode(const AVFormatContext *ic)
{
    const AVDictionaryEntry *e = mp_libav.av_dict_get(ic->metadata, "timecode", NULL, 0);
    for (unsigned i = 0; !e && i < ic->nb_streams; i++)
        e = mp_libav.av_dict_get(ic->streams[i]->metadata, "timecode", NULL, 0);
    return e ? e->value : NULL;
}

/* Output streams from the first segment; the header is written after them. */
static mp_status start_output(joiner *j, const AVFormatContext *ic, const int *map,
                              mp_error *err)
{
    const char *name = j->o->output;
    const AVOutputFormat *of = mp_libav.av_guess_format(NULL, name, NULL);
    if (!of)
        return mp_error_set(err, MP_ERR_ARG, "%s: unknown container (use .mov, .mkv or .nut)",
                            name);
    mp_status st = mp_av_output_open(&j->out, name, j->o->overwrite, err);
    if (st != MP_OK) {
        j->output_failed = 1;
        return st;
    }
    int r = mp_libav.avformat_alloc_output_context2(&j->oc, of, NULL, NULL);
    if (r < 0)
        return mp_av_error(j, r, 1, name, "creating the muxer", err);
    j->oc->pb = j->out.pb;
    j->oc->flags |= AVFMT_FLAG_BITEXACT;
    int have_ref = 0;
    for (unsigned i = 0; i < ic->nb_streams; i++) {
        if (map[i] < 0)
            continue;
        const AVStream *is = ic->streams[i];
        AVStream *os = mp_libav.avformat_new_stream(j->oc, NULL);
        j->first[map[i]] = mp_libav.avcodec_parameters_alloc();
        if (!os || !j->first[map[i]] ||
            mp_libav.avcodec_parameters_copy(j->first[map[i]], is->codecpar) < 0 ||
            mp_libav.avcodec_parameters_copy(os->codecpar, is->codecpar) < 0)
            return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", name);
        os->codecpar->codec_tag = output_tag(of, is->codecpar);
        os->time_base = is->time_base;
        os->avg_frame_rate = is->avg_frame_rate;
        os->r_frame_rate = is->r_frame_rate;
        os->sample_aspect_ratio = is->sample_aspect_ratio;
        os->disposition = is->disposition;
        if (!have_ref && is->codecpar->codec_type == AVMEDIA_TYPE_VIDEO) {
            j->ref = (uint32_t)map[i];
            j->ref_tb = is->time_base;
            j->frame_rate = is->avg_frame_rate;
            j->first_start = is->start_time == AV_NOPTS_VALUE ? 0 : is->start_time;
            have_ref = 1;
        }
    }
    if (!have_ref) {        /* audio only: time it on the first stream */
        for (unsigned i = 0; i < ic->nb_streams && !have_ref; i++)
            if (map[i] == 0) {
                j->ref_tb = ic->streams[i]->time_base;
                have_ref = 1;
            }
    }
    const char *tc = find_timecode(ic);
    if (tc && (r = mp_libav.av_dict_set(&j->oc->metadata, "timecode", tc, 0)) < 0)
        return mp_av_error(j, r, 1, name, "time code", err);
    if ((r = mp_libav.avformat_write_header(j->oc, NULL)) < 0)
        return mp_av_error(j, r, 1, name, "writing the header", err);
    return MP_OK;
}

static int64_t packet_end(const AVStream *st, const AVPacket *pkt)
{
    int64_t d = pkt->duration;
    if (d <= 0 && st->avg_frame_rate.num > 0 && st->avg_frame_rate.den > 0)
        d = mp_libav.av_rescale_q(1, av_inv_q(st->avg_frame_rate), st->time_base);
    return pkt->pts + (d > 0 ? d : 0);
}

/* The decoder of the packet check, when the reference stream is FFV1 (what mlvpipe's
 * lossless movies are; its slice CRCs tell damage from data) and the caller did not turn the
 * check off. Slice threads only, so that each packet's picture comes out before the next
 * packet goes in. */
static mp_status open_check(joiner *j, const AVCodecParameters *par, const char *name,
                            mp_error *err)
{
    if (par->codec_type != AVMEDIA_TYPE_VIDEO || par->codec_id != AV_CODEC_ID_FFV1 ||
        (j->o->settings && j->o->settings->no_verify))
        return MP_OK;
    const AVCodec *dec = mp_libav.avcodec_find_decoder(par->codec_id);
    int r = AVERROR_DECODER_NOT_FOUND;
    if (dec && (j->check = mp_libav.avcodec_alloc_context3(dec)) &&
        (j->check_frame = mp_libav.av_frame_alloc()) &&
        (r = mp_libav.avcodec_parameters_to_context(j->check, par)) >= 0) {
        j->check->thread_type = FF_THREAD_SLICE;
        j->check->thread_count = 0;
        r = mp_libav.avcodec_open2(j->check, dec, NULL);
    }
    return r < 0 ? mp_av_error(j, r, 0, name, "opening the FFV1 decoder to check packets", err)
                 : MP_OK;
}

/* A damaged video packet is never copied as good: with FFV1, each packet's slice CRCs must
 * hold (once any packet has shown the stream carries them) and the packet must decode. The
 * error names the segment and the frame (its number from the timestamp, as mlvpipe's
 * segments carry absolute frame times; the packet's index in the segment otherwise). */
static mp_status check_packet(joiner *j, const char *path, const AVStream *is,
                              const AVPacket *pkt, uint64_t index, mp_error *err)
{
    if (!j->check || is->codecpar->codec_type != AVMEDIA_TYPE_VIDEO)
        return MP_OK;
    long long frame = (long long)index;
    const char *what = "packet";
    if (pkt->pts != AV_NOPTS_VALUE && j->frame_rate.num > 0 && j->frame_rate.den > 0) {
        frame = mp_libav.av_rescale_q(pkt->pts, is->time_base, av_inv_q(j->frame_rate));
        what = "frame";
    }
    size_t from, to;
    if (mp_ffv1_check_slices(pkt->data, (size_t)pkt->size, &from, &to) == 0) {
        j->crcs_seen = 1;
        if (j->unconfirmed.code != MP_OK)
            return mp_error_set(err, MP_ERR_DAMAGED, "%s", j->unconfirmed.msg);
    } else {
        mp_error e;
        mp_error_set(&e, MP_ERR_DAMAGED, "%s: %s %lld: slice CRC mismatch in bytes %zu-%zu of "
                     "its %d (the segment is damaged: render it again)", path, what, frame,
                     from, to, pkt->size);
        if (j->crcs_seen)
            return mp_error_set(err, MP_ERR_DAMAGED, "%s", e.msg);
        if (j->unconfirmed.code == MP_OK)
            j->unconfirmed = e;
    }
    int r = mp_libav.avcodec_send_packet(j->check, pkt);
    while (r >= 0)
        r = mp_libav.avcodec_receive_frame(j->check, j->check_frame);
    if (r == AVERROR(EAGAIN))
        return MP_OK;
    char why[AV_ERROR_MAX_STRING_SIZE] = "";
    mp_libav.av_strerror(r, why, sizeof why);
    return mp_error_set(err, MP_ERR_DAMAGED, "%s: %s %lld: does not decode (%s; the segment "
                        "is damaged: render it again)", path, what, frame, why);
}

/* Copies one segment's packets, shifted by offset (in ref_tb); updates prev_end. */
static mp_status copy_packets(joiner *j, const char *path, AVFormatContext *ic, const int *map,
                              int64_t offset, mp_error *err)
{
    AVPacket *pkt = mp_libav.av_packet_alloc();
    if (!pkt)
        return mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
    mp_status st = MP_OK;
    int64_t end = j->prev_end;
    uint64_t video = 0;   /* video packets of the segment so far */
    int r;
    while ((r = mp_libav.av_read_frame(ic, pkt)) >= 0) {
        if (j->o->cancel && atomic_load(j->o->cancel)) {
            st = mp_error_set(err, MP_ERR_INTERRUPTED, "%s: interrupted; %s was not written",
                              path, j->o->output);
            break;
        }
        int out_index = map[pkt->stream_index];
        if (out_index < 0) {
            mp_libav.av_packet_unref(pkt);
            continue;
        }
        const AVStream *is = ic->streams[pkt->stream_index];
        if ((uint32_t)out_index == j->ref &&
            (st = check_packet(j, path, is, pkt, video++, err)) != MP_OK)
            break;
        int64_t shift = mp_libav.av_rescale_q(offset, j->ref_tb, is->time_base);
        if (pkt->pts != AV_NOPTS_VALUE)
            pkt->pts += shift;
        if (pkt->dts != AV_NOPTS_VALUE)
            pkt->dts += shift;
        if ((uint32_t)out_index == j->ref && pkt->pts != AV_NOPTS_VALUE) {
            int64_t e = mp_libav.av_rescale_q(packet_end(is, pkt), is->time_base, j->ref_tb);
            if (end == AV_NOPTS_VALUE || e > end)
                end = e;
            j->res->video_packets += is->codecpar->codec_type == AVMEDIA_TYPE_VIDEO;
        }
        pkt->stream_index = out_index;
        pkt->pos = -1;
        mp_libav.av_packet_rescale_ts(pkt, is->time_base, j->oc->streams[out_index]->time_base);
        if ((r = mp_libav.av_interleaved_write_frame(j->oc, pkt)) < 0) {
            st = mp_av_error(j, r, 1, j->o->output, "writing a packet", err);
            break;
        }
        j->res->packets++;
    }
    if (st == MP_OK && r < 0 && r != AVERROR_EOF)
        st = mp_av_error(j, r, 0, path, "reading", err);
    mp_libav.av_packet_free(&pkt);
    j->prev_end = end;
    return st;
}

/* The absolute frame number at time t (ref_tb) for a known frame duration (ref_tb). */
static int64_t frame_at(int64_t t, int64_t frame)
{
    return (t + frame / 2) / frame;
}

/* Where a segment starting at start (ref_tb) meets the ones before it: a gap of half a frame
 * or more is an error naming the missing frames (a warning with allow_gaps; the timestamps
 * stay and players hold the last picture), an overlap of a frame or more is an error naming
 * the repeated ones. Sets *follow when the segment must be shifted to follow on: segments
 * that all restart at the same time, or a rounding overlap of less than a frame. */
static mp_status check_meeting(joiner *j, const char *path, int64_t start, int64_t frame,
                               int *follow, mp_error *err)
{
    int64_t end = j->prev_end;
    *follow = 0;
    if (end == AV_NOPTS_VALUE)
        return MP_OK;
    if (j->restarts || frame <= 0) {
        *follow = start < end;
        return MP_OK;
    }
    double tb = av_q2d(j->ref_tb);
    if (start - end >= (frame + 1) / 2) {
        int64_t a = frame_at(end, frame), b = frame_at(start, frame) - 1;
        if (!j->o->allow_gaps)
            return mp_error_set(err, MP_ERR_FORMAT, "%s: starts at %.3f s, but %s ends at "
                                "%.3f s: frames %" PRId64 "-%" PRId64 " are missing (a chunk "
                                "not rendered or not given?); --allow-gaps joins anyway",
                                path, start * tb, j->prev_path, end * tb, a, b);
        mp_log(&j->o->log, MP_LOG_WARNING, "%s: frames %" PRId64 "-%" PRId64 " missing before "
               "it (--allow-gaps): the movie holds the last picture of %s", path, a, b,
               j->prev_path);
        return MP_OK;
    }
    if (end - start >= frame)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: starts at %.3f s, before %s ends at "
                            "%.3f s: frames %" PRId64 "-%" PRId64 " are in both; segments "
                            "overlapping", path, start * tb, j->prev_path, end * tb,
                            frame_at(start, frame), frame_at(end, frame) - 1);
    *follow = start < end;
    return MP_OK;
}

/* Start time of a segment's video (of its first stream without video), in µs. */
static mp_status segment_start(const char *path, int64_t *start_us, mp_error *err)
{
    AVFormatContext *ic;
    int map[4096];
    uint32_t n;
    mp_status st = open_segment(path, &ic, map, &n, err);
    if (st != MP_OK)
        return st;
    const AVStream *ref = NULL;
    for (unsigned i = 0; i < ic->nb_streams; i++) {
        const AVStream *s = ic->streams[i];
        if (map[i] >= 0 && (!ref || (ref->codecpar->codec_type != AVMEDIA_TYPE_VIDEO &&
                                     s->codecpar->codec_type == AVMEDIA_TYPE_VIDEO)))
            ref = s;
    }
    *start_us = ref->start_time == AV_NOPTS_VALUE
                    ? 0
                    : mp_libav.av_rescale_q(ref->start_time, ref->time_base, AV_TIME_BASE_Q);
    mp_libav.avformat_close_input(&ic);
    return MP_OK;
}

/* Playing order: by start time, so segments given in any order (a shell glob sorts
 * CLIP_10 before CLIP_2) play right. Segments that all start at the same time (cut by a
 * tool that restarts at 0) keep the order given. The same file twice is a usage error. */
static mp_status order_segments(joiner *j, mp_error *err)
{
    uint32_t n = j->o->segment_count;
    int64_t *start = malloc(n * sizeof *start);
    struct stat *id = malloc(n * sizeof *id);
    j->order = malloc(n * sizeof *j->order);
    mp_status st = start && id && j->order ? MP_OK
                   : mp_error_set(err, MP_ERR_NOMEM, "join: out of memory");
    for (uint32_t i = 0; st == MP_OK && i < n; i++) {
        const char *path = j->o->segments[i];
        j->order[i] = i;
        if (stat(path, &id[i]))
            st = mp_error_set(err, MP_ERR_IO, "%s: %s", path, strerror(errno));
        for (uint32_t k = 0; st == MP_OK && k < i; k++)
            if (id[k].st_dev == id[i].st_dev && id[k].st_ino == id[i].st_ino)
                st = mp_error_set(err, MP_ERR_ARG, "%s: given twice (also as %s)", path,
                                  j->o->segments[k]);
        if (st == MP_OK)
            st = segment_start(path, &start[i], err);
    }
    j->restarts = 1;
    for (uint32_t i = 1; st == MP_OK && i < n; i++)
        j->restarts &= start[i] == start[0];
    /* Insertion sort, stable: segment counts are small. */
    for (uint32_t i = 1; st == MP_OK && !j->restarts && i < n; i++) {
        uint32_t v = j->order[i], k = i;
        for (; k > 0 && start[j->order[k - 1]] > start[v]; k--)
            j->order[k] = j->order[k - 1];
        j->order[k] = v;
    }
    for (uint32_t i = 1; st == MP_OK && !j->restarts && i < n; i++)
        if (j->order[i] != i) {
            mp_log(&j->o->log, MP_LOG_INFO, "join: segments taken in the order of their "
                   "timestamps, not as given");
            break;
        }
    free(start);
    free(id);
    return st;
}

static mp_status join_segment(joiner *j, uint32_t position, mp_error *err)
{
    const char *path = j->o->segments[j->order[position]];
    AVFormatContext *ic;
    int map[4096];
    uint32_t n;
    mp_status st = open_segment(path, &ic, map, &n, err);
    if (st != MP_OK)
        return st;
    if (position == 0) {
        j->streams = n;
        st = start_output(j, ic, map, err);
        if (st == MP_OK)
            st = open_check(j, j->first[j->ref], path, err);
    } else if (n != j->streams) {
        st = mp_error_set(err, MP_ERR_FORMAT, "%s: %" PRIu32 " video/audio streams, the first "
                          "segment (%s) has %" PRIu32, path, n, j->o->segments[j->order[0]],
                          j->streams);
    }
    for (unsigned i = 0; st == MP_OK && position > 0 && i < ic->nb_streams; i++) {
        const char *diff;
        if (map[i] >= 0 && (diff = param_difference(ic->streams[i]->codecpar,
                                                    j->first[map[i]])) != NULL)
            st = mp_error_set(err, MP_ERR_FORMAT, "%s: stream %u: %s differs from the first "
                              "segment (%s)", path, i, diff, j->o->segments[j->order[0]]);
    }
    int64_t offset = 0;
    if (st == MP_OK && position > 0) {
        const AVStream *rs = NULL;
        for (unsigned i = 0; i < ic->nb_streams && !rs; i++)
            if (map[i] == (int)j->ref)
                rs = ic->streams[i];
        int64_t start = rs->start_time == AV_NOPTS_VALUE
                            ? 0
                            : mp_libav.av_rescale_q(rs->start_time, rs->time_base, j->ref_tb);
        int64_t frame = 0;
        if (j->frame_rate.num > 0 && j->frame_rate.den > 0)
            frame = mp_libav.av_rescale_q(1, av_inv_q(j->frame_rate), j->ref_tb);
        int follow;
        st = check_meeting(j, path, start, frame, &follow, err);
        if (st == MP_OK && follow) {
            /* Follow on at the exact time of the next frame when the rate is known: packet
             * durations are rounded to the time base (1 ms in Matroska) and would drift. */
            int64_t target = j->prev_end;
            if (frame > 0) {
                int64_t exact =
                    j->first_start + mp_libav.av_rescale_q((int64_t)j->res->video_packets,
                                                           av_inv_q(j->frame_rate), j->ref_tb);
                if (exact > target)
                    target = exact;
            }
            offset = target - start;
            j->res->shifted_segments++;
        }
    }
    if (st == MP_OK)
        st = copy_packets(j, path, ic, map, offset, err);
    if (st == MP_OK)
        mp_log(&j->o->log, MP_LOG_INFO, "%s: joined (timestamps %s)", path,
               offset ? "shifted to follow the previous segment" : "kept");
    j->prev_path = path;
    mp_libav.avformat_close_input(&ic);
    return st;
}

mp_status mp_farm_join(const farm_join_options *o, farm_join_result *res, int *failed_on_output,
                    mp_error *err)
{
    memset(res, 0, sizeof *res);
    *failed_on_output = 0;
    if (!o->segment_count)
        return mp_error_set(err, MP_ERR_ARG, "join: no segments given");
    if (mp_libav_load(err) != MP_OK) {
        *failed_on_output = 1;
        return err ? err->code : MP_ERR_IO;
    }
    joiner j = {.o = o, .prev_end = AV_NOPTS_VALUE, .res = res};
    mp_status st = MP_OK;
    /* The output must not replace a segment, whatever its name (a missing one is reported
     * when it is opened). */
    mp_error ignored;
    for (uint32_t i = 0; st == MP_OK && i < o->segment_count; i++)
        if (mp_out_protect(o->segments[i], &ignored) == MP_ERR_NOMEM)
            st = mp_error_set(err, MP_ERR_NOMEM, "join: out of memory");
    if (st == MP_OK)
        st = order_segments(&j, err);
    for (uint32_t i = 0; st == MP_OK && i < o->segment_count; i++)
        st = join_segment(&j, i, err);
    int r;
    if (st == MP_OK && (r = mp_libav.av_write_trailer(j.oc)) < 0)
        st = mp_av_error(&j, r, 1, o->output, "writing the trailer", err);
    if (st == MP_OK) {
        st = mp_av_output_commit(&j.out, err);
        j.output_failed = st != MP_OK;
        j.oc->pb = NULL;
    }
    if (j.oc)
        j.oc->pb = NULL;    /* mp_av_output owns it */
    mp_libav.avformat_free_context(j.oc);
    mp_av_output_abort(&j.out);
    for (uint32_t i = 0; i < JOIN_MAX_STREAMS; i++)
        mp_libav.avcodec_parameters_free(&j.first[i]);
    mp_libav.avcodec_free_context(&j.check);
    mp_libav.av_frame_free(&j.check_frame);
    free(j.order);
    *failed_on_output = j.output_failed;
    return st;
}
