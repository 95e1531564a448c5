#!/usr/bin/env bash
# Many waits at once (anvil wait --many) against the scripted CloudFormation
# fake on 127.0.0.1 (tests/servers/fake_aws.js, every SigV4 signature
# checked), on a fake clock (ANVIL_FAKE_TIME: the delays pass at once; the
# fake's throttle counts requests per second of their X-Amz-Date, the
# client's clock, so nothing here depends on real time):
#   1,000 stacks, each ready on its third poll, the service throttling above
#   100 requests a second: every wait succeeds (throttling never ends one),
#   every outcome line is there exactly once, with its line and input;
#   the same fleet under --max-rps 80: not one request throttled, exactly
#   three polls per stack;
#   stacks that never finish end timed out at the deadline (exit 2), so do
#   stacks whose every poll is throttled (keeping the throttling error), a
#   failed and a missing stack fail (the worst outcome's exit status);
#   SIGINT with requests in flight ends every wait at once (exit 130);
#   into a pipe, an outcome line is out as its wait ends (not when stdio's buffer fills);
#   a bad input line is named before any request (exit 65).
# Usage: wait_many.sh ANVIL TESTDATA_DIR
set -euo pipefail
anvil=$1
cfn=$2/smithy-models/aws/cloudformation-2010-05-15.json
servers=$(cd "$(dirname "$0")/../servers" && pwd)
work=$(mktemp -d)
export AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=fake-secret AWS_REGION=us-east-1
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_RETRY_MODE AWS_MAX_ATTEMPTS
export ANVIL_FAKE_TIME=1
server_pid=
trap 'if [[ -n $server_pid ]]; then kill "$server_pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; echo "--- last outcome lines"; tail -3 "$work/out.jsonl" 2>/dev/null; exit 1; }

