#include "farm/plan.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

mp_status mp_farm_chunks(const uint32_t *numbers, uint32_t count, uint32_t size,
                      farm_chunk **chunks, uint32_t *chunk_count, mp_error *err)
{
    *chunks = NULL;
    *chunk_count = 0;
    if (size == 0)
        return mp_error_set(err, MP_ERR_ARG, "chunk size must be at least 1 frame");
    if (count == 0)
        return mp_error_set(err, MP_ERR_ARG, "the clip has no frames to plan");
    /* At most one chunk per frame, so the list is bounded by the clip, not by its numbers. */
    farm_chunk *list = malloc((size_t)count * sizeof *list);
    if (!list)
        return mp_error_set(err, MP_ERR_NOMEM, "no memory for %" PRIu32 " chunks", count);
    const uint64_t first = numbers[0], last = numbers[count - 1];
    uint32_t n = 0;
    for (uint32_t i = 0; i < count;) {
        /* Jump straight to the chunk holding numbers[i]: gaps cost nothing. */
        uint64_t k = (numbers[i] - first) / size;
        uint64_t a = first + k * size, b = a + size - 1;
        if (b > last)
            b = last;
        farm_chunk *c = &list[n++];
        c->first = (uint32_t)a;
        c->last = (uint32_t)b;
        c->frames = 0;
        for (; i < count && numbers[i] <= b; i++)
            c->frames++;
    }
    *chunks = list;
    *chunk_count = n;
    return MP_OK;
}

static int shell_safe(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           strchr("_./:=@%+,-", c) != NULL;
}

void mp_farm_shell_quote(mp_text *t, const char *s)
{
    int safe = *s != '\0';
    for (const char *q = s; *q && safe; q++)
        safe = shell_safe(*q);
    if (safe) {
        mp_text_printf(t, "%s", s);
        return;
    }
    mp_text_printf(t, "'");
    for (; *s; s++) {
        if (*s == '\'')
            mp_text_printf(t, "'\\''");
        else
            mp_text_printf(t, "%c", *s);
    }
    mp_text_printf(t, "'");
}

mp_status mp_farm_check_text(const char *what, const char *s, mp_error *err)
{
    for (const unsigned char *q = (const unsigned char *)s; *q; q++)
        if (*q < 0x20 || *q == 0x7f)
            return mp_error_set(err, MP_ERR_ARG,
                                "%s contains a control character (byte %u at offset %zu); it "
                                "cannot go into a job script",
                                what, *q, (size_t)(q - (const unsigned char *)s));
    return MP_OK;
}

static mp_status path_printf(char *out, size_t size, mp_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static mp_status path_printf(char *out, size_t size, mp_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, size, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= size)
        return mp_error_set(err, MP_ERR_ARG, "path too long: %.200s...", out);
    return MP_OK;
}

mp_status mp_farm_segment_dir(const farm_plan *p, char *out, size_t size, mp_error *err)
{
    return path_printf(out, size, err, "%s/%s_segments", p->output, p->name);
}

mp_status mp_farm_segment_path(const farm_plan *p, const farm_chunk *c, char *out, size_t size,
                            mp_error *err)
{
    return path_printf(out, size, err, "%s/%s_segments/%s_%06" PRIu32 "-%06" PRIu32 ".%s",
                       p->output, p->name, p->name, c->first, c->last, p->movie_ext);
}

mp_status mp_farm_movie_path(const farm_plan *p, char *out, size_t size, mp_error *err)
{
    return path_printf(out, size, err, "%s/%s.%s", p->output, p->name, p->movie_ext);
}

/* ---- command words ------------------------------------------------------------------- */

#define FARM_MAX_WORDS 96

/* One command as argv words (owned copies). */
typedef struct words {
    char *w[FARM_MAX_WORDS];
    uint32_t n;
    int failed;
} words;

static void words_add(words *w, const char *s)
{
    char *copy = NULL;
    if (w->n < FARM_MAX_WORDS && (copy = strdup(s)) != NULL)
        w->w[w->n++] = copy;
    else
        w->failed = 1;
}

