#!/usr/bin/env bash
# anvil wait against Debian's aws-cli on the same dynalite (issue 9's bench/e2e): tables that turn
# ACTIVE after 1, 5, 20 and 60 s; per case the time from ACTIVE to the tool returning, the
# DescribeTable requests it sent (counted by the pass-through proxy) and its whole-process CPU
# time. Real time passes here: a benchmark, not a test (several minutes).
# Usage: bench/e2e/run.sh ANVIL [SECONDS...]
set -euo pipefail
anvil=$1
shift
delays=("$@")
[[ ${#delays[@]} -gt 0 ]] || delays=(1 5 20 60)
root=$(cd "$(dirname "$0")/../.." && pwd)
model=$root/../shared/testdata/smithy-models/aws/dynamodb-2012-08-10.json
servers=$root/tests/servers
aws=/usr/bin/aws
[[ -x $aws ]] || { echo "bench e2e: Debian's awscli is missing (apt install awscli)"; exit 1; }
"$root/scripts/test-servers" > /dev/null
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
export AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=bench-secret AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1
export AWS_PAGER="" AWS_MAX_ATTEMPTS=3

start_server() { # $1 createTableMs -> sets port (through the counting proxy)
  mkfifo "$work/in.$1" "$work/pin.$1"
  exec {hold}<>"$work/in.$1"
  exec {phold}<>"$work/pin.$1"
  node "$servers/start.js" dynalite "$1" < "$work/in.$1" > "$work/dyn.$1" &
  server_pids=($!)
  for _ in $(seq 100); do read -r w dport < "$work/dyn.$1" 2>/dev/null && [[ ${w:-} == PORT ]] && break; sleep 0.1; done
  : > "$work/script"
  node "$servers/faults.js" "$dport" "$work/script" "$work/log.$1" < "$work/pin.$1" > "$work/proxy.$1" &
  server_pids+=($!)
  for _ in $(seq 100); do read -r w port < "$work/proxy.$1" 2>/dev/null && [[ ${w:-} == PORT ]] && break; sleep 0.1; done
}

now() { date +%s.%N; }
printf '\n== anvil wait vs aws-cli %s (dynalite; the table turns ACTIVE after N s)\n' "$($aws --version 2>&1 | cut -d' ' -f1)"
printf '  %-6s %-30s %20s %10s %10s\n' "ACTIVE" "tool" "returned after ACTIVE" "requests" "CPU s"
for d in "${delays[@]}"; do
  start_server $((d * 1000))
  endpoint=http://127.0.0.1:$port
  n=0
  for tool in aws anvil-model anvil-1-5; do
    n=$((n + 1))
    name=bench$d$n
    "$anvil" call --model "$model" CreateTable --endpoint-url "$endpoint" --input \
      "{\"TableName\":\"$name\",\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],\"BillingMode\":\"PAY_PER_REQUEST\"}" > /dev/null
    active=$(echo "$(now) + $d" | bc)
    : > "$work/log.$((d * 1000))"
    case $tool in
      aws) cmd=("$aws" dynamodb wait table-exists --table-name "$name" --endpoint-url "$endpoint") ;;
      anvil-model) cmd=("$anvil" wait --model "$model" TableExists --endpoint-url "$endpoint" --input "{\"TableName\":\"$name\"}" --max-wait 900 --progress none) ;;
      anvil-1-5) cmd=("$anvil" wait --model "$model" TableExists --endpoint-url "$endpoint" --input "{\"TableName\":\"$name\"}" --max-wait 900 --min-delay 1 --max-delay 5 --progress none) ;;
    esac
    /usr/bin/time -f "%U %S" -o "$work/cpu" "${cmd[@]}" > /dev/null 2>&1 || true
    done_at=$(now)
    read -r user sys < "$work/cpu"
    requests=$(grep -c '^DescribeTable ' "$work/log.$((d * 1000))" || true)
    label=$tool
    [[ $tool == aws ]] && label="aws dynamodb wait table-exists"
    [[ $tool == anvil-model ]] && label="anvil wait (model 20-120 s)"
    [[ $tool == anvil-1-5 ]] && label="anvil wait --min 1 --max 5"
    printf '  %-6s %-30s %19.1fs %10s %10.2f\n' "${d}s" "$label" "$(echo "$done_at - $active" | bc)" "$requests" \
      "$(echo "$user + $sys" | bc)"
  done
  kill "${server_pids[@]}" 2>/dev/null || true
done
