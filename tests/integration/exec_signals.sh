#!/usr/bin/env bash
# `anvil wait --exec` and `anvil paginate --exec` as a supervisor sees them:
# SIGINT and SIGTERM while the command runs end the wait with 130 and 143 and
# the outcome printed; a command that closes its outputs and keeps running is
# still killed at the deadline; nothing the command started outlives anvil.
# Nothing here is timed: the command says when it is running (a FIFO), and a
# broken anvil shows as the wrong exit status or as the test's time limit.
# Usage: exec_signals.sh ANVIL BOTOCORE_DATA_DIR
set -euo pipefail
anvil=$1
waiters=$2/dynamodb/2012-08-10/waiters-2.json
paginators=$2/dynamodb/2012-08-10/paginators-1.json
work=$(mktemp -d)
# Any process a broken anvil leaves behind is killed when the test ends.
trap 'xargs -r kill -KILL < "$work/pids" 2>/dev/null || true; rm -rf "$work"' EXIT
: > "$work/pids"
fail() { echo "FAIL: $*"; exit 1; }

# The command: starts a grandchild, tells the test its pid through the FIFO, then waits for it.
cat > "$work/cmd.sh" <<SH
#!/bin/sh
sleep 300 &
echo \$! >> "$work/pids"
echo \$! > "$work/ready"
wait
SH
chmod +x "$work/cmd.sh"

dead() { # the process is gone, or a zombie nobody reaped yet; SIGKILL to a group lands
  local state  # on each member asynchronously, so a grandchild gets up to 5 s to die
  for _ in $(seq 500); do
    state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 0
    [[ $state == Z || $state == X ]] && return 0
    sleep 0.01
  done
  return 1
}

ms() { echo $(( $(date +%s%N) / 1000000 )); }

# signal NAME CODE COMMAND...: run COMMAND in the background, signal it once the grandchild runs.
signal() {
  local name=$1 want=$2
  shift 2
  rm -f "$work/ready"
  mkfifo "$work/ready"
  "$@" > "$work/out" 2> "$work/err" &
  local pid=$! grandchild code start
  read -r grandchild < "$work/ready"
  start=$(ms)
  kill "-$name" "$pid"
  set +e
  wait "$pid"
  code=$?
  set -e
  echo "  ($name: exit $code after $(( $(ms) - start )) ms)"
  [[ $code == "$want" ]] || fail "$name: exit $code, want $want; $(cat "$work/out" "$work/err")"
  dead "$grandchild" || fail "$name: the command's child $grandchild outlived anvil"
}

signal INT 130 "$anvil" wait --botocore "$waiters" TableExists --max-wait 60 --output json --exec "$work/cmd.sh"
grep -q '"reason":"cancelled"' "$work/out" || fail "SIGINT: no outcome: $(cat "$work/out")"
echo "ok: SIGINT during --exec ends the wait with 130, the outcome printed, the command's group killed"

signal TERM 143 "$anvil" wait --botocore "$waiters" TableExists --max-wait 60 --exec "$work/cmd.sh"
grep -q 'TableExists was cancelled after 1 attempt' "$work/out" || fail "SIGTERM: no outcome: $(cat "$work/out")"
echo "ok: SIGTERM during --exec ends the wait with 143, the outcome printed, the command's group killed"

signal INT 130 "$anvil" paginate --botocore "$paginators" ListTables --exec "$work/cmd.sh"
grep -q 'interrupted before page 1' "$work/err" || fail "paginate: $(cat "$work/err")"
echo "ok: SIGINT during paginate --exec ends it with 130, the command's group killed"

# Outputs closed, still running: the deadline (2 s) must still end it, with nothing left behind.
set +e
"$anvil" wait --botocore "$waiters" TableExists --max-wait 2 --output json \
  --exec sh -c "exec >&- 2>&-; sleep 300 & echo \$! > $work/left; echo \$! >> $work/pids; wait" \
  > "$work/out" 2> "$work/err"
code=$?
set -e
[[ $code == 2 ]] || fail "closed outputs: exit $code; $(cat "$work/out" "$work/err")"
grep -q '"reason":"timed-out"' "$work/out" || fail "closed outputs: $(cat "$work/out")"
dead "$(cat "$work/left")" || fail "closed outputs: the command's child outlived the deadline"
echo "ok: a command that closes its outputs and keeps running is killed at the deadline"
