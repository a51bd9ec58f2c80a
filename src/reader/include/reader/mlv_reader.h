/* reader: opens Magic Lantern clips (MLV v2.0, spanned .MLV/.M00..M99, legacy .RAW/.R00..)
 * and raw photos (CR2, DNG: a one-frame clip, through LibRaw) and gives random access to
 * their frames, metadata and audio. Each kind of input is a source behind the one handle
 * (src/reader/source.h); nothing above the reader needs to know which it was.
 *
 * Opening builds an index from block headers only (no payload reads). After that the clip is
 * read-only: any number of threads may call mp_mlv_read_frame() (or its two halves,
 * mp_mlv_read_payload and mp_mlv_decode_payload) at once on the same clip, each with its own
 * mlv_scratch and mlv_payload (reads use pread, there is no shared seek position).
 *
 * Frames are indexed 0..frame_count-1 in frame-number order (ties broken by timestamp; later
 * duplicates dropped and reported). mlv_frame_info.number is the absolute frame number. */
#ifndef MLV_READER_H
#define MLV_READER_H

#include <stddef.h>
#include <stdint.h>

#include "common/mp_frame.h"
#include "common/mp_meta.h"
#include "common/mp_status.h"

typedef struct mlv_clip mlv_clip;

/* STILL: one raw photo (CR2, DNG) read through LibRaw, a one-frame clip (doc/stills.md). */
typedef enum mlv_container { MLV_CONTAINER_MLV, MLV_CONTAINER_RAW, MLV_CONTAINER_STILL }
    mlv_container;

typedef enum mlv_compression {
    MLV_COMPRESSION_NONE,
    MLV_COMPRESSION_LJ92,
    MLV_COMPRESSION_LZMA,
    MLV_COMPRESSION_DELTA,
    MLV_COMPRESSION_LZMA_DELTA,
    MLV_COMPRESSION_LJ92_DELTA          /* mlv_dump -c -e: LJ92 images of the DELTA samples */
} mlv_compression;

typedef enum mlv_damage_kind {
    MLV_DAMAGE_TRUNCATED,       /* a block runs past the end of its file */
    MLV_DAMAGE_ZERO_TAIL,       /* blockSize 0 / zero-filled tail */
    MLV_DAMAGE_BAD_BLOCK,       /* impossible size or field; block skipped */
    MLV_DAMAGE_GUID_MISMATCH,   /* a chunk from another recording, ignored */
    MLV_DAMAGE_MISSING_CHUNK,   /* a gap in the chunk sequence */
    MLV_DAMAGE_DUPLICATE_FRAME, /* a frame number seen twice; the later one dropped */
    MLV_DAMAGE_RESYNC,          /* garbage skipped by scanning for the next known block */
    /* Added with issue 14 (values only appended). */
    MLV_DAMAGE_LOST_FRAMES,     /* fewer VIDF blocks than the chunk's MLVI videoFrameCount */
    MLV_DAMAGE_BAD_NUMBER,      /* a frame number or timestamp implausible against its
                                 * neighbours, or a frame rate that is no rate */
    MLV_DAMAGE_OVERSTATED,      /* a blockSize reaching past the next block's start */
    MLV_DAMAGE_BAD_FIELD        /* RAWI levels / CFA or a WAVI format nothing can have: the
                                 * frames (or audio) it describes are left out */
} mlv_damage_kind;

typedef struct mlv_damage {
    mlv_damage_kind kind;
    uint32_t chunk;             /* index into the clip's chunk files */
    uint64_t offset;            /* byte offset in that chunk */
    char message[256];          /* one line: "FILE: offset N: cause" */
} mlv_damage;

/* MLV-App's DARK block: an averaged dark frame stored in the clip (doc/mlv-format.md 4.12). */
typedef struct mlv_dark_info {
    int present;
    uint32_t frames_averaged, camera_model;
    uint32_t width, height, bits;       /* of its samples, packed as uncompressed VIDFs */
    uint32_t black, white, iso;
    uint64_t shutter_us;
    uint8_t binning_x, skipping_x, binning_y, skipping_y;
    uint32_t chunk;                     /* where its samples are: chunk file, byte offset, */
    uint64_t offset;                    /* bytes (blockSize less the 84-byte header) */
    uint32_t size;
} mlv_dark_info;

