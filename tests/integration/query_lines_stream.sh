#!/usr/bin/env bash
# `anvil query --lines` answers each line as it arrives: a writer that waits for the answer to
# its first line before it sends the second gets it (the answer does not wait for the end of the
# input); 200,000 lines through a pipe are all answered, in order.
# Usage: query_lines_stream.sh ANVIL
set -euo pipefail
anvil=$1
work=$(mktemp -d)
query_pid=
trap 'if [[ -n $query_pid ]]; then kill "$query_pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

coproc QUERY { exec "$anvil" query --lines 'a.b'; }
query_pid=$QUERY_PID
printf '{"a": {"b": 1}}\n' >&"${QUERY[1]}"
# The input is still open: only a streaming reader answers now (20 s is a failure bound, not a wait).
read -r -t 20 first <&"${QUERY[0]}" || fail "no answer to the first line while the input stays open"
[[ $first == 1 ]] || fail "first answer: $first"
printf '\n{"a": {"b": [2, "x"]}}\n{"a": {"b": "tail"}}' >&"${QUERY[1]}"
exec {QUERY[1]}>&-
read -r -t 20 second <&"${QUERY[0]}" || fail "no answer to the second line"
read -r -t 20 third <&"${QUERY[0]}" || fail "no answer to the last line (no newline after it)"
[[ $second == '[2,"x"]' && $third == '"tail"' ]] || fail "answers: $second / $third"
wait "$query_pid" || fail "exit $?"
query_pid=
echo "ok: each line answered as it arrives, the last one without a newline too"

# 200,000 lines (about 9 MB) through a pipe: every answer, in order, in bounded memory.
python3 -c '
import sys
for i in range(200000):
    sys.stdout.write("{\"a\": {\"b\": %d}, \"pad\": \"%s\"}\n" % (i, "x" * 20))' |
  /usr/bin/time -f '%M' -o "$work/rss" "$anvil" query --lines 'a.b' > "$work/out"
[[ $(wc -l < "$work/out") == 200000 && $(head -1 "$work/out") == 0 && $(tail -1 "$work/out") == 199999 ]] ||
  fail "200,000 answers wanted, in order"
rss_kb=$(cat "$work/rss")
echo "ok: 200,000 lines answered in order, peak RSS ${rss_kb} KB"
