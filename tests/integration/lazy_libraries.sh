#!/usr/bin/env bash
# Commands that make no HTTP call never map libcurl or libcrypto (issue 21's lean process); a
# command that builds a client maps both, on first use. The dynamic loader says what it opens
# (LD_DEBUG=files). Usage: lazy_libraries.sh ANVIL TESTDATA
set -euo pipefail
anvil=$1
testdata=$2
model=$testdata/smithy-models/aws/dynamodb-2012-08-10.json
fail=0
opened() { # the shared objects a run opened, one per line
  LD_DEBUG=files "$@" 2>&1 >/dev/null | sed -n 's/.*file=\([^ ]*\) *\[0\];  *needed by.*/\1/p; s/.*file=\([^ ]*\) *\[0\];  *dynamically loaded by.*/\1/p' | sort -u
}
check() { # WANT (yes|no) NAME CMD...
  local want=$1 name=$2
  shift 2
  local libs
  libs=$(opened "$@" || true)
  local has=no
  grep -Eq '^lib(curl|crypto)' <<< "$libs" && has=yes
  if [[ $has != "$want" ]]; then
    echo "FAIL $name: libcurl/libcrypto mapped: $has (want $want); opened: $(tr '\n' ' ' <<< "$libs")"
    fail=1
  else
    echo "PASS $name (libcurl/libcrypto mapped: $has)"
  fi
}
echo '{"a": [1, 2]}' > "${TMPDIR:-/tmp}/anvil-lazy-$$.json"
trap 'rm -f "${TMPDIR:-/tmp}/anvil-lazy-$$.json"' EXIT
check no "anvil --version" "$anvil" --version
check no "anvil query" "$anvil" query a "${TMPDIR:-/tmp}/anvil-lazy-$$.json"
check no "anvil json" "$anvil" json "${TMPDIR:-/tmp}/anvil-lazy-$$.json"
check no "anvil waiters" "$anvil" waiters "$model"
check no "anvil validate" "$anvil" validate "$model"
check yes "anvil call --dry-run" env HOME=/nonexistent AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=AKIDEXAMPLE \
  AWS_SECRET_ACCESS_KEY=secret AWS_EC2_METADATA_DISABLED=true "$anvil" call --model "$model" DescribeTable \
  --input '{"TableName": "t"}' --dry-run
exit $fail
