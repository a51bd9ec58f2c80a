/* mlvpipe API version. The major number changes when a function, struct or enum changes in
 * a way old callers would notice (and the shared library's soname with it); the minor number
 * when something is added; the patch number for fixes that leave the API as it is.
 *
 * ABI: a minor version adds functions, enum values at the end, and members at the end of
 * structs the library owns and hands out by const pointer (mlvpipe_format). Structs the
 * caller allocates (settings, results, mlvpipe_clip_info, mlvpipe_error, mlvpipe_text) keep
 * their size and layout until the next major version.
 *
 * 1.0: clips, frames, convert, analyze, join, logging, progress.
 * 1.1: mlvpipe_clip_describe, mlvpipe_plan (plan.h), mlvpipe_format_at/_find,
 *      mlvpipe_cpu_level/_limit, mlvpipe_text, mlvpipe_plan_task_argv/mlvpipe_argv_free.
 * 2.0: settings the caller allocates grow (soname libmlvpipe.so.2): mlvpipe_convert_settings
 *      .dark and .no_stretch, mlvpipe_analyze_settings.dark, mlvpipe_plan_settings.dark;
 *      added: mlvpipe_convert_movie with mlvpipe_movie_settings (the ProRes encoder),
 *      mlvpipe_format.prores, MLVPIPE_HIGHLIGHTS_RECONSTRUCT.
 * 3.0: mlvpipe_report_settings grows (soname libmlvpipe.so.3): .dark, the dark frame
 *      `report --dark` subtracts as convert does.
 * 3.1: MLVPIPE_PRORES_KS_SLICE; MLVPIPE_PRORES_KS codes each frame at one quantiser.
 * 4.0: settings the caller allocates grow (soname libmlvpipe.so.4): .defects_from in
 *      mlvpipe_convert_settings, mlvpipe_analyze_settings and mlvpipe_plan_settings, another
 *      clip's raw-defect map (`--defects-from`). */
#ifndef MLVPIPE_VERSION_H
#define MLVPIPE_VERSION_H

#define MLVPIPE_API_VERSION_MAJOR 4
#define MLVPIPE_API_VERSION_MINOR 0
#define MLVPIPE_API_VERSION_PATCH 0

#define MLVPIPE_API_VERSION_INT(major, minor, patch) (((major) << 16) | ((minor) << 8) | (patch))
#define MLVPIPE_API_VERSION                                                                    \
    MLVPIPE_API_VERSION_INT(MLVPIPE_API_VERSION_MAJOR, MLVPIPE_API_VERSION_MINOR,              \
                            MLVPIPE_API_VERSION_PATCH)

#endif
