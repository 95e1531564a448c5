#!/usr/bin/env bash
# `anvil gen` over every shared AWS model, and each generated file compiled with the build's
# compiler and warnings as errors (public headers only). Prints the totals the generator reports.
# Usage: compile_models.sh ANVIL CC INCLUDE_DIR MODELS_DIR [EXTRA CFLAGS...]
set -euo pipefail
anvil=$1 cc=$2 include=$3 models=$4
shift 4
work=$(mktemp -d)
root=$(cd "$(dirname "$0")/../.." && pwd)
format=$(command -v clang-format || true)
trap 'rm -rf "$work"' EXIT
flags=(-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
       -Wpointer-arith -Wvla -Wformat=2 -Wundef -Werror -I"$include" "$@")
services=0 waiters=0 acceptors=0 matchers=0 compiled=0 fallbacks=0 failed=0
for model in "$models"/*.json; do
  name=$(basename "$model" .json)
  prefix=$(printf '%s' "$name" | sed 's/-[0-9]\{4\}-[0-9]\{2\}-[0-9]\{2\}$//; s/[^A-Za-z0-9]/_/g')
  mkdir -p "$work/$prefix"
  # The interpreted form too: its fallback code must compile as well.
  mkdir -p "$work/$prefix/interpret"
  if ! "$anvil" gen --model "$model" --prefix "$prefix" --out "$work/$prefix/interpret" --interpret 2> /dev/null ||
     ! "$cc" "${flags[@]}" -c "$work/$prefix/interpret/$prefix.c" -o "$work/$prefix/interpret/$prefix.o" \
       2> "$work/$prefix/interpret.err"; then
    echo "FAIL interpreted $name:"; head -20 "$work/$prefix/interpret.err"; failed=$((failed + 1))
  fi
  if ! "$anvil" gen --model "$model" --prefix "$prefix" --out "$work/$prefix" 2> "$work/$prefix/gen.err"; then
    echo "FAIL gen $name: $(cat "$work/$prefix/gen.err")"; failed=$((failed + 1)); continue
  fi
  read -r w a m c f < <(sed -n 's/^anvil: gen: \([0-9]*\) waiters (\([0-9]*\) acceptors), \([0-9]*\) matchers: \([0-9]*\) compiled, \([0-9]*\) interpreted.*/\1 \2 \3 \4 \5/p' "$work/$prefix/gen.err")
  services=$((services + 1)) waiters=$((waiters + w)) acceptors=$((acceptors + a)) matchers=$((matchers + m))
  compiled=$((compiled + c)) fallbacks=$((fallbacks + f))
  grep -h 'Interpreted, not compiled' "$work/$prefix/$prefix.c" | sed "s/^/  $name: /" || true
  # Both files laid out exactly as the project's clang-format lays them out.
  for ext in h c; do
    if [[ -n $format ]] && ! "$format" --style="file:$root/.clang-format" "$work/$prefix/$prefix.$ext" |
         diff -u "$work/$prefix/$prefix.$ext" - > "$work/$prefix/format.diff"; then
      echo "FAIL format $name.$ext:"; head -20 "$work/$prefix/format.diff"; failed=$((failed + 1))
    fi
  done
  if ! "$cc" "${flags[@]}" -c "$work/$prefix/$prefix.c" -o "$work/$prefix/$prefix.o" 2> "$work/$prefix/cc.err"; then
    echo "FAIL compile $name:"; head -20 "$work/$prefix/cc.err"; failed=$((failed + 1))
  fi
done
echo "anvil gen: $services services, $waiters waiters, $acceptors acceptors, $matchers matchers: $compiled compiled, $fallbacks interpreted; $failed failed"
[[ $failed == 0 ]]
