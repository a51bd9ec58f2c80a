/* mlvpipe plan CLIP -o DIR --chunk N: a render-farm job for the clip (mlvpipe/plan.h) on
 * stdout: a Slurm submission script, a GNU parallel script, or a JSON task list. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_batch.h"
#include "cli_convert.h"
#include "cli_run.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: mlvpipe plan CLIP|FOLDER... -o DIR [--chunk N] [--engine slurm|parallel|json]\n"
        "                    [options]\n"
        "                    [-- CONVERT_OPTIONS]\n"
        "\n"
        "Prints a render-farm job that converts CLIP in chunks of N frame numbers: one\n"
        "'mlvpipe analyze' task writing the levels sidecar, one 'mlvpipe convert --frames A-B\n"
        "--levels SIDECAR' task per chunk after it, and a final task after every chunk\n"
        "('mlvpipe join' for movie segments; for DNG frames of a clip with audio, a whole-clip\n"
        "'convert --skip-existing' that writes the WAV). Chunk k is frames\n"
        "[FIRST + k*N, FIRST + (k+1)*N - 1] (the last one ends at the clip's last frame;\n"
        "chunks in which the clip has no frame are left out), so boundaries and file names\n"
        "depend only on the clip and N. Every host must see CLIP and DIR at the same paths.\n"
        "Several clips, or folders (their clips and raw photos, as convert batches take them),\n"
        "get one plan each in the one DIR, printed one after the other (json: an array of the\n"
        "plans); a clip that cannot be read, or two clips of one name, print nothing. With\n"
        "-- --sequence a folder of photos is one clip (a timelapse), in the plan and its tasks.\n"
        "\n"
        "engines:\n"
        "  slurm     (default) a bash script that submits the analyze job, a job array\n"
        "            (--array=0-(K-1), --dependency=afterok) and the final job (afterok on\n"
        "            the array) with sbatch, then prints the job ids\n"
        "  parallel  a bash script: analyze; parallel --halt now,fail=1 ... ::: RANGES; final\n"
        "  json      the tasks as argv arrays with their dependencies, for other engines\n"
        "            (Deadline, OpenCue, Tractor); schema in doc/json.md\n"
        "\n"
        "options:\n");
    cli_options_print(out, CLI_PLAN, 24);
    fprintf(out,
        "\n"
        "Chunk tasks are idempotent: DNG chunks run with --skip-existing (a killed or requeued\n"
        "task keeps its finished frames), movie segments with --overwrite (one file, redone\n"
        "whole); no partial file ever has a final name.\n"
        "\n"
        "exit status: 0 ok, 2 usage, 3 input unreadable or unsupported, 1 internal error.\n");
}

/* path made absolute against the working folder (it need not exist yet). */
static int absolute(const char *path, char *out, size_t size)
{
    if (path[0] == '/')
        return snprintf(out, size, "%s", path) < (int)size;
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return 0;
    while (path[0] == '.' && path[1] == '/')
        path += 2;
    if (!strcmp(path, "."))
        return snprintf(out, size, "%s", cwd) < (int)size;
    return snprintf(out, size, "%s/%s", cwd, path) < (int)size;
}

/* The clip's name without folder and extension, as convert names its outputs. */
static void clip_name(const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strnlen(base, size - 1);   /* a real file's name fits NAME_MAX */
    memcpy(out, base, n);
    out[n] = '\0';
    char *dot = strrchr(out, '.');
    if (dot && dot != out)
        *dot = '\0';
}

/* The options after "--" on their own, through convert's parser into *a: unknown options,
 * bad values (convert's messages), words that are no option. */
static int check_extra(const mlvpipe_plan_settings *p, cli_convert_args *a)
{
    char *argv[MLVPIPE_PLAN_MAX_EXTRA + 2] = {"convert"};
    for (uint32_t i = 0; i < p->extra_count; i++)
        argv[i + 1] = (char *)p->extra[i];
    int rc = cli_convert_parse("convert", (int)p->extra_count + 1, argv, a);
    a->operands = NULL;   /* they were in argv: only their count stays valid */
    if (rc)
        return rc;
    if (a->help)
        return cli_usage_error("plan", "--help after -- would go to every task; see 'mlvpipe "
                               "convert --help' for the options");
    if (a->operand_count)
        return cli_usage_error("plan", "'%s' after -- is not a convert option (the clip goes "
                               "before --)", argv[p->extra_count + 1 - a->operand_count]);
    return EXIT_OK;
}

