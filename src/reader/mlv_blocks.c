#include "reader/mlv_blocks.h"

#include <string.h>

#include "common/mp_bytes.h"

static const struct {
    char tag[5];
    mlv_block_type type;
    uint32_t wanted;     /* fixed structure size, header included */
} block_table[] = {
    {"MLVI", MLV_BLOCK_MLVI, MLV_MLVI_SIZE},
    {"RAWI", MLV_BLOCK_RAWI, 180},
    {"RAWC", MLV_BLOCK_RAWC, 32},
    {"VIDF", MLV_BLOCK_VIDF, MLV_VIDF_HEADER},
    {"AUDF", MLV_BLOCK_AUDF, MLV_AUDF_HEADER},
    {"WAVI", MLV_BLOCK_WAVI, 32},
    {"EXPO", MLV_BLOCK_EXPO, 40},
    {"LENS", MLV_BLOCK_LENS, 96},
    {"RTCI", MLV_BLOCK_RTCI, 44},
    {"IDNT", MLV_BLOCK_IDNT, 84},
    {"WBAL", MLV_BLOCK_WBAL, 44},
    {"STYL", MLV_BLOCK_STYL, 52},
    {"ELVL", MLV_BLOCK_ELVL, 24},
    {"INFO", MLV_BLOCK_INFO, 16 + MLV_TEXT_MAX},
    {"MARK", MLV_BLOCK_MARK, 20},
    {"DEBG", MLV_BLOCK_DEBG, 24 + MLV_TEXT_MAX},
    {"VERS", MLV_BLOCK_VERS, 20 + MLV_TEXT_MAX},
    {"DISO", MLV_BLOCK_DISO, 24},
    {"XREF", MLV_BLOCK_XREF, 24},
    {"NULL", MLV_BLOCK_NULL, MLV_HEADER_SIZE},
    {"DARK", MLV_BLOCK_DARK, MLV_DARK_HEADER},
    {"BKUP", MLV_BLOCK_BKUP, MLV_HEADER_SIZE},
};

/* Tags compared as one 32-bit word: resync asks this at every byte of a damaged range. */
mlv_block_type mp_mlv_block_type_of(const uint8_t tag[4])
{
    uint32_t word = mp_le32(tag);
    for (size_t i = 0; i < sizeof block_table / sizeof block_table[0]; i++)
        if (word == mp_le32((const uint8_t *)block_table[i].tag))
            return block_table[i].type;
    return MLV_BLOCK_UNKNOWN;
}

uint32_t mp_mlv_block_wanted(mlv_block_type type)
{
    for (size_t i = 0; i < sizeof block_table / sizeof block_table[0]; i++)
        if (block_table[i].type == type)
            return block_table[i].wanted;
    return MLV_HEADER_SIZE;
}

int mp_mlv_tag_plausible(const uint8_t tag[4])
{
    for (int i = 0; i < 4; i++) {
        uint8_t c = tag[i];
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return 0;
    }
    return 1;
}

/* Copies a fixed-size, possibly unterminated string field. */
static void copy_field(char *dst, size_t dst_size, const uint8_t *src, size_t field_len)
{
    size_t n = 0;
    while (n < field_len && n + 1 < dst_size && src[n])
        dst[n] = (char)src[n], n++;
    dst[n] = 0;
}

void mp_mlv_parse_raw_info(const uint8_t *ri, mp_raw_info *o)
{
    o->api_version = mp_le32(ri + 0);
    o->buffer_height = (int32_t)mp_le32(ri + 8);
    o->buffer_width = (int32_t)mp_le32(ri + 12);
    o->pitch = (int32_t)mp_le32(ri + 16);
    o->frame_size = (int32_t)mp_le32(ri + 20);
    o->bits = mp_le32(ri + 24);
    o->black = (int32_t)mp_le32(ri + 28);
    o->white = (int32_t)mp_le32(ri + 32);
    for (int i = 0; i < 2; i++) {
        o->crop_origin[i] = (int32_t)mp_le32(ri + 36 + 4 * i);
        o->crop_size[i] = (int32_t)mp_le32(ri + 44 + 4 * i);
    }
    for (int i = 0; i < 4; i++)
        o->active_area[i] = (int32_t)mp_le32(ri + 52 + 4 * i);
    o->exposure_bias.num = (int32_t)mp_le32(ri + 68);
    o->exposure_bias.den = (int32_t)mp_le32(ri + 72);
    o->cfa = mp_le32(ri + 76);
    o->calibration_illuminant = (int32_t)mp_le32(ri + 80);
    for (int i = 0; i < 9; i++) {
        o->color_matrix1[i].num = (int32_t)mp_le32(ri + 84 + 8 * i);
        o->color_matrix1[i].den = (int32_t)mp_le32(ri + 88 + 8 * i);
    }
    o->dynamic_range_x100 = (int32_t)mp_le32(ri + 156);
}

