/* Temporaries left behind by killed runs (SIGKILL, power loss): mp_out_open's
 * ".<final name>.<pid>-<n>.part" files whose process is gone. Only the final names the
 * caller claims are considered, so that a run never touches what another run writes into
 * the same folder (farm chunks share a DNG folder, from other hosts too, where a pid means
 * nothing here). */
#include "common/out_file.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Splits ".NAME.PID-N.part" into NAME (copied into final, size bytes) and PID; 0 when the
 * entry is not a temporary. */
static int parse_temp(const char *entry, char *final, size_t size, long *pid)
{
    size_t len = strlen(entry);
    if (entry[0] != '.' || len < 9 || strcmp(entry + len - 5, ".part"))
        return 0;
    size_t end = len - 5, dash = end;
    while (dash > 1 && entry[dash - 1] >= '0' && entry[dash - 1] <= '9')
        dash--;
    if (dash == end || dash < 2 || entry[dash - 1] != '-')
        return 0;
    size_t dot = --dash;
    while (dot > 1 && entry[dot - 1] >= '0' && entry[dot - 1] <= '9')
        dot--;
    if (dot == dash || dot < 2 || entry[dot - 1] != '.' || dot - 2 >= size)
        return 0;
    memcpy(final, entry + 1, dot - 2);
    final[dot - 2] = 0;
    *pid = strtol(entry + dot, NULL, 10);
    return *pid > 0;
}

/* Start of process pid in seconds since the epoch, or -1 (from /proc: its start in clock
 * ticks after boot, and the boot time). */
static double process_start(long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')');   /* the command name may hold spaces */
    unsigned long long ticks = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
                            "%*d %*d %*d %*d %llu", &ticks) != 1)
        return -1;
    f = fopen("/proc/stat", "r");
    if (!f)
        return -1;
    long long btime = -1;
    char line[256];
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "btime %lld", &btime) == 1)
            break;
    fclose(f);
    long hz = sysconf(_SC_CLK_TCK);
    return btime < 0 || hz <= 0 ? -1 : (double)btime + (double)ticks / (double)hz;
}

/* 1 when the temporary's writer is gone: no such process, or one that started after the
 * file last changed (the pid was reused). */
static int writer_gone(long pid, const struct stat *sb)
{
    if (pid == (long)getpid())
        return 0;
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
        return 1;
    double start = process_start(pid);
    return start >= 0 && start > (double)sb->st_mtime + 1.0;
}

uint32_t mp_out_sweep(const char *folder, int (*ours)(void *opaque, const char *final_name),
                      void *opaque)
{
    uint32_t removed = 0;
    DIR *d = opendir(folder);
    if (!d)   /* nothing we could remove; writing there reports the real problem, if any */
        return 0;
    const struct dirent *e;
    char final[256], path[PATH_MAX];
    while ((e = readdir(d)) != NULL) {
        long pid;
        struct stat sb;
        if (!parse_temp(e->d_name, final, sizeof final, &pid) || !ours(opaque, final) ||
            snprintf(path, sizeof path, "%s/%s", folder, e->d_name) >= (int)sizeof path ||
            lstat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || !writer_gone(pid, &sb))
            continue;
        if (unlink(path) == 0)
            removed++;
    }
    closedir(d);
    return removed;
}
