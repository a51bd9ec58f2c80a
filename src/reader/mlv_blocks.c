#include "reader/mlv_blocks.h"

#include <string.h>

#include "common/mp_bytes.h"

/* How a field is stored in the block (little-endian); FIELD_SET stores `add` whatever the
 * bytes (the `present` flags); FIELD_TEXT copies a fixed-size, possibly unterminated string. */
typedef enum field_kind {
    FIELD_U8, FIELD_U16, FIELD_S16, FIELD_U32, FIELD_U64, FIELD_SET, FIELD_TEXT
} field_kind;

/* One field of a block's fixed structure: `kind` at byte `at`, plus `add`, into the member
 * `to` bytes into the decoded struct, of `size` bytes (integers are truncated or
 * sign-extended as C's assignment would: the member's type decides). A text field is `len`
 * bytes. n > 1: an array, each next item src_step bytes on in the block and dst_step bytes on
 * in the struct. */
typedef struct block_field {
    uint8_t kind, size, len, n, src_step, dst_step;
    uint16_t at, to;
    int16_t add;
} block_field;

#define SIZE_OF(type, m) sizeof(((type *)0)->m)
#define FIELD(k, off, type, m)                                                                 \
    {.kind = k, .at = off, .to = offsetof(type, m), .size = SIZE_OF(type, m), .n = 1}
#define FIELD_PLUS(k, off, type, m, plus)                                                      \
    {.kind = k, .at = off, .to = offsetof(type, m), .size = SIZE_OF(type, m), .n = 1,          \
     .add = plus}
#define TEXT(off, length, type, m)                                                             \
    {.kind = FIELD_TEXT, .at = off, .len = length, .to = offsetof(type, m),                    \
     .size = SIZE_OF(type, m), .n = 1}
#define ARRAY(k, off, step, type, first, item, count)                                          \
    {.kind = k, .at = off, .to = offsetof(type, first), .size = SIZE_OF(type, first),          \
     .n = count, .src_step = step, .dst_step = item}
#define PRESENT(type) {.kind = FIELD_SET, .to = offsetof(type, present), .size = sizeof(int),    \
                       .n = 1, .add = 1}