static void words_addu(words *w, uint32_t v)
{
    char buf[16];
    snprintf(buf, sizeof buf, "%" PRIu32, v);
    words_add(w, buf);
}

static void words_free(words *w)
{
    for (uint32_t i = 0; i < w->n; i++)
        free(w->w[i]);
    memset(w, 0, sizeof *w);
}

/* Frees w; MP_OK, or the error for a command that did not fit (too many words, no memory)
 * when w or the caller's other output (other_failed) failed. */
static mp_status words_finish(words *w, int other_failed, mp_error *err)
{
    int failed = w->failed || other_failed;
    words_free(w);
    return failed ? mp_error_set(err, MP_ERR_NOMEM, "plan: command too long") : MP_OK;
}

static int is_movie(const farm_plan *p)
{
    return p->movie_ext != NULL;
}

/* The options analyze and convert take alike. */
static void shared_words(const farm_plan *p, words *w)
{
    if (p->threads) {
        words_add(w, "--threads");
        words_addu(w, p->threads);
    }
    if (p->phase >= 0) {
        words_add(w, "--phase");
        words_addu(w, (uint32_t)p->phase);
    }
    /* the sidecar's levels and defect maps are measured on frames without the dark pattern,
     * which every chunk subtracts again */
    if (p->dark) {
        words_add(w, "--dark");
        words_add(w, p->dark);
    }
}

static void analyze_words(const farm_plan *p, words *w)
{
    words_add(w, p->program);
    words_add(w, "analyze");
    words_add(w, p->clip);
    words_add(w, "-o");
    words_add(w, p->levels);
    /* Re-submitting the plan must not fail on the sidecar of an earlier run (same bytes). */
    words_add(w, "--overwrite");
    shared_words(p, w);
    if (p->defects_from) {
        words_add(w, "--defects-from");
        words_add(w, p->defects_from);
    }
}

/* Everything but the chunk's own words (--frames, and -o for a movie segment). */
static void convert_words(const farm_plan *p, words *w)
{
    words_add(w, p->program);
    words_add(w, "convert");
    words_add(w, p->clip);
    if (!is_movie(p)) {
        words_add(w, "-o");
        words_add(w, p->output);
    }
    words_add(w, "--levels");
    words_add(w, p->levels);
    if (p->format) {
        words_add(w, "--to");
        words_add(w, p->format);
    }
    shared_words(p, w);
    if (p->no_audio)
        words_add(w, "--no-audio");
    words_add(w, "--progress");
    words_add(w, "json");
    /* A line per frame floods the logs of long chunks. */
    words_add(w, "--progress-every");
    words_add(w, "10");
    /* A killed or requeued frame task resumes; a movie segment is one file, redone whole. */
    words_add(w, is_movie(p) ? "--overwrite" : "--skip-existing");
    for (uint32_t i = 0; i < p->extra_count; i++)
        words_add(w, p->extra[i]);
}

static void chunk_frames(const farm_chunk *c, char *out, size_t size)
{
    snprintf(out, size, "%" PRIu32 "-%" PRIu32, c->first, c->last);
}

/* A chunk's whole convert command: the shared words, --frames, and -o for a movie segment
 * (its path into `path`, 4096 bytes, for the caller's JSON). */
static mp_status chunk_convert_words(const farm_plan *p, const farm_chunk *c, words *w,
                                     char *path, mp_error *err)
{
    char frames[32];
    chunk_frames(c, frames, sizeof frames);
    convert_words(p, w);
    words_add(w, "--frames");
    words_add(w, frames);
    if (is_movie(p)) {
        if (mp_farm_segment_path(p, c, path, 4096, err) != MP_OK) {
            words_free(w);
            return err->code;
        }
        words_add(w, "-o");
        words_add(w, path);
    }
    return MP_OK;
}

