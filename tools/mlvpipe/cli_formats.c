/* The output formats as convert and plan show and check them, from the one table
 * (encode/formats.h): the only CLI file that reads it. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "encode/formats.h"

static int listed(const mp_format *f, int farm_only)
{
    return !farm_only || f->joinable;
}

void cli_print_formats(FILE *out, int farm_only)
{
    const mp_format *f;
    for (size_t i = 0; (f = mp_format_at(i)); i++)
        if (listed(f, farm_only))
            fprintf(out, "                        %-12s %s\n", f->name, f->summary);
}

/* "dng, prores422hq, ..." into buf, for error messages; stdout_only: those -o - takes. */
static const char *format_names(char *buf, size_t size, int stdout_only, int farm_only)
{
    const mp_format *f;
    size_t n = 0;
    buf[0] = 0;
    for (size_t i = 0; (f = mp_format_at(i)); i++)
        if (listed(f, farm_only) && (!stdout_only || f->to_stdout) && n < size)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", f->name);
    return buf;
}

int cli_check_format(const char *command, const char *name, const char *output, int farm_only,
                     const char **extension)
{
    const mp_format *f = mp_format_find(name);
    char names[256];
    if (!f || !listed(f, farm_only))
        return cli_usage_error(command, "--to %stakes %s, not '%s'", farm_only ? "for a farm " : "",
                               format_names(names, sizeof names, 0, farm_only), name);
    if (output && !strcmp(output, "-") && !f->to_stdout)
        return cli_usage_error(command, "-o - (stdout) is for %s, not %s",
                               format_names(names, sizeof names, 1, farm_only), name);
    if (extension)
        *extension = f->sequence ? NULL : f->extension;
    return EXIT_OK;
}
