/* The output formats as convert and plan show them, from the one table (encode/formats.h). */
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

const char *cli_format_names(char *buf, size_t size, int stdout_only, int farm_only)
{
    const mp_format *f;
    size_t n = 0;
    buf[0] = 0;
    for (size_t i = 0; (f = mp_format_at(i)); i++)
        if (listed(f, farm_only) && (!stdout_only || f->to_stdout) && n < size)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", f->name);
    return buf;
}
