/* mlvpipe convert CLIP -o OUT: a clip to a CinemaDNG sequence or a movie
 * (mlvpipe_convert, include/mlvpipe/convert.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_batch.h"
#include "cli_convert.h"
#include "cli_run.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: mlvpipe convert CLIP -o DIR|FILE|- [options]\n"
        "       mlvpipe convert CLIP|FOLDER... -o DIR [options]       (a batch)\n"
        "\n"
        "Converts a Magic Lantern clip (.MLV with its chunks, or .RAW) to a CinemaDNG\n"
        "sequence DIR/NAME/NAME_000000.dng (+ NAME.wav when the clip has audio), a developed\n"
        "TIFF or OpenEXR sequence, or a movie file (--to). Dual-ISO clips are reconstructed\n"
        "with clip-level levels (16-bit DNG); other clips keep their recorded samples. Files\n"
        "appear under their final name only when complete. A movie of a --frames range\n"
        "starts at that frame's time stamp, so chunks join with 'mlvpipe join'; lost frames\n"
        "repeat the previous one. Options the format does not take are usage errors.\n"
        "\n"
        "options:\n");
    cli_options_print(out, CLI_CONVERT, 24);
    fprintf(out,
        "\n"
        "A raw photo (.CR2, .DNG: a still, read through LibRaw) is a one-frame clip: it goes\n"
        "to DIR/NAME.dng, dual ISO found from its pixels. With --sequence a folder of photos\n"
        "(a timelapse) is one clip of a frame per photo, in name order, at 25 fps (--fps), its\n"
        "levels shared over the whole sequence so that it does not flicker.\n"
        "\n"
        "Batches: several clips, or folders (their .MLV, .RAW, .CR2 and .DNG files, by name),\n"
        "each go to their own output in DIR: DIR/NAME/ for DNG (a still: DIR/NAME.dng),\n"
        "DIR/NAME.EXT for --to a movie or md5\n"
        "(give --to: the format is not taken from a folder's name). A clip that fails does\n"
        "not stop the others; the end lists every clip's outcome, and the exit status is the\n"
        "worst of them (least to most severe: 0, 4, 3, 2, 5, 1; 6 stops the batch).\n"
        "\n"
        "Signals: SIGINT/SIGTERM stop after the frames in progress (exit 6); re-run with\n"
        "--skip-existing to finish. Chunks converted separately (--frames) give the same bytes\n"
        "as one run, for any --threads.\n"
        "\n"
        "exit status: 0 every selected frame written or skipped, 2 usage (also an existing\n"
        "output without --overwrite, --frames past the clip), 3 input unreadable\n"
        "or unsupported, 4 input damaged (every intact frame written), 5 output failed,\n"
        "6 interrupted, 1 internal error.\n");
}

static char *batch_output(const mlvpipe_convert_settings *o, const char *folder,
                          const char *clip);

/* The extension of a format that writes one file (NULL for a sequence of files); rawvideo,
 * frames without a container, is named .rgb48 inside a folder. */
static const char *single_file_extension(const char *format)
{
    const char *ext;
    cli_check_format("convert", format, NULL, 0, &ext);
    return ext || strcmp(format, "rawvideo") ? ext : "rgb48";
}

/* A single-file format into an existing folder goes to FOLDER/CLIP.EXT, as in a batch (a
 * folder named like the file, X.mov, is in the way instead); an existing file is refused
 * before any work unless --overwrite (the format table refuses what cannot go to stdout), and
 * so is a file where a sequence's folder goes. */
