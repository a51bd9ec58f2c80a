/* pipeline/job: one clip made ready to render, shared by convert's streaming loop
 * (convert.c) and frames on demand (frames.c): the clip's frame numbers and the selected
 * frames (mp_job_index), its analysis (mp_job_analyse: dark frame, borrowed defects, levels
 * from a sidecar, the levels cache or the pre-pass, the frame cache, the sink params), and
 * the one function that makes frame N as every output of it sees it (mp_job_frame: frame
 * cache, decode, repairs, dual-ISO reconstruction). Private to src/pipeline. */
#ifndef MP_PIPELINE_JOB_H
#define MP_PIPELINE_JOB_H

#include <limits.h>
#include <stdatomic.h>

#include "analysis/dark_load.h"
#include "analysis/defects_from.h"
#include "analysis/levels_io.h"
#include "cache/frame_cache.h"
#include "develop/develop.h"
#include "develop/lut.h"
#include "develop/resample.h"
#include "develop/stretch.h"
#include "dualiso/dualiso.h"
#include "encode/sink.h"
#include "engine/progress.h"
#include "engine/sampling.h"
#include "pipeline/cache_key.h"
#include "pipeline/convert.h"
#include "pipeline/formats.h"
#include "rawfix/rawfix.h"
#include "reader/mlv_reader.h"

typedef enum frame_outcome { FRAME_WRITTEN, FRAME_SKIPPED, FRAME_DAMAGED } frame_outcome;

/* One frame in flight: its payload (from the pool's reader) and what the job leaves for the
 * in-order delivery. The pool's slots are the bounded ring of payload buffers. */
typedef struct slot {
    uint32_t number;
    frame_outcome outcome;
    mlv_payload payload;
    int payload_read;            /* 0: not read, the reader found a cache entry */
    mp_error read_error;         /* code: the read's status (MP_ERR_DAMAGED: why it failed) */
    mp_frame frame;              /* only for sinks that take frames one at a time */
    mp_frame_meta meta;
    develop_rgb rgb;             /* RGB sinks that encode in write_rgb (DNxHR) */
    develop_rgb wide;            /* rgb's picture resampled (stretching, --scale) */
    mp_sink_unit *unit;          /* the encoded picture, from sinks that encode on workers */
} slot;

typedef struct job {
    const mp_convert_options *o;
    const mp_format *format;     /* o->format in the format table */
    const mlv_clip *clip;
    uint32_t *indices;           /* selected clip indices, ascending */
    uint32_t *numbers;           /* frame number of every clip index */
    mp_clip_levels levels;
    mp_segment *segs;            /* the levels' segments, for lookup by index */
    rawfix_plan *fixes;          /* each segment's raw repairs */
    rawfix_dark dark;            /* subtracted first (width 0: none) */
    mp_defects_from borrowed;    /* --defects-from (count 0: none) */
    int native;                  /* no dual segment: write the recorded samples */
    dualiso_options dopt;
    mp_cache *cache;             /* NULL: no cache */
    mp_cache_clip_id clip_id;
    uint64_t *seg_hash;          /* cache settings hash of each segment */
    atomic_int put_failures;
    const char *levels_cache;    /* folder of the levels cache (job.c); NULL: none */
    mp_sink *sink;
    int ordered;                 /* the sink takes one frame at a time, in order */
    develop_context *dev;        /* sinks that take RGB: how frames are developed */
    char folder[PATH_MAX];       /* where final frame files land (skip-existing) */
    mp_sink_params params;
    develop_params develop;      /* the options' develop params, with grey-world gains */
    develop_stretch stretch;     /* anamorphic clips to square pixels (out_width 0: none) */
    mp_lut lut;                  /* --lut, applied after the curve (sizes 0: none) */
    develop_resample resample;   /* --scale/--size, stretching too (h.out 0: none) */
    uint32_t stretch_top, stretch_left;   /* the picture (active area) in rgb */
    slot *slots;
    mp_progress progress;
    atomic_int output_failed;    /* a sink call failed (not the input) */
} job;

typedef struct worker {
    mlv_scratch scratch;         /* DELTA reference (and the frames before, if re-read) */
    mp_frame raw, out;
    dualiso_workspace *ws;
    develop_workspace dev;
    develop_rgb rgb;             /* the picture a worker encodes itself */
    develop_rgb wide;            /* rgb resampled (stretching, --scale) */
    void *enc;                   /* the worker's encoder (sinks that encode on workers) */
    int enc_made;                /* mp_sink_encoder_new was called (enc may still be NULL) */
    mp_cache_scratch cache_scratch;
} worker;

/* The options convert and frames on demand refuse alike, before any file is opened: MP_OK
 * or MP_ERR_ARG with the reason. */
mp_status mp_job_check_options(const mp_convert_options *o, mp_error *err);
/* Frame numbers of every clip index, the indices o->frames selects (j->indices, *selected
 * of them) and the sink params (names, timing, audio). */
mp_status mp_job_index(job *j, uint32_t *selected, mp_error *err);
/* 1 when a run of `selected` frames writes a WAV beside them. */
int mp_job_writes_wav(const job *j, uint32_t selected);
/* Dark frame, borrowed defects, levels (sidecar, levels cache in o->cache_dir, or the
 * pre-pass), frame cache, and the DNG storage in the params (mp_job_index filled the rest). */
mp_status mp_job_analyse(job *j, mp_error *err);
/* --lut FILE: its text through mp_lut_parse (MP_ERR_IO when unreadable). */
mp_status mp_job_lut_load(const char *path, mp_lut *lut, mp_error *err);

/* Releases what index and analyse made (not the clip, the sink or the develop state). */
void mp_job_free(job *j);

/* A worker's context (engine/workpool.h callbacks; user is the job). */
mp_status mp_job_worker_create(void *user, void **ctx, mp_error *err);
void mp_job_worker_destroy(void *user, void *ctx);

/* The frame's payload into its slot. A damaged frame is left for mp_job_frame to report;
 * any other read error is returned. */
mp_status mp_job_read_payload(const job *j, uint32_t index, slot *s, mp_error *err);
/* 1 and the key when the frame at clip index `index` is cached (dual-ISO frames only). */
int mp_job_cache_key(const job *j, uint32_t index, uint32_t number, mp_cache_key *key);
/* Decodes the slot's payload and reconstructs it into out (native clips: raw is the
 * output), without the frame cache. A damaged frame is logged and marked, not an error. */
mp_status mp_job_decode(job *j, worker *w, slot *s, uint32_t index, mp_frame *raw,
                        mp_frame *out, mp_error *err);
/* Frame `index` (s->number) as every output sees it: from the frame cache, else decoded from
 * the slot's payload (read now if the reader left it to the job), repaired and reconstructed
 * into out (native clips: into raw, and out must be raw), and put in the cache. A damaged
 * frame is logged and s->outcome set to FRAME_DAMAGED, not an error. */
mp_status mp_job_frame(job *j, worker *w, slot *s, uint32_t index, mp_frame *raw,
                       mp_frame *out, mp_error *err);

/* The clip's PCM (mp_sink_params.read_audio; opaque is the mlv_clip). */
mp_status mp_job_read_audio(void *opaque, uint64_t offset, void *buf, size_t bytes,
                            mp_error *err);

#endif
