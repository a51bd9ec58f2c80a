/* mlvpipe plan CLIP -o DIR --chunk N: a render-farm job for the clip (mlvpipe/plan.h) on
 * stdout: a Slurm submission script, a GNU parallel script, or a JSON task list. */
#include <errno.h>
#include <getopt.h>
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
        "options:\n"
        "  -o, --output DIR      output folder (convert's -o); made absolute\n"
        "      --chunk N         frame numbers per chunk (default 1000: tasks of minutes;\n"
        "                        see doc/farm.md for sizing)\n"
        "      --engine E        slurm, parallel or json (default slurm)\n"
        "      --to FORMAT       one of (default dng; movies: per-chunk segments in\n"
        "                        DIR/NAME_segments/NAME_AAAAAA-BBBBBB.EXT joined into\n"
        "                        DIR/NAME.EXT):\n");
    cli_print_formats(out, 1);
    fprintf(out,
        "      --threads N       threads per task (Slurm: --cpus-per-task=N on analyze and\n"
        "                        convert; default: what the task's CPUs allow)\n"
        "      --phase N         dual-ISO row phase 0..3 for analyze and convert\n"
        "      --no-audio        no WAV / audio track\n"
        "      --dark CLIP       dark frame for analyze and every convert task (convert\n"
        "                        --dark); made absolute\n"
        "      --defects-from CLIP\n"
        "                        another clip's raw-defect map for analyze (convert\n"
        "                        --defects-from); the sidecar carries it to every task;\n"
        "                        made absolute\n"
        "      --levels FILE     sidecar path (default DIR/NAME.levels.json)\n"
        "      --mlvpipe PATH    mlvpipe as the hosts run it (default: this program)\n"
        "Slurm:\n"
        "      --sbatch OPT      add '#SBATCH OPT' to every job (repeatable), e.g.\n"
        "                        --sbatch=--partition=render --sbatch=--account=vfx\n"
        "      --sbatch-work OPT add '#SBATCH OPT' to the analyze and convert jobs only, not\n"
        "                        to the short single-threaded join (repeatable), e.g.\n"
        "                        --sbatch-work=--time=1:00:00\n"
        "      --mem SIZE        #SBATCH --mem=SIZE for analyze and convert (e.g. 4G)\n"
        "      --throttle N      at most N convert tasks at once (--array=0-K%%N)\n"
        "      --requeue N       a task stopped by SIGTERM while its job runs on (exit 6:\n"
        "                        --sbatch-work=--signal=TERM@120, scancel --signal=TERM)\n"
        "                        requeues itself, up to N times (default 3; 0: never);\n"
        "                        analyze and convert jobs are --requeue (node failure,\n"
        "                        preemption); a cancelled job stays cancelled\n"
        "GNU parallel:\n"
        "      --sshlogin LIST   GNU parallel --sshlogin (e.g. 2/node1,2/node2)\n"
        "      --jobs N          GNU parallel --jobs (tasks at once per host)\n"
        "  -- ARGS               passed to every convert task as they are, once checked\n"
        "                        on a task's whole command as convert checks it (unknown\n"
        "                        options, values, options the format does not take, or\n"
        "                        ones the plan writes itself: exit 2, nothing planned)\n"
        "  -h, --help            show this help\n"
        "\n"
        "Chunk tasks are idempotent: DNG chunks run with --skip-existing (a killed or requeued\n"
        "task keeps its finished frames), movie segments with --overwrite (one file, redone\n"
        "whole); no partial file ever has a final name.\n"
        "\n"
        "exit status: 0 ok, 2 usage, 3 input unreadable or unsupported, 1 internal error.\n");
}

enum { OPT_CHUNK = 256, OPT_ENGINE, OPT_TO, OPT_THREADS, OPT_PHASE, OPT_NO_AUDIO, OPT_LEVELS,
       OPT_MLVPIPE, OPT_SBATCH, OPT_SSHLOGIN, OPT_JOBS, OPT_SBATCH_WORK, OPT_MEM, OPT_THROTTLE,
       OPT_REQUEUE, OPT_DARK, OPT_DEFECTS_FROM };

