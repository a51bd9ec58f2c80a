/* mlvpipe API version. The major number changes when a function, struct or enum changes in
 * a way old callers would notice (and the shared library's soname with it); the minor number
 * when something is added; the patch number for fixes that leave the API as it is.
 *
 * ABI, from 4.1 on: the ABI of 4.0 is kept, and a minor version only adds: functions, enum
 * values at the end, members at the end of the settings structs (below) and of the structs
 * the library owns and hands out by const pointer (mlvpipe_format). The other structs the
 * caller allocates (results, mlvpipe_clip_info, mlvpipe_error, mlvpipe_text) keep their size
 * and layout until a major version, which changes the soname; tests/build/abi.sh runs a
 * program built against the 4.0 headers on the library of today.
 *
 * Settings (convert, analyze, join, plan, report) grow without a new major version:
 * every call that takes a settings struct is a macro passing the size of the caller's struct
 * as its header lays it out (mlvpipe_convert(s, r, e) is
 * mlvpipe_convert_movie_sized(s, sizeof *s, NULL, r, e)). The library reads that many bytes
 * over its defaults: members an older header lacks keep their defaults, and a newer header's
 * members it does not know must be zero (else MLVPIPE_ERR_ARG). So fill settings with
 * mlvpipe_default_*_settings (or all zero for join) and set what you need; never copy a
 * settings struct between programs built against different headers. The convert and join
 * settings end with reserved room (4.2; mlvpipe_movie_settings has its own): a new member
 * takes it from the front, the struct keeps its size, and a reserved member set (a newer
 * header's member) is refused. The other settings grow at the end and keep no tail padding
 * (add reserved members up to their alignment), so that every byte past an older struct's
 * size is a member. Members added in a minor version say which in their comment, "(API 4.2)".
 * The names in parentheses, (mlvpipe_convert) ..., are API 4.0's entries, which take 4.0's
 * layout.
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
 *      clip's raw-defect map (`--defects-from`).
 * 4.1: settings that grow without breaking the ABI (above): the *_sized entries, which the
 *      header's macros call with the size of the caller's struct; soname still
 *      libmlvpipe.so.4. Later minor versions only add.
 * 4.2: reserved room at the end of mlvpipe_convert_settings and mlvpipe_join_settings, so that
 *      their members grow from it (above); mlvpipe_convert_settings.denoise (`--denoise`):
 *      dual ISO is no longer smoothed by default, the cross-field denoise is asked for.
 * 4.3: frames on demand (frames.h): mlvpipe_frames_open_sized, _count, _folder, _name, _size,
 *      _read, _close, _is_audio; mlvpipe_convert_batch: several clips each to its own
 *      output, raw photos side by side over the threads.
 * 4.4: mlvpipe_convert_settings.scale, .size_width, .size_height (resized outputs) and .lut
 *      (a .cube file); the curves and gamuts after SLOG3 and ACES_AP0, MLVPIPE_CURVE_AUTO
 *      (scene-linear OpenEXR by default); the formats h264 and h265 (review files).
 * 4.5: the format movraw (16-bit RGB and PCM in fragmented MOV: a pipe that keeps its colour
 *      tags). */
#ifndef MLVPIPE_VERSION_H
#define MLVPIPE_VERSION_H

#define MLVPIPE_API_VERSION_MAJOR 4
#define MLVPIPE_API_VERSION_MINOR 5
#define MLVPIPE_API_VERSION_PATCH 0

#define MLVPIPE_API_VERSION_INT(major, minor, patch) (((major) << 16) | ((minor) << 8) | (patch))
#define MLVPIPE_API_VERSION                                                                    \
    MLVPIPE_API_VERSION_INT(MLVPIPE_API_VERSION_MAJOR, MLVPIPE_API_VERSION_MINOR,              \
                            MLVPIPE_API_VERSION_PATCH)

#endif
