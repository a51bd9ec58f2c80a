/* The WAV file the "wav" sink writes for a clip's whole PCM stream, read at any offset
 * without writing it (mount): the same header (mp_wav_header), the same alignment
 * (mp_wav_start_offset) and the same silence, computed per byte range. */
#include "encode/wav.h"

#include <string.h>

#include "encode/timecode.h"

/* Where a read's bytes come from: the header, then data bytes whose stream position is
 * their index plus `shift` (outside the stream: silence), then a pad byte when odd. */
typedef struct wav_layout {
    mp_rational fps;
    size_t header_size;
    uint64_t data_bytes;
    int64_t shift;
} wav_layout;

static mp_status layout_of(const mp_sink_params *p, wav_layout *l, mp_error *err)
{
    mp_status st = mp_wav_check_format(&p->audio, err);
    if (st == MP_OK)
        st = mp_sink_fps(p, &l->fps, err);
    if (st != MP_OK)
        return st;
    if (!p->frame_count)
        return mp_error_set(err, MP_ERR_ARG, "%s: a WAV file to read needs its frame count",
                            p->clip_name);
    uint32_t block = (uint32_t)p->audio.channels * p->audio.bits_per_sample / 8;
    uint8_t header[MP_WAV_HEADER_MAX];
    l->data_bytes = mp_wav_length(p, l->fps) * block;
    l->shift = mp_wav_start_offset(p, l->fps) * (int64_t)block;
    l->header_size = mp_wav_header(p, l->fps, l->data_bytes, header);
    if (l->header_size + l->data_bytes > UINT32_MAX)
        return mp_error_set(err, MP_ERR_RANGE, "%s: audio exceeds the 4 GiB WAV limit",
                            p->clip_name);
    return MP_OK;
}

mp_status mp_wav_file_size(const mp_sink_params *p, uint64_t *size, mp_error *err)
{
    wav_layout l;
    mp_status st = layout_of(p, &l, err);
    if (st == MP_OK)
        *size = l.header_size + l.data_bytes + (l.data_bytes & 1);
    return st;
}

mp_status mp_wav_file_read(const mp_sink_params *p, uint64_t offset, uint8_t *buf, size_t n,
                           mp_error *err)
{
    wav_layout l;
    mp_status st = layout_of(p, &l, err);
    if (st != MP_OK)
        return st;
    uint64_t size = l.header_size + l.data_bytes + (l.data_bytes & 1);
    if (offset > size || n > size - offset)
        return mp_error_set(err, MP_ERR_RANGE, "%s: bytes %llu+%zu beyond the WAV's %llu",
                            p->clip_name, (unsigned long long)offset, n,
                            (unsigned long long)size);
    /* silence everywhere first (8-bit WAV samples are unsigned: 0x80), the pad byte 0 */
    memset(buf, p->audio.bits_per_sample == 8 ? 0x80 : 0, n);
    if (offset + n == size && (l.data_bytes & 1))
        buf[n - 1] = 0;
    if (offset < l.header_size) {
        uint8_t header[MP_WAV_HEADER_MAX];
        mp_wav_header(p, l.fps, l.data_bytes, header);
        size_t k = l.header_size - offset < n ? (size_t)(l.header_size - offset) : n;
        memcpy(buf, header + offset, k);
    }
    if (offset + n <= l.header_size)
        return MP_OK;
    /* the data bytes of this read that lie in the stream */
    uint64_t from = offset > l.header_size ? offset - l.header_size : 0;
    uint64_t to = offset + n - l.header_size < l.data_bytes ? offset + n - l.header_size
                                                           : l.data_bytes;
    int64_t lo = (int64_t)from + l.shift, hi = (int64_t)to + l.shift;
    if (lo < 0)
        lo = 0;
    if (hi > (int64_t)p->audio_bytes)
        hi = (int64_t)p->audio_bytes;
    if (lo >= hi || !p->read_audio)
        return MP_OK;
    uint8_t *dst = buf + (l.header_size + (uint64_t)(lo - l.shift) - offset);
    return p->read_audio(p->audio_opaque, (uint64_t)lo, dst, (size_t)(hi - lo), err);
}
