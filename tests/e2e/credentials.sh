#!/usr/bin/env bash
# The credential chain against fakes on 127.0.0.1 (tests/servers/fake_creds.js:
# IMDSv2, the ECS container endpoint, STS): `anvil credentials` names the
# provider, the key's last 4 characters and the expiry, never a secret, and a
# call signs with what the chain gave. Each provider alone, the chain's order,
# role chains through source_profile and credential_source, web identity, and
# every failure message.
# Usage: credentials.sh ANVIL TESTDATA_DIR
set -euo pipefail
anvil=$1
servers=$(cd "$(dirname "$0")/../servers" && pwd)
work=$(mktemp -d)
cat > "$work/script.json" <<'JSON'
{"imds": {"role": "fleet", "region": "eu-west-1",
          "credentials": [{"AccessKeyId": "ASIAIMDS00000000AAA1", "SecretAccessKey": "imds-secret-1",
                           "Token": "imds-token-1", "Expiration": "+3600"}]},
 "ecs": {"path": "/v2/credentials/task", "authorization": "ecs-auth-token",
         "credentials": [{"AccessKeyId": "ASIAECS000000000BBB2", "SecretAccessKey": "ecs-secret-1",
                          "Token": "ecs-token-1", "Expiration": "+900"}]},
 "sso": {"access_tokens": ["sso-access-1"],
         "roles": {"123456789012/Admin": {"credentials": [
            {"accessKeyId": "ASIASSO000000000HHH8", "secretAccessKey": "sso-secret-1", "sessionToken": "sso-token-1",
             "expiration": 4102444800000}]}}},
 "oidc": {"client_id": "client-1", "client_secret": "oidc-client-secret",
          "refresh_tokens": {"oidc-refresh-1": {"accessToken": "sso-access-2", "expiresIn": 28800,
                                                "refreshToken": "oidc-refresh-2"}}},
 "sts": {"keys": {"AKIDSOURCE00000CCC3": "source-secret"},
         "roles": {"arn:aws:iam::123456789012:role/dev": {"credentials": [
                      {"AccessKeyId": "ASIADEV000000000DDD4", "SecretAccessKey": "dev-secret-1",
                       "SessionToken": "dev-token-1", "Expiration": "+3600"}]},
                   "arn:aws:iam::210987654321:role/prod": {"external_id": "ext-123", "credentials": [
                      {"AccessKeyId": "ASIAPROD00000000EEE5", "SecretAccessKey": "prod-secret-1",
                       "SessionToken": "prod-token-1", "Expiration": "+3600"}]},
                   "arn:aws:iam::123456789012:role/short": {"credentials": [
                      {"AccessKeyId": "ASIASHORT0000000III9", "SecretAccessKey": "short-secret",
                       "SessionToken": "short-token", "Expiration": "+900"}]},
                   "arn:aws:iam::123456789012:role/web": {"credentials": [
                      {"AccessKeyId": "ASIAWEB000000000FFF6", "SecretAccessKey": "web-secret-1",
                       "SessionToken": "web-token-1", "Expiration": "+3600"}]}},
         "web_identity": {"eyJhbGciOiJub25lIn0.eyJzdWIiOiJwb2QifQ.sig": "arn:aws:iam::123456789012:role/web"}}}
JSON
: > "$work/log"
coproc SERVER { exec node "$servers/fake_creds.js" "$work/script.json" "$work/log"; }
server_pid=$SERVER_PID
trap 'kill "$server_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
read -r -t 20 word port <&"${SERVER[0]}"
[[ $word == PORT ]] || { echo "the fake did not start"; exit 1; }
fake=http://127.0.0.1:$port
fail() { echo "FAIL: $*"; echo "--- fake log"; cat "$work/log"; exit 1; }