# serve SCRIPT_JSON: (re)starts the fake with a fresh log; sets $port.
serve() {
  if [[ -n $server_pid ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  printf '%s\n' "$1" > "$work/script.json"
  : > "$work/log"
  coproc SERVER { exec node "$servers/fake_aws.js" "$work/script.json" "$work/log"; }
  server_pid=$SERVER_PID
  local word
  read -r -t 20 word port <&"${SERVER[0]}"
  [[ $word == PORT ]] || fail "the fake did not start"
}

# stacks N STATES_JSON: a "stacks" object of s1..sN, each with STATES_JSON.
stacks() {
  local i sep=
  printf '{'
  for ((i = 1; i <= $1; i++)); do
    printf '%s"s%d": %s' "$sep" "$i" "$2"
    sep=,
  done
  printf '}'
}

# many EXPECTED_EXIT ARGS...: anvil wait --many on $work/inputs.jsonl.
many() {
  local want=$1
  shift
  set +e
  "$anvil" wait --model "$cfn" StackCreateComplete --many "$work/inputs.jsonl" \
    --endpoint-url "http://127.0.0.1:$port" --progress none "$@" > "$work/out.jsonl" 2> "$work/err"
  local code=$?
  set -e
  [[ $code == "$want" ]] || fail "exit $code, want $want: $(head -c 600 "$work/err")"
}

n=1000
for ((i = 1; i <= n; i++)); do printf '{"StackName": "s%d"}\n' "$i"; done > "$work/inputs.jsonl"
ready='["CREATE_IN_PROGRESS", "CREATE_IN_PROGRESS", "CREATE_COMPLETE"]'
serve "{\"throttle_rate\": 100, \"stacks\": $(stacks $n "$ready")}"
many 0 --max-wait 3600
[[ $(grep -c '"reason":"success"' "$work/out.jsonl") == "$n" ]] || fail "not every wait succeeded"
[[ $(grep -o '"line":[0-9]*,' "$work/out.jsonl" | sort -u | wc -l) == "$n" ]] || fail "an outcome line is missing or twice"
grep -q '^{"line":7,"input":{"StackName":"s7"},"waiter":"StackCreateComplete","state":"success"' "$work/out.jsonl" ||
  fail "line 7's outcome: $(grep '"line":7,' "$work/out.jsonl")"
throttled=$(grep -c ' throttled$' "$work/log" || true)
[[ $throttled -gt 0 ]] || fail "the fake throttled nothing: the test does not test throttling"
echo "ok: $n waits, each outcome once, every one a success although the service throttled $throttled of $(wc -l < "$work/log") requests"

serve "{\"throttle_rate\": 100, \"stacks\": $(stacks $n "$ready")}"
many 0 --max-wait 3600 --max-rps 80
[[ $(grep -c '"reason":"success"' "$work/out.jsonl") == "$n" ]] || fail "not every wait succeeded under --max-rps"
[[ $(grep -c ' throttled$' "$work/log" || true) == 0 ]] || fail "--max-rps 80 under a limit of 100 was throttled"
[[ $(wc -l < "$work/log") == $((3 * n)) ]] || fail "$(wc -l < "$work/log") requests, want $((3 * n))"
echo "ok: --max-rps 80 under the service's 100: no request throttled, three polls per stack"

printf '{"StackName": "s1"}\n\n{"StackName": "s2"}\n{"StackName": "broken"}\n{"StackName": "nope"}\n' > "$work/inputs.jsonl"
serve "{\"stacks\": {\"s1\": [\"CREATE_IN_PROGRESS\"], \"s2\": [\"CREATE_IN_PROGRESS\"],
        \"broken\": [\"CREATE_IN_PROGRESS\", \"ROLLBACK_COMPLETE\"]}}"
many 2 --max-wait 120 --min-delay 10 --max-delay 10
grep -q '"line":1,.*"reason":"timed-out","attempts":1[0-9],"elapsed_ms":120000' "$work/out.jsonl" ||
  fail "a stack that never finishes: $(grep '"line":1,' "$work/out.jsonl")"
grep -q '"line":3,.*"reason":"timed-out"' "$work/out.jsonl" || fail "line 3 (after a blank line)"
grep -q '"line":4,.*"reason":"failure".*ROLLBACK_COMPLETE' "$work/out.jsonl" || fail "the rolled-back stack"
grep -q '"line":5,.*"reason":"failure".*"code":"ValidationError"' "$work/out.jsonl" || fail "the missing stack"
[[ $(wc -l < "$work/out.jsonl") == 4 ]] || fail "4 outcomes wanted"
echo "ok: stacks that never finish time out at the deadline (exit 2: the worst outcome), failures are reported"

# A service that throttles every request: no wait fails on it, each ends timed out at its deadline
# (not after), its outcome keeping the throttling error.
printf '{"StackName": "s1"}\n{"StackName": "s2"}\n{"StackName": "s3"}\n' > "$work/inputs.jsonl"
serve "{\"throttle_every\": 1, \"stacks\": $(stacks 3 "$ready")}"
many 2 --max-wait 60 --min-delay 7 --max-delay 7
[[ $(grep -c '"reason":"timed-out","attempts":1,"elapsed_ms":60000,.*"code":"Throttling"' "$work/out.jsonl") == 3 ]] ||
  fail "throttled to the deadline: $(head -c 600 "$work/out.jsonl")"
echo "ok: a service throttling every request: each wait ends timed out at its deadline with the Throttling error"
# The same with one slot for 20 waits: none outlives its deadline + minimum delay (the last attempt's grace).
for ((i = 1; i <= 20; i++)); do printf '{"StackName": "s%d"}\n' "$i"; done > "$work/inputs.jsonl"
serve "{\"throttle_every\": 1, \"stacks\": $(stacks 20 "$ready")}"
many 2 --max-wait 30 --min-delay 5 --max-delay 5 --max-in-flight 1
[[ $(grep -c '"reason":"timed-out"' "$work/out.jsonl") == 20 ]] || fail "20 timed-out outcomes wanted"
late=$(grep -o '"elapsed_ms":[0-9]*' "$work/out.jsonl" | cut -d: -f2 | awk '$1 > 35000' | wc -l)
[[ $late == 0 ]] || fail "$late waits outlived deadline + minimum delay"
echo "ok: 20 throttled waits on one slot all end by their deadline + minimum delay"

# SIGINT with requests in flight: every wait ends at once, each outcome printed once, exit 130.
printf '{"StackName": "s1"}\n{"StackName": "h1"}\n{"StackName": "s2"}\n{"StackName": "h2"}\n' > "$work/inputs.jsonl"
serve "{\"hang\": [\"h1\", \"h2\"], \"stacks\": {\"s1\": [\"CREATE_COMPLETE\"], \"s2\": [\"CREATE_IN_PROGRESS\"]}}"
"$anvil" wait --model "$cfn" StackCreateComplete --many "$work/inputs.jsonl" --endpoint-url "http://127.0.0.1:$port" \
  --progress none --max-wait 3600 --min-delay 600 --max-delay 600 > "$work/out.jsonl" 2> "$work/err" &
wait_pid=$!
# Until both hanging requests are on the wire (the fake logs each as it arrives).
for _ in $(seq 200); do [[ $(grep -c ' hang$' "$work/log" || true) == 2 ]] && break; sleep 0.05; done
[[ $(grep -c ' hang$' "$work/log" || true) == 2 ]] || fail "the hanging requests never arrived"
kill -INT "$wait_pid"
set +e
wait "$wait_pid"
code=$?
set -e
[[ $code == 130 ]] || fail "SIGINT: exit $code: $(cat "$work/err")"
[[ $(wc -l < "$work/out.jsonl") == 4 ]] || fail "4 outcomes wanted after SIGINT"
grep -q '"line":1,.*"reason":"success"' "$work/out.jsonl" || fail "s1 (done before the signal)"
for line in 2 3 4; do
  grep -q "\"line\":$line,.*\"reason\":\"cancelled\"" "$work/out.jsonl" || fail "line $line after SIGINT"
done
echo "ok: SIGINT with requests in flight ends every wait at once, every outcome printed once (exit 130)"

# Into a pipe, an outcome line is out the moment its wait ends: s1's arrives while h1 still hangs.
printf '{"StackName": "s1"}\n{"StackName": "h1"}\n' > "$work/inputs.jsonl"
serve "{\"hang\": [\"h1\"], \"stacks\": {\"s1\": [\"CREATE_COMPLETE\"]}}"
coproc MANY { exec "$anvil" wait --model "$cfn" StackCreateComplete --many "$work/inputs.jsonl" \
  --endpoint-url "http://127.0.0.1:$port" --progress none --max-wait 3600 2> "$work/err"; }
many_pid=$MANY_PID
read -r -t 20 first <&"${MANY[0]}" || fail "no outcome line through the pipe while a wait still runs"
[[ $first == *'"line":1,'*'"reason":"success"'* ]] || fail "first line through the pipe: $first"
kill -INT "$many_pid"
read -r -t 20 second <&"${MANY[0]}" || fail "no outcome line after SIGINT"
[[ $second == *'"line":2,'*'"reason":"cancelled"'* ]] || fail "second line through the pipe: $second"
set +e
wait "$many_pid"
code=$?
set -e
[[ $code == 130 ]] || fail "SIGINT through the pipe: exit $code"
echo "ok: into a pipe, each outcome line is out the moment its wait ends"

printf '{"StackName": "s1"}\n{"StackNam": "s2"}\n' > "$work/inputs.jsonl"
: > "$work/log"
many 65 --max-wait 60
grep -q 'line 2' "$work/err" && grep -q 'StackNam' "$work/err" || fail "bad line: $(cat "$work/err")"
[[ ! -s $work/log ]] || fail "a request went out before the inputs were checked"
printf '{"StackName": "s1"}\n{"StackName": \n' > "$work/inputs.jsonl"
many 65 --max-wait 60
grep -q 'line 2' "$work/err" || fail "bad JSON: $(cat "$work/err")"
printf '\n\n' > "$work/inputs.jsonl"
many 65 --max-wait 60
grep -q 'no inputs' "$work/err" || fail "empty file: $(cat "$work/err")"
echo "ok: a bad input line, or a file without one, is named before any request (exit 65)"
echo "PASS many waits at once"
