/* reader_dump CLIP OUT: writes every frame of CLIP, in index (frame-number) order, as raw
 * little-endian uint16 samples to OUT ("-" for stdout) so scripts can compare our decoder with
 * other readers byte for byte. Prints "frames WIDTH HEIGHT BITS" on stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/mlv_reader.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: reader_dump CLIP OUT\n");
        return 2;
    }
    mlv_clip *clip;
    mp_error err = {0};
    if (mp_mlv_clip_open(&clip, argv[1], NULL, &err) != MP_OK) {
        fprintf(stderr, "reader_dump: %s\n", err.msg);
        return 3;
    }
    FILE *out = strcmp(argv[2], "-") ? fopen(argv[2], "wb") : stdout;
    if (!out) {
        perror(argv[2]);
        return 5;
    }
    const mlv_clip_info *in = mp_mlv_clip_get_info(clip);
    mlv_scratch scratch = {0};
    mp_frame f = {0};
    uint8_t *le = NULL;
    int rc = 0;
    for (uint32_t i = 0; i < in->frame_count && !rc; i++) {
        if (mp_mlv_read_frame(clip, i, &f, &scratch, &err) != MP_OK) {
            fprintf(stderr, "reader_dump: %s\n", err.msg);
            rc = 4;
            break;
        }
        size_t n = (size_t)f.width * f.height;
        uint8_t *p = realloc(le, 2 * n);
        if (!p) {
            rc = 1;
            break;
        }
        le = p;
        for (size_t k = 0; k < n; k++) {
            le[2 * k] = (uint8_t)f.data[k];
            le[2 * k + 1] = (uint8_t)(f.data[k] >> 8);
        }
        if (fwrite(le, 2, n, out) != n)
            rc = 5;
    }
    fprintf(stderr, "%u %u %u %u\n", in->frame_count, in->raw.width, in->raw.height, in->raw.bits);
    if (out != stdout && fclose(out) != 0)
        rc = 5;
    free(le);
    mp_frame_free(&f);
    mp_mlv_scratch_free(&scratch);
    mp_mlv_clip_close(clip);
    return rc;
}