mkdir -p "$work/home/.aws"
cat > "$work/home/.aws/credentials" <<'INI'
[base]
aws_access_key_id = AKIDSOURCE00000CCC3
aws_secret_access_key = source-secret
INI
cat > "$work/home/.aws/config" <<'INI'
[profile dev]
role_arn = arn:aws:iam::123456789012:role/dev
source_profile = base
[profile prod]
role_arn = arn:aws:iam::210987654321:role/prod
source_profile = dev
external_id = ext-123
[profile prod-no-external-id]
role_arn = arn:aws:iam::210987654321:role/prod
source_profile = dev
[profile on-instance]
role_arn = arn:aws:iam::123456789012:role/dev
credential_source = Ec2InstanceMetadata
[profile top]
role_arn = arn:aws:iam::123456789012:role/dev
source_profile = mid-with-keys
[profile mid-with-keys]
role_arn = arn:aws:iam::210987654321:role/prod
source_profile = base
aws_access_key_id = AKIDSOURCE00000CCC3
aws_secret_access_key = source-secret
[profile short]
role_arn = arn:aws:iam::123456789012:role/short
source_profile = base
[profile process]
credential_process = "WORK/creds tool" --account 123456789012
[profile process-fails]
credential_process = false
[profile sso]
sso_session = corp
sso_account_id = 123456789012
sso_role_name = Admin
[sso-session corp]
sso_start_url = https://corp.awsapps.com/start
sso_region = us-east-1
[profile sso-legacy]
sso_start_url = https://legacy.awsapps.com/start
sso_region = us-east-1
sso_account_id = 123456789012
sso_role_name = Admin
INI
mkdir -p "$work/home/.aws/sso/cache"
corp=$work/home/.aws/sso/cache/$(printf '%s' corp | sha1sum | cut -c1-40).json
legacy=$work/home/.aws/sso/cache/$(printf '%s' https://legacy.awsapps.com/start | sha1sum | cut -c1-40).json
sed -i "s|WORK|$work|" "$work/home/.aws/config"
cat > "$work/creds tool" <<'SH'
#!/bin/sh
# A credential_process: its arguments arrive as words, no shell in between.
[ "$1" = --account ] || { echo "bad arguments: $*" >&2; exit 2; }
printf '{"Version": 1, "AccessKeyId": "AKIDPROCESS00000JJJ0", "SecretAccessKey": "process-secret", "SessionToken": "process-token", "Expiration": "2099-01-01T00:00:00Z", "AccountId": "%s"}\n' "$2"
SH
chmod +x "$work/creds tool"
printf '%s' 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJwb2QifQ.sig' > "$work/web-token"
secrets='process-secret|process-token|short-secret|short-token|sso-secret|sso-token|sso-access|oidc-client-secret|oidc-refresh|imds-secret|imds-token|ecs-secret|ecs-token|ecs-auth-token|source-secret|dev-secret|dev-token|prod-secret|prod-token|web-secret|web-token-1|eyJhbGci'

# run EXIT ENV... -- ARGS...: `anvil credentials ARGS` in a clean environment; stdout in out, stderr in err.
run() {
  local want=$1
  shift
  local envs=()
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  set +e
  env -i PATH="$PATH" HOME="$work/home" AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true \
    AWS_ENDPOINT_URL_STS="$fake" AWS_ENDPOINT_URL_SSO="$fake" AWS_ENDPOINT_URL_SSO_OIDC="$fake" ${envs[@]+"${envs[@]}"} "$anvil" credentials "$@" > "$work/out" 2> "$work/err"
  local code=$?
  set -e
  [[ $code == "$want" ]] || fail "credentials $* (${envs[*]-}): exit $code, want $want: $(cat "$work/out" "$work/err")"
  if grep -Eq "$secrets" "$work/out" "$work/err"; then
    fail "a secret was printed: $(cat "$work/out" "$work/err")"
  fi
}
expect_json() { grep -qF "$1" "$work/out" || fail "want $1 in: $(cat "$work/out")"; }
expect_err() { grep -qF "$1" "$work/err" || fail "want $1 in: $(cat "$work/err")"; }

# Instance metadata alone (IMDSv2: a token first, then the role and its credentials).
run 0 AWS_EC2_METADATA_DISABLED=false AWS_EC2_METADATA_SERVICE_ENDPOINT="$fake" -- --output json --debug
expect_json '"provider": "imds"'
expect_json '"access_key_id": "...AAA1"'
grep -q '^imds PUT /latest/api/token 200' "$work/log" || fail "no IMDSv2 token request"
grep -q '^imds GETv1' "$work/log" && fail "an IMDSv1 request"
expect_err 'debug: credentials: instance metadata: PUT'

# The container endpoint, its authorization token checked; a wrong one named, never shown.
run 0 AWS_CONTAINER_CREDENTIALS_FULL_URI="$fake/v2/credentials/task" AWS_CONTAINER_AUTHORIZATION_TOKEN=ecs-auth-token -- -o json
expect_json '"provider": "ecs"'
expect_json '"access_key_id": "...BBB2"'
run 78 AWS_CONTAINER_CREDENTIALS_FULL_URI="$fake/v2/credentials/task" AWS_CONTAINER_AUTHORIZATION_TOKEN=wrong -- -o json
expect_err 'container: http://127.0.0.1'
expect_err 'HTTP 401'
run 78 AWS_CONTAINER_CREDENTIALS_FULL_URI=http://example.com/creds -- -o json
expect_err 'must be https://, or http:// to a loopback address'

# FULL_URI as the transport reads it: an octal-looking host (a resolver's 87.0.0.1), user information, a host
# name, a mapped address: refused. Only what inet_pton reads as an address counts as one.
for uri in http://0127.0.0.1/creds "http://user:pw@127.0.0.1:$port/v2/credentials/task" http://127.0.0.1.example.com/creds \
  'http://[::ffff:127.0.0.1]/creds'; do
  run 78 AWS_CONTAINER_CREDENTIALS_FULL_URI="$uri" AWS_CONTAINER_AUTHORIZATION_TOKEN=ecs-auth-token --
  expect_err 'must be https://, or http:// to a loopback address'
  grep -q 'pw' "$work/err" && fail "user information shown: $(cat "$work/err")"
done
run 0 AWS_CONTAINER_CREDENTIALS_FULL_URI="http://localhost:$port/v2/credentials/task?sig=QUERYSECRET" \
  AWS_CONTAINER_AUTHORIZATION_TOKEN=ecs-auth-token -- -o json --debug
grep -q QUERYSECRET "$work/out" "$work/err" && fail "the URL's query shown: $(cat "$work/out" "$work/err")"

# The environment before everything else; a container setting after profiles.
run 0 AWS_ACCESS_KEY_ID=AKIDENVIRONMENT0GGG7 AWS_SECRET_ACCESS_KEY=env-secret \
  AWS_CONTAINER_CREDENTIALS_FULL_URI="$fake/v2/credentials/task" AWS_CONTAINER_AUTHORIZATION_TOKEN=ecs-auth-token -- -o json
expect_json '"provider": "environment"'
expect_json '"expires": null'

# A role through source_profile: STS AssumeRole signed with base's keys.
run 0 -- --profile dev -o json
expect_json '"provider": "assume-role"'
expect_json '"access_key_id": "...DDD4"'
grep -q '^sts AssumeRole arn:aws:iam::123456789012:role/dev 200' "$work/log" || fail "no AssumeRole of dev"
# Two hops, the second signed with the first role's credentials, with its external id.
run 0 -- --profile prod -o json
expect_json '"access_key_id": "...EEE5"'
run 78 -- --profile prod-no-external-id
expect_err 'profile `prod-no-external-id`: STS AssumeRole of arn:aws:iam::210987654321:role/prod failed: AccessDenied'
# A source profile with keys signs with them, even with a role of its own (botocore): one hop, not two.
: > "$work/log"
run 0 -- --profile top -o json
expect_json '"access_key_id": "...DDD4"'
[[ $(grep -c '^sts AssumeRole' "$work/log") == 1 ]] || fail "top: not one AssumeRole: $(cat "$work/log")"
# AWS_ROLE_ARN alone configures nothing: the profile's keys.
run 0 AWS_ROLE_ARN=arn:aws:iam::123456789012:role/web -- --profile base -o json
expect_json '"provider": "profile"'
# credential_source: the instance's credentials sign the AssumeRole.
run 0 AWS_EC2_METADATA_DISABLED=false AWS_EC2_METADATA_SERVICE_ENDPOINT="$fake" -- --profile on-instance -o json
expect_json '"provider": "assume-role"'

# IMDS whose token request never answers (a container behind a hop limit of 1): IMDSv1 only when allowed.
cp "$work/script.json" "$work/script.saved"
sed -i 's/"imds": {"role": "fleet",/"imds": {"token_status": "hang", "token_required": false, "role": "fleet",/' "$work/script.json"
run 0 AWS_EC2_METADATA_DISABLED=false AWS_EC2_METADATA_SERVICE_ENDPOINT="$fake" AWS_METADATA_SERVICE_TIMEOUT=0.3 \
  AWS_EC2_METADATA_V1_DISABLED=false -- -o json
expect_json '"provider": "imds"'
grep -q '^imds GETv1' "$work/log" || fail "no IMDSv1 request"
run 78 AWS_EC2_METADATA_DISABLED=false AWS_EC2_METADATA_SERVICE_ENDPOINT="$fake" AWS_METADATA_SERVICE_TIMEOUT=0.3 --
expect_err 'instance metadata: http://127.0.0.1'
run 78 AWS_EC2_METADATA_DISABLED=false AWS_METADATA_SERVICE_TIMEOUT=0.0001 --
expect_err 'AWS_METADATA_SERVICE_TIMEOUT must be seconds from 0.001 to 3600'
cp "$work/script.saved" "$work/script.json"

# Web identity from the environment: unsigned AssumeRoleWithWebIdentity with the token file's token.
run 0 AWS_WEB_IDENTITY_TOKEN_FILE="$work/web-token" AWS_ROLE_ARN=arn:aws:iam::123456789012:role/web -- -o json
expect_json '"provider": "web-identity"'
expect_json '"access_key_id": "...FFF6"'
printf 'not-the-token' > "$work/bad-token"
run 78 AWS_WEB_IDENTITY_TOKEN_FILE="$work/bad-token" AWS_ROLE_ARN=arn:aws:iam::123456789012:role/web --
expect_err 'web identity: STS AssumeRoleWithWebIdentity of arn:aws:iam::123456789012:role/web failed: InvalidIdentityToken'
run 78 AWS_WEB_IDENTITY_TOKEN_FILE="$work/missing" AWS_ROLE_ARN=arn:aws:iam::123456789012:role/web --
expect_err 'web identity: cannot read the web identity token file'

# SSO: the cached token (the SHA-1 of the session name) for GetRoleCredentials.
printf '{"startUrl": "https://corp.awsapps.com/start", "region": "us-east-1", "accessToken": "sso-access-1", "expiresAt": "2099-01-01T00:00:00Z"}' > "$corp"
run 0 -- --profile sso -o json
expect_json '"provider": "sso"'
expect_json '"access_key_id": "...HHH8"'
# A token near its end is refreshed through SSO OIDC first, and written back.
printf '{"startUrl": "https://corp.awsapps.com/start", "region": "us-east-1", "accessToken": "sso-access-old", "expiresAt": "2001-01-01T00:00:00Z", "clientId": "client-1", "clientSecret": "oidc-client-secret", "refreshToken": "oidc-refresh-1", "registrationExpiresAt": "2099-01-01T00:00:00Z"}' > "$corp"
run 0 -- --profile sso -o json
expect_json '"provider": "sso"'
grep -q '^oidc CreateToken client-1 200' "$work/log" || fail "no CreateToken"
grep -q '"accessToken": "sso-access-2"' "$corp" || fail "the refreshed token was not written back: $(cat "$corp")"
grep -q '"refreshToken": "oidc-refresh-2"' "$corp" || fail "the new refresh token was not written back"
grep -q '"clientId": "client-1"' "$corp" || fail "the cache lost its other fields"
# A legacy profile's token cannot be refreshed: expired is the user's to renew.
printf '{"startUrl": "https://legacy.awsapps.com/start", "region": "us-east-1", "accessToken": "sso-access-1", "expiresAt": "2001-01-01T00:00:00Z"}' > "$legacy"
run 78 -- --profile sso-legacy
expect_err 'profile `sso-legacy`: the SSO token expired at 2001-01-01T00:00:00Z; run `aws sso login`'
printf '{"accessToken": "sso-access-unknown", "expiresAt": "2099-01-01T00:00:00Z"}' > "$legacy"
run 78 -- --profile sso-legacy
expect_err 'SSO GetRoleCredentials of Admin in 123456789012 failed: UnauthorizedException; run `aws sso login`'
rm "$legacy"
run 78 -- --profile sso-legacy
expect_err 'profile `sso-legacy`: no SSO token'

# credential_process: run without a shell (a quoted path with a space), its JSON read.
run 0 -- --profile process -o json
expect_json '"provider": "process"'
expect_json '"access_key_id": "...JJJ0"'
expect_json '"expires": "2099-01-01T00:00:00Z"'
run 78 -- --profile process-fails
expect_err 'profile `process-fails`: credential_process exited 1'

# Nothing configured: every provider named with why.
run 78 HOME="$work/nowhere" --
expect_err 'no credentials: environment: AWS_ACCESS_KEY_ID is not set; profile `default`: in neither'
expect_err 'instance metadata: AWS_EC2_METADATA_DISABLED is true'
run 78 -- --profile nosuch
expect_err 'the profile `nosuch` is in neither'

# A call signs with the role's credentials: the dry run shows them in its Authorization and token headers.
set +e
env -i PATH="$PATH" HOME="$work/home" AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true AWS_ENDPOINT_URL_STS="$fake" \
  "$anvil" call --model "$2/smithy-models/aws/dynamodb-2012-08-10.json" ListTables --profile dev --dry-run --debug > "$work/out" 2> "$work/err"
code=$?
set -e
[[ $code == 0 ]] || fail "call --dry-run: exit $code: $(cat "$work/err")"
grep -q 'Credential=ASIADEV000000000DDD4/' "$work/out" || fail "the call did not sign with the role: $(cat "$work/out")"
grep -q 'STS AssumeRole of arn:aws:iam::123456789012:role/dev' "$work/err" || fail "--debug does not name the role: $(cat "$work/err")"
grep -q '"X-Amz-Security-Token": "(11 bytes, not shown)"' "$work/out" || fail "the session token shown: $(cat "$work/out")"
if grep -Eq "$secrets" "$work/err"; then fail "a secret in --debug: $(cat "$work/err")"; fi
# On an instance without a configured region, the instance's (IMDS placement/region), credentials from IMDS too.
set +e
env -i PATH="$PATH" HOME="$work/nowhere" AWS_EC2_METADATA_SERVICE_ENDPOINT="$fake" \
  "$anvil" call --model "$2/smithy-models/aws/dynamodb-2012-08-10.json" ListTables --dry-run > "$work/out" 2> "$work/err"
code=$?
set -e
[[ $code == 0 ]] || fail "call on an instance: exit $code: $(cat "$work/err")"
grep -q 'https://dynamodb.eu-west-1.amazonaws.com' "$work/out" || fail "not the instance's region: $(cat "$work/out")"
grep -q 'Credential=ASIAIMDS00000000AAA1/[0-9]*/eu-west-1/' "$work/out" || fail "not IMDS's credentials: $(cat "$work/out")"

# Two simulated hours of waiting under a role whose credentials live 15 minutes: refreshed ahead of
# expiry (the fake dates them by each request's X-Amz-Date, so on the fake clock), no request refused.
: > "$work/log"
set +e
env -i PATH="$PATH" HOME="$work/home" AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true AWS_ENDPOINT_URL_STS="$fake" \
  ANVIL_FAKE_TIME=1 "$anvil" wait --model "$(dirname "$0")/data/sts_caller.smithy" AccountIsNever --profile short \
  --endpoint-url "$fake" --max-wait 7200 --output json > "$work/out" 2> "$work/err"
code=$?
set -e
[[ $code == 2 ]] || fail "the long wait: exit $code, want 2 (timed out): $(cat "$work/out" "$work/err")"
grep -q '"reason":"timed-out"' "$work/out" || fail "the long wait: $(cat "$work/out")"
calls=$(grep -c '^sts GetCallerIdentity .* 200$' "$work/log" || true)
refused=$(grep -c '^sts GetCallerIdentity' "$work/log" | tr -d ' ')
roles=$(grep -c '^sts AssumeRole arn:aws:iam::123456789012:role/short 200$' "$work/log" || true)
[[ $calls == "$refused" && $calls -ge 50 ]] || fail "the long wait: $calls of $refused calls answered 200"
[[ $roles -ge 8 && $roles -le 20 ]] || fail "the long wait: $roles AssumeRole calls for 2 hours of 15-minute credentials"
if grep -Eq "$secrets" "$work/out" "$work/err"; then fail "a secret was printed by the wait"; fi
echo "PASS credentials"
