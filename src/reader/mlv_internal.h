/* reader internals shared by the files of src/reader (not a public header).
 * The clip is built by one thread during mp_mlv_clip_open and is read-only afterwards. */
#ifndef MLV_INTERNAL_H
#define MLV_INTERNAL_H

#include <stdint.h>
#include <sys/types.h>

#include "reader/mlv_blocks.h"
#include "reader/mlv_reader.h"
#include "source.h"

/* Bounds that keep hostile files from making us allocate without limit. */
#define MLV_DAMAGE_MAX 1000u        /* stored entries; further ones are only counted */
#define MLV_EVENTS_MAX 16384u       /* mid-clip RAWI/EXPO/DISO/WBAL changes kept */
#define MLV_CHUNKS_MAX 101u         /* .MLV + .M00 .. .M99 */
#define MLV_RESYNC_MAX (128u << 20) /* bytes scanned for the next block after garbage */

typedef struct mlv_chunk {
    char *path;
    int fd;                 /* -1: no file (in memory, or ignored) */
    const uint8_t *mem;     /* the bytes of an in-memory chunk (the caller's), else NULL */
    uint64_t size;          /* file size */
    uint64_t data_end;      /* end of usable data (RAW: the last chunk stops at the footer) */
    int after_gap;          /* a chunk name before this one is missing */
} mlv_chunk;

/* One VIDF or AUDF block (or a legacy RAW frame): where its payload is, never the payload. */
typedef struct mlv_entry {
    uint64_t timestamp;
    uint64_t offset;        /* payload start in the chunk */
    uint32_t length;        /* payload bytes available in the block */
    uint32_t number;
    uint32_t state;         /* VIDF: index into mlv_clip.states */
    uint32_t segment;
    uint32_t damage_seen;   /* damage met while walking, up to this block (see below) */
    uint16_t chunk;
    uint16_t crop_x, crop_y, pan_x, pan_y;
    uint8_t reference_lost; /* DELTA: a frame this one depends on was lost to damage */
    uint8_t unfit;          /* no payload of its segment can hold its frame: not decoded */
} mlv_entry;

/* The per-frame metadata in force for a run of frames. */
typedef struct mlv_state {
    uint32_t variant;       /* changes exactly when raw, exposure or dual_iso change */
    mp_raw_info raw;
    mp_exposure exposure;
    mp_dual_iso_tag dual_iso;
    mp_white_balance white_balance;
} mlv_state;

/* A mid-clip change of per-frame metadata, applied in timestamp order. */
typedef struct mlv_event {
    uint64_t timestamp;
    uint64_t seq;           /* file order, for equal timestamps */
    mlv_block block;
} mlv_event;

struct mlv_clip {
    mlv_clip_info info;
    const mp_source_ops *source;    /* the kind of input that filled the index (source.h) */
    void *source_state;             /* the source's own, released by its close */
    int folder;                     /* opened as a folder: its chunks are the stills in it */
    mlv_chunk *chunks;
    mlv_entry *frames;      /* frame_count entries, sorted by number */
    mlv_entry *audio;       /* audio_count entries, sorted by number */
    uint64_t *audio_pos;    /* PCM byte offset of each audio entry's start */
    uint32_t audio_count;
    mlv_state *states;
    uint32_t state_count;
    mlv_damage *damage;

    /* build-time only (freed at the end of mp_mlv_clip_open) */
    uint32_t frames_cap, audio_cap, damage_cap, state_cap;
    mlv_event *events;
    uint32_t event_count, event_cap;
    uint64_t seq;
    mp_logger log;
    /* Damage met so far in file order (and bumped for frames dropped after the walk): two
     * frames with different counts may have lost a frame between them. */
    uint32_t damage_seen;
    const mlv_mem_file *mem_files;  /* mp_mlv_clip_open_memory's files, else NULL */
    uint32_t mem_count;
    int have_rawi;
    uint32_t wavi_chunk;    /* where the WAVI kept is, for messages */
    uint64_t wavi_offset;
    int events_full;
    int32_t last_event[MLV_BLOCK_BKUP + 1];     /* per kind: latest event, -1 none */
    uint64_t kept_ts[MLV_BLOCK_BKUP + 1];       /* clip-level kinds: timestamp of the one kept */
    uint8_t kept[MLV_BLOCK_BKUP + 1];
};