static int check_output(const char *command, mlvpipe_convert_settings *o)
{
    static char *in_folder;     /* the process's one output name, kept until exit */
    const char *ext = single_file_extension(o->format);
    struct stat sb;
    if (cli_format_is_sequence(o->format) && !stat(o->output, &sb) && !S_ISDIR(sb.st_mode))
        return cli_usage_error(command, "%s exists and is not a folder; --to %s writes a "
                               "folder of files", o->output, o->format);
    if (!ext || !strcmp(o->output, "-"))
        return EXIT_OK;
    if (!stat(o->output, &sb) && S_ISDIR(sb.st_mode)) {
        const char *dot = strrchr(o->output, '.');
        if (dot && !strchr(dot, '/') && !strcasecmp(dot + 1, ext))   /* meant the file */
            return cli_usage_error(command, "-o %s is a folder; --to %s writes one file",
                                   o->output, o->format);
        free(in_folder);
        if (!(in_folder = batch_output(o, o->output, o->input))) {
            cli_log(MLVPIPE_LOG_ERROR, "out of memory");
            return EXIT_INTERNAL;
        }
        o->output = in_folder;
    }
    return cli_check_new_output(command, o->output, o->overwrite);
}

/* The checks that need every option: formats, outputs, options the format does not take,
 * exclusive options. */
int cli_convert_check(const char *command, cli_convert_args *a, const cli_clips *clips)
{
    mlvpipe_convert_settings *o = &a->o;
    const char *to = a->to;
    int rc;
    if (!o->output)
        return cli_usage_error(command, "no output given (-o DIR)");
    if (to && (rc = cli_check_format(command, to, NULL, 0, NULL)))
        return rc;
    if (clips->batch) {
        /* Each clip gets its own output inside the folder -o names. */
        o->format = to ? to : "dng";
        const char *named = NULL;
        if ((rc = cli_format_from_output(command, NULL, o->output, &named)))
            return rc;
        if (!strcmp(o->output, "-") || named)
            return cli_usage_error(command, "several clips need -o FOLDER (each clip's output "
                                   "goes in it), not -o %s", o->output);
        if (o->levels_path)
            return cli_usage_error(command, "--levels belongs to one clip; several clips each "
                                   "get their own levels");
    } else {
        o->input = clips->path[0];
        if ((rc = cli_format_from_output(command, to, o->output, &o->format)) ||
            (rc = cli_check_format(command, o->format, o->output, 0, NULL)))
            return rc;
        if ((rc = check_output(command, o)))
            return rc;
    }
    if ((rc = cli_options_check(CLI_CONVERT, command, a->given, o->format)))
        return rc;
    if (cli_options_given(CLI_CONVERT, a->given, "clip-index") && o->naming != MLVPIPE_NAMING_RESOLVE)
        return cli_usage_error(command, "--clip-index is the C0000 part of resolve names; give "
                               "--naming resolve with it");
    int dng_16bit = a->dng_16bit;
    if (dng_16bit && o->dng_storage != MLVPIPE_DNG_NATIVE)
        return cli_usage_error(command, "--dng-bits 16 is for uncompressed DNGs (lj92 keeps "
                               "the samples' own depth)");
    if (dng_16bit)
        o->dng_storage = MLVPIPE_DNG_16BIT;
    return EXIT_OK;
}

/* The exit status of one conversion's outcome, its error logged unless an "error" progress
 * event (JSON mode) carried it already. */
static int convert_outcome(const mlvpipe_convert_settings *o, int error_event_shown,
                           mlvpipe_status st, const mlvpipe_convert_result *res,
                           const mlvpipe_error *err)
{
    if (st == MLVPIPE_OK)
        return EXIT_OK;
    /* Usage errors the library finds (an existing output, a --frames range past the clip,
     * options that exclude each other): one line and the --help hint, exit 2, never the
     * farm's "retry elsewhere" (5) or "input unreadable" (3). */
    if (strstr(err->message, "exists (not overwriting)")) {
        if (error_event_shown)
            return EXIT_USAGE;
        return cli_usage_error("convert", "%s; --overwrite replaces existing files%s",
                               err->message, !cli_format_is_sequence(o->format) ? ""
                               : ", --skip-existing keeps them and writes the missing frames "
                                 "(resume)");
    }
    if (st == MLVPIPE_ERR_ARG)
        return error_event_shown ? EXIT_USAGE : cli_usage_error("convert", "%s", err->message);
    if (!error_event_shown)
        cli_log(st == MLVPIPE_ERR_INTERRUPTED ? MLVPIPE_LOG_WARNING : MLVPIPE_LOG_ERROR, "%s",
                err->message);
    if (st == MLVPIPE_ERR_INTERRUPTED)
        return EXIT_INTERRUPTED;
    return res->output_failed ? EXIT_OUTPUT : cli_exit_for_input(st);
}

