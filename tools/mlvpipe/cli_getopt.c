/* The option table at work (cli_options.h): getopt_long rows built from it, each value
 * parsed into its field, the checks of the rows given, and the options part of --help. */
#include <getopt.h>
#include <string.h>

#include "cli_options.h"
#include "cli_run.h"

/* getopt_long's value for row i when it has no short name. */
#define ROW_VALUE 256

static int row_count(void)
{
    int n = 0;
    while (cli_options[n].name)
        n++;
    return n;
}

static int takes_part(const cli_option *opt, unsigned command)
{
    return (opt->commands & command) && opt->kind != CLI_LABEL;
}

static int pick(const cli_option *opt, const char *arg, int *out)
{
    for (int i = 0; opt->choices[i]; i++)
        if (!strcmp(arg, opt->choices[i])) {
            *out = opt->values[i];
            return 1;
        }
    return 0;
}

/* The value of one option into its field of args. */
static int take(const cli_option *opt, const char *name, const char *arg, void *args)
{
    void *field = (char *)args + opt->at;
    uint32_t n;
    int choice;
    switch (opt->kind) {
    case CLI_SET: memcpy(field, &opt->value, sizeof opt->value); break;
    case CLI_TEXT: memcpy(field, &arg, sizeof arg); break;
    case CLI_UINT:
        if (!cli_parse_uint(arg, opt->min, opt->max, &n))
            return cli_value_error(opt, name, arg);
        memcpy(field, &n, sizeof n);
        break;
    case CLI_CHOICE:
        if (!pick(opt, arg, &choice))
            return cli_value_error(opt, name, arg);
        memcpy(field, &choice, sizeof choice);
        break;
    case CLI_PARSE: return opt->parse(opt, name, arg, field);
    case CLI_HELP:
    case CLI_LABEL: break;
    }
    return EXIT_OK;
}

int cli_options_parse(unsigned command, const char *name, int argc, char **argv, void *args,
                      cli_parsed *parsed, void (*usage)(FILE *out))
{
    struct option rows[CLI_MAX_OPTIONS + 1];
    char shorts[2 * CLI_MAX_OPTIONS + sizeof CLI_COMMON_SHORT] = CLI_COMMON_SHORT;
    int n = 0, total = row_count();
    memset(parsed, 0, sizeof *parsed);
    if (total > CLI_MAX_OPTIONS) {
        cli_log(MLVPIPE_LOG_ERROR, "the option table has %d rows, more than CLI_MAX_OPTIONS",
                total);
        return EXIT_INTERNAL;
    }
    for (int i = 0; i < total; i++) {
        const cli_option *opt = &cli_options[i];
        if (!takes_part(opt, command))
            continue;
        int has_arg = opt->kind == CLI_SET || opt->kind == CLI_HELP ? no_argument
                                                                     : required_argument;
        rows[n++] = (struct option){opt->name, has_arg, NULL,
                                    opt->short_name ? opt->short_name : ROW_VALUE + i};
        if (opt->short_name && opt->kind != CLI_HELP) {
            size_t len = strlen(shorts);
            shorts[len] = opt->short_name;
            strcpy(shorts + len + 1, has_arg == required_argument ? ":" : "");
        }
    }
    rows[n] = (struct option){NULL, 0, NULL, 0};
    /* 0, not 1: glibc then starts afresh, forgetting where a previous parse (plan parses
     * several command lines) stopped inside a cluster of short options such as -vq. */
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, shorts, rows, NULL)) != -1) {
        if (c == 'v' || c == 'q') {
            cli_verbosity_option(c);
            continue;
        }
        int row = -1;
        for (int i = 0; i < total && row < 0; i++)
            if (takes_part(&cli_options[i], command) &&
                (c == ROW_VALUE + i || (c < ROW_VALUE && c == cli_options[i].short_name)))
                row = i;
        if (row < 0)
            return cli_option_error(name, c, argv);
        parsed->given[row] = 1;
        if (cli_options[row].kind == CLI_HELP) {
            parsed->help = 1;
            if (usage)
                usage(stdout);
            return EXIT_OK;
        }
        int rc = take(&cli_options[row], name, optarg, args);
        if (rc)
            return rc;
    }
    parsed->operands = argv + optind;   /* getopt_long moved them to the end */
    parsed->operand_count = argc - optind;
    return EXIT_OK;
}

int cli_options_given(unsigned command, const unsigned char *given, const char *option)
{
    for (int i = 0; cli_options[i].name; i++)
        if (takes_part(&cli_options[i], command) && !strcmp(cli_options[i].name, option))
            return given[i];
    return 0;
}

const cli_option *cli_options_given_both(unsigned command, const unsigned char *a,
                                         const unsigned char *b)
{
    for (int i = 0; cli_options[i].name; i++)
        if (takes_part(&cli_options[i], command) && a[i] && b[i])
            return &cli_options[i];
    return NULL;
}

int cli_options_check(unsigned command, const char *name, const unsigned char *given,
                      const char *format)
{
    int rc;
    char option[64];
    for (int i = 0; cli_options[i].name; i++) {
        const cli_option *opt = &cli_options[i];
        if (!takes_part(opt, command) || !given[i] || !opt->scoped)
            continue;
        snprintf(option, sizeof option, "--%s", opt->name);
        if ((rc = cli_check_applies(name, format, option, opt->does, opt->scope)))
            return rc;
    }
    for (int i = 0; cli_options[i].name; i++) {
        const cli_option *opt = &cli_options[i];
        if (takes_part(opt, command) && given[i] && opt->excludes &&
            cli_options_given(command, given, opt->excludes))
            return cli_usage_error(name, "--%s and --%s exclude each other", opt->name,
                                   opt->excludes);
    }
    return EXIT_OK;
}

void cli_options_print(FILE *out, unsigned command, int column)
{
    const char *section = NULL;
    for (int i = 0; cli_options[i].name; i++) {
        const cli_option *opt = &cli_options[i];
        if (!(opt->commands & command))
            continue;
        if (opt->section && (!section || strcmp(section, opt->section)))
            fprintf(out, "%s:\n", opt->section);
        section = opt->section;
        int len;
        if (opt->kind == CLI_LABEL)
            len = fprintf(out, "  %s", opt->name);
        else if (opt->short_name)
            len = fprintf(out, "  -%c, --%s%s%s", opt->short_name, opt->name,
                          opt->arg ? " " : "", opt->arg ? opt->arg : "");
        else
            len = fprintf(out, "      --%s%s%s", opt->name, opt->arg ? " " : "",
                          opt->arg ? opt->arg : "");
        if (len >= column) {
            fputc('\n', out);
            len = 0;
        }
        for (const char *line = opt->help; line;) {
            const char *end = strchr(line, '\n');
            int size = end ? (int)(end - line) : (int)strlen(line);
            if (size == 1 && line[0] == '\f')
                cli_print_formats(out, command == CLI_PLAN);
            else
                fprintf(out, "%*s%.*s\n", column - len, "", size, line);
            len = 0;
            line = end ? end + 1 : NULL;
        }
    }
}
