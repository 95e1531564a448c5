#!/usr/bin/env bash
# Commands that make no HTTP call never map libcurl or libcrypto (issue 21's lean process); a
# command that builds a client maps libcrypto (SigV4), and libcurl only when an exchange goes
# through it (a proxy, ANVIL_HTTP=curl): anvil's own transport carries the rest. The dynamic
# loader says what it opens (LD_DEBUG=files). Usage: lazy_libraries.sh ANVIL TESTDATA
set -euo pipefail
anvil=$1
testdata=$2
model=$testdata/smithy-models/aws/dynamodb-2012-08-10.json
fail=0
opened() { # the shared objects a run opened, one per line
  LD_DEBUG=files "$@" 2>&1 >/dev/null | sed -n 's/.*file=\([^ ]*\) *\[0\];  *needed by.*/\1/p; s/.*file=\([^ ]*\) *\[0\];  *dynamically loaded by.*/\1/p' | sort -u
}
check() { # CURL (yes|no) CRYPTO (yes|no) NAME CMD...
  local want_curl=$1 want_crypto=$2 name=$3
  shift 3
  local libs
  libs=$(opened "$@" || true)
  local curl=no crypto=no
  grep -Eq '^libcurl' <<< "$libs" && curl=yes
  grep -Eq '^libcrypto' <<< "$libs" && crypto=yes
  if [[ $curl != "$want_curl" || $crypto != "$want_crypto" ]]; then
    echo "FAIL $name: libcurl mapped: $curl (want $want_curl), libcrypto: $crypto (want $want_crypto);" \
      "opened: $(tr '\n' ' ' <<< "$libs")"
    fail=1
  else
    echo "PASS $name (libcurl mapped: $curl, libcrypto: $crypto)"
  fi
}
echo '{"a": [1, 2]}' > "${TMPDIR:-/tmp}/anvil-lazy-$$.json"
trap 'rm -f "${TMPDIR:-/tmp}/anvil-lazy-$$.json"' EXIT
check no no "anvil --version" "$anvil" --version
check no no "anvil query" "$anvil" query a "${TMPDIR:-/tmp}/anvil-lazy-$$.json"
check no no "anvil json" "$anvil" json "${TMPDIR:-/tmp}/anvil-lazy-$$.json"
check no no "anvil waiters" "$anvil" waiters "$model"
check no no "anvil validate" "$anvil" validate "$model"
env=(env -u http_proxy -u https_proxy -u HTTPS_PROXY -u all_proxy -u ALL_PROXY -u ANVIL_HTTP HOME=/nonexistent
  AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=secret AWS_EC2_METADATA_DISABLED=true)
check no yes "anvil call --dry-run" "${env[@]}" "$anvil" call --model "$model" DescribeTable \
  --input '{"TableName": "t"}' --dry-run
# A call that goes out (to a port nothing listens on): anvil's own transport, no libcurl.
check no yes "anvil call" "${env[@]}" "$anvil" call --model "$model" ListTables --endpoint-url http://127.0.0.1:9 \
  --retry-max-attempts 1
check yes yes "anvil call, http_proxy set" "${env[@]}" http_proxy=http://127.0.0.1:9 "$anvil" call --model "$model" \
  ListTables --endpoint-url http://127.0.0.1:9 --retry-max-attempts 1
check yes yes "anvil call, ANVIL_HTTP=curl" "${env[@]}" ANVIL_HTTP=curl "$anvil" call --model "$model" ListTables \
  --endpoint-url http://127.0.0.1:9 --retry-max-attempts 1
exit $fail
