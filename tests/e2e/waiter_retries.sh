#!/usr/bin/env bash
# Who handles an error inside a waiter's poll (issue 10), against dynalite behind the fault proxy on
# 127.0.0.1: an error an acceptor expects goes to the waiter on its first occurrence; other
# retryable errors are retried inside the poll, but never past the waiter's deadline (a backoff
# that would cross it and a request still in flight are both cut there); --retry-error (a retry
# policy) and --retry-max-time (the retry loop's limit) over real HTTP.
# Usage: waiter_retries.sh ANVIL TESTDATA_DIR
set -euo pipefail
anvil=$1
source_model=$2/smithy-models/aws/dynamodb-2012-08-10.json
source "$(dirname "$0")/lib.sh"
e2e_start 200
model=$work/dynamodb-test-waiters.json
# The DynamoDB model with two test waiters: one fails on a throttle, one waits through throttles.
python3 - "$source_model" "$model" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
waiters = m["shapes"]["com.amazonaws.dynamodb#DescribeTable"]["traits"]["smithy.waiters#waitable"]
active = {"state": "success", "matcher": {"output": {"path": "Table.TableStatus", "expected": "ACTIVE",
                                                     "comparator": "stringEquals"}}}
missing = {"state": "retry", "matcher": {"errorType": "ResourceNotFoundException"}}
for name, state in (("TableExistsUnlessThrottled", "failure"), ("TableExistsThroughThrottles", "retry")):
    waiters[name] = {"minDelay": 1, "maxDelay": 1, "acceptors": [
        active, missing, {"state": state, "matcher": {"errorType": "ThrottlingException"}}]}
json.dump(m, open(sys.argv[2], "w"))
PY
ms() { date +%s%3N; }
table='{"TableName":"orders","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}'
"$anvil" call --model "$model" CreateTable "${http[@]}" --input "$table" > /dev/null
"$anvil" wait --model "$model" TableExists "${http[@]}" --input '{"TableName":"orders"}' --max-wait 30 \
  --min-delay 1 --max-delay 1 --progress none > /dev/null
