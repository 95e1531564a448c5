#!/usr/bin/env bash
# The waits operators run most, against a scripted fake of each service on
# 127.0.0.1 (tests/servers/fake_aws.js: documents shaped like the services'
# own, every SigV4 signature checked), each state one request:
#   CloudFormation StackCreateComplete (awsQuery, the shared Smithy model):
#     CREATE_IN_PROGRESS -> CREATE_COMPLETE succeeds; ROLLBACK_COMPLETE fails;
#     a stack that does not exist fails on ValidationError;
#   Lambda FunctionActiveV2 (restJson1, the shared Smithy model): Pending ->
#     Active succeeds, Pending -> Failed fails, a missing function is an
#     unexpected error;
#   EC2 InstanceRunning (ec2Query, botocore's ec2 model found by --service):
#     pending -> running succeeds; InvalidInstanceID.NotFound is retried.
# An input that does not fit its shape fails before the first request (exit 65).
# Usage: waits.sh ANVIL TESTDATA_DIR [BOTOCORE_DATA_DIR]
set -euo pipefail
anvil=$1
models=$2/smithy-models/aws
botocore=${3:-/usr/lib/python3/dist-packages/botocore/data}
servers=$(cd "$(dirname "$0")/../servers" && pwd)
work=$(mktemp -d)
cat > "$work/script.json" <<'JSON'
{"stacks": {"web": ["CREATE_IN_PROGRESS", "CREATE_COMPLETE"],
            "broken": ["CREATE_IN_PROGRESS", "ROLLBACK_COMPLETE"]},
 "functions": {"fn": ["Pending", "Active"], "bad": ["Pending", "Failed"]},
 "instances": {"i-0123456789abcdef0": ["pending", "pending", "running"]}}
JSON
: > "$work/log"
export AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=fake-secret AWS_REGION=us-east-1
unset AWS_PROFILE AWS_SESSION_TOKEN
# The delays between polls pass on a fake clock (a test build's hook; a release build really waits 1 s).
export ANVIL_FAKE_TIME=1
coproc SERVER { exec node "$servers/fake_aws.js" "$work/script.json" "$work/log"; }
server_pid=$SERVER_PID
trap 'kill "$server_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
read -r -t 20 word port <&"${SERVER[0]}"
[[ $word == PORT ]] || { echo "the fake did not start"; exit 1; }
http=(--endpoint-url "http://127.0.0.1:$port" --min-delay 1 --max-delay 1 --max-wait 30 --output json)
fail() { echo "FAIL: $*"; echo "--- fake log"; cat "$work/log"; exit 1; }
# expect EXIT REASON WAIT ARGS...: the wait exits EXIT with outcome REASON
expect() {
  local want=$1 reason=$2
  shift 2
  set +e
  "$anvil" wait "$@" "${http[@]}" > "$work/out.json" 2> "$work/err"
  local code=$?
  set -e
  [[ $code == "$want" ]] || fail "$*: exit $code, want $want: $(cat "$work/out.json" "$work/err")"
  grep -q "\"reason\":\"$reason\"" "$work/out.json" || fail "$*: outcome $(cat "$work/out.json")"
}

cfn=$models/cloudformation-2010-05-15.json
expect 0 success --model "$cfn" StackCreateComplete --input '{"StackName":"web"}'
grep -q '"StackStatus":"CREATE_COMPLETE"' "$work/out.json" || fail "StackCreateComplete output: $(cat "$work/out.json")"
[[ $(grep -c "cloudformation DescribeStacks web" "$work/log") == 2 ]] || fail "StackCreateComplete took other than 2 polls"
echo "ok: CloudFormation StackCreateComplete, CREATE_IN_PROGRESS then CREATE_COMPLETE (awsQuery)"
expect 1 failure --model "$cfn" StackCreateComplete --input '{"StackName":"broken"}'
grep -q 'ROLLBACK_COMPLETE' "$work/out.json" || fail "rollback outcome: $(cat "$work/out.json")"
echo "ok: StackCreateComplete fails on ROLLBACK_COMPLETE"
expect 1 failure --model "$cfn" StackCreateComplete --input '{"StackName":"nope"}'
grep -q '"code":"ValidationError"' "$work/out.json" || fail "missing stack: $(cat "$work/out.json")"
echo "ok: StackCreateComplete fails on ValidationError for a stack that does not exist"

lambda=$models/lambda-2015-03-31.json
expect 0 success --model "$lambda" FunctionActiveV2 --input '{"FunctionName":"fn"}'
grep -q '"State":"Active"' "$work/out.json" || fail "FunctionActiveV2 output: $(cat "$work/out.json")"
echo "ok: Lambda FunctionActiveV2, Pending then Active (restJson1)"
expect 1 failure --model "$lambda" FunctionActiveV2 --input '{"FunctionName":"bad"}'
echo "ok: FunctionActiveV2 fails on Failed"
expect 3 unexpected-error --model "$lambda" FunctionActiveV2 --input '{"FunctionName":"missing"}'
grep -q '"code":"ResourceNotFoundException"' "$work/out.json" || fail "missing function: $(cat "$work/out.json")"
echo "ok: a function that does not exist ends the wait at once (ResourceNotFoundException)"

if [[ -f $botocore/ec2/2016-11-15/service-2.json ]]; then
  export ANVIL_MODEL_PATH=$botocore
  expect 0 success --service ec2 InstanceRunning --input '{"InstanceIds":["i-0123456789abcdef0"]}'
  grep -q '"Name":"running"' "$work/out.json" || fail "InstanceRunning output: $(cat "$work/out.json")"
  [[ $(grep -c "ec2 DescribeInstances i-0123456789abcdef0" "$work/log") == 3 ]] || fail "InstanceRunning polls"
  echo "ok: EC2 InstanceRunning, pending then running, with botocore's ec2 model (ec2Query)"
  # A missing instance is retried (the waiter's retry acceptor), then the wait times out.
  set +e
  "$anvil" wait --service ec2 InstanceRunning --input '{"InstanceIds":["i-missing"]}' --endpoint-url \
    "http://127.0.0.1:$port" --min-delay 1 --max-delay 1 --max-wait 2 --output json > "$work/out.json"
  code=$?
  set -e
  [[ $code == 2 ]] && grep -q 'InvalidInstanceID.NotFound' "$work/out.json" || fail "missing instance: $code $(cat "$work/out.json")"
  echo "ok: InvalidInstanceID.NotFound is retried until the deadline"
else
  echo "skip: no botocore ec2 model at $botocore"
fi
set +e
"$anvil" wait --model "$cfn" StackCreateComplete --input '{"StackNam":"web"}' "${http[@]}" > "$work/out.json" 2> "$work/err"
code=$?
set -e
[[ $code == 65 ]] && grep -q 'has no member `StackNam`' "$work/err" || fail "bad input: exit $code, $(cat "$work/err")"
echo "ok: a misspelt input member fails at once, naming it (exit 65)"
echo "PASS waits end to end"
