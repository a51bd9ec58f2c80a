/* cpus: how many CPUs this process may really use, for the default thread count. Like
 * nproc, the CPUs of the affinity mask (taskset, Slurm's and cgroup cpusets), and below that
 * the CPU bandwidth quota of the process's cgroup and its ancestors (cgroup v2 cpu.max,
 * v1 cpu.cfs_quota_us / cpu.cfs_period_us; systemd's CPUQuota=, Docker --cpus, Kubernetes
 * limits), rounded up: a quota of 1.5 CPUs keeps two threads busy. */
#ifndef MP_CPUS_H
#define MP_CPUS_H

#include <stdint.h>

/* At least 1. */
uint32_t mp_cpu_count(void);

/* The quota in whole CPUs (rounded up), 0 for no quota, from a /proc/PID/cgroup text file and
 * the folder where the cgroup hierarchies are mounted ("/sys/fs/cgroup": v2 either there or
 * under unified/, v1 controllers in folders named like cpu or cpu,cpuacct). Exposed for tests. */
uint32_t mp_cpu_quota(const char *proc_cgroup_path, const char *cgroup_root);

#endif
