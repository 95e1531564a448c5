#!/usr/bin/env bash
# Starts the scripted CloudFormation fake (tests/servers/fake_aws.js) with the stacks
# wait_many_memory.c waits on, and runs it: c1..c1000 and a1..a10000 ready on their 3rd
# poll, b1..b1000 on their 30th.
# Usage: wait_many_memory.sh PROGRAM TESTDATA_DIR
set -euo pipefail
program=$1
cfn=$2/smithy-models/aws/cloudformation-2010-05-15.json
servers=$(cd "$(dirname "$0")/../servers" && pwd)
work=$(mktemp -d)
export AWS_SECRET_ACCESS_KEY=fake-secret
server_pid=
trap 'if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
states() {
  local n=$1 s='"CREATE_IN_PROGRESS"' i
  for ((i = 1; i < n; i++)); do printf '%s, ' "$s"; done
  printf '"CREATE_COMPLETE"'
}
three="[$(states 3)]"
thirty="[$(states 30)]"
{
  printf '{"stacks": {'
  sep=
  for ((i = 1; i <= 1000; i++)); do printf '%s"c%d": %s, "b%d": %s' "$sep" "$i" "$three" "$i" "$thirty"; sep=,; done
  for ((i = 1; i <= 10000; i++)); do printf ', "a%d": %s' "$i" "$three"; done
  printf '}}\n'
} > "$work/script.json"
: > "$work/log"
coproc SERVER { exec node "$servers/fake_aws.js" "$work/script.json" "$work/log"; }
server_pid=$SERVER_PID
read -r -t 20 word port <&"${SERVER[0]}"
[[ $word == PORT ]] || { echo "FAIL: the fake did not start"; exit 1; }
"$program" "$cfn" "$port"