/* doc/mlv-format.md sections 2 and 4: offsets from the block's start (header included). */
static const block_field mlvi_fields[] = {
    TEXT(8, 8, mlv_file_header, version),   /* bytes 8..15: the version, not a timestamp */
    FIELD(FIELD_U64, 16, mlv_file_header, guid),
    FIELD(FIELD_U16, 24, mlv_file_header, file_num),
    FIELD(FIELD_U16, 26, mlv_file_header, file_count),
    FIELD(FIELD_U32, 28, mlv_file_header, file_flags),
    FIELD(FIELD_U16, 32, mlv_file_header, video_class),
    FIELD(FIELD_U16, 34, mlv_file_header, audio_class),
    FIELD(FIELD_U32, 36, mlv_file_header, video_frames),
    FIELD(FIELD_U32, 40, mlv_file_header, audio_frames),
    FIELD(FIELD_U32, 44, mlv_file_header, fps_num),
    FIELD(FIELD_U32, 48, mlv_file_header, fps_den),
};
static const block_field rawi_fields[] = {   /* raw_info follows at 20 (raw_info_fields) */
    FIELD(FIELD_U16, 16, mp_raw_info, width),
    FIELD(FIELD_U16, 18, mp_raw_info, height),
};
static const block_field rawc_fields[] = {
    PRESENT(mp_raw_capture),
    FIELD(FIELD_U16, 16, mp_raw_capture, sensor_width),
    FIELD(FIELD_U16, 18, mp_raw_capture, sensor_height),
    FIELD(FIELD_U16, 20, mp_raw_capture, sensor_crop_x100),
    FIELD(FIELD_U8, 24, mp_raw_capture, binning_x),
    FIELD(FIELD_U8, 25, mp_raw_capture, skipping_x),
    FIELD(FIELD_U8, 26, mp_raw_capture, binning_y),
    FIELD(FIELD_U8, 27, mp_raw_capture, skipping_y),
    FIELD(FIELD_S16, 28, mp_raw_capture, offset_x),
    FIELD(FIELD_S16, 30, mp_raw_capture, offset_y),
};
static const block_field vidf_fields[] = {
    FIELD(FIELD_U32, 16, mlv_vidf, number),
    FIELD(FIELD_U16, 20, mlv_vidf, crop_x),
    FIELD(FIELD_U16, 22, mlv_vidf, crop_y),
    FIELD(FIELD_U16, 24, mlv_vidf, pan_x),
    FIELD(FIELD_U16, 26, mlv_vidf, pan_y),
    FIELD(FIELD_U32, 28, mlv_vidf, frame_space),
};
static const block_field audf_fields[] = {
    FIELD(FIELD_U32, 16, mlv_audf, number),
    FIELD(FIELD_U32, 20, mlv_audf, frame_space),
};
static const block_field wavi_fields[] = {
    PRESENT(mp_audio_format),
    FIELD(FIELD_U16, 16, mp_audio_format, format),
    FIELD(FIELD_U16, 18, mp_audio_format, channels),
    FIELD(FIELD_U32, 20, mp_audio_format, sample_rate),
    FIELD(FIELD_U32, 24, mp_audio_format, bytes_per_second),
    FIELD(FIELD_U16, 28, mp_audio_format, block_align),
    FIELD(FIELD_U16, 30, mp_audio_format, bits_per_sample),
};
static const block_field expo_fields[] = {
    PRESENT(mp_exposure),
    FIELD(FIELD_U32, 16, mp_exposure, iso_mode),
    FIELD(FIELD_U32, 20, mp_exposure, iso),
    FIELD(FIELD_U32, 24, mp_exposure, iso_analog),
    FIELD(FIELD_U32, 28, mp_exposure, digital_gain),
    FIELD(FIELD_U64, 32, mp_exposure, shutter_us),
};
static const block_field lens_fields[] = {
    PRESENT(mp_lens),
    FIELD(FIELD_U16, 16, mp_lens, focal_mm),
    FIELD(FIELD_U16, 18, mp_lens, focus_dist),
    FIELD(FIELD_U16, 20, mp_lens, aperture_x100),
    FIELD(FIELD_U8, 22, mp_lens, stabilizer),
    FIELD(FIELD_U8, 23, mp_lens, autofocus),
    FIELD(FIELD_U32, 24, mp_lens, flags),
    FIELD(FIELD_U32, 28, mp_lens, lens_id),
    TEXT(32, 32, mp_lens, name),
    TEXT(64, 32, mp_lens, serial),
};
static const block_field rtci_fields[] = {   /* struct tm: months from 0, years from 1900 */
    PRESENT(mp_wall_clock),
    FIELD(FIELD_U16, 16, mp_wall_clock, second),
    FIELD(FIELD_U16, 18, mp_wall_clock, minute),
    FIELD(FIELD_U16, 20, mp_wall_clock, hour),
    FIELD(FIELD_U16, 22, mp_wall_clock, day),
    FIELD_PLUS(FIELD_U16, 24, mp_wall_clock, month, 1),
    FIELD_PLUS(FIELD_U16, 26, mp_wall_clock, year, 1900),
    FIELD(FIELD_S16, 34, mp_wall_clock, gmtoff),
    TEXT(36, 8, mp_wall_clock, zone),
};
static const block_field idnt_fields[] = {
    PRESENT(mp_camera),
    TEXT(16, 32, mp_camera, name),
    FIELD(FIELD_U32, 48, mp_camera, model),
    TEXT(52, 32, mp_camera, serial),
};
static const block_field wbal_fields[] = {
    PRESENT(mp_white_balance),
    FIELD(FIELD_U32, 16, mp_white_balance, mode),
    FIELD(FIELD_U32, 20, mp_white_balance, kelvin),
    FIELD(FIELD_U32, 24, mp_white_balance, gain_r),
    FIELD(FIELD_U32, 28, mp_white_balance, gain_g),
    FIELD(FIELD_U32, 32, mp_white_balance, gain_b),
    FIELD(FIELD_U32, 36, mp_white_balance, shift_gm),
    FIELD(FIELD_U32, 40, mp_white_balance, shift_ba),
};
static const block_field styl_fields[] = {
    PRESENT(mp_style),
    FIELD(FIELD_U32, 16, mp_style, id),
    FIELD(FIELD_U32, 20, mp_style, contrast),
    FIELD(FIELD_U32, 24, mp_style, sharpness),
    FIELD(FIELD_U32, 28, mp_style, saturation),
    FIELD(FIELD_U32, 32, mp_style, colortone),
    TEXT(36, 16, mp_style, name),
};
static const block_field elvl_fields[] = {
    PRESENT(mp_level_info),
    FIELD(FIELD_U32, 16, mp_level_info, roll_x100),
    FIELD(FIELD_U32, 20, mp_level_info, pitch_x100),
};
static const block_field debg_fields[] = {   /* the text follows (mp_mlv_block_parse) */
    FIELD(FIELD_U32, 16, mlv_text, kind),
};
static const block_field mark_fields[] = {
    {.kind = FIELD_U32, .at = 16, .to = 0, .size = sizeof(uint32_t), .n = 1},
};
static const block_field diso_fields[] = {
    PRESENT(mp_dual_iso_tag),
    FIELD(FIELD_U32, 16, mp_dual_iso_tag, mode),
    FIELD(FIELD_U32, 20, mp_dual_iso_tag, iso_value),
};
static const block_field dark_fields[] = {   /* doc/mlv-format.md 4.12 */
    PRESENT(mlv_dark_info),
    FIELD(FIELD_U32, 16, mlv_dark_info, frames_averaged),
    FIELD(FIELD_U32, 20, mlv_dark_info, camera_model),
    FIELD(FIELD_U16, 24, mlv_dark_info, width),
    FIELD(FIELD_U16, 26, mlv_dark_info, height),
    FIELD(FIELD_U32, 36, mlv_dark_info, bits),
    FIELD(FIELD_U32, 40, mlv_dark_info, black),
    FIELD(FIELD_U32, 44, mlv_dark_info, white),
    FIELD(FIELD_U32, 60, mlv_dark_info, iso),
    FIELD(FIELD_U64, 72, mlv_dark_info, shutter_us),
    FIELD(FIELD_U8, 80, mlv_dark_info, binning_x),
    FIELD(FIELD_U8, 81, mlv_dark_info, skipping_x),
    FIELD(FIELD_U8, 82, mlv_dark_info, binning_y),
    FIELD(FIELD_U8, 83, mlv_dark_info, skipping_y),
};
static const block_field xref_fields[] = {
    FIELD(FIELD_U32, 16, mlv_xref, frame_type),
    FIELD(FIELD_U32, 20, mlv_xref, entry_count),
};
/* raw_info, from its own start (RAWI offset 20, the RAW footer's 32) */
static const block_field raw_info_fields[] = {
    FIELD(FIELD_U32, 0, mp_raw_info, api_version),
    FIELD(FIELD_U32, 8, mp_raw_info, buffer_height),
    FIELD(FIELD_U32, 12, mp_raw_info, buffer_width),
    FIELD(FIELD_U32, 16, mp_raw_info, pitch),
    FIELD(FIELD_U32, 20, mp_raw_info, frame_size),
    FIELD(FIELD_U32, 24, mp_raw_info, bits),
    FIELD(FIELD_U32, 28, mp_raw_info, black),
    FIELD(FIELD_U32, 32, mp_raw_info, white),
    ARRAY(FIELD_U32, 36, 4, mp_raw_info, crop_origin[0], sizeof(int32_t), 2),
    ARRAY(FIELD_U32, 44, 4, mp_raw_info, crop_size[0], sizeof(int32_t), 2),
    ARRAY(FIELD_U32, 52, 4, mp_raw_info, active_area[0], sizeof(int32_t), 4),
    FIELD(FIELD_U32, 68, mp_raw_info, exposure_bias.num),
    FIELD(FIELD_U32, 72, mp_raw_info, exposure_bias.den),
    FIELD(FIELD_U32, 76, mp_raw_info, cfa),
    FIELD(FIELD_U32, 80, mp_raw_info, calibration_illuminant),
    ARRAY(FIELD_U32, 84, 8, mp_raw_info, color_matrix1[0].num, sizeof(mp_rational), 9),
    ARRAY(FIELD_U32, 88, 8, mp_raw_info, color_matrix1[0].den, sizeof(mp_rational), 9),
    FIELD(FIELD_U32, 156, mp_raw_info, dynamic_range_x100),
};

