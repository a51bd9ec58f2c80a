#!/usr/bin/env bash
# Starts a private sshd on 127.0.0.1:STATE_PORT (default 16822) that accepts one new key for
# the current user, so GNU parallel --sshlogin can be tested on one machine. Everything (host
# key, client key, config, pid, log) lives in STATE_DIR. Prints the PARALLEL_SSH command to
# use (export it) on success. Exit 77 with the reason when it cannot run here.
# Usage: tests/farm/sshd_up.sh STATE_DIR [PORT]; stop with: kill "$(cat STATE_DIR/sshd.pid)"
set -euo pipefail
state=$1; port=${2:-16822}
skip() { echo "sshd_up: cannot run sshd here: $*" >&2; exit 77; }
sshd=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$sshd" ] || skip "openssh-server not installed"
command -v ssh >/dev/null && command -v ssh-keygen >/dev/null || skip "ssh client missing"
if command -v ss >/dev/null && ss -ltn | grep -q ":$port "; then skip "port $port in use"; fi
mkdir -p "$state"; chmod 700 "$state"
ssh-keygen -q -t ed25519 -N '' -f "$state/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$state/client_key"
cp "$state/client_key.pub" "$state/authorized_keys"; chmod 600 "$state/authorized_keys"
cat > "$state/sshd_config" <<CONF
ListenAddress 127.0.0.1
Port $port
HostKey $state/host_key
PidFile $state/sshd.pid
AuthorizedKeysFile $state/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
CONF
mkdir -p /run/sshd 2>/dev/null || true      # privilege separation folder sshd insists on
"$sshd" -f "$state/sshd_config" -E "$state/sshd.log" 2>"$state/start.err" ||
  skip "sshd did not start: $(tr '\n' ' ' < "$state/start.err")"
cmd="ssh -p $port -i $state/client_key -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes"
for _ in $(seq 1 50); do
  $cmd 127.0.0.1 true 2>/dev/null && { echo "$cmd"; exit 0; }
  sleep 0.1
done
skip "ssh to 127.0.0.1:$port does not log in: $(tail -3 "$state/sshd.log" | tr '\n' ' ')"