uint32_t mp_mlv_diso_recovery_iso(int32_t v, uint32_t primary)
{
    if (v >= 0 && v <= 6)
        return 100u << v;
    if (v >= 100)
        return (uint32_t)v;   /* MLV-App accepts a literal ISO too */
    if (primary == 0)
        return 0;
    if (v >= -12 && v <= -7)  /* -6 .. -1 EV from the primary ISO */
        return primary >> (-(v + 6));
    if (v >= -6 && v <= -1)   /* +1 .. +6 EV */
        return primary << (v + 7);
    return 0;
}

static void parse_text(const uint8_t *p, size_t avail, size_t start, mlv_text *t)
{
    size_t n = avail > start ? avail - start : 0;
    if (n > MLV_TEXT_MAX)
        n = MLV_TEXT_MAX;
    copy_field(t->text, sizeof t->text, p + start, n);
}

void mp_mlv_block_parse(const uint8_t *src, size_t len, mlv_block *out)
{
    uint8_t p[MLV_BLOCK_READ_MAX];
    memset(p, 0, sizeof p);
    memcpy(p, src, len < sizeof p ? len : sizeof p);
    memset(out, 0, sizeof *out);
    memcpy(out->tag, p, 4);
    out->type = mp_mlv_block_type_of(p);
    out->size = mp_le32(p + 4);
    out->timestamp = mp_le64(p + 8);
    /* bytes of this block actually present: the text blocks need it */
    size_t avail = len < out->size ? len : out->size;
    if (avail > sizeof p)
        avail = sizeof p;

    switch (out->type) {
    case MLV_BLOCK_MLVI: {
        mlv_file_header *h = &out->u.mlvi;
        out->timestamp = 0;   /* bytes 8..15 hold the version string */
        copy_field(h->version, sizeof h->version, p + 8, 8);
        h->guid = mp_le64(p + 16);
        h->file_num = mp_le16(p + 24);
        h->file_count = mp_le16(p + 26);
        h->file_flags = mp_le32(p + 28);
        h->video_class = mp_le16(p + 32);
        h->audio_class = mp_le16(p + 34);
        h->video_frames = mp_le32(p + 36);
        h->audio_frames = mp_le32(p + 40);
        h->fps_num = mp_le32(p + 44);
        h->fps_den = mp_le32(p + 48);
        break;
    }
    case MLV_BLOCK_RAWI:
        out->u.rawi.width = mp_le16(p + 16);
        out->u.rawi.height = mp_le16(p + 18);
        mp_mlv_parse_raw_info(p + 20, &out->u.rawi);
        break;
    case MLV_BLOCK_RAWC: {
        mp_raw_capture *c = &out->u.rawc;
        c->present = 1;
        c->sensor_width = mp_le16(p + 16);
        c->sensor_height = mp_le16(p + 18);
        c->sensor_crop_x100 = mp_le16(p + 20);
        c->binning_x = p[24];
        c->skipping_x = p[25];
        c->binning_y = p[26];
        c->skipping_y = p[27];
        c->offset_x = (int16_t)mp_le16(p + 28);
        c->offset_y = (int16_t)mp_le16(p + 30);
        break;
    }
    case MLV_BLOCK_VIDF: {
        mlv_vidf *v = &out->u.vidf;
        v->number = mp_le32(p + 16);
        v->crop_x = mp_le16(p + 20);
        v->crop_y = mp_le16(p + 22);
        v->pan_x = mp_le16(p + 24);
        v->pan_y = mp_le16(p + 26);
        v->frame_space = mp_le32(p + 28);
        break;
    }
    case MLV_BLOCK_AUDF:
        out->u.audf.number = mp_le32(p + 16);
        out->u.audf.frame_space = mp_le32(p + 20);
        break;
    case MLV_BLOCK_WAVI: {
        mp_audio_format *a = &out->u.wavi;
        a->present = 1;
        a->format = mp_le16(p + 16);
        a->channels = mp_le16(p + 18);
        a->sample_rate = mp_le32(p + 20);
        a->bytes_per_second = mp_le32(p + 24);
        a->block_align = mp_le16(p + 28);
        a->bits_per_sample = mp_le16(p + 30);
        break;
    }
    case MLV_BLOCK_EXPO: {
        mp_exposure *e = &out->u.expo;
        e->present = 1;
        e->iso_mode = mp_le32(p + 16);
        e->iso = mp_le32(p + 20);
        e->iso_analog = mp_le32(p + 24);
        e->digital_gain = (int32_t)mp_le32(p + 28);
        e->shutter_us = mp_le64(p + 32);
        break;
    }
    case MLV_BLOCK_LENS: {
        mp_lens *l = &out->u.lens;
        l->present = 1;
        l->focal_mm = mp_le16(p + 16);
        l->focus_dist = mp_le16(p + 18);
        l->aperture_x100 = mp_le16(p + 20);
        l->stabilizer = p[22];
        l->autofocus = p[23];
        l->flags = mp_le32(p + 24);
        l->lens_id = mp_le32(p + 28);
        copy_field(l->name, sizeof l->name, p + 32, 32);
        copy_field(l->serial, sizeof l->serial, p + 64, 32);
        break;
    }
    case MLV_BLOCK_RTCI: {
        mp_wall_clock *w = &out->u.rtci;
        w->present = 1;
        w->second = mp_le16(p + 16);
        w->minute = mp_le16(p + 18);
        w->hour = mp_le16(p + 20);
        w->day = mp_le16(p + 22);
        w->month = mp_le16(p + 24) + 1;
        w->year = mp_le16(p + 26) + 1900;
        w->gmtoff = (int16_t)mp_le16(p + 34);
        copy_field(w->zone, sizeof w->zone, p + 36, 8);
        w->timestamp_us = out->timestamp;
        break;
    }
    case MLV_BLOCK_IDNT: {
        mp_camera *c = &out->u.idnt;
        c->present = 1;
        copy_field(c->name, sizeof c->name, p + 16, 32);
        c->model = mp_le32(p + 48);
        copy_field(c->serial, sizeof c->serial, p + 52, 32);
        break;
    }
    case MLV_BLOCK_WBAL: {
        mp_white_balance *w = &out->u.wbal;
        w->present = 1;
        w->mode = mp_le32(p + 16);
        w->kelvin = mp_le32(p + 20);
        w->gain_r = mp_le32(p + 24);
        w->gain_g = mp_le32(p + 28);
        w->gain_b = mp_le32(p + 32);
        w->shift_gm = (int32_t)mp_le32(p + 36);
        w->shift_ba = (int32_t)mp_le32(p + 40);
        break;
    }
    case MLV_BLOCK_STYL: {
        mp_style *s = &out->u.styl;
        s->present = 1;
        s->id = mp_le32(p + 16);
        s->contrast = (int32_t)mp_le32(p + 20);
        s->sharpness = (int32_t)mp_le32(p + 24);
        s->saturation = (int32_t)mp_le32(p + 28);
        s->colortone = (int32_t)mp_le32(p + 32);
        copy_field(s->name, sizeof s->name, p + 36, 16);
        break;
    }
    case MLV_BLOCK_ELVL:
        out->u.elvl.present = 1;
        out->u.elvl.roll_x100 = (int32_t)mp_le32(p + 16);
        out->u.elvl.pitch_x100 = (int32_t)mp_le32(p + 20);
        break;
    case MLV_BLOCK_INFO:
        parse_text(p, avail, 16, &out->u.text);
        break;
    case MLV_BLOCK_VERS: {
        uint32_t n = mp_le32(p + 16);
        size_t end = avail >= 20 && n < avail - 20 ? 20 + n : avail;
        parse_text(p, end, 20, &out->u.text);
        break;
    }
    case MLV_BLOCK_DEBG: {
        uint32_t n = mp_le32(p + 20);
        size_t end = avail >= 24 && n < avail - 24 ? 24 + n : avail;
        out->u.text.kind = mp_le32(p + 16);
        parse_text(p, end, 24, &out->u.text);
        break;
    }
    case MLV_BLOCK_MARK:
        out->u.mark = mp_le32(p + 16);
        break;
    case MLV_BLOCK_DISO:
        out->u.diso.present = 1;
        out->u.diso.mode = mp_le32(p + 16);
        out->u.diso.iso_value = (int32_t)mp_le32(p + 20);
        out->u.diso.recovery_iso = mp_mlv_diso_recovery_iso(out->u.diso.iso_value, 0);
        break;
    case MLV_BLOCK_DARK: {   /* doc/mlv-format.md 4.12 */
        mlv_dark_info *d = &out->u.dark;
        d->present = 1;
        d->frames_averaged = mp_le32(p + 16);
        d->camera_model = mp_le32(p + 20);
        d->width = mp_le16(p + 24);
        d->height = mp_le16(p + 26);
        d->bits = mp_le32(p + 36);
        d->black = mp_le32(p + 40);
        d->white = mp_le32(p + 44);
        d->iso = mp_le32(p + 60);
        d->shutter_us = mp_le64(p + 72);
        d->binning_x = p[80];
        d->skipping_x = p[81];
        d->binning_y = p[82];
        d->skipping_y = p[83];
        d->size = out->size >= MLV_DARK_HEADER ? out->size - MLV_DARK_HEADER : 0;
        break;
    }
    case MLV_BLOCK_XREF:
        out->u.xref.frame_type = mp_le32(p + 16);
        out->u.xref.entry_count = mp_le32(p + 20);
        break;
    case MLV_BLOCK_NULL:
    case MLV_BLOCK_BKUP:
    case MLV_BLOCK_UNKNOWN:
        break;
    }
}
