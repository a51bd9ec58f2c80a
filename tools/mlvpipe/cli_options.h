/* The option table (cli_options.c): one row per option of a command, from which come the
 * getopt_long rows, the parsing and range checks into the command's settings, the options
 * part of --help (and so the manual page, doc/gen_man.py), the formats an option applies to
 * and the options it excludes. doc/architecture.md 7 says how to add one. */
#ifndef MLVPIPE_CLI_OPTIONS_H
#define MLVPIPE_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

/* The commands whose options are in the table, as bits of cli_option.commands. */
enum {
    CLI_CONVERT = 1 << 0,
    CLI_ANALYZE = 1 << 1,
    CLI_PLAN = 1 << 2,
    CLI_JOIN = 1 << 3,
    CLI_REPORT = 1 << 4,
    CLI_MOUNT = 1 << 5,      /* mount's own options; it also takes CLI_CONVERT's */
    CLI_INFO = 1 << 6
};

typedef enum cli_kind {
    CLI_SET,         /* no value: the int at `at` becomes `value` */
    CLI_TEXT,        /* the value as given, into the const char * at `at` */
    CLI_UINT,        /* a whole number in [min, max] into the 32-bit integer at `at` */
    CLI_CHOICE,      /* one of `choices`: the matching `values` entry into the int at `at` */
    CLI_PARSE,       /* parse() does it */
    CLI_HELP,        /* -h/--help */
    CLI_LABEL        /* not an option: a line of --help only (plan's "-- ARGS") */
} cli_kind;

typedef struct cli_option cli_option;
struct cli_option {
    unsigned commands;            /* CLI_CONVERT | ...: the commands that take it */
    const char *name;             /* without the dashes; a CLI_LABEL's whole label */
    char short_name;              /* 'o' for -o, else 0 */
    const char *arg;              /* the value's name in --help (every kind but CLI_SET and
                                   * CLI_HELP takes a value) */
    const char *section;          /* --help's heading above it; NULL: the command's options */
    const char *help;             /* --help's text, lines apart by '\n'; a line "\f" is where
                                   * the --to formats are listed */
    cli_kind kind;
    size_t at;                    /* offset of the field in the command's arguments
                                   * (cli_convert_args, cli_analyze_args ...) */
    int value;                    /* CLI_SET */
    uint32_t min, max;            /* CLI_UINT */
    const char *const *choices;   /* CLI_CHOICE: NULL-terminated, with their values */
    const int *values;
    /* CLI_PARSE: EXIT_OK, or the usage error (cli_value_error for the usual one) */
    int (*parse)(const cli_option *opt, const char *command, const char *arg, void *field);
    const char *takes;            /* what a bad value's error says: "--NAME TAKES, not 'V'" */
    /* convert: only the formats in scope take it (a usage error elsewhere, cli_check_applies
     * with `does`) */
    int scoped;
    cli_scope scope;
    const char *does;
    const char *excludes;         /* the long name of an option not to give with it */
};

/* plan's arguments: its settings and what it makes absolute or checks before they get
 * there. */
typedef struct cli_plan_args {
    mlvpipe_plan_settings p;
    const char *output, *levels, *program, *dark, *defects_from;
} cli_plan_args;

/* info's arguments. */
typedef struct cli_info_args {
    int json, defects;
} cli_info_args;

/* report's arguments: its settings (first, so that their rows' offsets hold) and what the
 * CLI does with the operands. */
typedef struct cli_report_args {
    mlvpipe_report_settings s;
    int sequence;                 /* a folder of photos is one clip */
} cli_report_args;

/* The table, ended by a row of NULL name. */
extern const cli_option cli_options[];

#define CLI_MAX_OPTIONS 160

/* What a parse found, besides the settings the rows wrote. */
typedef struct cli_parsed {
    int help;                     /* --help given: print the usage, nothing else */
    unsigned char given[CLI_MAX_OPTIONS];   /* by row of cli_options */
    char **operands;              /* what is not an option, moved to the end of argv */
    int operand_count;
} cli_parsed;

/* Parses argv (argv[0]: the command's name) with getopt_long against the rows of command
 * (a CLI_* bit), writing each option's field in args (the command's arguments struct), also
 * -v/-q; --help stops there and prints usage (when not NULL) on stdout. EXIT_OK, or the
 * usage error of name. */
int cli_options_parse(unsigned command, const char *name, int argc, char **argv, void *args,
                      cli_parsed *parsed, void (*usage)(FILE *out));
/* The functions below take cli_parsed.given. Whether option (a long name) of command was
 * given: */
int cli_options_given(unsigned command, const unsigned char *given, const char *option);
/* The first row of command given in both a and b, NULL if none. */
const cli_option *cli_options_given_both(unsigned command, const unsigned char *a,
                                         const unsigned char *b);
/* The checks of the rows given: a format that does not take one (scoped: convert's format),
 * two that exclude each other. EXIT_OK or the usage error of name. */
int cli_options_check(unsigned command, const char *name, const unsigned char *given,
                      const char *format);
/* The options part of command's --help, text starting at column `column`. */
void cli_options_print(FILE *out, unsigned command, int column);
/* "--NAME TAKES, not 'ARG'" as the usage error of command; returns EXIT_USAGE. */
int cli_value_error(const cli_option *opt, const char *command, const char *arg);

#endif
