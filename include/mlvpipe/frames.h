/* Frames on demand (API 4.3): the files `mlvpipe convert CLIP -o OUT` writes for a DNG
 * sequence, made one at a time when asked for, from any thread and in any order, with their
 * names and exact sizes known before anything is rendered. This is what `mlvpipe mount`
 * serves; a viewer or a grading tool can use it the same way.
 *
 *     mlvpipe_convert_settings s;
 *     mlvpipe_default_convert_settings(&s);
 *     s.input = "M19-0333.MLV";
 *     mlvpipe_frames *f;
 *     if (mlvpipe_frames_open(&f, &s, NULL, &err) == MLVPIPE_OK) {
 *         char name[MLVPIPE_NAME_MAX];
 *         uint64_t size;
 *         mlvpipe_frames_name(f, 0, name);
 *         mlvpipe_frames_size(f, 0, &size, &err);        // analyses the clip, once
 *         void *buf = malloc(size);
 *         mlvpipe_frames_read(f, 0, 0, buf, size, &err); // the bytes convert writes
 *         mlvpipe_frames_close(f);
 *     }
 *
 * Items 0..count-1 are the DNG files of the frames in frame order (frames the index knows to
 * be damaged are left out), then the WAV when convert writes one; the folder is the sequence
 * folder convert makes. The settings are convert's (format "dng", uncompressed storage: an
 * LJ92 file's size is known only once it is encoded, so MLVPIPE_ERR_UNSUPPORTED; output,
 * skip_existing, overwrite and progress are not used). The clip is indexed at open; its
 * analysis (dual-ISO levels, raw-defect maps) runs at the first size or read of a frame, and
 * with a levels cache it is stored there and read back at the next open. */
#ifndef MLVPIPE_FRAMES_H
#define MLVPIPE_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "mlvpipe/common.h"
#include "mlvpipe/convert.h"

#define MLVPIPE_NAME_MAX 256

typedef struct mlvpipe_frames mlvpipe_frames;

/* Opens s->input with these settings (copied: they need not outlive the call, but s->log's
 * callback and s->cancel must outlive the handle). levels_cache: a folder for the clips'
 * analyses (made if missing; NULL: s->cache_dir, and none without it). */
MLVPIPE_API mlvpipe_status mlvpipe_frames_open_sized(mlvpipe_frames **out,
                                                     const mlvpipe_convert_settings *s,
                                                     size_t size, const char *levels_cache,
                                                     mlvpipe_error *err);
#define mlvpipe_frames_open(out, s, levels_cache, err)                                        \
    mlvpipe_frames_open_sized((out), (s), sizeof *(s), (levels_cache), (err))
MLVPIPE_API void mlvpipe_frames_close(mlvpipe_frames *f);   /* NULL is ignored */

MLVPIPE_API uint32_t mlvpipe_frames_count(const mlvpipe_frames *f);
/* 1 when item i is the WAV (the last item), 0 for a DNG frame. */
MLVPIPE_API int mlvpipe_frames_is_audio(const mlvpipe_frames *f, uint32_t i);
/* The sequence folder's name, and item i's file name (MLVPIPE_NAME_MAX bytes each). */
MLVPIPE_API void mlvpipe_frames_folder(const mlvpipe_frames *f, char *name);
MLVPIPE_API void mlvpipe_frames_name(const mlvpipe_frames *f, uint32_t i, char *name);
/* Item i's exact size in bytes. MLVPIPE_ERR_DAMAGED: the frame was found damaged when it was
 * rendered (logged then) and is no longer part of the folder. */
MLVPIPE_API mlvpipe_status mlvpipe_frames_size(mlvpipe_frames *f, uint32_t i, uint64_t *size,
                                               mlvpipe_error *err);
/* n bytes of item i from offset (all within its size) into buf. A whole frame (offset 0, n
 * its size) is rendered straight into buf; a part costs the whole frame. Thread-safe. */
MLVPIPE_API mlvpipe_status mlvpipe_frames_read(mlvpipe_frames *f, uint32_t i, uint64_t offset,
                                               void *buf, size_t n, mlvpipe_error *err);

#endif
