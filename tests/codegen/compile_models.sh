#!/usr/bin/env bash
# `anvil gen` over every model of a folder, and each generated file compiled with the build's compiler and
# warnings as errors (public headers only) and checked to be laid out as the project's clang-format lays it
# out. Prints the totals the generator reports.
# Usage: [ANVIL_LINK="LIBANVIL.a -lcurl ..."] compile_models.sh ANVIL CC INCLUDE_DIR MODELS_DIR [EXTRA CFLAGS...]
#   With ANVIL_LINK, each generated file is also linked into a program that loads the embedded model
#   (PREFIX_model() must not be NULL: the model a program carries must load).
#   MODELS_DIR holds Smithy JSON AST files (*.json), or is botocore's data folder (SERVICE/VERSION/...):
#   then every service with a waiters-2.json, its newest version, with the waiters and paginators beside it.
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

# gen_and_compile NAME MODEL: the generated files of MODEL compiled (compiled and interpreted forms) and checked.
gen_and_compile() {
  local name=$1 model=$2 prefix w a m c f
  prefix=$(printf '%s' "$name" | sed 's/-[0-9]\{4\}-[0-9]\{2\}-[0-9]\{2\}$//; s/[^A-Za-z0-9]/_/g')
  # The interpreted form too: its fallback code must compile as well.
  mkdir -p "$work/$prefix/interpret"
  if ! "$anvil" gen --model "$model" --prefix "$prefix" --out "$work/$prefix/interpret" --interpret \
       2> "$work/$prefix/interpret.err" ||
     ! "$cc" "${flags[@]}" -c "$work/$prefix/interpret/$prefix.c" -o "$work/$prefix/interpret/$prefix.o" \
       2> "$work/$prefix/interpret.err"; then
    echo "FAIL interpreted $name:"; head -20 "$work/$prefix/interpret.err"; failed=$((failed + 1))
  fi
  if ! "$anvil" gen --model "$model" --prefix "$prefix" --out "$work/$prefix" 2> "$work/$prefix/gen.err"; then
    echo "FAIL gen $name: $(cat "$work/$prefix/gen.err")"; failed=$((failed + 1)); return
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
  elif [[ -n ${ANVIL_LINK:-} ]]; then
    printf '#include "%s.h"\nint main(void) {\n    return %s_model() ? 0 : 1;\n}\n' "$prefix" "$prefix" \
      > "$work/$prefix/main.c"
    # shellcheck disable=SC2086 # ANVIL_LINK is a list of arguments
    if ! "$cc" "${flags[@]}" -I"$work/$prefix" "$work/$prefix/main.c" "$work/$prefix/$prefix.o" $ANVIL_LINK \
         -o "$work/$prefix/main" 2> "$work/$prefix/link.err" || ! "$work/$prefix/main"; then
      echo "FAIL model $name: the embedded model does not load"; head -20 "$work/$prefix/link.err"
      failed=$((failed + 1))
    fi
    rm -f "$work/$prefix/main"
  fi
  rm -f "$work/$prefix/$prefix.o" "$work/$prefix/interpret/$prefix.o"
}

if compgen -G "$models/*/*/service-2.json*" > /dev/null; then
  for dir in "$models"/*/; do
    service=$(basename "$dir")
    newest=$(find "$dir" -mindepth 2 -maxdepth 2 -name 'service-2.json*' | sort | tail -1)
    # Services whose waiters-2.json defines a waiter (some ship an empty one).
    [[ -n $newest ]] && zgrep -qs '"acceptors"' "$(dirname "$newest")"/waiters-2.json* 2> /dev/null || continue
    gen_and_compile "$service" "$newest"
  done
  what="botocore services"
else
  for model in "$models"/*.json; do
    gen_and_compile "$(basename "$model" .json)" "$model"
  done
  what=services
fi
echo "anvil gen: $services $what, $waiters waiters, $acceptors acceptors, $matchers matchers: $compiled compiled, $fallbacks interpreted; $failed failed"
[[ $failed == 0 ]]
