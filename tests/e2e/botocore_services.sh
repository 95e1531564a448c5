#!/usr/bin/env bash
# anvil with botocore's own service models (--service, Debian's python3-botocore)
# over real HTTP on 127.0.0.1: against dynalite (DynamoDB, awsJson1_0),
# CreateTable, `wait TableExists` with botocore's waiter, ListTables pages with
# botocore's paginator, DeleteTable and `wait TableNotExists`; against s3rver
# (S3, restXml), CreateBucket, `wait BucketExists` and `wait ObjectExists`
# (botocore's HTTP status matchers), PutObject/GetObject with the streaming body,
# `wait ObjectNotExists` on a 404 without a body, and ListObjectsV2 items. The
# servers stop when this ends. Skips (77) when botocore's data is not installed.
# Usage: botocore_services.sh ANVIL [BOTOCORE_DATA_DIR]
set -euo pipefail
anvil=$1
data=${2:-/usr/lib/python3/dist-packages/botocore/data}
[[ -d $data/dynamodb && -d $data/s3 ]] || { echo "SKIP: no botocore data in $data (scripts/deps)"; exit 77; }
export ANVIL_MODEL_PATH=$data
servers=$(cd "$(dirname "$0")/../servers" && pwd)
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export AWS_REGION=us-east-1
unset AWS_PROFILE AWS_SESSION_TOKEN

# ---- DynamoDB ----
coproc DYNALITE { exec node "$servers/start.js" dynalite 500; }
# (bash unsets NAME_PID once it reaps the coprocess, as soon as a kill lets it: keep the number)
dynalite_pid=$DYNALITE_PID
pids+=("$dynalite_pid")
read -r -t 20 word port <&"${DYNALITE[0]}"
[[ $word == PORT ]] || fail "dynalite did not start"
export AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=test-secret
http=(--endpoint-url "http://127.0.0.1:$port")
ddb=(--service dynamodb "${http[@]}")
table='{"TableName":"orders","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}'

"$anvil" call "${ddb[@]}" CreateTable --input "$table" > "$work/create.json" || fail "CreateTable"
grep -q '"TableStatus": "CREATING"' "$work/create.json" || fail "CreateTable: $(cat "$work/create.json")"
# botocore's TableExists waits 20 s between polls; the override keeps the test short.
"$anvil" wait "${ddb[@]}" TableExists --input '{"TableName":"orders"}' --max-wait 30 --min-delay 1 --max-delay 1 \
  --output json > "$work/wait.json" || fail "TableExists: $(cat "$work/wait.json")"
grep -q '"reason":"success"' "$work/wait.json" && grep -q '"TableStatus":"ACTIVE"' "$work/wait.json" ||
  fail "TableExists: $(cat "$work/wait.json")"
echo "ok: dynamodb CreateTable, then TableExists, from botocore's service-2 and waiters-2"

for i in 1 2 3 4; do
  "$anvil" call "${ddb[@]}" CreateTable --input "${table/orders/tab$i}" > /dev/null || fail "CreateTable tab$i"
done
"$anvil" paginate "${ddb[@]}" ListTables --page-size 2 --items > "$work/tables.txt" || fail "ListTables"
[[ $(sort "$work/tables.txt" | tr -d '\n') == '"orders""tab1""tab2""tab3""tab4"' ]] ||
  fail "ListTables: $(cat "$work/tables.txt")"
echo "ok: dynamodb ListTables, 5 tables 2 a page, with botocore's paginators-1"

"$anvil" call "${ddb[@]}" DeleteTable --input '{"TableName":"orders"}' > /dev/null || fail "DeleteTable"
"$anvil" wait "${ddb[@]}" TableNotExists --input '{"TableName":"orders"}' --max-wait 30 --min-delay 1 \
  --max-delay 1 --output json > "$work/gone.json" || fail "TableNotExists: $(cat "$work/gone.json")"
grep -q '"reason":"success"' "$work/gone.json" || fail "TableNotExists: $(cat "$work/gone.json")"
echo "ok: dynamodb DeleteTable, then TableNotExists (botocore's error matcher)"

# ---- S3 ----
# bash runs one coprocess at a time: dynalite goes first.
kill "$dynalite_pid" 2>/dev/null || true
wait "$dynalite_pid" 2>/dev/null || true
# s3rver's continuation tokens use DES, which OpenSSL 3 keeps in its legacy provider.
coproc S3RVER { exec node --openssl-legacy-provider "$servers/start.js" s3rver; }
s3rver_pid=$S3RVER_PID
pids+=("$s3rver_pid")
read -r -t 20 word port <&"${S3RVER[0]}"
[[ $word == PORT ]] || fail "s3rver did not start"
export AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER
s3=(--service s3 --endpoint-url "http://127.0.0.1:$port")
waits() { # WAITER INPUT: a botocore S3 waiter (5 s between polls, overridden) that must succeed
  "$anvil" wait "${s3[@]}" "$1" --input "$2" --max-wait 30 --min-delay 1 --max-delay 1 --output json \
    > "$work/wait.json" || fail "$1 $2: $(cat "$work/wait.json")"
  grep -q '"state":"success"' "$work/wait.json" || fail "$1 outcome: $(cat "$work/wait.json")"
}

"$anvil" call "${s3[@]}" CreateBucket --input '{"Bucket":"anvil-boto"}' > /dev/null || fail "CreateBucket"
waits BucketExists '{"Bucket":"anvil-boto"}'
echo "ok: s3 CreateBucket, then BucketExists (botocore's status 200 matcher)"

"$anvil" call "${s3[@]}" PutObject --input '{"Bucket":"anvil-boto","Key":"dir/a b.txt","Body":"aGVsbG8="}' \
  > "$work/put.json" || fail "PutObject"
grep -q '"ETag"' "$work/put.json" || fail "PutObject output: $(cat "$work/put.json")"
waits ObjectExists '{"Bucket":"anvil-boto","Key":"dir/a b.txt"}'
"$anvil" call "${s3[@]}" GetObject --input '{"Bucket":"anvil-boto","Key":"dir/a b.txt"}' > "$work/get.json" ||
  fail "GetObject"
grep -q '"Body": "aGVsbG8="' "$work/get.json" || fail "GetObject body: $(cat "$work/get.json")"
echo "ok: s3 PutObject and GetObject with botocore's streaming Body, ObjectExists between"

waits ObjectNotExists '{"Bucket":"anvil-boto","Key":"no/such key"}'
echo "ok: s3 ObjectNotExists on a missing key (botocore's status 404 matcher)"

for i in 1 2 3; do
  "$anvil" call "${s3[@]}" PutObject --input "{\"Bucket\":\"anvil-boto\",\"Key\":\"k$i\",\"Body\":\"\"}" \
    > /dev/null || fail "PutObject k$i"
done
"$anvil" paginate "${s3[@]}" ListObjectsV2 --input '{"Bucket":"anvil-boto"}' --page-size 2 --items \
  > "$work/items.txt" || fail "ListObjectsV2"
[[ $(wc -l < "$work/items.txt") == 4 ]] || fail "ListObjectsV2 items: $(cat "$work/items.txt")"
echo "ok: s3 ListObjectsV2, 4 keys 2 a page, flattened Contents read from botocore's model"
echo "PASS botocore services end to end"