/* Converts o->input to o->output; the exit status, its error logged. */
static int convert_one(mlvpipe_convert_settings *o, const mlvpipe_movie_settings *movie,
                       cli_progress_mode mode, double every_s)
{
    cli_progress progress;
    cli_progress_init(&progress, mode, !strcmp(o->output, "-"), every_s);
    o->progress = cli_progress_print;
    o->progress_opaque = &progress;
    mlvpipe_convert_result res;
    mlvpipe_error err = {0};
    mlvpipe_status st = mlvpipe_convert_movie(o, movie, &res, &err);
    return convert_outcome(o, mode == CLI_PROGRESS_JSON, st, &res, &err);
}

/* A batch clip's output: the folder for DNG and null, else FOLDER/NAME.EXT. */
static char *batch_output(const mlvpipe_convert_settings *o, const char *folder,
                          const char *clip)
{
    const char *ext = single_file_extension(o->format);
    if (!ext)
        return strdup(folder);
    const char *base = strrchr(clip, '/');
    base = base ? base + 1 : clip;
    const char *dot = strrchr(base, '.');
    int len = dot ? (int)(dot - base) : (int)strlen(base);
    size_t size = strlen(folder) + (size_t)len + strlen(ext) + 3;
    char *out = malloc(size);
    if (out)
        snprintf(out, size, "%s/%.*s.%s", folder, len, base, ext);
    return out;
}

typedef struct batch_run {
    const mlvpipe_convert_settings *o;
    const cli_clips *clips;
    char **outputs;
    int *codes;                  /* each clip's exit status; -1: not finished */
    cli_progress progress;
    int error_event;             /* an "error" event was shown for the clip converting alone */
} batch_run;

/* Only clips converted alone send progress (mlvpipe_convert_batch), one at a time. */
static void batch_progress(void *opaque, const mlvpipe_progress *ev)
{
    batch_run *b = opaque;
    b->error_event |= ev->kind == MLVPIPE_PROGRESS_ERROR && b->progress.mode == CLI_PROGRESS_JSON;
    cli_progress_print(&b->progress, ev);
}

static void batch_started(void *opaque, uint32_t i)
{
    const batch_run *b = opaque;
    char in[4 * PATH_MAX], out[4 * PATH_MAX];
    if (cli_verbosity > 0)
        fprintf(stderr, "mlvpipe: clip %u of %d: %s -> %s\n", i + 1, b->clips->count,
                cli_escaped(b->clips->path[i], in, sizeof in),
                cli_escaped(b->outputs[i], out, sizeof out));
}

static void batch_finished(void *opaque, uint32_t i, mlvpipe_status st,
                           const mlvpipe_convert_result *res, const mlvpipe_error *err)
{
    batch_run *b = opaque;
    b->codes[i] = convert_outcome(b->o, b->error_event, st, res, err);
    b->error_event = 0;
}

/* Every clip, past failures (raw photos side by side over the threads); a report of each at
 * the end; the worst exit status. */
