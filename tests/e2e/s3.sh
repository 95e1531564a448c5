#!/usr/bin/env bash
# anvil against s3rver (S3, restXml) on 127.0.0.1 with the real S3 Smithy
# model, path-style against --endpoint-url, through the fault proxy
# (tests/servers/faults.js), which checks every SigV4 signature by S3's rules
# (the path as sent, encoded once; x-amz-content-sha256): s3rver itself only
# checks the access key. CreateBucket, then
# `wait BucketExists`; PutObject, then `wait ObjectExists`; `wait
# ObjectNotExists` on a missing key (S3's body-less 404 on HEAD, which the
# waiter's errorType NotFound matches); GetObject's body back as base64;
# ListObjectsV2 over 7 keys with --page-size 2 (4 pages). The server stops
# when this ends.
# Usage: s3.sh ANVIL TESTDATA_DIR [BOTOCORE_DATA_DIR]
set -euo pipefail
anvil=$1
model=$2/smithy-models/aws/s3-2006-03-01.json
botocore=${3:-/usr/lib/python3/dist-packages/botocore/data}/s3/2006-03-01/paginators-1.json
servers=$(cd "$(dirname "$0")/../servers" && pwd)
work=$(mktemp -d)
# s3rver's continuation tokens use DES, which OpenSSL 3 keeps in its legacy provider.
coproc SERVER { exec node --openssl-legacy-provider "$servers/start.js" s3rver; }
server_pid=$SERVER_PID
trap 'kill "$server_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
read -r -t 20 word s3port <&"${SERVER[0]}"
[[ $word == PORT ]] || { echo "s3rver did not start"; exit 1; }
export AWS_ACCESS_KEY_ID=S3RVER AWS_SECRET_ACCESS_KEY=S3RVER AWS_REGION=us-east-1
unset AWS_PROFILE AWS_SESSION_TOKEN
# The proxy reads a FIFO this script holds open: it stops itself when the script ends.
: > "$work/script"
: > "$work/log"
mkfifo "$work/proxy.in"
exec {proxy_in}<>"$work/proxy.in"
node "$servers/faults.js" "$s3port" "$work/script" "$work/log" < "$work/proxy.in" > "$work/proxy.out" &
proxy_pid=$!
trap 'kill "$server_pid" "$proxy_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  read -r word port < "$work/proxy.out" 2>/dev/null && [[ ${word:-} == PORT ]] && break
  sleep 0.1
done
[[ ${word:-} == PORT ]] || { echo "the proxy did not start"; exit 1; }
http=(--endpoint-url "http://127.0.0.1:$port")
fail() { echo "FAIL: $*"; echo "--- proxy log"; cat "$work/log"; exit 1; }
wait_for() { # WAITER INPUT: a wait that must succeed, its JSON outcome in $work/wait.json
  "$anvil" wait --model "$model" "$1" "${http[@]}" --input "$2" --max-wait 30 --output json > "$work/wait.json" \
    || fail "$1 $2: $(cat "$work/wait.json")"
  grep -q '"state":"success"' "$work/wait.json" || fail "$1 outcome: $(cat "$work/wait.json")"
}

"$anvil" call --model "$model" CreateBucket "${http[@]}" --input '{"Bucket":"anvil-e2e"}' > "$work/create.json" \
  || fail "CreateBucket"
wait_for BucketExists '{"Bucket":"anvil-e2e"}'
echo "ok: CreateBucket, then BucketExists"

# A key that needs escaping in the path: a space and a slash (kept by the greedy label).
"$anvil" call --model "$model" PutObject "${http[@]}" \
  --input '{"Bucket":"anvil-e2e","Key":"dir/hello world.txt","Body":"aGVsbG8sIHdvcmxk","ContentType":"text/plain"}' \
  > "$work/put.json" || fail "PutObject"
grep -q '"ETag"' "$work/put.json" || fail "PutObject output: $(cat "$work/put.json")"
wait_for ObjectExists '{"Bucket":"anvil-e2e","Key":"dir/hello world.txt"}'
echo "ok: PutObject, then ObjectExists"

wait_for ObjectNotExists '{"Bucket":"anvil-e2e","Key":"no/such key"}'
grep -q '"code":"NotFound"' "$work/wait.json" || fail "ObjectNotExists did not see NotFound: $(cat "$work/wait.json")"
echo "ok: ObjectNotExists on a missing key (a 404 without a body is NotFound)"

"$anvil" call --model "$model" GetObject "${http[@]}" --input '{"Bucket":"anvil-e2e","Key":"dir/hello world.txt"}' \
  > "$work/get.json" || fail "GetObject"
grep -q '"Body": "aGVsbG8sIHdvcmxk"' "$work/get.json" || fail "GetObject body: $(cat "$work/get.json")"
grep -q '"ContentType": "text/plain"' "$work/get.json" || fail "GetObject headers: $(cat "$work/get.json")"
echo "ok: GetObject gives the body as base64 and its headers as members"

# A bucket that does not exist: the service's modelled error, exit 3.
set +e
"$anvil" call --model "$model" ListObjectsV2 "${http[@]}" --input '{"Bucket":"no-such-bucket"}' 2> "$work/err"
code=$?
set -e
[[ $code == 3 ]] && grep -q "NoSuchBucket" "$work/err" || fail "missing bucket: exit $code, $(cat "$work/err")"
echo "ok: a missing bucket is NoSuchBucket"

for i in 1 2 3 4 5 6; do
  "$anvil" call --model "$model" PutObject "${http[@]}" --input "{\"Bucket\":\"anvil-e2e\",\"Key\":\"k$i\",\"Body\":\"\"}" \
    > /dev/null || fail "PutObject k$i"
done
"$anvil" paginate --model "$model" ListObjectsV2 "${http[@]}" --input '{"Bucket":"anvil-e2e"}' --page-size 2 \
  > "$work/pages.txt" || fail "ListObjectsV2 pages"
[[ $(wc -l < "$work/pages.txt") == 4 ]] || fail "ListObjectsV2: $(wc -l < "$work/pages.txt") pages, want 4"
keys=$(python3 -c 'import json,sys; print(" ".join(o["Key"] for l in open(sys.argv[1]) for o in json.loads(l)["Contents"]))' \
  "$work/pages.txt")
[[ $keys == "dir/hello world.txt k1 k2 k3 k4 k5 k6" ]] || fail "ListObjectsV2 keys: $keys"
echo "ok: ListObjectsV2 over 7 keys, 2 a page: 4 pages, every key once"
if [[ -f $botocore ]]; then
  "$anvil" paginate --model "$model" --botocore "$botocore" ListObjectsV2 "${http[@]}" \
    --input '{"Bucket":"anvil-e2e"}' --page-size 3 --items > "$work/items.txt" || fail "ListObjectsV2 items"
  [[ $(wc -l < "$work/items.txt") == 7 ]] || fail "ListObjectsV2 items: $(cat "$work/items.txt")"
  echo "ok: ListObjectsV2 items through botocore's paginator (result_key Contents)"
fi
! grep -q "bad-signature" "$work/log" || fail "a request was signed over something else"
echo "ok: every request's signature matched what arrived"
echo "PASS s3 end to end"
