/* A program written against the installed libmlvpipe only (tests/build/install_api.sh):
 * api_demo CLIP OUT.md5 prints the clip's size and frames, reads its first and last frame,
 * and converts it to per-frame MD5s (--to md5) with a progress callback. */
#include <stdio.h>
#include <string.h>

#include <mlvpipe/mlvpipe.h>

static void log_line(void *opaque, mlvpipe_log_level level, const char *msg)
{
    (void)opaque;
    if (level <= MLVPIPE_LOG_WARNING)
        fprintf(stderr, "api_demo: %s\n", msg);
}

static void count_frames(void *opaque, const mlvpipe_progress *p)
{
    if (p->kind == MLVPIPE_PROGRESS_FRAME)
        ++*(unsigned *)opaque;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    if (mlvpipe_version_api() != MLVPIPE_API_VERSION) {
        fprintf(stderr, "api_demo: header API %x, library %x\n", MLVPIPE_API_VERSION,
                mlvpipe_version_api());
        return 1;
    }
    mlvpipe_logger log = {log_line, NULL};
    mlvpipe_error err;
    mlvpipe_clip *clip;
    if (mlvpipe_clip_open(argv[1], &log, &clip, &err) != MLVPIPE_OK) {
        fprintf(stderr, "api_demo: %s\n", err.message);
        return 1;
    }
    mlvpipe_clip_info info;
    mlvpipe_clip_get_info(clip, &info);
    mlvpipe_frame frame = {0};
    uint32_t numbers[2];
    for (int k = 0; k < 2; k++) {
        if (mlvpipe_clip_read_frame(clip, k ? info.frame_count - 1 : 0, &frame, &err)) {
            fprintf(stderr, "api_demo: %s\n", err.message);
            return 1;
        }
        numbers[k] = frame.number;
    }
    mlvpipe_frame_free(&frame);
    mlvpipe_clip_close(clip);

    unsigned progress_frames = 0;
    mlvpipe_convert_settings s;
    mlvpipe_default_convert_settings(&s);
    s.input = argv[1];
    s.output = argv[2];
    s.format = "md5";
    s.threads = 2;
    s.log = log;
    s.progress = count_frames;
    s.progress_opaque = &progress_frames;
    mlvpipe_convert_result res;
    if (mlvpipe_convert(&s, &res, &err) != MLVPIPE_OK) {
        fprintf(stderr, "api_demo: %s (%s)\n", err.message, mlvpipe_status_name(err.code));
        return 1;
    }
    printf("mlvpipe %s size %ux%u %s frames %u numbers %u-%u written %u progress %u\n",
           mlvpipe_version(), info.width, info.height, info.cfa, info.frame_count, numbers[0],
           numbers[1], res.written, progress_frames);
    return 0;
}
