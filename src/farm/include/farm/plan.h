/* farm/plan: a clip cut into chunks of frames and the job description that converts them on a
 * render farm (doc/farm.md 5): one `analyze` task writing the levels sidecar, one
 * `convert --frames A-B --levels SIDECAR` task per chunk after it, and a final task after all
 * chunks: `join` for movie segments, or, for a DNG sequence of a clip with audio, a whole-clip
 * `convert --skip-existing` that finds every frame done and writes the WAV.
 *
 * Chunks: chunk k covers the absolute frame numbers [first + k*N, first + (k+1)*N - 1], the last
 * one clamped to the clip's last frame; chunks holding no frame of the clip (a gap of dropped
 * frames) are left out. Boundaries and file names depend only on the clip and N.
 *
 * Engines:
 *   slurm     a bash script to run where sbatch works: it submits the analyze job, a job array
 *             (--array=0-(K-1)[%N], --dependency=afterok:ANALYZE) whose task i converts chunk
 *             i, and the final job (afterok on the whole array); job scripts carry #SBATCH
 *             lines. analyze and convert are --requeue and requeue themselves on exit 6
 *             (interrupted: preempted, scancel --signal=TERM) while SLURM_RESTART_COUNT is
 *             below `requeues`; they resume (DNG --skip-existing) or redo their one file.
 * Convert tasks log a JSON progress line per 10 s (--progress-every 10), not per frame.
 *   parallel  a bash script: analyze, then `parallel --halt now,fail=1 -q ... ::: RANGES`
 *             (with --sshlogin when given), then the final step.
 *   json      {"format":"mlvpipe-plan","format_version":1, ... "tasks":[...]} with every task's
 *             command as an argv array and its dependencies by id (doc/json.md, section 3).
 * Every path is quoted for the shell; text with control characters is refused (it could end a
 * here-document or a line early). */
#ifndef MP_FARM_PLAN_H
#define MP_FARM_PLAN_H

#include <stdint.h>

#include "common/mp_status.h"
#include "common/json.h"

typedef struct farm_chunk {
    uint32_t first, last;       /* absolute frame numbers, inclusive */
    uint32_t frames;            /* frames of the clip inside */
} farm_chunk;

/* Cuts numbers[0..count) (the clip's frame numbers, strictly increasing) into chunks of
 * `size` frame numbers. *chunks is malloc'd (free it), *chunk_count >= 1 when count >= 1. */
mp_status mp_farm_chunks(const uint32_t *numbers, uint32_t count, uint32_t size,
                      farm_chunk **chunks, uint32_t *chunk_count, mp_error *err);

/* Appends s as one shell word: unchanged when it is made of safe characters only, else in
 * single quotes (a quote inside becomes '\''). */
void mp_farm_shell_quote(mp_text *t, const char *s);

/* MP_OK when s has no control character (what may go into a script line); else MP_ERR_ARG
 * naming `what`. */
mp_status mp_farm_check_text(const char *what, const char *s, mp_error *err);

typedef enum farm_engine { FARM_SLURM, FARM_PARALLEL, FARM_JSON } farm_engine;

#define FARM_MAX_EXTRA 32

typedef struct farm_plan {
    const char *tool;           /* "mlvpipe 0.1.0", written into the header */
    const char *program;        /* mlvpipe as the nodes run it */
    const char *clip;           /* the clip's path as the nodes see it */
    const char *output;         /* output folder */
    const char *name;           /* clip name without extension: job and file names */
    const char *levels;         /* sidecar written by analyze, read by every chunk */
    const char *format;         /* convert --to value; NULL: DNG */
    const char *movie_ext;      /* NULL: frames (no join); else "mov", "mkv": segments + join */
    uint32_t threads;           /* per task; 0: convert's default (and no --cpus-per-task) */
    int phase;                  /* --phase for analyze and convert; -1: detect */
    int no_audio;               /* pass --no-audio */
    const char *dark;           /* --dark for analyze and convert; NULL: none */
    const char *defects_from;   /* --defects-from for analyze (the sidecar carries its map);
                                 * NULL: none */
    const char *extra[FARM_MAX_EXTRA];   /* passed to every convert task verbatim */
    uint32_t extra_count;
    /* The clip, from the reader. */
    uint64_t guid;
    uint32_t frame_count, first_frame, last_frame;
    uint32_t width, height;     /* the recorded frame: the default --mem scales with it */
    int developed;              /* the format is developed RGB (more memory per thread) */
    int has_audio;
    uint32_t chunk_size;
    const farm_chunk *chunks;
    uint32_t chunk_count;
    /* Slurm: extra "#SBATCH ..." lines for every job (e.g. "--partition=render"), and for the
     * jobs that do the work only, analyze and convert (e.g. "--time=2:00:00"): the final
     * join is single-threaded and short. threads and mem also go to those two only. */
    const char *sbatch[FARM_MAX_EXTRA];
    uint32_t sbatch_count;
    const char *sbatch_work[FARM_MAX_EXTRA];
    uint32_t sbatch_work_count;
    const char *mem;            /* Slurm --mem of analyze and convert (e.g. "4G"); NULL: each
                                 * job's from measured peaks (mp_farm_default_mem_mb) */
    uint32_t throttle;          /* Slurm: at most this many array tasks at once (%N); 0: any */
    uint32_t requeues;          /* Slurm: an interrupted task (exit 6) is requeued up to this
                                 * many times (scontrol requeue; jobs are --requeue) */
    /* GNU parallel: --sshlogin list (NULL: this machine) and --jobs (0: parallel's default). */
    const char *sshlogin;
    uint32_t jobs;
} farm_plan;

/* The Slurm --mem (MiB) of an analyze (developed 0) or convert task of p when none is given:
 * the peak resident memory measured at 1920x1080 (doc/farm.md "Memory"), scaled by the frame
 * size and the threads (0: 1), half again for margin, rounded up to 64 MiB. */
uint32_t mp_farm_default_mem_mb(const farm_plan *p, int developed);

/* Folder of the movie segments: OUTPUT/NAME_segments. Writes into out (size bytes). */
mp_status mp_farm_segment_dir(const farm_plan *p, char *out, size_t size, mp_error *err);
/* Segment of chunk c: OUTPUT/NAME_segments/NAME_AAAAAA-BBBBBB.EXT. */
mp_status mp_farm_segment_path(const farm_plan *p, const farm_chunk *c, char *out, size_t size,
                            mp_error *err);
/* The joined movie: OUTPUT/NAME.EXT. */
mp_status mp_farm_movie_path(const farm_plan *p, char *out, size_t size, mp_error *err);

/* Chunk `index`'s convert command as every engine runs it (the program first; the scripts
 * put the chunk's --frames and segment path in through variables), for checking its options
 * before anything is planned: *argv is NULL-terminated, *argc words, freed with
 * mp_farm_argv_free. */
mp_status mp_farm_chunk_argv(const farm_plan *p, uint32_t index, char ***argv, uint32_t *argc,
                             mp_error *err);
void mp_farm_argv_free(char **argv);

/* Writes the job description for engine e. Fails (MP_ERR_ARG) on text that cannot go into a
 * script, MP_ERR_NOMEM when out could not grow. */
mp_status mp_farm_plan_render(const farm_plan *p, farm_engine e, mp_text *out, mp_error *err);

#endif
