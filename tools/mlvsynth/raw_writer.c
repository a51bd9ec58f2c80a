/* Legacy lv_rec / raw_rec .RAW (doc/mlv-format.md 16): 14-bit frames back to back, each in a
 * frameSize slot, as one byte stream cut into NAME.RAW, NAME.R00, ... at a fixed size (so
 * frames straddle files), and a 192-byte RAWM footer at the end of the last file. */
#include "writers.h"

#include <stdlib.h>
#include <string.h>

#include "codec/bitpack.h"
#include "common/mp_bytes.h"
#include "mlv_writer.h"

#define RAWM_SIZE 192u

typedef struct split_stream {
    const synth_options *o;
    out_file *files;           /* 101 slots at most: .RAW + .R00 ... .R99 */
    uint32_t count;            /* files opened */
} split_stream;

static mp_status next_file(split_stream *s, mp_error *err)
{
    if (s->count > 100)
        return mp_error_set(err, MP_ERR_ARG, "more than .RAW + 100 chunks; raise "
                            "--raw-chunk-bytes");
    char *name = out_file_chunk_name(s->o->output, s->count);
    if (!name)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    mp_status st = out_file_open(&s->files[s->count], name, s->o->overwrite, err);
    free(name);
    if (!st)
        s->count++;
    return st;
}

/* Appends to the stream, starting a new file whenever the current one is full. */
static mp_status split_write(split_stream *s, const uint8_t *data, uint64_t len, mp_error *err)
{
    mp_status st = MP_OK;
    while (!st && len) {
        if (s->count == 0 || s->files[s->count - 1].size == s->o->raw_chunk_bytes)
            st = next_file(s, err);
        if (st)
            break;
        out_file *f = &s->files[s->count - 1];
        uint64_t room = s->o->raw_chunk_bytes - f->size;
        size_t n = (size_t)(len < room ? len : room);
        st = out_file_write(f, data, n, err);
        data += n;
        len -= n;
    }
    return st;
}

static mp_status write_footer(split_stream *s, const clip_meta *m, uint32_t frame_size,
                              uint32_t frames, mp_error *err)
{
    const synth_options *o = s->o;
    uint8_t b[RAWM_SIZE] = {0};
    memcpy(b, "RAWM", 4);
    b[4] = (uint8_t)o->width;
    b[5] = (uint8_t)(o->width >> 8);
    b[6] = (uint8_t)o->height;
    b[7] = (uint8_t)(o->height >> 8);
    mp_put_le32(b + 8, frame_size);
    mp_put_le32(b + 12, frames);
    mp_put_le32(b + 16, 1);                                   /* frameSkip */
    mp_put_le32(b + 20, (uint32_t)((uint64_t)o->fps_num * 1000u / o->fps_den));
    mlvw_raw_info_bytes(&m->raw, b + 32);
    /* The footer is never split: when it does not fit, it sits alone in a new file. */
    if (s->count && s->files[s->count - 1].size + RAWM_SIZE > o->raw_chunk_bytes) {
        mp_status st = next_file(s, err);
        if (st)
            return st;
    }
    return out_file_write(&s->files[s->count - 1], b, RAWM_SIZE, err);
}

mp_status write_raw(const synth_options *o, const clip_plan *plan, const clip_meta *meta,
                    content_ctx *content, slot_fate *fate, uint32_t *files_written,
                    mp_error *err)
{
    size_t n = (size_t)o->width * o->height;
    size_t payload = n * 14 / 8;
    uint32_t frame_size = (uint32_t)(o->raw_unpadded ? payload : (payload + 4 + 511) & ~511u);
    if (o->raw_chunk_bytes < RAWM_SIZE)
        return mp_error_set(err, MP_ERR_ARG, "--raw-chunk-bytes must hold the %u-byte footer",
                            RAWM_SIZE);
    split_stream s = {.o = o, .files = calloc(101, sizeof(out_file))};
    uint16_t *samples = malloc(n * sizeof *samples);
    uint8_t *slot = calloc(1, mp_packed_size_mlv(n, 14) > frame_size ? mp_packed_size_mlv(n, 14)
                                                                     : frame_size);
    mp_status st = MP_OK;
    if (!s.files || !samples || !slot)
        st = mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    for (uint32_t i = 0; !st && i < plan->count; i++) {
        st = content_frame(content, plan->slots[i].number, plan->slots[i].source, samples, err);
        if (st)
            break;
        mp_pack_mlv(samples, slot, n, 14);
        /* bytes past the payload are the padding of the slot */
        memset(slot + payload, 0, frame_size - payload);
        st = split_write(&s, slot, frame_size, err);
        fate[i] = FATE_INTACT;
    }
    if (!st)
        st = write_footer(&s, meta, frame_size, plan->count, err);
    if (!st)
        st = out_file_check_series_end(o->output, s.count, o->overwrite, err);
    *files_written = s.count;
    for (uint32_t c = 0; c < s.count; c++) {
        if (!st)
            st = out_file_finish(&s.files[c], err);
        else
            out_file_abort(&s.files[c]);
    }
    free(s.files);
    free(samples);
    free(slot);
    return st;
}
