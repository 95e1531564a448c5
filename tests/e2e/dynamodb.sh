#!/usr/bin/env bash
# anvil against dynalite (DynamoDB) over real HTTP on 127.0.0.1, with the
# real DynamoDB Smithy model: CreateTable, then `anvil wait TableExists`
# through CREATING -> ACTIVE; DeleteTable, then TableNotExists; TableExists
# on a table never created times out (exit 2) naming the last error;
# ListTables pages over 7 tables with Limit 2; Scan pages on the map token
# LastEvaluatedKey. The server stops when this script ends.
# Usage: dynamodb.sh ANVIL TESTDATA_DIR
set -euo pipefail
anvil=$1
model=$2/smithy-models/aws/dynamodb-2012-08-10.json
servers=$(cd "$(dirname "$0")/../servers" && pwd)
work=$(mktemp -d)
coproc SERVER { exec node "$servers/start.js" dynalite 500; }
server_pid=$SERVER_PID
trap 'kill "$server_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
read -r -t 20 word port <&"${SERVER[0]}"
[[ $word == PORT ]] || { echo "dynalite did not start"; exit 1; }
export AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=test-secret AWS_REGION=us-east-1
unset AWS_PROFILE AWS_SESSION_TOKEN
http=(--endpoint-url "http://127.0.0.1:$port")
fail() { echo "FAIL: $*"; exit 1; }

table() { printf '{"TableName":"%s","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}' "$1"; }

# CreateTable, then wait until ACTIVE (the first describe sees CREATING).
"$anvil" call --model "$model" CreateTable "${http[@]}" --input "$(table orders)" > "$work/create.json"
grep -q '"TableStatus": "CREATING"' "$work/create.json" || fail "CreateTable: $(cat "$work/create.json")"
"$anvil" wait --model "$model" TableExists "${http[@]}" --input '{"TableName":"orders"}' --max-wait 30 \
  --min-delay 1 --max-delay 1 --output json --progress json > "$work/wait.json" 2> "$work/progress.txt" ||
  fail "TableExists exited $?: $(cat "$work/wait.json" "$work/progress.txt")"
grep -q '"reason":"success"' "$work/wait.json" || fail "TableExists: $(cat "$work/wait.json")"
grep -q '"TableStatus":"ACTIVE"' "$work/wait.json" || fail "TableExists output: $(cat "$work/wait.json")"
echo "ok: CreateTable, then TableExists: $(grep -c attempt "$work/progress.txt") attempts"

# An endpoint with a trailing slash posts to the same "/" (sent and signed).
"$anvil" call --model "$model" ListTables --endpoint-url "http://127.0.0.1:$port/" > "$work/list.json" ||
  fail "ListTables through http://127.0.0.1:$port/"
grep -q '"orders"' "$work/list.json" || fail "ListTables: $(cat "$work/list.json")"
echo "ok: an endpoint URL with a trailing slash"

# --query on call, wait and paginate: the answer through JMESPath, as aws-cli has it.
names=$("$anvil" call --model "$model" ListTables "${http[@]}" --query 'TableNames[0]') || fail "call --query exited $?"
[[ $names == '"orders"' ]] || fail "call --query: $names"
status=$("$anvil" wait --model "$model" TableExists "${http[@]}" --input '{"TableName":"orders"}' --max-wait 30 \
  --output json --query 'Table.TableStatus') || fail "wait --query exited $?"
grep -q '"output":"ACTIVE"' <<< "$status" || fail "wait --query: $status"
pages=$("$anvil" paginate --model "$model" ListTables "${http[@]}" --query 'length(TableNames)' |
  "$anvil" query --lines '@') || fail "paginate --query | query --lines exited $?"
[[ $pages == 1 ]] || fail "paginate --query: $pages"
echo "ok: --query on call, wait and paginate, and query --lines"

# DeleteTable, then TableNotExists.
"$anvil" call --model "$model" DeleteTable "${http[@]}" --input '{"TableName":"orders"}' > /dev/null
"$anvil" wait --model "$model" TableNotExists "${http[@]}" --input '{"TableName":"orders"}' --max-wait 30 \
  --min-delay 1 --max-delay 1 --output json > "$work/gone.json" || fail "TableNotExists: $(cat "$work/gone.json")"
grep -q '"reason":"success"' "$work/gone.json" || fail "TableNotExists: $(cat "$work/gone.json")"
echo "ok: DeleteTable, then TableNotExists"

# A table never created: the wait times out, naming the last error.
set +e
"$anvil" wait --model "$model" TableExists "${http[@]}" --input '{"TableName":"never"}' --max-wait 2 \
  --min-delay 1 --max-delay 1 --output json > "$work/never.json"
code=$?
set -e
[[ $code == 2 ]] || fail "TableExists on a missing table exited $code: $(cat "$work/never.json")"
grep -q '"reason":"timed-out"' "$work/never.json" && grep -q '"code":"ResourceNotFoundException"' "$work/never.json" ||
  fail "the timeout outcome: $(cat "$work/never.json")"
echo "ok: TableExists on a missing table times out (exit 2) with ResourceNotFoundException"

# ListTables over 7 tables, 2 a page: every name exactly once.
for i in 1 2 3 4 5 6 7; do
  "$anvil" call --model "$model" CreateTable "${http[@]}" --input "$(table "tab$i")" > /dev/null
done
"$anvil" paginate --model "$model" ListTables "${http[@]}" --page-size 2 --items > "$work/tables.txt"
[[ $(sort "$work/tables.txt" | tr -d '\n') == '"tab1""tab2""tab3""tab4""tab5""tab6""tab7"' ]] || fail "ListTables: $(cat "$work/tables.txt")"
"$anvil" paginate --model "$model" ListTables "${http[@]}" --page-size 2 > "$work/pages.txt"
[[ $(wc -l < "$work/pages.txt") == 4 ]] || fail "ListTables pages: $(cat "$work/pages.txt")"
echo "ok: ListTables, 7 tables in 4 pages of 2"

# Scan pages on LastEvaluatedKey, a map token.
"$anvil" wait --model "$model" TableExists "${http[@]}" --input '{"TableName":"tab1"}' --max-wait 30 --min-delay 1 \
  --max-delay 1 > /dev/null
for i in 1 2 3 4 5; do
  "$anvil" call --model "$model" PutItem "${http[@]}" --input "{\"TableName\":\"tab1\",\"Item\":{\"id\":{\"S\":\"k$i\"}}}" > /dev/null
done
"$anvil" paginate --model "$model" Scan "${http[@]}" --input '{"TableName":"tab1"}' --page-size 2 --items > "$work/items.txt"
[[ $(wc -l < "$work/items.txt") == 5 ]] || fail "Scan items: $(cat "$work/items.txt")"
[[ $(sort -u "$work/items.txt" | wc -l) == 5 ]] || fail "Scan repeated items: $(cat "$work/items.txt")"
echo "ok: Scan, 5 items over LastEvaluatedKey pages"
echo "PASS dynamodb end to end"
