/* movie: the pipeline's single-stream output. Workers develop frames to RGB (src/develop);
 * the pool's in-order delivery hands them to an av sink (ProRes, FFV1, NUT, rawvideo) here,
 * with the clip's audio read and pushed as the video advances (memory stays bounded for any
 * clip length) and lost frames (dropped by the camera or unreadable) filled with the
 * previous picture so the stream keeps its frame rate. The first frame written has PTS =
 * its absolute frame number, so chunks of a clip join with ffmpeg's concat demuxer. */
#ifndef MP_MOVIE_H
#define MP_MOVIE_H

#include <stdint.h>

#include "common/mp_status.h"
#include "develop/develop.h"
#include "encode/av/av_sink.h"
#include "encode/sink.h"
#include "reader/mlv_reader.h"

typedef struct mp_movie mp_movie;

/* Opens path ("-": stdout) for frames p->first_frame .. p->first_frame + p->frame_count - 1
 * of clip, developed with dp. p supplies the clip name, fps, time code and audio alignment
 * (as for the WAV sink); with_audio muxes the clip's audio if it has any. */
mp_status mp_movie_open(mp_movie **out, const char *path, av_sink_kind kind,
                        const develop_params *dp, const mp_sink_params *p,
                        const mlv_clip *clip, int with_audio, uint32_t encoder_threads,
                        mp_error *err);

/* Thread-safe: develops one (reconstructed) frame with the movie's context. */
mp_status mp_movie_develop(const mp_movie *m, const mp_frame *f, develop_workspace *ws,
                           develop_rgb *out, mp_error *err);

/* In frame order: the picture of absolute frame `number`, or NULL when it was lost. */
mp_status mp_movie_write(mp_movie *m, uint32_t number, const develop_rgb *rgb, mp_error *err);

/* Fills lost frames up to the end of the range, ends the audio, renames the file into place
 * and frees m (also on failure). */
mp_status mp_movie_finish(mp_movie *m, mp_error *err);
/* Removes the unfinished file and frees m. NULL is ignored. */
void mp_movie_abort(mp_movie *m);

#endif