/* The first chunk's convert task (mlvpipe_plan_task_argv) through convert's parser; its
 * argv[0] is the program, argv[1] "convert", where convert's own argv starts. */
static int parse_task(const mlvpipe_clip *clip, const mlvpipe_plan_settings *p,
                      cli_convert_args *a, char ***words)
{
    uint32_t n = 0;
    mlvpipe_error err = {0};
    mlvpipe_status st = mlvpipe_plan_task_argv(clip, p, words, &n, &err);
    if (st == MLVPIPE_ERR_ARG)
        return cli_usage_error("plan", "%s", err.message);
    if (st != MLVPIPE_OK) {
        cli_log(MLVPIPE_LOG_ERROR, "%s", err.message);
        return cli_exit_for_input(st);
    }
    return cli_convert_parse("convert", (int)n - 1, *words + 1, a);
}

/* A task's whole convert command (the first chunk's: the others differ only in --frames and
 * the segment name) as the node will run it, through convert's parser and checks: e.g. an
 * option the format does not take. An option after -- that the plan writes itself too (its
 * --to always; -o, --frames, --levels, and --threads ... when plan gives its own) is refused.
 * Nothing is written. */
static int check_task(const mlvpipe_clip *clip, const mlvpipe_plan_settings *p)
{
    mlvpipe_plan_settings own = *p;
    own.extra_count = 0;
    char **words = NULL, **own_words = NULL;
    cli_convert_args a, plan_only, extra;
    cli_clips clips = {0};
    int rc = parse_task(clip, &own, &plan_only, &own_words);
    if (rc == EXIT_OK)
        rc = check_extra(p, &extra);
    /* The plan's format (dng without --to) decides what each task writes and the join. */
    const char *both = rc != EXIT_OK ? NULL : extra.to ? "--to"
                                            : cli_convert_given_both(&plan_only, &extra);
    if (both)
        rc = cli_usage_error("plan", "%s%s after -- contradicts what the plan writes into every "
                             "task; give plan its own option instead", both[0] == '-' ? "" : "--",
                             both);
    if (rc == EXIT_OK)
        rc = parse_task(clip, p, &a, &words);
    if (rc == EXIT_OK)
        rc = cli_clips_collect("convert", a.operands, a.operand_count, a.sequence, &clips);
    if (rc == EXIT_OK)
        rc = cli_convert_check("convert", &a, &clips);
    cli_clips_free(&clips);
    mlvpipe_argv_free(words);
    mlvpipe_argv_free(own_words);
    return rc;
}

/* Two clips of one name (A/A001.MLV, B/A001.MLV) would write the same files in DIR. */
static int check_names(const cli_clips *clips)
{
    char a[NAME_MAX + 1], b[NAME_MAX + 1];
    for (int i = 0; i < clips->count; i++)
        for (int j = i + 1; j < clips->count; j++) {
            clip_name(clips->path[i], a, sizeof a);
            clip_name(clips->path[j], b, sizeof b);
            if (!strcmp(a, b))
                return cli_usage_error("plan", "%s and %s are both named %s: their outputs in "
                                       "one folder would collide (plan them separately)",
                                       clips->path[i], clips->path[j], a);
        }
    return EXIT_OK;
}

/* One clip's plan from the settings in *shared (clip, name and sidecar filled in here), its
 * task checked first, appended to *all (malloc'd text, *length bytes). */