mp_status mp_farm_chunk_argv(const farm_plan *p, uint32_t index, char ***argv, uint32_t *argc,
                             mp_error *err)
{
    *argv = NULL;
    *argc = 0;
    if (index >= p->chunk_count)
        return mp_error_set(err, MP_ERR_RANGE, "plan: no chunk %" PRIu32, index);
    words w = {0};
    char path[4096];
    mp_status st = chunk_convert_words(p, &p->chunks[index], &w, path, err);
    if (st != MP_OK)
        return st;
    char **out = w.failed ? NULL : calloc(w.n + 1, sizeof *out);
    if (!out)
        return words_finish(&w, 1, err);
    memcpy(out, w.w, w.n * sizeof *out);   /* the copies change hands */
    *argv = out;
    *argc = w.n;
    return MP_OK;
}

void mp_farm_argv_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

/* The chunks' frame ranges "A-B A-B ...", for a shell array or a parallel input source. */
static void shell_ranges(mp_text *t, const farm_plan *p)
{
    char frames[32];
    for (uint32_t i = 0; i < p->chunk_count; i++) {
        chunk_frames(&p->chunks[i], frames, sizeof frames);
        mp_text_printf(t, "%s%s", i ? " " : "", frames);
    }
}

/* The chunks' movie segment paths, shell-quoted and separated by spaces. */
static mp_status shell_segments(mp_text *t, const farm_plan *p, mp_error *err)
{
    char path[4096];
    for (uint32_t i = 0; i < p->chunk_count; i++) {
        if (mp_farm_segment_path(p, &p->chunks[i], path, sizeof path, err) != MP_OK)
            return err->code;
        mp_text_printf(t, "%s", i ? " " : "");
        mp_farm_shell_quote(t, path);
    }
    return MP_OK;
}

/* The step after every chunk: join the segments, or (DNG sequence of a clip with audio) a
 * whole-clip convert that finds every frame done and writes the WAV. Returns 0 if none,
 * -1 (w freed, err set) when a path does not fit. */
static int final_words(const farm_plan *p, words *w, mp_error *err)
{
    if (is_movie(p)) {
        char path[4096];
        words_add(w, p->program);
        words_add(w, "join");
        words_add(w, "--overwrite");
        if (mp_farm_movie_path(p, path, sizeof path, err) != MP_OK)
            goto fail;
        words_add(w, path);
        for (uint32_t i = 0; i < p->chunk_count; i++) {
            if (mp_farm_segment_path(p, &p->chunks[i], path, sizeof path, err) != MP_OK)
                goto fail;
            words_add(w, path);
        }
        return 1;
    }
    if (p->has_audio && !p->no_audio) {
        convert_words(p, w);
        return 1;
    }
    return 0;
fail:
    words_free(w);
    return -1;
}

static void shell_words(mp_text *t, const words *w)
{
    for (uint32_t i = 0; i < w->n; i++) {
        if (i)
            mp_text_printf(t, " ");
        mp_farm_shell_quote(t, w->w[i]);
    }
}

static void shell_wordf(mp_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void shell_wordf(mp_text *t, const char *fmt, ...)
{
    char buf[4200];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof buf)
        t->failed = 1;
    else
        mp_farm_shell_quote(t, buf);
}

/* ---- shell engines --------------------------------------------------------------------- */

static void shell_header(const farm_plan *p, const char *engine, mp_text *t)
{
    mp_text_printf(t, "#!/bin/bash\n# %s plan (%s) for ", p->tool, engine);
    mp_farm_shell_quote(t, p->clip);
    mp_text_printf(t, "\n# clip GUID %016" PRIx64 ", frames %" PRIu32 "-%" PRIu32
                      " (%" PRIu32 " frames), %" PRIu32 " chunks of up to %" PRIu32
                      " frame numbers.\n",
                   p->guid, p->first_frame, p->last_frame, p->frame_count, p->chunk_count,
                   p->chunk_size);
    mp_text_printf(t, "# Every host must see these paths (shared storage). Re-running this "
                      "script %s\n",
                   is_movie(p) ? "redoes the segments\n# (each written whole, --overwrite)."
                               : "resumes:\n# finished frames are kept (--skip-existing).");
    mp_text_printf(t, "set -euo pipefail\nmkdir -p ");
    mp_farm_shell_quote(t, p->output);
    mp_text_printf(t, " ");
    shell_wordf(t, "%s/%s_logs", p->output, p->name);
    if (is_movie(p)) {
        mp_text_printf(t, " ");
        shell_wordf(t, "%s/%s_segments", p->output, p->name);
    }
    mp_text_printf(t, "\n");
}

