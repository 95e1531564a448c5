#!/usr/bin/env bash
# A scripted operation for `anvil wait --exec` tests:
#   sequence.sh COUNTER_FILE REPLY...
# answers its Nth call with the Nth REPLY (the last one repeats). A REPLY is
#   out:JSON   exit 0 with JSON on standard output
#   echo       exit 0, printing the input it was given
#   err:TEXT   exit 1 with TEXT on standard error
#   crash      exit 2 with nothing said
set -eu
counter=$1
shift
n=0
[[ -f $counter ]] && n=$(cat "$counter")
echo $((n + 1)) > "$counter"
index=$((n < $# ? n + 1 : $#))
reply=${!index}
input=$(cat)
case $reply in
  out:*) printf '%s\n' "${reply#out:}" ;;
  echo) printf '%s\n' "$input" ;;
  err:*) printf '%s\n' "${reply#err:}" >&2; exit 1 ;;
  crash) exit 2 ;;
  *) echo "sequence.sh: unknown reply '$reply'" >&2; exit 70 ;;
esac