wait_for() { # WAITER MAX_WAIT [OPTIONS...] -> $code, $work/out, $work/err
  local waiter=$1 max=$2
  shift 2
  set +e
  "$anvil" wait --model "$model" "$waiter" "${http[@]}" --input '{"TableName":"orders"}' --max-wait "$max" \
    --min-delay 1 --max-delay 1 --output json --progress none --debug "$@" > "$work/out" 2> "$work/err"
  code=$?
  set -e
}
field() { python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$work/out" "$1"; }

# A throttle the waiter's failure acceptor (the third, numbered from 1) expects: one request, no client
# retry, the failure state.
faults "DescribeTable throttle" "DescribeTable throttle" "DescribeTable throttle"
wait_for TableExistsUnlessThrottled 30
[[ $code == 1 && $(field 'o["reason"]') == failure && $(field 'o["acceptor"]') == 3 ]] ||
  fail "TableExistsUnlessThrottled: exit $code, $(cat "$work/out")"
[[ $(count DescribeTable) == 1 ]] || fail "the throttle was retried: $(count DescribeTable) requests"
grep -q 'handed to the waiter TableExistsUnlessThrottled' "$work/err" || fail "no hand-over logged: $(cat "$work/err")"
echo "ok: a throttle a failure acceptor expects ends the wait on its first occurrence (1 request)"

# The same throttles under a retry acceptor: each goes to the waiter, which polls again at its pace.
faults "DescribeTable throttle" "DescribeTable throttle"
wait_for TableExistsThroughThrottles 30
[[ $code == 0 && $(count DescribeTable) == 3 ]] ||
  fail "TableExistsThroughThrottles: exit $code, $(count DescribeTable) requests, $(cat "$work/out")"
[[ $(field 'o["attempts"]') == 3 ]] || fail "attempts: $(cat "$work/out")"
echo "ok: throttles a retry acceptor expects are the waiter's: 3 polls, 3 requests, success"

# TableExists does not expect 503s: the client retries them inside the poll...
faults "DescribeTable 503" "DescribeTable 503"
wait_for TableExists 30
[[ $code == 0 && $(count DescribeTable) == 3 && $(field 'o["attempts"]') == 1 ]] ||
  fail "TableExists through 503s: exit $code, $(count DescribeTable) requests, $(cat "$work/out")"
echo "ok: 503s no acceptor expects are retried inside one poll (3 requests, 1 attempt)"

# A 500 and a dropped connection are retried inside a poll too: the waiter calls DescribeTable again
# anyway, so it counts as idempotent there (a plain call does not retry them: e2e.faults).
faults "DescribeTable 500" "DescribeTable drop"
wait_for TableExists 30
[[ $code == 0 && $(count DescribeTable) == 3 && $(field 'o["attempts"]') == 1 ]] ||
  fail "TableExists through a 500 and a drop: exit $code, $(count DescribeTable) requests, $(cat "$work/out")"
echo "ok: a 500 and a dropped connection are retried inside a poll (the polled operation is repeatable)"

# ...but a retry whose backoff would cross the deadline is cut there, keeping the last error.
repeat() { local i lines=(); for ((i = 0; i < $1; i++)); do lines+=("$2"); done; faults "${lines[@]}"; }
repeat 10 "DescribeTable 503-retry-after:1500"
wait_for TableExists 2.5 --retry-max-attempts 10
elapsed=$(field 'o["elapsed_ms"]')
[[ $code == 2 && $(field 'o["reason"]') == timed-out ]] || fail "cut at the deadline: exit $code, $(cat "$work/out")"
((elapsed >= 2500 && elapsed <= 2600)) || fail "the wait ended $elapsed ms in, not at 2500"
[[ $(field 'o["error"]["code"]') == ServiceUnavailable && $(field 'o["error"]["status"]') == 503 ]] ||
  fail "the last error: $(cat "$work/out")"
[[ $(count DescribeTable) == 2 ]] || fail "requests: $(count DescribeTable)"
echo "ok: a poll whose retries would cross the deadline ends at it ($elapsed ms of 2500), with the 503"

# A request still in flight at the deadline is cancelled there.
faults "DescribeTable slow:10000"
start=$(ms)
wait_for TableExists 2
took=$(($(ms) - start))
elapsed=$(field 'o["elapsed_ms"]')
[[ $code == 2 && $(field 'o["reason"]') == timed-out ]] || fail "in flight at the deadline: exit $code, $(cat "$work/out")"
((elapsed >= 2000 && elapsed <= 2100)) || fail "the wait ended $elapsed ms in, not at 2000"
# The process (start-up, the cut, sanitizer teardown) must not linger far past the deadline.
((took < 5000)) || fail "anvil took $took ms to return"
echo "ok: a request in flight at the deadline is cancelled: the wait ends at $elapsed ms of 2000"

# SIGINT while a request is in flight stops the wait within a second: exit 130, reason cancelled.
faults "DescribeTable slow:20000"
"$anvil" wait --model "$model" TableExists "${http[@]}" --input '{"TableName":"orders"}' --max-wait 60 \
  --output json --progress none > "$work/out" 2> "$work/err" &
wait_pid=$!
for _ in $(seq 100); do grep -q '^# arrived DescribeTable' "$work/log" && break; sleep 0.1; done
grep -q '^# arrived DescribeTable' "$work/log" || fail "the request never reached the proxy"
start=$(ms)
kill -INT "$wait_pid"
set +e
wait "$wait_pid"
code=$?
set -e
took=$(($(ms) - start))
[[ $code == 130 && $(field 'o["reason"]') == cancelled ]] || fail "SIGINT in flight: exit $code, $(cat "$work/out" "$work/err")"
# Within a second, plus the sanitizers' teardown at exit on a busy machine.
((took < 2000)) || fail "SIGINT in flight took $took ms to stop the wait"
echo "ok: SIGINT with a request in flight ends the wait in $took ms (exit 130, cancelled)"

# A retry policy (--retry-error) makes an error the model does not call retryable retried.
faults "DescribeTable error:400:ResourceInUseException"
set +e
"$anvil" call --model "$model" DescribeTable "${http[@]}" --input '{"TableName":"orders"}' > /dev/null 2> "$work/err"
code=$?
set -e
[[ $code == 3 && $(count DescribeTable) == 1 ]] || fail "without --retry-error: exit $code, $(count DescribeTable) requests"
faults "DescribeTable error:400:ResourceInUseException"
"$anvil" call --model "$model" DescribeTable "${http[@]}" --input '{"TableName":"orders"}' \
  --retry-error ResourceInUseException --debug > /dev/null 2> "$work/err" || fail "with --retry-error: $(cat "$work/err")"
[[ $(count DescribeTable) == 2 ]] || fail "with --retry-error: $(count DescribeTable) requests"
grep -q 'retrying a server error: --retry-error' "$work/err" || fail "the policy's reason: $(cat "$work/err")"
echo "ok: --retry-error ResourceInUseException is retried (a policy before the default classification)"

# The retry loop's max total time: slow 503s (700 ms each) end at 2 s, not after 10 attempts.
repeat 10 "DescribeTable error:503:ServiceUnavailable:700"
# What starting anvil costs (loading the model, making the client), measured to leave it out.
start=$(ms)
"$anvil" call --model "$model" NoSuchOperation "${http[@]}" > /dev/null 2>&1 || true
base=$(($(ms) - start))
start=$(ms)
set +e
"$anvil" call --model "$model" DescribeTable "${http[@]}" --input '{"TableName":"orders"}' \
  --retry-max-attempts 10 --retry-max-time 2 --debug > /dev/null 2> "$work/err"
code=$?
set -e
wall=$(($(ms) - start))
took=$((wall - base))
[[ $code == 3 ]] || fail "--retry-max-time: exit $code, $(cat "$work/err")"
# Not before its 2 s: the whole run, start-up included, is at least that (the start-up measured apart can be
# longer than this run's on a busy machine, so it is not taken off here). Not after 10 attempts of 700 ms either:
# less the start-up, before a fourth attempt could have ended (the cut itself is checked by its message below).
((wall >= 1990)) || fail "--retry-max-time 2 ended the loop after $wall ms, start-up included: $(cat "$work/err")"
((took <= 2800)) || fail "--retry-max-time 2 ended the loop after $took ms: $(cat "$work/err")"
grep -q 'ServiceUnavailable' "$work/err" || fail "the last error is not reported: $(cat "$work/err")"
grep -q "max total time" "$work/err" || fail "no reason given: $(cat "$work/err")"
echo "ok: --retry-max-time 2 ends a loop of slow 503s after $took ms (start-up of $base ms left out), reporting the 503"
echo "PASS waiter retries end to end"
