#include "cli_batch.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"

/* Clips (.MLV, .RAW) and raw photos (.CR2, .DNG) by name. */
static int is_clip_name(const char *name)
{
    static const char *const ext[] = {".mlv", ".raw", ".cr2", ".dng"};
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; name[0] != '.' && dot && i < sizeof ext / sizeof ext[0]; i++)
        if (!strcasecmp(dot, ext[i]))
            return 1;
    return 0;
}

static int clip_entry(const struct dirent *e)
{
    return is_clip_name(e->d_name);
}

static int add(cli_clips *c, char *path)
{
    char **grown = path ? realloc(c->path, (size_t)(c->count + 1) * sizeof *grown) : NULL;
    if (!grown) {
        free(path);
        return 0;
    }
    c->path = grown;
    c->path[c->count++] = path;
    return 1;
}

int cli_clips_add_folder(cli_clips *c, const char *dir)
{
    struct dirent **list;
    int n = scandir(dir, &list, clip_entry, alphasort);
    if (n < 0)
        return 0;
    int ok = 1;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(dir) + strlen(list[i]->d_name) + 2;
        char *path = malloc(len);
        if (path)
            snprintf(path, len, "%s/%s", dir, list[i]->d_name);
        ok = ok && add(c, path);
        free(list[i]);
    }
    free(list);
    return ok ? n : -1;
}

/* The index of an earlier clip that is the same file as clip i, or -1. */
static int same_file(const cli_clips *c, int i)
{
    struct stat a, b;
    if (stat(c->path[i], &a))
        return -1;
    for (int k = 0; k < i; k++)
        if (!stat(c->path[k], &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
            return k;
    return -1;
}

int cli_clips_collect(const char *command, char *const *operands, int count, int sequence,
                      cli_clips *out)
{
    *out = (cli_clips){.batch = count > 1};
    if (count == 0)
        return cli_usage_error(command, "no clip given");
    for (int i = 0; i < count; i++) {
        struct stat sb;
        int n = 1;
        if (!sequence && !stat(operands[i], &sb) && S_ISDIR(sb.st_mode)) {
            out->batch = 1;
            n = cli_clips_add_folder(out, operands[i]);
        } else if (!add(out, strdup(operands[i]))) {
            n = -1;
        }
        if (n <= 0) {
            cli_clips_free(out);
            if (n < 0) {
                cli_log(MLVPIPE_LOG_ERROR, "out of memory");
                return EXIT_INTERNAL;
            }
            return cli_usage_error(command, "%s: a folder without clips or raw photos "
                                   "(.MLV, .RAW, .CR2, .DNG)",
                                   operands[i]);
        }
    }
    for (int i = 1; i < out->count; i++) {
        int k = same_file(out, i);
        if (k >= 0) {
            int rc = cli_usage_error(command, "%s is given twice (also as %s): its output would "
                                     "be written twice", out->path[i], out->path[k]);
            cli_clips_free(out);
            return rc;
        }
    }
    return EXIT_OK;
}

void cli_clips_free(cli_clips *c)
{
    for (int i = 0; i < c->count; i++)
        free(c->path[i]);
    free(c->path);
    *c = (cli_clips){0};
}

const char *cli_exit_name(int code)
{
    static const char *const names[] = {
        [EXIT_OK] = "ok", [EXIT_INTERNAL] = "exit 1 (internal error)",
        [EXIT_USAGE] = "exit 2 (usage)", [EXIT_INPUT] = "exit 3 (input unreadable or unsupported)",
        [EXIT_DAMAGED] = "exit 4 (input damaged, intact frames written)",
        [EXIT_OUTPUT] = "exit 5 (output failed)", [EXIT_INTERRUPTED] = "exit 6 (interrupted)"};
    return code >= 0 && code <= EXIT_INTERRUPTED ? names[code] : "exit ?";
}

int cli_exit_worse(int a, int b)
{
    static const int rank[] = {[EXIT_OK] = 0, [EXIT_DAMAGED] = 1, [EXIT_INPUT] = 2,
                               [EXIT_USAGE] = 3, [EXIT_OUTPUT] = 4, [EXIT_INTERNAL] = 5,
                               [EXIT_INTERRUPTED] = 6};
    return rank[b] > rank[a] ? b : a;
}
