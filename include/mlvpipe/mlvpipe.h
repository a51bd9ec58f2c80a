/* mlvpipe: Magic Lantern raw video (MLV, spanned MLV, legacy RAW, dual ISO) to CinemaDNG,
 * ProRes/FFV1 movies or streams for ffmpeg.
 *
 *     #include <mlvpipe/mlvpipe.h>     // pkg-config --cflags --libs mlvpipe
 *
 *     mlvpipe_convert_settings s;
 *     mlvpipe_default_convert_settings(&s);
 *     s.input = "M19-0333.MLV";
 *     s.output = "clip.mov";
 *     s.format = "prores422hq";
 *     mlvpipe_error err;
 *     if (mlvpipe_convert(&s, NULL, &err) != MLVPIPE_OK)
 *         fprintf(stderr, "%s\n", err.message);
 *
 * clip.h: open a clip, its metadata, its frames. convert.h: convert, analyze, join.
 * plan.h: render-farm jobs. frames.h: the files of a DNG sequence made on demand.
 * report.h: an HTML page and JSON numbers that show clips at a glance.
 * common.h: status codes, errors, logging, progress. version.h: the API version. */
#ifndef MLVPIPE_H
#define MLVPIPE_H

#include "mlvpipe/clip.h"
#include "mlvpipe/common.h"
#include "mlvpipe/convert.h"
#include "mlvpipe/frames.h"
#include "mlvpipe/plan.h"
#include "mlvpipe/report.h"
#include "mlvpipe/version.h"

/* The library's version ("0.1.0") and the API version it was built with
 * (MLVPIPE_API_VERSION of version.h at build time). */
MLVPIPE_API const char *mlvpipe_version(void);
MLVPIPE_API unsigned mlvpipe_version_api(void);

/* The highest instruction-set level the SIMD kernels use: "c", "sse2", "avx2" or "neon"; the
 * best this CPU and build have, limited by the environment variable MLVPIPE_CPU_FLAGS and by
 * mlvpipe_cpu_limit. Every level gives the same output bytes (as dav1d's cpumask): limiting
 * it is for tests and timing. Added in API 1.1. */
MLVPIPE_API const char *mlvpipe_cpu_level(void);
/* Limits the level to `level` (one of the names above) for work started afterwards, so call
 * it first. MLVPIPE_ERR_ARG: not a level's name; MLVPIPE_ERR_UNSUPPORTED: this CPU or build
 * lacks it (the limit is unchanged). Process-wide. */
MLVPIPE_API mlvpipe_status mlvpipe_cpu_limit(const char *level, mlvpipe_error *err);

#endif
