#include "mlv_writer.h"

#include <stdlib.h>
#include <string.h>

/* A block under construction: fixed-size blocks are small, so they are built on the stack. */
typedef struct blk {
    uint8_t b[256];
    size_t len;
} blk;

static void put8(blk *k, uint8_t v) { k->b[k->len++] = v; }

static void put16(blk *k, uint16_t v)
{
    put8(k, (uint8_t)v);
    put8(k, (uint8_t)(v >> 8));
}

static void put32(blk *k, uint32_t v)
{
    put16(k, (uint16_t)v);
    put16(k, (uint16_t)(v >> 16));
}

static void put64(blk *k, uint64_t v)
{
    put32(k, (uint32_t)v);
    put32(k, (uint32_t)(v >> 32));
}

/* A fixed char[n] field: the text, cut at n bytes, NUL-padded (no NUL if it fills n). */
static void put_str(blk *k, const char *s, size_t n)
{
    size_t l = strnlen(s, n);
    memcpy(k->b + k->len, s, l);
    memset(k->b + k->len + l, 0, n - l);
    k->len += n;
}

static void begin(blk *k, const char *type, uint32_t size, uint64_t ts)
{
    k->len = 0;
    memcpy(k->b, type, 4);
    k->len = 4;
    put32(k, size);
    put64(k, ts);
}

static mp_status finish(out_file *f, const blk *k, mp_error *err)
{
    return out_file_write(f, k->b, k->len, err);
}

uint32_t mlvw_vidf_slot_size(uint32_t frame_space, size_t payload_len)
{
    size_t need = 32u + frame_space + payload_len + 4u;
    return (uint32_t)((need + MLVW_VIDF_ALIGN - 1) & ~(size_t)(MLVW_VIDF_ALIGN - 1));
}

mp_status mlvw_mlvi(out_file *f, const mlvw_file_header *h, mp_error *err)
{
    blk k;
    k.len = 0;
    memcpy(k.b, "MLVI", 4);
    k.len = 4;
    put32(&k, 52);
    put_str(&k, "v2.0", 8);
    put64(&k, h->guid);
    put16(&k, h->file_num);
    put16(&k, h->file_count);
    put32(&k, h->file_flags);
    put16(&k, h->video_class);
    put16(&k, h->audio_class);
    put32(&k, h->video_frames);
    put32(&k, h->audio_frames);
    put32(&k, h->fps_num);
    put32(&k, h->fps_den);
    return finish(f, &k, err);
}

void mlvw_raw_info_bytes(const mp_raw_info *r, uint8_t out[MLVW_RAW_INFO_SIZE])
{
    blk k;
    k.len = 0;
    put32(&k, r->api_version);
    put32(&k, 0);                     /* camera buffer pointer */
    put32(&k, (uint32_t)r->buffer_height);
    put32(&k, (uint32_t)r->buffer_width);
    put32(&k, (uint32_t)r->pitch);
    put32(&k, (uint32_t)r->frame_size);
    put32(&k, r->bits);
    put32(&k, (uint32_t)r->black);
    put32(&k, (uint32_t)r->white);
    for (int i = 0; i < 2; i++)
        put32(&k, (uint32_t)r->crop_origin[i]);
    for (int i = 0; i < 2; i++)
        put32(&k, (uint32_t)r->crop_size[i]);
    for (int i = 0; i < 4; i++)
        put32(&k, (uint32_t)r->active_area[i]);
    put32(&k, (uint32_t)r->exposure_bias.num);
    put32(&k, (uint32_t)r->exposure_bias.den);
    put32(&k, r->cfa);
    put32(&k, (uint32_t)r->calibration_illuminant);
    for (int i = 0; i < 9; i++) {
        put32(&k, (uint32_t)r->color_matrix1[i].num);
        put32(&k, (uint32_t)r->color_matrix1[i].den);
    }
    put32(&k, (uint32_t)r->dynamic_range_x100);
    memcpy(out, k.b, MLVW_RAW_INFO_SIZE);
}

mp_status mlvw_rawi(out_file *f, uint64_t ts, const mp_raw_info *r, mp_error *err)
{
    blk k;
    begin(&k, "RAWI", 180, ts);
    put16(&k, (uint16_t)r->width);
    put16(&k, (uint16_t)r->height);
    mlvw_raw_info_bytes(r, k.b + k.len);
    k.len += MLVW_RAW_INFO_SIZE;
    return finish(f, &k, err);
}

mp_status mlvw_rawc(out_file *f, uint64_t ts, const mp_raw_capture *c, mp_error *err)
{
    blk k;
    begin(&k, "RAWC", 32, ts);
    put16(&k, c->sensor_width);
    put16(&k, c->sensor_height);
    put16(&k, c->sensor_crop_x100);
    put16(&k, 0);
    put8(&k, c->binning_x);
    put8(&k, c->skipping_x);
    put8(&k, c->binning_y);
    put8(&k, c->skipping_y);
    put16(&k, (uint16_t)c->offset_x);
    put16(&k, (uint16_t)c->offset_y);
    return finish(f, &k, err);
}

