/* libFuzzer target: convert's command line (cli_convert_parse: --frames, --fps, --wb, every
 * option) and its round trip through a farm plan. Input: clip length (2 bytes, little-endian),
 * the clip (opened from memory), then the words of the command line, NUL-separated. The
 * parser must accept (exit 0) or give a usage error (exit 2). Words it accepts, given to
 * mlvpipe_plan_task_argv as the options after `plan ... --`, must come back in the task's
 * convert command so that the parser reads the same settings from it (all but those the plan
 * writes itself: -o, --to, --frames, --levels, --threads). The CLI's usage messages go to
 * /dev/null. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "cli.h"
#include "cli_convert.h"
#include "reader/mlv_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) do { if (!(cond)) __builtin_trap(); } while (0)
#define MAX_WORDS MLVPIPE_PLAN_MAX_EXTRA

/* The CLI's stderr stream goes to /dev/null; libFuzzer keeps the stream it took at start-up
 * and the sanitizers write to descriptor 2. */
static void quiet_stderr(void)
{
    static int done;
    if (done++)
        return;
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        abort();
    stderr = null;
    cli_verbosity = 0;
}

static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* b (the task's settings) has what a (the options alone) has, field by field, except where
 * the plan's own words (own) already differ from convert's defaults (def): those the plan
 * writes itself (e.g. --overwrite for retried movie segments). */
#define SAME(f) CHECK(own->f != def->f || a->f == b->f)
static void check_same(const mlvpipe_convert_settings *a, const mlvpipe_convert_settings *b,
                       const mlvpipe_convert_settings *own, const mlvpipe_convert_settings *def)
{
    SAME(skip_existing); SAME(overwrite); SAME(audio); SAME(force_phase);
    SAME(chroma_smooth); SAME(fast); SAME(gamut); SAME(curve); SAME(exposure_ev); SAME(wb);
    SAME(wb_gains[0]); SAME(wb_gains[1]); SAME(wb_gains[2]); SAME(wb_kelvin);
    SAME(dng_storage); SAME(naming); SAME(resolve_clip_index); SAME(one_based); SAME(fps_num);
    SAME(fps_den); SAME(timecode_time_of_day); SAME(timecode_drop_frame);
    SAME(no_focus_pixels); SAME(no_bad_pixels); SAME(no_stripes); SAME(highlights);
    CHECK(own->cache_dir || same_text(a->cache_dir, b->cache_dir));
}

/* The first chunk's convert task (*task, to free) through the parser (its argv[1] is
 * "convert"). */
static mlvpipe_status parse_task(const mlvpipe_clip *clip, const mlvpipe_plan_settings *s,
                                 cli_convert_args *out, char ***task)
{
    uint32_t count = 0;
    mlvpipe_error e;
    mlvpipe_status st = mlvpipe_plan_task_argv(clip, s, task, &count, &e);
    if (st == MLVPIPE_OK) {
        CHECK(count >= 3 && !strcmp((*task)[0], s->program) &&
              !strcmp((*task)[1], "convert") && !(*task)[count]);
        CHECK(cli_convert_parse("convert", (int)count - 1, *task + 1, out) == EXIT_OK);
        CHECK(out->operand_count == 1 && !strcmp(out->operands[0], s->clip));
    }
    return st;
}

static void round_trip(const uint8_t *clip_bytes, size_t clip_len, const cli_convert_args *a,
                       char **words, int n)
{
    int is_mlv = clip_len >= 4 && !memcmp(clip_bytes, "MLVI", 4);
    const char *name = is_mlv ? "in.MLV" : "in.RAW";
    mlv_mem_file file = {name, clip_bytes, clip_len};
    mlvpipe_clip clip = {0};
    mp_error err;
    if (mp_mlv_clip_open_memory(&clip.clip, name, &file, 1, NULL, &err) != MP_OK)
        return;
    mlvpipe_plan_settings s;
    mlvpipe_default_plan_settings(&s);
    s.program = "/opt/mlvpipe";
    s.clip = is_mlv ? "/clips/in.MLV" : "/clips/in.RAW";
    s.output = "/out";
    s.name = "in";
    s.levels = "/out/in.levels.json";
    s.format = a->to;
    for (int i = 0; i < n; i++)
        s.extra[i] = words[i];
    s.extra_count = (uint32_t)n;
    cli_convert_args b, own, def;
    char *none[] = {"convert", NULL};
    char **task = NULL, **own_task = NULL;
    if (parse_task(&clip, &s, &b, &task) == MLVPIPE_OK) {
        s.extra_count = 0;
        CHECK(parse_task(&clip, &s, &own, &own_task) == MLVPIPE_OK &&
              cli_convert_parse("convert", 1, none, &def) == EXIT_OK);
        check_same(&a->o, &b.o, &own.o, &def.o);
    }
    mlvpipe_argv_free(task);
    mlvpipe_argv_free(own_task);
    mp_mlv_clip_close(clip.clip);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    quiet_stderr();
    if (size < 2)
        return 0;
    size_t clip_len = (size_t)(data[0] | data[1] << 8);
    data += 2;
    size -= 2;
    if (clip_len > size)
        clip_len = size;
    size_t text_len = size - clip_len;
    char *text = malloc(text_len + 1);
    if (!text)
        return 0;
    memcpy(text, data + clip_len, text_len);
    text[text_len] = 0;
    char *argv[MAX_WORDS + 2] = {"convert"};
    int n = 0;
    for (size_t at = 0; at < text_len && n < MAX_WORDS; at += strlen(text + at) + 1)
        argv[1 + n++] = text + at;
    char *words[MAX_WORDS];
    memcpy(words, argv + 1, n * sizeof *words);   /* getopt_long may reorder argv */
    cli_convert_args a;
    int rc = cli_convert_parse("convert", n + 1, argv, &a);
    CHECK(rc == EXIT_OK || rc == EXIT_USAGE);
    if (rc == EXIT_OK && !a.help && a.operand_count == 0)
        round_trip(data, clip_len, &a, words, n);
    free(text);
    return 0;
}