typedef struct mlv_clip_info {
    mlv_container container;
    uint32_t chunk_count;
    uint64_t guid;
    uint32_t video_class, audio_class;
    mlv_compression compression;
    uint32_t fps_num, fps_den;          /* sourceFpsNom / sourceFpsDenom */
    uint32_t frame_count;               /* frames in the index */
    uint32_t first_number, last_number; /* frame numbers of index 0 and frame_count-1 */
    uint32_t gap_count;                 /* runs of missing frame numbers */
    uint32_t missing_frames;            /* frame numbers missing inside [first, last] */
    uint32_t segment_count;             /* runs of frames sharing the same RAWI/EXPO/DISO */
    /* Metadata in force at the first frame (later changes: see mlv_frame_info). */
    mp_raw_info raw;
    mp_raw_capture capture;
    mp_camera camera;
    mp_exposure exposure;
    mp_lens lens;
    mp_white_balance white_balance;
    mp_wall_clock wall_clock;
    mp_dual_iso_tag dual_iso;
    mp_style style;
    mp_level_info level;
    char info_text[256];                /* INFO block text, if any */
    /* Audio: PCM concatenated from AUDF blocks in their frameNumber order. */
    mp_audio_format audio;
    uint64_t audio_bytes;               /* whole sample frames only */
    uint64_t audio_start_us;            /* timestamp of the first audio sample */
    uint64_t video_start_us;            /* timestamp of the first indexed frame */
    uint32_t damage_count;
    /* Added by the reader owner (fields only appended). */
    uint32_t damage_omitted;            /* damage beyond the stored entries, counted only */
    uint32_t file_flags;                /* MLVI fileFlags of the first chunk */
    uint32_t audio_blocks;              /* AUDF blocks indexed */
    uint32_t mark_count;                /* MARK blocks */
    int lj92_tagged_raw;                /* videoClass 0x01 but LJ92 payloads (2017 builds) */
    char versions[256];                 /* VERS strings, joined with "; " */
    int lzma_tagged_raw;                /* videoClass 0x01 but LZMA payloads (mlv_dump 2015-17);
                                         * compression then says LZMA */
    mlv_dark_info dark;                 /* the first DARK block (present 0: none) */
    char still_format[8];               /* STILL: "CR2" or "DNG" */
    int sequence;                       /* STILL: a folder of photos, a frame each */
    mp_photo photo;                     /* STILL: owner, orientation */
    uint32_t lost_frames;               /* frames recorded but lost to damage, as the index
                                         * shows them: a VIDF cut at the end of its file, or
                                         * fewer VIDFs than MLVI videoFrameCount (#35) */
} mlv_clip_info;

typedef struct mlv_frame_info {
    uint32_t number;                    /* absolute frame number */
    uint64_t timestamp_us;
    uint16_t crop_x, crop_y, pan_x, pan_y;
    uint32_t segment;                   /* changes when RAWI, EXPO or DISO changes */
    const mp_raw_info *raw;             /* in force for this frame (owned by the clip) */
    const mp_exposure *exposure;
    const mp_dual_iso_tag *dual_iso;
    const mp_white_balance *white_balance;
    uint32_t chunk;                     /* where its payload is: chunk file and byte offset */
    uint64_t offset;
} mlv_frame_info;

typedef struct mlv_open_options {
    mp_logger log;                      /* warnings while indexing */
    int no_spanning;                    /* open only the named file */
} mlv_open_options;

/* The stored bytes of one frame as mp_mlv_read_payload left them (compressed or bit-packed; for
 * legacy RAW the bytes may straddle two chunk files). Reusable: zero-initialise, then read
 * into it any number of times; mp_mlv_payload_free releases it. */
typedef struct mlv_payload {
    uint8_t *data;
    size_t size;                        /* bytes of the frame held */
    size_t capacity;
    const mlv_clip *clip;               /* which frame the bytes are (NULL: none yet) */
    uint32_t index;
} mlv_payload;

