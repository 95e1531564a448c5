#!/usr/bin/env bash
# anvil through a fault-injecting proxy (tests/servers/faults.js) in front of
# dynalite, all on 127.0.0.1: retries inside a waiter's poll, quota
# accounting, x-amz-retry-after, non-idempotent calls, garbage bodies,
# dropped connections, and an emulator killed in the middle of a wait.
# Usage: faults.sh ANVIL TESTDATA_DIR
set -euo pipefail
anvil=$1
model=$2/smithy-models/aws/dynamodb-2012-08-10.json
source "$(dirname "$0")/lib.sh"
e2e_start 500
table='{"TableName":"orders","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}'

# Non-idempotent: CreateTable after a 500 on an open connection is not retried...
faults "CreateTable 500"
set +e
"$anvil" call --model "$model" CreateTable "${http[@]}" --input "$table" --debug > /dev/null 2> "$work/err"
code=$?
set -e
[[ $code == 3 && $(count CreateTable) == 1 ]] || fail "CreateTable after a 500: exit $code, $(count CreateTable) requests"
grep -q 'not idempotent' "$work/err" || fail "no reason given: $(cat "$work/err")"
echo "ok: a non-idempotent call is not retried after a 500"
# ...but after a 503 (the server did nothing) it is.
faults "CreateTable 503"
"$anvil" call --model "$model" CreateTable "${http[@]}" --input "$table" > /dev/null ||
  fail "CreateTable after a 503 was not retried"
[[ $(count CreateTable) == 2 ]] || fail "CreateTable after a 503: $(count CreateTable) requests"
echo "ok: a non-idempotent call is retried after a 503"

# A waiter's poll survives two 503s and a throttle (retried inside the poll; quota accounted).
faults "DescribeTable 503" "DescribeTable 503" "DescribeTable throttle"
"$anvil" wait --model "$model" TableExists "${http[@]}" --input '{"TableName":"orders"}' --max-wait 60 \
  --min-delay 1 --max-delay 1 --debug > "$work/out" 2> "$work/err" || fail "TableExists through faults: $(cat "$work/out" "$work/err")"
grep -q 'retrying a server error (cost 14, quota 486)' "$work/err" || fail "quota after a 503: $(cat "$work/err")"
grep -q 'retrying a server error (cost 14, quota 472)' "$work/err" || fail "quota after two 503s: $(cat "$work/err")"
echo "ok: TableExists survives 503, 503, throttle ($(count DescribeTable) requests)"

# x-amz-retry-after is honoured (clamped to [t, t + 5 s]).
faults "DescribeTable 503-retry-after:1500"
"$anvil" call --model "$model" DescribeTable "${http[@]}" --input '{"TableName":"orders"}' --debug > /dev/null 2> "$work/err" ||
  fail "DescribeTable with retry-after"
grep -q 'after 1500 ms' "$work/err" || fail "retry-after not honoured: $(cat "$work/err")"
echo "ok: x-amz-retry-after 1500 is honoured"

# A connection dropped after sending may have had an effect: DynamoDB's model marks DescribeTable
# neither @readonly nor @idempotent, so it is not retried, and the reason says why.
faults "DescribeTable drop"
set +e
"$anvil" call --model "$model" DescribeTable "${http[@]}" --input '{"TableName":"orders"}' --debug > /dev/null 2> "$work/err"
code=$?
set -e
[[ $code == 3 && $(count DescribeTable) == 1 ]] || fail "after a drop: exit $code, $(count DescribeTable) requests"
grep -q 'not idempotent' "$work/err" || fail "no reason for not retrying a drop: $(cat "$work/err")"
echo "ok: a dropped connection on a non-idempotent operation is not retried, with the reason"

# A body that is not JSON is a clear error, not a crash.
faults "DescribeTable garbage"
set +e
"$anvil" call --model "$model" DescribeTable "${http[@]}" --input '{"TableName":"orders"}' > /dev/null 2> "$work/err"
code=$?
set -e
[[ $code == 3 ]] && grep -q 'not JSON' "$work/err" || fail "garbage: exit $code, $(cat "$work/err")"
echo "ok: a garbage body gives a clear error"

# An answer over --max-response-bytes is a clear error, and it is not asked for again.
faults "DescribeTable big:300000" "DescribeTable big:300000"
set +e
"$anvil" call --model "$model" DescribeTable "${http[@]}" --input '{"TableName":"orders"}' \
  --max-response-bytes 100000 > /dev/null 2> "$work/err"
code=$?
set -e
[[ $code == 3 && $(count DescribeTable) == 1 ]] || fail "too large: exit $code, $(count DescribeTable) requests"
grep -q 'larger than 100000 bytes' "$work/err" || fail "too large: $(cat "$work/err")"
echo "ok: an answer over --max-response-bytes is a clear error and is not retried"

# A clock-skew error: the client takes the service's time from the Date header and retries once.
faults "DescribeTable skew:3600"
"$anvil" call --model "$model" DescribeTable "${http[@]}" --input '{"TableName":"orders"}' --debug \
  > /dev/null 2> "$work/err" || fail "after a clock-skew error: $(cat "$work/err")"
[[ $(count DescribeTable) == 2 ]] || fail "clock skew: $(count DescribeTable) requests"
grep -Eq "clock skew: the service's clock is 3(59[0-9]|60[0-9]) s ahead of ours" "$work/err" ||
  fail "clock skew not reported: $(cat "$work/err")"
python3 - "$work/log" <<'PY' || fail "the retry was not signed with the service's time: $(grep '^# date' "$work/log")"
import datetime, sys
dates = [l.split()[3] for l in open(sys.argv[1]) if l.startswith("# date DescribeTable")]
t = [datetime.datetime.strptime(d, "%Y%m%dT%H%M%SZ") for d in dates]
sys.exit(0 if len(t) == 2 and 3590 <= (t[1] - t[0]).total_seconds() <= 3610 else 1)
PY
echo "ok: a clock-skew error corrects the signing clock by the Date header and the call succeeds"

# The emulator dies in the middle of a wait: a clear error, no crash, no hang.
faults
( sleep 2; kill "$dynalite_pid" ) &
set +e
"$anvil" wait --model "$model" TableExists "${http[@]}" --input '{"TableName":"never"}' --max-wait 20 \
  --min-delay 1 --max-delay 1 --output json > "$work/out" 2> "$work/err"
code=$?
set -e
[[ $code == 3 ]] || fail "a wait on a dead emulator exited $code: $(cat "$work/out" "$work/err")"
grep -q '"reason":"unexpected-error"' "$work/out" || fail "the outcome: $(cat "$work/out")"
echo "ok: the emulator killed mid-wait ends the wait with exit 3: $(grep -o '"error":{[^}]*}' "$work/out")"
# The secret never shows in --debug output or errors.
cat "$work"/err* > "$work/all-err" 2>/dev/null || true
! grep -q "$AWS_SECRET_ACCESS_KEY" "$work/all-err" || fail "the secret key appeared in the output"
echo "ok: no secret in any --debug or error output"
echo "PASS faults end to end"