#define FIELDS(list) list, sizeof list / sizeof list[0]

static const struct {
    char tag[5];
    mlv_block_type type;
    uint32_t wanted;     /* fixed structure size, header included */
    const block_field *fields;   /* of the block's member of mlv_block.u */
    size_t field_count;
} block_table[] = {
    {"MLVI", MLV_BLOCK_MLVI, MLV_MLVI_SIZE, FIELDS(mlvi_fields)},
    {"RAWI", MLV_BLOCK_RAWI, 180, FIELDS(rawi_fields)},
    {"RAWC", MLV_BLOCK_RAWC, 32, FIELDS(rawc_fields)},
    {"VIDF", MLV_BLOCK_VIDF, MLV_VIDF_HEADER, FIELDS(vidf_fields)},
    {"AUDF", MLV_BLOCK_AUDF, MLV_AUDF_HEADER, FIELDS(audf_fields)},
    {"WAVI", MLV_BLOCK_WAVI, 32, FIELDS(wavi_fields)},
    {"EXPO", MLV_BLOCK_EXPO, 40, FIELDS(expo_fields)},
    {"LENS", MLV_BLOCK_LENS, 96, FIELDS(lens_fields)},
    {"RTCI", MLV_BLOCK_RTCI, 44, FIELDS(rtci_fields)},
    {"IDNT", MLV_BLOCK_IDNT, 84, FIELDS(idnt_fields)},
    {"WBAL", MLV_BLOCK_WBAL, 44, FIELDS(wbal_fields)},
    {"STYL", MLV_BLOCK_STYL, 52, FIELDS(styl_fields)},
    {"ELVL", MLV_BLOCK_ELVL, 24, FIELDS(elvl_fields)},
    {"INFO", MLV_BLOCK_INFO, 16 + MLV_TEXT_MAX, NULL, 0},
    {"MARK", MLV_BLOCK_MARK, 20, FIELDS(mark_fields)},
    {"DEBG", MLV_BLOCK_DEBG, 24 + MLV_TEXT_MAX, FIELDS(debg_fields)},
    {"VERS", MLV_BLOCK_VERS, 20 + MLV_TEXT_MAX, NULL, 0},
    {"DISO", MLV_BLOCK_DISO, 24, FIELDS(diso_fields)},
    {"XREF", MLV_BLOCK_XREF, 24, FIELDS(xref_fields)},
    {"NULL", MLV_BLOCK_NULL, MLV_HEADER_SIZE, NULL, 0},
    {"DARK", MLV_BLOCK_DARK, MLV_DARK_HEADER, FIELDS(dark_fields)},
    {"BKUP", MLV_BLOCK_BKUP, MLV_HEADER_SIZE, NULL, 0},
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

/* The fields of one table into the struct at base. */
static void read_fields(const uint8_t *p, void *base, const block_field *f, size_t count)
{
    for (; count--; f++)
        for (uint32_t i = 0; i < f->n; i++) {
            const uint8_t *src = p + f->at + i * f->src_step;
            uint8_t *dst = (uint8_t *)base + f->to + i * f->dst_step;
            if (f->kind == FIELD_TEXT) {
                copy_field((char *)dst, f->size, src, f->len);
                continue;
            }
            uint64_t v = (uint64_t)(int64_t)f->add;
            switch ((field_kind)f->kind) {
            case FIELD_U8: v += src[0]; break;
            case FIELD_U16: v += mp_le16(src); break;
            case FIELD_S16: v += (uint64_t)(int64_t)(int16_t)mp_le16(src); break;
            case FIELD_U32: v += mp_le32(src); break;
            case FIELD_U64: v += mp_le64(src); break;
            case FIELD_SET:
            case FIELD_TEXT: break;
            }
            /* the low bytes, as the member's type keeps them (two's complement) */
            uint8_t u8 = (uint8_t)v;
            uint16_t u16 = (uint16_t)v;
            uint32_t u32 = (uint32_t)v;
            memcpy(dst, f->size == 1 ? (void *)&u8 : f->size == 2 ? (void *)&u16
                        : f->size == 4 ? (void *)&u32 : (void *)&v, f->size);
        }
}

void mp_mlv_parse_raw_info(const uint8_t *ri, mp_raw_info *o)
{
    read_fields(ri, o, raw_info_fields, sizeof raw_info_fields / sizeof raw_info_fields[0]);
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
    for (size_t i = 0; i < sizeof block_table / sizeof block_table[0]; i++)
        if (block_table[i].type == out->type)
            read_fields(p, &out->u, block_table[i].fields, block_table[i].field_count);

    /* what is not one field at a fixed place */
    switch (out->type) {
    case MLV_BLOCK_MLVI:
        out->timestamp = 0;   /* bytes 8..15 hold the version string */
        break;
    case MLV_BLOCK_RAWI:
        mp_mlv_parse_raw_info(p + 20, &out->u.rawi);
        break;
    case MLV_BLOCK_RTCI:
        out->u.rtci.timestamp_us = out->timestamp;
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
        parse_text(p, end, 24, &out->u.text);
        break;
    }
    case MLV_BLOCK_DISO:
        out->u.diso.recovery_iso = mp_mlv_diso_recovery_iso(out->u.diso.iso_value, 0);
        break;
    case MLV_BLOCK_DARK:
        out->u.dark.size = out->size >= MLV_DARK_HEADER ? out->size - MLV_DARK_HEADER : 0;
        break;
    default:
        break;
    }
}
