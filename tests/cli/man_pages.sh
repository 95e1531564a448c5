#!/usr/bin/env bash
# Checks the generated man pages: one per command `anvil --help` lists, plus anvil.1, each with
# its sections; and, when groff is installed, that each renders without a warning.
# Usage: man_pages.sh ANVIL MAN_DIR
set -uo pipefail
anvil=$1 dir=$2
fail=0
commands=$("$anvil" --help | awk '/^Commands:/ { on = 1; next } /^$/ { on = 0 } on { print $1 }')
[[ -n $commands ]] || { echo "FAIL: no commands in anvil --help"; exit 1; }
pages=(anvil.1)
for c in $commands; do
  pages+=("anvil-$c.1")
done
for page in "${pages[@]}"; do
  f=$dir/$page
  [[ -s $f ]] || { echo "FAIL: $f is missing"; fail=1; continue; }
  for section in NAME SYNOPSIS DESCRIPTION '"EXIT STATUS"' '"SEE ALSO"'; do
    grep -qx "\\.SH $section" "$f" || { echo "FAIL: $page has no $section section"; fail=1; }
  done
done
grep -qx '\.SH ENVIRONMENT' "$dir/anvil.1" || { echo "FAIL: anvil.1 has no ENVIRONMENT section"; fail=1; }
grep -qx '\.SH OPTIONS' "$dir/anvil-wait.1" || { echo "FAIL: anvil-wait.1 has no OPTIONS section"; fail=1; }
grep -q 'fB\\-\\-max\\-wait' "$dir/anvil-wait.1" || { echo "FAIL: anvil-wait.1 does not list --max-wait"; fail=1; }
# Nothing but the listed commands has a page (the hidden __complete has none).
for f in "$dir"/*.1; do
  [[ " ${pages[*]} " == *" $(basename "$f") "* ]] || { echo "FAIL: unexpected page $f"; fail=1; }
done

if command -v groff > /dev/null; then
  for page in "${pages[@]}"; do
    [[ -f $dir/$page ]] || continue
    warnings=$(groff -man -Tutf8 -ww -z "$dir/$page" 2>&1)
    [[ -z $warnings ]] || { echo "FAIL: groff warns about $page:"; echo "$warnings"; fail=1; }
  done
  # The page reads as it should.
  text=$(groff -man -Tutf8 "$dir/anvil-wait.1" 2> /dev/null | sed 's/.\x08//g')
  [[ $text == *"--max-wait S"* ]] || { echo "FAIL: anvil-wait.1 does not render --max-wait S"; fail=1; }
else
  echo "skipped rendering: no groff"
fi
[[ $fail == 0 ]] && echo "PASS man pages (${#pages[@]})"
exit $fail
