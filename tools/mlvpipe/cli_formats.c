/* The output formats as convert and plan show and check them, from the one table
 * (mlvpipe_format_at): the only CLI file that reads it. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

static int listed(const mlvpipe_format *f, int farm_only)
{
    return !farm_only || f->joinable;
}

/* A movie written as one file (MOV, MKV, NUT), as opposed to frames, text or nothing. */
static int is_movie(const mlvpipe_format *f)
{
    return f->developed && !f->sequence && f->extension;
}

void cli_print_formats(FILE *out, int farm_only)
{
    const mlvpipe_format *f;
    for (size_t i = 0; (f = mlvpipe_format_at(i)); i++)
        if (listed(f, farm_only))
            fprintf(out, "                        %-14s %s\n", f->name, f->summary);
}

/* "dng, prores422hq, ..." into buf, for error messages; stdout_only: those -o - takes. */
static const char *format_names(char *buf, size_t size, int stdout_only, int farm_only)
{
    const mlvpipe_format *f;
    size_t n = 0;
    buf[0] = 0;
    for (size_t i = 0; (f = mlvpipe_format_at(i)); i++)
        if (listed(f, farm_only) && (!stdout_only || f->to_stdout) && n < size)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", f->name);
    return buf;
}

int cli_format_is_sequence(const char *name)
{
    const mlvpipe_format *f = mlvpipe_format_find(name);
    return f && f->sequence;
}

int cli_check_format(const char *command, const char *name, const char *output, int farm_only,
                     const char **extension)
{
    const mlvpipe_format *f = mlvpipe_format_find(name);
    char names[256];
    if (f && !listed(f, farm_only) && is_movie(f) && !f->to_stdout)   /* review copies */
        return cli_usage_error(command, "--to %s: farm chunks do not join into one %s (its "
                               "frames are predicted from earlier ones); convert it in one run, or "
                               "plan --to prores422proxy and convert the joined movie",
                               name, f->container);
    if (!f || !listed(f, farm_only))
        return cli_usage_error(command, "--to %stakes %s, not '%s'", farm_only ? "for a farm " : "",
                               format_names(names, sizeof names, 0, farm_only), name);
    if (output && !strcmp(output, "-") && !f->to_stdout)
        return cli_usage_error(command, "-o - (stdout) is for %s, not %s%s%s%s",
                               format_names(names, sizeof names, 1, farm_only), name,
                               is_movie(f) ? ": " : "", is_movie(f) ? f->container : "",
                               is_movie(f) ? " writes its index after the frames, so it needs "
                                             "a file" : "");
    if (extension)
        *extension = f->sequence ? NULL : f->extension;
    return EXIT_OK;
}

static int in_scope(const mlvpipe_format *f, cli_scope scope)
{
    switch (scope) {
    case CLI_SCOPE_DEVELOPED: return f->developed;
    case CLI_SCOPE_RAW_SEQUENCE: return !f->developed && f->sequence;
    case CLI_SCOPE_SEQUENCE: return f->sequence;
    case CLI_SCOPE_WAV: return f->audio == MLVPIPE_FORMAT_AUDIO_BESIDE;
    case CLI_SCOPE_PRORES: return f->prores;
    }
    return 0;
}

/* What f does where an option of scope would need something else. */
static const char *instead(const mlvpipe_format *f, cli_scope scope, char *buf, size_t size)
{
    switch (scope) {
    case CLI_SCOPE_DEVELOPED:
        return "takes the raw mosaic, undeveloped";
    case CLI_SCOPE_RAW_SEQUENCE:
        return f->developed ? "writes developed RGB, not DNG" : "writes no DNG";
    case CLI_SCOPE_SEQUENCE:
        if (!f->extension)
            return f->to_stdout ? "writes one stream, not a folder of files" : "writes no file";
        snprintf(buf, size, "writes one .%s file", f->extension);
        return buf;
    case CLI_SCOPE_WAV:
        return f->audio == MLVPIPE_FORMAT_AUDIO_MUXED ? "carries the audio of its frames in "
                                                        "the file, whatever --frames says"
                                                      : "writes no audio";
    case CLI_SCOPE_PRORES:
        return is_movie(f) ? "is not ProRes" : "writes no movie";
    }
    return "";
}

int cli_check_applies(const char *command, const char *format, const char *option,
                      const char *does, cli_scope scope)
{
    const mlvpipe_format *f = mlvpipe_format_find(format), *g;
    if (!f || in_scope(f, scope))
        return EXIT_OK;
    char names[256], what[64];
    size_t n = 0;
    names[0] = 0;
    for (size_t i = 0; (g = mlvpipe_format_at(i)); i++)
        if (in_scope(g, scope) && n < sizeof names)
            n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", n ? ", " : "", g->name);
    return cli_usage_error(command, "%s %s (--to %s); --to %s %s", option, does, names, format,
                           instead(f, scope, what, sizeof what));
}

/* Containers people name with -o that mlvpipe does not write (ffmpeg makes them from a pipe). */
static const struct { const char *ext, *container; } foreign[] = {
    {"m4v", "MP4"}, {"mxf", "MXF"}, {"avi", "AVI"}, {"webm", "WebM"},
    {"y4m", "YUV4MPEG"}};

/* The first movie of the table written with extension ext, NULL if none. */
static const mlvpipe_format *movie_for_extension(const char *ext)
{
    const mlvpipe_format *f;
    for (size_t i = 0; (f = mlvpipe_format_at(i)); i++)
        if (is_movie(f) && !strcasecmp(f->extension, ext))
            return f;
    return NULL;
}

int cli_format_from_output(const char *command, const char *to, const char *output,
                           const char **format)
{
    const char *slash = strrchr(output, '/');
    const char *dot = strrchr(slash ? slash + 1 : output, '.');
    const char *ext = dot && dot[1] ? dot + 1 : "";
    for (size_t i = 0; i < sizeof foreign / sizeof foreign[0]; i++)
        if (!strcasecmp(ext, foreign[i].ext))
            return cli_usage_error(command, "-o %s: mlvpipe does not write %s (.%s) files; "
                                   "movies are .mov (--to prores422hq and the other ProRes and DNxHR), .mp4 "
                                   "(h264, h265), .mkv (ffv1) or .nut (nut); for other containers pipe into "
                                   "ffmpeg (--to nut -o -)", output, foreign[i].container, ext);
    const mlvpipe_format *named = movie_for_extension(ext);
    const mlvpipe_format *given = mlvpipe_format_find(to);
    if (named && given && (given->sequence || (is_movie(given) &&
                                               strcasecmp(given->extension, ext)))) {
        char writes[64];
        if (given->sequence)
            snprintf(writes, sizeof writes, "a %s sequence (a folder of .%s files)",
                     given->container, given->extension);
        else
            snprintf(writes, sizeof writes, "%s (.%s)", given->container, given->extension);
        return cli_usage_error(command, "-o %s names a %s file (.%s), but --to %s writes %s",
                               output, named->container, ext, to, writes);
    }
    if (to)
        *format = to;
    else if (named)
        *format = named->name;
    return EXIT_OK;
}
