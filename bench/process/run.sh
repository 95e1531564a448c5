#!/usr/bin/env bash
# Whole processes (issue 21's lean process): start-up of commands that make no HTTP call against jp
# (Debian's Go JMESPath CLI), and the peak memory of `anvil wait` over HTTP against dynalite, with
# Debian's aws-cli waiting on the same table as the peer. Paired and interleaved by bench_process.
# Usage: bench/process/run.sh BUILD_DIR
set -euo pipefail
build=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
anvil=$build/tools/anvil/anvil
bench=$build/bench/bench_process
model=$root/../shared/testdata/smithy-models/aws/dynamodb-2012-08-10.json
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
command -v jp > /dev/null || { echo "bench process: jp is missing (apt install jp)"; exit 1; }

echo '{"Table": {"TableName": "orders", "TableStatus": "ACTIVE", "ItemCount": 42}}' > "$work/doc.json"
printf '\n== start-up: a command that makes no HTTP call (the libraries it maps are what it pays for)\n'
echo "anvil maps: $(ldd "$anvil" | awk '{print $1}' | tr '\n' ' ')"
"$bench" --runs 5 --rounds 41 --stdin "$work/doc.json" \
  "anvil query" -- "$anvil" query Table.TableStatus --- \
  "jp" -- jp Table.TableStatus --- \
  "anvil --version" -- "$anvil" --version

"$root/scripts/test-servers" > /dev/null
mkfifo "$work/in"
exec {hold}<>"$work/in"
node "$root/tests/servers/start.js" dynalite 0 < "$work/in" > "$work/dyn" &
for _ in $(seq 100); do read -r w port < "$work/dyn" 2>/dev/null && [[ ${w:-} == PORT ]] && break; sleep 0.1; done
export AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=bench-secret AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1
export AWS_EC2_METADATA_DISABLED=true AWS_PAGER=""
url=http://127.0.0.1:$port
"$anvil" call --model "$model" CreateTable --endpoint-url "$url" --input \
  '{"TableName": "orders", "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}], "BillingMode": "PAY_PER_REQUEST"}' > /dev/null
printf '\n== anvil wait over HTTP (one DescribeTable, SigV4, the table already ACTIVE): peak memory\n'
# The same wait through libcurl (what a configured proxy gets), and Debian's aws-cli.
peers=(--- "anvil wait through libcurl" -- env ANVIL_HTTP=curl "$anvil" wait --model "$model" TableExists
  --input '{"TableName": "orders"}' --max-wait 10 --endpoint-url "$url")
[[ -x /usr/bin/aws ]] && peers+=(--- "aws dynamodb wait" -- /usr/bin/aws --endpoint-url "$url" dynamodb wait
  table-exists --table-name orders)
"$bench" --runs 3 --rounds 5 \
  "anvil wait" -- "$anvil" wait --model "$model" TableExists --input '{"TableName": "orders"}' --max-wait 10 \
  --endpoint-url "$url" "${peers[@]}"

printf '\n== anvil wait over HTTPS: what the trust store costs each process\n'
# The fault proxy answers TLS in front of the same dynalite, with a certificate from a CA made here.
# "one CA certificate" is what a hashed CA directory reads (the issuer only: anvil's default where
# the system has one); "the system's bundle" is /etc/ssl/certs/ca-certificates.crt plus that CA,
# parsed whole, as libcurl's default CA file was by every process before.
if command -v openssl > /dev/null && [[ -f /etc/ssl/certs/ca-certificates.crt ]]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/ca.key" -out "$work/ca.pem" \
    -days 2 -subj "/CN=anvil bench CA" -addext basicConstraints=critical,CA:TRUE 2> /dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/server.key" -out "$work/server.csr" \
    -subj "/CN=anvil bench server" 2> /dev/null
  printf 'subjectAltName=IP:127.0.0.1\n' > "$work/ext"
  openssl x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial \
    -out "$work/server.pem" -days 2 -extfile "$work/ext" 2> /dev/null
  cat /etc/ssl/certs/ca-certificates.crt "$work/ca.pem" > "$work/bundle.pem"
  : > "$work/script"
  mkfifo "$work/tls.in"
  exec {tls_hold}<>"$work/tls.in"
  FAULTS_TLS_CERT=$work/server.pem FAULTS_TLS_KEY=$work/server.key \
    node "$root/tests/servers/faults.js" "$port" "$work/script" "$work/log" < "$work/tls.in" > "$work/tls.out" &
  for _ in $(seq 100); do read -r w tport < "$work/tls.out" 2>/dev/null && [[ ${w:-} == PORT ]] && break; sleep 0.1; done
  wait_https=("$anvil" wait --model "$model" TableExists --input '{"TableName": "orders"}' --max-wait 10
    --endpoint-url "https://127.0.0.1:$tport")
  echo "the system's bundle: $(grep -c 'BEGIN CERTIFICATE' "$work/bundle.pem") certificates"
  "$bench" --runs 3 --rounds 15 \
    "one CA certificate" -- "${wait_https[@]}" --ca-bundle "$work/ca.pem" --- \
    "the system's bundle" -- "${wait_https[@]}" --ca-bundle "$work/bundle.pem" --- \
    "one CA certificate, through libcurl" -- env ANVIL_HTTP=curl "${wait_https[@]}" --ca-bundle "$work/ca.pem"
else
  echo "skipped: no openssl tool or no /etc/ssl/certs/ca-certificates.crt"
fi
