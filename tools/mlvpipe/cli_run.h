/* Helpers shared by the long-running subcommands (convert, analyze): a cancel flag raised by
 * SIGINT/SIGTERM, progress output (terminal line, JSON lines or nothing), option values. */
#ifndef MLVPIPE_CLI_RUN_H
#define MLVPIPE_CLI_RUN_H

#include <stdatomic.h>
#include <stdint.h>

#include <mlvpipe/mlvpipe.h>

/* Set by SIGINT/SIGTERM once cli_install_signals() ran; a second signal kills outright. */
extern atomic_int cli_cancel;
void cli_install_signals(void);

typedef enum cli_progress_mode { CLI_PROGRESS_AUTO, CLI_PROGRESS_JSON, CLI_PROGRESS_NONE }
    cli_progress_mode;

/* Parses "auto", "json" or "none"; returns 0 on anything else. */
int cli_parse_progress(const char *s, cli_progress_mode *out);

typedef struct cli_progress {
    int mode;                   /* resolved: CLI_PROGRESS_JSON, _AUTO (terminal) or _NONE */
    double last_line_s;         /* when the terminal line was last printed */
    int line_shown;
} cli_progress;

/* Resolves auto to a terminal line when stderr is a terminal (and not -q), else none. */
void cli_progress_init(cli_progress *p, cli_progress_mode mode);
/* An mlvpipe_progress_fn: prints ev on stderr as the mode says. opaque is the cli_progress. */
void cli_progress_print(void *opaque, const mlvpipe_progress *ev);

/* Parses a whole decimal number in [min, max]; returns 0 on anything else. */
int cli_parse_uint(const char *s, uint32_t min, uint32_t max, uint32_t *out);

/* The options analyze, convert and plan share, with one wording of their errors: each parses
 * arg into *out and returns EXIT_OK, or reports the usage error of command and returns
 * EXIT_USAGE (leaving *out as it was). */
int cli_option_threads(const char *command, const char *arg, uint32_t *out);   /* 1..256 */
int cli_option_phase(const char *command, const char *arg, int *out);          /* 0..3 */

/* The one CLIP operand among operands[0..count) into *clip (EXIT_OK), else the usage error
 * of command (none or more than one) and EXIT_USAGE. */
int cli_one_clip(const char *command, char *const *operands, int count, const char **clip);

#endif
