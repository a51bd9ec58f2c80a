/* mlv_writer: serialises MLV v2.0 blocks exactly as laid out in doc/mlv-format.md
 * (little-endian, packed). Each function appends one whole block to an out_file. Metadata
 * comes in the same mp_meta structs the reader fills, so round trips compare like with like. */
#ifndef MLVSYNTH_MLV_WRITER_H
#define MLVSYNTH_MLV_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_meta.h"
#include "out_file.h"

typedef struct mlvw_file_header {    /* MLVI */
    uint64_t guid;
    uint16_t file_num, file_count;
    uint32_t file_flags;
    uint16_t video_class, audio_class;
    uint32_t video_frames, audio_frames;
    uint32_t fps_num, fps_den;
} mlvw_file_header;

/* Byte offsets inside blocks, for patching after the fact (frame counts, damage). */
#define MLVW_MLVI_VIDEO_FRAMES 36
#define MLVW_MLVI_AUDIO_FRAMES 40
#define MLVW_BLOCK_SIZE 4
#define MLVW_VIDF_FRAME_SPACE 28

/* mlv_lite's VIDF layout: frameSpace 32 filled 0xA5, then the frame, then zero padding so
 * blockSize is a multiple of 512 with at least 4 spare bytes. */
#define MLVW_VIDF_FRAME_SPACE_LITE 32u
#define MLVW_VIDF_ALIGN 512u
/* mlv_snd reserves a 256-byte header area per AUDF. */
#define MLVW_AUDF_FRAME_SPACE 232u

typedef struct mlvw_video_frame {   /* VIDF header fields */
    uint32_t number;
    uint64_t timestamp;
    uint16_t crop_x, crop_y, pan_x, pan_y;
    uint32_t frame_space;           /* filler bytes (0xA5) before the frame */
    uint32_t block_size;            /* >= 32 + frame_space + payload; the rest is zero padding */
} mlvw_video_frame;

/* The slot a frame takes: 32 + frame_space + payload + 4 spare bytes, rounded up to 512. */
uint32_t mlvw_vidf_slot_size(uint32_t frame_space, size_t payload_len);

/* raw_info (160 bytes), shared by RAWI and the legacy RAWM footer. */
#define MLVW_RAW_INFO_SIZE 160
void mlvw_raw_info_bytes(const mp_raw_info *r, uint8_t out[MLVW_RAW_INFO_SIZE]);

mp_status mlvw_mlvi(out_file *f, const mlvw_file_header *h, mp_error *err);
mp_status mlvw_rawi(out_file *f, uint64_t ts, const mp_raw_info *r, mp_error *err);
mp_status mlvw_rawc(out_file *f, uint64_t ts, const mp_raw_capture *c, mp_error *err);
mp_status mlvw_idnt(out_file *f, uint64_t ts, const mp_camera *c, mp_error *err);
mp_status mlvw_expo(out_file *f, uint64_t ts, const mp_exposure *e, mp_error *err);
mp_status mlvw_lens(out_file *f, uint64_t ts, const mp_lens *l, mp_error *err);
/* Weekday and day of year are derived from the date. */
mp_status mlvw_rtci(out_file *f, uint64_t ts, const mp_wall_clock *w, mp_error *err);
mp_status mlvw_wbal(out_file *f, uint64_t ts, const mp_white_balance *w, mp_error *err);
mp_status mlvw_styl(out_file *f, uint64_t ts, const mp_style *s, mp_error *err);
mp_status mlvw_elvl(out_file *f, uint64_t ts, const mp_level_info *l, mp_error *err);
mp_status mlvw_diso(out_file *f, uint64_t ts, const mp_dual_iso_tag *d, mp_error *err);
mp_status mlvw_wavi(out_file *f, uint64_t ts, const mp_audio_format *a, mp_error *err);
mp_status mlvw_vers(out_file *f, uint64_t ts, const char *text, mp_error *err);
mp_status mlvw_info(out_file *f, uint64_t ts, const char *text, mp_error *err);
mp_status mlvw_mark(out_file *f, uint64_t ts, uint32_t type, mp_error *err);
/* A NULL block of `size` bytes (>= 16) whose filler bytes are `fill`. */
/* MLV-App's DARK block (doc/mlv-format.md 4.12): 84-byte header, then `packed` (MLV bit
 * order). Fields not given are written as zero. */
typedef struct mlvw_dark {
    uint32_t frames_averaged, camera_model, width, height, bits, black, white;
    uint32_t fps_num, fps_den, iso, iso_analog;
    uint64_t shutter_us;
    uint8_t binning_x, skipping_x, binning_y, skipping_y;
} mlvw_dark;
mp_status mlvw_dark_block(out_file *f, const mlvw_dark *d, const uint8_t *packed, size_t len,
                          mp_error *err);

mp_status mlvw_null(out_file *f, uint32_t size, uint8_t fill, mp_error *err);
/* A zero-filled NULL block that brings the file size to a multiple of `align`. */
mp_status mlvw_pad_to(out_file *f, uint32_t align, mp_error *err);
mp_status mlvw_vidf(out_file *f, const mlvw_video_frame *v, const uint8_t *payload,
                    size_t len, mp_error *err);
mp_status mlvw_audf(out_file *f, uint32_t number, uint64_t ts, const uint8_t *pcm, size_t len,
                    mp_error *err);

#endif
