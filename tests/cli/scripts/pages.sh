#!/usr/bin/env bash
# A scripted paginated operation for `anvil paginate --exec` tests:
#   pages.sh TOKEN_MEMBER PAGE1 PAGE2 ...
# reads the request on standard input and answers page K when the request's
# TOKEN_MEMBER is "pK" (page 1 when it has none), with the request echoed
# back as the member "Request" so tests can see what each page asked for.
set -eu
member=$1
shift
request=$(cat)
k=$(printf '%s' "$request" | sed -n "s/.*\"$member\":\"p\([0-9]*\)\".*/\1/p")
k=${k:-1}
if (( k < 1 || k > $# )); then
  echo "{\"code\": \"InvalidToken\", \"message\": \"no page $k\"}" >&2
  exit 1
fi
page=${!k}
printf '{"Request":%s,%s\n' "$request" "${page#\{}"
