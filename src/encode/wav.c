#include "encode/wav.h"

#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "common/mp_bytes.h"
#include "encode/timecode.h"
#include "encode/wallclock.h"

enum { BEXT_FIXED = 602 };

/* round(a * b / c) for non-negative b, c > 0, exact over the whole int64 range of a. */
static int64_t muldiv_round(int64_t a, int64_t b, int64_t c)
{
    __int128 n = (__int128)a * b;
    __int128 q = n >= 0 ? (n + c / 2) / c : -((-n + c / 2) / c);
    if (q > INT64_MAX)
        return INT64_MAX;
    if (q < -INT64_MAX)
        return -INT64_MAX;
    return (int64_t)q;
}

int64_t mp_audio_align(uint64_t audio_start_us, uint64_t video_start_us, uint32_t rate)
{
    __int128 diff = (__int128)video_start_us - (__int128)audio_start_us;
    if (diff > INT64_MAX)
        diff = INT64_MAX;
    if (diff < -INT64_MAX)
        diff = -INT64_MAX;
    return muldiv_round((int64_t)diff, rate, 1000000);
}

int64_t mp_wav_start_offset(const mp_sink_params *p, mp_rational fps)
{
    int64_t frames = (int64_t)p->first_frame - (int64_t)p->clip_first_frame;
    int64_t cut = muldiv_round(frames, (int64_t)p->audio.sample_rate * fps.den, fps.num);
    int64_t align = mp_audio_align(p->audio_start_us, p->video_start_us, p->audio.sample_rate);
    __int128 sum = (__int128)cut + align;
    return sum > INT64_MAX ? INT64_MAX : sum < -INT64_MAX ? -INT64_MAX : (int64_t)sum;
}

uint64_t mp_wav_length(const mp_sink_params *p, mp_rational fps)
{
    return (uint64_t)muldiv_round(p->frame_count, (int64_t)p->audio.sample_rate * fps.den,
                                  fps.num);
}

uint64_t mp_wav_time_reference(const mp_sink_params *p, mp_rational fps)
{
    int64_t count = (int64_t)(mp_timecode_base(p, fps) + p->first_frame);
    return (uint64_t)muldiv_round(count, (int64_t)p->audio.sample_rate * fps.den, fps.num);
}

mp_status mp_wav_check_format(const mp_audio_format *a, mp_error *err)
{
    uint16_t b = a->bits_per_sample;
    if (a->format != 1 || (b != 8 && b != 16 && b != 24 && b != 32) || a->channels == 0 ||
        a->channels > 64 || a->sample_rate < 1000 || a->sample_rate > 768000)
        return mp_error_set(err, MP_ERR_UNSUPPORTED,
                            "audio format %u, %u channels, %u Hz, %u bits is not PCM we write",
                            a->format, a->channels, a->sample_rate, b);
    return MP_OK;
}

static uint8_t *chunk(uint8_t *p, const char id[4], uint32_t size)
{
    memcpy(p, id, 4);
    mp_put_le32(p + 4, size);
    return p + 8;
}

/* Copies s into out (size bytes) with XML escapes, never splitting an escape or a UTF-8
 * character. Control characters and bytes that are not UTF-8 (a file name can hold any)
 * become '?': XML allows neither, and readers refuse the whole chunk for one. */
static void xml_escape(char *out, size_t size, const char *s)
{
    size_t n = 0;
    while (*s) {
        const unsigned char *u = (const unsigned char *)s;
        const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : NULL;
        size_t in = mp_utf8_length(u, SIZE_MAX), len = e ? strlen(e) : in;
        if (!in || *u < 0x20)
            e = "?", in = len = 1;
        if (n + len >= size)
            break;
        memcpy(out + n, e ? e : s, len);
        n += len;
        s += in;
    }
    out[n] = 0;
}

static void write_ixml(const mp_sink_params *p, mp_rational fps, uint64_t time_ref, char *out)
{
    char project[256];
    xml_escape(project, sizeof project, p->clip_name);
    memset(out, 0, MP_WAV_IXML_SIZE);
    snprintf(out, MP_WAV_IXML_SIZE,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<BWFXML>\n"
             "<IXML_VERSION>1.5</IXML_VERSION>\n<PROJECT>%s</PROJECT>\n"
             "<NOTE>" "mlvpipe" "</NOTE>\n<CIRCLED>FALSE</CIRCLED>\n"
             "<BLACKMAGIC-KEYWORDS></BLACKMAGIC-KEYWORDS>\n<TAPE>1</TAPE>\n<SCENE>1</SCENE>\n"
             "<BLACKMAGIC-SHOT>1</BLACKMAGIC-SHOT>\n<TAKE>1</TAKE>\n"
             "<BLACKMAGIC-ANGLE>ms</BLACKMAGIC-ANGLE>\n<SPEED>\n"
             "<MASTER_SPEED>%d/%d</MASTER_SPEED>\n<CURRENT_SPEED>%d/%d</CURRENT_SPEED>\n"
             "<TIMECODE_RATE>%d/%d</TIMECODE_RATE>\n<TIMECODE_FLAG>%s</TIMECODE_FLAG>\n"
             "<TIMESTAMP_SAMPLE_RATE>%u</TIMESTAMP_SAMPLE_RATE>\n"
             "<TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_HI>%u</TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_HI>\n"
             "<TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_LO>%u</TIMESTAMP_SAMPLES_SINCE_MIDNIGHT_LO>\n"
             "</SPEED>\n</BWFXML>\n",
             project, fps.num, fps.den, fps.num, fps.den, fps.num, fps.den,
             p->timecode_drop_frame ? "DF" : "NDF", p->audio.sample_rate,
             (unsigned)(time_ref >> 32), (unsigned)time_ref);
}