static const struct option long_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"chunk", required_argument, NULL, OPT_CHUNK},
    {"engine", required_argument, NULL, OPT_ENGINE},
    {"to", required_argument, NULL, OPT_TO},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"phase", required_argument, NULL, OPT_PHASE},
    {"no-audio", no_argument, NULL, OPT_NO_AUDIO},
    {"dark", required_argument, NULL, OPT_DARK},
    {"defects-from", required_argument, NULL, OPT_DEFECTS_FROM},
    {"levels", required_argument, NULL, OPT_LEVELS},
    {"mlvpipe", required_argument, NULL, OPT_MLVPIPE},
    {"sbatch", required_argument, NULL, OPT_SBATCH},
    {"sbatch-work", required_argument, NULL, OPT_SBATCH_WORK},
    {"mem", required_argument, NULL, OPT_MEM},
    {"throttle", required_argument, NULL, OPT_THROTTLE},
    {"requeue", required_argument, NULL, OPT_REQUEUE},
    {"sshlogin", required_argument, NULL, OPT_SSHLOGIN},
    {"jobs", required_argument, NULL, OPT_JOBS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

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

/* A Slurm memory size: digits, then at most one of K, M, G, T (sbatch --mem). */
static int valid_mem(const char *s)
{
    size_t n = strspn(s, "0123456789");
    return n > 0 && n < 12 && (!s[n] || (strchr("KMGTkmgt", s[n]) && !s[n + 1]));
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

/* One more --sbatch or --sbatch-work line into list (count so far in *count). */
static int add_sbatch(const char *option, const char **list, uint32_t *count, const char *value)
{
    if (*count == MLVPIPE_PLAN_MAX_EXTRA)
        return cli_usage_error("plan", "at most 32 %s options (this one: '%s')", option, value);
    list[(*count)++] = value;
    return EXIT_OK;
}

/* --engine's names, in mlvpipe_plan_engine order. */
static int engine_parse(const char *name, mlvpipe_plan_engine *out)
{
    static const char *const names[] = {"slurm", "parallel", "json"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(name, names[i])) {
            *out = (mlvpipe_plan_engine)i;
            return 1;
        }
    return 0;
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
    if (st != MLVPIPE_OK) {
        cli_log(MLVPIPE_LOG_ERROR, "%s", err.message);
        return st == MLVPIPE_ERR_ARG ? EXIT_USAGE : cli_exit_for_input(st);
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
    mlvpipe_plan_settings p;
    mlvpipe_default_plan_settings(&p);
    const char *output = NULL, *levels = NULL, *program = NULL, *dark = NULL,
               *defects_from = NULL;
    uint32_t value;
    int rc;

    /* Everything after "--" goes to convert untouched; getopt sees only what comes before. */
    int dashes = 1;
    while (dashes < argc && strcmp(argv[dashes], "--"))
        dashes++;
    for (int i = dashes + 1; i < argc; i++) {
        if (p.extra_count == MLVPIPE_PLAN_MAX_EXTRA)
            return cli_usage_error(command,
                                   "at most 32 convert options after -- ('%s' is extra)", argv[i]);
        p.extra[p.extra_count++] = argv[i];
    }
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(dashes, argv, CLI_COMMON_SHORT "o:", long_options, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case OPT_CHUNK:
            if (!cli_parse_uint(optarg, 1, 1000000000, &value))
                return cli_usage_error(command,
                                       "--chunk needs a number of frames >= 1, not '%s'", optarg);
            p.chunk_size = value;
            break;
        case OPT_ENGINE:
            if (!engine_parse(optarg, &p.engine))
                return cli_usage_error(command,
                                       "--engine takes slurm, parallel or json, not '%s'", optarg);
            break;
        case OPT_TO: p.format = optarg; break;
        case OPT_THREADS:
            if ((rc = cli_option_threads(command, optarg, &p.threads)))
                return rc;
            break;
        case OPT_PHASE:
            if ((rc = cli_option_phase(command, optarg, &p.phase)))
                return rc;
            break;
        case OPT_NO_AUDIO: p.no_audio = 1; break;
        case OPT_DARK: dark = optarg; break;
        case OPT_DEFECTS_FROM: defects_from = optarg; break;
        case OPT_LEVELS: levels = optarg; break;
        case OPT_MLVPIPE: program = optarg; break;
        case OPT_SBATCH:
            if ((rc = add_sbatch("--sbatch", p.sbatch, &p.sbatch_count, optarg)))
                return rc;
            break;
        case OPT_SBATCH_WORK:
            if ((rc = add_sbatch("--sbatch-work", p.sbatch_work, &p.sbatch_work_count, optarg)))
                return rc;
            break;
        case OPT_MEM:
            if (!valid_mem(optarg))
                return cli_usage_error(command, "--mem takes a size in Slurm's form: a number "
                                       "with an optional K, M, G or T (e.g. 4G), not '%s'", optarg);
            p.mem = optarg;
            break;
        case OPT_THROTTLE:
            if (!cli_parse_uint(optarg, 1, 1000000, &value))
                return cli_usage_error(command, "--throttle needs a number >= 1, not '%s'",
                                       optarg);
            p.throttle = value;
            break;
        case OPT_REQUEUE:
            if (!cli_parse_uint(optarg, 0, 1000, &value))
                return cli_usage_error(command, "--requeue takes 0 to 1000, not '%s'", optarg);
            p.requeues = value;
            break;
        case OPT_SSHLOGIN: p.sshlogin = optarg; break;
        case OPT_JOBS:
            if (!cli_parse_uint(optarg, 1, 100000, &value))
                return cli_usage_error(command, "--jobs needs a number >= 1, not '%s'", optarg);
            p.jobs = value;
            break;
        case 'h': usage(stdout); return EXIT_OK;
        case 'v':
        case 'q': cli_verbosity_option(c); break;
        default: return cli_option_error(command, c, argv);
        }
    }
    /* getopt_long moved the operands to the end; with --sequence after --, a folder is one
     * clip as the tasks will take it. */
    int operands = optind;  /* convert's parser, run on the options after --, resets optind */
    cli_convert_args extra;
    if ((rc = check_extra(&p, &extra)))
        return rc;
    cli_clips clips;
    if ((rc = cli_clips_collect(command, argv + operands, dashes - operands, extra.sequence,
                                &clips)))
        return rc;
    char out_abs[PATH_MAX], self[PATH_MAX], dark_abs[PATH_MAX], from_abs[PATH_MAX];
    if (!output)
        rc = cli_usage_error(command, "no output folder given (-o DIR)");
    else if (levels && clips.count > 1)
        rc = cli_usage_error(command, "--levels belongs to one clip; several clips each get "
                             "their own sidecar in DIR");
    if (rc == EXIT_OK)
        rc = check_names(&clips);
    if (rc == EXIT_OK)
        rc = cli_check_format(command, p.format ? p.format : "dng", NULL, 1, NULL);
    if (rc == EXIT_OK && extra.o.dark)
        rc = cli_usage_error(command, "--dark after -- would reach the convert tasks only, not "
                             "analyze; give plan its own --dark");
    if (rc == EXIT_OK && extra.o.defects_from)
        rc = cli_usage_error(command, "--defects-from after -- would reach the convert tasks, "
                             "which take the sidecar's map; give plan its own --defects-from");
    if (rc == EXIT_OK && !absolute(output, out_abs, sizeof out_abs))
        rc = cli_usage_error(command, "cannot make '%s' an absolute path", output);
    if (rc == EXIT_OK && dark && !absolute(dark, dark_abs, sizeof dark_abs))
        rc = cli_usage_error(command, "cannot make '%s' an absolute path", dark);
    p.dark = dark ? dark_abs : NULL;
    if (rc == EXIT_OK && defects_from && !absolute(defects_from, from_abs, sizeof from_abs))
        rc = cli_usage_error(command, "cannot make '%s' an absolute path", defects_from);
    p.defects_from = defects_from ? from_abs : NULL;
    if (rc == EXIT_OK && !program) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0)
            rc = cli_usage_error(command, "cannot find this program's path; give --mlvpipe PATH");
        else
            self[n] = '\0';
        program = self;
    }
    p.program = program;
    p.output = out_abs;
    /* Every clip's plan is made before anything is printed: one that fails prints nothing. */
    char *all = NULL;
    size_t length = 0;
    int json_list = p.engine == MLVPIPE_PLAN_JSON && clips.count > 1;
    if (rc == EXIT_OK && json_list && !append(&all, &length, "[\n"))
        rc = EXIT_INTERNAL;
    for (int i = 0; rc == EXIT_OK && i < clips.count; i++) {
        if (i && !append(&all, &length, json_list ? ",\n" : "\n"))
            rc = EXIT_INTERNAL;
        if (rc == EXIT_OK)
            rc = plan_clip(&p, clips.path[i], levels, &all, &length);
    }
    if (rc == EXIT_OK && json_list && !append(&all, &length, "]\n"))
        rc = EXIT_INTERNAL;
    if (rc == EXIT_OK && (fwrite(all, 1, length, stdout) != length || fflush(stdout))) {
        cli_log(MLVPIPE_LOG_ERROR, "stdout: cannot write the plan: %s", strerror(errno));
        rc = EXIT_OUTPUT;
    }
    free(all);
    cli_clips_free(&clips);
    return rc;
}