/* mlv_damage.c: the damage list (logged as a warning too) and the name messages give a file. */
void mp_mlv_add_damage(mlv_clip *c, mlv_damage_kind kind, uint32_t chunk, uint64_t offset,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
const char *mp_mlv_base_name(const char *path);

/* mlv_build.c: accumulation while indexing, then sorting and metadata assignment. */
mp_status mp_mlv_add_frame(mlv_clip *c, const mlv_entry *e, mp_error *err);
mp_status mp_mlv_add_audio(mlv_clip *c, const mlv_entry *e, mp_error *err);
/* Any non-VIDF/AUDF block, found at offset of chunk: per-frame kinds become events, the rest
 * clip-level info. */
mp_status mp_mlv_add_metadata(mlv_clip *c, const mlv_block *b, uint32_t chunk, uint64_t offset,
                              mp_error *err);
mp_status mp_mlv_finish_index(mlv_clip *c, mp_error *err);
/* 1 when frames a and b (indices) have the same RAWI in force. */
int mp_mlv_same_raw(const mlv_clip *c, uint32_t a, uint32_t b);
/* qsort order of frames and audio blocks: number, then timestamp, then file position. */
int mp_mlv_cmp_by_number(const void *a, const void *b);
void mp_mlv_sort(void *base, uint32_t count, size_t size, int (*cmp)(const void *, const void *));

/* mlv_frame.c: 1 when the payload of frame e is large enough to hold a frame of RAWI r in
 * the clip's compression (a packed frame, one bit a sample of LJ92, LZMA's best ratio). */
int mp_mlv_payload_fits(const mlv_clip *c, const mlv_entry *e, const mp_raw_info *r);
/* mlv_unfit.c: after the compression is known, segments none of whose payloads can hold
 * their frame are reported and marked (mlv_entry.unfit), so that nothing allocates for them. */
void mp_mlv_mark_unfit_segments(mlv_clip *c);

/* mlv_plausible.c: frame rate, numbers and timestamps against each other (file order). */
mp_status mp_mlv_check_plausible(mlv_clip *c, mp_error *err);
/* A frame rate is num/den frames a second within 1/1000..1000; a header's rate outside that
 * is damage, replaced by the timestamps' rate or else MLV_FALLBACK_FPS. */
#define MLV_FALLBACK_FPS 25u
int mp_mlv_rate_valid(uint32_t num, uint32_t den);

/* mlv_fields.c (mp_mlv_raw_problem: mlv_reader.h) */
int mp_mlv_audio_problem(const mp_audio_format *a, char *why, size_t size);

/* mlv_chunks.c. A chunk is read when it is an open file or bytes in memory; one found
 * unusable (GUID mismatch, bad header) is dropped and ignored from then on. */
int mp_mlv_chunk_usable(const mlv_chunk *ch);
void mp_mlv_chunk_drop(mlv_chunk *ch);
/* len bytes at offset (fewer only at the end of the chunk), or -1 with errno set: a read
 * that retries short reads and EINTR, or a copy. */
ssize_t mp_mlv_chunk_pread(const mlv_chunk *ch, void *dst, size_t len, uint64_t offset);
mp_status mp_mlv_find_chunks(mlv_clip *c, const char *path, int no_spanning, mp_error *err);

/* mlv_index.c: walks one MLV chunk by block headers. */
mp_status mp_mlv_index_chunk(mlv_clip *c, uint32_t chunk, mp_error *err);
/* Reads and checks the MLVI at offset 0 of a chunk. */
mp_status mp_mlv_read_mlvi(const mlv_chunk *ch, mlv_file_header *h, mp_error *err);

/* raw_legacy.c */
int mp_mlv_is_legacy_raw_name(const char *path);
mp_status mp_mlv_index_legacy_raw(mlv_clip *c, mp_error *err);

/* mlv_frame.c: grows *p (capacity bytes) to hold n bytes; MP_ERR_NOMEM when it cannot. */
mp_status mp_mlv_reserve_bytes(uint8_t **p, size_t *capacity, size_t n, mp_error *err);
/* mlv_frame.c: makes room in out for frame index and gives it the levels, CFA, number and
 * time stamp of its entry and RAWI (the samples are the caller's to fill). */
mp_status mp_mlv_frame_shell(const mlv_clip *c, uint32_t index, mp_frame *out, mp_error *err);

/* mlv_audio.c */
mp_status mp_mlv_finish_audio(mlv_clip *c, mp_error *err);

/* Reads len bytes at offset of chunk, continuing into the following chunks at their start
 * when the range runs past the chunk's data end (legacy RAW frames straddle chunks). */
mp_status mp_mlv_read_span(const mlv_clip *c, uint32_t chunk, uint64_t offset, void *dst,
                        size_t len, mp_error *err);

#endif
