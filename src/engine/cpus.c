#include "engine/cpus.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CPUS_MAX 256u

/* The CPUs in the affinity mask (a mask of up to 4096 CPUs), else the online CPUs. */
static uint32_t affinity_count(void)
{
    cpu_set_t *set = CPU_ALLOC(4096);
    size_t size = CPU_ALLOC_SIZE(4096);
    long n = -1;
    if (set && sched_getaffinity(0, size, set) == 0)
        n = CPU_COUNT_S(size, set);
    CPU_FREE(set);
    if (n < 1)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > (long)CPUS_MAX ? CPUS_MAX : (uint32_t)n;
}

/* Reads up to two numbers from a small file: "max 100000", "150000 100000", "-1".
 * Returns how many were read; a word that is not a number counts as -1 (no limit). */
static int read_numbers(const char *path, long long v[2])
{
    char text[128];
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    int count = 0;
    char *s = text, *end;
    while (count < 2) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        if (!*s)
            break;
        v[count] = strtoll(s, &end, 10);
        if (end == s) {
            v[count] = -1;
            while (*end && *end != ' ' && *end != '\n')
                end++;
        }
        count++;
        s = end;
    }
    return count;
}

/* CPUs for quota/period rounded up; 0 when there is no limit. */
static uint32_t quota_cpus(long long quota, long long period)
{
    if (quota <= 0 || period <= 0)
        return 0;
    long long n = (quota + period - 1) / period;
    return n > (long long)CPUS_MAX ? CPUS_MAX : (uint32_t)n;
}

static uint32_t tighter(uint32_t a, uint32_t b)
{
    return !a ? b : !b ? a : a < b ? a : b;
}

/* The tightest quota on cgroup folder dir and its ancestors up to the mount point
 * (length mount_len). v2: cpu.max "QUOTA PERIOD" or "max PERIOD"; v1: two files. */
static uint32_t walk_quota(char *dir, size_t mount_len, int v2)
{
    uint32_t best = 0;
    char path[4096 + 32];
    for (;;) {
        long long v[2], p[2];
        if (v2) {
            snprintf(path, sizeof path, "%s/cpu.max", dir);
            if (read_numbers(path, v) == 2)
                best = tighter(best, quota_cpus(v[0], v[1]));
        } else {
            snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", dir);
            int ok = read_numbers(path, v) == 1;
            snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir);
            if (ok && read_numbers(path, p) == 1)
                best = tighter(best, quota_cpus(v[0], p[0]));
        }
        char *slash = strrchr(dir, '/');
        if (!slash || (size_t)(slash - dir) < mount_len)
            break;
        *slash = 0;
    }
    return best;
}

/* Whether the comma-separated controller list names "cpu". */
static int lists_cpu(const char *list, size_t len)
{
    while (len) {
        const char *comma = memchr(list, ',', len);
        size_t n = comma ? (size_t)(comma - list) : len;
        if (n == 3 && !memcmp(list, "cpu", 3))
            return 1;
        if (!comma)
            break;
        len -= n + 1;
        list = comma + 1;
    }
    return 0;
}

uint32_t mp_cpu_quota(const char *proc_cgroup_path, const char *cgroup_root)
{
    FILE *f = fopen(proc_cgroup_path, "r");
    if (!f)
        return 0;
    uint32_t best = 0;
    char line[4096], dir[4096];
    /* Mount folders of the cpu controller: v1 names it after its controllers. */
    static const char *const v1_mounts[] = {"cpu", "cpu,cpuacct", "cpuacct,cpu"};
    static const char *const v2_mounts[] = {"", "/unified"};
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        /* "ID:CONTROLLERS:PATH"; v2 is "0::PATH". */
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        const char *controllers = c1 + 1, *path = c2 + 1;
        size_t clen = (size_t)(c2 - controllers);
        int v2 = !strncmp(line, "0:", 2) && clen == 0;
        if (!v2 && !lists_cpu(controllers, clen))
            continue;
        const char *const *mounts = v2 ? v2_mounts : v1_mounts;
        for (int m = 0; m < (v2 ? 2 : 3); m++) {
            int len = snprintf(dir, sizeof dir, "%s%s%s", cgroup_root, v2 ? "" : "/",
                               mounts[m]);
            if (len < 0 || (size_t)len >= sizeof dir)
                continue;
            if (access(dir, F_OK))
                continue;
            size_t mount_len = (size_t)len;
            if (snprintf(dir + len, sizeof dir - (size_t)len, "%s", path) >=
                (int)(sizeof dir - (size_t)len))
                continue;
            /* A trailing '/' (the root, "/") would stop the walk before it started. */
            while (strlen(dir) > mount_len && dir[strlen(dir) - 1] == '/')
                dir[strlen(dir) - 1] = 0;
            best = tighter(best, walk_quota(dir, mount_len, v2));
        }
    }
    fclose(f);
    return best;
}

uint32_t mp_cpu_count(void)
{
    uint32_t n = affinity_count();
    uint32_t quota = mp_cpu_quota("/proc/self/cgroup", "/sys/fs/cgroup");
    return quota && quota < n ? quota : n;
}
