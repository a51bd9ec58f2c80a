/* convert's command line as a parser and a checker of its own, so that plan validates the
 * options after its "--" exactly as each farm task's convert will. The options themselves
 * are rows of the option table (cli_options.h). */
#ifndef MLVPIPE_CLI_CONVERT_H
#define MLVPIPE_CLI_CONVERT_H

#include <mlvpipe/mlvpipe.h>

#include "cli_batch.h"
#include "cli_options.h"
#include "cli_run.h"

typedef struct cli_convert_args {
    mlvpipe_convert_settings o;
    mlvpipe_movie_settings movie;
    const char *to;                   /* --to as given, NULL: from -o, else dng */
    cli_progress_mode mode;
    double progress_every;
    int dng_16bit;
    int sequence;                     /* --sequence: a folder operand is one clip */
    int help;                         /* --help given: print the usage, nothing else */
    unsigned char given[CLI_MAX_OPTIONS];   /* options given, by row of cli_options */
    char **operands;                  /* the clips and folders */
    int operand_count;
} cli_convert_args;

/* Parses argv (argv[0]: the command's name) with getopt_long: EXIT_OK or the usage error of
 * command. */
int cli_convert_parse(const char *command, int argc, char **argv, cli_convert_args *a);
/* The first option given in both a and b (abbreviated or not; "-o" for -o/--output, else
 * its long name without the dashes), NULL if none. */
const char *cli_convert_given_both(const cli_convert_args *a, const cli_convert_args *b);
/* The checks that need every option and the clips: -o, the format (from --to or -o's
 * extension), options the format does not take, exclusive options. EXIT_OK or the usage
 * error of command. */
int cli_convert_check(const char *command, cli_convert_args *a, const cli_clips *clips);

#endif
