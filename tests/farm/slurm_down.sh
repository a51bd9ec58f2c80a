#!/usr/bin/env bash
# Stops the cluster tests/farm/slurm_up.sh started in STATE_DIR: slurmd, slurmctld and munged,
# each by the pid in its pid file (nothing else is touched). Usage: slurm_down.sh [STATE_DIR]
set -u
state=${1:-/tmp/mlvpipe-slurm}
for pidfile in "$state/slurmd.pid" "$state/slurmctld.pid" "$state/munge/munged.pid"; do
  [ -s "$pidfile" ] || continue
  pid=$(cat "$pidfile")
  kill "$pid" 2>/dev/null || continue
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
done
exit 0
