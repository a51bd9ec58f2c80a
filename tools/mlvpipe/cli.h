/* The mlvpipe command-line tool: shared exit codes, logging and helpers for subcommands. */
#ifndef MLVPIPE_CLI_H
#define MLVPIPE_CLI_H

#include <mlvpipe/mlvpipe.h>

/* Exit codes, documented in README.md ("EXIT STATUS"); farms key retries on them. */
enum {
    EXIT_OK = 0,
    EXIT_INTERNAL = 1,     /* a bug or an unexpected failure */
    EXIT_USAGE = 2,        /* bad command line */
    EXIT_INPUT = 3,        /* input missing, unreadable, not a clip or unsupported */
    EXIT_DAMAGED = 4,      /* input damaged: every intact frame was processed, damage reported */
    EXIT_OUTPUT = 5,       /* output could not be written (permissions, full disk, closed pipe) */
    EXIT_INTERRUPTED = 6   /* stopped by SIGINT/SIGTERM; finished outputs are complete */
};

/* Prints "mlvpipe COMMAND: MESSAGE" and a pointer to 'mlvpipe COMMAND --help' on stderr;
 * returns EXIT_USAGE, so a subcommand's option parsing can `return cli_usage_error(...)`. */
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* An output in the way is a usage error found before any work (exit 2, never the farm's
 * "retry elsewhere" 5): an existing file without --overwrite, or a folder where the file
 * goes. NULL (no such output) and "-" (standard output) pass; what else is no regular file
 * (a FIFO, a device) the library refuses when it opens the output. */
int cli_check_new_output(const char *command, const char *path, int overwrite);

/* "ok", "exit 4 (input damaged)" ...: an exit status for reports. */
const char *cli_exit_name(int code);

/* Maps a library status to the exit code above, for errors about the input. */
int cli_exit_for_input(mlvpipe_status st);

/* The CLI's logger prints "mlvpipe: level: msg" on stderr; verbosity set by -v/-q. */
extern int cli_verbosity;   /* 0 quiet (errors only), 1 default (warnings), 2 info, 3 debug */
extern const mlvpipe_logger cli_api_logger;
void cli_log(mlvpipe_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s with its control characters and DEL as \xNN, in buf (cut to size): every message line is
 * printed so, since names and paths come from files and folders (an escape sequence in a file
 * name must not drive the terminal, a newline must not forge a line). Returns buf. */
const char *cli_escaped(const char *s, char *buf, size_t size);

/* The --to formats, one per line with their summary, for --help (farm_only: those plan can
 * render in chunks and join). */
void cli_print_formats(FILE *out, int farm_only);
/* EXIT_OK when --to `name` is a format (farm_only: one plan can render in chunks and join)
 * that can write to `output` ("-": standard output; NULL: not checked); else prints the usage
 * error and returns EXIT_USAGE. *extension (if not NULL) gets the single file's extension,
 * NULL for a sequence or a format without one. */
int cli_check_format(const char *command, const char *name, const char *output, int farm_only,
                     const char **extension);
/* 1 when --to `name` writes an image sequence (a folder of files, one per frame). */
int cli_format_is_sequence(const char *name);
/* The format -o's extension names when --to (to) is absent: a movie whose table extension
 * it is (.mov prores422hq, the first of the table; .mkv ffv1; .nut nut), else *format is left
 * alone (DNG folders take any name). With --to, a movie extension that contradicts it, and
 * any time a container mlvpipe does not write (.mp4 ...), is a usage error naming both. */
int cli_format_from_output(const char *command, const char *to, const char *output,
                           const char **format);

/* Which formats take an option, from the format table's properties. */
typedef enum cli_scope {
    CLI_SCOPE_DEVELOPED,      /* formats of developed RGB (not the raw mosaic) */
    CLI_SCOPE_RAW_SEQUENCE,   /* sequences of the raw mosaic: DNG */
    CLI_SCOPE_SEQUENCE,       /* image sequences: one file per frame in a folder */
    CLI_SCOPE_WAV,            /* formats with the clip's audio as a WAV beside the frames */
    CLI_SCOPE_PRORES          /* the ProRes movies */
} cli_scope;
/* EXIT_OK when format (a known --to name) is in scope, else the usage error of command:
 * "OPTION DOES (--to the formats in scope); --to FORMAT what it does instead". */
int cli_check_applies(const char *command, const char *format, const char *option,
                      const char *does, cli_scope scope);

/* Each subcommand: argv[0] is the subcommand name. */
int cmd_info(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_join(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_mount(int argc, char **argv);

#endif
