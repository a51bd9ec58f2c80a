/* libFuzzer target: the whole reader on arbitrary bytes. The input is written to a file in a
 * private temp dir (named .MLV, or .RAW when it does not start with "MLVI" so the legacy
 * footer path runs too), opened, and every frame (up to a bound) and the audio are read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/mlv_reader.h"

#define MAX_FRAMES 16u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

static void remove_dir(void)
{
    char p[96];
    snprintf(p, sizeof p, "%s/in.MLV", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/in.RAW", dir);
    unlink(p);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/fuzz_mlv_index-XXXXXX");
        if (!mkdtemp(dir))
            abort();
        atexit(remove_dir);
    }
    char path[96];
    int is_mlv = size >= 4 && !memcmp(data, "MLVI", 4);
    snprintf(path, sizeof path, "%s/in.%s", dir, is_mlv ? "MLV" : "RAW");
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();

    mlv_clip *clip;
    mp_error err;
    if (mp_mlv_clip_open(&clip, path, NULL, &err) == MP_OK) {
        const mlv_clip_info *in = mp_mlv_clip_get_info(clip);
        mlv_scratch scratch = {0};
        mp_frame frame = {0};
        for (uint32_t i = 0; i < in->frame_count && i < MAX_FRAMES; i++) {
            mlv_frame_info fi;
            if (mp_mlv_frame_info_get(clip, i, &fi) != MP_OK || mp_mlv_frame_index_of(clip, fi.number) < 0)
                abort();
            mp_mlv_read_frame(clip, i, &frame, &scratch, &err);
        }
        if (in->frame_count > 1)   /* random access after sequential (DELTA chains) */
            mp_mlv_read_frame(clip, 0, &frame, &scratch, &err);
        for (uint32_t i = 0; i < in->damage_count; i++)
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
        mp_mlv_clip_close(clip);
    }
    unlink(path);
    return 0;
}
