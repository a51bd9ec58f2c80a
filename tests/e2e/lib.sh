# Shared by the e2e shell tests that count their failures (pipeline_lib.sh and farm_lib.sh
# source it too): a scratch folder $tmp, removed on exit unless KEEP is set; fail, which
# counts and goes on; finish, the exit status from the count; run, which runs mlvpipe
# ($mlvpipe, set by the caller) and checks its exit code; stop_when, to interrupt a run.
tmp=$(mktemp -d /tmp/mlvpipe-e2e.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
finish() {
    [ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
    echo "all passed"
    exit 0
}

# need TOOL...: skips the test (exit 77) unless every TOOL is on the PATH
need() {
    local tool
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
    done
}

# run NAME EXPECTED_EXIT ARGS...: runs mlvpipe; stdout in $tmp/NAME.out, stderr in $tmp/NAME.err
run() {
    local name=$1 want=$2
    shift 2
    "$mlvpipe" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    [ "$rc" -eq "$want" ] ||
        fail "$name: exit $rc, expected $want ($(head -c 400 "$tmp/$name.err"))"
}

# stop_when PID COMMAND...: SIGTERM to PID as soon as COMMAND succeeds (polled every 10 ms,
# at most 5 s); then waits for PID and sets $rc to its exit status.
stop_when() {
    local pid=$1 _
    shift
    for _ in $(seq 1 500); do
        "$@" && break
        sleep 0.01
    done
    kill -TERM "$pid"
    wait "$pid"
    rc=$?
}
