/* A program written against the installed libmlvpipe only (tests/build/install_api.sh):
 * api_demo CLIP OUT.md5 INFO.json PLAN.json FRAME0.dng prints the clip's size and frames, reads its first
 * and last frame, converts it to per-frame MD5s (--to md5) with a progress callback, writes
 * its report (as `mlvpipe info --json`) and a JSON farm plan (as `mlvpipe plan --engine json
 * --chunk 4 -o /out --mlvpipe mlvpipe`), prints a line about the format table and the
 * SIMD level, and writes the DNG of its first frame through frames on demand (frames.h). */
#include <stdio.h>
#include <stdlib.h>
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

static int write_text(const char *path, mlvpipe_text *t)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(t->data, 1, t->length, f) == t->length;
    if (f && fclose(f))
        ok = 0;
    mlvpipe_text_free(t);
    return ok;
}

/* The clip's report and farm plan into the files named. */
static int describe_and_plan(const mlvpipe_clip *clip, const char *path, const char *info_path,
                             const char *plan_path)
{
    mlvpipe_error err;
    mlvpipe_text text;
    if (mlvpipe_clip_describe(clip, MLVPIPE_DESCRIBE_JSON, &text, &err) != MLVPIPE_OK ||
        !write_text(info_path, &text)) {
        fprintf(stderr, "api_demo: describe: %s\n", err.message);
        return 0;
    }
    mlvpipe_plan_settings p;
    mlvpipe_default_plan_settings(&p);
    p.engine = MLVPIPE_PLAN_JSON;
    p.program = "mlvpipe";
    p.clip = path;
    p.output = "/out";
    p.name = "d";
    p.levels = "/out/d.levels.json";
    p.chunk_size = 4;
    if (mlvpipe_plan(clip, &p, &text, &err) != MLVPIPE_OK || !write_text(plan_path, &text)) {
        fprintf(stderr, "api_demo: plan: %s\n", err.message);
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 6)
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
    int described = describe_and_plan(clip, argv[1], argv[3], argv[4]);
    mlvpipe_clip_close(clip);
    if (!described)
        return 1;

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
    const mlvpipe_format *first = mlvpipe_format_at(0), *ffv1 = mlvpipe_format_find("ffv1");
    if (!first || !ffv1)
        return 1;
    printf("first format %s, ffv1 %s .%s developed %d joinable %d, ",
           first->name, ffv1->container, ffv1->extension, ffv1->developed, ffv1->joinable);
    printf("cpu %s ", mlvpipe_cpu_level());
    printf("limit sse7: %s, ", mlvpipe_status_name(mlvpipe_cpu_limit("sse7", &err)));
    printf("limit c: %s, ", mlvpipe_status_name(mlvpipe_cpu_limit("c", &err)));
    printf("now %s\n", mlvpipe_cpu_level());
    /* API 4.2: frames on demand, item 0's bytes into argv[5] */
    mlvpipe_convert_settings fs;
    mlvpipe_default_convert_settings(&fs);
    fs.input = argv[1];
    fs.log = log;
    mlvpipe_frames *frames;
    char name[MLVPIPE_NAME_MAX];
    uint64_t size = 0;
    if (mlvpipe_frames_open(&frames, &fs, NULL, &err) != MLVPIPE_OK ||
        mlvpipe_frames_size(frames, 0, &size, &err) != MLVPIPE_OK) {
        fprintf(stderr, "api_demo: frames: %s\n", err.message);
        return 1;
    }
    mlvpipe_frames_name(frames, 0, name);
    unsigned char *bytes = malloc(size);
    FILE *dng = fopen(argv[5], "wb");
    int read_ok = bytes && dng &&
                  mlvpipe_frames_read(frames, 0, 0, bytes, size, &err) == MLVPIPE_OK &&
                  fwrite(bytes, 1, size, dng) == size;
    if (dng)
        fclose(dng);
    free(bytes);
    printf("frames: %u items, %s read %s\n", mlvpipe_frames_count(frames), name,
           read_ok ? "ok" : err.message);
    mlvpipe_frames_close(frames);
    /* API 2.0: the ProRes encoder is refused for a format that is not ProRes */
    mlvpipe_movie_settings movie = {.prores_encoder = MLVPIPE_PRORES_AW};
    const mlvpipe_format *hq = mlvpipe_format_find("prores422hq");
    printf("prores422hq prores %d, aw for md5: %s\n", hq ? hq->prores : -1,
           mlvpipe_status_name(mlvpipe_convert_movie(&s, &movie, &res, &err)));
    return 0;
}
