#!/usr/bin/env bash
# Standard output that fails: a reader that goes away (`anvil json big | head -c 10`) and a full
# disk (/dev/full) end anvil with exit 74 and one line saying why, never a death by SIGPIPE
# and never the same error twice.
# Usage: output_errors.sh ANVIL
set -euo pipefail
anvil=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

python3 -c 'import json; print(json.dumps([{"n": i, "s": "x" * 40} for i in range(40000)]))' > "$work/big.json"

set +e
"$anvil" json "$work/big.json" 2> "$work/err" | head -c 10 > /dev/null
code=${PIPESTATUS[0]}
set -e
[[ $code == 74 ]] || fail "a closed pipe: exit $code, want 74"
[[ $(wc -l < "$work/err") == 1 ]] && grep -qx 'anvil: cannot write to standard output: Broken pipe' "$work/err" ||
  fail "a closed pipe: $(cat "$work/err")"
echo "ok: a reader that goes away gives exit 74 and one line"

echo '{"a": 1}' > "$work/small.json"
for input in "$work/big.json" "$work/small.json"; do
  set +e
  "$anvil" json "$input" > /dev/full 2> "$work/err"
  code=$?
  set -e
  [[ $code == 74 ]] || fail "/dev/full: exit $code, want 74"
  [[ $(wc -l < "$work/err") == 1 ]] && grep -qx 'anvil: cannot write to standard output: No space left on device' "$work/err" ||
    fail "/dev/full: $(cat "$work/err")"
done
echo "ok: a full disk gives exit 74 and the error once, for a large output and a small (buffered) one"
