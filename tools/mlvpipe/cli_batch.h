/* Batches: convert given several clips, or folders of clips, converts each to its own
 * output, goes on past a clip that fails and reports every clip at the end. */
#ifndef MLVPIPE_CLI_BATCH_H
#define MLVPIPE_CLI_BATCH_H

typedef struct cli_clips {
    char **path;
    int count;
    int batch;       /* several operands, or a folder: outputs named per clip */
} cli_clips;

/* The clips of the operands: a file as it is (a missing one too: its conversion reports
 * it), a folder as its .MLV, .RAW, .CR2 and .DNG files (any case; not the .M00... chunks,
 * which their .MLV brings), sorted by name; with sequence, a folder as one clip (its photos,
 * a timelapse). EXIT_OK, or the usage error of command (no clip, a folder without clips, the
 * same clip twice). */
int cli_clips_collect(const char *command, char *const *operands, int count, int sequence,
                      cli_clips *out);
void cli_clips_free(cli_clips *c);
/* Adds the clips of folder dir (as a folder operand: its .MLV, .RAW, .CR2 and .DNG files),
 * sorted by name: how many, 0 for a folder that cannot be listed, -1 out of memory. */
int cli_clips_add_folder(cli_clips *c, const char *dir);

/* The exit status of a batch so far and one clip's: the worse of the two, from least to
 * most severe 0, 4 (damaged, all intact frames written), 3 (input), 2 (usage), 5 (output),
 * 1 (internal), 6 (interrupted, which also stops the batch). */
int cli_exit_worse(int a, int b);

#endif
