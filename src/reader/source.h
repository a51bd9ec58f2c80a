/* reader/source: the kinds of input behind one clip handle (not a public header).
 *
 * Everything above the reader sees an mlv_clip: an index of frames with the metadata in force
 * for each, a damage list and a PCM stream. A source is what fills that index when a file is
 * opened and turns one indexed frame's stored bytes into samples; the rest (frame info,
 * segments, damage, audio, DELTA chains) is the clip's and the same for every source. So a
 * still is a one-frame clip and nothing above the reader asks what kind of file it was.
 *
 * mp_mlv_clip_open tries the sources in a fixed order (mlv_clip.c); the first whose probe
 * accepts the file's first bytes (or name, or a folder) indexes it. */
#ifndef MP_READER_SOURCE_H
#define MP_READER_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "reader/mlv_reader.h"

typedef struct mp_source_ops {
    const char *name;                   /* "mlv", "raw", "still": for messages and tests */
    /* 1 when this source reads the file whose first n (<= 16) bytes are head. */
    int (*probe)(const mlv_clip *c, const uint8_t *head, size_t n);
    /* Fills the clip's index from its chunks (mp_mlv_add_frame, mp_mlv_add_metadata, damage);
     * mp_mlv_finish_index and the audio follow. */
    mp_status (*index)(mlv_clip *c, mp_error *err);
    /* mp_mlv_read_payload and mp_mlv_decode_payload for this source (mlv_reader.h contract). */
    mp_status (*read_payload)(const mlv_clip *c, uint32_t index, mlv_payload *buf,
                              mp_error *err);
    mp_status (*decode_payload)(const mlv_clip *c, uint32_t index, const mlv_payload *buf,
                                mp_frame *out, mlv_scratch *s, mp_error *err);
    /* Releases the source's own state (clip->source_state); NULL when it keeps none. */
    void (*close)(mlv_clip *c);
} mp_source_ops;

/* mlv_frame.c: MLV and legacy RAW frames (packed, LJ92, LZMA, DELTA). */
mp_status mp_mlv_source_read_payload(const mlv_clip *c, uint32_t index, mlv_payload *buf,
                                     mp_error *err);
mp_status mp_mlv_source_decode_payload(const mlv_clip *c, uint32_t index, const mlv_payload *buf,
                                       mp_frame *out, mlv_scratch *s, mp_error *err);

extern const mp_source_ops mp_source_mlv;     /* mlv_index.c: MLVI at offset 0 */
extern const mp_source_ops mp_source_raw;     /* raw_legacy.c: a .RAW name and a RAWM footer */
extern const mp_source_ops mp_source_still;   /* still.c: a TIFF (CR2, DNG), or a folder of
                                               * them, through LibRaw */

#endif