/* Per-thread decode state (inflated LZMA buffer, DELTA reference, payloads mp_mlv_read_frame
 * reads into). Zero-initialise. */
typedef struct mlv_scratch {
    uint8_t *buf;
    size_t buf_size;
    uint16_t *ref;                      /* DELTA: last decoded frame, in stored units */
    size_t ref_size;
    int64_t ref_index;                  /* index of the frame in ref, -1 none */
    const mlv_clip *ref_clip;           /* clip that ref belongs to (a scratch may move on) */
    /* Added with the read/decode split (fields only appended). */
    mlv_payload payload;                /* mp_mlv_read_frame's own payload */
    mlv_payload chain;                  /* DELTA: earlier frames read to rebuild the reference */
} mlv_scratch;

/* Opens path (.MLV, .RAW, or a later chunk's name) and indexes every chunk; or a TIFF-based
 * raw photo (CR2, DNG, any name), a one-frame clip read through LibRaw; or a folder of raw
 * photos (a timelapse), one clip of a frame per photo in name order (chunk k is photo k).
 * Damage that leaves frames readable is recorded (mp_mlv_clip_damage) and opening succeeds;
 * a file with no usable frame header (no MLVI/RAWI, no RAWM footer) fails, as does a photo
 * LibRaw cannot identify (MP_ERR_FORMAT / MP_ERR_UNSUPPORTED) or LibRaw missing (MP_ERR_IO);
 * in a folder such a photo, or one of another size than the first, is damage and left out.
 * Opening identifies photos only (headers); reading a frame has LibRaw decode the photo, and
 * image data cut short or corrupt is MP_ERR_DAMAGED then. */
mp_status mp_mlv_clip_open(mlv_clip **out, const char *path, const mlv_open_options *opt,
                        mp_error *err);

/* A file held in memory, for mp_mlv_clip_open_memory: its name (the extension decides the
 * kind and the chunk order as on disk) and its bytes. */
typedef struct mlv_mem_file {
    const char *name;
    const uint8_t *data;
    size_t size;
} mlv_mem_file;

/* The same as mp_mlv_clip_open with files[] standing for the folder: path names the one to
 * open and the other chunks are looked up among the names (for fuzzing and tests: no file
 * is touched). files and their bytes must outlive the clip. */
mp_status mp_mlv_clip_open_memory(mlv_clip **out, const char *path, const mlv_mem_file *files,
                                  uint32_t count, const mlv_open_options *opt, mp_error *err);
void mp_mlv_clip_close(mlv_clip *clip);

/* 1 when mp_mlv_clip_open would take path as one raw photo (a file that starts like a TIFF,
 * not an MLV, not a .RAW name), from its first bytes only; 0 otherwise, a folder and a file
 * that cannot be read included. */
int mp_mlv_is_photo_file(const char *path);

/* Whether the photos paths[0..n) look like one timelapse, in two steps, so that a caller can
 * open the photos in parallel: mp_mlv_photos_in_a_row says from the names alone (at least 3,
 * numbered in a row in one folder with one prefix and extension: IMG_0001.CR2,
 * IMG_0002.CR2, ...); mp_mlv_photo_session opens one photo (LibRaw identifies it) and gives
 * what the photos of one timelapse share (0 when it is no still that opens);
 * mp_mlv_photo_same_session compares two: one body (model and serial) at one picture size,
 * ISO, shutter, aperture, focal length and lens. */
typedef struct mlv_photo_session {
    mp_camera camera;
    mp_exposure exposure;
    mp_lens lens;
    uint32_t width, height;
} mlv_photo_session;
int mp_mlv_photos_in_a_row(const char *const *paths, uint32_t n);
int mp_mlv_photo_session(const char *path, mlv_photo_session *s);
int mp_mlv_photo_same_session(const mlv_photo_session *a, const mlv_photo_session *b);

