#!/usr/bin/env bash
# anvil over HTTPS: the fault-injecting proxy answers TLS in front of dynalite, with a server
# certificate for 127.0.0.1 from a CA this test makes (and another CA that signed nothing). Where
# trust comes from (src/transport/tls_trust.h): a CA bundle is the only trust; SSL_CERT_FILE and
# SSL_CERT_DIR are OpenSSL's; the host name is checked; nothing else verifies the server.
# Usage: tls.sh ANVIL TESTDATA_DIR
set -euo pipefail
anvil=$1
model=$2/smithy-models/aws/dynamodb-2012-08-10.json
command -v openssl > /dev/null || { echo "SKIP: no openssl tool (apt install openssl)"; exit 77; }

certs=$(mktemp -d)
cleanup_certs() { rm -rf "$certs"; }
# Two days either side of now: certificates made for this run only.
ca() { # NAME: a self-signed CA
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$certs/$1.key" -out "$certs/$1.pem" \
    -days 2 -subj "/CN=anvil test $1" -addext basicConstraints=critical,CA:TRUE \
    -addext keyUsage=critical,keyCertSign,cRLSign 2> /dev/null
}
ca ca
ca other
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$certs/server.key" \
  -out "$certs/server.csr" -subj "/CN=anvil test server" 2> /dev/null
printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > "$certs/ext"
openssl x509 -req -in "$certs/server.csr" -CA "$certs/ca.pem" -CAkey "$certs/ca.key" -CAcreateserial \
  -out "$certs/server.pem" -days 2 -extfile "$certs/ext" 2> /dev/null
# OpenSSL's hashed directory holding the CA (what update-ca-certificates makes of /etc/ssl/certs).
mkdir "$certs/dir"
ln -s ../ca.pem "$certs/dir/$(openssl x509 -hash -noout -in "$certs/ca.pem").0"

export E2E_TLS_CERT=$certs/server.pem E2E_TLS_KEY=$certs/server.key
source "$(dirname "$0")/lib.sh"
e2e_start 0
trap 'kill "$dynalite_pid" "$proxy_pid" 2>/dev/null || true; rm -rf "$work"; cleanup_certs' EXIT
unset AWS_CA_BUNDLE SSL_CERT_FILE SSL_CERT_DIR
[[ ${http[1]} == https://* ]] || fail "the proxy is not HTTPS: ${http[*]}"
table='{"TableName":"orders","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}'

"$anvil" call --model "$model" CreateTable "${http[@]}" --ca-bundle "$certs/ca.pem" --input "$table" > /dev/null ||
  fail "CreateTable over HTTPS with --ca-bundle"

# Each case over anvil's own transport (src/transport/http_conn.h), then over libcurl (ANVIL_HTTP=curl,
# what a configured proxy gets): the same trust, the same refusals.
for transport in anvil curl; do
if [[ $transport == curl ]]; then export ANVIL_HTTP=curl; else unset ANVIL_HTTP; fi
echo "-- over $transport's transport"
# Trusted four ways: --ca-bundle, AWS_CA_BUNDLE, SSL_CERT_FILE, SSL_CERT_DIR.
AWS_CA_BUNDLE=$certs/ca.pem "$anvil" call --model "$model" ListTables "${http[@]}" > "$work/out" ||
  fail "ListTables with AWS_CA_BUNDLE"
grep -q '"orders"' "$work/out" || fail "ListTables with AWS_CA_BUNDLE: $(cat "$work/out")"
SSL_CERT_FILE=$certs/ca.pem "$anvil" call --model "$model" ListTables "${http[@]}" > /dev/null ||
  fail "ListTables with SSL_CERT_FILE"
SSL_CERT_DIR=$certs/dir "$anvil" wait --model "$model" TableExists "${http[@]}" --input '{"TableName":"orders"}' \
  --max-wait 30 --min-delay 1 --max-delay 1 --output json > "$work/wait.json" ||
  fail "TableExists with SSL_CERT_DIR: $(cat "$work/wait.json")"
grep -q '"reason":"success"' "$work/wait.json" || fail "TableExists over HTTPS: $(cat "$work/wait.json")"
echo "ok: HTTPS verified with --ca-bundle, AWS_CA_BUNDLE, SSL_CERT_FILE and SSL_CERT_DIR (a wait included)"

# Refused: whatever the answer, no request may reach the emulator (the proxy logs each one it read).
refused() { # WHAT ARGS...: the call must fail on the certificate, before any request is read
  local what=$1
  shift
  : > "$work/log"
  set +e
  "$@" > "$work/out" 2> "$work/err"
  local code=$?
  set -e
  [[ $code != 0 ]] || fail "$what: the call succeeded"
  grep -qi 'certificate\|SSL' "$work/err" || fail "$what: exit $code, no TLS reason: $(cat "$work/err")"
  [[ ! -s $work/log ]] || fail "$what: a request got through"
}
refused "no trust given" "$anvil" call --model "$model" ListTables "${http[@]}" --retry-max-attempts 1
refused "a bundle of another CA" "$anvil" call --model "$model" ListTables "${http[@]}" --retry-max-attempts 1 \
  --ca-bundle "$certs/other.pem"
# The bundle replaces the system's trust and OpenSSL's variables, as it does for the AWS CLI.
SSL_CERT_DIR=$certs/dir SSL_CERT_FILE=$certs/ca.pem refused "a bundle with SSL_CERT_* set" \
  "$anvil" call --model "$model" ListTables "${http[@]}" --retry-max-attempts 1 --ca-bundle "$certs/other.pem"
refused "a name the certificate does not hold" "$anvil" call --model "$model" ListTables \
  --endpoint-url "https://localhost:$proxy_port" --retry-max-attempts 1 --ca-bundle "$certs/ca.pem"
grep -Eq "hostname mismatch: the certificate is not for 'localhost'|no alternative certificate subject name matches target host name 'localhost'" "$work/err" ||
  fail "the host name check does not say so: $(cat "$work/err")"
refused "no trust given, with --debug" "$anvil" call --model "$model" ListTables "${http[@]}" --debug
grep -q 'unable to get local issuer certificate' "$work/err" || fail "no reason given: $(cat "$work/err")"
[[ $(grep -c -- '-> no answer' "$work/err") == 1 ]] || fail "a verification failure was retried: $(cat "$work/err")"
SSL_CERT_FILE=$certs/missing.pem refused "SSL_CERT_FILE naming no file" \
  "$anvil" call --model "$model" ListTables "${http[@]}" --debug
grep -q "$certs/missing.pem" "$work/err" || fail "the missing CA file is not named: $(cat "$work/err")"
[[ $(grep -c -- '-> no answer' "$work/err") == 1 ]] || fail "an unreadable CA file was retried: $(cat "$work/err")"
echo "ok: refused without trust, with another CA's bundle (SSL_CERT_* set or not), for another host name, and" \
  "with a CA file that is not there; the reason is given, and nothing is retried"
done