static int plan_clip(const mlvpipe_plan_settings *shared, const char *path, const char *levels,
                     char **all, size_t *length)
{
    mlvpipe_plan_settings p = *shared;
    char clip_abs[PATH_MAX], levels_abs[PATH_MAX], name[NAME_MAX + 1];
    if (!realpath(path, clip_abs)) {
        cli_log(MLVPIPE_LOG_ERROR, "%s: cannot open: %s", path, strerror(errno));
        return EXIT_INPUT;
    }
    clip_name(clip_abs, name, sizeof name);
    if (levels ? !absolute(levels, levels_abs, sizeof levels_abs)
               : snprintf(levels_abs, sizeof levels_abs, "%s/%s.levels.json", p.output, name) >=
                     (int)sizeof levels_abs)
        return cli_usage_error("plan", "the sidecar path is too long");
    p.clip = clip_abs;
    p.name = name;
    p.levels = levels_abs;
    mlvpipe_clip *clip;
    mlvpipe_error err = {0};
    mlvpipe_text text = {0};
    mlvpipe_status st = mlvpipe_clip_open(p.clip, &cli_api_logger, &clip, &err);
    if (st != MLVPIPE_OK) {
        cli_log(MLVPIPE_LOG_ERROR, "%s", err.message);
        return cli_exit_for_input(st);
    }
    int rc = check_task(clip, &p);
    if (rc == EXIT_OK && (st = mlvpipe_plan(clip, &p, &text, &err)) != MLVPIPE_OK) {
        cli_log(MLVPIPE_LOG_ERROR, "%s", err.message);
        rc = cli_exit_for_input(st);
    }
    mlvpipe_clip_close(clip);
    char *grown = rc == EXIT_OK ? realloc(*all, *length + text.length + 1) : NULL;
    if (rc == EXIT_OK && !grown) {
        cli_log(MLVPIPE_LOG_ERROR, "plan: out of memory");
        rc = EXIT_INTERNAL;
    }
    if (grown) {
        memcpy(grown + *length, text.data, text.length);
        *length += text.length;
        *all = grown;
    }
    mlvpipe_text_free(&text);
    return rc;
}

/* Appends a short piece of text (JSON brackets, separators) to *all. */
static int append(char **all, size_t *length, const char *piece)
{
    size_t n = strlen(piece);
    char *grown = realloc(*all, *length + n + 1);
    if (!grown)
        return 0;
    memcpy(grown + *length, piece, n);
    *length += n;
    *all = grown;
    return 1;
}