mp_status mlvw_idnt(out_file *f, uint64_t ts, const mp_camera *c, mp_error *err)
{
    blk k;
    begin(&k, "IDNT", 84, ts);
    put_str(&k, c->name, 32);
    put32(&k, c->model);
    put_str(&k, c->serial, 32);
    return finish(f, &k, err);
}

mp_status mlvw_expo(out_file *f, uint64_t ts, const mp_exposure *e, mp_error *err)
{
    blk k;
    begin(&k, "EXPO", 40, ts);
    put32(&k, e->iso_mode);
    put32(&k, e->iso);
    put32(&k, e->iso_analog);
    put32(&k, (uint32_t)e->digital_gain);
    put64(&k, e->shutter_us);
    return finish(f, &k, err);
}

mp_status mlvw_lens(out_file *f, uint64_t ts, const mp_lens *l, mp_error *err)
{
    blk k;
    begin(&k, "LENS", 96, ts);
    put16(&k, l->focal_mm);
    put16(&k, l->focus_dist);
    put16(&k, l->aperture_x100);
    put8(&k, l->stabilizer);
    put8(&k, l->autofocus);
    put32(&k, l->flags);
    put32(&k, l->lens_id);
    put_str(&k, l->name, 32);
    put_str(&k, l->serial, 32);
    return finish(f, &k, err);
}

