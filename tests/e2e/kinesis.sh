#!/usr/bin/env bash
# anvil against kinesalite (Kinesis, awsJson1_1) on 127.0.0.1 with the real
# Kinesis Smithy model: CreateStream, then `anvil wait StreamExists`; then
# ListStreams paged by botocore's paginator (more_results HasMoreStreams)
# when Debian's botocore data is there. The server stops when this ends.
# Usage: kinesis.sh ANVIL TESTDATA_DIR [BOTOCORE_DATA_DIR]
set -euo pipefail
anvil=$1
model=$2/smithy-models/aws/kinesis-2013-12-02.json
botocore=${3:-/usr/lib/python3/dist-packages/botocore/data}/kinesis/2013-12-02/paginators-1.json
servers=$(cd "$(dirname "$0")/../servers" && pwd)
work=$(mktemp -d)
coproc SERVER { exec node "$servers/start.js" kinesalite 500; }
server_pid=$SERVER_PID
trap 'kill "$server_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
read -r -t 20 word port <&"${SERVER[0]}"
[[ $word == PORT ]] || { echo "kinesalite did not start"; exit 1; }
export AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=test-secret AWS_REGION=us-east-1
unset AWS_PROFILE AWS_SESSION_TOKEN
http=(--endpoint-url "http://127.0.0.1:$port")
fail() { echo "FAIL: $*"; exit 1; }

for s in s1 s2 s3; do
  "$anvil" call --model "$model" CreateStream "${http[@]}" --input "{\"StreamName\":\"$s\",\"ShardCount\":1}" > /dev/null
done
"$anvil" wait --model "$model" StreamExists "${http[@]}" --input '{"StreamName":"s1"}' --max-wait 30 \
  --min-delay 1 --max-delay 1 --output json > "$work/wait.json" || fail "StreamExists: $(cat "$work/wait.json")"
grep -q '"StreamStatus":"ACTIVE"' "$work/wait.json" || fail "StreamExists output: $(cat "$work/wait.json")"
echo "ok: CreateStream, then StreamExists"

if [[ -f $botocore ]]; then
  "$anvil" paginate --model "$model" --botocore "$botocore" ListStreams "${http[@]}" --page-size 2 --items \
    > "$work/streams.txt"
  [[ $(sort "$work/streams.txt" | tr -d '\n') == '"s1""s2""s3"' ]] || fail "ListStreams: $(cat "$work/streams.txt")"
  echo "ok: ListStreams through botocore's paginator, 3 streams"
else
  echo "skip: no botocore data at $botocore for the ListStreams paginator"
fi
echo "PASS kinesis end to end"