static size_t coding_history(const mp_sink_params *p, char *out, size_t size)
{
    const mp_audio_format *a = &p->audio;
    const char *mode = a->channels == 1 ? ",M=mono" : a->channels == 2 ? ",M=stereo" : "";
    int n = snprintf(out, size, "A=PCM,F=%u,W=%u%s,T=mlvpipe\r\n", a->sample_rate,
                     a->bits_per_sample, mode);
    return (size_t)n;
}

size_t mp_wav_header(const mp_sink_params *p, mp_rational fps, uint64_t data_bytes,
                     uint8_t *out)
{
    const mp_audio_format *a = &p->audio;
    char history[64];
    size_t history_len = coding_history(p, history, sizeof history);
    uint32_t bext_size = (uint32_t)(BEXT_FIXED + history_len);
    uint32_t bext_padded = (bext_size + 1) & ~1u;
    size_t header = 12 + 8 + bext_padded + 8 + MP_WAV_IXML_SIZE + 8 + 16 + 8;
    uint64_t riff = header - 8 + data_bytes + (data_bytes & 1);
    uint64_t time_ref = mp_wav_time_reference(p, fps);
    memset(out, 0, header);

    uint8_t *q = chunk(out, "RIFF", (uint32_t)(riff > UINT32_MAX ? UINT32_MAX : riff));
    memcpy(q, "WAVE", 4);
    q = chunk(q + 4, "bext", bext_size);
    /* Description, Originator, OriginatorReference: fixed fields, NUL-padded, no NUL needed
     * when full; snprintf's NUL lands in the following field, which is written after. */
    char text[257];
    snprintf(text, sizeof text, "%s", p->clip_name);
    memcpy(q, text, strnlen(text, 256));
    const mp_camera *cam = &p->meta.camera;
    const char *camera = cam->present && cam->name[0] ? cam->name : "Canon EOS";
    memcpy(q + 256, camera, strnlen(camera, 32));
    mp_civil_time t = {1970, 1, 1, 0, 0, 0};
    mp_wall_clock_at(&p->meta.wall_clock, p->video_start_us, &t);
    /* "JPCAN" (country, organisation as the cameras' own files) + model + serial + time;
     * no random part, so the file is reproducible. */
    snprintf(text, sizeof text, "JPCAN%08X%.12s%02d%02d%02d", cam->present ? cam->model : 0,
             cam->present ? cam->serial : "", (int)t.hour, (int)t.minute, (int)t.second);
    memcpy(q + 288, text, strnlen(text, 32));
    snprintf(text, sizeof text, "%04d-%02d-%02d", (int)t.year, (int)t.month, (int)t.day);
    memcpy(q + 320, text, strnlen(text, 10));
    snprintf(text, sizeof text, "%02d:%02d:%02d", (int)t.hour, (int)t.minute, (int)t.second);
    memcpy(q + 330, text, strnlen(text, 8));
    mp_put_le32(q + 338, (uint32_t)time_ref);
    mp_put_le32(q + 342, (uint32_t)(time_ref >> 32));
    mp_put_le16(q + 346, 1);                            /* Version; UMID, loudness, reserved: 0 */
    memcpy(q + BEXT_FIXED, history, history_len);
    q += bext_padded;

    q = chunk(q, "iXML", MP_WAV_IXML_SIZE);
    write_ixml(p, fps, time_ref, (char *)q);
    q += MP_WAV_IXML_SIZE;

    uint32_t block = (uint32_t)a->channels * a->bits_per_sample / 8;
    q = chunk(q, "fmt ", 16);
    mp_put_le16(q, 1);
    mp_put_le16(q + 2, a->channels);
    mp_put_le32(q + 4, a->sample_rate);
    mp_put_le32(q + 8, a->sample_rate * block);
    mp_put_le16(q + 12, block);
    mp_put_le16(q + 14, a->bits_per_sample);
    chunk(q + 16, "data", (uint32_t)(data_bytes > UINT32_MAX ? UINT32_MAX : data_bytes));
    return header;
}