static int convert_batch(mlvpipe_convert_settings *o, const mlvpipe_movie_settings *movie,
                         const cli_clips *clips, cli_progress_mode mode, double every_s)
{
    const char *folder = o->output;
    int n = clips->count;
    batch_run b = {o, clips, calloc((size_t)n, sizeof *b.outputs),
                   malloc((size_t)n * sizeof *b.codes), {0}, 0};
    int ok = b.outputs && b.codes;
    for (int i = 0; ok && i < n; i++) {
        b.codes[i] = -1;            /* not finished */
        ok = (b.outputs[i] = batch_output(o, folder, clips->path[i])) != NULL;
    }
    int worst = EXIT_OK;
    if (!ok) {
        cli_log(MLVPIPE_LOG_ERROR, "out of memory");
        worst = EXIT_INTERNAL;
    } else {
        if (!cli_format_is_sequence(o->format) && strcmp(o->format, "null"))
            mkdir(folder, 0777);    /* sequences make theirs; a failure shows on the first clip */
        cli_progress_init(&b.progress, mode, 0, every_s);
        o->progress = batch_progress;
        o->progress_opaque = &b;
        mlvpipe_error err = {0};
        mlvpipe_status st = mlvpipe_convert_batch(o, movie, (const char *const *)clips->path,
                                                  (const char *const *)b.outputs, (uint32_t)n,
                                                  batch_started, batch_finished, &b, &err);
        for (int i = 0; i < n; i++)
            if (b.codes[i] >= 0)
                worst = cli_exit_worse(worst, b.codes[i]);
        /* stopped between clips, or unable to start (its message not shown yet) */
        if (st != MLVPIPE_OK && worst != EXIT_INTERRUPTED)
            worst = cli_exit_worse(worst, convert_outcome(o, 0, st,
                                                          &(mlvpipe_convert_result){0}, &err));
        int converted = 0;
        for (int i = 0; i < n; i++)
            converted += b.codes[i] == EXIT_OK;
        if (worst != EXIT_OK || cli_verbosity > 0) {
            fprintf(stderr, "mlvpipe: batch: %d of %d clips converted\n", converted, n);
            char name[4 * PATH_MAX];
            for (int i = 0; i < n; i++)
                fprintf(stderr, "mlvpipe: batch: %s: %s\n",
                        cli_escaped(clips->path[i], name, sizeof name),
                        b.codes[i] < 0 ? "not started (interrupted)" : cli_exit_name(b.codes[i]));
        }
    }
    for (int i = 0; b.outputs && i < n; i++)
        free(b.outputs[i]);
    free(b.outputs);
    free(b.codes);
    return worst;
}

int cli_convert_parse(const char *command, int argc, char **argv, cli_convert_args *a)
{
    memset(a, 0, sizeof *a);
    mlvpipe_default_convert_settings(&a->o);
    a->o.tool = "mlvpipe " MLVPIPE_VERSION;
    a->o.log = cli_api_logger;
    a->mode = CLI_PROGRESS_AUTO;
    cli_parsed parsed;
    int rc = cli_options_parse(CLI_CONVERT, command, argc, argv, a, &parsed, NULL);
    a->help = parsed.help;
    memcpy(a->given, parsed.given, sizeof a->given);
    a->operands = parsed.operands;
    a->operand_count = parsed.operand_count;
    return rc;
}

const char *cli_convert_given_both(const cli_convert_args *a, const cli_convert_args *b)
{
    const cli_option *both = cli_options_given_both(CLI_CONVERT, a->given, b->given);
    return !both ? NULL : both->short_name == 'o' ? "-o" : both->name;
}

int cmd_convert(int argc, char **argv)
{
    static const char command[] = "convert";
    cli_convert_args a;
    int rc = cli_convert_parse(command, argc, argv, &a);
    if (rc == EXIT_OK && a.help)
        usage(stdout);
    if (rc || a.help)
        return rc;
    cli_clips clips;
    if ((rc = cli_clips_collect(command, a.operands, a.operand_count, a.sequence, &clips)))
        return rc;
    rc = cli_convert_check(command, &a, &clips);
    if (rc == EXIT_OK) {
        a.o.cancel = &cli_cancel;
        mlvpipe_route_libav_log(&cli_api_logger);
        rc = clips.batch ? convert_batch(&a.o, &a.movie, &clips, a.mode, a.progress_every)
                         : convert_one(&a.o, &a.movie, a.mode, a.progress_every);
    }
    cli_clips_free(&clips);
    return rc;
}
