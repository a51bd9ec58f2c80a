/* Unit tests for the CPU quota read from cgroup files (v2 cpu.max, v1 cfs quota/period),
 * on fake /proc/self/cgroup files and cgroup trees in a temporary folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/cpus.h"

static char root[64];

static void put(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    /* mkdir -p of the folders on the way */
    for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
        *s = 0;
        mkdir(path, 0755);
        *s = '/';
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static uint32_t quota(void)
{
    char proc[128], tree[128];
    snprintf(proc, sizeof proc, "%s/proc_cgroup", root);
    snprintf(tree, sizeof tree, "%s/fs", root);
    return mp_cpu_quota(proc, tree);
}

static int setup(void **state)
{
    (void)state;
    strcpy(root, "/tmp/mlvpipe-cpus.XXXXXX");
    assert_non_null(mkdtemp(root));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd);
}

static void v2_quota_rounds_up_and_takes_the_tightest_ancestor(void **state)
{
    (void)state;
    put("proc_cgroup", "0::/slurm/job7/step0\n");
    put("fs/cpu.max", "max 100000\n");
    put("fs/slurm/cpu.max", "800000 100000\n");          /* 8 CPUs */
    put("fs/slurm/job7/cpu.max", "150000 100000\n");     /* 1.5 CPUs: 2 threads */
    put("fs/slurm/job7/step0/cpu.max", "max 100000\n");
    assert_int_equal(quota(), 2);
    put("fs/slurm/cpu.max", "50000 100000\n");           /* half a CPU: still 1 */
    assert_int_equal(quota(), 1);
}

static void v2_without_quota_or_cgroup_files(void **state)
{
    (void)state;
    put("proc_cgroup", "0::/user.slice\n");
    assert_int_equal(quota(), 0);                          /* no cpu.max anywhere */
    put("fs/user.slice/cpu.max", "max 100000\n");
    assert_int_equal(quota(), 0);
    put("proc_cgroup", "0::/\n");
    put("fs/cpu.max", "300000 100000\n");                  /* a container's own root */
    assert_int_equal(quota(), 3);
}

static void v2_hybrid_unified_mount(void **state)
{
    (void)state;
    put("proc_cgroup", "1:name=systemd:/a\n0::/a\n");
    put("fs/unified/a/cpu.max", "200000 50000\n");
    assert_int_equal(quota(), 4);
}

static void v1_cfs_quota(void **state)
{
    (void)state;
    put("proc_cgroup", "4:memory:/x\n3:cpu,cpuacct:/job/task\n0::/\n");
    put("fs/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
    put("fs/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
    put("fs/cpu,cpuacct/job/task/cpu.cfs_quota_us", "-1\n");
    put("fs/cpu,cpuacct/job/task/cpu.cfs_period_us", "100000\n");
    assert_int_equal(quota(), 0);
    put("fs/cpu,cpuacct/job/cpu.cfs_quota_us", "300000\n");
    put("fs/cpu,cpuacct/job/cpu.cfs_period_us", "100000\n");
    assert_int_equal(quota(), 3);
    /* "cpuacct" alone is not the cpu controller */
    put("proc_cgroup", "2:cpuacct:/job\n");
    assert_int_equal(quota(), 0);
}

static void missing_proc_file_means_no_quota(void **state)
{
    (void)state;
    assert_int_equal(mp_cpu_quota("/nonexistent/cgroup", "/nonexistent"), 0);
}

static void count_is_within_the_online_cpus(void **state)
{
    (void)state;
    uint32_t n = mp_cpu_count();
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    assert_true(n >= 1 && (long)n <= online);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(v2_quota_rounds_up_and_takes_the_tightest_ancestor,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(v2_without_quota_or_cgroup_files, setup, teardown),
        cmocka_unit_test_setup_teardown(v2_hybrid_unified_mount, setup, teardown),
        cmocka_unit_test_setup_teardown(v1_cfs_quota, setup, teardown),
        cmocka_unit_test(missing_proc_file_means_no_quota),
        cmocka_unit_test(count_is_within_the_online_cpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
