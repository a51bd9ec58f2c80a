/* mlvpipe plans: the render-farm job that converts a clip in chunks of frames (doc/farm.md),
 * as `mlvpipe plan` prints it: one `mlvpipe analyze` task writing the levels sidecar, one
 * `mlvpipe convert --frames A-B --levels SIDECAR` task per chunk after it, and a final task
 * after every chunk (`mlvpipe join` for movie segments; for DNG frames of a clip with audio,
 * a whole-clip `convert --skip-existing` that writes the WAV).
 *
 * Chunk k is frames [FIRST + k*N, FIRST + (k+1)*N - 1] (the last one ends at the clip's last
 * frame; chunks in which the clip has no frame are left out), so boundaries and file names
 * depend only on the clip and N. Added in API 1.1. */
#ifndef MLVPIPE_PLAN_H
#define MLVPIPE_PLAN_H

#include <stdint.h>

#include "mlvpipe/clip.h"
#include "mlvpipe/common.h"

typedef enum mlvpipe_plan_engine {
    MLVPIPE_PLAN_SLURM,       /* a bash script submitting sbatch jobs (a job array per chunk) */
    MLVPIPE_PLAN_PARALLEL,    /* a bash script running GNU parallel */
    MLVPIPE_PLAN_JSON         /* the tasks as argv arrays with dependencies (doc/json.md 3) */
} mlvpipe_plan_engine;

#define MLVPIPE_PLAN_MAX_EXTRA 32

/* Paths are used as they are: the hosts must see them at the same places (make them
 * absolute). Text with a control character is refused (MLVPIPE_ERR_ARG). */
typedef struct mlvpipe_plan_settings {
    mlvpipe_plan_engine engine;   /* default MLVPIPE_PLAN_SLURM */
    const char *tool;             /* names the program in the header; NULL: "mlvpipe VERSION" */
    const char *program;          /* mlvpipe as the hosts run it */
    const char *clip;             /* the clip's path as the hosts see it */
    const char *output;           /* output folder (convert's -o) */
    const char *name;             /* the clip's name without extension: jobs and files */
    const char *levels;           /* the sidecar analyze writes and every chunk reads */
    const char *format;           /* convert --to; one mlvpipe_format_find says is joinable;
                                   * NULL: "dng" */
    uint32_t chunk_size;          /* frame numbers per chunk (default 1000) */
    uint32_t threads;             /* per task; 0: convert's default */
    int phase;                    /* --phase for analyze and convert; -1: detect (default) */
    int no_audio;                 /* pass --no-audio */
    const char *extra[MLVPIPE_PLAN_MAX_EXTRA];   /* given to every convert task as they are */
    uint32_t extra_count;
    /* Slurm: '#SBATCH OPT' lines for every job, and for the jobs that do the work (analyze
     * and convert) only; --mem of those two (e.g. "4G", NULL: none); at most throttle array
     * tasks at once (0: any); an interrupted task (exit 6) requeues itself up to `requeues`
     * times (default 3). */
    const char *sbatch[MLVPIPE_PLAN_MAX_EXTRA];
    uint32_t sbatch_count;
    const char *sbatch_work[MLVPIPE_PLAN_MAX_EXTRA];
    uint32_t sbatch_work_count;
    const char *mem;
    uint32_t throttle;
    uint32_t requeues;
    /* GNU parallel: --sshlogin (NULL: this machine) and --jobs (0: parallel's default). */
    const char *sshlogin;
    uint32_t jobs;
    /* The dark frame (convert's --dark) given to analyze and every convert task, so the
     * sidecar and every chunk subtract the same pattern; NULL: none. */
    const char *dark;
    /* (API 4.0) convert's --defects-from, given to analyze: the sidecar carries the borrowed
     * map to every chunk; NULL: none. */
    const char *defects_from;
} mlvpipe_plan_settings;

/* Fills s with the defaults (the size of *s as the header lays it out: version.h). */
MLVPIPE_API void mlvpipe_default_plan_settings_sized(mlvpipe_plan_settings *s, size_t size);
#define mlvpipe_default_plan_settings(s) mlvpipe_default_plan_settings_sized((s), sizeof *(s))
MLVPIPE_API void (mlvpipe_default_plan_settings)(mlvpipe_plan_settings *s);

/* Writes the job for clip (its GUID, frame numbers and audio) into *out (release it with
 * mlvpipe_text_free). MLVPIPE_ERR_ARG: settings that cannot make a job (a format that does
 * not join, a control character, a path too long); errors reading the clip's frame list
 * name the frame index; a clip without frames is MLVPIPE_ERR_FORMAT. */
MLVPIPE_API mlvpipe_status mlvpipe_plan_sized(const mlvpipe_clip *clip,
                                              const mlvpipe_plan_settings *s, size_t size,
                                              mlvpipe_text *out, mlvpipe_error *err);
#define mlvpipe_plan(clip, s, out, err) mlvpipe_plan_sized((clip), (s), sizeof *(s), (out), (err))
MLVPIPE_API mlvpipe_status (mlvpipe_plan)(const mlvpipe_clip *clip,
                                          const mlvpipe_plan_settings *s, mlvpipe_text *out,
                                          mlvpipe_error *err);

/* The words of the first chunk's convert task, as every engine runs it (the program first,
 * then "convert"; the other chunks differ only in --frames and a movie segment's name), so
 * that a caller can check the options before planning. *argv is NULL-terminated with *argc
 * words; release it with mlvpipe_argv_free. Errors as mlvpipe_plan's. */
MLVPIPE_API mlvpipe_status mlvpipe_plan_task_argv_sized(const mlvpipe_clip *clip,
                                                        const mlvpipe_plan_settings *s,
                                                        size_t size, char ***argv,
                                                        uint32_t *argc, mlvpipe_error *err);
#define mlvpipe_plan_task_argv(clip, s, argv, argc, err)                                       \
    mlvpipe_plan_task_argv_sized((clip), (s), sizeof *(s), (argv), (argc), (err))
MLVPIPE_API mlvpipe_status (mlvpipe_plan_task_argv)(const mlvpipe_clip *clip,
                                                    const mlvpipe_plan_settings *s,
                                                    char ***argv, uint32_t *argc,
                                                    mlvpipe_error *err);
MLVPIPE_API void mlvpipe_argv_free(char **argv);

#endif