/* Peak RSS at 1920x1080 (doc/farm.md "Memory"; /usr/bin/time %M, dual-ISO and plain clips,
 * 1-8 threads): about 40 MiB of program and libraries, then per thread 11 MiB for the raw
 * stages (analyze, DNG: 78, 92, 115, 150 MiB at 1, 2, 4, 8 threads) and 72 MiB when frames
 * are developed and encoded (ProRes: 108, 179, 325 MiB at 1, 2, 4), plus 30 MiB of raw
 * buffers that do not grow with the threads. */
uint32_t mp_farm_default_mem_mb(const farm_plan *p, int developed)
{
    const double frame = (double)p->width * p->height / (1920.0 * 1080.0);
    const uint32_t threads = p->threads ? p->threads : 1;
    double mb = 40 + frame * (developed ? 72.0 * threads : 30 + 11.0 * threads);
    mb *= 1.5;
    return ((uint32_t)mb + 63) / 64 * 64;
}

/* The job script's start; work: 1 analyze, 2 convert (threads, memory, requeue), 0 the
 * single-threaded final step. */
static void sbatch_script(const farm_plan *p, mp_text *t, const char *var, const char *opts,
                          int work)
{
    mp_text_printf(t, "%s=$(sbatch --parsable %s <<'MLVPIPE_JOB'\n#!/bin/bash\n", var, opts);
    for (uint32_t i = 0; i < p->sbatch_count; i++)
        mp_text_printf(t, "#SBATCH %s\n", p->sbatch[i]);
    if (!work)
        return;
    if (p->threads)
        mp_text_printf(t, "#SBATCH --cpus-per-task=%" PRIu32 "\n", p->threads);
    if (p->mem)
        mp_text_printf(t, "#SBATCH --mem=%s\n", p->mem);
    else
        mp_text_printf(t, "#SBATCH --mem=%" PRIu32 "M\n",
                       mp_farm_default_mem_mb(p, work == 2 && p->developed));
    /* Append: a requeued task's log keeps the run that was interrupted. */
    if (p->requeues)
        mp_text_printf(t, "#SBATCH --requeue\n#SBATCH --open-mode=append\n");
    for (uint32_t i = 0; i < p->sbatch_work_count; i++)
        mp_text_printf(t, "#SBATCH %s\n", p->sbatch_work[i]);
}

/* Ends the command started on the line before (its words, no newline yet), then requeues
 * the job when it was interrupted (exit 6) while the job itself goes on running: a signal
 * sent to it (sbatch --signal=TERM@SECONDS before the time limit, scancel --signal=TERM), so
 * the rest of the work is done later. Not when Slurm is ending the job (JobState COMPLETING:
 * scancel, the time limit itself, a preemption that cancels), which also starts with SIGTERM:
 * a cancelled job must stay cancelled. */
static void requeue_tail(const farm_plan *p, mp_text *t)
{
    if (!p->requeues) {
        mp_text_printf(t, "\n");
        return;
    }
    mp_text_printf(t, "\nrc=$?\nif [ \"$rc\" -eq 6 ] && [ \"${SLURM_RESTART_COUNT:-0}\" -lt %" PRIu32
                      " ] &&\n   scontrol -o show job \"$SLURM_JOB_ID\" | grep -q "
                      "JobState=RUNNING; then\n    scontrol requeue \"$SLURM_JOB_ID\"\n"
                      "fi\nexit \"$rc\"\n", p->requeues);
}

/* Before the command: "exec " when nothing follows it in the job script; else the shell
 * ignores SIGTERM, so that it outlives mlvpipe's clean stop to requeue (mlvpipe installs
 * its own handler, an ignored signal does not stay ignored for it). */
