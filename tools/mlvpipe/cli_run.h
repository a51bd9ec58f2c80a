/* Helpers shared by the long-running subcommands (convert, analyze): a cancel flag raised by
 * SIGINT/SIGTERM, progress output (terminal line, JSON lines or nothing), option values. */
#ifndef MLVPIPE_CLI_RUN_H
#define MLVPIPE_CLI_RUN_H

#include <stdatomic.h>
#include <stdint.h>

#include <mlvpipe/mlvpipe.h>

/* SIGINT/SIGTERM handlers are installed before the libraries initialise (cli_run.c); a
 * signal that comes before main chose its command is kept. main then honours them for the
 * commands that watch cli_cancel (a kept signal sets it at once; later ones set it, and a
 * second signal kills outright), or gives the others the default actions (a kept signal is
 * raised again: the process ends as killed by it). */
extern atomic_int cli_cancel;
void cli_honour_signals(void);
void cli_default_signals(void);

typedef enum cli_progress_mode { CLI_PROGRESS_AUTO, CLI_PROGRESS_JSON, CLI_PROGRESS_NONE }
    cli_progress_mode;

typedef struct cli_progress {
    int mode;                   /* resolved: CLI_PROGRESS_JSON, _AUTO (terminal) or _NONE */
    int whole_lines;            /* terminal shared with a downstream program (-o -) */
    double every_s;             /* JSON: a frame event at most this often; 0: every frame */
    double last_line_s;         /* when a line was last printed */
    int line_open;              /* a terminal line without its newline yet ... */
    mlvpipe_progress_kind line_kind;   /* ... of this kind */
} cli_progress;

/* Non-zero while a progress line is open on the terminal (no newline yet): the logger ends
 * it before printing a message. */
extern atomic_int cli_progress_line_open;

/* Resolves auto to a terminal display when stderr is a terminal (and not -q), else none.
 * The display redraws one line ("\r") four times a second; with to_stdout (the output goes
 * to a pipe, whose reader, e.g. ffmpeg, draws its own status line on the same terminal) it
 * prints whole lines every 5 s instead, each clearing the line it starts on, so the other
 * program's line is never written over mid-line. every_s rate-limits JSON frame events (the
 * last frame always has one). */
void cli_progress_init(cli_progress *p, cli_progress_mode mode, int to_stdout, double every_s);
/* An mlvpipe_progress_fn: prints ev on stderr as the mode says. opaque is the cli_progress. */
void cli_progress_print(void *opaque, const mlvpipe_progress *ev);
/* Ends the open terminal line, if any, so that what follows starts on a line of its own. */
void cli_progress_close(cli_progress *p);
/* Parses --progress-every: seconds, 0 to 86400; returns 0 on anything else. */
int cli_parse_seconds(const char *s, double *out);

/* The short options every subcommand takes, for getopt_long: ':' first, so that a missing
 * value is told from an unknown option; -v and -q as before the command. */
#define CLI_COMMON_SHORT ":hvq"
/* -v or -q given after the command: the verbosity, as main() does before it. */
void cli_verbosity_option(int c);
/* The usage error for what getopt_long did not take (c = ':' a missing value, else an
 * unknown option); returns EXIT_USAGE. */
int cli_option_error(const char *command, int c, char **argv);

/* Parses a whole decimal number in [min, max]; returns 0 on anything else. */
int cli_parse_uint(const char *s, uint32_t min, uint32_t max, uint32_t *out);

/* The one CLIP operand among operands[0..count) into *clip (EXIT_OK), else the usage error
 * of command (none or more than one) and EXIT_USAGE. */
int cli_one_clip(const char *command, char *const *operands, int count, const char **clip);

#endif
