#!/usr/bin/env bash
# Runs `anvil json` on every JSONTestSuite file: y_ must exit 0, n_ must exit
# 65 with "FILE:LINE:COLUMN: message" on stderr, i_ must do what the library
# runner's table says (accepted = 0, rejected = 65). Never a crash (>= 128).
set -uo pipefail
anvil=$1 dir=$2
[[ -d $dir ]] || { echo "no such directory: $dir"; exit 2; }
rejected_i=" i_number_huge_exp.json i_number_neg_int_huge_exp.json i_number_pos_double_huge_exp.json "
rejected_i+=" i_number_real_neg_overflow.json i_number_real_pos_overflow.json "
pass=0 fail=0
for f in "$dir"/*.json; do
  name=$(basename "$f")
  err=$("$anvil" json --quiet "$f" 2>&1 >/dev/null)
  code=$?
  case $name in
    y_*) want=0 ;;
    n_*) want=65 ;;
    i_string_*|i_object_key_*) want=65 ;;
    i_*) if [[ $rejected_i == *" $name "* ]]; then want=65; else want=0; fi ;;
  esac
  if [[ $code != "$want" ]]; then
    echo "FAIL $name: exit $code, want $want ${err:+($err)}"
    fail=$((fail + 1))
  elif [[ $want == 65 ]] && ! { [[ $err == "$f:"* ]] && grep -Eq ":[0-9]+:[0-9]+: .+" <<<"${err#"$f"}"; }; then
    echo "FAIL $name: error not in FILE:LINE:COLUMN: message form: $err"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done
echo "JSONTestSuite via anvil json: $pass passed, $fail failed"
echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