static const char *run_prefix(const farm_plan *p)
{
    return p->requeues ? "trap '' TERM\n" : "exec ";
}

static void sbatch_end(mp_text *t, const char *var)
{
    mp_text_printf(t, "MLVPIPE_JOB\n)\n%s=${%s%%%%;*}\n", var, var);
}

/* Options of one sbatch call, quoted: job name and log file. */
static void sbatch_opts(const farm_plan *p, mp_text *o, const char *step, const char *log)
{
    shell_wordf(o, "--job-name=mlvpipe-%s-%s", p->name, step);
    mp_text_printf(o, " ");
    shell_wordf(o, "--output=%s/%s_logs/%s_%s", p->output, p->name, p->name, log);
}

static mp_status render_slurm(const farm_plan *p, mp_text *t, mp_error *err)
{
    words w = {0};
    mp_text opts = {0};
    shell_header(p, "Slurm", t);
    mp_text_printf(t, "# Submits analyze -> convert array (afterok) -> final step (afterok) "
                      "and prints the job ids.\n");

    sbatch_opts(p, &opts, "analyze", "analyze_%j.log");
    sbatch_script(p, t, "analyze", opts.data ? opts.data : "", 1);
    analyze_words(p, &w);
    mp_text_printf(t, "%s", run_prefix(p));
    shell_words(t, &w);
    requeue_tail(p, t);
    sbatch_end(t, "analyze");
    words_free(&w);
    mp_text_free(&opts);

    mp_text_printf(&opts, "--array=0-%" PRIu32, p->chunk_count - 1);
    if (p->throttle)
        mp_text_printf(&opts, "%%%" PRIu32, p->throttle);
    mp_text_printf(&opts, " --dependency=afterok:\"$analyze\" --kill-on-invalid-dep=yes ");
    sbatch_opts(p, &opts, "convert", "convert_%A_%a.log");
    sbatch_script(p, t, "convert", opts.data ? opts.data : "", 2);
    mp_text_free(&opts);
    mp_text_printf(t, "frames=(");
    shell_ranges(t, p);
    mp_text_printf(t, ")\n");
    if (is_movie(p)) {
        mp_text_printf(t, "segments=(");
        if (shell_segments(t, p, err) != MP_OK)
            return err->code;
        mp_text_printf(t, ")\n");
    }
    convert_words(p, &w);
    mp_text_printf(t, "%s", run_prefix(p));
    shell_words(t, &w);
    mp_text_printf(t, " --frames \"${frames[$SLURM_ARRAY_TASK_ID]}\"%s",
                   is_movie(p) ? " -o \"${segments[$SLURM_ARRAY_TASK_ID]}\"" : "");
    requeue_tail(p, t);
    sbatch_end(t, "convert");
    words_free(&w);

    int final = final_words(p, &w, err);
    if (final < 0)
        return err->code;
    if (final) {
        mp_text_printf(&opts, "--dependency=afterok:\"$convert\" --kill-on-invalid-dep=yes ");
        sbatch_opts(p, &opts, is_movie(p) ? "join" : "audio", "final_%j.log");
        sbatch_script(p, t, "final", opts.data ? opts.data : "", 0);
        /* the audio step is a convert with the tasks' --threads: as many CPUs (join is one) */
        if (!is_movie(p) && p->threads)
            mp_text_printf(t, "#SBATCH --cpus-per-task=%" PRIu32 "\n", p->threads);
        mp_text_free(&opts);
        mp_text_printf(t, "exec ");
        shell_words(t, &w);
        mp_text_printf(t, "\n");
        sbatch_end(t, "final");
        mp_text_printf(t, "echo \"$analyze $convert $final\"\n");
    } else {
        mp_text_printf(t, "echo \"$analyze $convert\"\n");
    }
    mp_status st = words_finish(&w, opts.failed, err);
    mp_text_free(&opts);
    return st;
}