const mlv_clip_info *mp_mlv_clip_get_info(const mlv_clip *clip);
const char *mp_mlv_clip_path(const mlv_clip *clip, uint32_t chunk);
const mlv_damage *mp_mlv_clip_damage(const mlv_clip *clip, uint32_t i);

mp_status mp_mlv_frame_info_get(const mlv_clip *clip, uint32_t index, mlv_frame_info *out);
/* Index of the frame with this absolute number, or -1. */
int64_t mp_mlv_frame_index_of(const mlv_clip *clip, uint32_t number);

/* Decodes frame `index` into out (resized as needed): raw samples in the stored bit depth,
 * levels and CFA from the RAWI in force. Thread-safe given a scratch per thread. */
mp_status mp_mlv_read_frame(const mlv_clip *clip, uint32_t index, mp_frame *out,
                         mlv_scratch *scratch, mp_error *err);
void mp_mlv_scratch_free(mlv_scratch *scratch);

/* mp_mlv_read_frame in two steps, so one thread can do the I/O and others the decoding.
 *
 * mp_mlv_read_payload: I/O only. Checks frame `index` against its RAWI (the same checks and
 * errors as mp_mlv_read_frame) and preads its stored bytes into buf, never more than the frame
 * can need (a packed frame's size; LJ92 and LZMA streams are capped at a bound derived from
 * the frame size), so a hostile block length cannot make it allocate without bound.
 * Thread-safe given a payload per thread.
 *
 * mp_mlv_decode_payload: decodes a payload read for the same clip and index into out (unpack,
 * LJ92, LZMA), fills out's levels, CFA, number and timestamp, exactly as mp_mlv_read_frame does.
 * CPU only, except for DELTA clips: a DELTA frame is stored relative to the frame before it,
 * so when the scratch's reference is not frame index-1 the earlier frames of the chain (back
 * to the last RAWI change) are read and decoded here with pread, as mp_mlv_read_frame would.
 * Decoding in index order with one scratch keeps that at one frame per call. */
mp_status mp_mlv_read_payload(const mlv_clip *clip, uint32_t index, mlv_payload *buf,
                           mp_error *err);
mp_status mp_mlv_decode_payload(const mlv_clip *clip, uint32_t index, const mlv_payload *buf,
                             mp_frame *out, mlv_scratch *scratch, mp_error *err);
void mp_mlv_payload_free(mlv_payload *buf);

/* The samples of the clip's DARK block (info.dark) into out, levels from the block. A block
 * without room for its samples, or of an impossible size or depth, is MP_ERR_DAMAGED / MP_ERR_
 * UNSUPPORTED naming the file and offset; no DARK block is MP_ERR_ARG. */
mp_status mp_mlv_read_dark(const mlv_clip *clip, mp_frame *out, mp_error *err);

/* Copies len bytes of the clip's PCM stream starting at byte offset into dst. */
mp_status mp_mlv_read_audio(const mlv_clip *clip, uint64_t offset, void *dst, size_t len,
                         mp_error *err);

const char *mp_mlv_compression_name(mlv_compression c);
/* "truncated", "zero_tail" ...: the name info --json and report --json give a damage kind. */
const char *mp_mlv_damage_kind_name(mlv_damage_kind k);

/* MP_OK when frames of this clip can be decoded; else MP_ERR_UNSUPPORTED and a message
 * naming the video class (reading any frame fails the same way). */
mp_status mp_mlv_clip_check_video(const mlv_clip *clip, mp_error *err);

/* 1 (and why, in size bytes) when a RAWI holds levels or a CFA layout that no picture can
 * have: its frames are not decoded (MP_ERR_DAMAGED) and the clip reports it as damage. */
int mp_mlv_raw_problem(const mp_raw_info *r, char *why, size_t size);

/* 1 (and why) when frame `index` cannot be decoded whatever its payload says: its RAWI is
 * impossible (mp_mlv_raw_problem) or no payload of its segment can hold a frame of that RAWI
 * (reported once in the damage list). Every frame of a segment gives the same answer. */
int mp_mlv_frame_problem(const mlv_clip *clip, uint32_t index, char *why, size_t size);

#endif
