#!/usr/bin/env bash
# Runs one CLI golden case: run_case.sh ANVIL_BINARY CASE_FILE
#
# A case file holds sections, each starting with a line "--- NAME":
#   args     one argument per line (required; may be empty)
#   stdin    bytes fed to standard input (default: none)
#   env      VAR=VALUE lines set for the run (e.g. ANVIL_FAKE_TIME=1)
#   exit     the expected exit code (required)
#   requires what the build must have, else the case is skipped with why:
#            "debug-origin" (a debug build names where an error was raised)
#   stdout   the exact expected standard output    | or stdout-grep: an
#   stderr   the exact expected standard error     | extended regex that
#                                                    must match some line;
#                                                    stdout-absent/stderr-absent:
#                                                    regexes no line may match
# A section's text ends at the next "--- " line; its last newline belongs to
# it unless the section name ends in "-nonl". "{{VERSION}}" expands to the
# version the binary reports. "{{TESTDATA}}" expands to ANVIL_TESTDATA_DIR,
# "{{SCRIPTS}}" to tests/cli/scripts and "{{WORK}}" to a scratch directory of
# this run (removed afterwards).
set -euo pipefail
bin=$1
case_file=$2
testdata=${ANVIL_TESTDATA_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/testdata}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Split the case into one file per section.
awk -v dir="$work" '
  /^--- / { name = substr($0, 5); file = dir "/" name; printf "" > file; next }
  name != "" { print >> file }
' "$case_file"

if [[ -f $work/requires ]] && grep -qx debug-origin "$work/requires"; then
  if ! printf '[' | "$bin" --debug json 2>&1 | grep -q 'first raised at'; then
    echo "SKIP $(basename "$case_file") (a release build of anvil names no error origin)"
    exit 0
  fi
fi

for required in args exit; do
  [[ -f $work/$required ]] || { echo "$case_file: no '--- $required' section" >&2; exit 2; }
done

version=$("$bin" --version | sed 's/^anvil //')
scripts=$(cd "$(dirname "$0")/scripts" && pwd)
mkdir "$work/scratch"
subst() {
  sed -e "s|{{VERSION}}|$version|g" -e "s|{{TESTDATA}}|$testdata|g" -e "s|{{SCRIPTS}}|$scripts|g" \
      -e "s|{{WORK}}|$work/scratch|g" "$@"
}
expand() { subst "$1"; }

args=()
while IFS= read -r line; do
  args+=("$(printf '%s' "$line" | subst)")
done < "$work/args"

# No case reaches the real instance metadata service (a case that tests it points it at a fake).
envs=(AWS_EC2_METADATA_DISABLED=true)
if [[ -f $work/env ]]; then
  while IFS= read -r line; do
    [[ -n $line ]] && envs+=("$(printf '%s' "$line" | subst)")
  done < "$work/env"
fi

stdin_file=/dev/null
[[ -f $work/stdin ]] && stdin_file=$work/stdin
if [[ -f $work/stdin-nonl ]]; then
  printf '%s' "$(cat "$work/stdin-nonl")" > "$work/stdin.raw"
  stdin_file=$work/stdin.raw
fi

set +e
env ${envs[@]+"${envs[@]}"} "$bin" "${args[@]}" < "$stdin_file" > "$work/out" 2> "$work/err"
code=$?
set -e

fail=0
want_code=$(tr -d '[:space:]' < "$work/exit")
if [[ $code != "$want_code" ]]; then
  echo "exit code: got $code, want $want_code"
  fail=1
fi
for stream in stdout stderr; do
  got=$work/out
  [[ $stream == stderr ]] && got=$work/err
  if [[ -f $work/$stream ]]; then
    if ! diff -u <(expand "$work/$stream") "$got" > "$work/diff"; then
      echo "$stream differs (- want, + got):"
      cat "$work/diff"
      fail=1
    fi
  fi
  if [[ -f $work/$stream-grep ]]; then
    while IFS= read -r pattern; do
      [[ -z $pattern ]] && continue
      if ! grep -Eq -- "$pattern" "$got"; then
        echo "$stream has no line matching: $pattern"
        echo "--- $stream was:"; cat "$got"
        fail=1
      fi
    done < "$work/$stream-grep"
  fi
  if [[ -f $work/$stream-absent ]]; then
    while IFS= read -r pattern; do
      [[ -z $pattern ]] && continue
      if grep -Eq -- "$pattern" "$got"; then
        echo "$stream has a line matching what must not be there: $pattern"
        echo "--- $stream was:"; cat "$got"
        fail=1
      fi
    done < "$work/$stream-absent"
  fi
done
if [[ $fail != 0 ]]; then
  echo "FAIL $(basename "$case_file")"
  exit 1
fi
echo "PASS $(basename "$case_file")"