static mp_status render_parallel(const farm_plan *p, mp_text *t, mp_error *err)
{
    words w = {0};
    shell_header(p, "GNU parallel", t);
    mp_text_printf(t, "# After a failure: fix the cause and run this script again.\n");
    analyze_words(p, &w);
    shell_words(t, &w);
    mp_text_printf(t, "\n");
    words_free(&w);

    /* -q: parallel quotes every word itself, also for --sshlogin hosts. */
    mp_text_printf(t, "parallel --halt now,fail=1 -q");
    if (p->sshlogin) {
        mp_text_printf(t, " --sshlogin ");
        mp_farm_shell_quote(t, p->sshlogin);
    }
    if (p->jobs)
        mp_text_printf(t, " --jobs %" PRIu32, p->jobs);
    mp_text_printf(t, " --joblog ");
    shell_wordf(t, "%s/%s_logs/%s_parallel.joblog", p->output, p->name, p->name);
    mp_text_printf(t, " ");
    convert_words(p, &w);
    shell_words(t, &w);
    words_free(&w);
    mp_text_printf(t, " --frames {1}%s \\\n  ::: ", is_movie(p) ? " -o {2}" : "");
    shell_ranges(t, p);
    if (is_movie(p)) {
        mp_text_printf(t, " \\\n  :::+ ");
        if (shell_segments(t, p, err) != MP_OK)
            return err->code;
    }
    mp_text_printf(t, "\n");

    int final = final_words(p, &w, err);
    if (final < 0)
        return err->code;
    if (final) {
        shell_words(t, &w);
        mp_text_printf(t, "\n");
    }
    return words_finish(&w, 0, err);
}

/* ---- JSON ------------------------------------------------------------------------------- */

static void json_argv(mp_text *t, const words *w)
{
    mp_text_printf(t, "\"argv\": [");
    for (uint32_t i = 0; i < w->n; i++) {
        mp_text_printf(t, "%s", i ? ", " : "");
        mp_text_json_string(t, w->w[i]);
    }
    mp_text_printf(t, "]");
}

static void json_task_id(mp_text *t, const farm_chunk *c)
{
    mp_text_printf(t, "\"convert_%06" PRIu32 "-%06" PRIu32 "\"", c->first, c->last);
}

static mp_status render_json(const farm_plan *p, mp_text *t, mp_error *err)
{
    words w = {0};
    char path[4096];
    mp_text_printf(t, "{\n  \"format\": \"mlvpipe-plan\",\n  \"format_version\": 1,\n"
                      "  \"tool\": ");
    mp_text_json_string(t, p->tool);
    mp_text_printf(t, ",\n  \"clip\": {\"path\": ");
    mp_text_json_string(t, p->clip);
    mp_text_printf(t, ", \"guid\": \"%016" PRIx64 "\", \"frame_count\": %" PRIu32
                      ", \"first_frame\": %" PRIu32 ", \"last_frame\": %" PRIu32
                      ", \"audio\": %s},\n",
                   p->guid, p->frame_count, p->first_frame, p->last_frame,
                   p->has_audio ? "true" : "false");
    mp_text_printf(t, "  \"output\": ");
    mp_text_json_string(t, p->output);
    /* Folders the engine creates before the first task (the tasks do not create them). */
    mp_text_printf(t, ",\n  \"folders\": [");
    mp_text_json_string(t, p->output);
    if (is_movie(p)) {
        if (mp_farm_segment_dir(p, path, sizeof path, err) != MP_OK)
            return err->code;
        mp_text_printf(t, ", ");
        mp_text_json_string(t, path);
    }
    mp_text_printf(t, "]");
    mp_text_printf(t, ",\n  \"to\": ");
    mp_text_json_string(t, p->format ? p->format : "dng");
    mp_text_printf(t, ",\n  \"chunk_size\": %" PRIu32 ",\n  \"chunk_count\": %" PRIu32
                      ",\n  \"tasks\": [\n",
                   p->chunk_size, p->chunk_count);

    analyze_words(p, &w);
    mp_text_printf(t, "    {\"id\": \"analyze\", \"kind\": \"analyze\", \"after\": [], "
                      "\"output\": ");
    mp_text_json_string(t, p->levels);
    mp_text_printf(t, ", ");
    json_argv(t, &w);
    mp_text_printf(t, "}");
    words_free(&w);

    for (uint32_t i = 0; i < p->chunk_count; i++) {
        const farm_chunk *c = &p->chunks[i];
        if (chunk_convert_words(p, c, &w, path, err) != MP_OK)
            return err->code;
        mp_text_printf(t, ",\n    {\"id\": ");
        json_task_id(t, c);
        mp_text_printf(t, ", \"kind\": \"convert\", \"after\": [\"analyze\"], \"index\": %" PRIu32
                          ", \"first_frame\": %" PRIu32 ", \"last_frame\": %" PRIu32
                          ", \"frames\": %" PRIu32 ", \"output\": ",
                       i, c->first, c->last, c->frames);
        mp_text_json_string(t, is_movie(p) ? path : p->output);
        mp_text_printf(t, ", ");
        json_argv(t, &w);
        mp_text_printf(t, "}");
        if (w.failed)
            t->failed = 1;
        words_free(&w);
    }

    int final = final_words(p, &w, err);
    if (final < 0)
        return err->code;
    if (final) {
        mp_text_printf(t, ",\n    {\"id\": \"%s\", \"kind\": \"%s\", \"after\": [",
                       is_movie(p) ? "join" : "audio", is_movie(p) ? "join" : "convert");
        for (uint32_t i = 0; i < p->chunk_count; i++) {
            mp_text_printf(t, "%s", i ? ", " : "");
            json_task_id(t, &p->chunks[i]);
        }
        mp_text_printf(t, "], \"output\": ");
        if (is_movie(p) && mp_farm_movie_path(p, path, sizeof path, err) != MP_OK) {
            words_free(&w);
            return err->code;
        }
        mp_text_json_string(t, is_movie(p) ? path : p->output);
        mp_text_printf(t, ", ");
        json_argv(t, &w);
        mp_text_printf(t, "}");
    }
    mp_text_printf(t, "\n  ]\n}\n");
    return words_finish(&w, 0, err);
}