int cmd_plan(int argc, char **argv)
{
    static const char command[] = "plan";
    cli_plan_args args = {0};
    mlvpipe_plan_settings *p = &args.p;
    mlvpipe_default_plan_settings(p);
    int rc;

    /* Everything after "--" goes to convert untouched; getopt sees only what comes before. */
    int dashes = 1;
    while (dashes < argc && strcmp(argv[dashes], "--"))
        dashes++;
    for (int i = dashes + 1; i < argc; i++) {
        if (p->extra_count == MLVPIPE_PLAN_MAX_EXTRA)
            return cli_usage_error(command,
                                   "at most 32 convert options after -- ('%s' is extra)", argv[i]);
        p->extra[p->extra_count++] = argv[i];
    }
    cli_parsed parsed;
    rc = cli_options_parse(CLI_PLAN, command, dashes, argv, &args, &parsed, usage);
    if (rc || parsed.help)
        return rc;
    /* with --sequence after --, a folder is one clip as the tasks will take it */
    cli_convert_args extra;
    if ((rc = check_extra(p, &extra)))
        return rc;
    cli_clips clips;
    if ((rc = cli_clips_collect(command, parsed.operands, parsed.operand_count,
                                extra.sequence, &clips)))
        return rc;
    char out_abs[PATH_MAX], self[PATH_MAX], dark_abs[PATH_MAX], from_abs[PATH_MAX];
    if (!args.output)
        rc = cli_usage_error(command, "no output folder given (-o DIR)");
    else if (args.levels && clips.count > 1)
        rc = cli_usage_error(command, "--levels belongs to one clip; several clips each get "
                             "their own sidecar in DIR");
    if (rc == EXIT_OK)
        rc = check_names(&clips);
    if (rc == EXIT_OK)
        rc = cli_check_format(command, p->format ? p->format : "dng", NULL, 1, NULL);
    if (rc == EXIT_OK && extra.o.dark)
        rc = cli_usage_error(command, "--dark after -- would reach the convert tasks only, not "
                             "analyze; give plan its own --dark");
    if (rc == EXIT_OK && extra.o.defects_from)
        rc = cli_usage_error(command, "--defects-from after -- would reach the convert tasks, "
                             "which take the sidecar's map; give plan its own --defects-from");
    if (rc == EXIT_OK && !absolute(args.output, out_abs, sizeof out_abs))
        rc = cli_usage_error(command, "cannot make '%s' an absolute path", args.output);
    if (rc == EXIT_OK && args.dark && !absolute(args.dark, dark_abs, sizeof dark_abs))
        rc = cli_usage_error(command, "cannot make '%s' an absolute path", args.dark);
    p->dark = args.dark ? dark_abs : NULL;
    if (rc == EXIT_OK && args.defects_from &&
        !absolute(args.defects_from, from_abs, sizeof from_abs))
        rc = cli_usage_error(command, "cannot make '%s' an absolute path", args.defects_from);
    p->defects_from = args.defects_from ? from_abs : NULL;
    if (rc == EXIT_OK && !args.program) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0)
            rc = cli_usage_error(command, "cannot find this program's path; give --mlvpipe PATH");
        else
            self[n] = '\0';
        args.program = self;
    }
    p->program = args.program;
    p->output = out_abs;
    /* Every clip's plan is made before anything is printed: one that fails prints nothing,
     * except that of several clips one that exists but cannot be read (a damaged file on a
     * card) is left out, named on stderr and in a script's comment, the others planned, and
     * the exit status says so (3). */
    char *all = NULL;
    size_t length = 0;
    int json_list = p->engine == MLVPIPE_PLAN_JSON && clips.count > 1;
    int planned = 0, left_out = 0;
    char *refused = calloc((size_t)clips.count, 1);
    if (!refused)
        rc = EXIT_INTERNAL;
    if (rc == EXIT_OK && json_list && !append(&all, &length, "[\n"))
        rc = EXIT_INTERNAL;
    for (int i = 0; rc == EXIT_OK && i < clips.count; i++) {
        size_t before = length;
        if (planned && !append(&all, &length, json_list ? ",\n" : "\n"))
            rc = EXIT_INTERNAL;
        if (rc == EXIT_OK)
            rc = plan_clip(p, clips.path[i], args.levels, &all, &length);
        /* a missing path is a typo to fix, not a clip to leave out */
        if (rc == EXIT_INPUT && clips.count > 1 && access(clips.path[i], F_OK) == 0) {
            char name[4 * PATH_MAX];
            cli_log(MLVPIPE_LOG_ERROR, "%s: left out of the plan (the other clips are planned)",
                    cli_escaped(clips.path[i], name, sizeof name));
            length = before;
            left_out++;
            refused[i] = 1;
            rc = EXIT_OK;
        } else if (rc == EXIT_OK) {
            planned++;
        }
    }
    /* at the end: a script's first line stays its #! */
    for (int i = 0; rc == EXIT_OK && p->engine != MLVPIPE_PLAN_JSON && i < clips.count; i++) {
        char name[4 * PATH_MAX];
        if (refused[i] && (!append(&all, &length, "# left out of this plan, unreadable: ") ||
                           !append(&all, &length, cli_escaped(clips.path[i], name, sizeof name)) ||
                           !append(&all, &length, "\n")))
            rc = EXIT_INTERNAL;
    }
    free(refused);
    if (rc == EXIT_OK && !planned)
        rc = EXIT_INPUT;   /* every clip unreadable: each named above */
    if (rc == EXIT_OK && json_list && !append(&all, &length, "]\n"))
        rc = EXIT_INTERNAL;
    if (rc == EXIT_OK && (fwrite(all, 1, length, stdout) != length || fflush(stdout))) {
        cli_log(MLVPIPE_LOG_ERROR, "stdout: cannot write the plan: %s", strerror(errno));
        rc = EXIT_OUTPUT;
    }
    if (rc == EXIT_OK && left_out) {
        cli_log(MLVPIPE_LOG_ERROR, "plan: %d of %d clips left out (unreadable)", left_out,
                clips.count);
        rc = EXIT_INPUT;
    }
    free(all);
    cli_clips_free(&clips);
    return rc;
}
