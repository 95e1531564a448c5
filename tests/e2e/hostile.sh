#!/usr/bin/env bash
# What anvil sends and what it prints, against a proxy that checks every
# request's SigV4 signature against what arrived and answers like a hostile
# server: the Host signed is the Host sent (a default port named in the
# endpoint included), the path is sent as signed (dot segments kept), user
# information in an endpoint is refused without printing the password, and
# nothing a server sends (0xFF, a cut character, NUL, ESC sequences, CR/LF,
# C1 controls, bidi overrides, a redirect) makes anvil print invalid JSON or
# anything a terminal acts on.
# Usage: hostile.sh ANVIL TESTDATA_DIR
set -euo pipefail
anvil=$1
model=$2/smithy-models/aws/dynamodb-2012-08-10.json
source "$(dirname "$0")/lib.sh"
e2e_start 0
port=${http[1]##*:}
table='{"TableName":"orders","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}'
"$anvil" call --model "$model" CreateTable "${http[@]}" --input "$table" > /dev/null || fail "CreateTable"

# Nothing printed may hold an ESC, a CR, a C1 control, a bidi override or a byte that is not UTF-8.
clean() {
  python3 - "$@" <<'PY' || fail "unsafe output: $(cat "$@" | od -c | head -20)"
import sys
for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    text = data.decode('utf-8')  # raises on bytes that are not UTF-8
    for bad in ['\x1b', '\r', '\x00', '\x9b', '\u202e']:
        assert bad not in text, (path, repr(bad))
PY
}

# The endpoint's path as given, dot segments and all, then the operation's target ("/" for awsJson, as
# Smithy's HostWithPath cases have it), is what goes out and what is signed.
"$anvil" call --model "$model" DescribeTable --endpoint-url "http://127.0.0.1:$port/a/../b/./c" \
  --input '{"TableName":"orders"}' > /dev/null 2> "$work/err" || fail "dot segments: $(cat "$work/err")"
grep -q "^# host DescribeTable 127.0.0.1:$port /a/../b/./c/\$" "$work/log" || fail "the path was not sent as given"
echo "ok: a path with dot segments is sent as given and the signature matches"

# A default port named in the endpoint: the Host sent and signed has none (port 80 needs root).
if (exec 3<>/dev/tcp/127.0.0.1/80) 2>/dev/null; then
  echo "skipped: port 80 is taken on this machine"
elif [[ $(id -u) != 0 ]]; then
  echo "skipped: listening on port 80 needs root"
else
  FAULTS_PORT=80 node "$servers/faults.js" "$dynalite_port" "$work/script" "$work/log80" < "$work/proxy.in" > "$work/proxy80.out" &
  proxy80=$!
  trap 'kill "$dynalite_pid" "$proxy_pid" "$proxy80" 2>/dev/null || true; rm -rf "$work"' EXIT
  for _ in $(seq 100); do grep -q PORT "$work/proxy80.out" 2>/dev/null && break; sleep 0.1; done
  "$anvil" call --model "$model" DescribeTable --endpoint-url "http://127.0.0.1:80" \
    --input '{"TableName":"orders"}' > /dev/null 2> "$work/err" || fail "port 80: $(cat "$work/err" "$work/log80")"
  grep -q "^# host DescribeTable 127.0.0.1 /\$" "$work/log80" || fail "port 80: $(cat "$work/log80")"
  echo "ok: http://127.0.0.1:80 sends and signs Host 127.0.0.1"
fi

# User information is refused, and the password is printed nowhere, --debug or not.
set +e
"$anvil" call --model "$model" DescribeTable --endpoint-url "http://alice:s3cr3t-pw@127.0.0.1:$port" \
  --input '{"TableName":"orders"}' --debug > "$work/out" 2> "$work/err"
code=$?
set -e
[[ $code == 64 ]] || fail "userinfo: exit $code"
grep -q 's3cr3t-pw' "$work/out" "$work/err" && fail "the password was printed: $(cat "$work/err")"
grep -q 'has user information' "$work/err" || fail "userinfo: $(cat "$work/err")"
echo "ok: an endpoint with user information is refused without printing the password"

# A 500 whose body is bytes, not text: the outcome is valid JSON with U+FFFD for what was not UTF-8.
faults "DescribeTable hostile"
set +e
"$anvil" wait --model "$model" TableExists "${http[@]}" --input '{"TableName":"orders"}' --max-wait 30 \
  --retry-max-attempts 1 --output json > "$work/out" 2> "$work/err"
code=$?
set -e
[[ $code == 3 ]] || fail "hostile body: exit $code $(cat "$work/out")"
"$anvil" json "$work/out" > /dev/null || fail "the outcome is not valid JSON: $(od -c "$work/out" | head)"
python3 - "$work/out" <<'PY' || fail "hostile body: $(cat "$work/out")"
import json, sys
o = json.load(open(sys.argv[1], encoding='utf-8'))
m = o['error']['message']
assert m.startswith('HTTP 500: <b>\ufffd\ufffd bad bytes\x1b[2J'), m
assert '\x00 after a NUL' in m, m  # a NUL no longer cuts the message
assert m.endswith('x'), m  # the euro cut at byte 200 is left out, not half-printed
PY
clean "$work/out" "$work/err"
echo "ok: a 500 with 0xFF, NUL, ESC and a cut character gives valid JSON, each kept or replaced"

faults "DescribeTable hostile"
set +e
"$anvil" wait --model "$model" TableExists "${http[@]}" --input '{"TableName":"orders"}' --max-wait 30 \
  --retry-max-attempts 1 --debug > "$work/out" 2> "$work/err"
set -e
clean "$work/out" "$work/err"
grep -q 'bad bytes\\x1b\[2J\\x1b\]0;pwned\\x07 \\r\\nInjected' "$work/out" || fail "text outcome: $(cat "$work/out")"
echo "ok: the text outcome and --debug escape what the server sent"

faults "DescribeTable hostile-json"
set +e
"$anvil" call --model "$model" DescribeTable "${http[@]}" --input '{"TableName":"orders"}' > "$work/out" 2> "$work/err"
code=$?
set -e
[[ $code == 3 ]] || fail "hostile JSON error: exit $code"
clean "$work/out" "$work/err"
grep -q 'Bad\\x1b\[2JCode: line one\\r\\nInjected: yes \\u{009b}31m \\u{202e}evil (HTTP 400)' "$work/err" ||
  fail "hostile JSON error: $(cat "$work/err")"
echo "ok: an error code and message with ESC, CR/LF, C1 and bidi characters are printed escaped"

faults "DescribeTable redirect"
set +e
"$anvil" call --model "$model" DescribeTable "${http[@]}" --input '{"TableName":"orders"}' > "$work/out" 2> "$work/err"
code=$?
set -e
[[ $code == 3 ]] || fail "redirect: exit $code"
grep -qx 'anvil: call: HTTP 307, a redirect to https://dynamodb.eu-west-1.amazonaws.com/ (anvil does not follow redirects: are the region and the endpoint right?)' "$work/err" ||
  fail "redirect: $(cat "$work/err")"
echo "ok: a redirect says where it pointed and that it was not followed"