static int is_leap(int32_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (month 1-12). */
static int64_t days_from_civil(int32_t y, int32_t m, int32_t d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

mp_status mlvw_rtci(out_file *f, uint64_t ts, const mp_wall_clock *w, mp_error *err)
{
    static const int16_t month_start[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    int64_t days = days_from_civil(w->year, w->month, w->day);
    int32_t wday = (int32_t)(((days % 7) + 11) % 7);   /* 1970-01-01 was a Thursday (4) */
    int32_t yday = month_start[(w->month - 1) % 12] + w->day - 1 +
                   (w->month > 2 && is_leap(w->year));
    blk k;
    begin(&k, "RTCI", 44, ts);
    put16(&k, (uint16_t)w->second);
    put16(&k, (uint16_t)w->minute);
    put16(&k, (uint16_t)w->hour);
    put16(&k, (uint16_t)w->day);
    put16(&k, (uint16_t)(w->month - 1));
    put16(&k, (uint16_t)(w->year - 1900));
    put16(&k, (uint16_t)wday);
    put16(&k, (uint16_t)yday);
    put16(&k, 0);                     /* tm_isdst */
    put16(&k, (uint16_t)w->gmtoff);
    put_str(&k, w->zone, 8);
    return finish(f, &k, err);
}

mp_status mlvw_wbal(out_file *f, uint64_t ts, const mp_white_balance *w, mp_error *err)
{
    blk k;
    begin(&k, "WBAL", 44, ts);
    put32(&k, w->mode);
    put32(&k, w->kelvin);
    put32(&k, w->gain_r);
    put32(&k, w->gain_g);
    put32(&k, w->gain_b);
    put32(&k, (uint32_t)w->shift_gm);
    put32(&k, (uint32_t)w->shift_ba);
    return finish(f, &k, err);
}

mp_status mlvw_styl(out_file *f, uint64_t ts, const mp_style *s, mp_error *err)
{
    blk k;
    begin(&k, "STYL", 52, ts);
    put32(&k, s->id);
    put32(&k, (uint32_t)s->contrast);
    put32(&k, (uint32_t)s->sharpness);
    put32(&k, (uint32_t)s->saturation);
    put32(&k, (uint32_t)s->colortone);
    put_str(&k, s->name, 16);
    return finish(f, &k, err);
}

mp_status mlvw_elvl(out_file *f, uint64_t ts, const mp_level_info *l, mp_error *err)
{
    blk k;
    begin(&k, "ELVL", 24, ts);
    put32(&k, (uint32_t)l->roll_x100);
    put32(&k, (uint32_t)l->pitch_x100);
    return finish(f, &k, err);
}

mp_status mlvw_diso(out_file *f, uint64_t ts, const mp_dual_iso_tag *d, mp_error *err)
{
    blk k;
    begin(&k, "DISO", 24, ts);
    put32(&k, d->mode);
    put32(&k, (uint32_t)d->iso_value);
    return finish(f, &k, err);
}

mp_status mlvw_wavi(out_file *f, uint64_t ts, const mp_audio_format *a, mp_error *err)
{
    blk k;
    begin(&k, "WAVI", 32, ts);
    put16(&k, a->format);
    put16(&k, a->channels);
    put32(&k, a->sample_rate);
    put32(&k, a->bytes_per_second);
    put16(&k, a->block_align);
    put16(&k, a->bits_per_sample);
    return finish(f, &k, err);
}

/* Header, an optional u32 length, the text and NUL padding up to `size` bytes. */
static mp_status text_block(out_file *f, const char *type, uint64_t ts, int with_length,
                            const char *text, uint32_t size, mp_error *err)
{
    size_t n = strlen(text);
    size_t head = 16 + (with_length ? 4 : 0);
    uint8_t *b = calloc(1, size);
    if (!b)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    blk k;
    begin(&k, type, size, ts);
    if (with_length)
        put32(&k, (uint32_t)n);
    memcpy(b, k.b, head);
    memcpy(b + head, text, n);
    mp_status st = out_file_write(f, b, size, err);
    free(b);
    return st;
}

mp_status mlvw_vers(out_file *f, uint64_t ts, const char *text, mp_error *err)
{
    /* mlv_lite: (length + 20 + 1 + 3) & ~3, i.e. NUL-terminated and padded to 4 bytes */
    uint32_t size = (uint32_t)((strlen(text) + 20 + 1 + 3) & ~(size_t)3);
    return text_block(f, "VERS", ts, 1, text, size, err);
}

mp_status mlvw_info(out_file *f, uint64_t ts, const char *text, mp_error *err)
{
    uint32_t size = (uint32_t)((strlen(text) + 16 + 1 + 3) & ~(size_t)3);
    return text_block(f, "INFO", ts, 0, text, size, err);
}

mp_status mlvw_mark(out_file *f, uint64_t ts, uint32_t type, mp_error *err)
{
    blk k;
    begin(&k, "MARK", 20, ts);
    put32(&k, type);
    return finish(f, &k, err);
}

static mp_status write_fill(out_file *f, uint8_t fill, size_t n, mp_error *err)
{
    uint8_t b[512];
    memset(b, fill, sizeof b);
    mp_status st = MP_OK;
    while (st == MP_OK && n) {
        size_t c = n < sizeof b ? n : sizeof b;
        st = out_file_write(f, b, c, err);
        n -= c;
    }
    return st;
}

mp_status mlvw_null(out_file *f, uint32_t size, uint8_t fill, mp_error *err)
{
    if (size < 16)
        return mp_error_set(err, MP_ERR_ARG, "NULL block of %u bytes", size);
    blk k;
    begin(&k, "NULL", size, 0);
    mp_status st = finish(f, &k, err);
    return st ? st : write_fill(f, fill, size - 16u, err);
}

mp_status mlvw_dark_block(out_file *f, const mlvw_dark *d, const uint8_t *packed, size_t len,
                          mp_error *err)
{
    blk k;
    begin(&k, "DARK", (uint32_t)(84 + len), UINT64_MAX);   /* MLV-App's timestamp */
    put32(&k, d->frames_averaged);
    put32(&k, d->camera_model);
    put16(&k, (uint16_t)d->width);
    put16(&k, (uint16_t)d->height);
    put32(&k, d->width);                                 /* rawWidth, rawHeight */
    put32(&k, d->height);
    put32(&k, d->bits);
    put32(&k, d->black);
    put32(&k, d->white);
    put32(&k, d->fps_num);
    put32(&k, d->fps_den);
    put32(&k, 0);                                        /* isoMode: manual */
    put32(&k, d->iso);
    put32(&k, d->iso_analog);
    put32(&k, 0);                                        /* digitalGain */
    put64(&k, d->shutter_us);
    put8(&k, d->binning_x);
    put8(&k, d->skipping_x);
    put8(&k, d->binning_y);
    put8(&k, d->skipping_y);
    mp_status st = finish(f, &k, err);
    return st ? st : out_file_write(f, packed, len, err);
}

mp_status mlvw_pad_to(out_file *f, uint32_t align, mp_error *err)
{
    uint64_t gap = (align - f->size % align) % align;
    if (gap == 0)
        return MP_OK;
    if (gap < 16)
        gap += align;
    return mlvw_null(f, (uint32_t)gap, 0, err);
}

mp_status mlvw_vidf(out_file *f, const mlvw_video_frame *v, const uint8_t *payload,
                    size_t len, mp_error *err)
{
    if (v->block_size < 32u + v->frame_space + len)
        return mp_error_set(err, MP_ERR_ARG, "VIDF %u: block of %u bytes cannot hold %zu",
                            v->number, v->block_size, len);
    blk k;
    begin(&k, "VIDF", v->block_size, v->timestamp);
    put32(&k, v->number);
    put16(&k, v->crop_x);
    put16(&k, v->crop_y);
    put16(&k, v->pan_x);
    put16(&k, v->pan_y);
    put32(&k, v->frame_space);
    mp_status st = finish(f, &k, err);
    if (!st)
        st = write_fill(f, 0xA5, v->frame_space, err);
    if (!st)
        st = out_file_write(f, payload, len, err);
    if (!st)
        st = write_fill(f, 0, v->block_size - 32u - v->frame_space - len, err);
    return st;
}

mp_status mlvw_audf(out_file *f, uint32_t number, uint64_t ts, const uint8_t *pcm, size_t len,
                    mp_error *err)
{
    blk k;
    begin(&k, "AUDF", (uint32_t)(24u + MLVW_AUDF_FRAME_SPACE + len), ts);
    put32(&k, number);
    put32(&k, MLVW_AUDF_FRAME_SPACE);
    mp_status st = finish(f, &k, err);
    if (!st)
        st = write_fill(f, 0, MLVW_AUDF_FRAME_SPACE, err);
    if (!st)
        st = out_file_write(f, pcm, len, err);
    return st;
}
