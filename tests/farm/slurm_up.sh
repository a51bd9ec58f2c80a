#!/usr/bin/env bash
# Starts a one-node Slurm cluster on this machine for the farm tests: munged, slurmctld and
# slurmd from Debian's packages (munge, slurm-wlm), run as root, everything (config, key,
# sockets, state, logs) in STATE_DIR, ports 16817/16818, the node named "localhost" with the
# CPUs and memory slurmd detects, proctrack/linuxproc, no cgroups, no accounting.
# Usage: tests/farm/slurm_up.sh [STATE_DIR]   (default /tmp/mlvpipe-slurm)
# Installs the packages when missing (as root). Prints "export SLURM_CONF=..." on success.
# Exit status: 0 the node is idle; 77 Slurm cannot run here (the reason on stderr, for the
# tests to skip with); 1 another failure.
set -euo pipefail
state=${1:-/tmp/mlvpipe-slurm}
skip() { echo "slurm_up: cannot run Slurm here: $*" >&2; exit 77; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
   ! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
  [ "$(id -u)" -eq 0 ] || skip "slurm-wlm/munge not installed and not root to install them"
  command -v apt-get >/dev/null || skip "slurm-wlm/munge not installed and no apt-get"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    slurm-wlm munge >/dev/null 2>&1 || skip "apt-get install slurm-wlm munge failed"
fi
# slurmd runs jobs as their user and must be able to switch users: root only.
[ "$(id -u)" -eq 0 ] || skip "slurmd needs root (running as uid $(id -u))"

# A previous cluster in the same folder is stopped first (its daemons, by pid file).
"$(dirname "$0")/slurm_down.sh" "$state" >/dev/null 2>&1 || true
# Another cluster (another test run) holding the ports would answer in our place.
if command -v ss >/dev/null && ss -ltn | grep -qE ':1681[78] '; then
  skip "port 16817 or 16818 is in use (another Slurm running? stop it with slurm_down.sh)"
fi
rm -rf "$state"
mkdir -p "$state/ctld" "$state/spool" "$state/munge"
chmod 700 "$state" "$state/munge"

# munge: a private key and socket, so a system munged (or none) does not matter.
dd if=/dev/urandom of="$state/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$state/munge/munge.key"
munged --force --key-file="$state/munge/munge.key" --socket="$state/munge/socket" \
  --pid-file="$state/munge/munged.pid" --log-file="$state/munge/munged.log" \
  --seed-file="$state/munge/munged.seed" 2>"$state/munge/start.err" ||
  skip "munged did not start: $(tr '\n' ' ' < "$state/munge/start.err")"
munge -S "$state/munge/socket" -n | unmunge -S "$state/munge/socket" >/dev/null 2>&1 ||
  skip "munge credentials do not round-trip through $state/munge/socket"

# What slurmd sees: "NodeName=vm CPUs=2 Boards=1 ... RealMemory=24105".
hw=$(slurmd -C | head -1) || skip "slurmd -C failed"
cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$hw")
mem=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$hw")
[ -n "$cpus" ] && [ -n "$mem" ] || skip "cannot parse 'slurmd -C': $hw"

cat > "$state/slurm.conf" <<CONF
ClusterName=mlvpipe
SlurmctldHost=localhost
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$state/munge/socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SchedulerParameters=sched_min_interval=0,batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=farm Nodes=localhost Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
export SLURM_CONF=$state/slurm.conf

slurmctld -f "$SLURM_CONF" 2>"$state/slurmctld.err" ||
  skip "slurmctld did not start: $(tr '\n' ' ' < "$state/slurmctld.err")"
slurmd -f "$SLURM_CONF" -N localhost 2>"$state/slurmd.err" ||
  skip "slurmd did not start: $(tr '\n' ' ' < "$state/slurmd.err")"

for _ in $(seq 1 60); do
  st=$(sinfo -h -N -o %T 2>/dev/null | head -1 || true)
  [ "$st" = idle ] && { echo "export SLURM_CONF=$SLURM_CONF"; exit 0; }
  sleep 0.5
done
echo "slurm_up: node state '${st:-none}' after 30 s; last log lines:" >&2
tail -n 5 "$state/slurmctld.log" "$state/slurmd.log" >&2 2>/dev/null || true
skip "the node did not become idle within 30 s (state '${st:-none}')"
