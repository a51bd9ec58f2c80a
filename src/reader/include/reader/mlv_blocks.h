/* reader/mlv_blocks: decodes one MLV block (header + fixed fields) into typed metadata.
 * Pure byte parsing: no files, no allocation. Layouts: doc/mlv-format.md sections 2 and 4. */
#ifndef MLV_BLOCKS_H
#define MLV_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_bytes.h"
#include "common/mp_meta.h"
#include "reader/mlv_reader.h"

#define MLV_HEADER_SIZE 16u      /* type, blockSize, timestamp */
#define MLV_MLVI_SIZE 52u
#define MLV_VIDF_HEADER 32u
#define MLV_AUDF_HEADER 24u
#define MLV_DARK_HEADER 84u      /* MLV-App's DARK block before its samples */
#define MLV_TEXT_MAX 255u        /* INFO / VERS text kept per block */
/* Largest prefix of any block we ever read while indexing: DEBG's 24 bytes and its text. */
#define MLV_BLOCK_READ_MAX (24u + MLV_TEXT_MAX)

typedef enum mlv_block_type {
    MLV_BLOCK_UNKNOWN,
    MLV_BLOCK_MLVI, MLV_BLOCK_RAWI, MLV_BLOCK_RAWC, MLV_BLOCK_VIDF, MLV_BLOCK_AUDF,
    MLV_BLOCK_WAVI, MLV_BLOCK_EXPO, MLV_BLOCK_LENS, MLV_BLOCK_RTCI, MLV_BLOCK_IDNT,
    MLV_BLOCK_WBAL, MLV_BLOCK_STYL, MLV_BLOCK_ELVL, MLV_BLOCK_INFO, MLV_BLOCK_MARK,
    MLV_BLOCK_DEBG, MLV_BLOCK_VERS, MLV_BLOCK_DISO, MLV_BLOCK_XREF, MLV_BLOCK_NULL,
    MLV_BLOCK_DARK,
    MLV_BLOCK_BKUP
} mlv_block_type;

typedef struct mlv_file_header {   /* MLVI */
    char version[9];
    uint64_t guid;
    uint16_t file_num, file_count;
    uint32_t file_flags;
    uint16_t video_class, audio_class;
    uint32_t video_frames, audio_frames;
    uint32_t fps_num, fps_den;
    uint32_t block_size;
} mlv_file_header;

typedef struct mlv_vidf {
    uint32_t number;
    uint16_t crop_x, crop_y, pan_x, pan_y;
    uint32_t frame_space;
} mlv_vidf;

typedef struct mlv_audf {
    uint32_t number;
    uint32_t frame_space;
} mlv_audf;

typedef struct mlv_text {          /* INFO, VERS, DEBG: text bounded by the block */
    uint32_t kind;                 /* DEBG type; 0 otherwise */
    char text[MLV_TEXT_MAX + 1];
} mlv_text;

typedef struct mlv_xref {
    uint32_t frame_type, entry_count;
} mlv_xref;

typedef struct mlv_block {
    mlv_block_type type;
    char tag[5];                   /* the four type bytes, NUL-terminated */
    uint32_t size;                 /* blockSize */
    uint64_t timestamp;
    union {
        mlv_file_header mlvi;
        mp_raw_info rawi;
        mp_raw_capture rawc;
        mlv_vidf vidf;
        mlv_audf audf;
        mp_audio_format wavi;
        mp_exposure expo;
        mp_lens lens;
        mp_wall_clock rtci;
        mp_camera idnt;
        mp_white_balance wbal;
        mp_style styl;
        mp_level_info elvl;
        mlv_text text;             /* INFO, VERS, DEBG */
        mlv_dark_info dark;        /* MLV-App's averaged dark frame (its samples follow) */
        uint32_t mark;
        mp_dual_iso_tag diso;
        mlv_xref xref;
    } u;
} mlv_block;

/* Type from the four tag bytes. */
mlv_block_type mp_mlv_block_type_of(const uint8_t tag[4]);
/* Bytes of the block's fixed structure (header included) that carry fields we decode;
 * text blocks add up to MLV_TEXT_MAX bytes. Unknown/filler types: the 16-byte header. */
uint32_t mp_mlv_block_wanted(mlv_block_type type);
/* True when the tag looks like a block name (letters, digits); garbage headers do not. */
int mp_mlv_tag_plausible(const uint8_t tag[4]);

/* Decodes the first `len` bytes of a block (len >= 16). Fields beyond len read as zero,
 * like mlv_dump does for blocks written by older versions. Strings are bounded by their
 * field and by the block. */
void mp_mlv_block_parse(const uint8_t *p, size_t len, mlv_block *out);

/* raw_info (160 bytes, RAWI offset 20 / RAW footer offset 32) into out; width and height
 * are the caller's (xRes, yRes). */
void mp_mlv_parse_raw_info(const uint8_t *ri, mp_raw_info *out);

/* DISO isoValue (menu index) to a recovery ISO, given the primary (EXPO) ISO; 0 unknown. */
uint32_t mp_mlv_diso_recovery_iso(int32_t iso_value, uint32_t primary_iso);

#endif
