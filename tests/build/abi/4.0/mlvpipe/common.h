/* mlvpipe: status codes, error messages, logging and progress shared by the whole API. */
#ifndef MLVPIPE_COMMON_H
#define MLVPIPE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifndef MLVPIPE_API
#if defined(__GNUC__) && __GNUC__ >= 4
#define MLVPIPE_API __attribute__((visibility("default")))
#else
#define MLVPIPE_API
#endif
#endif

/* What went wrong. Every function that can fail returns one and, given an mlvpipe_error,
 * fills it with one line naming the file, the byte offset where one applies, and the cause. */
typedef enum mlvpipe_status {
    MLVPIPE_OK = 0,
    MLVPIPE_ERR_ARG,          /* the caller passed something impossible */
    MLVPIPE_ERR_IO,           /* open/read/write/rename failed */
    MLVPIPE_ERR_FORMAT,       /* not a file of the expected kind */
    MLVPIPE_ERR_UNSUPPORTED,  /* a valid file using a feature mlvpipe does not decode */
    MLVPIPE_ERR_DAMAGED,      /* truncated or corrupt data; every intact frame was processed */
    MLVPIPE_ERR_NOMEM,        /* allocation failed or a size exceeded mlvpipe's bounds */
    MLVPIPE_ERR_INTERRUPTED,  /* cancelled by the caller */
    MLVPIPE_ERR_RANGE         /* index or frame number out of range */
} mlvpipe_status;

typedef struct mlvpipe_error {
    mlvpipe_status code;
    char message[512];
} mlvpipe_error;

/* Text the library wrote for the caller (a clip report, a farm job): data is NUL-terminated,
 * length bytes long without the NUL. Added in API 1.1. */
typedef struct mlvpipe_text {
    char *data;
    size_t length;
} mlvpipe_text;

/* Releases t->data and zeroes t (a zeroed text may be freed again). */
MLVPIPE_API void mlvpipe_text_free(mlvpipe_text *t);

/* "ok", "bad argument", ...: a short static name of a status. */
MLVPIPE_API const char *mlvpipe_status_name(mlvpipe_status status);

/* The library never prints: it reports through this callback (msg is one line, no newline;
 * it may be called from worker threads, one call at a time). */
typedef enum mlvpipe_log_level {
    MLVPIPE_LOG_ERROR, MLVPIPE_LOG_WARNING, MLVPIPE_LOG_INFO, MLVPIPE_LOG_DEBUG
} mlvpipe_log_level;

typedef struct mlvpipe_logger {
    void (*fn)(void *opaque, mlvpipe_log_level level, const char *msg);   /* NULL: silent */
    void *opaque;
} mlvpipe_logger;

/* Progress of analyze and convert, from one thread at a time. */
typedef enum mlvpipe_progress_kind {
    MLVPIPE_PROGRESS_START,   /* first_frame, last_frame, threads, total are set */
    MLVPIPE_PROGRESS_FRAME,   /* one frame finished: frame, frame_skipped, frame_damaged */
    MLVPIPE_PROGRESS_DONE,    /* status */
    MLVPIPE_PROGRESS_ERROR,   /* status, message */
    MLVPIPE_PROGRESS_LEVELS   /* the levels pre-pass: done of total sampled frames read,
                               * elapsed_s (no JSON line) */
} mlvpipe_progress_kind;

typedef struct mlvpipe_progress {
    mlvpipe_progress_kind kind;
    uint32_t total;             /* frames selected */
    uint32_t done;              /* frames finished so far (written, skipped or damaged) */
    uint32_t written, skipped, damaged;
    uint32_t frame;
    int frame_skipped, frame_damaged;
    uint32_t first_frame, last_frame, threads;
    double elapsed_s;
    double fps;                 /* frames processed per second; 0 until known */
    double eta_s;               /* seconds left; negative until known */
    mlvpipe_status status;
    const char *message;
} mlvpipe_progress;

typedef void (*mlvpipe_progress_fn)(void *opaque, const mlvpipe_progress *progress);

/* The progress line mlvpipe's CLI prints ("frames [######..] 25%  12/48 ...", "levels [...]
 * ...") and its JSON event line (one object, no newline; "{}" for LEVELS); return the length
 * written, truncated to size - 1. */
MLVPIPE_API int mlvpipe_progress_line(const mlvpipe_progress *p, char *buf, size_t size);
MLVPIPE_API int mlvpipe_progress_json(const mlvpipe_progress *p, char *buf, size_t size);

#endif
