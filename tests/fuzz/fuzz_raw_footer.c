/* libFuzzer target: the legacy .RAW footer (doc/mlv-format.md section 16) and the frame
 * stream it describes. The input is a flag byte, the 192-byte footer (its "RAWM" written in
 * by the harness, so that every mutation reaches the fields) and the frame bytes; the clip is
 * c.RAW holding the frames and the footer, or c.RAW and c.R00 cut at a point the flag byte
 * gives (frames straddle). Promises checked (doc/fuzzing.md): an opened clip has a frame rate
 * within 1/1000..1000 fps, every damage line names a chunk and an offset and holds no control
 * character; each frame reads or is damage (never "unsupported" or "out of memory"), a frame
 * the reader calls impossible (mp_mlv_frame_problem) is never decoded, and a decoded one has
 * the RAWI's size and 14-bit samples; a clip that does not open says why, naming the file. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "reader/mlv_reader.h"

#define FOOTER 192u
#define MAX_FRAMES 16u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int names_a_chunk(const char *msg)
{
    return !strncmp(msg, "c.RAW", 5) || !strncmp(msg, "c.R00", 5);
}

static void check_frames(const mlv_clip *clip)
{
    const mlv_clip_info *in = mp_mlv_clip_get_info(clip);
    if (in->container != MLV_CONTAINER_RAW || !in->fps_num || !in->fps_den ||
        in->fps_num > 1000ull * in->fps_den || 1000ull * in->fps_num < in->fps_den)
        abort();
    for (uint32_t i = 0; i < in->damage_count; i++) {
        const char *msg = mp_mlv_clip_damage(clip, i)->message;
        if (!names_a_chunk(msg) || !strstr(msg, ": offset ") || fuzz_has_control(msg))
            abort();
    }
    mlv_scratch scratch = {0};
    mp_frame frame = {0};
    for (uint32_t i = 0; i < in->frame_count && i < MAX_FRAMES; i++) {
        mlv_frame_info fi;
        if (mp_mlv_frame_info_get(clip, i, &fi) != MP_OK)
            abort();
        char why[160];
        int impossible = mp_mlv_frame_problem(clip, i, why, sizeof why);
        mp_error err = {0};
        mp_status st = mp_mlv_read_frame(clip, i, &frame, &scratch, &err);
        if ((st != MP_OK && st != MP_ERR_DAMAGED) || (impossible && st == MP_OK) ||
            (st != MP_OK && !names_a_chunk(err.msg)))
            abort();
        if (st != MP_OK)
            continue;
        if (frame.width != fi.raw->width || frame.height != fi.raw->height || frame.bits != 14)
            abort();
        for (size_t k = 0; k < (size_t)frame.width * frame.height; k++)
            if (frame.data[k] >> 14)
                abort();
    }
    mp_frame_free(&frame);
    mp_mlv_scratch_free(&scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 + FOOTER)
        return 0;
    size_t frames = size - 1 - FOOTER, total = frames + FOOTER;
    uint8_t *bytes = malloc(total);
    if (!bytes)
        return 0;
    memcpy(bytes, data + 1 + FOOTER, frames);
    memcpy(bytes + frames, data + 1, FOOTER);
    memcpy(bytes + frames, "RAWM", 4);
    size_t cut = data[0] & 1 ? frames * (data[0] >> 1) / 128 : total;
    mlv_mem_file files[2] = {{"c.RAW", bytes, cut}, {"c.R00", bytes + cut, total - cut}};
    mlv_clip *clip;
    mp_error err = {0};
    mp_status st = mp_mlv_clip_open_memory(&clip, "c.RAW", files, cut < total ? 2 : 1, NULL,
                                           &err);
    if (st == MP_OK) {
        check_frames(clip);
        mp_mlv_clip_close(clip);
    } else if (!names_a_chunk(err.msg) || fuzz_has_control(err.msg)) {
        abort();
    }
    free(bytes);
    return 0;
}
