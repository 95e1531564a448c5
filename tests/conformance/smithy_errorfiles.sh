#!/usr/bin/env bash
# Smithy's own validation cases (smithy-errorfiles/paginated): for each X.json,
# `anvil validate` must print exactly the events of X.errors that concern the
# rules anvil implements (PaginatedTrait, Target): same severity, shape id,
# message and event id. Also: every AWS model validates with no ERROR event.
# Usage: smithy_errorfiles.sh ANVIL TESTDATA_DIR
set -uo pipefail
anvil=$1 testdata=$2
dir=$testdata/smithy-errorfiles/paginated
pass=0 fail=0 events=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for model in "$dir"/*.json; do
  name=$(basename "$model" .json)
  grep -E '\| (PaginatedTrait|Target)' "$dir/$name.errors" | sort > "$work/want" || true
  "$anvil" validate "$model" > "$work/out"
  code=$?
  grep -E '\| (PaginatedTrait|Target)' "$work/out" | sort > "$work/got" || true
  want_code=0
  grep -q '^\[ERROR\]' "$work/want" && want_code=1
  if ! diff -u "$work/want" "$work/got" > "$work/diff" || [[ $code != "$want_code" ]]; then
    echo "FAIL $name (exit $code, want $want_code):"
    cat "$work/diff"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
    events=$((events + $(wc -l < "$work/want")))
  fi
done
echo "Smithy errorfiles (paginated): $pass files match exactly, $events events"
"$anvil" validate "$testdata"/smithy-models/aws/*.json > "$work/aws"
code=$?
if [[ $code != 0 ]] || grep -q '^\[ERROR\]' "$work/aws"; then
  echo "FAIL: the AWS models have ERROR events (exit $code):"
  grep '^\[ERROR\]' "$work/aws" | head -20
  fail=$((fail + 1))
else
  pass=$((pass + 1))
  echo "Smithy models validated: $(ls "$testdata"/smithy-models/aws/*.json | wc -l) models, $(wc -l < "$work/aws") events, no ERROR"
fi
echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
