/* A program written for API 4.0: compiled against the 4.0 headers saved in
 * tests/build/abi/4.0/ (never against include/), linked with and run on the library of
 * today (tests/build/abi.sh). Every settings struct of 4.0 goes through the library as
 * 4.0 laid it out:
 *   abi_4_0 CLIP OUT_DIR
 * converts CLIP to DNG in OUT_DIR/api/, writes its levels sidecar OUT_DIR/api.levels.json,
 * its report's numbers OUT_DIR/api.report.json and its JSON farm plan
 * OUT_DIR/api.plan.json, each of which must equal what the CLI writes. */
#include <stdio.h>
#include <string.h>

#include <mlvpipe/mlvpipe.h>

#if MLVPIPE_API_VERSION != MLVPIPE_API_VERSION_INT(4, 0, 0)
#error "compile against tests/build/abi/4.0, the headers of API 4.0"
#endif

static void log_line(void *opaque, mlvpipe_log_level level, const char *msg)
{
    (void)opaque;
    if (level <= MLVPIPE_LOG_WARNING)
        fprintf(stderr, "abi_4_0: %s\n", msg);
}

static int failed(const char *what, const mlvpipe_error *err)
{
    fprintf(stderr, "abi_4_0: %s: %s (%s)\n", what, err->message,
            mlvpipe_status_name(err->code));
    return 1;
}

static int plan(const char *clip_path, const char *out)
{
    mlvpipe_logger log = {log_line, NULL};
    mlvpipe_error err;
    mlvpipe_clip *clip;
    if (mlvpipe_clip_open(clip_path, &log, &clip, &err) != MLVPIPE_OK)
        return failed("open", &err);
    mlvpipe_plan_settings p;
    mlvpipe_default_plan_settings(&p);
    p.engine = MLVPIPE_PLAN_JSON;
    p.program = "mlvpipe";
    p.clip = clip_path;
    p.output = "/out";
    p.name = "d";
    p.levels = "/out/d.levels.json";
    p.chunk_size = 4;
    mlvpipe_text text;
    mlvpipe_status st = mlvpipe_plan(clip, &p, &text, &err);
    mlvpipe_clip_close(clip);
    if (st != MLVPIPE_OK)
        return failed("plan", &err);
    FILE *f = fopen(out, "wb");
    int ok = f && fwrite(text.data, 1, text.length, f) == text.length;
    if (f && fclose(f))
        ok = 0;
    mlvpipe_text_free(&text);
    return !ok;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    /* the same major version: 4.x keeps every 4.0 program working */
    if (mlvpipe_version_api() >> 16 != MLVPIPE_API_VERSION_MAJOR) {
        fprintf(stderr, "abi_4_0: library API %x\n", mlvpipe_version_api());
        return 1;
    }
    char path[4][4096];
    const char *const names[4] = {"api", "api.levels.json", "api.report.json",
                                  "api.plan.json"};
    for (int i = 0; i < 4; i++)
        snprintf(path[i], sizeof path[i], "%s/%s", argv[2], names[i]);
    mlvpipe_logger log = {log_line, NULL};
    mlvpipe_error err;

    mlvpipe_convert_settings c;
    mlvpipe_default_convert_settings(&c);
    c.input = argv[1];
    c.output = path[0];
    c.threads = 2;
    c.log = log;
    mlvpipe_convert_result cr;
    if (mlvpipe_convert(&c, &cr, &err) != MLVPIPE_OK)
        return failed("convert", &err);

    mlvpipe_analyze_settings a;
    mlvpipe_default_analyze_settings(&a);
    a.input = argv[1];
    a.output = path[1];
    a.log = log;
    mlvpipe_analyze_result ar;
    if (mlvpipe_analyze(&a, &ar, &err) != MLVPIPE_OK)
        return failed("analyze", &err);

    mlvpipe_report_settings r;
    mlvpipe_default_report_settings(&r);
    const char *inputs[1] = {argv[1]};
    r.inputs = inputs;
    r.input_count = 1;
    r.json = path[2];
    r.thumbs = 0;
    r.log = log;
    mlvpipe_report_result rr;
    if (mlvpipe_report(&r, &rr, &err) != MLVPIPE_OK)
        return failed("report", &err);

    if (plan(argv[1], path[3]))
        return 1;
    printf("library %s (API %x): %u frames written, report of %u clip\n", mlvpipe_version(),
           mlvpipe_version_api(), cr.written, rr.clips);
    return 0;
}
