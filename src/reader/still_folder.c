/* A folder of raw photos as one clip's files: a timelapse read as a sequence. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "still_internal.h"

/* A frame's chunk index is 16 bits wide. */
#define STILL_FOLDER_MAX 65535u

static int is_photo_name(const struct dirent *e)
{
    const char *dot = strrchr(e->d_name, '.');
    return e->d_name[0] != '.' && dot && (!strcasecmp(dot, ".cr2") || !strcasecmp(dot, ".dng"));
}

mp_status mp_still_find_folder(mlv_clip *c, const char *path, mp_error *err)
{
    struct dirent **list;
    int n = scandir(path, &list, is_photo_name, alphasort);
    if (n < 0)
        return mp_error_set(err, MP_ERR_IO, "%s: cannot list the folder", path);
    mp_status st = MP_OK;
    if (n == 0)
        st = mp_error_set(err, MP_ERR_FORMAT, "%s: a folder without raw photos (.CR2, .DNG)",
                          path);
    else if ((unsigned)n > STILL_FOLDER_MAX)
        st = mp_error_set(err, MP_ERR_NOMEM, "%s: %d photos, more than a sequence may hold "
                          "(%u)", path, n, STILL_FOLDER_MAX);
    else if (!(c->chunks = calloc((size_t)n, sizeof *c->chunks)))
        st = mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
    for (int i = 0; i < n; i++) {
        if (st == MP_OK) {
            mlv_chunk *ch = &c->chunks[c->info.chunk_count];
            size_t len = strlen(path) + strlen(list[i]->d_name) + 2;
            struct stat sb;
            ch->fd = -1;
            if (!(ch->path = malloc(len)))
                st = mp_error_set(err, MP_ERR_NOMEM, "%s: out of memory", path);
            else
                snprintf(ch->path, len, "%s/%s", path, list[i]->d_name);
            c->info.chunk_count += ch->path != NULL;
            if (ch->path && !stat(ch->path, &sb) && S_ISREG(sb.st_mode))
                ch->size = ch->data_end = (uint64_t)sb.st_size;
        }
        free(list[i]);
    }
    free(list);
    c->folder = 1;
    return st;
}