static mp_status check_plan_text(const farm_plan *p, mp_error *err)
{
    const char *fields[] = {p->tool, p->program, p->clip, p->output, p->name, p->levels,
                            p->format ? p->format : "", p->sshlogin ? p->sshlogin : "",
                            p->mem ? p->mem : "", p->dark ? p->dark : "",
                            p->defects_from ? p->defects_from : ""};
    const char *names[] = {"tool", "program path", "clip path", "output path", "clip name",
                           "sidecar path", "--to", "--sshlogin", "--mem", "--dark path",
                           "--defects-from path"};
    mp_status st = MP_OK;
    for (size_t i = 0; st == MP_OK && i < sizeof fields / sizeof fields[0]; i++)
        st = mp_farm_check_text(names[i], fields[i], err);
    for (uint32_t i = 0; st == MP_OK && i < p->extra_count; i++)
        st = mp_farm_check_text("a convert option", p->extra[i], err);
    for (uint32_t i = 0; st == MP_OK && i < p->sbatch_count; i++)
        st = mp_farm_check_text("an --sbatch option", p->sbatch[i], err);
    for (uint32_t i = 0; st == MP_OK && i < p->sbatch_work_count; i++)
        st = mp_farm_check_text("an --sbatch-work option", p->sbatch_work[i], err);
    if (st == MP_OK && p->chunk_count == 0)
        st = mp_error_set(err, MP_ERR_ARG, "plan has no chunks");
    return st;
}

mp_status mp_farm_plan_render(const farm_plan *p, farm_engine e, mp_text *out, mp_error *err)
{
    mp_status st = check_plan_text(p, err);
    if (st != MP_OK)
        return st;
    switch (e) {
    case FARM_SLURM: st = render_slurm(p, out, err); break;
    case FARM_PARALLEL: st = render_parallel(p, out, err); break;
    case FARM_JSON: st = render_json(p, out, err); break;
    }
    if (st == MP_OK && out->failed)
        st = mp_error_set(err, MP_ERR_NOMEM, "plan: no memory for the job description");
    return st;
}
