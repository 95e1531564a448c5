#!/usr/bin/env bash
# The generated-code example end to end: dynalite on 127.0.0.1 (tests/servers/start.js), a table
# created with `anvil call`, then the example waits for it with DynamoDB's TableExists compiled to C;
# the table is ACTIVE at once (dynalite with no creation delay), so the first poll succeeds.
# Then the generated paginator lists three tables one page at a time.
# Last, the one-call example (examples/one_call) does both over the model file.
# Usage: run.sh TABLE_EXISTS LIST_TABLES ANVIL MODELS_DIR ONE_CALL
set -euo pipefail
example=$1
list=$2
anvil=$3
models=$4
one_call=$5
servers=$(cd "$(dirname "$0")/../../tests/servers" && pwd)
export AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=test-secret AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true
unset AWS_PROFILE AWS_SESSION_TOKEN
coproc DYNALITE { exec node "$servers/start.js" dynalite 0; }
trap 'kill "$DYNALITE_PID" 2>/dev/null || true' EXIT
read -r -t 20 word port <&"${DYNALITE[0]}"
[[ $word == PORT ]] || { echo "dynalite did not start"; exit 1; }
url=http://127.0.0.1:$port
"$anvil" call --model "$models/dynamodb-2012-08-10.json" --endpoint-url "$url" CreateTable --input '{
  "TableName": "orders", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}' > /dev/null
out=$("$example" orders "$url")
[[ $out == "success after "*" attempts (success)" ]] || { echo "FAIL: $out"; exit 1; }
echo "$out"
for t in items users; do
  "$anvil" call --model "$models/dynamodb-2012-08-10.json" --endpoint-url "$url" CreateTable --input '{
    "TableName": "'$t'", "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}' > /dev/null
done
listed=$("$list" 1 "$url" | tr '\n' ' ')
# Three pages of one (DynamoDB may add an empty fourth after the last name; dynalite does not).
[[ $listed == "items orders users 3 pages " || $listed == "items orders users 4 pages " ]] ||
  { echo "FAIL: list-tables: $listed"; exit 1; }
echo "list-tables: $listed"
said=$("$one_call" "$models/dynamodb-2012-08-10.json" orders "$url" | tr "\n" " ") || { echo "FAIL: one-call exited $?"; exit 1; }
[[ $said == "success after 1 attempts table items table orders table users " ]] || { echo "FAIL: one-call: $said"; exit 1; }
echo "one-call: $said"
echo "PASS codegen example"
