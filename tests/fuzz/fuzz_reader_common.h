/* Shared by the reader fuzz targets: everything convert asks of an opened clip (every frame
 * up to a bound, random access after sequential reads, the damage list, the audio), with
 * the reader's own consistency promises checked (abort on a broken one). */
#ifndef FUZZ_READER_COMMON_H
#define FUZZ_READER_COMMON_H

#include <stdlib.h>
#include <string.h>

#include "reader/mlv_reader.h"

#define FUZZ_MAX_FRAMES 16u

static void fuzz_read_clip(mlv_clip *clip)
{
    const mlv_clip_info *in = mp_mlv_clip_get_info(clip);
    mlv_scratch scratch = {0};
    mp_frame frame = {0};
    mp_error err;
    for (uint32_t i = 0; i < in->frame_count && i < FUZZ_MAX_FRAMES; i++) {
        mlv_frame_info fi;
        if (mp_mlv_frame_info_get(clip, i, &fi) != MP_OK ||
            mp_mlv_frame_index_of(clip, fi.number) < 0)
            abort();
        if (mp_mlv_read_frame(clip, i, &frame, &scratch, &err) == MP_OK)
            for (size_t k = 0; frame.bits < 16 && k < (size_t)frame.width * frame.height; k++)
                if (frame.data[k] >> frame.bits)   /* the reader keeps samples in depth */
                    abort();
    }
    if (in->frame_count > 1)   /* random access after sequential (DELTA chains) */
        mp_mlv_read_frame(clip, 0, &frame, &scratch, &err);
    for (uint32_t i = 0; i < in->damage_count && i < 1000; i++)
        if (!memchr(mp_mlv_clip_damage(clip, i)->message, 0, sizeof(mlv_damage){0}.message))
            abort();
    uint8_t pcm[4096];
    for (uint64_t off = 0; off < in->audio_bytes && off < (1u << 20); off += sizeof pcm) {
        size_t n = in->audio_bytes - off < sizeof pcm ? (size_t)(in->audio_bytes - off)
                                                      : sizeof pcm;
        if (mp_mlv_read_audio(clip, off, pcm, n, &err) != MP_OK)
            break;
    }
    mp_frame_free(&frame);
    mp_mlv_scratch_free(&scratch);
}

#endif
