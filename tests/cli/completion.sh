#!/usr/bin/env bash
# Completes command lines through the generated bash completion script, as bash would on TAB,
# and checks the zsh function parses (when zsh is installed).
# Usage: completion.sh ANVIL BASH_SCRIPT ZSH_SCRIPT TESTDATA
set -uo pipefail
anvil=$(realpath "$1") bash_script=$2 zsh_script=$3 testdata=$4
here=$(cd "$(dirname "$0")" && pwd)
data=$here/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=/dev/null
source "$bash_script" || { echo "FAIL: sourcing $bash_script"; exit 1; }

fail=0
# check 'WANT' WORD...: completes the last WORD of `anvil WORD...`; WANT is the sorted candidates, space-separated.
check() {
  local want=$1
  shift
  COMP_WORDS=("$anvil" "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _anvil
  local got
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
  if [[ $got != "$want" ]]; then
    echo "FAIL: anvil $*<TAB>"
    echo "  want: $want"
    echo "  got:  $got"
    fail=1
  fi
}
# has 'NAME' WORD...: NAME is among the candidates.
has() {
  local name=$1
  shift
  COMP_WORDS=("$anvil" "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _anvil
  if ! printf '%s\n' "${COMPREPLY[@]}" | grep -qxF -- "$name"; then
    echo "FAIL: anvil $*<TAB> does not offer $name (offers: ${COMPREPLY[*]})"
    fail=1
  fi
}

# Commands and global options.
check 'wait waiters' wa
check 'validate version' v
check '--version' --ver
check 'call' --help ca
# Options, and the values of those that take one of a few.
check '--output' wait --out
check 'json text' wait --output ''
check 'json' wait -o j
# bash splits --output=VALUE into --output, = and VALUE.
check 'json text' wait --output = ''
check 'auto json none' wait --progress ''
check 'adaptive standard' call --retry-mode ''
check 'continue error stop' paginate --duplicates ''
check '--max-attempts --max-delay --max-in-flight --max-response-bytes --max-rps --max-wait' wait --max-
check '' wait --max-wait ''
# Waiters and operations from the model on the command line.
check 'OldResourceReady ResourceNamed ResourceReady' wait --model "$data/resource.json" ''
check 'ResourceNamed ResourceReady' wait -m "$data/resource.json" --max-wait 5 Res
check 'ThingGone ThingReady' wait --botocore "$data/botocore/anvilecho/2020-01-01/waiters-2.json" ''
check 'ZipReady' wait --botocore = "$data/botocore/anvilzip/2021-01-01/waiters-2.json.gz" ''
ANVIL_MODEL_PATH=$data/botocore check 'ThingGone ThingReady' wait --service anvilecho ''
check '' wait ''
check '' wait --model /nonexistent/model.json ''
if [[ -f $testdata/smithy-models/aws/dynamodb-2012-08-10.json ]]; then
  dynamodb=$testdata/smithy-models/aws/dynamodb-2012-08-10.json
  check 'TableExists TableNotExists' wait --model "$dynamodb" ''
  check 'DescribeTable DescribeTableReplicaAutoScaling DescribeTimeToLive' call --model "$dynamodb" DescribeT
  has 'CreateTable' endpoint --model "$dynamodb" --operation ''
  # paginate offers only the paginated operations.
  has 'ListTables' paginate --model "$dynamodb" ''
  check '' paginate --model "$dynamodb" CreateT
else
  echo "skipped the dynamodb model cases: no $testdata/smithy-models"
fi
# Files, folders and commands.
mkdir -p "$work/dir.d"
touch "$work/file.json"
check "$work/dir.d $work/file.json" json "$work/"
check "$work/dir.d" gen --out "$work/"
has 'ls' wait --model m.json W --exec l
has 'help' help he
# A hostile model: names that are shell code are never offered, nor run.
cat > "$work/waiters-2.json" << 'JSON'
{"version": 2, "waiters": {"$(touch PWNED)": {"operation": "Op", "delay": 1, "maxAttempts": 2,
  "acceptors": [{"state": "success", "matcher": "status", "expected": 200}]},
  "Fine": {"operation": "Op", "delay": 1, "maxAttempts": 2,
  "acceptors": [{"state": "success", "matcher": "status", "expected": 200}]}}}
JSON
(cd "$work" && check 'Fine' wait --botocore "$work/waiters-2.json" '')
[[ -e $work/PWNED ]] && { echo "FAIL: a waiter's name ran"; fail=1; }
printf '{"smithy": "2.0", "shapes": {' > "$work/broken.json"
check '' wait --model "$work/broken.json" ''
# The helper prints nothing but names: no message on a bad model.
out=$("$anvil" __complete waiters --model "$work/broken.json" 2>&1)
[[ -z $out ]] || { echo "FAIL: __complete printed: $out"; fail=1; }
out=$("$anvil" __complete waiters --model /dev/stdin 2>&1 < /dev/null)
[[ -z $out ]] || { echo "FAIL: __complete read standard input: $out"; fail=1; }

if command -v shellcheck > /dev/null; then
  shellcheck -s bash "$bash_script" || { echo "FAIL: shellcheck $bash_script"; fail=1; }
fi
if command -v zsh > /dev/null; then
  zsh -n "$zsh_script" || { echo "FAIL: zsh -n $zsh_script"; fail=1; }
else
  echo "skipped zsh -n: no zsh"
  [[ -s $zsh_script ]] || { echo "FAIL: $zsh_script is missing or empty"; fail=1; }
fi

[[ $fail == 0 ]] && echo "PASS completion"
exit $fail
